import * as vscode from 'vscode';

export const CONTEXT_SCHEME = 'scalpel-context';

/**
 * Read-only documents that show what Scalpel sends to a model and what it got back (Show Context, Show Token
 * Statistics, Show Last Failed Answer): virtual, so they can never be saved or edited. They share one editor column:
 * each opened beside the code would split the window again (issue 14).
 */
export class ContextDocumentProvider implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  async show(name: string, content: string): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: CONTEXT_SCHEME, path: `/${name}` });
    this.contents.set(uri.toString(), content);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: true, viewColumn: this.column() });
  }

  /** The column already showing one of these documents, else the one beside the active editor. */
  private column(): vscode.ViewColumn {
    const groups = vscode.window.tabGroups.all;
    const holding = (group: vscode.TabGroup): boolean =>
      group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === CONTEXT_SCHEME);
    const group = groups.find((g) => g.isActive && holding(g)) ?? groups.find(holding);
    return group?.viewColumn ?? vscode.ViewColumn.Beside;
  }

  dispose(): void {
    this.changed.dispose();
    this.contents.clear();
  }
}
