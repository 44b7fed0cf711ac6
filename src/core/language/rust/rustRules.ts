import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { hasLoneCr, problemAt } from '../treeSitter/compilerRules';

/**
 * What rustc's lexer and parser refuse that tree-sitter-rust accepts (found by the language fuzz, issue 25): a macro
 * call in item position delimited by `()` or `[]` without its `;` (a deleted or replaced `m!(...)` left without, or
 * with a stray `;`), a bare CR (a line break of a classic Mac file) inside a doc comment or a string literal, an outer
 * doc comment (`///`, `/**`) with nothing after it to document, and an inner one (`//!`, `/*!`) after an item.
 */

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

/** Where rustc reads doc comments as attributes of what follows (in a macro's tokens or an expression it does not). */
const DOC_HOLDERS = new Set([
  'source_file',
  'declaration_list',
  'field_declaration_list',
  'enum_variant_list',
  'block',
]);
const INNER_DOC_HOLDERS = new Set(['source_file', 'declaration_list', 'block']);
const isComment = (node: Node): boolean => node.type === 'line_comment' || node.type === 'block_comment';

/**
 * Doc comments rustc refuses: an outer one that documents nothing (last in its list, or followed by comments only),
 * and an inner one after the first item of its module or block.
 */
function docCommentProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const comment of root.descendantsOfType(['line_comment', 'block_comment'])) {
    const parent = comment?.parent ?? null;
    if (comment === null || parent === null) continue;
    if (comment.childForFieldName('outer') !== null && DOC_HOLDERS.has(parent.type)) {
      let next = comment.nextNamedSibling;
      while (next !== null && isComment(next)) next = next.nextNamedSibling;
      if (next === null)
        problems.push(
          problemAt(
            comment,
            parent.type === 'source_file'
              ? 'expected item after doc comment'
              : "found a documentation comment that doesn't document anything",
          ),
        );
    } else if (comment.childForFieldName('inner') !== null && INNER_DOC_HOLDERS.has(parent.type)) {
      let previous = comment.previousNamedSibling;
      while (previous !== null && (isComment(previous) || previous.type === 'inner_attribute_item'))
        previous = previous.previousNamedSibling;
      if (previous !== null) problems.push(problemAt(comment, 'expected outer doc comment'));
    }
  }
  return problems;
}

export function rustCompilerProblems(root: Node, text: string): SyntaxProblem[] {
  const problems: SyntaxProblem[] = docCommentProblems(root);
  for (const node of root.descendantsOfType('macro_invocation')) {
    if (node !== null && needsSemicolon(node))
      problems.push(
        problemAt(node, 'macros that expand to items must be delimited with braces or followed by a semicolon'),
      );
  }
  if (text.includes('\r')) {
    for (const node of root.descendantsOfType([
      'line_comment',
      'block_comment',
      'string_literal',
      'raw_string_literal',
    ])) {
      if (node === null || !hasLoneCr(node.text)) continue;
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
