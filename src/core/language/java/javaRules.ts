import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { constructorNameProblems, orderProblems } from '../treeSitter/compilerRules';

/**
 * What javac's parser refuses that tree-sitter-java accepts: a second `package` declaration, or one or an import
 * after the types of the file; a constructor not named after its class (javac reads it as a method without a return
 * type). Found by the language fuzz (issue 25).
 */
export function javaCompilerProblems(root: Node): SyntaxProblem[] {
  return [
    ...orderProblems(root.namedChildren, {
      stages: [['package_declaration'], ['import_declaration']],
      once: ['package_declaration'],
      ignored: (type) => type === 'line_comment' || type === 'block_comment',
      message: () => 'class, interface, enum, or record expected',
    }),
    ...constructorNameProblems(
      root,
      ['class_declaration', 'enum_declaration', 'record_declaration'],
      ['constructor_declaration', 'compact_constructor_declaration'],
      'invalid method declaration; return type required',
    ),
  ];
}
