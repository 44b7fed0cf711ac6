import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { STAND_IN_NAME } from '../treeSitter/languageSpec';

/**
 * What CPython's compiler refuses after parsing, from its symbol table and its checks of where statements may stand
 * (issue 25: the language fuzz wrote files `python -m py_compile` refuses): a parameter named twice, `return`,
 * `yield` or `await` outside the function that allows them, `break`/`continue` outside a loop, and `nonlocal` or
 * `global` declarations CPython cannot resolve. Messages are CPython's own.
 *
 * Every rule reports only what is certain from the tree: where the answer depends on context the tree does not hold
 * (content parsed alone inside the stand-in wrapper, comprehension scopes, a binding that may be in an enclosing
 * function), nothing is reported, so a right edit is never refused for it. The whole file is checked again after the
 * edit, with its real context.
 */

const FUNCTION = 'function_definition';
const CLASS = 'class_definition';
const LAMBDA = 'lambda';
const COMPREHENSIONS = new Set([
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
]);

function problemAt(node: Node, message: string): SyntaxProblem {
  return { message, line: node.startPosition.row + 1, column: node.startPosition.column + 1 };
}

function isStandIn(node: Node): boolean {
  return (node.type === FUNCTION || node.type === CLASS) && node.childForFieldName('name')?.text === STAND_IN_NAME;
}

function isAsync(def: Node): boolean {
  return def.children.some((child) => child.type === 'async');
}

/** The names a `def` or `lambda` declares as parameters, in order, repeats kept. */
function parameterNames(scope: Node): Node[] {
  const parameters = scope.childForFieldName('parameters');
  if (parameters === null) return [];
  const names: Node[] = [];
  for (const parameter of parameters.namedChildren) {
    let name: Node | null = null;
    switch (parameter.type) {
      case 'identifier':
        name = parameter;
        break;
      case 'default_parameter':
      case 'typed_default_parameter':
        name = parameter.childForFieldName('name');
        break;
      case 'typed_parameter':
      case 'list_splat_pattern':
      case 'dictionary_splat_pattern': {
        const first = parameter.namedChildren[0] ?? null;
        name =
          first?.type === 'identifier' ? first : (first?.namedChildren.find((c) => c.type === 'identifier') ?? null);
        break;
      }
      default:
        break;
    }
    if (name?.type === 'identifier') names.push(name);
  }
  return names;
}

/**
 * Walks from `node` up to the scope that decides whether it may stand there: `decide` answers per ancestor with
 * CPython's message, `null` when it is allowed or cannot be told from the tree, `undefined` to walk on.
 */
function decideUp(node: Node, decide: (ancestor: Node, from: Node) => string | null | undefined): string | null {
  let from = node;
  for (let at = node.parent; at !== null; from = at, at = at.parent) {
    if (isStandIn(at)) return null;
    const verdict = decide(at, from);
    if (verdict !== undefined) return verdict;
  }
  return null;
}

const atTop = (at: Node): boolean => at.type === CLASS || at.type === 'module';

const placementRules: ReadonlyArray<{
  readonly type: string;
  readonly decide: (ancestor: Node, from: Node) => string | null | undefined;
}> = [
  {
    type: 'return_statement',
    decide: (at) => (at.type === FUNCTION ? null : atTop(at) ? "'return' outside function" : undefined),
  },
  {
    type: 'yield',
    decide: (at) =>
      at.type === FUNCTION || at.type === LAMBDA || COMPREHENSIONS.has(at.type)
        ? null
        : atTop(at)
          ? "'yield' outside function"
          : undefined,
  },
  {
    type: 'await',
    decide: (at) => {
      if (at.type === FUNCTION) return isAsync(at) ? null : "'await' outside async function";
      if (at.type === LAMBDA) return "'await' outside async function";
      if (COMPREHENSIONS.has(at.type) || at.type === CLASS) return null;
      return at.type === 'module' ? "'await' outside function" : undefined;
    },
  },
  ...(
    [
      ['break_statement', "'break' outside loop"],
      ['continue_statement', "'continue' not properly in loop"],
    ] as const
  ).map(([type, message]) => ({
    type,
    decide: (at: Node, from: Node): string | null | undefined => {
      // In a loop's body; its `else` clause is outside it.
      if (at.type === 'for_statement' || at.type === 'while_statement')
        return at.childForFieldName('body')?.id === from.id ? null : undefined;
      return at.type === FUNCTION || atTop(at) ? message : undefined;
    },
  })),
];

/** The function scopes around `node`, innermost first, class bodies skipped; undefined when one is the stand-in. */
function enclosingFunctions(node: Node): Node[] | undefined {
  const functions: Node[] = [];
  for (let at = node.parent; at !== null; at = at.parent) {
    if (isStandIn(at)) return undefined;
    if (at.type === FUNCTION || at.type === LAMBDA) functions.push(at);
  }
  return functions;
}

/** Whether `name` occurs as an identifier anywhere in `scope` outside `except` (a sound over-approximation of "binds"). */
function mentions(scope: Node, name: string, except: Node): boolean {
  for (const identifier of scope.descendantsOfType('identifier')) {
    if (identifier === null || identifier.text !== name) continue;
    if (identifier.startIndex >= except.startIndex && identifier.endIndex <= except.endIndex) continue;
    return true;
  }
  return false;
}

function declarationProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const statement of root.descendantsOfType(['nonlocal_statement', 'global_statement'])) {
    if (statement === null) continue;
    const nonlocal = statement.type === 'nonlocal_statement';
    const functions = enclosingFunctions(statement);
    if (functions === undefined) continue;
    const own = functions[0];
    const inClass = (() => {
      for (let at = statement.parent; at !== null && at !== own; at = at.parent) if (at.type === CLASS) return true;
      return false;
    })();
    if (own === undefined && !inClass) {
      if (nonlocal) problems.push(problemAt(statement, 'nonlocal declaration not allowed at module level'));
      continue;
    }
    const parameters = !inClass && own !== undefined ? new Set(parameterNames(own).map((n) => n.text)) : new Set();
    for (const name of statement.namedChildren.filter((c) => c.type === 'identifier')) {
      if (parameters.has(name.text)) {
        problems.push(problemAt(statement, `name '${name.text}' is parameter and ${nonlocal ? 'nonlocal' : 'global'}`));
        continue;
      }
      if (!nonlocal) continue;
      // The scopes that may bind it: every enclosing function but the declaration's own (or, in a class body, all).
      const outer = inClass ? functions : functions.slice(1);
      const innermost = inClass ? statement : (own ?? statement);
      if (!outer.some((scope) => mentions(scope, name.text, innermost)))
        problems.push(problemAt(statement, `no binding for nonlocal '${name.text}' found`));
    }
  }
  return problems;
}

export function pythonScopeProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const scope of root.descendantsOfType([FUNCTION, LAMBDA])) {
    if (scope === null) continue;
    const seen = new Set<string>();
    for (const name of parameterNames(scope)) {
      if (seen.has(name.text))
        problems.push(problemAt(name, `duplicate argument '${name.text}' in function definition`));
      seen.add(name.text);
    }
  }
  for (const rule of placementRules) {
    for (const node of root.descendantsOfType(rule.type)) {
      const message = node === null ? null : decideUp(node, rule.decide);
      if (node !== null && message !== null) problems.push(problemAt(node, message));
    }
  }
  problems.push(...declarationProblems(root));
  return problems;
}
