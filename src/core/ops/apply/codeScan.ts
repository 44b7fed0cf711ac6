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
