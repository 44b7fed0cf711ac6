/**
 * Outlining any supported file: the front door callers have always used, now answered by the language seam
 * (src/core/language/languages.ts). The TypeScript walker is src/core/language/typescript/typescriptOutline.ts.
 */
export { isOutlinable, outlineSource } from '../language/languages';
export { countLines } from './lines';
