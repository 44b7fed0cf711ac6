import * as vscode from 'vscode';
import type { FileOutline } from '../../core/elements/element';
import type { ApplyResult, FileChange } from '../../core/ops/apply/types';
import type { Operation } from '../../core/ops/operation';
import type { ScalpelEngine } from '../engineLoader';
import type { ChatFocus } from './chatFocus';
import { LineIndex } from './textPositions';

/**
 * The elements a verified batch changes, each with where it is now (the files are unchanged until the user
 * accepts), so the chat can link them.
 */

export interface ChangedElement {
  /** `Replaced`, `Added to`, ... */
  readonly verb: string;
  /** The element path (or file) the link shows. */
  readonly label: string;
  /** The file it is in. */
  readonly file: string;
  /** Elements created by the operation, relative to `label`. */
  readonly created?: readonly string[];
  /** Where it is in the unchanged file; undefined for a file that does not exist yet. */
  readonly target?: vscode.Location | vscode.Uri;
  /** The element's path after the change, when the operation renamed it. */
  readonly renamedTo?: string;
}

const VERBS: Readonly<Record<Operation['type'], string>> = {
  REPLACE_ELEMENT: 'Replaced',
  PATCH_ELEMENT: 'Edited',
  DELETE_ELEMENT: 'Deleted',
  CREATE_ELEMENT: 'Added to',
  ADD_IMPORT: 'Import added to',
  REMOVE_IMPORT: 'Import removed from',
  CREATE_FILE: 'New file',
  REPLACE_FILE: 'Rewrote',
  RENAME_ELEMENT: 'Renamed',
};

interface FileView {
  readonly change: FileChange;
  readonly uri: vscode.Uri;
  readonly before: FileOutline | undefined;
  readonly lines: LineIndex | undefined;
  after?: FileOutline | undefined;
}

export function changedElements(engine: ScalpelEngine, apply: ApplyResult, focus: ChatFocus): ChangedElement[] {
  const views = new Map<string, FileView>();
  const viewOf = (path: string): FileView | undefined => {
    const change = apply.changes.find((c) => path === c.path || path.startsWith(`${c.path}/`));
    if (change === undefined) return undefined;
    let view = views.get(change.path);
    if (view === undefined) {
      const known = focus.files.find((f) => f.path === change.path);
      const outlinable = engine.isOutlinable(change.path);
      view = {
        change,
        uri: focus.snapshot.uriOf(change.path),
        before:
          known?.outline ??
          (change.before !== undefined && outlinable ? engine.outlineSource(change.path, change.before) : undefined),
        lines: known?.lines ?? (change.before === undefined ? undefined : new LineIndex(change.before)),
      };
      views.set(change.path, view);
    }
    return view;
  };

  const items: ChangedElement[] = [];
  for (const result of apply.results) {
    if (result.status !== 'ok') continue;
    const { operation } = result;
    const path = operation.path.replace(/^file:/i, '');
    const view = viewOf(path);
    const verb = VERBS[operation.type];
    if (view === undefined || view.change.created) {
      items.push({ verb, label: view?.change.path ?? path, file: view?.change.path ?? path });
      continue;
    }
    const isFile = path === view.change.path;
    const element = isFile || view.before === undefined ? undefined : engine.resolveElementPath(view.before, path);
    const target =
      element?.ok === true && view.lines !== undefined
        ? new vscode.Location(view.uri, view.lines.rangeOf(element.element.range.start, element.element.range.end))
        : view.uri;
    const label = element?.ok === true ? element.path : isFile ? view.change.path : path;
    if (operation.type === 'CREATE_ELEMENT') {
      const created = createdUnder(engine, view, label);
      items.push({ verb, label, file: view.change.path, target, ...(created.length === 0 ? {} : { created }) });
    } else {
      const renamed = result.renamedTo === undefined ? {} : { renamedTo: result.renamedTo };
      items.push({ verb, label, file: view.change.path, target, ...renamed });
    }
  }
  return items;
}

/** The paths, relative to the container, of elements the batch adds directly inside it. */
function createdUnder(engine: ScalpelEngine, view: FileView, container: string): string[] {
  if (!engine.isOutlinable(view.change.path)) return [];
  view.after ??= engine.outlineSource(view.change.path, view.change.after);
  const existing = new Set(
    view.before === undefined ? [] : [...engine.walkElements(view.before.elements)].map((e) => e.path),
  );
  const added = [...engine.walkElements(view.after.elements)]
    .map((e) => e.path)
    .filter((p) => !existing.has(p) && p.startsWith(`${container}/`));
  return added
    .filter((p) => !added.some((other) => other !== p && p.startsWith(`${other}/`)))
    .map((p) => p.slice(container.length + 1));
}
