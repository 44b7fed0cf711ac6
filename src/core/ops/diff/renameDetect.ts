import { diffArrays } from 'diff';
import type { ElementKind, ElementNode, FileOutline } from '../../elements/element';
import type { LanguageSupport } from '../../language/languageSupport';
import { lastSegmentOf } from '../../elements/elementPath';
import { walkElements } from '../../elements/resolve';
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
  /** The whole-word code occurrences of the new name in the new text. */
  readonly news: readonly number[];
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
 * declaration's uses, or meet them), and whose old name no other declaration of the old text bears (but the other
 * accessor of a property). An overload set of TypeScript is one element (its signatures are `#n` of it), renamed
 * whole; the numbered same-named methods of Java and C# (`method[run]#2`) are none: the language's rename of one of
 * them leaves the others' declarations.
 */
export function renamesInFile(
  language: LanguageSupport,
  before: FileOutline,
  after: FileOutline,
): readonly RenameInFile[] {
  const found: RenameInFile[] = [];
  // A name two declarations of the old text bear: renaming its code occurrences would rename both, which a
  // workspace apply of RENAME_ELEMENT (the language's rename, one declaration) does not do.
  const declared = new Map<string, ElementNode[]>();
  for (const element of walkElements(before.elements))
    declared.set(element.name, [...(declared.get(element.name) ?? []), element]);
  const sharedName = (element: ElementNode): boolean =>
    (declared.get(element.name) ?? []).some((other) => other !== element && !accessorPair(element, other));
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
      if (old.name !== renamed.name && old.ordinal === undefined && renamed.ordinal === undefined && !sharedName(old)) {
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
  return {
    element: old,
    oldName: old.name,
    newName: renamed.name,
    renamedTo: renamed.path,
    places,
    news: codeOccurrences(afterText, renamed.name, afterScan),
  };
}

/**
 * What the other operations are to make when the renames of `renames` are applied together: the new text with the
 * renames taken back out. Two readings, tried in turn: every code occurrence of each new name back to its old one,
 * and only those on lines the commit left as the renames made them (a use the commit added keeps the new name: the
 * rename, whose places are in the old text, does not write it). The renames' old names are distinct, and so are their
 * new names, none of which is another's old name (renamesInFile and {@link renamesCombine}): taken back at once, the
 * occurrences of the new names cannot meet.
 */
export function withoutRenames(renames: readonly RenameInFile[], beforeText: string, afterText: string): string[] {
  const news = renames
    .flatMap((r) => r.news.map((start) => ({ start, end: start + r.newName.length, oldName: r.oldName })))
    .sort((a, b) => a.start - b.start);
  const renamedBack = (offsets: readonly { start: number; end: number; oldName: string }[]): string => {
    let text = '';
    let at = 0;
    for (const { start, end, oldName } of offsets) {
      text += afterText.slice(at, start) + oldName;
      at = end;
    }
    return text + afterText.slice(at);
  };
  const places = renames.flatMap((r) => r.places).sort((a, b) => a.start - b.start);
  const kept = keptLines(applyEdits(beforeText, places), afterText);
  const onKeptLines = news.filter(({ start }) => kept.some((r) => start >= r.start && start < r.end));
  const readings = [renamedBack(news)];
  if (onKeptLines.length !== news.length) readings.push(renamedBack(onKeptLines));
  return readings;
}

/**
 * Whether `rename` may join `renames` in one diff: its old name and its new name each another than theirs. (A new name
 * that is another's old name, `a → b` with `b → c` or a swap, is already no candidate: the new name had code
 * occurrences in the old text. The workspace apply resolves every RENAME_ELEMENT of a batch against the same old
 * text and refuses a new name declared beside the declaration, so no order of the two would apply there.)
 */
export function renamesCombine(renames: readonly RenameInFile[], rename: RenameInFile): boolean {
  return renames.every(
    (r) =>
      r.oldName !== rename.oldName &&
      r.newName !== rename.newName &&
      r.oldName !== rename.newName &&
      r.newName !== rename.oldName,
  );
}

/** A getter and a setter of one property: one name, which the language's rename changes in both. */
function accessorPair(a: ElementNode, b: ElementNode): boolean {
  const accessors = new Set<ElementKind>(['getter', 'setter']);
  if (!accessors.has(a.kind) || !accessors.has(b.kind) || a.kind === b.kind) return false;
  const parentOf = (e: ElementNode): string => e.path.slice(0, e.path.length - lastSegmentOf(e.path).length);
  return parentOf(a) === parentOf(b);
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
