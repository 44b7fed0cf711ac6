import { languageFor } from '../../language/languages';
import type { CreateFileOperation, ReplaceFileOperation } from '../operation';
import { trimEdit } from './editBuffer';
import type { OpFailure } from './actions';
import { findNewPlaceholder } from './placeholders';
import { textFileProblem } from './textFileChecks';
import { detectEol, detectStyle, stripBom, toLf, usesLoneCr, withEol } from './textStyle';
import type { FileChange } from './types';
import { syntaxProblem } from './verify';

/**
 * CREATE_FILE and REPLACE_FILE: the whole text of a file. A replaced file keeps its line breaks, byte order mark and
 * final newline (present or absent); a created one gets a final newline. Code files must parse (no syntax error
 * the old text did not have) and hold no lazy placeholder.
 */

export type FileOperationOutcome =
  { readonly ok: true; readonly change: FileChange | undefined } | { readonly ok: false; readonly failure: OpFailure };

export function applyFileOperation(
  path: string,
  before: string | undefined,
  operation: CreateFileOperation | ReplaceFileOperation,
): FileOperationOutcome {
  const label = `${operation.type} ${path}`;
  const raw = stripBom(operation.content);
  const lf = toLf(raw).replace(/\r/g, '\n');
  // By hand: `/\n+$/` tries every start in a run of line breaks and is quadratic in it.
  let end = lf.length;
  while (end > 0 && lf.charAt(end - 1) === '\n') end -= 1;
  const body = lf.slice(0, end);
  if (operation.type === 'REPLACE_FILE' && body.trim() === '') {
    return {
      ok: false,
      failure: {
        message: `${label} has no content`,
        hint: 'REPLACE_FILE needs the complete new file; to remove code from it use DELETE_ELEMENT',
      },
    };
  }
  const placeholder = findNewPlaceholder(body, before === undefined ? undefined : toLf(before), languageFor(path));
  if (placeholder !== undefined) {
    return {
      ok: false,
      failure: {
        message: `the content holds a placeholder instead of code: "${placeholder.text}" (line ${placeholder.line}); it would delete the code it stands for`,
        hint: 'write out the complete file, or change it with element operations',
      },
    };
  }
  let after: string;
  if (before === undefined) {
    const eol = detectEol(raw);
    after = body === '' ? '' : withEol(body, eol) + eol;
  } else {
    const style = detectStyle(before);
    // A file of lone CRs keeps them (detectStyle knows LF and CRLF only).
    const eol = usesLoneCr(before) ? '\r' : style.eol;
    const finalNewline = eol === '\r' ? before.endsWith('\r') : style.finalNewline;
    after = (style.bom ? '\uFEFF' : '') + body.replace(/\n/g, eol) + (finalNewline && body !== '' ? eol : '');
  }
  const language = languageFor(path);
  if (language !== undefined) {
    const beforeOutline = language.outline(path, before ?? '');
    const problem = syntaxProblem(beforeOutline, language.outline(path, after));
    if (problem !== undefined)
      return { ok: false, failure: { message: `${label}: ${problem.message}`, hint: problem.hint } };
  } else {
    const problem = textFileProblem(path, before === undefined ? undefined : stripBom(before), stripBom(after));
    if (problem !== undefined)
      return { ok: false, failure: { message: `${label}: ${problem.message}`, hint: problem.hint } };
  }
  if (before === undefined) {
    return {
      ok: true,
      change: { path, before: undefined, after, edits: [{ start: 0, end: 0, newText: after }], created: true },
    };
  }
  if (after === before) return { ok: true, change: undefined };
  const edit = trimEdit(before, { start: 0, end: before.length, newText: after });
  return { ok: true, change: { path, before, after, edits: [edit], created: false } };
}
