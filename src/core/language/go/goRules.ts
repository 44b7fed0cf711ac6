import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { orderProblems } from '../treeSitter/compilerRules';

/**
 * What the Go compiler refuses that tree-sitter-go accepts: a `package` clause after other code, a second one,
 * and an import after the other declarations (the compiler's messages).
 */
export function goCompilerProblems(root: Node): SyntaxProblem[] {
  // A missing clause is not checked: content (a function alone) is parsed as a file too.
  const nodes = root.namedChildren;
  return [
    ...orderProblems(nodes, {
      stages: [['package_clause'], ['import_declaration']],
      once: ['package_clause'],
      ignored: (type) => type === 'comment',
      message: (type) =>
        type === 'package_clause'
          ? 'syntax error: package statement must be first'
          : 'syntax error: imports must appear before other declarations',
    }),
  ];
}
