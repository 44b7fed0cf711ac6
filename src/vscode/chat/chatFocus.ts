import * as vscode from 'vscode';
import type { ElementNode, FileOutline } from '../../core/elements/element';
import { supportedLanguageNamesText } from '../../core/language/languageCatalog';
import type { Ctx } from '../ctx';
import { exclusionCheckOf } from '../exclusions';
import { UserFacingError } from '../userError';
import { LineIndex } from './textPositions';
import { WorkspaceSnapshot } from '../edit/workspaceSnapshot';

/**
 * What a chat request is about: the files and elements the user referenced with `#`, or else the element at the
 * cursor (or the elements the selection touches) in the active editor. A file referenced whole has all its
 * top-level elements in focus; a range, the elements it touches.
 */

export interface FocusFile {
  /** Workspace-relative, forward slashes. */
  readonly path: string;
  readonly uri: vscode.Uri;
  readonly text: string;
  /** Undefined for files the element model does not read (they go to the model whole). */
  readonly outline: FileOutline | undefined;
  readonly lines: LineIndex;
  readonly lineCount: number;
  /** Element paths to show in full; empty when the element is not known (the model plans, or the file is small). */
  readonly focus: string[];
  /** The user referenced the whole file (`#file:`): it goes to the model whole. */
  whole: boolean;
}

export interface ChatFocus {
  readonly root: vscode.Uri;
  readonly snapshot: WorkspaceSnapshot;
  readonly files: readonly FocusFile[];
  /** Where the focus came from, in words: "the element at the cursor", "your references". */
  readonly origin: string;
  /** References left out, and why. */
  readonly notes: readonly string[];
  /**
   * The files the user named for this request: attached with `#` (a file or a symbol in it), or the active editor's.
   * A protected file among them is written on Apply without asking, as the CLI writes the files on its command line.
   */
  readonly userNamed: readonly string[];
}

/** A focus chosen earlier (the elements a /plan answer named), by workspace path and element paths. */
export interface KnownFocus {
  readonly root: string;
  readonly files: readonly { readonly path: string; readonly focus: readonly string[]; readonly whole?: boolean }[];
  readonly origin: string;
}

export function knownFocusOf(focus: ChatFocus): KnownFocus {
  return {
    root: focus.root.toString(),
    origin: focus.origin,
    files: focus.files.map((f) => ({ path: f.path, focus: [...f.focus] })),
  };
}

/** The focus of a chat request; refuses files that `scalpel.exclude`, `files.exclude` or a .gitignore keep out. */
export async function focusOfRequestOrThrow(
  ctx: Ctx,
  request: vscode.ChatRequest,
  known?: KnownFocus,
): Promise<ChatFocus> {
  // The chat attaches the active editor on its own (ids `vscode.implicit.*`); the cursor rules read it better.
  const references = request.references.filter(
    (r) => !r.id.startsWith('vscode.implicit') && (r.value instanceof vscode.Uri || r.value instanceof vscode.Location),
  );
  ctx.log.debug(
    `chat references: ${request.references.map((r) => `${r.id}${r.range === undefined ? '' : ` [${r.range.join('-')}]`}`).join(', ') || 'none'}`,
  );
  const focus =
    references.length > 0
      ? focusOfReferencesOrThrow(ctx, references)
      : known !== undefined
        ? focusOfKnown(ctx, known)
        : focusOfActiveEditorOrThrow(ctx);
  // `scalpel.exclude` may differ per folder: read for the files in focus, as the palette reads it.
  const exclusion = await exclusionCheckOf(focus.root, ctx.config(settingsScopeOf(focus)).exclude).firstExclusion(
    focus.files.map((f) => f.path),
  );
  if (exclusion !== undefined) throw new UserFacingError(ctx.engine().exclusionMessage(exclusion, 'send'));
  return focus;
}

/** Where the settings of a chat request are read: the first file in focus (per-folder settings apply to it). */
export function settingsScopeOf(focus: ChatFocus): vscode.Uri {
  return focus.files[0]?.uri ?? focus.root;
}

/** The workspace folder a file belongs to and its path there; throws for files outside the workspace. */
export function workspacePathOrThrow(uri: vscode.Uri): { readonly root: vscode.Uri; readonly path: string } {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (folder === undefined || uri.scheme !== 'file') {
    throw new UserFacingError(
      `${uri.scheme === 'file' ? uri.fsPath : uri.toString()} is not a file of the open workspace; Scalpel edits workspace files only.`,
    );
  }
  return { root: folder.uri, path: vscode.workspace.asRelativePath(uri, false).replace(/\\/g, '/') };
}

class FocusBuilder {
  readonly files: FocusFile[] = [];
  readonly notes: string[] = [];
  root: vscode.Uri | undefined;
  snapshot: WorkspaceSnapshot | undefined;

  constructor(private readonly ctx: Ctx) {}

  /** The file at `uri`, read once; undefined (with a note) when it cannot be used. */
  file(uri: vscode.Uri): FocusFile | undefined {
    const { root, path } = workspacePathOrThrow(uri);
    if (this.root === undefined) {
      this.root = root;
      this.snapshot = new WorkspaceSnapshot(root);
    } else if (this.root.toString() !== root.toString()) {
      this.notes.push(
        `${path} is in another workspace folder than ${this.files[0]?.path ?? 'the first file'}; one request edits one folder`,
      );
      return undefined;
    }
    const existing = this.files.find((f) => f.path === path);
    if (existing !== undefined) return existing;
    const text = this.snapshot?.read(path);
    if (text === undefined) {
      this.notes.push(`${path} could not be read (a folder, or not a file on disk)`);
      return undefined;
    }
    const engine = this.ctx.engine();
    const file: FocusFile = {
      path,
      uri,
      text,
      outline: engine.isOutlinable(path) ? engine.outlineSource(path, text) : undefined,
      lines: new LineIndex(text),
      lineCount: countLines(text),
      focus: [],
      whole: false,
    };
    this.files.push(file);
    return file;
  }

  /** `named`: whether the user named these files themselves (a reference, the active editor), not an earlier plan. */
  build(origin: string, named: boolean): ChatFocus {
    if (this.root === undefined || this.snapshot === undefined || this.files.length === 0) {
      throw new UserFacingError(
        `None of the references can be edited: ${this.notes.join('; ')}. Reference a ${supportedLanguageNamesText()} file of the workspace with #.`,
      );
    }
    return {
      root: this.root,
      snapshot: this.snapshot,
      files: this.files,
      origin,
      notes: this.notes,
      userNamed: named ? this.files.map((f) => f.path) : [],
    };
  }
}

function addFocus(file: FocusFile, elements: readonly ElementNode[]): void {
  for (const element of elements) if (!file.focus.includes(element.path)) file.focus.push(element.path);
}

function focusOfReferencesOrThrow(ctx: Ctx, references: readonly vscode.ChatPromptReference[]): ChatFocus {
  const builder = new FocusBuilder(ctx);
  const engine = ctx.engine();
  // References arrive last-in-prompt first; the user's order reads better.
  for (const reference of [...references].reverse()) {
    const value = reference.value;
    if (value instanceof vscode.Uri) {
      const file = builder.file(value);
      if (file !== undefined) file.whole = true;
    } else if (value instanceof vscode.Location) {
      const file = builder.file(value.uri);
      if (file?.outline === undefined) continue;
      const start = file.lines.offsetAt(value.range.start);
      const end = file.lines.offsetAt(value.range.end);
      const touched = engine.elementsInRange(file.outline, start, end).filter((e) => e.kind !== 'import');
      // A range between elements (blank lines, a comment) names no element: the file's outline decides.
      addFocus(file, touched);
    }
  }
  return builder.build('your references', true);
}

function focusOfKnown(ctx: Ctx, known: KnownFocus): ChatFocus {
  const builder = new FocusBuilder(ctx);
  const root = vscode.Uri.parse(known.root);
  for (const entry of known.files) {
    const file = builder.file(vscode.Uri.joinPath(root, ...entry.path.split('/')));
    if (file === undefined) continue;
    for (const path of entry.focus) if (!file.focus.includes(path)) file.focus.push(path);
    if (entry.whole === true) file.whole = true;
  }
  return builder.build(known.origin, false);
}

function focusOfActiveEditorOrThrow(ctx: Ctx): ChatFocus {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    throw new UserFacingError(
      `Open a ${supportedLanguageNamesText()} file and place the cursor in the element to change, or reference files and symbols with # (e.g. #file:user.ts).`,
    );
  }
  const builder = new FocusBuilder(ctx);
  const file = builder.file(editor.document.uri);
  if (file === undefined)
    throw new UserFacingError(`Scalpel cannot read ${editor.document.uri.fsPath}: ${builder.notes.join('; ')}.`);
  if (file.outline === undefined) return builder.build(`the file ${file.path}`, true);
  const engine = ctx.engine();
  const selection = editor.selection;
  const start = file.lines.offsetAt(selection.start);
  const end = file.lines.offsetAt(selection.end);
  const touched = engine.elementsInRange(file.outline, start, end).filter((e) => e.kind !== 'import');
  addFocus(file, touched);
  if (touched.length === 0) return builder.build(`the file ${file.path} (the cursor is outside any element)`, true);
  return builder.build(selection.isEmpty ? 'the element at the cursor' : 'the elements the selection touches', true);
}

/** Lines as the core counts them: a final line break does not start another line. */
function countLines(text: string): number {
  if (text.length === 0) return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

export interface FocusedRequest {
  readonly files: readonly { readonly path: string; readonly focus: readonly string[] }[];
  /** Every file goes whole. */
  readonly full: boolean;
}

/**
 * How the focus reaches the pipeline. Files referenced whole are sent whole when all are; mixed with ranges, a whole
 * file has all its top-level elements in focus (the pipeline takes one `full` for all files).
 */
export function focusedRequestOf(focus: ChatFocus): FocusedRequest {
  const full = focus.files.length > 0 && focus.files.every((f) => f.whole);
  return {
    full,
    files: focus.files.map((f) => ({
      path: f.path,
      focus: full
        ? []
        : f.whole && f.outline !== undefined
          ? f.outline.elements.filter((e) => e.kind !== 'import').map((e) => e.path)
          : f.focus,
    })),
  };
}
