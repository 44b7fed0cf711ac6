/**
 * The apply engine: operations in, verified file changes out. Pure: it reads files only through the
 * {@link SnapshotReader} it is given, once each, and never touches a file system or VS Code.
 *
 * Semantics a caller can rely on:
 * - Every path of a batch resolves against the snapshot (the text before any operation). `#n` ordinals are the
 *   snapshot's; CREATE_ELEMENT BEFORE/AFTER may also name an element created earlier in the same batch.
 * - All or nothing: any failure gives `ok: false` and no changes; with `partial`, what verified is returned.
 * - Compositions are listed in filePlan.ts: PATCH after PATCH or REPLACE of one element compose, DELETE + CREATE of
 *   one name compose, an edit of an element and of anything inside it is refused, duplicates are refused.
 * - Verification before `ok`: no syntax error the snapshot did not have, every element no operation aimed at still
 *   there with the same code, every replaced or created element found where it belongs.
 *
 * What the engine writes differently from the content it is given (a diff that must round-trip should know):
 * - Code is re-indented to its place and to the file's tabs or spaces; a first line at column 0 followed by lines
 *   already at the element's indentation is read as cut from the file (the form of an element's range).
 * - Line breaks, byte order mark and the presence of a final newline are the file's.
 * - REPLACE_ELEMENT keeps the old doc comment (`/** *\/`) when the content has no leading comment, keeps an
 *   `export`/`export default` the content left off a top-level declaration, adds back the `;` or `,` that ended the
 *   old element when the content ends without one, and drops a trailing comma from object and enum members.
 * - CREATE_ELEMENT adds commas, separators and blank lines after the container's own habits.
 * - Imports at the head of top-level REPLACE/CREATE content are merged into the file's imports like ADD_IMPORT.
 */
export { applyOperations } from './applyOperations';
export type { ApplyOptions, ApplyResult, EditStrategy, FileChange, SnapshotReader, TextEdit } from './types';
export { applyEdits } from './editBuffer';
