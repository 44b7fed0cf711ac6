import { createTokenCounter, type TokenCounter } from '../../context/tokens';
import { normalizeFilePath } from '../../elements/elementPath';
import { languageFor, languageNames } from '../../language/languages';
import type { FileOutline } from '../../elements/element';
import type { Operation, RenameResolution } from '../operation';
import { serializeOperations } from '../format/serializeOperations';
import { applyToFileText } from './applyToText';
import { DiffPlanner } from './diffPlanner';
import type { DiffFallback } from './diffUnits';
import { trackOutline } from './pathTracker';
import { type RenameInFile, renameOperation, renamesInFile } from './renameDetect';
import { usesOnlyCrlf } from './textLines';

export type { DiffFallback, DiffFallbackKind } from './diffUnits';

export interface ElementDiffOptions {
  /** Counts the tokens of candidate operations to pick the cheapest; o200k_base by default. */
  readonly counter?: TokenCounter;
  /**
   * Whether a declaration renamed within the file may come out as RENAME_ELEMENT (true by default). Off for a caller
   * that applies the operations where RENAME_ELEMENT is not known (an older build replaying them).
   */
  readonly renames?: boolean;
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
  /**
   * The places of the diff's RENAME_ELEMENT, when it has one: the apply engine takes them as `ApplyOptions.renames`.
   * They are the old name's code occurrences in this file only (the diff sees one file); in a workspace, the
   * language's rename finds the places again, in every file that uses the declaration.
   */
  readonly renames?: ReadonlyMap<Operation, RenameResolution>;
}

let defaultCounter: TokenCounter | undefined;

/**
 * The minimal list of element operations that turns `before` into `after`, the text of one file at workspace
 * path `file`. Applying them to `before` gives `after` byte for byte: every candidate is checked by running the
 * apply engine, and whatever cannot be expressed exactly falls back to a bigger element, then to REPLACE_FILE.
 *
 * A declaration renamed within the file (its name gone, another in its place, every code use renamed) comes out as
 * RENAME_ELEMENT first when that is cheaper, its places in `renames` ({@link ElementDiff.renames}): this file's code
 * occurrences of the old name. Applied to a workspace, the language's rename would also change other files' uses,
 * which is what a commit that renamed across files did.
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
  const plan = (target: FileOutline): ElementDiff => {
    // Operations carry `\n` line breaks (the text format cannot hold `\r`); the apply engine writes the file's own.
    const crlf = usesOnlyCrlf(before) && usesOnlyCrlf(target.text);
    const toOperationText = crlf ? (text: string) => text.replace(/\r\n/g, '\n') : (text: string) => text;
    const planner = new DiffPlanner(
      beforeOutline,
      target,
      trackOutline(path, beforeOutline.elements),
      counter,
      (operations) => applyToFileText(path, before, operations),
      toOperationText,
      language,
    );
    return { ...planner.plan(), applyRuns: planner.applyCount };
  };
  const plain = plan(afterOutline);
  if (options.renames === false) return plain;
  return withRename(
    path,
    before,
    after,
    plain,
    renamesInFile(language, beforeOutline, afterOutline),
    counter,
    (text) => {
      const outline = language.outline(path, text);
      return outline.syntaxErrors.length > 0 ? undefined : plan(outline);
    },
  );
}

/**
 * The plain diff, or RENAME_ELEMENT first and the rest planned to the new text with the rename taken out, when that
 * is checked to give the new text exactly and costs fewer tokens. The rename's places are those of this one file
 * (renameDetect.ts): a workspace apply of the same RENAME_ELEMENT renames the uses in other files too.
 */
function withRename(
  path: string,
  before: string,
  after: string,
  plain: ElementDiff,
  renames: readonly RenameInFile[],
  counter: TokenCounter,
  planTo: (text: string) => ElementDiff | undefined,
): ElementDiff {
  if (renames.length === 0) return plain;
  let best = plain;
  // A plain diff that does not reproduce the new text loses to any rename that does.
  let bestCost = plain.verified ? counter.count(serializeOperations(plain.operations)) : Infinity;
  let applyRuns = plain.applyRuns;
  for (const rename of renames) {
    for (const target of rename.withoutRename) {
      const rest = planTo(target);
      if (rest === undefined) continue;
      applyRuns += rest.applyRuns;
      if (!rest.verified) continue;
      const { operation, resolution } = renameOperation(path, before, rename);
      const operations = [operation, ...rest.operations];
      const cost = counter.count(serializeOperations(operations));
      if (cost >= bestCost) continue;
      const resolutions = new Map<Operation, RenameResolution>([[operation, resolution]]);
      // Exact or not at all: the rename's places and the other operations' edits must not meet, and together give
      // the new text byte for byte.
      applyRuns += 1;
      if (applyToFileText(path, before, operations, resolutions) !== after) continue;
      best = { operations, fallbacks: rest.fallbacks, verified: true, applyRuns: 0, renames: resolutions };
      bestCost = cost;
    }
  }
  return { ...best, applyRuns };
}
