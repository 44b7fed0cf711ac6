import type { ElementNode, FileOutline, TextRange } from '../../elements/element';
import { kindsCompatible } from '../../elements/elementPath';
import { languageFor, outlineSource } from '../../language/languages';
import type { Action, Expectation } from './actions';

/**
 * Checks an edited file before anything is returned: it parses with no syntax error the snapshot did not have, every
 * element no operation aimed at is still there with the same text, and every element an operation replaced, patched
 * or created is found where it belongs.
 */

export interface VerifyProblem {
  /** The operations to blame; undefined when it cannot be told from this check alone. */
  readonly ops: readonly number[] | undefined;
  readonly message: string;
  readonly hint: string;
}

function segment(element: ElementNode): string {
  return `${element.kind}[${element.name}]`;
}

/** Every element with the kind/name chain of its containers, depth first. */
function withChains(
  elements: readonly ElementNode[],
  chain: readonly string[] = [],
): { element: ElementNode; chain: readonly string[] }[] {
  const found: { element: ElementNode; chain: readonly string[] }[] = [];
  for (const element of elements) {
    found.push({ element, chain });
    found.push(...withChains(element.children, [...chain, segment(element)]));
  }
  return found;
}

function lineText(text: string, line: number): string {
  return (text.split('\n')[line - 1] ?? '').replace(/\r$/, '').trim();
}

function changedRanges(actions: readonly Action[]): { edited: TextRange[]; containers: TextRange[] } {
  const edited: TextRange[] = [];
  const containers: TextRange[] = [];
  for (const action of actions) {
    if (action.kind === 'insert') {
      if (action.containerRange !== undefined) containers.push(action.containerRange);
    } else {
      edited.push(action.range);
    }
  }
  return { edited, containers };
}

export function syntaxProblem(before: FileOutline, after: FileOutline): VerifyProblem | undefined {
  const known = new Map<string, number>();
  for (const problem of before.syntaxErrors) known.set(problem.message, (known.get(problem.message) ?? 0) + 1);
  for (const problem of after.syntaxErrors) {
    const left = known.get(problem.message) ?? 0;
    if (left > 0) {
      known.set(problem.message, left - 1);
      continue;
    }
    const shown = lineText(after.text, problem.line);
    return {
      ops: undefined,
      message: `the edited ${after.file} does not parse: ${problem.message} at line ${problem.line}${shown === '' ? '' : ` (\`${shown.slice(0, 120)}\`)`}`,
      hint: 'check that the code is complete and its brackets, quotes and commas balance',
    };
  }
  return undefined;
}

/** A file that lost the clause its language requires of every file (Go's `package`), as its compiler says it. */
function clauseProblem(before: FileOutline, after: FileOutline): VerifyProblem | undefined {
  const clause = languageFor(before.file)?.syntax?.fileClause;
  if (clause === undefined) return undefined;
  const has = (outline: FileOutline): boolean =>
    outline.elements.some((e) => e.kind === clause.kind && e.name === clause.name);
  if (!has(before) || has(after)) return undefined;
  const first = after.elements[0];
  // As the compiler names it: the first token of the first declaration, on its own line.
  const at = first?.declarationRange.start ?? after.text.length;
  const token = /^[^\s({;]+/.exec(after.text.slice(at))?.[0];
  const found = token === undefined ? 'EOF' : `'${token}'`;
  const line = after.text.slice(0, at).split('\n').length;
  return {
    ops: undefined,
    message: `the edited ${after.file} does not parse: ${clause.message} ${found}${token === undefined ? '' : ` at line ${line}`} (every file needs its ${clause.kind}[${clause.name}])`,
    hint: `keep ${clause.kind}[${clause.name}] first in the file`,
  };
}

export function verifyEdit(
  before: FileOutline,
  afterText: string,
  actions: readonly Action[],
  expectations: readonly Expectation[],
): VerifyProblem[] {
  const after = outlineSource(before.file, afterText);
  const syntax = syntaxProblem(before, after) ?? clauseProblem(before, after);
  if (syntax !== undefined) return [syntax];
  const problems: VerifyProblem[] = [];
  const { edited, containers } = changedRanges(actions);
  const afterElements = withChains(after.elements);
  const available = new Map<string, number>();
  // Compared from the first token: a comment above an element may end up above a new neighbour instead. A separator
  // an edit adds after a type member (`y: number` → `y: number;`) belongs to that member's node.
  const keyOf = (element: ElementNode, chain: readonly string[], text: string): string =>
    `${chain.join('/')}/${segment(element)}\0${text.replace(/[;,]$/, '')}`;
  for (const { element, chain } of afterElements) {
    const key = keyOf(element, chain, afterText.slice(element.declarationRange.start, element.range.end));
    available.set(key, (available.get(key) ?? 0) + 1);
  }
  for (const { element, chain } of withChains(before.elements)) {
    const range = element.range;
    // An insertion (a trimmed frame) at an element's start or end may belong to it.
    const touches = (r: TextRange): boolean =>
      r.start === r.end ? range.start <= r.start && r.start <= range.end : r.start < range.end && range.start < r.end;
    if (edited.some(touches)) continue;
    if (containers.some((c) => range.start <= c.start && c.end <= range.end)) continue;
    const key = keyOf(element, chain, before.text.slice(element.declarationRange.start, range.end));
    const left = available.get(key) ?? 0;
    if (left > 0) {
      available.set(key, left - 1);
      continue;
    }
    problems.push({
      ops: undefined,
      message: `the edit changed ${element.path}, which no operation names (it is no longer there unchanged)`,
      hint: "an operation's content reaches beyond its element (an unbalanced bracket or an unclosed comment or string); complete the code",
    });
    break;
  }
  for (const expectation of expectations) {
    const found = afterElements.some(
      ({ element, chain }) =>
        element.name === expectation.name &&
        kindsCompatible(element.kind, expectation.kind) &&
        chain.length === expectation.parentChain.length &&
        chain.every((s, i) => s === expectation.parentChain[i]),
    );
    if (!found) {
      problems.push({
        ops: expectation.ops,
        message: `after the edit, ${expectation.describe} is not found where it should be`,
        hint: 'the code does not parse as the element it is meant to be at that place; write the complete element',
      });
    }
  }
  return problems;
}
