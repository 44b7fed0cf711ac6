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
    throw new UserFacingError(
      `Open a ${supportedLanguageNamesText()} file first: Scalpel works on the active editor.`,
    );
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

/**
 * The element at the cursor: the innermost one, or, when the cursor sits in nested elements and `choose` is set,
 * the one the user picks among the innermost and its containers.
 */
export async function elementAtCursorOrThrow(
  ctx: Ctx,
  editor: vscode.TextEditor,
  outline: FileOutline,
  choose: boolean,
): Promise<ElementNode> {
  const offset = editor.document.offsetAt(editor.selection.active);
  const chain = ctx
    .engine()
    .elementsAtOffset(outline, offset)
    .filter((e) => e.kind !== 'import');
  const innermost = chain.at(-1);
  if (innermost === undefined) {
    throw new UserFacingError(
      `The cursor is not inside an element of ${outline.file}. Place it in a function, class, method or other declaration.`,
    );
  }
  if (!choose || chain.length === 1) return innermost;
  const items = [...chain].reverse().map((element) => ({
    label: element.path.slice(outline.file.length + 1),
    description: `lines ${element.startLine}-${element.endLine}`,
    detail: element.signature,
    element,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Scalpel: which element?',
    placeHolder: 'The cursor is inside several elements',
  });
  if (picked === undefined) throw new vscode.CancellationError();
  return picked.element;
}
