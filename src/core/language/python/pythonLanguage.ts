import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { pythonSpec } from './pythonSpec';

/** Python, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm). */
export const pythonLanguage = treeSitterLanguage(pythonSpec);
