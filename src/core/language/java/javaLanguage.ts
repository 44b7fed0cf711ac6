import { treeSitterLanguage } from '../treeSitter/treeSitterLanguage';
import { withReferences } from '../treeSitter/treeSitterReferences';
import { javaReferenceRules } from './javaReferences';
import { javaSpec } from './javaSpec';

/**
 * Java, through the tree-sitter grammar VS Code itself ships (@vscode/tree-sitter-wasm), with
 * its references read from the syntax (javaReferences.ts).
 */
export const javaLanguage = withReferences(treeSitterLanguage(javaSpec), javaSpec, javaReferenceRules);
