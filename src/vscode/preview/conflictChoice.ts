import * as vscode from 'vscode';
import type { Conflict, ConflictChoice } from '../../core/edit/rebase';

/**
 * The `ask` conflict policy's question: for each element both the user and the model changed, a QuickPick showing
 * both versions (the first lines of each, the whole in the item's detail); the user keeps theirs or takes the
 * model's. Dismissing the pick keeps the user's version: nothing of theirs is replaced without a yes.
 */
export async function askConflictChoices(conflicts: readonly Conflict[]): Promise<Map<number, ConflictChoice>> {
  const choices = new Map<number, ConflictChoice>();
  for (const [position, conflict] of conflicts.entries()) {
    const name = conflict.element ?? conflict.path;
    type Item = vscode.QuickPickItem & { readonly choice: ConflictChoice };
    const items: Item[] = [
      {
        label: '$(person) Keep your version',
        description: 'your change since the model saw it',
        detail: preview(conflict.userText),
        choice: 'user',
      },
      {
        label:
          conflict.modelText === undefined
            ? "$(trash) Take the model's change: delete it"
            : "$(sparkle) Take the model's version",
        description: 'replaces yours; Undo brings yours back',
        detail: conflict.modelText === undefined ? 'the element is deleted' : preview(conflict.modelText),
        choice: 'agent',
      },
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: `Scalpel: you and the model both changed ${name} (${position + 1} of ${conflicts.length})`,
      placeHolder: 'Which version of this element should the file keep?',
      ignoreFocusOut: true,
      matchOnDetail: true,
    });
    choices.set(conflict.index, picked?.choice ?? 'user');
  }
  return choices;
}

/** The element on one line per source line, as much as a QuickPick detail shows. */
function preview(text: string | undefined): string {
  if (text === undefined) return '';
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.join(' ⏎ ').slice(0, 400);
}
