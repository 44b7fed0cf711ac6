import type { FileOutline } from '../elements/element';
import { resolveElementPath } from '../elements/resolve';

/**
 * The line of the coding prompt that names what the user pointed at: the element at the cursor, the elements a
 * selection touches, the symbols a chat message referenced. A file small enough to go whole shows every element
 * alike, so without this line "make this async" names nothing (issue 14). It is its own function, apart from the
 * prompt wording in prompts.ts, so the two can change independently.
 */

export interface FocusedFile {
  readonly outline: FileOutline;
  /** The element paths the user pointed at in this file; the planning phase's choices are not the user's. */
  readonly focus: readonly string[];
}

/** `Focus: <path> (lines a-b), ...` and a line break, or '' when the user pointed at nothing (Edit File). */
export function focusNote(files: readonly FocusedFile[]): string {
  const named: string[] = [];
  for (const { outline, focus } of files) {
    for (const path of focus) {
      const resolved = resolveElementPath(outline, path);
      if (!resolved.ok) {
        named.push(path);
        continue;
      }
      const { element } = resolved;
      const lines =
        element.startLine === element.endLine
          ? `line ${element.startLine}`
          : `lines ${element.startLine}-${element.endLine}`;
      named.push(`${element.path} (${lines})`);
    }
  }
  if (named.length === 0) return '';
  return `Focus: ${named.join(', ')}, where the user's cursor, selection or reference is; the task is about ${named.length === 1 ? 'this element' : 'these elements'}.\n`;
}
