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
import { type RenameInFile, renameOperation, renamesCombine, renamesInFile, withoutRenames } from './renameDetect';
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
   * The places of the diff's RENAME_ELEMENTs, when it has some: the apply engine takes them as `ApplyOptions.renames`.
   * They are each old name's code occurrences in this file only (the diff sees one file); in a workspace, the
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
 * Declarations renamed within the file (each name gone, another in its place, every code use renamed) come out as
 * RENAME_ELEMENTs first when that is cheaper, their places in `renames` ({@link ElementDiff.renames}): this file's
 * code occurrences of each old name. Applied to a workspace, the language's rename would also change other files' uses,
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
  return withRenames(
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
 * The plain diff, or RENAME_ELEMENTs first and the rest planned to the new text with the renames taken out, when that
 * is checked to give the new text exactly and costs fewer tokens. Each rename is tried alone, then the cheapest joined
 * greedily by the others, cheapest alone first, each kept only when the diff with it is exact and cheaper still. The
 * renames' places are those of this one file (renameDetect.ts): a workspace apply of the same RENAME_ELEMENT renames
 * the uses in other files too.
 */
function withRenames(
  path: string,
  before: string,
  after: string,
  plain: ElementDiff,
  candidates: readonly RenameInFile[],
  counter: TokenCounter,
  planTo: (text: string) => ElementDiff | undefined,
): ElementDiff {
  if (candidates.length === 0) return plain;
  let best = plain;
  // A plain diff that does not reproduce the new text loses to any rename that does.
  const plainCost = plain.verified ? counter.count(serializeOperations(plain.operations)) : Infinity;
  let bestCost = plainCost;
  let applyRuns = plain.applyRuns;
  /**
   * The cost of the cheapest exact diff with `renames` under `limit`, made the best when it is the cheapest yet;
   * Infinity when there is none.
   */
  const attempt = (renames: readonly RenameInFile[], limit: number): number => {
    let cheapest = Infinity;
    for (const target of withoutRenames(renames, before, after)) {
      const rest = planTo(target);
      if (rest === undefined) continue;
      applyRuns += rest.applyRuns;
      if (!rest.verified) continue;
      const resolutions = new Map<Operation, RenameResolution>();
      const ops: Operation[] = [];
      // In the old outline's order; the apply engine resolves every rename against the old text.
      for (const rename of [...renames].sort((a, b) => candidates.indexOf(a) - candidates.indexOf(b))) {
        const { operation, resolution } = renameOperation(path, before, rename);
        ops.push(operation);
        resolutions.set(operation, resolution);
      }
      const operations = [...ops, ...rest.operations];
      const cost = counter.count(serializeOperations(operations));
      if (cost >= Math.min(limit, cheapest)) continue;
      // Exact or not at all: the renames' places and the other operations' edits must not meet, and together give
      // the new text byte for byte.
      applyRuns += 1;
      if (applyToFileText(path, before, operations, resolutions) !== after) continue;
      cheapest = cost;
      if (cost >= bestCost) continue;
      best = { operations, fallbacks: rest.fallbacks, verified: true, applyRuns: 0, renames: resolutions };
      bestCost = cost;
    }
    return cheapest;
  };
  const alone = candidates.map((rename) => ({ rename, cost: attempt([rename], plainCost) }));
  // Greedy: the cheapest alone first; then each other rename joins when the diff with it is exact and cheaper still,
  // those that saved most alone first. A rename whose places another operation replaces is not exact alone, and may
  // be once the renames of that operation's other names leave it to a smaller one: it is tried after those, and
  // every rename left out is tried again after one joined. All at once is tried too: renames that make each other
  // exact (a field and the methods that use it) may only pay together.
  const ranked = [...alone].sort((a, b) => a.cost - b.cost).map((a) => a.rename);
  const first = alone.find((a) => a.cost === bestCost && bestCost < plainCost);
  const chosen: RenameInFile[] = first === undefined ? [] : [first.rename];
  const combinable = ranked.reduce<RenameInFile[]>(
    (set, rename) => (renamesCombine(set, rename) ? [...set, rename] : set),
    [],
  );
  if (combinable.length > 1 && attempt(combinable, bestCost) < Infinity) chosen.splice(0, chosen.length, ...combinable);
  // At most three rounds: each tries every rename left out, so the plans stay a few times the renames.
  for (let joined = chosen.length > 0, round = 0; joined && round < 3; round++) {
    joined = false;
    for (const rename of ranked) {
      if (chosen.includes(rename) || !renamesCombine(chosen, rename)) continue;
      if (attempt([...chosen, rename], bestCost) === Infinity) continue;
      chosen.push(rename);
      joined = true;
    }
  }
  return { ...best, applyRuns };
}
