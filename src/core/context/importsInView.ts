import type { ElementNode, FileOutline } from '../elements/element';
import type { ImportShape } from '../language/importModel';
import type { CodeSyntax, ImportEditing } from '../language/languageSupport';
import { languageFor } from '../language/languages';
import { fixed, type Piece } from './viewPieces';
import type { TokenCounter } from './tokens';

/**
 * Imports at their use (issue 28): a focused view shows the import declarations the shown code uses, and one line for
 * the rest (`// 27 more imports: react, ./types, … (lines 1-512)`), so an 8-line member of a file with a 500-line
 * import block costs about its own size. A declaration is used when a name it binds appears in the shown code (a
 * lexical match: a name in a comment or string counts too, which shows an import too many, never one too few). A
 * long declaration of which only some names are used shows its first and last lines and the lines naming a used
 * binding. Declarations left out are recorded at level `stub` and a shortened one at `signature`, so the seen-code rule
 * refuses a REPLACE of either and shows it; ADD_IMPORT and REMOVE_IMPORT need no sight of the block and stay valid.
 */

/** Identifier-like words: what a binding name is matched against. */
const WORD = /[A-Za-z_$][\w$]*/g;

export function wordsOf(text: string): Set<string> {
  return new Set(text.match(WORD) ?? []);
}

/** A declaration of more lines than this may be shortened to the lines naming what is used. */
const SHORTEN_MIN_LINES = 5;
/** The summary line's list of modules stops after about this many characters. */
const SUMMARY_WIDTH = 120;

/**
 * The names an import declaration brings into scope, or undefined when they cannot be known from its text (a Java
 * wildcard, a C# namespace `using`, a side-effect import): such a declaration is never shown as used.
 */
export function boundNames(shapes: readonly ImportShape[], languageId: string): string[] | undefined {
  const names: string[] = [];
  for (const shape of shapes) {
    for (const name of [shape.defaultName, shape.namespaceName, shape.equalsName])
      if (name !== undefined) names.push(name);
    for (const binding of shape.named) names.push(binding.name);
    if (names.length > 0 || languageId === 'typescript') continue;
    // A module imported whole binds a name taken from its path: Python `import os.path` binds `os`, Go `"net/http"`
    // binds `http`, Java `java.util.List` binds `List`. Both ends are taken; a wildcard binds nothing known.
    const segments = shape.module
      .replace(/^static\s+/, '')
      .split(/[/.:]+/)
      .filter((s) => /^[A-Za-z_$][\w$]*$/.test(s));
    const first = segments[0];
    const last = segments[segments.length - 1];
    if (/[*]\s*$/.test(shape.module) || first === undefined || last === undefined) continue;
    names.push(first, last);
  }
  return names.length === 0 ? undefined : [...new Set(names)];
}

interface ImportUse {
  readonly element: ElementNode;
  readonly text: string;
  /** Names it binds that the shown code uses; empty when unused, undefined when its names are unknown. */
  readonly used: readonly string[];
  readonly names: readonly string[] | undefined;
}

export interface ImportsView {
  readonly pieces: Piece[];
  /** Declarations shown as written. */
  readonly shown: readonly ElementNode[];
  /** Declarations shortened to the lines naming what is used. */
  readonly shortened: readonly ElementNode[];
  /** Declarations left out (named in the summary line). */
  readonly omitted: readonly ElementNode[];
}

export interface ImportsViewInput {
  readonly outline: FileOutline;
  readonly imports: readonly ElementNode[];
  /** Words of the code the view shows besides the imports. */
  readonly used: ReadonlySet<string>;
  readonly syntax: CodeSyntax;
  readonly counter: TokenCounter;
  /** The import element's text as the view writes it (indentation and trailing comma as in the file). */
  readonly verbatim: (element: ElementNode) => string;
  /** The blank line the file has before an import, given the one shown before it. */
  readonly blankBefore: (element: ElementNode, previous: ElementNode | undefined) => string;
}

export function importsView(input: ImportsViewInput): ImportsView {
  const { outline, imports, used, syntax, counter } = input;
  const all = (): ImportsView => {
    const pieces: Piece[] = [];
    let previous: ElementNode | undefined;
    for (const element of imports) {
      pieces.push(fixed(`${input.blankBefore(element, previous)}${input.verbatim(element)}\n`, element));
      previous = element;
    }
    return { pieces, shown: imports, shortened: [], omitted: [] };
  };
  if (imports.length === 0) return all();
  const reader = importReader(outline);
  if (reader === undefined) return all();
  const language = languageFor(outline.file)?.id ?? '';
  const texts = imports.map((element) => outline.text.slice(element.declarationRange.start, element.range.end));
  const shapes = readEach(reader, texts);
  const uses: ImportUse[] = imports.map((element, index) => {
    const read = shapes[index];
    const names = read === undefined ? undefined : boundNames(read, language);
    const text = texts[index] ?? '';
    return { element, text, names, used: names === undefined ? [] : names.filter((name) => used.has(name)) };
  });
  const omitted = uses.filter((u) => u.used.length === 0);
  if (omitted.length === 0 && !uses.some((u) => shortenable(u))) return all();

  const summary = summaryLine(imports, omitted, syntax);
  // Left out only when that saves tokens: a file with three short imports shows them.
  const omittedTokens = counter.count(omitted.map((u) => u.text).join('\n'));
  const leaveOut = omitted.length > 0 && omittedTokens > counter.count(summary);
  const pieces: Piece[] = [];
  const shown: ElementNode[] = [];
  const shortened: ElementNode[] = [];
  let previous: ElementNode | undefined;
  for (const use of uses) {
    if (leaveOut && use.used.length === 0) continue;
    const short = shortenable(use) ? shortenedText(input.verbatim(use.element), use, syntax) : undefined;
    const blank = input.blankBefore(use.element, previous);
    previous = use.element;
    if (short !== undefined) {
      shortened.push(use.element);
      pieces.push({ ...fixed(`${blank}${short}\n`, use.element, 'signature'), pinned: true });
    } else {
      shown.push(use.element);
      pieces.push(fixed(`${blank}${input.verbatim(use.element)}\n`, use.element));
    }
  }
  const left = leaveOut ? omitted.map((u) => u.element) : [];
  const [head, ...more] = left;
  if (head !== undefined) {
    pieces.push({
      ...fixed(`${summary}\n`, head, 'stub'),
      ...(more.length > 0 ? { more } : {}),
      pinned: true,
    });
  }
  return { pieces, shown, shortened, omitted: left };
}

/** A reader of import declarations for the file's language, or undefined in a language without import operations. */
function importReader(outline: FileOutline): Pick<ImportEditing, 'read'> | undefined {
  try {
    // Reading a declaration needs no file around it: an editor over no text reads content like any other.
    return languageFor(outline.file)?.editor(outline.file, '').imports;
  } catch {
    return undefined;
  }
}

/**
 * The shapes of each declaration. The block is read in one parse when the language reads one shape per declaration
 * back (500 declarations read one by one cost a quarter of a second); otherwise each is read alone.
 */
function readEach(
  reader: Pick<ImportEditing, 'read'>,
  texts: readonly string[],
): Array<readonly ImportShape[] | undefined> {
  const together = reader.read(texts.join('\n'));
  if (
    together.ok &&
    together.imports.length === texts.length &&
    together.texts.every((text, index) => text.trim() === texts[index]?.trim())
  ) {
    return together.imports.map((shape) => [shape]);
  }
  return texts.map((text) => {
    const read = reader.read(text);
    return read.ok ? read.imports : undefined;
  });
}

function shortenable(use: ImportUse): boolean {
  return (
    use.used.length > 0 &&
    use.names !== undefined &&
    use.used.length < use.names.length &&
    use.element.endLine - use.element.startLine + 1 >= SHORTEN_MIN_LINES
  );
}

/**
 * The declaration's first and last lines and the lines naming a used binding; each run of other lines becomes one
 * comment saying how many names it holds. Undefined when that would leave out fewer than three lines.
 */
function shortenedText(text: string, use: ImportUse, syntax: CodeSyntax): string | undefined {
  const lines = text.split('\n');
  const wanted = new Set(use.used);
  const keep = lines.map(
    (line, index) =>
      index === 0 || index === lines.length - 1 || (line.match(WORD) ?? []).some((word) => wanted.has(word)),
  );
  if (keep.filter((k) => !k).length < 3) return undefined;
  const out: string[] = [];
  let skipped: string[] = [];
  const flush = (): void => {
    if (skipped.length === 0) return;
    const indent = /^[ \t]*/.exec(skipped[0] ?? '')?.[0] ?? '';
    const names = skipped.reduce((sum, line) => sum + (line.match(WORD) ?? []).length, 0);
    out.push(`${indent}${syntax.lineComment} … ${names} more name${names === 1 ? '' : 's'}`);
    skipped = [];
  };
  lines.forEach((line, index) => {
    if (keep[index] === true) {
      flush();
      out.push(line);
    } else skipped.push(line);
  });
  flush();
  return out.join('\n');
}

/** `// 27 more imports: react, ./types, … (lines 1-512)`: every module left out, once, as far as the width allows. */
function summaryLine(imports: readonly ElementNode[], omitted: readonly ImportUse[], syntax: CodeSyntax): string {
  const modules = [...new Set(omitted.map((u) => u.element.name))];
  let list = '';
  let listed = 0;
  for (const module of modules) {
    const next = list === '' ? module : `${list}, ${module}`;
    if (next.length > SUMMARY_WIDTH && listed > 0) break;
    list = next;
    listed += 1;
  }
  if (listed < modules.length) list += `, … ${modules.length - listed} more`;
  const first = imports[0]?.startLine ?? 1;
  const last = imports[imports.length - 1]?.endLine ?? first;
  const count = omitted.length;
  return `${syntax.lineComment} ${count} more import${count === 1 ? '' : 's'}: ${list} (lines ${first}-${last})`;
}
