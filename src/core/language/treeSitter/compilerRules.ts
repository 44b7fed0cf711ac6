import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from '../../elements/element';
import { STAND_IN_NAME } from './languageSpec';

/**
 * Rules the languages' own compilers enforce while parsing that the tree-sitter grammars, written for editors, do not
 * (issue 25: a file Scalpel writes must compile, not only parse for tree-sitter): the order of a file's header
 * declarations, and a constructor named after its class. Each language's spec says which apply (its
 * `compilerProblems`); messages are the compiler's own.
 */

/**
 * Whether `text` holds a lone CR (a classic Mac line break). Python and Java end a line there, their grammars do not
 * (a comment runs on over it), so rules that read the tree's structure are skipped for such text: they would report
 * what the compiler does not see. Apply plans and verifies such a file with LF in place of each lone CR
 * (applyOperations), where the rules hold again.
 */
export function hasLoneCr(text: string): boolean {
  return /\r(?!\n)/.test(text);
}

/** A problem at `node`'s start, 1-based as messages give it. */
export function problemAt(node: Node, message: string): SyntaxProblem {
  return { message, line: node.startPosition.row + 1, column: node.startPosition.column + 1 };
}

export interface OrderRule {
  /** Node types in the order they must come, one group per stage: `[['package_declaration'], ['import_declaration']]`. */
  readonly stages: ReadonlyArray<readonly string[]>;
  /** Types that may appear once. */
  readonly once?: readonly string[];
  /** Types that may sit anywhere (comments, preprocessor lines). */
  readonly ignored: (type: string) => boolean;
  /** The compiler's message for a declaration of this type out of its place. */
  readonly message: (type: string) => string;
}

/**
 * Declarations among `nodes` (siblings) out of the order `rule` gives: a staged one after a declaration of a later
 * stage or after any other code, a `once` one repeated.
 */
export function orderProblems(nodes: readonly Node[], rule: OrderRule): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const stageOf = (type: string): number => rule.stages.findIndex((stage) => stage.includes(type));
  let reached = 0;
  let code = false;
  const seen = new Set<string>();
  for (const node of nodes) {
    if (rule.ignored(node.type)) continue;
    const stage = stageOf(node.type);
    if (stage < 0) {
      code = true;
      continue;
    }
    const repeated = rule.once?.includes(node.type) === true && seen.has(node.type);
    if (repeated || code || stage < reached) problems.push(problemAt(node, rule.message(node.type)));
    seen.add(node.type);
    reached = Math.max(reached, stage);
  }
  return problems;
}

/**
 * Constructors whose name is not their type's: javac and the C# compiler parse them as methods without a return
 * type, and refuse them. `types` are the node types whose constructors are checked, `constructors` the constructor
 * node types (their `name` field is the name written).
 */
export function constructorNameProblems(
  root: Node,
  types: readonly string[],
  constructors: readonly string[],
  message: string,
): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const constructor of root.descendantsOfType([...constructors])) {
    if (constructor === null) continue;
    const name = constructor.childForFieldName('name')?.text;
    let owner = constructor.parent;
    while (owner !== null && !types.includes(owner.type)) owner = owner.parent;
    const typeName = owner?.childForFieldName('name')?.text;
    // The stand-in class a member alone is parsed in (wrapContent): its constructors may bear any name.
    if (name !== undefined && typeName !== undefined && typeName !== STAND_IN_NAME && name !== typeName)
      problems.push(problemAt(constructor, message));
  }
  return problems;
}
