import * as vscode from 'vscode';
import { supportedVscodeLanguageIds } from '../core/language/languageCatalog';
import { ContextDocumentProvider, CONTEXT_SCHEME } from './contextDocuments';
import type { Ctx } from './ctx';
import { EditCodeLensProvider } from './edit/editCodeLens';
import { EditService } from './edit/editService';
import { AppliedTypeErrors } from './preview/appliedTypeErrors';
import { EditSessions } from './preview/editSessions';
import { PreviewEditors } from './preview/previewEditors';
import { PreviewTypeErrorMarks } from './preview/typeErrorMarks';
import { ReviewView } from './preview/reviewView';
import { ScalpelStatusBar } from './statusBar';

/**
 * The services every surface shares, built once at activation and handed to the commands and the chat. Building
 * them loads nothing heavy: the core edit service is created on the first request.
 */
export interface ScalpelServices {
  readonly contextDocuments: ContextDocumentProvider;
  readonly statusBar: ScalpelStatusBar;
  readonly sessions: EditSessions;
  readonly preview: PreviewEditors;
  readonly review: ReviewView;
  readonly edits: EditService;
}

export function createServices(ctx: Ctx): ScalpelServices {
  const contextDocuments = new ContextDocumentProvider();
  const statusBar = new ScalpelStatusBar(ctx);
  const sessions = new EditSessions(ctx);
  const review = new ReviewView(ctx, sessions);
  const preview = new PreviewEditors(ctx, sessions, review);
  const applied = new AppliedTypeErrors();
  const edits = new EditService(ctx, sessions, preview, statusBar, contextDocuments, applied);
  const editLenses = new EditCodeLensProvider();
  ctx.subscriptions.push(
    contextDocuments,
    vscode.workspace.registerTextDocumentContentProvider(CONTEXT_SCHEME, contextDocuments),
    statusBar,
    sessions,
    review,
    preview,
    new PreviewTypeErrorMarks(ctx, sessions),
    applied,
    editLenses,
    vscode.languages.registerCodeLensProvider(
      supportedVscodeLanguageIds().map((language) => ({
        language,
        scheme: 'file',
      })),
      editLenses,
    ),
  );
  return { contextDocuments, statusBar, sessions, preview, review, edits };
}
