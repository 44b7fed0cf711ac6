/**
 * Markdown code fences as the operation format reads them: CommonMark's rules for what a fence line is, plus one
 * deliberate extension (a fence with an info string inside a body opens a nested block, see `readFencedBody`).
 */

export interface FenceLine {
  readonly char: '`' | '~';
  readonly length: number;
  /** Columns of leading whitespace (a tab counts 4). */
  readonly indent: number;
  /** The info string (`ts`, `json`, ...), trimmed; empty on a bare fence. */
  readonly info: string;
}

const FENCE_LINE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

/** A wrapper tag glued to a closing fence (```</operations>) still closes it; models write that. */
const CLOSING_TAG = /^<\/[A-Za-z][\w-]*>$/;

export function readFenceLine(line: string): FenceLine | undefined {
  const match = FENCE_LINE.exec(line);
  if (match === null) return undefined;
  const indent = match[1] ?? '';
  const run = match[2] ?? '';
  const info = (match[3] ?? '').trim();
  const char = run.startsWith('`') ? '`' : '~';
  // CommonMark: a backtick fence's info string never holds a backtick; ```a``` on one line is inline code.
  if (char === '`' && info.includes('`')) return undefined;
  return { char, length: run.length, indent: columnsOf(indent), info };
}

export function columnsOf(whitespace: string): number {
  let columns = 0;
  for (const char of whitespace) columns += char === '\t' ? 4 : 1;
  return columns;
}

/** Whether `fence` can close (or, with an info string, nest inside) a block opened by `opening`. */
function sameFenceFamily(fence: FenceLine, opening: FenceLine): boolean {
  return fence.char === opening.char && fence.length >= opening.length && fence.indent <= opening.indent + 3;
}

export function closes(fence: FenceLine, opening: FenceLine): boolean {
  return sameFenceFamily(fence, opening) && (fence.info === '' || CLOSING_TAG.test(fence.info));
}

export type FencedBodyResult =
  | { readonly kind: 'closed'; readonly lines: readonly string[]; readonly closingIndex: number }
  | { readonly kind: 'unterminated' }
  /** A line inside the body reads as the next operation: the closing fence is missing before it. */
  | { readonly kind: 'interrupted'; readonly headerIndex: number };

/**
 * Reads the body of the fence opened at `lines[openingIndex]`. CommonMark would close it at the first bare fence of
 * the same kind; this reader also lets a fence *with* an info string open one nested block that a bare fence
 * closes, so a README body holding ```bash ... ``` between plain ``` fences survives whole. A body written with a
 * longer fence than any backtick run inside it (what the serializer writes) never meets either case.
 */
export function readFencedBody(
  lines: readonly string[],
  openingIndex: number,
  opening: FenceLine,
  startsOperation: (index: number) => boolean,
): FencedBodyResult {
  let nested: FenceLine | undefined;
  for (let index = openingIndex + 1; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const fence = readFenceLine(line);
    if (nested !== undefined) {
      if (fence !== undefined && closes(fence, nested)) nested = undefined;
      continue;
    }
    if (fence !== undefined && sameFenceFamily(fence, opening)) {
      if (closes(fence, opening)) {
        return {
          kind: 'closed',
          lines: dedent(lines.slice(openingIndex + 1, index), opening.indent),
          closingIndex: index,
        };
      }
      nested = fence;
      continue;
    }
    if (startsOperation(index) && startsNextOperation(lines, index, opening, startsOperation)) {
      return { kind: 'interrupted', headerIndex: index };
    }
  }
  return { kind: 'unterminated' };
}

/**
 * A complete header inside a body means its closing fence was forgotten when the next operation's opening fence
 * follows it: one with an info string (```ts), which cannot close this body, or a bare one followed by another bare
 * fence (the swallowed operation's own closing fence) before the next header. A bare fence with no such partner is
 * this body's closing fence, and the header-like line just code.
 */
function startsNextOperation(
  lines: readonly string[],
  headerIndex: number,
  opening: FenceLine,
  startsOperation: (index: number) => boolean,
): boolean {
  let index = headerIndex + 1;
  while (index < lines.length && (lines[index] ?? '').trim() === '') index += 1;
  const fence = readFenceLine(lines[index] ?? '');
  if (fence === undefined || !sameFenceFamily(fence, opening)) return false;
  if (!closes(fence, opening)) return true;
  for (let after = index + 1; after < lines.length; after++) {
    if (startsOperation(after)) return false;
    const partner = readFenceLine(lines[after] ?? '');
    if (partner !== undefined && closes(partner, opening)) return true;
  }
  return false;
}

/** CommonMark: content lines lose as much leading whitespace as the opening fence was indented (list items). */
function dedent(lines: readonly string[], indent: number): string[] {
  if (indent === 0) return [...lines];
  return lines.map((line) => {
    let removed = 0;
    let cut = 0;
    while (cut < line.length && removed < indent) {
      const char = line.charAt(cut);
      if (char !== ' ' && char !== '\t') break;
      const width = char === '\t' ? 4 : 1;
      if (removed + width > indent) break;
      removed += width;
      cut += 1;
    }
    return line.slice(cut);
  });
}

/** The shortest backtick fence that no backtick run in `text` can close: longer than the longest run, at least 3. */
export function fenceFor(text: string): string {
  let longest = 0;
  let run = 0;
  for (const char of text) {
    run = char === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The lines outside fenced code blocks, in order, each block standing as one `undefined` (it ends a paragraph); a
 * block never closed runs to the end. For prose around code: a model's notes, the listings Scalpel sends.
 */
export function linesOutsideFences(lines: Iterable<string>): Array<string | undefined> {
  const outside: Array<string | undefined> = [];
  let fence: FenceLine | undefined;
  for (const line of lines) {
    const fenceLine = readFenceLine(line);
    if (fence !== undefined) {
      if (fenceLine !== undefined && closes(fenceLine, fence)) fence = undefined;
    } else if (fenceLine !== undefined) {
      fence = fenceLine;
      outside.push(undefined);
    } else outside.push(line);
  }
  return outside;
}
