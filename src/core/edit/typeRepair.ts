import { MAX_ERRORS_PER_FILE, clipLine, type NewTypeError } from '../check/typeCheck';
import { briefMessage } from '../check/newErrors';
import type { TokenCounter } from '../context/tokens';
import type { ElementNode, FileOutline } from '../elements/element';
import { describeChecker, errorCodeLabel, type CheckerDescription } from '../graph/semantics';
import { elementText } from './needAnswer';
import type { ShownFile, ShownRequest } from './shownRecord';
import type { VerificationProblem } from './verification';

/**
 * The type errors of a repair round as the model reads them (issue 24): bounded (the first line of each message, at
 * most a few per file and `… and N more`), workspace-relative, sorted by where they can be fixed, and with the code
 * that must change. The elements of the request's files that hold the errors and that the model saw only as a
 * signature or stub (a caller) come with the message in full and count as seen, within a token budget, so a
 * signature change and its callers converge in one repair round. So do those of a workspace file outside the request
 * when the write policy lets the batch change it: the file joins the request with its code attached. When its code
 * does not fit what is left of the budget, the message offers to bring it in (`NEED <file>/<element>`); a file the
 * write policy protects is said plainly to be out of reach.
 */

export interface TypeRepairInput {
  /** The type check's problems of the round (each with its `typeErrors`). */
  readonly problems: readonly VerificationProblem[];
  /** What the model was shown so far in the request. */
  readonly shown: readonly ShownRequest[];
  /** The outline of a file as the batch was built on (the snapshot), or undefined. */
  readonly outlineOf: (file: string) => FileOutline | undefined;
  readonly counter: TokenCounter;
  /** Tokens the attached elements may take together. */
  readonly budget: number;
  readonly checker?: CheckerDescription;
}

export interface TypeRepairSection {
  /** The failure lines (bounded by the caller's cap with the rest of the failure section). */
  readonly lines: readonly string[];
  /** The elements holding the errors, in full, or '' when none is attached. */
  readonly attachments: string;
  /** What the attachments show in full: the repair round records it as seen. */
  readonly shown: readonly ShownFile[];
  /** Files outside the request the model was offered to bring in with NEED. */
  readonly offered: readonly string[];
  /** Files outside the request whose code holding errors is attached: they join the request. */
  readonly joined: readonly string[];
}

export function typeRepairSection(input: TypeRepairInput): TypeRepairSection {
  const typeProblems = input.problems.filter((p) => p.typeErrors !== undefined && p.typeErrors.length > 0);
  if (typeProblems.length === 0) return { lines: [], attachments: '', shown: [], offered: [], joined: [] };
  const seen = seenOf(input.shown);
  const lines = [
    `Type errors your batch causes${input.checker === undefined ? '' : ` (checked with ${describeChecker(input.checker)})`}:`,
  ];
  const attached: string[] = [];
  const shown = new Map<string, string[]>();
  const offered: string[] = [];
  const joined: string[] = [];
  let left = input.budget;
  let tooLarge = 0;
  const attach = (file: string, code: readonly HoldingCode[]): void => {
    for (const { element, text, tokens } of code) {
      left -= tokens;
      attached.push(text);
      seen.fullElements.add(element.path);
      shown.set(file, [...(shown.get(file) ?? []), element.path]);
    }
  };

  for (const problem of typeProblems) {
    const errors = problem.typeErrors ?? [];
    const file = problem.path;
    const reach = problem.reach ?? 'request';
    if (reach === 'need') {
      // A file joins the request only with all of its code holding errors shown, within the budget.
      const code = allHoldingCode(input.outlineOf(file), errors, input.counter);
      if (code !== undefined && code.reduce((sum, c) => sum + c.tokens, 0) <= left) {
        lines.push(`- in ${file}, a file outside this request that may be edited in this batch (its code is below):`);
        lines.push(...errorLines(errors));
        attach(file, code);
        joined.push(file);
        continue;
      }
    }
    if (reach === 'request') lines.push(`- in ${file}:`);
    else if (reach === 'need') lines.push(`- in ${file}, a file outside this request:`);
    else
      lines.push(`- in ${file}, which cannot be edited in this request (${problem.reachNote ?? 'not a file of it'}):`);
    lines.push(...errorLines(errors));

    if (reach === 'need') {
      offered.push(file);
      const elements = [...new Set(errors.map((e) => e.elementPath ?? file))];
      lines.push(
        `  To fix them in this batch, bring the code in first: answer ${elements
          .slice(0, 3)
          .map((path) => `NEED ${path}`)
          .join(', ')}${elements.length > 3 ? ', …' : ''} (one per line); it is then shown in full and may be edited.`,
      );
      continue;
    }
    if (reach === 'none') {
      lines.push(
        '  No operation can change that file here: keep what it uses working, or leave these errors to the user.',
      );
      continue;
    }
    const outline = input.outlineOf(file);
    if (outline === undefined || seen.wholeFiles.has(file)) continue;
    for (const element of holdingElements(outline, errors)) {
      if (isSeen(seen, element.path)) continue;
      const text = elementText(outline, element);
      const tokens = input.counter.count(text);
      if (tokens > left) {
        tooLarge += 1;
        continue;
      }
      attach(file, [{ element, text, tokens }]);
    }
  }
  if (tooLarge > 0)
    lines.push(
      `${tooLarge} element${tooLarge === 1 ? '' : 's'} holding errors ${tooLarge === 1 ? 'is' : 'are'} too large to attach: NEED a smaller part of ${tooLarge === 1 ? 'it' : 'them'} to edit.`,
    );
  return {
    lines,
    attachments:
      attached.length === 0
        ? ''
        : `The code holding these errors, which you had not seen in full (you may now replace or patch it):\n\n${attached.join('\n')}`,
    shown: [...shown].map(([path, full]) => ({ path, whole: false, full, signature: [], stub: [] })),
    offered,
    joined,
  };
}

/** The errors of one file, bounded: the first few with their element and line, then how many more. */
function errorLines(errors: readonly NewTypeError[]): string[] {
  const lines: string[] = [];
  for (const error of errors.slice(0, MAX_ERRORS_PER_FILE)) {
    lines.push(`  - ${error.elementPath ?? 'top level'}: ${errorCodeLabel(error.code)} ${briefMessage(error.message)}`);
    if (error.lineText !== '') lines.push(`      at: ${clipLine(error.lineText)}`);
  }
  if (errors.length > MAX_ERRORS_PER_FILE) lines.push(`  - … and ${errors.length - MAX_ERRORS_PER_FILE} more here`);
  return lines;
}

interface HoldingCode {
  readonly element: ElementNode;
  readonly text: string;
  readonly tokens: number;
}

/** The code of every element holding the errors, or undefined when an error lies outside every element. */
function allHoldingCode(
  outline: FileOutline | undefined,
  errors: readonly NewTypeError[],
  counter: TokenCounter,
): HoldingCode[] | undefined {
  if (outline === undefined) return undefined;
  const elements = holdingElements(outline, errors);
  const covered = errors.every((e) => e.elementPath !== undefined && elements.some((el) => el.path === e.elementPath));
  if (!covered || elements.length === 0) return undefined;
  return elements.map((element) => {
    const text = elementText(outline, element);
    return { element, text, tokens: counter.count(text) };
  });
}

/** The innermost elements holding the errors, once each, in the order of the errors. */
function holdingElements(outline: FileOutline, errors: readonly NewTypeError[]): ElementNode[] {
  const found: ElementNode[] = [];
  for (const error of errors) {
    if (error.elementPath === undefined) continue;
    const element = findElement(outline.elements, error.elementPath);
    if (element !== undefined && !found.includes(element)) found.push(element);
  }
  return found;
}

function findElement(elements: readonly ElementNode[], path: string): ElementNode | undefined {
  for (const element of elements) {
    if (element.path === path) return element;
    if (path.startsWith(`${element.path}/`)) return findElement(element.children, path);
  }
  return undefined;
}

interface Seen {
  readonly wholeFiles: Set<string>;
  readonly fullElements: Set<string>;
}

function seenOf(shown: readonly ShownRequest[]): Seen {
  const seen: Seen = { wholeFiles: new Set(), fullElements: new Set() };
  for (const request of shown) {
    if (request.phase === 'plan') continue;
    for (const file of request.files) {
      if (file.whole) seen.wholeFiles.add(file.path);
      for (const path of file.full) seen.fullElements.add(path);
    }
  }
  return seen;
}

/** The element, or a container around it, was shown in full. */
function isSeen(seen: Seen, path: string): boolean {
  for (let at = path; at !== ''; at = at.slice(0, Math.max(0, at.lastIndexOf('/')))) {
    if (seen.fullElements.has(at)) return true;
    if (!at.includes('/')) break;
  }
  return false;
}
