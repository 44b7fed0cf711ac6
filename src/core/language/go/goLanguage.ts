import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { withReferences } from '../treeSitter/treeSitterReferences';
import { goReferenceRules } from './goReferences';
import { goSpec } from './goSpec';

/**
 * Go, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm), with
 * its references read from the syntax (goReferences.ts).
 */
export const goLanguage = withReferences(treeSitterLanguage(goSpec), goSpec, goReferenceRules);
