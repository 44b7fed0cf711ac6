import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';

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

const ENCODERS: Readonly<Record<TokenEncoding, (text: string) => number>> = {
  o200k_base: (text) => o200k.countTokens(text, PLAIN_TEXT),
  cl100k_base: (text) => cl100k.countTokens(text, PLAIN_TEXT),
};

export function isTokenEncoding(value: string): value is TokenEncoding {
  return (TOKEN_ENCODINGS as readonly string[]).includes(value);
}

export function createTokenCounter(encoding: TokenEncoding = DEFAULT_ENCODING): TokenCounter {
  const encode = ENCODERS[encoding];
  return { encoding, count: (text) => (text.length === 0 ? 0 : encode(text)) };
}
