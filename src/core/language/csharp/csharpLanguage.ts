import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { withReferences } from '../treeSitter/treeSitterReferences';
import { csharpReferenceRules } from './csharpReferences';
import { csharpSpec } from './csharpSpec';

/**
 * C#, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm), with
 * its references read from the syntax (csharpReferences.ts).
 */
export const csharpLanguage = withReferences(treeSitterLanguage(csharpSpec), csharpSpec, csharpReferenceRules);
