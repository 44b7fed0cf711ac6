import type { FileOutline } from '../elements/element';
import { filePartOf, formatSegment } from '../elements/elementPath';
import { resolveElementPath } from '../elements/resolve';
import { languageFor } from '../language/languages';
import type { SnapshotReader } from '../ops/apply';
import type { Operation } from '../ops/operation';

/**
 * What an operation is about, for the repair merge (issue 24): a later answer's operation replaces an earlier one of
 * the batch only when both have the same identity. Two imports of one file, or two elements created in one
 * container, are two operations; the same element replaced twice, or the same SEARCH patched twice, is one.
 *
 * - REPLACE_ELEMENT and DELETE_ELEMENT: the element (its canonical path in the snapshot): a later delete replaces an
 *   earlier replacement of the same element and the other way round.
 * - PATCH_ELEMENT: the element (or file) and its SEARCH texts.
 * - CREATE_ELEMENT: the container and the kind and name of every element the content declares there; content that
 *   does not parse or declares nothing with a name is its own identity (only the same content replaces it).
 * - ADD_IMPORT / REMOVE_IMPORT: the file and the declaration (module and bindings, spacing, quotes and the order of
 *   `{ }` names aside).
 * - CREATE_FILE / REPLACE_FILE: the file.
 * - RENAME_ELEMENT: the element and the new name: a rename to another name is another operation (and fails beside
 *   the first, as two renames of one declaration).
 */
export type OperationIdentity = string;

/** Identities of operations against one snapshot; outlines and editors are read once per file. */
export function identityReader(snapshot: SnapshotReader): (operation: Operation) => OperationIdentity {
  const outlines = new Map<string, FileOutline | undefined>();
  const outlineOf = (file: string): FileOutline | undefined => {
    if (!outlines.has(file)) outlines.set(file, readOutline(snapshot, file));
    return outlines.get(file);
  };
  return (operation) => identityOf(operation, snapshot, outlineOf);
}

function identityOf(
  operation: Operation,
  snapshot: SnapshotReader,
  outlineOf: (file: string) => FileOutline | undefined,
): OperationIdentity {
  const path = operation.path.replace(/^file:/i, '').trim();
  switch (operation.type) {
    case 'REPLACE_ELEMENT':
    case 'DELETE_ELEMENT':
      return `element ${canonicalPath(path, outlineOf)}`;
    case 'PATCH_ELEMENT':
      return `patch ${canonicalPath(path, outlineOf)} ${JSON.stringify(operation.patches.map((p) => p.search.trim()))}`;
    case 'CREATE_ELEMENT':
      return `create ${canonicalPath(path, outlineOf)} ${createdNames(operation.content, path, snapshot, outlineOf) ?? JSON.stringify(squeeze(operation.content))}`;
    case 'ADD_IMPORT':
    case 'REMOVE_IMPORT':
      return `${operation.type === 'ADD_IMPORT' ? 'import+' : 'import-'} ${canonicalPath(path, outlineOf)} ${importKey(operation.content)}`;
    case 'CREATE_FILE':
    case 'REPLACE_FILE':
      return `file ${filePartOf(path) ?? path}`;
    case 'RENAME_ELEMENT':
      return `rename ${canonicalPath(path, outlineOf)} ${operation.newName}`;
  }
}

function readOutline(snapshot: SnapshotReader, file: string): FileOutline | undefined {
  const text = snapshot.read(file);
  const language = languageFor(file);
  if (text === undefined || language === undefined) return undefined;
  try {
    return language.outline(file, text);
  } catch {
    // A language whose parser is not loaded yet: the path as written is the identity.
    return undefined;
  }
}

/** The element's canonical path when it resolves in the snapshot (kind synonyms, a left-out container), else as written. */
function canonicalPath(path: string, outlineOf: (file: string) => FileOutline | undefined): string {
  const file = filePartOf(path);
  if (file === undefined) return path;
  if (file === path) return file;
  const outline = outlineOf(file);
  if (outline === undefined) return path;
  const resolved = resolveElementPath(outline, path);
  return resolved.ok ? (resolved.overload?.path ?? resolved.path) : path;
}

/** `method[h],property[k]`: what the content declares in its container, or undefined when that cannot be told. */
function createdNames(
  content: string,
  path: string,
  snapshot: SnapshotReader,
  outlineOf: (file: string) => FileOutline | undefined,
): string | undefined {
  const file = filePartOf(path);
  if (file === undefined) return undefined;
  const language = languageFor(file);
  const text = snapshot.read(file) ?? '';
  if (language === undefined) return undefined;
  try {
    const editor = language.editor(file, text);
    let flavor;
    if (file === path) flavor = 'file' as const;
    else {
      const outline = outlineOf(file);
      const resolved = outline === undefined ? undefined : resolveElementPath(outline, path);
      if (resolved === undefined || !resolved.ok) return undefined;
      const lookup = editor.containerOf(resolved.element);
      if (!lookup.ok) return undefined;
      flavor = lookup.container.flavor;
    }
    const shape = editor.shapeOf(content.replace(/\r\n?/g, '\n'), flavor);
    const named = shape.elements.filter((e) => e.kind !== 'import' && e.name !== '');
    if (shape.syntaxErrors.length > 0 || named.length === 0) return undefined;
    return named.map((e) => formatSegment(e.kind, e.name)).join(',');
  } catch {
    return undefined;
  }
}

/** Runs of whitespace as one space, ends trimmed. */
function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** An import declaration written either way reads the same: spacing, quotes, the final `;` and `{ }` order aside. */
function importKey(content: string): string {
  return JSON.stringify(
    squeeze(content)
      .replace(/;+$/, '')
      .replace(/'/g, '"')
      .replace(/\{([^{}]*)\}/g, (_, names: string) => {
        const sorted = names
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '')
          .sort();
        return `{ ${sorted.join(', ')} }`;
      }),
  );
}
