import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { constructorNameProblems, hasLoneCr, orderProblems, problemAt } from '../treeSitter/compilerRules';

/**
 * What javac's parser refuses that tree-sitter-java accepts: a second `package` declaration, or one or an import
 * after the types of the file; a member (a method, a field, a block) outside every type; a constructor not named after
 * its class (javac reads it as a method without a return type). Found by the language fuzz (issue 25).
 */

/** What a compilation unit may hold at its top level (JEP 445's implicit classes are a preview javac refuses). */
const TOP_LEVEL = new Set([
  'package_declaration',
  'import_declaration',
  'module_declaration',
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'annotation_type_declaration',
  'line_comment',
  'block_comment',
  'ERROR',
]);
export function javaCompilerProblems(root: Node, text: string): SyntaxProblem[] {
  return [
    ...(hasLoneCr(text) ? [] : root.namedChildren)
      .filter((node) => !TOP_LEVEL.has(node.type))
      .map((node) => problemAt(node, 'class, interface, enum, or record expected')),
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
