import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { orderProblems } from '../treeSitter/compilerRules';

/**
 * What the Go compiler refuses that tree-sitter-go accepts: a file without its `package` clause first, a second one,
 * and an import after the other declarations (the compiler's messages).
 */
export function goCompilerProblems(root: Node): SyntaxProblem[] {
  const nodes = root.namedChildren;
  const first = nodes.find((node) => node.type !== 'comment');
  const problems: SyntaxProblem[] = [];
  if (first !== undefined && !nodes.some((node) => node.type === 'package_clause')) {
    problems.push({
      message: 'syntax error: package statement must be first',
      line: first.startPosition.row + 1,
      column: first.startPosition.column + 1,
    });
  }
  return [
    ...problems,
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
