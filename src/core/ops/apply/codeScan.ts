import type { TextRange } from '../../elements/element';

/**
 * placeholders.ts looks for comments with the TypeScript scanner whatever the file's language (a `// ...` placeholder
 * is what models write); the rest of apply scans with the file's own language (LanguageSupport.scanCode).
 * TODO(#13): placeholders in the comment syntax of each language.
 */
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the one place outside the seam, until #13
export { scanCode } from '../../language/typescript/codeScan';

/** Whether `offset` lies strictly inside one of the ranges (a line starting there is literal text). */
export function insideAny(ranges: readonly TextRange[], offset: number): boolean {
  return ranges.some((range) => range.start < offset && offset < range.end);
}
