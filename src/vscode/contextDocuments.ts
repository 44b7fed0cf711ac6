import * as vscode from 'vscode';

export const CONTEXT_SCHEME = 'scalpel-context';

/** Read-only documents that show what Scalpel sends to a model (virtual: they can never be saved or edited). */
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
    return vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  dispose(): void {
    this.changed.dispose();
    this.contents.clear();
  }
}
