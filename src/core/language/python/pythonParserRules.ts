import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { problemAt } from '../treeSitter/compilerRules';
import type { PythonLines } from './pythonRules';

/**
 * What CPython's parser and compiler refuse that tree-sitter's Python grammar accepts (issue 25: the language fuzz
 * wrote each of these as ok and `python -m py_compile` refused it): a `try` without `except` or `finally`, call
 * arguments out of CPython's order or a keyword given twice, and a statement the grammar ran on over a line end
 * (tree-sitter reads a line break as a space wherever its grammar cannot end a statement: `elseFz:` followed by an
 * indented line is an annotated assignment to it). Messages are CPython's own.
 *
 * Each rule holds whatever surrounds the code (a call, a `try`, a logical line are whole in the text checked), so
 * content parsed alone inside the stand-in wrapper is checked as it will stand in the file.
 */

const SIMPLE_STATEMENTS = new Set([
  'future_import_statement',
  'import_statement',
  'import_from_statement',
  'print_statement',
  'assert_statement',
  'expression_statement',
  'return_statement',
  'delete_statement',
  'raise_statement',
  'pass_statement',
  'break_statement',
  'continue_statement',
  'global_statement',
  'nonlocal_statement',
  'exec_statement',
  'type_alias_statement',
]);

/** Statements and clauses with a header up to a `:` and a body after it. */
const COMPOUND_STATEMENTS = new Set([
  'if_statement',
  'elif_clause',
  'else_clause',
  'for_statement',
  'while_statement',
  'try_statement',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'with_statement',
  'function_definition',
  'class_definition',
  'match_statement',
  'case_clause',
]);

const EXCEPT_CLAUSES = new Set(['except_clause', 'except_group_clause']);

/** `try:` must go on with `except` or `finally`; an `else` is allowed only after an `except`. */
function tryProblem(statement: Node): SyntaxProblem | undefined {
  const clauses = statement.namedChildren.map((c) => c.type);
  if (clauses.some((type) => EXCEPT_CLAUSES.has(type))) return undefined;
  if (clauses.includes('finally_clause') && !clauses.includes('else_clause')) return undefined;
  return problemAt(statement, "expected 'except' or 'finally' block");
}

/**
 * The arguments of a call or a class's bases in CPython's order (positional ones, then keywords; `*x` not after
 * `**y`), and no keyword given twice.
 */
function argumentProblems(list: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const keywords = new Set<string>();
  let keyword = false;
  let unpacking = false;
  for (const argument of list.namedChildren) {
    switch (argument.type) {
      case 'comment':
        break;
      case 'keyword_argument': {
        keyword = true;
        const name = argument.childForFieldName('name')?.text;
        if (name === undefined) break;
        if (keywords.has(name)) problems.push(problemAt(argument, `keyword argument repeated: ${name}`));
        keywords.add(name);
        break;
      }
      case 'dictionary_splat':
        unpacking = true;
        break;
      case 'list_splat':
      case 'parenthesized_list_splat':
        if (unpacking)
          problems.push(problemAt(argument, 'iterable argument unpacking follows keyword argument unpacking'));
        break;
      default:
        if (unpacking) problems.push(problemAt(argument, 'positional argument follows keyword argument unpacking'));
        else if (keyword) problems.push(problemAt(argument, 'positional argument follows keyword argument'));
    }
  }
  return problems;
}

/**
 * Whether the logical line end at `offset` falls inside a simple statement or a compound statement's header: CPython
 * ends the statement there, tree-sitter ran on.
 */
function runsOver(root: Node, offset: number): boolean {
  for (let node: Node | null = root.descendantForIndex(offset, offset); node !== null; node = node.parent) {
    if (node.type === 'block' || node.type === 'module') return false;
    if (SIMPLE_STATEMENTS.has(node.type)) return node.startIndex < offset && offset < node.endIndex;
    if (COMPOUND_STATEMENTS.has(node.type)) {
      const colon = node.children.find((c) => c.type === ':');
      return colon !== undefined && node.startIndex < offset && offset < colon.startIndex;
    }
  }
  return false;
}

/** One pass over the tree for the try and argument rules, one look per logical line end for the statements. */
export function pythonParserProblems(root: Node, lines: PythonLines): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const node of root.descendantsOfType(['try_statement', 'argument_list'])) {
    if (node === null) continue;
    if (node.type === 'argument_list') problems.push(...argumentProblems(node));
    else {
      const problem = tryProblem(node);
      if (problem !== undefined) problems.push(problem);
    }
  }
  for (const end of lines.ends) {
    if (runsOver(root, end.offset)) problems.push({ message: 'invalid syntax', line: end.line, column: end.column });
  }
  return problems;
}
