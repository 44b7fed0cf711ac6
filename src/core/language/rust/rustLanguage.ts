import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { rustSpec } from './rustSpec';

/** Rust, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm). */
export const rustLanguage = treeSitterLanguage(rustSpec);
