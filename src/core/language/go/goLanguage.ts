import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { goSpec } from './goSpec';

/** Go, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm). */
export const goLanguage = treeSitterLanguage(goSpec);
