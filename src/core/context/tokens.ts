/** The encodings Scalpel counts with. o200k_base is GPT-4o's and later models'; cl100k_base is GPT-4's. */
export const TOKEN_ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type TokenEncoding = (typeof TOKEN_ENCODINGS)[number];
export const DEFAULT_ENCODING: TokenEncoding = 'o200k_base';

export interface TokenCounter {
  readonly encoding: TokenEncoding;
  count(text: string): number;
}

// Source code may contain text such as `<|endoftext|>`; it is counted as the plain text it is.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

type CountTokens = (text: string, options: typeof PLAIN_TEXT) => number;

interface Encoder {
  readonly countTokens: CountTokens;
  /** The encoding's pre-tokenizer: BPE merges happen only inside one of its matches. */
  readonly split: RegExp;
}

/*
 * Each encoding's tables cost about 100-200 ms to load, so only the one in use is loaded, on first count. The
 * requires are literal so the bundler still includes both.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const splitPatterns = (): { O200K_TOKEN_SPLIT_REGEX: RegExp; CL100K_TOKEN_SPLIT_REGEX: RegExp } =>
  require('gpt-tokenizer/encodingParams/constants') as {
    O200K_TOKEN_SPLIT_REGEX: RegExp;
    CL100K_TOKEN_SPLIT_REGEX: RegExp;
  };
const LOADERS: Readonly<Record<TokenEncoding, () => Encoder>> = {
  o200k_base: () => ({
    countTokens: (require('gpt-tokenizer/encoding/o200k_base') as { countTokens: CountTokens }).countTokens,
    split: splitPatterns().O200K_TOKEN_SPLIT_REGEX,
  }),
  cl100k_base: () => ({
    countTokens: (require('gpt-tokenizer/encoding/cl100k_base') as { countTokens: CountTokens }).countTokens,
    split: splitPatterns().CL100K_TOKEN_SPLIT_REGEX,
  }),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The longest piece (one match of the encoding's pre-tokenizer) counted whole. gpt-tokenizer merges the byte pairs
 * of one piece in time quadratic in its length (`bytePairMerge` scans the piece once per merge), so one piece of
 * 80,000 letters, a model stuck repeating itself, took 4 s and 300 KB took minutes, with no timer able to fire
 * meanwhile. Longer pieces are counted in slices of this length: linear in the input, and off by at most about a
 * token per slice where a merge would have crossed the cut. Code and prose almost never hold a piece this long
 * (bench/tokenCount.ts measures both).
 */
export const MAX_PIECE_LENGTH = 256;

export function isTokenEncoding(value: string): value is TokenEncoding {
  return (TOKEN_ENCODINGS as readonly string[]).includes(value);
}

/**
 * Counts `text` in time linear in its length: exactly as gpt-tokenizer does while no piece is longer than
 * MAX_PIECE_LENGTH, and those that are in slices (see above).
 */
function countLinear(encoder: Encoder, text: string): number {
  // A text this short cannot hold a long piece; most counts are of lines and small elements.
  if (text.length <= MAX_PIECE_LENGTH) return encoder.countTokens(text, PLAIN_TEXT);
  let total = 0;
  let from = 0;
  for (const match of text.matchAll(encoder.split)) {
    const piece = match[0];
    if (piece.length <= MAX_PIECE_LENGTH) continue;
    const start = match.index;
    // Everything before the long piece, up to a piece boundary, is counted as it would be in the whole text.
    if (start > from) total += encoder.countTokens(text.slice(from, start), PLAIN_TEXT);
    for (let at = 0; at < piece.length; at += MAX_PIECE_LENGTH) {
      total += encoder.countTokens(piece.slice(at, at + MAX_PIECE_LENGTH), PLAIN_TEXT);
    }
    from = start + piece.length;
  }
  if (from === 0) return encoder.countTokens(text, PLAIN_TEXT);
  if (from < text.length) total += encoder.countTokens(text.slice(from), PLAIN_TEXT);
  return total;
}

/**
 * Scalpel's token counter. Every count in the core and the surfaces goes through one (engine.createTokenCounter in
 * VS Code): gpt-tokenizer's own `countTokens` is quadratic on long runs and must not be called directly.
 */
export function createTokenCounter(encoding: TokenEncoding = DEFAULT_ENCODING): TokenCounter {
  let encoder: Encoder | undefined;
  return {
    encoding,
    count: (text) => {
      if (text.length === 0) return 0;
      encoder ??= LOADERS[encoding]();
      return countLinear(encoder, text);
    },
  };
}
