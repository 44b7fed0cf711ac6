import { buildContext, ContextBudgetError, type ContextFileRequest } from '../context/buildContext';
import type { ElementNode, FileOutline } from '../elements/element';
import { parseElementPath } from '../elements/elementPath';
import { resolveElementPath } from '../elements/resolve';
import type { TokenCounter } from '../context/tokens';
import type { ChatMessage } from '../llm/provider';
import { parseFinds, parsePlan, PLANNING_SYSTEM_PROMPT, planningOutline, planningUserMessage } from '../llm/prompts';
import { answerFinds, type SymbolFinder } from './findSymbol';
import { memberList } from './memberList';
import type { ModelCall } from './modelCall';
import { readNeed, type NeedRequest } from './needLine';
import { usageNotes } from './planningUsage';

/**
 * The planning phase, once for every surface: the model sees the outline of each file (paths and signatures, no
 * bodies) and names with `NEED` lines the elements it needs in full. The edit pipeline plans this way when the
 * focus is not known; chat `/plan` shows the same plan without editing.
 */

export interface PlanFile {
  readonly path: string;
  readonly outline: FileOutline;
  /** False for a file the element model cannot read (or that does not parse): it is offered whole. */
  readonly outlinable: boolean;
  /** Elements the request already focuses on, and whether the file goes whole anyway: what the context adds to a plan. */
  readonly focus?: readonly string[];
  readonly whole?: boolean;
}

/** The context a plan must fit: a plan whose code is over it is answered with member lists (see askForPlan). */
export interface PlanBudget {
  readonly tokens: number;
  readonly smallFileLines?: number;
  readonly full?: boolean;
}

export interface PlannedElement {
  /** The file's workspace path. */
  readonly file: string;
  readonly element: ElementNode;
  /** What the NEED line asked beyond the path: a position to add a member at, lines, uses (needLine.ts). */
  readonly need?: Omit<NeedRequest, 'path'>;
}

export interface Plan {
  /** Elements the model named, resolved to their canonical paths, without duplicates, in the model's order. */
  readonly elements: readonly PlannedElement[];
  /** Files the model wants to read whole. */
  readonly wholeFiles: readonly string[];
  /**
   * Paths that name nothing in the files of the request, with the reason; `outsideRequest` is the file of a path in a
   * file that is not part of the request (a surface says how to add it).
   */
  readonly unresolved: readonly { readonly path: string; readonly reason: string; readonly outsideRequest?: string }[];
  /** Everything accepted, element and file paths, in the model's order. */
  readonly accepted: readonly string[];
  /** What the model asked with FIND while planning: it points at lines of long elements like the task's words. */
  readonly finds?: readonly string[];
}

export interface PlanningOutlineContext {
  /** Counts the outline's tokens against its budget (the request's encoding). */
  readonly counter?: TokenCounter;
  /** The task: the outline keeps what it names, and says which members mention its words. */
  readonly instruction?: string;
}

/** The outline text the model plans from. */
export function planningOutlineOf(file: PlanFile, context: PlanningOutlineContext = {}): string {
  if (!file.outlinable) return `File ${file.path} (${file.outline.lineCount} lines, read whole)`;
  const instruction = context.instruction ?? '';
  const { notes, relevant } = usageNotes(file.outline, instruction);
  return planningOutline(file.outline, {
    ...(context.counter === undefined ? {} : { counter: context.counter }),
    instruction,
    notes,
    relevant,
  });
}

/** Planning answers that only FIND are answered at most this many times; then the NEED lines given so far count. */
export const MAX_FIND_ROUNDS = 2;
/** A plan over the budget is sent back with member lists at most this many times; then it stands as it is. */
export const MAX_BUDGET_ROUNDS = 2;

/**
 * The planning round: the outlines, the model's NEED and FIND lines, FIND answered. With a budget, a plan whose code
 * does not fit the context is not taken as it is (the context would fail on it): its largest elements are sent back
 * with their members to NEED instead, as the edit step does for a NEED over its budget.
 */
export async function askForPlan(
  call: ModelCall,
  files: readonly PlanFile[],
  instruction: string,
  {
    counter,
    finder,
    budget,
  }: { readonly counter?: TokenCounter; readonly finder?: SymbolFinder; readonly budget?: PlanBudget } = {},
): Promise<Plan> {
  const outlineContext = { instruction, ...(counter === undefined ? {} : { counter }) };
  const messages: ChatMessage[] = [
    { role: 'system', content: PLANNING_SYSTEM_PROMPT },
    {
      role: 'user',
      content: planningUserMessage(
        files.map((file) => planningOutlineOf(file, outlineContext)),
        instruction,
      ),
    },
  ];
  let needs: string[] = [];
  const asked: string[] = [];
  let findRounds = 0;
  let budgetRounds = 0;
  for (;;) {
    // A plan has no whole-file counterpart: a whole-file request would not plan.
    const answer = await call('plan', messages, 0);
    for (const path of parsePlan(answer.text)) if (!needs.includes(path)) needs.push(path);
    const finds = parseFinds(answer.text);
    const over =
      budget === undefined || counter === undefined || budgetRounds >= MAX_BUDGET_ROUNDS
        ? undefined
        : planOverBudget(files, resolvePlan(files, needs), counter, budget);
    const answering = finder !== undefined && finds.length > 0 && findRounds < MAX_FIND_ROUNDS;
    if (over === undefined && !answering) break;
    const parts: string[] = [];
    if (answering) {
      // The answer names element paths itself, so the outline is not sent again (issue 28: a 164-token answer cost
      // 3,661 tokens with it); the NEED lines given so far are kept.
      if (findRounds === 0) messages[1] = { role: 'user', content: withoutOutlines(files, instruction) };
      findRounds += 1;
      asked.push(...finds.filter((f) => !asked.includes(f)));
      parts.push(...(await answerFinds(finder, finds)));
    }
    if (over !== undefined) {
      budgetRounds += 1;
      // What is too large leaves the plan; the model NEEDs parts of it (or less) in its next answer.
      const left = new Set(over.tooLarge.map((item) => item.path));
      needs = needs.filter((path) => !resolvePlan(files, [path]).accepted.some((accepted) => left.has(accepted)));
      parts.push(over.message);
    }
    messages.push({ role: 'assistant', content: answer.text });
    messages.push({
      role: 'user',
      content: `${parts.join('\n\n')}\n\nNow answer with the NEED lines of what you need${findRounds < MAX_FIND_ROUNDS ? ' (or FIND again)' : ''}; the NEED lines you gave are kept${over === undefined ? '' : ', those not taken aside'}.`,
    });
  }
  const plan = resolvePlan(files, needs);
  return asked.length === 0 ? plan : { ...plan, finds: asked };
}

/** The planning request once a FIND is answered: the task, and which files the outlines (not sent again) were of. */
function withoutOutlines(files: readonly PlanFile[], instruction: string): string {
  const named = files.map((f) => `${f.path} (${f.outline.lineCount} lines)`).join(', ');
  return planningUserMessage(
    [`The outlines of ${named} were shown in your first request; they are not repeated.`],
    instruction,
  );
}

interface OverBudget {
  /** Canonical element paths, or file paths, left out of the plan. */
  readonly tooLarge: readonly { readonly path: string }[];
  readonly message: string;
}

/**
 * Whether the context of a plan (its elements in full, the files it names whole, beside what the request focuses
 * already) is over the budget, and if so the planned elements to leave out, largest first, until the rest fits; each
 * with its members, which the model may NEED instead.
 */
export function planOverBudget(
  files: readonly PlanFile[],
  plan: Plan,
  counter: TokenCounter,
  budget: PlanBudget,
): OverBudget | undefined {
  const requests: ContextFileRequest[] = files.map((file) => ({
    outline: file.outline,
    focus: [
      ...(file.focus ?? []),
      ...plan.elements.filter((e) => e.file === file.path).map((e) => e.element.path),
    ],
    whole: file.whole === true || !file.outlinable || plan.wholeFiles.includes(file.path),
  }));
  const options = {
    ...(budget.smallFileLines === undefined ? {} : { smallFileLines: budget.smallFileLines }),
    ...(budget.full === true ? { full: true } : {}),
  };
  let required: number;
  try {
    // The context shows a focus over the budget in part (issue 28); a planned element it had to show so is over the
    // budget here too: the model gets its members to NEED instead, and may still ask for it as it is.
    const context = buildContext(requests, counter, { ...options, budget: budget.tokens });
    const inPart = new Set(context.shownInPart);
    if (!plan.elements.some((e) => inPart.has(e.element.path))) return undefined;
    required = buildContext(requests, counter, options).tokens;
  } catch (error) {
    if (!(error instanceof ContextBudgetError)) return undefined;
    required = error.required;
  }
  const items = [
    ...plan.elements.map(({ file, element }) => {
      const outline = files.find((f) => f.path === file)?.outline;
      const text = outline === undefined ? '' : outline.text.slice(element.range.start, element.range.end);
      return { path: element.path, element, tokens: counter.count(text) };
    }),
    ...plan.wholeFiles.map((path) => {
      const outline = files.find((f) => f.path === path)?.outline;
      return { path, element: undefined, tokens: counter.count(outline?.text ?? '') };
    }),
  ].sort((a, b) => b.tokens - a.tokens);
  const tooLarge: typeof items = [];
  let left = required;
  for (const item of items) {
    if (left <= budget.tokens) break;
    tooLarge.push(item);
    left -= item.tokens;
  }
  const lines = [
    `Your NEED lines do not fit the token budget of ${budget.tokens}: the context they make needs ${required} tokens. Not taken:`,
  ];
  for (const item of tooLarge) {
    const what = `- NEED ${item.path}: ${item.tokens} tokens in full`;
    if (item.element === undefined) lines.push(`${what}; NEED the elements of the file you need instead`);
    else if (item.element.children.length === 0)
      lines.push(`${what}; it has no members to NEED instead, so it cannot be shown within this budget`);
    else lines.push(`${what}; NEED the members you need instead: ${memberList(item.element, counter)}`);
  }
  return { tooLarge, message: lines.join('\n') };
}

/** The model's NEED paths against the files of the request. */
export function resolvePlan(files: readonly PlanFile[], paths: readonly string[]): Plan {
  const elements: PlannedElement[] = [];
  const wholeFiles: string[] = [];
  const unresolved: { path: string; reason: string; outsideRequest?: string }[] = [];
  const accepted: string[] = [];
  for (const raw of paths) {
    const { path: needPath, ...need } = readNeed(raw);
    const path = needPath.replace(/^file:/i, '');
    let fileName: string;
    let hasSegments: boolean;
    try {
      const parsed = parseElementPath(path);
      fileName = parsed.file;
      hasSegments = parsed.segments.length > 0;
    } catch (error) {
      unresolved.push({ path: raw, reason: error instanceof Error ? error.message : 'not an element path' });
      continue;
    }
    const file = files.find((f) => f.path === fileName);
    if (file === undefined) {
      unresolved.push({ path: raw, reason: `${fileName} is not part of the request`, outsideRequest: fileName });
      continue;
    }
    if (!hasSegments || !file.outlinable) {
      if (!wholeFiles.includes(file.path)) {
        wholeFiles.push(file.path);
        accepted.push(file.path);
      }
      continue;
    }
    const resolved = resolveElementPath(file.outline, path);
    if (!resolved.ok) {
      unresolved.push({ path: raw, reason: resolved.message });
      continue;
    }
    if (elements.some((e) => e.element.path === resolved.element.path)) continue;
    elements.push({ file: file.path, element: resolved.element, ...(Object.keys(need).length === 0 ? {} : { need }) });
    accepted.push(resolved.element.path);
  }
  return { elements, wholeFiles, unresolved, accepted };
}
