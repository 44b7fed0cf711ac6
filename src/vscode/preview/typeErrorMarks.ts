import * as vscode from 'vscode';
import type { NewTypeError } from '../../core/check/typeCheck';
import type { Ctx } from '../ctx';
import type { PendingEdit } from '../pendingEdits';
import type { EditSessions } from './editSessions';
import { parseProposedUri } from './proposedUris';
import { codeLabel } from './typeErrorReview';

/**
 * The TypeScript errors a pending edit adds (those the model's repair rounds did not fix) as diagnostics, where the
 * user decides: on the preview's proposed side for the files the edit changes, and on the file itself for an importer
 * the edit breaks without changing it (a caller of a changed signature). They show in the editor and the Problems
 * view while the edit is pending and go when it is accepted or rejected (the language server then reports what is
 * real in the files).
 */

const SOURCE = 'Scalpel';

export class PreviewTypeErrorMarks implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('scalpel-preview');
  private readonly disposables: vscode.Disposable[] = [this.collection];
  /** Workspace files marked for an edit, by URI: cleared with it. */
  private readonly marked = new Map<string, string>();

  constructor(
    private readonly ctx: Ctx,
    sessions: EditSessions,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((document) => this.mark(document)),
      // The proposal moves with what the user types meanwhile: find the lines again.
      vscode.workspace.onDidChangeTextDocument((event) => this.mark(event.document)),
      sessions.onDidEnd((editId) => this.clear(editId)),
    );
    for (const document of vscode.workspace.textDocuments) this.mark(document);
  }

  private mark(document: vscode.TextDocument): void {
    const target = parseProposedUri(document.uri);
    if (target === undefined || target.original) return;
    const edit = this.ctx.pendingEdits.get(target.editId);
    if (edit === undefined) return;
    const errors = (edit.typeErrors ?? []).filter((e) => e.file === target.path);
    if (errors.length === 0) this.collection.delete(document.uri);
    else
      this.collection.set(
        document.uri,
        errors.map((error) => diagnosticOf(document, error)),
      );
    this.markUnchangedFiles(edit);
  }

  /** Errors in files the edit leaves as they are: marked on the file, at the line the check found. */
  private markUnchangedFiles(edit: PendingEdit): void {
    const changed = new Set(edit.changes.map((c) => c.path));
    const byFile = new Map<string, NewTypeError[]>();
    for (const error of edit.typeErrors ?? [])
      if (!changed.has(error.file)) byFile.set(error.file, [...(byFile.get(error.file) ?? []), error]);
    for (const [file, errors] of byFile) {
      const uri = vscode.Uri.joinPath(edit.root, ...file.split('/'));
      this.marked.set(uri.toString(), edit.id);
      this.collection.set(
        uri,
        errors.map((error) =>
          located(
            error,
            new vscode.Range(
              error.line - 1,
              error.column - 1,
              error.line - 1,
              error.column - 1 + error.lineText.length,
            ),
            `${sentenceBody(error.message)} (if you accept the pending Scalpel edit "${edit.title}")`,
          ),
        ),
      );
    }
  }

  private clear(editId: string): void {
    this.collection.forEach((uri) => {
      const owner = parseProposedUri(uri)?.editId ?? this.marked.get(uri.toString());
      if (owner !== editId) return;
      this.collection.delete(uri);
      this.marked.delete(uri.toString());
    });
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}

function diagnosticOf(document: vscode.TextDocument, error: NewTypeError): vscode.Diagnostic {
  const line = lineOf(document, error);
  const text = document.lineAt(line).text;
  const start = Math.min(Math.max(error.column - 1, text.length - text.trimStart().length), text.length);
  return located(
    error,
    new vscode.Range(line, start, line, Math.max(start, text.trimEnd().length)),
    `${sentenceBody(error.message)} (this edit adds it)`,
  );
}

function located(error: NewTypeError, range: vscode.Range, message: string): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(range, message, vscode.DiagnosticSeverity.Error);
  diagnostic.source = SOURCE;
  diagnostic.code = codeLabel(error.code);
  return diagnostic;
}

/**
 * The error's line in the proposed text: the checked line when it still reads the same, else the nearest line that
 * does (the user typed above it meanwhile), else the checked line number within the document.
 */
function lineOf(document: vscode.TextDocument, error: NewTypeError): number {
  const wanted = Math.min(Math.max(error.line - 1, 0), document.lineCount - 1);
  const same = (line: number): boolean => document.lineAt(line).text.trim() === error.lineText;
  if (error.lineText === '' || same(wanted)) return wanted;
  for (let distance = 1; distance < document.lineCount; distance++) {
    if (wanted - distance >= 0 && same(wanted - distance)) return wanted - distance;
    if (wanted + distance < document.lineCount && same(wanted + distance)) return wanted + distance;
  }
  return wanted;
}

/** The checker's message without its closing period, so a remark in brackets can follow it. */
function sentenceBody(message: string): string {
  return message.replace(/\.\s*$/, '');
}
