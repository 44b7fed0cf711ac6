/**
 * How an edit is named to the user, the same on every surface: the title of its preview and pending edit, and the
 * label VS Code shows for it in Undo (Edit > Undo, the undo/redo history).
 */

const TITLE_LENGTH = 60;

/** The instruction's first line, cut to 60 characters. */
export function editTitleOf(instruction: string): string {
  const line = instruction.trim().split('\n')[0]?.trim() ?? '';
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 3)}…` : line;
}

export function undoLabelOf(title: string): string {
  return `Scalpel: ${title}`;
}
