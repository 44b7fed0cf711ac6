/**
 * The lines a rename left as they are (and the places it changed by name only), found in the files before the batch,
 * moved to where they read after it (issue 27): the same line of a written file, with its code as written (a line
 * that also held a renamed place shows the new name), so the list the user and the model read matches the files. A line inside text
 * another operation of the batch replaced is looked up in the replacement, and dropped when it is no longer there.
 */

/** What a batch does to one file: its text before and after, and the edits between them (sorted, not overlapping). */
export interface ChangedText {
  readonly path: string;
  readonly before: string | undefined;
  readonly after: string;
  readonly edits: readonly { readonly start: number; readonly end: number; readonly newText: string }[];
}

const MAX_CODE_CHARS = 160;

/** A line of a file as the answers list it: the untouched matches, the by-name places. */
interface ListedLine {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

export function untouchedAfter<T extends ListedLine>(rows: readonly T[], changes: readonly ChangedText[]): T[] {
  const byPath = new Map(changes.map((change) => [change.path, change] as const));
  return rows.flatMap((row) => {
    const change = byPath.get(row.file);
    if (change?.before === undefined) return [row];
    const offset = lineStart(change.before, row.line);
    if (offset === undefined) return [row];
    let delta = 0;
    for (const edit of change.edits) {
      const insertedHere = edit.start === offset && edit.end === offset;
      if ((edit.end <= offset && edit.start < offset) || insertedHere) {
        delta += edit.newText.length - (edit.end - edit.start);
        continue;
      }
      if (edit.start < offset && offset < edit.end) {
        // Another operation rewrote the line: find it in what it wrote, or drop it.
        const code = row.code.replace(/…$/, '');
        const at = edit.newText.indexOf(code);
        if (code === '' || at < 0) return [];
        return [{ ...row, ...lineAt(change.after, edit.start + delta + at) }];
      }
      break;
    }
    return [{ ...row, ...lineAt(change.after, offset + delta) }];
  });
}

function lineStart(text: string, line: number): number | undefined {
  let at = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', at);
    if (next < 0) return undefined;
    at = next + 1;
  }
  return at;
}

function lineAt(text: string, offset: number): { line: number; code: string } {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  const code = text.slice(start, end < 0 ? text.length : end).trim();
  return { line, code: code.length > MAX_CODE_CHARS ? `${code.slice(0, MAX_CODE_CHARS - 1)}…` : code };
}
