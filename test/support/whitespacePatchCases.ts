import type { ElementNode } from '../../src/core/elements/element';
import { walkElements } from '../../src/core/elements/resolve';
import { languageFor } from '../../src/core/language/languages';

/**
 * Cases of a PATCH whose SEARCH differs from the file only by whitespace, drawn from real code (issue 26.8): 2 to 4
 * real lines of an element with their whitespace changed the ways models change it (spaces for tabs and back, half
 * the indentation width, trailing spaces, alignment runs collapsed), the REPLACE renaming one word of one line. The
 * test (test/unit/ops/apply/patchWhitespaceCorpus.test.ts) and the bench (bench/views.ts) draw the same cases.
 */

export interface WhitespaceCase {
  readonly path: string;
  readonly element: string;
  readonly search: string;
  readonly replace: string;
  /** The file with the word renamed in place (the changed line without trailing whitespace). */
  readonly expected: string;
  /** The same change written exactly as the file has it. */
  readonly exact: { readonly search: string; readonly replace: string };
}

const KEYWORDS = new Set(
  'abstract and as assert async await break case catch class const continue def default defer del delegate do elif else enum except extends false final finally fn for foreach from func go goto if impl implements import in instanceof interface is lambda let loop match mod module mut namespace new nil none not null object or out override package pass private protected pub public raise readonly ref return select self sealed static struct super switch this throw throws trait true try type typeof unsafe use using var virtual void volatile where while with yield'.split(
    ' ',
  ),
);

/** Where each line of a text starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The width of a line's indentation, a tab as 4 columns. */
function indentColumns(line: string): number {
  const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
  return [...indent].reduce((w, c) => w + (c === '\t' ? 4 : 1), 0);
}

/** The same lines with their whitespace changed one way, the same way for every line. */
function perturb(lines: readonly string[], how: number, changed: number): string[] {
  return lines.map((line, i) => {
    const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
    // A model writes \n; the file's CRLF is read as its own.
    let rest = line.slice(indent.length).replace(/\r$/, '');
    // Inner runs collapse only on lines the REPLACE keeps: a changed line is written as the model writes it.
    if (how % 2 === 1 && i !== changed) rest = rest.replace(/[ \t]{2,}/g, ' ');
    const columns = indentColumns(line);
    const moved =
      how % 3 === 0
        ? ' '.repeat(columns)
        : how % 3 === 1
          ? '\t'.repeat(Math.floor(columns / 4)) + ' '.repeat(columns % 4)
          : ' '.repeat(columns / 2);
    return `${moved}${rest}${how % 4 === 0 ? '  ' : ''}`;
  });
}

export function whitespaceCase(path: string, text: string, random: () => number): WhitespaceCase | undefined {
  const language = languageFor(path);
  if (language === undefined) return undefined;
  const outline = language.outline(path, text);
  if (outline.syntaxErrors.length > 0) return undefined;
  const leaves = [...walkElements(outline.elements)].filter(
    (e: ElementNode) => e.children.length === 0 && e.endLine - e.startLine >= 3 && e.kind !== 'import',
  );
  const element = leaves[Math.floor(random() * leaves.length)];
  if (element === undefined) return undefined;
  const starts = lineStarts(text);
  const first = element.startLine + Math.floor(random() * (element.endLine - element.startLine - 1));
  const count = Math.min(2 + Math.floor(random() * 3), element.endLine - first + 1);
  const from = starts[first - 1] ?? 0;
  const to = (starts[first - 1 + count] ?? text.length + 1) - 1;
  const at = Math.max(from, element.range.start);
  const original = text.slice(at, Math.min(to, element.range.end));
  const lines = original.split('\n');
  // Lines inside a string literal are text, and a window that starts inside one is no code to patch.
  const scan = language.scanCode(text);
  if (scan.literals.some((l) => l.start < to && from < l.end)) return undefined;
  if (lines.some((l) => l.trim() === '') || lines.length < 2) return undefined;
  const changed = Math.floor(random() * lines.length);
  const target = lines[changed] ?? '';
  // The longest word of the line that is no keyword: a rename that keeps the code valid.
  const identifier = (target.match(/\b[A-Za-z_][A-Za-z0-9_]{2,}\b/g) ?? [])
    .filter((word) => !KEYWORDS.has(word))
    .sort((a, b) => b.length - a.length)[0];
  if (identifier === undefined) return undefined;
  const renamed = lines.map((l, i) =>
    i === changed ? l.replace(new RegExp(`\\b${identifier}\\b`), `${identifier}Renamed`) : l,
  );
  const how = Math.floor(random() * 12);
  // Half of an odd indentation is no indentation the file's can be told from: 9 columns and 8 both become 4, and a
  // SEARCH that loses its lines' relative indentation is rightly refused (Python reads it). No case of this test.
  if (how % 3 === 2 && lines.some((l) => indentColumns(l) % 2 === 1)) return undefined;
  const search = perturb(lines, how, changed).join('\n');
  const replace = perturb(renamed, how, changed).join('\n');
  // Only whitespace differs from the file (line breaks aside): else it is no case of this test.
  if (search === original.replace(/\r/g, '')) return undefined;
  // The line the model changes is written without trailing whitespace, in the file's line break.
  const written = renamed.map((l, i) => (i === changed ? l.replace(/[ \t]+(\r?)$/, '$1') : l));
  return {
    path,
    element: element.path,
    search,
    replace,
    exact: { search: original, replace: renamed.join('\n') },
    expected: text.slice(0, at) + written.join('\n') + text.slice(at + original.length),
  };
}
