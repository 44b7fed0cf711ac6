import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { problemAt } from '../treeSitter/compilerRules';
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
function decideUp(node: Node, decide: Decide): string | null {
  let from = node;
  for (let at = node.parent; at !== null; from = at, at = at.parent) {
    if (isStandIn(at)) return null;
    const verdict = decide(at, from);
    if (verdict !== undefined) return verdict;
  }
  return null;
}

const atTop = (at: Node): boolean => at.type === CLASS || at.type === 'module';

/** `break` and `continue`: allowed in a loop's body (its `else` clause is outside it), up to the function or class. */
function inLoop(message: string): Decide {
  return (at, from) => {
    if (at.type === 'for_statement' || at.type === 'while_statement')
      return at.childForFieldName('body')?.id === from.id ? null : undefined;
    return at.type === FUNCTION || atTop(at) ? message : undefined;
  };
}

type Decide = (ancestor: Node, from: Node) => string | null | undefined;

/** Per node type, who decides whether a node of it may stand where it is. */
const placementRules = new Map<string, Decide>([
  ['return_statement', (at) => (at.type === FUNCTION ? null : atTop(at) ? "'return' outside function" : undefined)],
  [
    'yield',
    (at) =>
      at.type === FUNCTION || at.type === LAMBDA || COMPREHENSIONS.has(at.type)
        ? null
        : atTop(at)
          ? "'yield' outside function"
          : undefined,
  ],
  [
    'await',
    (at) => {
      if (at.type === FUNCTION) return isAsync(at) ? null : "'await' outside async function";
      if (at.type === LAMBDA) return "'await' outside async function";
      if (COMPREHENSIONS.has(at.type) || at.type === CLASS) return null;
      return at.type === 'module' ? "'await' outside function" : undefined;
    },
  ],
  ['break_statement', inLoop("'break' outside loop")],
  ['continue_statement', inLoop("'continue' not properly in loop")],
]);

/**
 * The function scopes around `node`, innermost first, and whether a class body holds it before the first of them;
 * undefined when one of them is the stand-in.
 */
function enclosingScopes(node: Node): { functions: Node[]; inClass: boolean } | undefined {
  const functions: Node[] = [];
  let inClass = false;
  for (let at = node.parent; at !== null; at = at.parent) {
    if (isStandIn(at)) return undefined;
    if (at.type === FUNCTION || at.type === LAMBDA) functions.push(at);
    else if (at.type === CLASS && functions.length === 0) inClass = true;
  }
  return { functions, inClass };
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

/** `nonlocal` and `global` declarations CPython cannot resolve. */
function declarationProblems(statement: Node): SyntaxProblem[] {
  const scopes = enclosingScopes(statement);
  if (scopes === undefined) return [];
  const nonlocal = statement.type === 'nonlocal_statement';
  const { functions, inClass } = scopes;
  // In a class body the declaration's own scope is the class: every enclosing function may bind the name.
  const own = inClass ? undefined : functions[0];
  if (own === undefined && !inClass)
    return nonlocal ? [problemAt(statement, 'nonlocal declaration not allowed at module level')] : [];
  const parameters = new Set(own === undefined ? [] : parameterNames(own).map((n) => n.text));
  const outer = own === undefined ? functions : functions.slice(1);
  const problems: SyntaxProblem[] = [];
  for (const name of statement.namedChildren.filter((c) => c.type === 'identifier')) {
    if (parameters.has(name.text))
      problems.push(problemAt(statement, `name '${name.text}' is parameter and ${nonlocal ? 'nonlocal' : 'global'}`));
    else if (nonlocal && !outer.some((scope) => mentions(scope, name.text, own ?? statement)))
      problems.push(problemAt(statement, `no binding for nonlocal '${name.text}' found`));
  }
  return problems;
}

/** One pass over the tree: the nodes every rule reads, each checked by its rule. */
export function pythonScopeProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const types = [FUNCTION, LAMBDA, 'nonlocal_statement', 'global_statement', ...placementRules.keys()];
  for (const node of root.descendantsOfType(types)) {
    if (node === null) continue;
    const decide = placementRules.get(node.type);
    if (decide !== undefined) {
      const message = decideUp(node, decide);
      if (message !== null) problems.push(problemAt(node, message));
    } else if (node.type === FUNCTION || node.type === LAMBDA) {
      const seen = new Set<string>();
      for (const name of parameterNames(node)) {
        if (seen.has(name.text))
          problems.push(problemAt(name, `duplicate argument '${name.text}' in function definition`));
        seen.add(name.text);
      }
    } else {
      problems.push(...declarationProblems(node));
    }
  }
  return problems;
}
