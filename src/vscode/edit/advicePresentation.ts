import type * as vscode from 'vscode';
import type { Advice, AdviceAction } from '../../core/edit/advice';

/**
 * The core's abstract next actions as VS Code controls: buttons of a notification (the palette) and command links
 * (the chat). The words of the advice come from the core and are the same on both.
 */

/** Notification buttons; `reportError` in commands.ts runs them. */
export function adviceButtons(advice: Advice | undefined): string[] {
  const labels = (advice?.actions ?? []).flatMap((action) => {
    const label = buttonOf(action);
    return label === undefined ? [] : [label];
  });
  return [...new Set(labels)];
}

function buttonOf(action: AdviceAction): string | undefined {
  switch (action.kind) {
    case 'setApiKey':
      return 'Set API Key';
    case 'selectModel':
      return 'Select Model';
    case 'openSettings':
      return 'Open Settings';
    case 'showAnswer':
      return 'Show Answer';
    case 'showLog':
      return 'Show Log';
    case 'plan':
      // The palette plans on its own ("Edit File"); there is no separate plan step to offer.
      return undefined;
    case 'applyAnyway':
      // VS Code edits run with remaining type errors allowed (shown in the preview), so no edit fails for them yet.
      // TODO(#24): an "Apply Anyway (N errors)" button previewing the failed result's outcome.apply.changes then.
      return undefined;
  }
}

/** Command links under a chat answer. `plan` is offered as a follow-up instead (registerChat.ts). */
export function adviceCommands(advice: Advice | undefined): vscode.Command[] {
  return (advice?.actions ?? []).flatMap((action): vscode.Command[] => {
    switch (action.kind) {
      case 'setApiKey':
        return [{ command: 'scalpel.setApiKey', title: 'Set API Key' }];
      case 'selectModel':
        return [{ command: 'scalpel.selectModel', title: 'Select Model' }];
      case 'openSettings':
        return [
          {
            command: 'workbench.action.openSettings',
            title: 'Open Settings',
            arguments: [`scalpel.${action.setting}`],
          },
        ];
      case 'showAnswer':
        return [{ command: 'scalpel.showLastAnswer', title: 'Show Answer' }];
      case 'showLog':
        return [{ command: 'scalpel.showLog', title: 'Show Log' }];
      case 'plan':
      case 'applyAnyway':
        return [];
    }
  });
}
