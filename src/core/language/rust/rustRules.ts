import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';

/**
 * What rustc's lexer and parser refuse that tree-sitter-rust accepts (found by the language fuzz, issue 25): a macro
 * call in item position delimited by `()` or `[]` without its `;` (a deleted or replaced `m!(...)` left without, or
 * with a stray `;`), and a bare CR (a line break of a classic Mac file) inside a doc comment or a string literal.
 */

function problemAt(node: Node, message: string): SyntaxProblem {
  return { message, line: node.startPosition.row + 1, column: node.startPosition.column + 1 };
}

const ITEM_LISTS = new Set(['source_file', 'declaration_list']);

function needsSemicolon(node: Node): boolean {
  if (node.type !== 'macro_invocation' || !ITEM_LISTS.has(node.parent?.type ?? '')) return false;
  const tree = node.namedChildren.find((child) => child.type === 'token_tree');
  const open = tree?.text.charAt(0);
  if (open !== '(' && open !== '[') return false;
  const next = node.nextSibling;
  return next?.type !== ';' && next?.type !== 'empty_statement';
}

const DOC_COMMENT = /^(?:\/\/[/!](?!\/)|\/\*[*!](?![*/]))/;
const LONE_CR = /\r(?!\n)/;

export function rustCompilerProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const node of root.descendantsOfType('macro_invocation')) {
    if (node !== null && needsSemicolon(node))
      problems.push(
        problemAt(node, 'macros that expand to items must be delimited with braces or followed by a semicolon'),
      );
  }
  if (root.text.includes('\r')) {
    for (const node of root.descendantsOfType([
      'line_comment',
      'block_comment',
      'string_literal',
      'raw_string_literal',
    ])) {
      if (node === null || !LONE_CR.test(node.text)) continue;
      if (node.type.endsWith('comment')) {
        if (DOC_COMMENT.test(node.text)) problems.push(problemAt(node, 'bare CR not allowed in doc-comment'));
      } else {
        problems.push(
          problemAt(node, `bare CR not allowed in ${node.type === 'raw_string_literal' ? 'raw string' : 'string'}`),
        );
      }
    }
  }
  return problems;
}
