import * as vscode from 'vscode';
import type { ElementNode } from '../../core/elements/element';
import { activeEditorOrThrow, elementAtCursorOrThrow, outlineDocumentOrThrow } from '../activeElement';
import type { Ctx } from '../ctx';
import { UserFacingError } from '../userError';
import type { EditCommandResult, EditService } from './editService';
import { locate } from './workspaceSnapshot';

/**
 * The edit commands of the palette, the context menu and the keybindings. Each takes its input as arguments when
 * given (tests, other surfaces, CodeLenses) and asks the user otherwise.
 */

/** Where a CodeLens asks for an edit: the element at this position of this document. */
export interface EditTarget {
  readonly uri: vscode.Uri;
  readonly position: vscode.Position;
}

function isEditTarget(value: unknown): value is EditTarget {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as EditTarget).uri instanceof vscode.Uri &&
    (value as EditTarget).position instanceof vscode.Position
  );
}

async function instructionOrAsk(given: unknown, what: string): Promise<string> {
  if (typeof given === 'string' && given.trim() !== '') return given.trim();
  const typed = await vscode.window.showInputBox({
    title: `Scalpel: edit ${what}`,
    prompt: 'What should change?',
    placeHolder: 'e.g. also reject e-mail addresses without a dot in the domain',
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? 'Describe the change you want' : undefined),
  });
  if (typed === undefined) throw new vscode.CancellationError();
  return typed.trim();
}

function relativeName(element: ElementNode, file: string): string {
  return element.path.startsWith(`${file}/`) ? element.path.slice(file.length + 1) : element.path;
}

export async function editElementAtCursor(
  ctx: Ctx,
  edits: EditService,
  instruction: unknown,
  at: unknown,
): Promise<EditCommandResult> {
  let editor = activeEditorOrThrow();
  if (isEditTarget(at)) {
    editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(at.uri));
    editor.selection = new vscode.Selection(at.position, at.position);
  }
  const { root, path } = locate(editor.document);
  await edits.refuseExcluded(root, [path], 'send');
  const outline = outlineDocumentOrThrow(ctx, editor.document);
  // Asked for programmatically or from a CodeLens, the innermost element is meant; from the palette or a key, the
  // user gets to pick among its containers.
  const element = await elementAtCursorOrThrow(
    ctx,
    editor,
    outline,
    typeof instruction !== 'string' && !isEditTarget(at),
  );
  const text = await instructionOrAsk(instruction, relativeName(element, outline.file));
  return edits.requestEdit({
    document: editor.document,
    instruction: text,
    focus: [element.path],
    command: 'vscode.editElement',
  });
}

export async function editSelection(ctx: Ctx, edits: EditService, instruction: unknown): Promise<EditCommandResult> {
  const editor = activeEditorOrThrow();
  const { root, path } = locate(editor.document);
  await edits.refuseExcluded(root, [path], 'send');
  const outline = outlineDocumentOrThrow(ctx, editor.document);
  const document = editor.document;
  const ranges = editor.selections.map((s) => [document.offsetAt(s.start), document.offsetAt(s.end)] as const);
  const focus: string[] = [];
  for (const [start, end] of ranges) {
    for (const element of ctx.engine().elementsInRange(outline, start, end)) {
      if (!focus.includes(element.path)) focus.push(element.path);
    }
  }
  if (focus.length === 0) {
    throw new UserFacingError(
      `The selection touches no element of ${outline.file}. Select code inside a declaration, or use "Scalpel: Edit File".`,
    );
  }
  const names = focus.map((p) => (p.startsWith(`${outline.file}/`) ? p.slice(outline.file.length + 1) : p));
  const text = await instructionOrAsk(
    instruction,
    names.length === 1 ? (names[0] ?? 'the selection') : `${names.length} elements`,
  );
  return edits.requestEdit({ document, instruction: text, focus, command: 'vscode.editSelection' });
}

export async function editFile(ctx: Ctx, edits: EditService, instruction: unknown): Promise<EditCommandResult> {
  const editor = activeEditorOrThrow();
  const { root, path } = locate(editor.document);
  await edits.refuseExcluded(root, [path], 'send');
  // Only to say early that the file is not one Scalpel reads; the pipeline outlines it again from the snapshot.
  outlineDocumentOrThrow(ctx, editor.document);
  const text = await instructionOrAsk(instruction, path);
  return edits.requestEdit({ document: editor.document, instruction: text, focus: [], command: 'vscode.editFile' });
}

export interface CopiedContext {
  readonly focus: readonly string[];
  readonly tokens: number;
  readonly wholeFileTokens: number;
  readonly text: string;
}

/**
 * The focused context with the operation format (the pipeline's own system prompt) on the clipboard, for any chat
 * UI; the answer comes back through "Apply Operations from Clipboard or Selection".
 */
export async function copyContext(ctx: Ctx, edits: EditService, instruction: unknown): Promise<CopiedContext> {
  const editor = activeEditorOrThrow();
  const { root, path } = locate(editor.document);
  await edits.refuseExcluded(root, [path], 'copy');
  const outline = outlineDocumentOrThrow(ctx, editor.document);
  const engine = ctx.engine();
  const document = editor.document;
  const selection = editor.selection;
  const elements = selection.isEmpty
    ? engine
        .elementsAtOffset(outline, document.offsetAt(selection.active))
        .filter((e) => e.kind !== 'import')
        .slice(-1)
    : engine.elementsInRange(outline, document.offsetAt(selection.start), document.offsetAt(selection.end));
  const focus = elements.map((e) => e.path);
  let task: string;
  if (typeof instruction === 'string') {
    task = instruction.trim();
  } else {
    const typed = await vscode.window.showInputBox({
      title: 'Scalpel: copy context',
      prompt: 'The change to ask for (optional: you can also write it in the chat)',
      ignoreFocusOut: true,
    });
    if (typed === undefined) throw new vscode.CancellationError();
    task = typed.trim();
  }
  const { context, counter } = edits.contextOrThrow(document.uri, {
    requests: [{ outline, focus, ...(focus.length === 0 ? { whole: true } : {}) }],
  });
  const text = `${engine.CODING_SYSTEM_PROMPT}\n\n---\n\n${engine.codingUserMessage(`${context.text}${engine.focusNote([{ outline, focus }])}`, task === '' ? '<describe the change here>' : task)}`;
  await vscode.env.clipboard.writeText(text);
  const tokens = counter.count(text);
  const subject =
    focus.length === 0 ? outline.file : focus.length === 1 ? (focus[0] ?? outline.file) : `${focus.length} elements`;
  ctx.log.info(
    `copied the context of ${subject}: ${tokens} tokens with the instructions, whole file ${context.wholeFileTokens}`,
  );
  void vscode.window
    .showInformationMessage(
      `Scalpel copied the context of ${subject} (${tokens} tokens with the instructions). Paste it into any chat; copy the model's answer and run "Scalpel: Apply Operations from Clipboard or Selection".`,
      'Apply from Clipboard',
    )
    .then((action) => {
      if (action !== undefined) void vscode.commands.executeCommand('scalpel.applyOperationsFromClipboard');
    });
  return { focus, tokens, wholeFileTokens: context.wholeFileTokens, text };
}

/**
 * A model's answer pasted back from any chat: the same parse, verification and preview as the pipeline's, without a
 * model (so it works with none configured).
 */
export async function applyOperationsFromText(
  ctx: Ctx,
  edits: EditService,
  given: unknown,
): Promise<EditCommandResult> {
  const editor = vscode.window.activeTextEditor;
  let source: string;
  let text: string;
  if (typeof given === 'string') {
    source = 'the text given';
    text = given;
  } else if (editor !== undefined && !editor.selection.isEmpty) {
    source = 'the selection';
    text = editor.document.getText(editor.selection);
  } else {
    source = 'the clipboard';
    text = await vscode.env.clipboard.readText();
  }
  const folder =
    (editor === undefined ? undefined : vscode.workspace.getWorkspaceFolder(editor.document.uri)) ??
    vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined)
    throw new UserFacingError('Open a folder first: operations name files relative to the workspace folder.');
  const root = folder.uri;
  const engine = ctx.engine();
  const parsed = engine.parseOperations(text);
  const declined = parsed.operations.length === 0 ? engine.answerDecline(text) : undefined;
  if (declined !== undefined) {
    const message = `The answer in ${source} declines the task: ${declined} Nothing was applied.`;
    void vscode.window.showInformationMessage(`Scalpel: ${message}`);
    return { status: 'failed', message, declined };
  }
  if (parsed.operations.length === 0 && parsed.errors.length === 0) {
    throw new UserFacingError(
      `No Scalpel operations found in ${source}. Copy the model's whole answer (the lines starting with REPLACE_ELEMENT, PATCH_ELEMENT, ...) and run the command again.`,
    );
  }
  if (parsed.errors.length > 0) {
    const first = parsed.errors[0];
    edits.setReport(
      'operations-report.md',
      [
        '# Scalpel: unreadable operations',
        '',
        ...parsed.errors.map(
          (e) => `- line ${e.line}: ${e.message}${e.expected === undefined ? '' : ` (expected ${e.expected})`}`,
        ),
        '',
        '## Text',
        '',
        text,
      ].join('\n'),
    );
    throw new UserFacingError(
      `${parsed.errors.length} part${parsed.errors.length === 1 ? '' : 's'} of ${source} could not be read (line ${first?.line}: ${first?.message}). Nothing was applied.`,
      ['Show Answer'],
    );
  }
  const verification = await edits.verify(root, parsed.operations);
  const result = verification.apply;
  if (!verification.ok) {
    const failed = result.results.filter((r) => r.status === 'failed');
    edits.setReport(
      'operations-report.md',
      [
        '# Scalpel: operations that did not verify',
        '',
        ...result.results.map(
          (r) =>
            `- ${r.status.toUpperCase()} ${r.operation.type} ${r.operation.path}${r.message === undefined ? '' : `: ${r.message}`}${r.hint === undefined ? '' : ` (${r.hint})`}${r.suggestions === undefined || r.suggestions.length === 0 ? '' : `; nearest: ${r.suggestions.join(', ')}`}`,
        ),
        ...verification.problems.map((p) => `- FAILED check in ${p.path}: ${p.message}`),
        '',
        '## Text',
        '',
        text,
      ].join('\n'),
    );
    const first = failed[0];
    const problem = verification.problems[0];
    throw new UserFacingError(
      `${failed.length === 0 ? 'The' : `${failed.length} of ${parsed.operations.length}`} operations from ${source} did not verify` +
        (first !== undefined
          ? ` (${first.operation.type} ${first.operation.path}: ${first.message ?? 'failed'})`
          : problem !== undefined
            ? ` (${problem.path}: ${problem.message})`
            : '') +
        '. Nothing was applied.',
      ['Show Answer'],
    );
  }
  const title = `operations from ${source}`;
  // Nothing goes to a model here: the user pasted these operations and sees them in the preview.
  return edits.deliver({
    root,
    title,
    undoLabel: engine.undoLabelOf(title),
    operations: parsed.operations,
    results: result.results,
    changes: result.changes,
    ...edits.typeErrorsOf(verification.steps),
  });
}
