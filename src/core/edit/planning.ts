import type { ElementNode, FileOutline } from '../elements/element';
import { parseElementPath } from '../elements/elementPath';
import { resolveElementPath } from '../elements/resolve';
import type { TokenCounter } from '../context/tokens';
import type { ChatMessage } from '../llm/provider';
import { parseFinds, parsePlan, PLANNING_SYSTEM_PROMPT, planningOutline, planningUserMessage } from '../llm/prompts';
import { answerFinds, type SymbolFinder } from './findSymbol';
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
  /** Paths that name nothing in the files of the request, with the reason. */
  readonly unresolved: readonly { readonly path: string; readonly reason: string }[];
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

export async function askForPlan(
  call: ModelCall,
  files: readonly PlanFile[],
  instruction: string,
  { counter, finder }: { readonly counter?: TokenCounter; readonly finder?: SymbolFinder } = {},
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
  const needs: string[] = [];
  const asked: string[] = [];
  for (let round = 0; ; round++) {
    // A plan has no whole-file counterpart: a whole-file request would not plan.
    const answer = await call('plan', messages, 0);
    for (const path of parsePlan(answer.text)) if (!needs.includes(path)) needs.push(path);
    const finds = parseFinds(answer.text);
    if (finder === undefined || finds.length === 0 || round >= MAX_FIND_ROUNDS) break;
    asked.push(...finds.filter((f) => !asked.includes(f)));
    const found = await answerFinds(finder, finds);
    // The answer names element paths itself, so the outline is not sent again (issue 28: a 164-token answer cost
    // 3,661 tokens with it); the NEED lines given so far are kept.
    if (round === 0) messages[1] = { role: 'user', content: withoutOutlines(files, instruction) };
    messages.push({ role: 'assistant', content: answer.text });
    messages.push({
      role: 'user',
      content: `${found.join('\n\n')}\n\nNow answer with the NEED lines of what you need${round + 1 < MAX_FIND_ROUNDS ? ' (or FIND again)' : ''}; the NEED lines you gave are kept.`,
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

/** The model's NEED paths against the files of the request. */
export function resolvePlan(files: readonly PlanFile[], paths: readonly string[]): Plan {
  const elements: PlannedElement[] = [];
  const wholeFiles: string[] = [];
  const unresolved: { path: string; reason: string }[] = [];
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
      unresolved.push({ path: raw, reason: `${fileName} is not part of the request` });
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
