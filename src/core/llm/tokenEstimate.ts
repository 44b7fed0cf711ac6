/**
 * Local token counts for servers that report no usage. o200k is exact for current OpenAI models and within a few
 * percent for other families' code and prose, which is close enough for budgets and cost display.
 */
import type * as O200kBase from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage } from './provider';

type Tokenizer = typeof O200kBase;

let tokenizer: Promise<Tokenizer> | undefined;

// The tokenizer's tables are large; they load on the first count, never at activation.
function loadTokenizer(): Promise<Tokenizer> {
  tokenizer ??= import('gpt-tokenizer/encoding/o200k_base');
  return tokenizer;
}

/** Source code may contain `<|endoftext|>` and the like; count them as plain text instead of refusing. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Chat formats add a few tokens per message for the role and separators. */
const TOKENS_PER_MESSAGE = 4;

export async function countTokens(text: string): Promise<number> {
  const { countTokens: count } = await loadTokenizer();
  return count(text, PLAIN_TEXT);
}

export async function estimateChatTokens(messages: readonly ChatMessage[]): Promise<number> {
  const { countTokens: count } = await loadTokenizer();
  let total = 0;
  for (const message of messages) total += count(message.content, PLAIN_TEXT) + TOKENS_PER_MESSAGE;
  return total;
}
