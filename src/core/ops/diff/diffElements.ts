import { createTokenCounter, type TokenCounter } from '../../context/tokens';
import { normalizeFilePath } from '../../elements/elementPath';
import { languageFor, languageNames } from '../../language/languages';
import type { Operation } from '../operation';
import { applyToFileText } from './applyToText';
import { DiffPlanner } from './diffPlanner';
import type { DiffFallback } from './diffUnits';
import { trackOutline } from './pathTracker';
import { usesOnlyCrlf } from './textLines';

export type { DiffFallback, DiffFallbackKind } from './diffUnits';

export interface ElementDiffOptions {
  /** Counts the tokens of candidate operations to pick the cheapest; o200k_base by default. */
  readonly counter?: TokenCounter;
}

export interface ElementDiff {
  readonly operations: Operation[];
  /** Where the diff had to use a bigger operation than the element change called for, and why. */
  readonly fallbacks: readonly DiffFallback[];
  /**
   * True when applying the operations to the old text was checked to give the new text exactly. False only when
   * not even REPLACE_FILE reproduces it: the apply engine refuses to write a text with new syntax errors, and it
   * writes whole files with the file's own line breaks and final newline.
   */
  readonly verified: boolean;
  /** How many times the apply engine ran to check candidates. */
  readonly applyRuns: number;
}

let defaultCounter: TokenCounter | undefined;

/**
 * The minimal list of element operations that turns `before` into `after`, the text of one file at workspace
 * path `file`. Applying them to `before` gives `after` byte for byte: every candidate is checked by running the
 * apply engine, and whatever cannot be expressed exactly falls back to a bigger element, then to REPLACE_FILE.
 */
export function diffElements(
  file: string,
  before: string,
  after: string,
  options: ElementDiffOptions = {},
): Operation[] {
  return diffElementsInDetail(file, before, after, options).operations;
}

export function diffElementsInDetail(
  file: string,
  before: string,
  after: string,
  options: ElementDiffOptions = {},
): ElementDiff {
  const path = normalizeFilePath(file);
  if (before === after) return { operations: [], fallbacks: [], verified: true, applyRuns: 0 };
  const replaceFile = (reason: string): ElementDiff => {
    const operations: Operation[] = [{ type: 'REPLACE_FILE', path, content: after }];
    // The engine may still refuse it: it writes no text with new syntax errors.
    const verified = applyToFileText(path, before, operations) === after;
    return { operations, fallbacks: [{ kind: 'file', path, reason }], verified, applyRuns: 1 };
  };
  const language = languageFor(path);
  if (language === undefined) return replaceFile(`not ${languageNames()}`);
  const beforeOutline = language.outline(path, before);
  if (beforeOutline.syntaxErrors.length > 0) return replaceFile('the old text has syntax errors');
  const afterOutline = language.outline(path, after);
  if (afterOutline.syntaxErrors.length > 0) return replaceFile('the new text has syntax errors');

  const counter = options.counter ?? (defaultCounter ??= createTokenCounter());
  // Operations carry `\n` line breaks (the text format cannot hold `\r`); the apply engine writes the file's own.
  const crlf = usesOnlyCrlf(before) && usesOnlyCrlf(after);
  const toOperationText = crlf ? (text: string) => text.replace(/\r\n/g, '\n') : (text: string) => text;
  const planner = new DiffPlanner(
    beforeOutline,
    afterOutline,
    trackOutline(path, beforeOutline.elements),
    counter,
    (operations) => applyToFileText(path, before, operations),
    toOperationText,
    language,
  );
  const plan = planner.plan();
  return { ...plan, applyRuns: planner.applyCount };
}
