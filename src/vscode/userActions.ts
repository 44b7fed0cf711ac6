import * as vscode from 'vscode';
import type { Ctx } from './ctx';

/** What the buttons of a Scalpel notification do, by label (UserFacingError actions, the core's advice). */
const ACTIONS: Readonly<Record<string, (ctx: Ctx) => unknown>> = {
  'Show Log': (ctx) => ctx.log.show(),
  'Select Model': () => vscode.commands.executeCommand('scalpel.selectModel'),
  'Set API Key': () => vscode.commands.executeCommand('scalpel.setApiKey'),
  'Set Up Model': () => vscode.commands.executeCommand('scalpel.setUpModel'),
  'Show Answer': () => vscode.commands.executeCommand('scalpel.showLastAnswer'),
  'Open Settings': () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:scalpel-dev.scalpel'),
};

export function runUserAction(ctx: Ctx, label: string): void {
  void ACTIONS[label]?.(ctx);
}
