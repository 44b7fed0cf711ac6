import type { FileOutline } from '../elements/element';
import { elementsAtOffset } from '../elements/resolve';
import { languageFor } from '../language/languages';
import type { UntouchedMatch } from '../ops/operation';
import { searchText, TextSearchError } from './textSearch';

/**
 * The whole-word matches of a renamed declaration's old name that the rename does not change (issue 27): in strings
 * and comments, in code the compiler does not tie to the declaration, in files of no language. The rename tool and
 * RENAME_ELEMENT list them so the model decides; neither changes them.
 */

/** Text matches collected at most; past it the answer says so. */
const MAX_TEXT_HITS = 2_000;
const TEXT_SEARCH_TIME_LIMIT_MS = 15_000;

export interface UntouchedScope {
  /** Absolute workspace root. */
  readonly root: string;
  /** The workspace files to search (workspace-relative). */
  readonly files: readonly string[];
  /** Texts that differ from the disk (unsaved editors, a snapshot); the others are read from the disk. */
  readonly texts: ReadonlyMap<string, string | undefined>;
  /** A file's text as the search saw it. */
  read(file: string): string | undefined;
  /** The element outline of a file, to name the element a match is in; undefined when it has none. */
  outlineOf(file: string, text: string): FileOutline | undefined;
}

/** Whole-word matches of `oldName`; `renamed` holds the `file:offset` of each place the rename changes. */
export async function untouchedMatches(
  scope: UntouchedScope,
  oldName: string,
  renamed: ReadonlySet<string>,
): Promise<{ rows: UntouchedMatch[]; notes: string[] }> {
  let result;
  try {
    result = await searchText(
      { text: oldName, mode: 'identifier', caseSensitive: true },
      { root: scope.root, files: scope.files, texts: scope.texts },
      { maxHits: MAX_TEXT_HITS, timeLimitMs: TEXT_SEARCH_TIME_LIMIT_MS },
    );
  } catch (error) {
    if (error instanceof TextSearchError) return { rows: [], notes: [`the text search failed: ${error.message}`] };
    throw error;
  }
  const rows: UntouchedMatch[] = [];
  const byFile = new Map<string, (typeof result.hits)[number][]>();
  for (const hit of result.hits) byFile.set(hit.file, [...(byFile.get(hit.file) ?? []), hit]);
  for (const [file, hits] of byFile) {
    const text = scope.texts.get(file) ?? scope.read(file) ?? '';
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    const language = languageFor(file);
    const scan = language?.scanCode(text);
    const outline = language === undefined ? undefined : scope.outlineOf(file, text);
    for (const hit of hits) {
      const offset = (starts[hit.line - 1] ?? 0) + hit.column - 1;
      // A place's span is the name itself: a match starting there is one the rename changes.
      if (renamed.has(`${file}:${offset}`)) continue;
      const inside = (ranges: readonly { start: number; end: number }[] | undefined): boolean =>
        ranges?.some((r) => offset >= r.start && offset < r.end) === true;
      const where =
        scan === undefined ? 'text' : inside(scan.comments) ? 'comment' : inside(scan.literals) ? 'string' : 'code';
      const element = outline === undefined ? '' : (elementsAtOffset(outline, offset).at(-1)?.path ?? '');
      // One row per line, naming each kind of match on it.
      const same = rows.at(-1);
      if (same?.file === file && same.line === hit.line) {
        if (!same.in.split(',').includes(where)) rows[rows.length - 1] = { ...same, in: `${same.in},${where}` };
        continue;
      }
      const line = hit.lineText.trim();
      rows.push({
        file,
        line: hit.line,
        element,
        in: where,
        code: line.length > 160 ? `${line.slice(0, 159)}…` : line,
      });
    }
  }
  const notes = [
    ...(result.limitReached
      ? [`the text search stopped at ${MAX_TEXT_HITS.toLocaleString('en-US')} matches: more may follow`]
      : []),
    ...(result.cutShort
      ? [`the text search stopped at its time limit after ${result.filesSearched.toLocaleString('en-US')} files`]
      : []),
  ];
  return { rows, notes };
}
