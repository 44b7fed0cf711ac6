/**
 * The one way the core talks to a language model. Both wire clients (OpenAI-compatible and Anthropic) implement it;
 * callers never see an SDK type.
 */

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  readonly role: ChatRole;
  readonly content: string;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  /** Upper bound on the answer's length. Anthropic requires one; the provider's default applies when absent. */
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** Aborting rejects the call with an `LlmError` of code `cancelled` and closes the HTTP request. */
  readonly signal?: AbortSignal;
  /**
   * Receives the answer as it streams in. Giving it makes the call stream. The deltas concatenate to the final
   * `text`; when the call fails, what was delivered is not an answer and must be discarded.
   */
  readonly onText?: (delta: string) => void;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** `provider` when the server reported the numbers, `estimated` when they were counted locally (o200k). */
  readonly source: 'provider' | 'estimated';
}

export interface ChatResponse {
  /** The complete answer. A call that could not get the complete answer rejects instead. */
  readonly text: string;
  readonly usage: TokenUsage;
  /** The model that answered, as the server names it (may carry a date suffix). */
  readonly model: string;
  /** The provider's own stop reason (`stop`, `end_turn`, `content_filter`, ...). */
  readonly finishReason?: string;
}

export interface ChatProvider {
  /** `openai`, `ollama` or `anthropic`. */
  readonly id: string;
  readonly model: string;
  /** The base URL requests go to; error messages name it. */
  readonly endpoint: string;
  chat(request: ChatRequest): Promise<ChatResponse>;
  /** The model names the server offers, for pickers and connection checks. */
  listModels?(signal?: AbortSignal): Promise<string[]>;
}
