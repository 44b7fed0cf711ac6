import { diffArrays } from 'diff';
import type { ElementKind, ElementNode, FileOutline } from '../../elements/element';
import type { LanguageSupport } from '../../language/languageSupport';
import { applyEdits } from '../apply/editBuffer';
import type { RenameElementOperation, RenameResolution } from '../operation';
import { splitLinesKeepingBreaks } from './textLines';

/**
 * The element diff's view of a rename (issue 27): a declaration of the old text whose name is gone from the new
 * text, with an element of the same kind standing in its place under a new name. Renaming every code occurrence of
 * the old name (whole-word identifiers outside strings and comments) is then one RENAME_ELEMENT, and the rest of the
 * diff is planned from the old text to the new text with the rename taken back out of it.
 *
 * The diff is of one file, so the rename's places here are this file's code occurrences of the old name, found by
 * name, not by a compiler. Applied in a workspace, RENAME_ELEMENT gets its places from the language's rename, which
 * also changes the uses in other files: what a commit that renamed across files did, file by file. A language whose
 * RENAME_ELEMENT a workspace apply cannot resolve yet (src/core/edit/renameResolver.ts) gets it refused there, saying
 * so; the diff's own check, with the places given, holds for every language.
 */

export interface RenameInFile {
  /** The declaration of the old text that is renamed. */
  readonly element: ElementNode;
  readonly oldName: string;
  readonly newName: string;
  /** Its path after the rename (the element standing in its place in the new text). */
  readonly renamedTo: string;
  /** The whole-word code occurrences of the old name in the old text. */
  readonly places: readonly { readonly start: number; readonly end: number; readonly newText: string }[];
  /**
   * What the other operations are to make: the new text with the rename taken back out. Two readings, tried in turn:
   * every code occurrence of the new name back to the old one, and only those on lines the commit left as the rename
   * made them (a use the commit added keeps the new name: the rename, whose places are in the old text, does not
   * write it).
   */
  readonly withoutRename: readonly string[];
}

const NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** Kinds whose name is a declared identifier: an import, a statement or a test's call is named otherwise. */
const DECLARATIONS: ReadonlySet<ElementKind> = new Set<ElementKind>([
  'class',
  'interface',
  'enum',
  'member',
  'type',
  'function',
  'method',
  'property',
  'getter',
  'setter',
  'namespace',
  'variable',
  'struct',
  'trait',
  'record',
]);

/**
 * The renames the diff may try, in the order of the old outline: each an element at the same position among the same
 * siblings as one of the new outline, of the same kind and another name, whose old name has no code occurrence left
 * in the new text and whose new name had none in the old text (else renaming by name would change another
 * declaration's uses, or meet them).
 */
export function renamesInFile(
  language: LanguageSupport,
  before: FileOutline,
  after: FileOutline,
): readonly RenameInFile[] {
  const found: RenameInFile[] = [];
  // Scanned only when some element changed its name.
  let scans: { before: Scan; after: Scan } | undefined;
  const visit = (olds: readonly ElementNode[], news: readonly ElementNode[]): void => {
    // Paired by position when the lists are as long; else only the elements that kept their names are looked into.
    const pairs: [ElementNode, ElementNode][] =
      olds.length === news.length
        ? olds.map((old, i) => [old, news[i] as ElementNode])
        : olds.flatMap((old): [ElementNode, ElementNode][] => {
            const same = news.find((n) => n.kind === old.kind && n.name === old.name && n.ordinal === old.ordinal);
            return same === undefined ? [] : [[old, same]];
          });
    for (const [old, renamed] of pairs) {
      if (old.kind !== renamed.kind) continue;
      if (old.name !== renamed.name && old.ordinal === undefined && renamed.ordinal === undefined) {
        scans ??= { before: language.scanCode(before.text), after: language.scanCode(after.text) };
        const rename = renameOf(old, renamed, before.text, after.text, scans.before, scans.after);
        if (rename !== undefined) found.push(rename);
      }
      visit(old.children, renamed.children);
    }
  };
  visit(before.elements, after.elements);
  return found;
}

/** RENAME_ELEMENT of the declaration, with its in-file places as the resolution the apply engine takes. */
export function renameOperation(
  file: string,
  before: string,
  rename: RenameInFile,
): { readonly operation: RenameElementOperation; readonly resolution: RenameResolution } {
  const operation: RenameElementOperation = {
    type: 'RENAME_ELEMENT',
    path: rename.element.path,
    newName: rename.newName,
  };
  const resolution: RenameResolution = {
    ok: true,
    places: {
      renamedTo: rename.renamedTo,
      files: [{ path: file, before, edits: rename.places }],
      untouched: [],
      // Said where the places are read: they are this file's, found by name.
      notes: ['the places are the whole-word code occurrences of the old name in this file (the element diff)'],
    },
  };
  return { operation, resolution };
}

interface Scan {
  readonly comments: readonly { readonly start: number; readonly end: number }[];
  readonly literals: readonly { readonly start: number; readonly end: number }[];
}

function renameOf(
  old: ElementNode,
  renamed: ElementNode,
  beforeText: string,
  afterText: string,
  beforeScan: Scan,
  afterScan: Scan,
): RenameInFile | undefined {
  if (!DECLARATIONS.has(old.kind) || !NAME.test(old.name) || !NAME.test(renamed.name)) return undefined;
  if (codeOccurrences(afterText, old.name, afterScan).length > 0) return undefined;
  if (codeOccurrences(beforeText, renamed.name, beforeScan).length > 0) return undefined;
  const olds = codeOccurrences(beforeText, old.name, beforeScan);
  if (olds.length === 0) return undefined;
  const places = olds.map((start) => ({ start, end: start + old.name.length, newText: renamed.name }));
  const news = codeOccurrences(afterText, renamed.name, afterScan);
  const renamedBack = (offsets: readonly number[]): string => {
    let text = '';
    let at = 0;
    for (const start of offsets) {
      text += afterText.slice(at, start) + old.name;
      at = start + renamed.name.length;
    }
    return text + afterText.slice(at);
  };
  const kept = keptLines(applyEdits(beforeText, places), afterText);
  const onKeptLines = news.filter((offset) => kept.some((r) => offset >= r.start && offset < r.end));
  const withoutRename = [renamedBack(news)];
  if (onKeptLines.length !== news.length) withoutRename.push(renamedBack(onKeptLines));
  return {
    element: old,
    oldName: old.name,
    newName: renamed.name,
    renamedTo: renamed.path,
    places,
    withoutRename,
  };
}

/** The stretches of `after` whose lines stand unchanged in `renamed` (a line diff). */
function keptLines(renamed: string, after: string): { start: number; end: number }[] {
  const kept: { start: number; end: number }[] = [];
  let at = 0;
  for (const part of diffArrays(splitLinesKeepingBreaks(renamed), splitLinesKeepingBreaks(after))) {
    if (part.removed) continue;
    const length = part.value.reduce((sum, line) => sum + line.length, 0);
    if (!part.added) kept.push({ start: at, end: at + length });
    at += length;
  }
  return kept;
}

/** Offsets of the whole-word occurrences of `name` in `text` outside its strings and comments. */
function codeOccurrences(text: string, name: string, scan: Scan): number[] {
  const escaped = name.replace(/\$/g, '\\$');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_$])${escaped}(?![\\p{L}\\p{N}_$])`, 'gu');
  const outside = [...scan.comments, ...scan.literals];
  const offsets: number[] = [];
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    if (!outside.some((r) => start >= r.start && start < r.end)) offsets.push(start);
  }
  return offsets;
}
