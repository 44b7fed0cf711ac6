import type { TextRange } from '../../elements/element';

/**
 * placeholders.ts scans with the file's language; a file no language reads (a README, a config file) is searched
 * with the TypeScript scanner, for the `// ...` and block comments models write.
 */
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the one place outside the seam: the fallback above
export { scanCode } from '../../language/typescript/codeScan';

/** Whether `offset` lies strictly inside one of the ranges (a line starting there is literal text). */
export function insideAny(ranges: readonly TextRange[], offset: number): boolean {
  return ranges.some((range) => range.start < offset && offset < range.end);
}

/**
 * For each line of `text`, whether it starts strictly inside one of the ranges (sorted by start, as a scan gives
 * them): one pass over both, linear where asking {@link insideAny} per line is quadratic in a large body.
 */
export function linesStartingInside(text: string, ranges: readonly TextRange[]): boolean[] {
  const inside: boolean[] = [];
  let r = 0;
  for (let offset = 0; ;) {
    while (r < ranges.length && (ranges[r]?.end ?? 0) <= offset) r += 1;
    const range = ranges[r];
    inside.push(range !== undefined && range.start < offset && offset < range.end);
    const next = text.indexOf('\n', offset);
    if (next < 0) break;
    offset = next + 1;
  }
  return inside;
}
