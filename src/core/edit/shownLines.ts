import { filePartOf } from '../elements/elementPath';
import { linesOutsideFences } from '../ops/format/fences';

/**
 * Lines of code Scalpel showed the model verbatim outside whole elements (issue 24, "lines shown are lines seen"):
 * each use a references list names (`- <element path>: <line>`, or `- <path within the file>: <line>` under the file's
 * heading when the list is grouped by file), each use a FIND answer lists (`- used in <element
 * path>: <line>`), each place the reference check lists (`- <file>:<n> in <element path>: <line>`), and the line of a
 * type error in a repair message (`    at: <line>` under its `- <element path>: TS…` line). The seen-code rule lets a
 * PATCH_ELEMENT through whose SEARCH lines were all shown so, in the file the listing names.
 *
 * The listings are read from the text that was sent, so a line cut short (`…`), left out for the budget or never
 * sent is not counted. Fenced blocks are code, not listings, and are skipped.
 */

/** `- <path>: <code>`, `- used in <path>: <code>`, `- <file>:<n> in <path>: <code>`; <path> may end `(top level)`. */
const LISTED = /^\s*- (?:used in )?(?:(\S+?):\d+ in )?(\S+?)(?: \(top level\))?: (.+)$/;
/** A type error's line in a repair message, under the error. */
const AT = /^\s+at: (.+)$/;
/** A file's heading in a references list grouped by file (issue 28): `src/a.ts:`, `test/a.test.ts (test):`. */
const GROUP = /^(\S+?)(?: \(test\))?:$/;
/** A site under that heading: `- <path within the file>: <code>`, `- (top level): <code>`. */
const GROUPED = /^- (?:\(top level\)|\S+?): (.+)$/;

/** Workspace file → trimmed lines shown verbatim, from one text sent to the model. */
export function linesShownIn(text: string): Map<string, string[]> {
  const shown = new Map<string, string[]>();
  const add = (file: string, code: string): void => {
    const line = code.trim();
    if (line === '' || line.endsWith('…')) return;
    const lines = shown.get(file) ?? [];
    if (!lines.includes(line)) lines.push(line);
    shown.set(file, lines);
  };
  /** The file of the listing line above, for the `at:` line under a type error. */
  let listedFile: string | undefined;
  /** The file heading the group of sites below it, in a references list grouped by file. */
  let groupFile: string | undefined;
  for (const line of linesOutsideFences(text.split('\n'))) {
    if (line === undefined) {
      listedFile = undefined;
      groupFile = undefined;
      continue;
    }
    const group = GROUP.exec(line);
    if (group !== null) {
      groupFile = fileOf(group[1] ?? '');
      listedFile = undefined;
      continue;
    }
    const grouped = groupFile === undefined ? null : GROUPED.exec(line);
    if (grouped !== null && groupFile !== undefined) {
      add(groupFile, grouped[1] ?? '');
      continue;
    }
    if (!line.startsWith('- ')) groupFile = undefined;
    const at = AT.exec(line);
    if (at !== null) {
      if (listedFile !== undefined) add(listedFile, at[1] ?? '');
      continue;
    }
    const listed = LISTED.exec(line);
    const file = listed === null ? undefined : fileOf(listed[2] ?? '');
    listedFile = file;
    if (listed === null || file === undefined) continue;
    // A type error's own line (`- <path>: TS2554 …`) names the error, not code: its code comes on the `at:` line.
    if (/^TS\d+ /.test(listed[3] ?? '')) continue;
    if (listed[1] !== undefined && listed[1] !== file) continue;
    add(file, listed[3] ?? '');
  }
  return shown;
}

/** The file of an element path (or of a file path), when it names one (has an extension). */
function fileOf(path: string): string | undefined {
  const file = filePartOf(path);
  return file !== undefined && /\.[A-Za-z0-9]+$/.test(file) ? file : undefined;
}
