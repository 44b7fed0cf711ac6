import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { hasLoneCr, problemAt } from '../treeSitter/compilerRules';

/**
 * What rustc's lexer and parser refuse that tree-sitter-rust accepts (found by the language fuzz, issue 25): a macro
 * call in item position delimited by `()` or `[]` without its `;` (a deleted or replaced `m!(...)` left without, or
 * with a stray `;`), a bare CR (a line break of a classic Mac file) inside a doc comment or a string literal, an outer
 * doc comment (`///`, `/**`) with nothing after it to document, an inner one (`//!`, `/*!`) after an item, a statement
 * or a stray `;` among items, a `m!(...)` statement without its `;` before the next statement, and a function
 * parameter without its name.
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

/** Keywords as rustc names them in "found ..." (edition 2021); weak ones (`union`, `default`) are plain words. */
const STRICT_KEYWORDS = new Set(
  'as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while'.split(
    ' ',
  ),
);
const RESERVED_KEYWORDS = new Set(
  'abstract become box do final macro override priv try typeof unsized virtual yield'.split(' '),
);

/** A token as rustc quotes it: "keyword `let`", "`&`". */
function tokenWords(token: string): string {
  if (STRICT_KEYWORDS.has(token)) return `keyword \`${token}\``;
  if (RESERVED_KEYWORDS.has(token)) return `reserved keyword \`${token}\``;
  return `\`${token}\``;
}

/** The tokens of `node` in order, literals, lifetimes and labels whole. */
function* tokensOf(node: Node): Generator<Node> {
  if (node.childCount === 0 || /_literal$|^lifetime$|^label$/.test(node.type)) {
    yield node;
    return;
  }
  for (const child of node.children) if (child !== null) yield* tokensOf(child);
}

const PATH_TOKENS = new Set(['identifier', '::', 'self', 'super', 'crate', 'Self']);

/**
 * What rustc says of a statement where an item belongs: a path it reads as a macro call's (`foo(1);` is "missing
 * `fn` or `struct`...", `a.b;` wants `!` after `a`), any other token is "expected item, found ...".
 */
function notAnItem(statement: Node): string {
  const tokens = [...tokensOf(statement)];
  const first = tokens[0];
  if (first === undefined) return 'expected item';
  if (first.type !== 'identifier' && first.type !== 'self' && first.type !== 'super' && first.type !== 'crate')
    return `expected item, found ${tokenWords(first.text)}`;
  const next = tokens.find((token) => !PATH_TOKENS.has(token.type));
  if (next?.type === '(') return 'missing `fn` or `struct` for function or struct definition';
  return `expected one of \`!\` or \`::\`, found ${next === undefined ? '`<eof>`' : tokenWords(next.text)}`;
}

/** The `{`, `(` or `[` a macro call's arguments open with. */
const delimiterOf = (macro: Node): string | undefined =>
  macro.namedChildren.find((child) => child.type === 'token_tree')?.text.charAt(0);

function previousCode(node: Node): Node | null {
  let previous = node.previousNamedSibling;
  while (previous !== null && isComment(previous)) previous = previous.previousNamedSibling;
  return previous;
}

/**
 * Statements among items, which tree-sitter-rust reads as it reads a block's: a `let`, an expression, a `;` that
 * ends no `m!(...)` call (after an item, after `m! { }`, a second one). A module's list and the file say "expected
 * item", an impl's, a trait's and an extern block's "non-item in item list".
 */
function nonItemProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const lists = [root, ...root.descendantsOfType('declaration_list')];
  for (const list of lists) {
    if (list === null) continue;
    const module = list.type === 'source_file' || list.parent?.type === 'mod_item';
    const say = (node: Node, words: string): void => {
      problems.push(problemAt(node, module ? words : 'non-item in item list'));
    };
    for (const node of list.namedChildren) {
      if (node.type === 'let_declaration') say(node, notAnItem(node));
      else if (node.type === 'empty_statement') {
        const previous = previousCode(node);
        const open = previous?.type === 'macro_invocation' ? delimiterOf(previous) : undefined;
        if (open !== '(' && open !== '[') say(node, 'expected item, found `;`');
      } else if (node.type === 'expression_statement') {
        const inner = node.namedChildren[0];
        if (inner?.type !== 'macro_invocation') say(node, notAnItem(node));
        else if (delimiterOf(inner) === '{') {
          const semicolon = node.children.find((child) => child.type === ';');
          if (semicolon !== undefined) say(semicolon, 'expected item, found `;`');
        }
      }
    }
  }
  return problems;
}

/**
 * A `m!(...)` or `m![...]` call in a block, not its last statement, without the `;` that ends it: tree-sitter-rust
 * reads it as an item-like macro call, rustc as an expression that wants its `;` before the next statement. Only a
 * next statement that begins with a word or a literal is certain: after `&`, `-`, `(`, rustc reads on as one
 * expression (`a!(1)\n&x` is `a!(1) & x`), as tree-sitter does.
 */
function blockMacroProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const block of root.descendantsOfType('block')) {
    for (const node of block?.namedChildren ?? []) {
      if (node.type !== 'macro_invocation') continue;
      const open = delimiterOf(node);
      if (open !== '(' && open !== '[') continue;
      let next = node.nextNamedSibling;
      while (next !== null && isComment(next)) next = next.nextNamedSibling;
      if (next === null || next.type === 'empty_statement') continue;
      const token = tokensOf(next).next().value;
      if (token === undefined || !/^[\p{L}\p{N}_'"]/u.test(token.text) || token.text === 'as') continue;
      problems.push({
        message: `expected \`;\`, found ${tokenWords(token.text)}`,
        line: node.endPosition.row + 1,
        column: node.endPosition.column + 1,
      });
    }
  }
  return problems;
}

const NOT_A_BARE_TYPE = new Set([
  'parameter',
  'self_parameter',
  'variadic_parameter',
  'attribute_item',
  'line_comment',
  'block_comment',
]);
/** Tokens rustc reads as the start of a pattern: `&mut a::B` is one, `Vec<u8>` stops at `<`. */
const PATTERN_TOKENS = new Set(['&', 'mut', '::', 'identifier', 'type_identifier', 'primitive_type', 'self', 'super']);

/**
 * A function parameter without its name (`fn f(&self, u8)`): tree-sitter-rust reads a bare type, as in `fn(u8)`
 * types; rustc reads a pattern and wants its `:`. The 2015 edition still allows it in a trait's functions, so those
 * are left alone.
 */
function bareTypeParameterProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const parameters of root.descendantsOfType('parameters')) {
    const owner = parameters?.parent;
    if (parameters === null || owner?.type !== 'function_item' || owner.parent?.parent?.type === 'trait_item') continue;
    for (const node of parameters.namedChildren) {
      if (NOT_A_BARE_TYPE.has(node.type)) continue;
      const found = [...tokensOf(node)].find((token) => !PATTERN_TOKENS.has(token.type)) ?? node.nextSibling;
      problems.push(problemAt(node, `expected one of \`:\`, \`@\`, or \`|\`, found ${tokenWords(found?.text ?? ')')}`));
    }
  }
  return problems;
}

export function rustCompilerProblems(root: Node, text: string): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [
    ...docCommentProblems(root),
    ...nonItemProblems(root),
    ...blockMacroProblems(root),
    ...bareTypeParameterProblems(root),
  ];
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
