import { buildContext } from '../context/buildContext';
import type { TokenCounter } from '../context/tokens';
import type { ElementNode, FileOutline } from '../elements/element';
import { PLANNING_SYSTEM_PROMPT } from '../llm/prompts';
import { planningOutlineOf, type PlanFile } from './planning';

/**
 * The cost rule of issue 18: a file whose focus is not known is planned (the model names the elements it needs, then
 * gets a focused view), unless sending it whole costs no more than planning would. Planning costs its own request
 * (the planning instructions, the outline, the task) plus a focused view of what the model then names, estimated as
 * the file's signatures and stubs with its largest element in full; the coding instructions are paid either way. A 140-line file of 897 tokens cost 2,976 tokens planned.
 */

export interface CostEstimate {
  readonly wholeTokens: number;
  /**
   * The planning request and the focused view it leads to (the file's signatures and its largest element in full),
   * without what both ways pay (the coding instructions, the task).
   */
  readonly plannedTokens: number;
  readonly whole: boolean;
}

export function wholeOrPlanned(
  file: PlanFile,
  instruction: string,
  counter: TokenCounter,
  budget: number | undefined,
): CostEstimate {
  const wholeTokens = counter.count(file.outline.text);
  // A file over the budget cannot go whole; one over the planning outline's own budget several times over never wins.
  if (budget !== undefined && wholeTokens > budget) return { wholeTokens, plannedTokens: 0, whole: false };
  const planRequest =
    counter.count(PLANNING_SYSTEM_PROMPT) +
    counter.count(planningOutlineOf(file, { counter, instruction })) +
    counter.count(instruction);
  if (wholeTokens <= planRequest) return { wholeTokens, plannedTokens: planRequest, whole: true };
  // The focused view after planning holds what the model names: at least one element in full. The largest element
  // without members stands for it; in a file that is mostly one function, that is most of the file.
  const smallestView = buildContext([{ outline: file.outline, focus: [] }], counter, { smallFileLines: 0 }).tokens;
  const plannedTokens = planRequest + smallestView + largestLeafTokens(file.outline, counter);
  return { wholeTokens, plannedTokens, whole: wholeTokens <= plannedTokens };
}

function largestLeafTokens(outline: FileOutline, counter: TokenCounter): number {
  let largest: ElementNode | undefined;
  const visit = (elements: readonly ElementNode[]): void => {
    for (const element of elements) {
      if (element.kind === 'import') continue;
      if (element.children.length > 0) visit(element.children);
      else if (largest === undefined || size(element) > size(largest)) largest = element;
    }
  };
  visit(outline.elements);
  return largest === undefined ? 0 : counter.count(outline.text.slice(largest.range.start, largest.range.end));
}

function size(element: ElementNode): number {
  return element.range.end - element.range.start;
}
