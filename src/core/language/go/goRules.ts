import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { orderProblems, problemAt } from '../treeSitter/compilerRules';

/** What may stand at the top of a Go file: its clause, imports, declarations (and comments). */
const TOP_LEVEL = new Set([
  'package_clause',
  'import_declaration',
  'function_declaration',
  'method_declaration',
  'type_declaration',
  'var_declaration',
  'const_declaration',
  'comment',
]);

/**
 * What the Go compiler refuses that tree-sitter-go accepts: a `package` clause after other code, a second one,
 * an import after the other declarations, and a statement at the top of a file (tree-sitter-go reads `Option` or
 * `x := 1` there as a statement; the compiler's messages).
 */
export function goCompilerProblems(root: Node, text: string): SyntaxProblem[] {
  // A missing clause is not checked: content (a function alone) is parsed as a file too.
  const nodes = root.namedChildren;
  // `a.b := 1` and `f() := 1` parse as short variable declarations; only names may stand left of `:=`.
  const nonNames = root.descendantsOfType('short_var_declaration').flatMap((declaration) => {
    const left = declaration?.childForFieldName('left');
    const wrong = left?.namedChildren.find((n) => n !== null && n.type !== 'identifier' && n.type !== 'comment');
    return wrong === undefined || wrong === null
      ? []
      : [problemAt(wrong, `syntax error: non-name ${wrong.text} on left side of :=`)];
  });
  return [
    ...byteOrderMarks(text),
    ...nonNames,
    ...nodes
      .filter((node) => !TOP_LEVEL.has(node.type))
      .map((node) => problemAt(node, 'syntax error: non-declaration statement outside function body')),
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

/** A byte order mark anywhere but at the very start of the file: tree-sitter-go skips it, the compiler refuses it. */
function byteOrderMarks(text: string): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (let at = text.indexOf('\uFEFF', 1); at >= 0; at = text.indexOf('\uFEFF', at + 1)) {
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    problems.push({
      message: 'illegal byte order mark',
      line: text.slice(0, at).split('\n').length,
      column: at - lineStart + 1,
    });
  }
  return problems;
}
