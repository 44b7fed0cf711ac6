import * as vscode from 'vscode';

export const CHAT_DOCUMENT_SCHEME = 'scalpel-chat';

/** Chat answers fold nothing (the Chat view renders no HTML), so long texts show in part and open whole from here. */
const KEPT = 20;

/** Read-only documents behind the chat's "open the whole ..." links: a context, a model's answer. */
export class ChatDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private next = 1;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? 'This text is no longer kept; ask @scalpel again.';
  }

  /** Stores `content` and returns the address that opens it. */
  put(name: string, content: string): vscode.Uri {
    const path = `/${this.next++}/${name}`;
    this.contents.set(path, content);
    if (this.contents.size > KEPT) this.contents.delete(this.contents.keys().next().value ?? '');
    return vscode.Uri.from({ scheme: CHAT_DOCUMENT_SCHEME, path });
  }

  dispose(): void {
    this.contents.clear();
  }
}
