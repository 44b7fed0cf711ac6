import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { csharpSpec } from './csharpSpec';

/** C#, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm). */
export const csharpLanguage = treeSitterLanguage(csharpSpec);
