import { CONTEXT_LEGEND } from '../context/buildContext';
import type { FileOutline, ElementNode } from '../elements/element';
import { OPERATION_FORMAT_PROMPT } from '../ops/format/formatPrompt';
import type { Operation, OperationResult, ParseError } from '../ops/operation';
import type { VerificationProblem } from '../edit/verification';

/**
 * What Scalpel says to the model. Every request pays for the system prompt, so it stays short: the operation format
 * (with its one example), the path grammar and the rules; the focused context goes in the user message.
 */

export const CODING_SYSTEM_PROMPT = `You are Scalpel, a precise code editor. You change code by writing edit operations on program elements, never by rewriting whole files unless no element operation fits.

${OPERATION_FORMAT_PROMPT}
The context shows each file as a focused view. ${CONTEXT_LEGEND}
Answer with the operations only: no explanation is needed.`;

export function codingUserMessage(contextText: string, instruction: string): string {
  return `${contextText}\nTask: ${instruction.trim()}\n`;
}

export const PLANNING_SYSTEM_PROMPT = `You are Scalpel, a precise code editor. Before editing, you choose which program elements you need to see in full.

You get the outline of each file: one element path per line with its signature. Answer with one line per element whose full text you need to read or change:
NEED <element path>
and, for a file you need to read whole, NEED <file path>. A new file or element needs no NEED line. Name as few elements as the task needs. Answer with NEED lines only.`;

/** One line per element: its path, indented by depth, and its signature; the model picks from these. */
export function planningOutline(outline: FileOutline): string {
  const lines: string[] = [`File ${outline.file} (${outline.lineCount} lines)`];
  const visit = (elements: readonly ElementNode[], depth: number): void => {
    for (const element of elements) {
      if (element.kind === 'import') continue;
      lines.push(`${'  '.repeat(depth)}${element.path}  ${element.signature}`);
      visit(element.children, depth + 1);
    }
  };
  visit(outline.elements, 1);
  return lines.join('\n');
}

export function planningUserMessage(outlines: readonly string[], instruction: string): string {
  return `${outlines.join('\n\n')}\n\nTask: ${instruction.trim()}\n`;
}

/** The paths a planning answer asks for, in order, without duplicates. Lines that are not NEED lines are ignored. */
export function parsePlan(answer: string): string[] {
  const paths: string[] = [];
  for (const raw of answer.split(/\r?\n/)) {
    const match = /^[\s>*\-#`]*NEED[:\s]+`?([^`]+?)`?\s*$/i.exec(raw);
    const path = match?.[1]?.trim();
    if (path !== undefined && path.length > 0 && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

function describeOperation(operation: Operation): string {
  return `${operation.type} ${operation.path}`;
}

/**
 * The follow-up that sends failures back: what failed and why, what the model should do instead, and the rule that
 * only failed operations are answered (the others are kept).
 */
export function repairUserMessage(
  results: readonly OperationResult[],
  parseErrors: readonly ParseError[],
  problems: readonly VerificationProblem[] = [],
): string {
  const lines = ['Your operations were checked and nothing has been applied yet, because some failed:'];
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
      if (blamed.length === 0) lines.push(`- ok ${where} (kept; do not repeat it)`);
      else for (const problem of blamed) lines.push(`- FAILED ${where}: ${problem.message}`);
    }
  }
  for (const error of parseErrors) {
    lines.push(
      `- UNREADABLE line ${error.line} of your answer: ${error.message}${error.expected === undefined ? '' : ` (expected ${error.expected})`}`,
    );
  }
  for (const problem of problems)
    if (problem.operationIndex === undefined) lines.push(`- FAILED check in ${problem.path}: ${problem.message}`);
  lines.push('Answer only with corrected operations for the failed ones, in the same format.');
  return lines.join('\n');
}
