import { CONTEXT_LEGEND } from '../context/buildContext';
import { createTokenCounter, type TokenCounter } from '../context/tokens';
import { signatureLine, type FileOutline, type ElementNode } from '../elements/element';
import { markText, type SectionMark, sectionMarksOf } from '../elements/sectionMarks';
import { renameSummary } from '../ops/apply/renameMerge';
import { OPERATION_FORMAT_PROMPT } from '../ops/format/formatPrompt';
import type { Operation, OperationResult, ParseError } from '../ops/operation';
import type { VerificationProblem } from '../edit/verification';

/**
 * What Scalpel says to the model. Every request pays for the system prompt, so it stays short: the operation format
 * (with its one example), the path grammar and the rules; the focused context goes in the user message.
 */

export const CODING_SYSTEM_PROMPT = `You are Scalpel, a precise code editor.

${OPERATION_FORMAT_PROMPT}
The context shows each file as a focused view. ${CONTEXT_LEGEND}
To see more first, answer only with lines NEED <element or file path> (sent in full) or FIND <identifier> (its definition and uses). If the premise is false, answer only DECLINE: <reason>. Else the operations, plus a note only if the user must know something.`;

/** The focused context, the user's changes since the model last saw the files (issue 11), then the task. */
export function codingUserMessage(contextText: string, instruction: string, userChanges?: string): string {
  const changes = userChanges === undefined || userChanges === '' ? '' : `\n${userChanges}\n`;
  return `${contextText}${changes}\nTask: ${instruction.trim()}\n`;
}

export const PLANNING_SYSTEM_PROMPT = `You are Scalpel, a precise code editor. First you choose which program elements you need.

Outlines list element paths and signatures. Answer one line per element to read or change:
NEED <element path>
or NEED <file path> for a whole file; NEED <container> LAST_CHILD or AFTER <member> to add a member; add USES if its signature changes. Name as few as needed. FIND <identifier> shows definition and uses. Answer only NEED or FIND lines.`;

export interface PlanningOutlineOptions {
  /** Token budget of one file's outline; default {@link DEFAULT_PLANNING_OUTLINE_BUDGET}. */
  readonly budget?: number;
  /** Counts the tokens; default o200k_base. */
  readonly counter?: TokenCounter;
  /** The task: members whose names it mentions stay listed in full, and their containers fold last. */
  readonly instruction?: string;
  /**
   * A note per element path, shown after its signature (where it is used, which words of the task its code holds:
   * src/core/edit/planningUsage.ts). Over budget, the notes of elements the task does not concern go first.
   */
  readonly notes?: ReadonlyMap<string, string>;
  /** Element paths the task concerns beyond the names it mentions (their code holds its words): kept like those. */
  readonly relevant?: ReadonlySet<string>;
}

export const DEFAULT_PLANNING_OUTLINE_BUDGET = 4_000;

let defaultCounter: TokenCounter | undefined;

/**
 * One line per element: its path, indented by depth, and its signature; the model picks from these. A big file's
 * outline must still fit its budget, so the members of large containers (classes, object literals, namespaces) are
 * folded, largest and least relevant to the task first: first to a compact list of their labels (members the task
 * names keep their full line), then to a count with a hint to NEED the container. A container whose one member is a
 * container (a namespace around a class) never folds: its member does. Top-level elements always stay.
 */
export function planningOutline(outline: FileOutline, options: PlanningOutlineOptions = {}): string {
  const counter = options.counter ?? (defaultCounter ??= createTokenCounter());
  const budget = options.budget ?? DEFAULT_PLANNING_OUTLINE_BUDGET;
  const words = instructionWords(options.instruction ?? '');
  const mentioned = (element: ElementNode): boolean =>
    words.has(element.name.toLowerCase()) || options.relevant?.has(element.path) === true;
  const notes = options.notes ?? new Map<string, string>();
  let allNotes = true;
  const header = `File ${outline.file} (${outline.lineCount} lines)`;
  const tops = outline.elements.filter((e) => e.kind !== 'import');

  type Fold = 'full' | 'labels' | 'count';
  const folds = new Map<ElementNode, Fold>();
  const lineTokens = new Map<string, number>();
  const tokensOf = (line: string): number => {
    let tokens = lineTokens.get(line);
    if (tokens === undefined) {
      tokens = counter.count(line) + 1;
      lineTokens.set(line, tokens);
    }
    return tokens;
  };
  const fullLine = (element: ElementNode, depth: number): string => {
    const note = allNotes || mentioned(element) ? notes.get(element.path) : undefined;
    return `${'  '.repeat(depth)}${element.path}  ${signatureLine(element)}${note === undefined ? '' : `  // ${note}`}`;
  };

  // Section comments and docstrings, one marked line each where the file has them (`§ DEPRECATED (line 488)`).
  const marks = planningMarks(outline);
  const emitMarks = (list: readonly SectionMark[] | undefined, depth: number, emit: (line: string) => void): void => {
    for (const mark of list ?? []) emit(`${'  '.repeat(depth)}${markText(mark)}`);
  };

  /**
   * Test calls (`it('adds', …)`, a top-level `test(…)`) in one layout wherever they stand (issue 28): their labels,
   * several to a line, each with its note, since their signature only repeats their name.
   */
  const testCallLines = (
    calls: readonly ElementNode[],
    base: string,
    depth: number,
    emit: (line: string) => void,
  ): void => {
    const indent = '  '.repeat(depth);
    let line = '';
    for (const call of calls) {
      const note = allNotes || mentioned(call) ? notes.get(call.path) : undefined;
      const label = `${testCallLabel(call, base)}${note === undefined ? '' : ` (${note})`}`;
      if (line !== '' && line.length + label.length > TEST_LINE_WIDTH) {
        emit(`${indent}${line}`);
        line = '';
      }
      line = line === '' ? label : `${line}, ${label}`;
    }
    if (line !== '') emit(`${indent}${line}`);
  };
  /** A level's elements in file order, each run of test calls in the compact layout. */
  const renderLevel = (
    elements: readonly ElementNode[],
    base: string,
    depth: number,
    emit: (line: string) => void,
  ): void => {
    let run: ElementNode[] = [];
    for (const element of elements) {
      if (isTestCall(element)) {
        // A section comment ends a run of test calls: it stands where the file has it.
        const sections = marks.before.get(element);
        if (sections !== undefined && sections.length > 0) {
          testCallLines(run, base, depth, emit);
          run = [];
          emitMarks(sections, depth, emit);
        }
        run.push(element);
        continue;
      }
      testCallLines(run, base, depth, emit);
      run = [];
      renderElement(element, depth, emit);
    }
    testCallLines(run, base, depth, emit);
  };
  /** The lines under a container: its members as its fold shows them. */
  const renderMembers = (element: ElementNode, depth: number, emit: (line: string) => void): void => {
    const fold = folds.get(element) ?? 'full';
    if (fold === 'full') {
      emitMarks(marks.opening.get(element), depth + 1, emit);
      renderLevel(element.children, element.path, depth + 1, emit);
      emitMarks(marks.closing.get(element), depth + 1, emit);
      return;
    }
    const indent = '  '.repeat(depth + 1);
    const kept = element.children.filter((child) => mentioned(child) && !isTestCall(child));
    for (const child of kept) emit(fullLine(child, depth + 1));
    const rest = element.children.filter((child) => !kept.includes(child));
    if (rest.length === 0) return;
    if (fold === 'labels') {
      // Members named only: test calls keep their one layout, the rest are listed by label.
      const others = rest.filter((child) => !isTestCall(child));
      if (others.length > 0)
        emit(`${indent}members: ${others.map((child) => child.path.slice(element.path.length + 1)).join(', ')}`);
      testCallLines(rest.filter(isTestCall), element.path, depth + 1, emit);
    } else {
      emit(`${indent}… ${rest.length} more members (NEED ${element.path} to see them)`);
    }
  };
  const renderElement = (element: ElementNode, depth: number, emit: (line: string) => void): void => {
    emitMarks(marks.before.get(element), depth, emit);
    emit(fullLine(element, depth));
    if (element.children.length > 0) renderMembers(element, depth, emit);
  };
  const membersTokens = (element: ElementNode, depth: number): number => {
    let total = 0;
    renderMembers(element, depth, (line) => {
      total += tokensOf(line);
    });
    return total;
  };

  const elementTokens = (element: ElementNode, depth: number): number => {
    let total = 0;
    renderElement(element, depth, (line) => {
      total += tokensOf(line);
    });
    return total;
  };
  const labelOf = (element: ElementNode): string => element.path.slice(outline.file.length + 1);

  const fileMarks = [...(marks.opening.get(undefined) ?? []), ...(marks.closing.get(undefined) ?? [])];
  const fileMarkTokens = fileMarks.reduce((sum, mark) => sum + tokensOf(`  ${markText(mark)}`), 0);
  const levelTokens = (): number => {
    let sum = fileMarkTokens;
    renderLevel(tops, outline.file, 1, (line) => {
      sum += tokensOf(line);
    });
    return sum;
  };
  let total = tokensOf(header) + levelTokens();
  /** Top-level elements listed by label only, on one line at the end. */
  const compact = new Set<ElementNode>();
  const compactPrefix = `  also in ${outline.file}: `;
  if (total > budget && notes.size > 0) {
    // 0. The notes of elements the task does not concern.
    allNotes = false;
    total = tokensOf(header) + levelTokens();
  }
  if (total > budget) {
    // 1-2. Containers in folding order: least relevant first, then the ones with the most to hide.
    const containers: Array<{ element: ElementNode; depth: number; parent: ElementNode | undefined }> = [];
    const collect = (elements: readonly ElementNode[], depth: number, parent: ElementNode | undefined): void => {
      for (const element of elements) {
        if (element.kind === 'import' || element.children.length === 0) continue;
        containers.push({ element, depth, parent });
        collect(element.children, depth + 1, element);
      }
    };
    collect(tops, 1, undefined);
    const parents = new Map(containers.map((c) => [c.element, c.parent]));
    const hidden = (element: ElementNode): boolean => {
      for (let up = parents.get(element); up !== undefined; up = parents.get(up)) {
        if ((folds.get(up) ?? 'full') !== 'full') return true;
      }
      return false;
    };
    const relevant = (element: ElementNode): boolean => mentioned(element) || element.children.some(mentioned);
    const sizes = new Map(containers.map((c) => [c.element, countDescendants(c.element)]));
    containers.sort(
      (a, b) =>
        Number(relevant(a.element)) - Number(relevant(b.element)) ||
        (sizes.get(b.element) ?? 0) - (sizes.get(a.element) ?? 0),
    );
    fold: for (const level of ['labels', 'count'] as const) {
      for (const { element, depth } of containers) {
        // A container inside a folded one is not shown: folding it changes nothing now, nor when its parent folds.
        if (hidden(element)) continue;
        // A container whose one member is a container (a C# block namespace around its class) is never folded: that
        // would hide the whole class behind one label. Its member folds instead, in its turn.
        if (element.children.length === 1 && (element.children[0]?.children.length ?? 0) > 0) continue;
        const before = membersTokens(element, depth);
        folds.set(element, level);
        total += membersTokens(element, depth) - before;
        if (total <= budget) break fold;
      }
    }
    // 3. Top-level elements down to their label, least relevant and costliest first (a file of hundreds of exports).
    if (total > budget) {
      const costs = new Map(tops.map((element) => [element, elementTokens(element, 1)]));
      const order = tops
        .filter((element) => !relevant(element))
        .sort((a, b) => (costs.get(b) ?? 0) - (costs.get(a) ?? 0));
      total += tokensOf(compactPrefix);
      for (const element of order) {
        compact.add(element);
        total += tokensOf(`${labelOf(element)}, `) - (costs.get(element) ?? 0);
        if (total <= budget) break;
      }
    }
  }
  const lines = [header];
  const push = (line: string): void => {
    lines.push(line);
  };
  emitMarks(marks.opening.get(undefined), 1, push);
  renderLevel(
    tops.filter((element) => !compact.has(element)),
    outline.file,
    1,
    push,
  );
  emitMarks(marks.closing.get(undefined), 1, push);
  if (compact.size > 0) {
    // 4. Past even that, the label list itself is cut, and says how many it leaves out.
    let room = budget - (total - [...compact].reduce((sum, e) => sum + tokensOf(`${labelOf(e)}, `), 0)) - 16;
    const labels: string[] = [];
    const listed = tops.filter((element) => compact.has(element));
    for (const element of listed) {
      const cost = tokensOf(`${labelOf(element)}, `);
      if (cost > room) break;
      room -= cost;
      labels.push(labelOf(element));
    }
    const omitted = listed.length - labels.length;
    lines.push(`${compactPrefix}${labels.join(', ')}${omitted > 0 ? `, … and ${omitted} more` : ''}`);
  }
  return lines.join('\n');
}

/** A line of test-call labels wraps after about this many characters. */
const TEST_LINE_WIDTH = 160;

/** Callees of a test, when a test file calls them at its top level (`test('x', () => …)`). */
const TEST_CALLEES = /^(?:it|test|bench|specify|scenario|suite)(?:\.\w+)?$/;

/** A test call: a call in a test callback, or a top-level statement calling a test function, holding no elements. */
function isTestCall(element: ElementNode): boolean {
  if (element.children.length > 0) return false;
  return element.kind === 'call' || (element.kind === 'statement' && TEST_CALLEES.test(element.name));
}

/** A test call's label relative to `base`; a statement, whose path holds no name, gets the test's name after it. */
function testCallLabel(element: ElementNode, base: string): string {
  const label = element.path.startsWith(`${base}/`) ? element.path.slice(base.length + 1) : element.path;
  if (element.kind !== 'statement') return label;
  const name = /^[^(]*\(\s*(["'`])((?:\\.|(?!\1).)*)\1/.exec(element.signature)?.[2];
  return name === undefined ? label : `${label} '${name}'`;
}

interface PlanningMarks {
  /** Section comments standing before an element. */
  readonly before: ReadonlyMap<ElementNode, readonly SectionMark[]>;
  /** The docstring opening a container's body (undefined: the module's). */
  readonly opening: ReadonlyMap<ElementNode | undefined, readonly SectionMark[]>;
  /** Section comments after a container's last member (undefined: the file's). */
  readonly closing: ReadonlyMap<ElementNode | undefined, readonly SectionMark[]>;
}

/** The marks of every level of the outline; imports and their comments are not part of a planning outline. */
function planningMarks(outline: FileOutline): PlanningMarks {
  const before = new Map<ElementNode, readonly SectionMark[]>();
  const opening = new Map<ElementNode | undefined, readonly SectionMark[]>();
  const closing = new Map<ElementNode | undefined, readonly SectionMark[]>();
  const visit = (container: ElementNode | undefined): void => {
    const level = sectionMarksOf(outline, container);
    if (level.docstring !== undefined) opening.set(container, [level.docstring]);
    if (level.after.length > 0) closing.set(container, level.after);
    for (const [element, list] of level.before) if (element.kind !== 'import') before.set(element, list);
    for (const child of container === undefined ? outline.elements : container.children)
      if (child.children.length > 0) visit(child);
  };
  visit(undefined);
  return { before, opening, closing };
}

function countDescendants(element: ElementNode): number {
  return element.children.reduce((sum, child) => sum + 1 + countDescendants(child), 0);
}

/** English words of a task that are rarely the element meant, though some code names its members so. */
const TASK_STOP_WORDS: ReadonlySet<string> = new Set(
  'the and for with from into onto that this these those when then than not all any its are was were has have make add fix use should would could which where what there their them they you your also only just more less each'.split(
    ' ',
  ),
);

/** Identifier-like words of the task, lowercased, short and function words left out: `fix onKeyDown in App`. */
function instructionWords(instruction: string): Set<string> {
  return new Set(
    (instruction.match(/[A-Za-z_$][\w$]*/g) ?? [])
      .map((w) => w.toLowerCase())
      .filter((w) => w.length >= 3 && !TASK_STOP_WORDS.has(w)),
  );
}

export function planningUserMessage(outlines: readonly string[], instruction: string): string {
  return `${outlines.join('\n\n')}\n\nTask: ${instruction.trim()}\n`;
}

/**
 * The paths a planning answer asks for, in order, without duplicates. Lines that are not NEED lines are ignored.
 * `strict` takes only an upper-case NEED: in an edit answer, prose such as "need to check x" is not a question.
 */
export function parsePlan(answer: string, { strict = false }: { readonly strict?: boolean } = {}): string[] {
  const paths: string[] = [];
  const line = strict ? /^[\s>*\-#`]*NEED[:\s]+`?([^`]+?)`?\s*$/ : /^[\s>*\-#`]*NEED[:\s]+`?([^`]+?)`?\s*$/i;
  for (const raw of answer.split(/\r?\n/)) {
    const match = line.exec(raw);
    const path = match?.[1]?.trim();
    if (path !== undefined && path.length > 0 && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

/**
 * The symbols or texts an answer asks Scalpel to find (`FIND <identifier or text>`), in order, once each. Upper case
 * only: "find is only a stub here" is prose.
 */
export function parseFinds(answer: string): string[] {
  const symbols: string[] = [];
  for (const raw of answer.split(/\r?\n/)) {
    const match = /^[\s>*\-#`]*FIND[:\s]+`?([^`]+?)`?\s*$/.exec(raw);
    const symbol = match?.[1]?.trim();
    if (symbol !== undefined && symbol.length > 0 && !symbols.includes(symbol)) symbols.push(symbol);
  }
  return symbols;
}

function describeOperation(operation: Operation): string {
  if (operation.type === 'RENAME_ELEMENT') return `${operation.type} ${operation.path} ${operation.newName}`;
  return `${operation.type} ${operation.path}`;
}

/** The most tokens a repair message's failure section (what failed and why, code excluded) may take. */
export const FAILURE_SECTION_MAX_TOKENS = 1_500;

export interface RepairMessageOptions {
  /** Counts the failure section against {@link FAILURE_SECTION_MAX_TOKENS}; without it the section is not cut. */
  readonly counter?: TokenCounter;
  /** The type errors' part (src/core/edit/typeRepair.ts): its lines join the failures, its code follows them. */
  readonly types?: { readonly lines: readonly string[]; readonly attachments: string };
}

/**
 * The follow-up that sends failures back: what failed and why, what the model should do instead, and the rule that
 * only failed operations are answered (the others are kept). The failures stay under a fixed token cap (issue 24:
 * one compiler message with its chain of explanations once took 7,800 tokens); the code a failure shows in full (the
 * seen-code rule's element, the elements holding type errors) follows them and is not cut.
 */
export function repairUserMessage(
  results: readonly OperationResult[],
  parseErrors: readonly ParseError[],
  problems: readonly VerificationProblem[] = [],
  options: RepairMessageOptions = {},
): string {
  const lines: string[] = [];
  const code: string[] = [];
  /** A problem's first line is the failure; what follows (the code it shows in full) goes after the failures. */
  const failureOf = (problem: VerificationProblem): string => {
    const [first = '', ...rest] = problem.message.split('\n');
    if (problem.shows !== undefined && rest.length > 0) code.push(rest.join('\n').replace(/^\s+/, ''));
    return problem.shows !== undefined ? first : problem.message;
  };
  for (const result of results) {
    const where = describeOperation(result.operation);
    if (result.status === 'failed') {
      lines.push(`- FAILED ${where}: ${result.message ?? 'failed'}`);
      if (result.hint !== undefined) lines.push(`  What to do: ${result.hint}`);
      if (result.suggestions !== undefined && result.suggestions.length > 0) {
        lines.push(`  Existing paths nearby: ${result.suggestions.join(', ')}`);
      }
    } else {
      const blamed = problems.filter((p) => p.operationIndex === result.index);
      if (blamed.length === 0 && result.rename !== undefined) lines.push(...renameKept(where, result));
      else if (blamed.length === 0) lines.push(`- ok ${where} (kept; do not repeat it)`);
      else for (const problem of blamed) lines.push(`- FAILED ${where}: ${failureOf(problem)}`);
    }
  }
  for (const error of parseErrors) {
    lines.push(
      `- UNREADABLE line ${error.line} of your answer: ${error.message}${error.expected === undefined ? '' : ` (expected ${error.expected})`}`,
    );
  }
  for (const problem of problems)
    if (problem.operationIndex === undefined && problem.typeErrors === undefined)
      lines.push(`- FAILED check in ${problem.path}: ${failureOf(problem)}`);
  if (options.types !== undefined) lines.push(...options.types.lines);
  const bounded = options.counter === undefined ? lines : capLines(lines, options.counter, FAILURE_SECTION_MAX_TOKENS);
  const fixTypes = options.types !== undefined && options.types.lines.length > 0;
  const parts = [
    ['Your operations were checked and nothing has been applied yet, because some failed:', ...bounded].join('\n'),
    ...code,
    ...(options.types === undefined || options.types.attachments === '' ? [] : [options.types.attachments]),
    `Answer only with corrected operations for the failed ones${fixTypes ? ' and operations that fix the type errors' : ''}, in the same format.`,
  ];
  return parts.join('\n\n');
}

/** Untouched lines of a kept rename named to the model, at most: it decides whether they mean the declaration. */
const MAX_UNTOUCHED_SHOWN = 5;

/** A kept RENAME_ELEMENT: what it changed, and the lines with the old name it left, for the model to judge. */
function renameKept(where: string, result: OperationResult): string[] {
  const untouched = result.rename?.untouched ?? [];
  return [
    `- ok ${where}: ${result.rename === undefined ? 'renamed' : renameSummary(result.rename)} (kept; do not repeat it)`,
    ...(result.rename?.byName ?? [])
      .slice(0, MAX_UNTOUCHED_SHOWN)
      .map((p) => `  renamed by name only: ${p.file}:${p.line} ${p.code}`),
    ...untouched.slice(0, MAX_UNTOUCHED_SHOWN).map((u) => `  left as is: ${u.file}:${u.line} (${u.in}) ${u.code}`),
    ...(untouched.length > MAX_UNTOUCHED_SHOWN ? [`  … and ${untouched.length - MAX_UNTOUCHED_SHOWN} more`] : []),
  ];
}

/** The lines that fit `cap` tokens, then one line saying how many were left out. */
function capLines(lines: readonly string[], counter: TokenCounter, cap: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [index, line] of lines.entries()) {
    const tokens = counter.count(line) + 1;
    if (used + tokens > cap - 24) {
      kept.push(`- … and ${lines.length - index} more lines of failures, left out: fix the ones above first`);
      break;
    }
    used += tokens;
    kept.push(line);
  }
  return kept;
}
