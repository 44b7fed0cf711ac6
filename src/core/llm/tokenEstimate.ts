/**
 * Local token counts for servers that report no usage. o200k is exact for current OpenAI models and within a few
 * percent for other families' code and prose, which is close enough for budgets and cost display. Counted with
 * Scalpel's linear counter (src/core/context/tokens.ts): an answer that repeats one letter for megabytes must not
 * hold the process for minutes.
 */
import { createTokenCounter, type TokenCounter } from '../context/tokens';
import type { ChatMessage } from './provider';

// The tokenizer's tables are large; they load on the first count, never at activation.
let counter: TokenCounter | undefined;

function o200k(): TokenCounter {
  counter ??= createTokenCounter('o200k_base');
  return counter;
}

/** Chat formats add a few tokens per message for the role and separators. */
const TOKENS_PER_MESSAGE = 4;

export function countTokens(text: string): Promise<number> {
  return Promise.resolve(o200k().count(text));
}

export function estimateChatTokens(messages: readonly ChatMessage[]): Promise<number> {
  let total = 0;
  for (const message of messages) total += o200k().count(message.content) + TOKENS_PER_MESSAGE;
  return Promise.resolve(total);
}
