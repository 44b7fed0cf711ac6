import { buildContext } from '../context/buildContext';
import type { TokenCounter } from '../context/tokens';
import { PLANNING_SYSTEM_PROMPT } from '../llm/prompts';
import { planningOutlineOf, type PlanFile } from './planning';

/**
 * The cost rule of issue 18: a file whose focus is not known is planned (the model names the elements it needs, then
 * gets a focused view), unless sending it whole costs no more than planning would. Planning costs its own request
 * (the planning instructions, the outline, the task) plus a focused view that is at least the file's signatures and
 * stubs; the coding instructions are paid either way. A 140-line file of 897 tokens cost 2,976 tokens planned.
 */

export interface CostEstimate {
  readonly wholeTokens: number;
  /** The planning request and the smallest focused view, without what both ways pay (coding instructions). */
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
  const smallestView = buildContext([{ outline: file.outline, focus: [] }], counter, { smallFileLines: 0 }).tokens;
  const plannedTokens = planRequest + smallestView;
  return { wholeTokens, plannedTokens, whole: wholeTokens <= plannedTokens };
}
