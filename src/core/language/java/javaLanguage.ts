import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { javaSpec } from './javaSpec';

/** Java, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm). */
export const javaLanguage = treeSitterLanguage(javaSpec);
