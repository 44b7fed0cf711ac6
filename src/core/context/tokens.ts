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

/*
 * Each encoding's tables cost about 100-200 ms to load, so only the one in use is loaded, on first count. The
 * requires are literal so the bundler still includes both.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const LOADERS: Readonly<Record<TokenEncoding, () => CountTokens>> = {
  o200k_base: () => (require('gpt-tokenizer/encoding/o200k_base') as { countTokens: CountTokens }).countTokens,
  cl100k_base: () => (require('gpt-tokenizer/encoding/cl100k_base') as { countTokens: CountTokens }).countTokens,
};
/* eslint-enable @typescript-eslint/no-require-imports */

export function isTokenEncoding(value: string): value is TokenEncoding {
  return (TOKEN_ENCODINGS as readonly string[]).includes(value);
}

export function createTokenCounter(encoding: TokenEncoding = DEFAULT_ENCODING): TokenCounter {
  let countTokens: CountTokens | undefined;
  return {
    encoding,
    count: (text) => {
      if (text.length === 0) return 0;
      countTokens ??= LOADERS[encoding]();
      return countTokens(text, PLAIN_TEXT);
    },
  };
}
