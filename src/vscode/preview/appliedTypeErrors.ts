import * as vscode from 'vscode';
import type { NewTypeError } from '../../core/check/typeCheck';
import { codeLabel } from './typeErrorReview';

/**
 * The new type errors of an edit the user accepted, in the Problems view where the notification points (issue 29):
 * VS Code's TypeScript server reports errors only for files that are open, so an importer the edit broke without
 * changing it would otherwise show nothing there. Each entry stays while its line still reads as it did when the edit
 * was checked (an Undo, a fix or other typing takes it away), and goes when the language server reports an error of
 * the same code on the same line itself (no double entry once the file is open).
 */

const SOURCE = 'Scalpel';

interface AppliedEdit {
  readonly title: string;
  /** The files the edit changed and their text before it: back to it (an Undo), the edit's entries go. */
  readonly before: ReadonlyMap<string, string | undefined>;
}

interface AppliedError {
  readonly error: NewTypeError;
  readonly edit: AppliedEdit;
}

export class AppliedTypeErrors implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('scalpel-applied');
  private readonly byUri = new Map<string, { uri: vscode.Uri; errors: AppliedError[] }>();
  private readonly disposables: vscode.Disposable[] = [this.collection];

  constructor() {
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((event) => {
        this.dropUndone(event.document);
        this.refresh(event.document.uri);
      }),
      vscode.workspace.onDidOpenTextDocument((document) => this.refresh(document.uri)),
      vscode.languages.onDidChangeDiagnostics((event) => {
        for (const uri of event.uris) if (this.byUri.has(uri.toString())) this.refresh(uri);
      }),
    );
  }

  /** Lists the errors an accepted edit wrote. */
  mark(
    root: vscode.Uri,
    title: string,
    errors: readonly NewTypeError[],
    changes: readonly { readonly path: string; readonly before: string | undefined }[],
  ): void {
    const edit: AppliedEdit = {
      title,
      before: new Map(changes.map((c) => [vscode.Uri.joinPath(root, ...c.path.split('/')).toString(), c.before])),
    };
    for (const error of errors) {
      const uri = vscode.Uri.joinPath(root, ...error.file.split('/'));
      const key = uri.toString();
      const entry = this.byUri.get(key) ?? { uri, errors: [] };
      entry.errors.push({ error, edit });
      this.byUri.set(key, entry);
    }
    for (const { uri } of [...this.byUri.values()]) this.refresh(uri);
  }

  /** A file of an accepted edit is back to its text before it (an Undo): the edit's entries go, in every file. */
  private dropUndone(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    for (const entry of [...this.byUri.values()]) {
      const before = entry.errors.length;
      entry.errors = entry.errors.filter(({ edit }) => {
        if (!edit.before.has(key)) return true;
        const text = edit.before.get(key);
        return text === undefined ? true : document.getText() !== text;
      });
      if (entry.errors.length !== before) this.refresh(entry.uri);
    }
  }

  private refresh(uri: vscode.Uri): void {
    const key = uri.toString();
    const entry = this.byUri.get(key);
    if (entry === undefined) return;
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    const others = vscode.languages.getDiagnostics(uri).filter((d) => d.source !== SOURCE);
    const kept: AppliedError[] = [];
    const diagnostics: vscode.Diagnostic[] = [];
    for (const applied of entry.errors) {
      const line = document === undefined ? applied.error.line - 1 : lineOf(document, applied.error);
      if (line === undefined) continue;
      // The language server has it now: its own entry is the one to keep.
      if (others.some((d) => d.range.start.line === line && String(codeOf(d)) === String(applied.error.code))) continue;
      kept.push(applied);
      const start = Math.max(applied.error.column - 1, 0);
      const end = document === undefined ? start + applied.error.lineText.length : document.lineAt(line).text.length;
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(line, start, line, Math.max(start, end)),
        `${applied.error.message.replace(/\.\s*$/, '')} (added by the accepted Scalpel edit "${applied.edit.title}")`,
        vscode.DiagnosticSeverity.Error,
      );
      diagnostic.source = SOURCE;
      diagnostic.code = codeLabel(applied.error.code);
      diagnostics.push(diagnostic);
    }
    if (kept.length === 0) {
      this.byUri.delete(key);
      this.collection.delete(uri);
      return;
    }
    entry.errors = kept;
    this.collection.set(uri, diagnostics);
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}

function codeOf(diagnostic: vscode.Diagnostic): string | number | undefined {
  const code = diagnostic.code;
  return typeof code === 'object' ? code.value : code;
}

/** The error's line in the document as it is now: the checked line if it still reads the same, else the nearest such. */
function lineOf(document: vscode.TextDocument, error: NewTypeError): number | undefined {
  if (error.lineText === '') return Math.min(Math.max(error.line - 1, 0), document.lineCount - 1);
  const wanted = Math.min(Math.max(error.line - 1, 0), document.lineCount - 1);
  const same = (line: number): boolean => document.lineAt(line).text.trim() === error.lineText;
  if (same(wanted)) return wanted;
  for (let distance = 1; distance < 20; distance++) {
    if (wanted - distance >= 0 && same(wanted - distance)) return wanted - distance;
    if (wanted + distance < document.lineCount && same(wanted + distance)) return wanted + distance;
  }
  return undefined;
}
