import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { withReferences } from '../treeSitter/treeSitterReferences';
import { pythonReferenceRules } from './pythonReferences';
import { pythonSpec } from './pythonSpec';

/**
 * Python, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm), with
 * its references read from the syntax (pythonReferences.ts).
 */
export const pythonLanguage = withReferences(treeSitterLanguage(pythonSpec), pythonSpec, pythonReferenceRules);
