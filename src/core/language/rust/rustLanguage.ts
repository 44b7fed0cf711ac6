import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { withReferences } from '../treeSitter/treeSitterReferences';
import { rustReferenceRules } from './rustReferences';
import { rustSpec } from './rustSpec';

/**
 * Rust, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm), with
 * its references read from the syntax (rustReferences.ts).
 */
export const rustLanguage = withReferences(treeSitterLanguage(rustSpec), rustSpec, rustReferenceRules);
