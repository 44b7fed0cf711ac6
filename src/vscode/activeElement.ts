import * as vscode from 'vscode';
import type { ElementNode, FileOutline } from '../core/elements/element';
import { supportedExtensionsText, supportedLanguageNamesText } from '../core/language/languageCatalog';
import type { Ctx } from './ctx';
import { UserFacingError } from './userError';

/** The workspace-relative path Scalpel uses for a document, with forward slashes. */
export function workspacePathOf(document: vscode.TextDocument): string {
  return vscode.workspace.asRelativePath(document.uri, false).replace(/\\/g, '/');
}

export function activeEditorOrThrow(): vscode.TextEditor {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined)
    throw new UserFacingError(`Open a ${supportedLanguageNamesText()} file first: Scalpel works on the active editor.`);
  return editor;
}

export function outlineDocumentOrThrow(ctx: Ctx, document: vscode.TextDocument): FileOutline {
  const engine = ctx.engine();
  const path = workspacePathOf(document);
  if (!engine.isOutlinable(path)) {
    throw new UserFacingError(
      `${path} is not a ${supportedLanguageNamesText()} file; Scalpel's element view needs one of ${supportedExtensionsText()}.`,
    );
  }
  return engine.outlineSource(path, document.getText());
}

/** The innermost element at the cursor (imports aside). */
export function elementAtCursorOrThrow(ctx: Ctx, editor: vscode.TextEditor, outline: FileOutline): ElementNode {
  const offset = editor.document.offsetAt(editor.selection.active);
  const innermost = ctx
    .engine()
    .elementsAtOffset(outline, offset)
    .filter((e) => e.kind !== 'import')
    .at(-1);
  if (innermost === undefined) {
    throw new UserFacingError(
      `The cursor is not inside an element of ${outline.file}. Place it in a function, class, method or other declaration.`,
    );
  }
  return innermost;
}
