// The one fake the project allows: a real HTTP server on 127.0.0.1 that answers like the OpenAI chat completions API
// and the Anthropic messages API, byte for byte the way they frame JSON answers, server-sent events and errors, so
// the official SDKs parse it exactly as they parse the real thing. Each test scripts what the "model" answers.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

interface StepBase {
  /** Answer only a request for this model; requests for other models skip the step, which waits for its own. */
  readonly model?: string;
  /** Wait this long before sending anything, headers included. */
  readonly delayMs?: number;
}

/** A model answer, streamed when the request asks for a stream. */
export interface AnswerStep extends StepBase {
  readonly type: 'answer';
  readonly text: string;
  /** Usage to report; `null` reports none, as some local servers do. Default: about one token per four characters. */
  readonly usage?: ScriptedUsage | null;
  /** How many pieces the streamed text is cut into (default 3, at most one per character). */
  readonly chunks?: number;
  /** Pause between two streamed events. */
  readonly chunkDelayMs?: number;
  /** Why the model stopped: `end` of its turn (default) or the output token limit (`max-tokens`). */
  readonly stopReason?: 'end' | 'max-tokens';
  /**
   * How the response ends. `complete` (default); `drop` destroys the connection after `afterChunks` text pieces;
   * `truncate` ends the response cleanly after `afterChunks` pieces, without the API's final events. Without
   * streaming, both cut the JSON body in half.
   */
  readonly ending?: 'complete' | 'drop' | 'truncate';
  readonly afterChunks?: number;
  /** The model name the answer reports; default the requested one. */
  readonly reportedModel?: string;
  /** Streams the text's pieces again and again, never ending, until the client closes: a model stuck repeating. */
  readonly endless?: boolean;
  /**
   * Streams the whole answer a few bytes at a time, as a server or proxy that trickles: `bytes` every `everyMs`.
   * Events then complete only now and then, or (with a long event and a slow pace) not for minutes.
   */
  readonly trickle?: { readonly bytes: number; readonly everyMs: number };
}

/** Sends the response headers of a stream (or of a JSON answer) and then nothing, holding the connection open. */
export interface StallStep extends StepBase {
  readonly type: 'stall';
}

/** A 200 (or `status`) answer with this body and content type, whatever the request asked for. */
export interface RawBodyStep extends StepBase {
  readonly type: 'raw-body';
  readonly contentType: string;
  readonly body: string;
  readonly status?: number;
}

export type ScriptedErrorKind =
  | 'invalid-api-key'
  | 'model-not-found'
  | 'context-length'
  | 'rate-limit'
  | 'quota-exceeded'
  | 'server-error'
  | 'overloaded';

/** An HTTP error with the body the real API sends for it. */
export interface ErrorStep extends StepBase {
  readonly type: 'error';
  readonly error: ScriptedErrorKind;
  /** Default: the real API's status for the kind (401, 404, 400, 429, 429, 500, 503 or Anthropic's 529). */
  readonly status?: number;
  /** Sent as the `Retry-After` header. */
  readonly retryAfterSeconds?: number;
  /** For `context-length`: the model's window and the size of the rejected prompt (defaults 128000 and 130532). */
  readonly contextLimit?: number;
  readonly promptTokens?: number;
  /** Replaces the message inside the API's error shape. */
  readonly message?: string;
  /** Replaces the whole JSON body, for servers whose errors look different (Ollama, llama.cpp, vLLM). */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The connection is destroyed before any response header is sent, as when a proxy or server crashes. */
export interface DropConnectionStep extends StepBase {
  readonly type: 'drop-connection';
}

/** An HTTP redirect (307 by default) to `location`, as a proxy or a moved endpoint sends. */
export interface RedirectStep extends StepBase {
  readonly type: 'redirect';
  readonly location: string;
  readonly status?: 301 | 302 | 303 | 307 | 308;
}

export type ScriptedStep = AnswerStep | ErrorStep | DropConnectionStep | StallStep | RawBodyStep | RedirectStep;

/** Builders for the steps, so tests read as a script. */
export const scripted = {
  answer: (text: string, options: Omit<AnswerStep, 'type' | 'text'> = {}): AnswerStep => ({
    type: 'answer',
    text,
    ...options,
  }),
  error: (error: ScriptedErrorKind, options: Omit<ErrorStep, 'type' | 'error'> = {}): ErrorStep => ({
    type: 'error',
    error,
    ...options,
  }),
  dropConnection: (options: Omit<DropConnectionStep, 'type'> = {}): DropConnectionStep => ({
    type: 'drop-connection',
    ...options,
  }),
  stall: (options: Omit<StallStep, 'type'> = {}): StallStep => ({ type: 'stall', ...options }),
  redirect: (location: string, options: Omit<RedirectStep, 'type' | 'location'> = {}): RedirectStep => ({
    type: 'redirect',
    location,
    ...options,
  }),
  rawBody: (contentType: string, body: string, options: Omit<RawBodyStep, 'type' | 'contentType' | 'body'> = {}) =>
    ({ type: 'raw-body', contentType, body, ...options }) satisfies RawBodyStep,
};

export type ScriptedApi = 'openai' | 'anthropic' | 'other';

/** What the SDKs send, loosely typed: tests read the fields they assert on. */
export interface RecordedRequestBody {
  readonly model?: string;
  readonly messages?: readonly { readonly role: string; readonly content: unknown }[];
  readonly system?: unknown;
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly max_tokens?: number;
  readonly max_completion_tokens?: number;
  readonly temperature?: number;
  readonly [field: string]: unknown;
}

export interface RecordedRequest {
  /** 1-based, in order of arrival. */
  readonly index: number;
  readonly method: string;
  /** The path without its query string. */
  readonly path: string;
  readonly api: ScriptedApi;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  readonly body: RecordedRequestBody | undefined;
  readonly rawBody: string;
  /** `Date.now()` when the request had fully arrived. */
  readonly receivedAt: number;
  /** The step that answered, or undefined when none was left. */
  readonly step: ScriptedStep | undefined;
  /** Becomes true when the client closed the connection before the response was complete. */
  readonly closedByClient: boolean;
}

export interface ScriptedLlmServerOptions {
  /** Listed by `GET /v1/models`. */
  readonly models?: readonly string[];
  readonly steps?: readonly ScriptedStep[];
  /** Called after each request has been answered (used by llmServerMain to persist the log). */
  readonly onRequestDone?: (request: RecordedRequest) => void;
}

export interface ScriptedLlmServer {
  /** `http://127.0.0.1:PORT`, also the Anthropic SDK's base URL. */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1`, the OpenAI SDK's base URL. */
  readonly openaiBaseUrl: string;
  readonly anthropicBaseUrl: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  enqueue(...steps: ScriptedStep[]): void;
  /** Steps not used yet. */
  readonly pendingSteps: readonly ScriptedStep[];
  close(): Promise<void>;
}

type MutableRecord = { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] };

const DEFAULT_MODELS = ['gpt-4o-mini', 'llama3.1', 'claude-sonnet-4-5'];

export async function startScriptedLlmServer(options: ScriptedLlmServerOptions = {}): Promise<ScriptedLlmServer> {
  const queue: ScriptedStep[] = [...(options.steps ?? [])];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const models = options.models ?? DEFAULT_MODELS;
  let closing = false;

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`scripted LLM server failed: ${String(error)}`);
      } else {
        res.destroy();
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const api = apiOf(req.method ?? 'GET', path, req.headers);
    const body = parseBody(rawBody);
    const record: MutableRecord = {
      index: requests.length + 1,
      method: req.method ?? 'GET',
      path,
      api,
      headers: req.headers,
      body,
      rawBody,
      receivedAt: Date.now(),
      step: undefined,
      closedByClient: false,
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished && !droppedByServer.has(res)) record.closedByClient = true;
      options.onRequestDone?.(record);
    });

    if (req.method === 'GET' && /^(\/v1)?\/models$/.test(path)) {
      sendJson(res, 200, modelList(models, req.headers));
      return;
    }
    if (api === 'other') {
      sendJson(res, 404, {
        error: {
          message: `scripted LLM server: no route for ${req.method} ${path}`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
      return;
    }

    const stepIndex = queue.findIndex((step) => step.model === undefined || step.model === body?.model);
    const step = stepIndex < 0 ? undefined : queue.splice(stepIndex, 1)[0];
    record.step = step;
    if (step === undefined) {
      // x-should-retry: false keeps the SDKs and the providers from retrying, so the test fails at once and loudly.
      sendJson(
        res,
        500,
        errorBody(
          api,
          'server-error',
          `scripted LLM server: no scripted answer left for request ${record.index} (${req.method} ${path})`,
        ),
        {
          'x-should-retry': 'false',
        },
      );
      return;
    }

    if (step.delayMs !== undefined && step.delayMs > 0) await sleepUnlessClosed(step.delayMs, res);
    if (res.destroyed) return;

    switch (step.type) {
      case 'drop-connection':
        droppedByServer.add(res);
        req.socket.destroy();
        return;
      case 'error':
        sendError(res, api, step, body, req.headers);
        return;
      case 'stall':
        res.writeHead(200, {
          'content-type': body?.stream === true ? 'text/event-stream; charset=utf-8' : 'application/json',
          'x-request-id': 'req_scripted',
        });
        res.flushHeaders();
        await new Promise<void>((resolve) => res.once('close', () => resolve()));
        return;
      case 'redirect':
        res.writeHead(step.status ?? 307, { location: step.location, 'content-length': 0 });
        res.end();
        return;
      case 'raw-body':
        res.writeHead(step.status ?? 200, {
          'content-type': step.contentType,
          'content-length': Buffer.byteLength(step.body),
          'x-request-id': 'req_scripted',
        });
        res.end(step.body);
        return;
      case 'answer':
        if (body?.stream === true && step.trickle !== undefined) await trickleAnswer(res, api, step, body);
        else if (body?.stream === true) await streamAnswer(res, api, step, body);
        else sendAnswer(res, api, step, body);
        return;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    port,
    requests,
    get pendingSteps() {
      return [...queue];
    },
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    close: async () => {
      if (closing) return;
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function apiOf(method: string, path: string, headers: IncomingHttpHeaders): ScriptedApi {
  if (method === 'POST' && /^(\/v1)?\/chat\/completions$/.test(path)) return 'openai';
  if (method === 'POST' && /^(\/v1)?\/messages$/.test(path)) return 'anthropic';
  if (method === 'GET' && /^(\/v1)?\/models$/.test(path)) return headers['anthropic-version'] ? 'anthropic' : 'openai';
  return 'other';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parseBody(rawBody: string): RecordedRequestBody | undefined {
  if (rawBody === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(rawBody);
    return typeof parsed === 'object' && parsed !== null ? (parsed as RecordedRequestBody) : undefined;
  } catch {
    return undefined;
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': 'req_scripted',
    ...headers,
  });
  res.end(text);
}

function modelList(models: readonly string[], headers: IncomingHttpHeaders): unknown {
  if (headers['anthropic-version']) {
    const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z' }));
    return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  }
  return {
    object: 'list',
    data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })),
  };
}

// ---- Answers ---------------------------------------------------------------------------------------------------

function usageFor(step: AnswerStep, body: RecordedRequestBody | undefined): ScriptedUsage | null {
  if (step.usage !== undefined) return step.usage;
  const promptChars = JSON.stringify(body?.messages ?? []).length + JSON.stringify(body?.system ?? '').length;
  return { inputTokens: Math.ceil(promptChars / 4), outputTokens: Math.max(1, Math.ceil(step.text.length / 4)) };
}

function pieces(text: string, count: number): string[] {
  const characters = Array.from(text);
  const n = Math.max(1, Math.min(count, characters.length));
  const size = Math.ceil(characters.length / n);
  const result: string[] = [];
  for (let start = 0; start < characters.length; start += size)
    result.push(characters.slice(start, start + size).join(''));
  return result.length > 0 ? result : [''];
}

function openaiFinishReason(step: AnswerStep): string {
  return step.stopReason === 'max-tokens' ? 'length' : 'stop';
}

function anthropicStopReason(step: AnswerStep): string {
  return step.stopReason === 'max-tokens' ? 'max_tokens' : 'end_turn';
}

function openaiUsage(usage: ScriptedUsage): unknown {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function completeJson(
  api: ScriptedApi,
  step: AnswerStep,
  body: RecordedRequestBody | undefined,
  index: number,
): unknown {
  const model = step.reportedModel ?? body?.model ?? 'unknown';
  const usage = usageFor(step, body);
  if (api === 'anthropic') {
    return {
      id: `msg_scripted_${index}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: step.text }],
      stop_reason: anthropicStopReason(step),
      stop_sequence: null,
      ...(usage === null
        ? {}
        : {
            usage: {
              input_tokens: usage.inputTokens,
              output_tokens: usage.outputTokens,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
              service_tier: 'standard',
            },
          }),
    };
  }
  return {
    id: `chatcmpl-scripted-${index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: step.text, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: openaiFinishReason(step),
      },
    ],
    ...(usage === null ? {} : { usage: openaiUsage(usage) }),
    service_tier: 'default',
    system_fingerprint: 'fp_scripted',
  };
}

let answerCounter = 0;

function sendAnswer(
  res: ServerResponse,
  api: ScriptedApi,
  step: AnswerStep,
  body: RecordedRequestBody | undefined,
): void {
  const text = JSON.stringify(completeJson(api, step, body, ++answerCounter));
  const ending = step.ending ?? 'complete';
  if (ending === 'complete') {
    sendJson(res, 200, JSON.parse(text));
    return;
  }
  // Without a content-length the body goes out chunked, so cutting it short is a real transfer failure, not a
  // length mismatch the client could spot before reading.
  res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_scripted' });
  res.write(text.slice(0, Math.floor(text.length / 2)));
  if (ending === 'drop') dropAfterFlush(res);
  else res.end();
}

async function streamAnswer(
  res: ServerResponse,
  api: ScriptedApi,
  step: AnswerStep,
  body: RecordedRequestBody,
): Promise<void> {
  const model = step.reportedModel ?? body.model ?? 'unknown';
  const usage = usageFor(step, body);
  const textPieces = pieces(step.text, step.chunks ?? 3);
  const ending = step.ending ?? 'complete';
  const stopAfter = ending === 'complete' ? textPieces.length : Math.min(step.afterChunks ?? 1, textPieces.length);
  const id = ++answerCounter;

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': 'req_scripted',
  });
  const pause = async (): Promise<boolean> => {
    if (step.chunkDelayMs !== undefined && step.chunkDelayMs > 0) await sleepUnlessClosed(step.chunkDelayMs, res);
    return !res.destroyed;
  };

  if (api === 'anthropic') {
    const event = (name: string, data: unknown): void => {
      res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    event('message_start', {
      type: 'message_start',
      message: {
        id: `msg_scripted_${id}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage:
          usage === null
            ? undefined
            : {
                input_tokens: usage.inputTokens,
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: 0,
                output_tokens: 1,
                service_tier: 'standard',
              },
      },
    });
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    event('ping', { type: 'ping' });
    for (const [i, piece] of textPieces.slice(0, stopAfter).entries()) {
      if (i > 0 && !(await pause())) return;
      event('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: piece },
      });
    }
    if (step.endless === true) {
      await repeatUntilClosed(res, textPieces, (piece) =>
        event('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: piece },
        }),
      );
      return;
    }
    if (ending === 'drop') return dropAfterFlush(res);
    if (ending === 'truncate') return void res.end();
    if (!(await pause())) return;
    event('content_block_stop', { type: 'content_block_stop', index: 0 });
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: anthropicStopReason(step), stop_sequence: null },
      ...(usage === null ? {} : { usage: { output_tokens: usage.outputTokens } }),
    });
    event('message_stop', { type: 'message_stop' });
    res.end();
    return;
  }

  const includeUsage = body.stream_options?.include_usage === true;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): void => {
    const data = {
      id: `chatcmpl-scripted-${id}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model,
      service_tier: 'default',
      system_fingerprint: 'fp_scripted',
      choices,
      ...(includeUsage ? { usage: null } : {}),
      ...extra,
    };
    res.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  chunk([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }]);
  for (const [i, piece] of textPieces.slice(0, stopAfter).entries()) {
    if (i > 0 && !(await pause())) return;
    chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]);
  }
  if (step.endless === true) {
    await repeatUntilClosed(res, textPieces, (piece) =>
      chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]),
    );
    return;
  }
  if (ending === 'drop') return dropAfterFlush(res);
  if (ending === 'truncate') return void res.end();
  if (!(await pause())) return;
  chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: openaiFinishReason(step) }]);
  if (includeUsage && usage !== null) chunk([], { usage: openaiUsage(usage) });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** Sends the pieces in a loop, as fast as the client reads them, until it closes the connection. */
async function repeatUntilClosed(
  res: ServerResponse,
  pieces: readonly string[],
  send: (piece: string) => void,
): Promise<void> {
  for (let i = 0; !res.destroyed; i++) {
    send(pieces[i % pieces.length] ?? '');
    if (res.writableNeedDrain) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
}

/**
 * The stream `streamAnswer` would send, captured whole and then written `trickle.bytes` at a time. The headers go out
 * at once, as a server that has accepted the request does.
 */
async function trickleAnswer(
  res: ServerResponse,
  api: ScriptedApi,
  step: AnswerStep,
  body: RecordedRequestBody,
): Promise<void> {
  const captured: string[] = [];
  const capture = {
    destroyed: false,
    socket: null,
    writeHead: () => capture,
    write: (text: string) => void captured.push(text),
    end: () => undefined,
    once: () => capture,
    off: () => capture,
  };
  const { trickle: _trickle, chunkDelayMs: _delay, ending: _ending, ...plain } = step;
  await streamAnswer(capture as unknown as ServerResponse, api, plain, body);
  const bytes = Buffer.from(captured.join(''), 'utf8');
  const pace = step.trickle ?? { bytes: 1, everyMs: 1 };
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': 'req_scripted',
  });
  res.flushHeaders();
  for (let offset = 0; offset < bytes.length; offset += pace.bytes) {
    if (offset > 0) await sleepUnlessClosed(pace.everyMs, res);
    if (res.destroyed) return;
    res.write(bytes.subarray(offset, offset + pace.bytes));
  }
  res.end();
}

const droppedByServer = new WeakSet<ServerResponse>();

/** Lets the events already written reach the client, then kills the connection without ending the response. */
function dropAfterFlush(res: ServerResponse): void {
  const socket = res.socket;
  if (socket === null) return;
  droppedByServer.add(res);
  // An empty write's callback runs once everything queued before it is handed to the kernel.
  res.write('', () => socket.destroy());
}

// ---- Errors ----------------------------------------------------------------------------------------------------

function defaultStatus(api: ScriptedApi, kind: ScriptedErrorKind): number {
  switch (kind) {
    case 'invalid-api-key':
      return 401;
    case 'model-not-found':
      return 404;
    case 'context-length':
      return 400;
    case 'rate-limit':
    case 'quota-exceeded':
      return 429;
    case 'server-error':
      return 500;
    case 'overloaded':
      return api === 'anthropic' ? 529 : 503;
  }
}

function sendError(
  res: ServerResponse,
  api: ScriptedApi,
  step: ErrorStep,
  body: RecordedRequestBody | undefined,
  headers: IncomingHttpHeaders,
): void {
  const responseHeaders: Record<string, string> = { ...step.headers };
  if (step.retryAfterSeconds !== undefined) responseHeaders['retry-after'] = String(step.retryAfterSeconds);
  const payload = step.body ?? errorBody(api, step.error, step.message ?? errorMessage(api, step, body, headers));
  sendJson(res, step.status ?? defaultStatus(api, step.error), payload, responseHeaders);
}

/** The messages the real APIs send, so the providers' parsing is tested against what users will see. */
function errorMessage(
  api: ScriptedApi,
  step: ErrorStep,
  body: RecordedRequestBody | undefined,
  headers: IncomingHttpHeaders,
): string {
  const model = body?.model ?? 'unknown';
  const limit = step.contextLimit ?? 128_000;
  const prompt = step.promptTokens ?? 130_532;
  if (api === 'anthropic') {
    switch (step.error) {
      case 'invalid-api-key':
        return 'invalid x-api-key';
      case 'model-not-found':
        return `model: ${model}`;
      case 'context-length':
        return `prompt is too long: ${prompt} tokens > ${limit} maximum`;
      case 'rate-limit':
        return 'This request would exceed the rate limit for your organization of 30,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage.';
      case 'quota-exceeded':
        return 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.';
      case 'server-error':
        return 'Internal server error';
      case 'overloaded':
        return 'Overloaded';
    }
  }
  switch (step.error) {
    case 'invalid-api-key':
      return `Incorrect API key provided: ${maskedKey(headers)}. You can find your API key at https://platform.openai.com/account/api-keys.`;
    case 'model-not-found':
      return `The model \`${model}\` does not exist or you do not have access to it.`;
    case 'context-length':
      return `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`;
    case 'rate-limit':
      return `Rate limit reached for ${model} in organization org-scripted on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2s. Visit https://platform.openai.com/account/rate-limits to learn more.`;
    case 'quota-exceeded':
      return 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';
    case 'server-error':
      return 'The server had an error while processing your request. Sorry about that!';
    case 'overloaded':
      return 'The engine is currently overloaded, please try again later';
  }
}

/** The real API echoes the key it rejected with its middle masked; providers must not pass even that on. */
function maskedKey(headers: IncomingHttpHeaders): string {
  const key = (headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  return key.length > 12 ? `${key.slice(0, 5)}${'*'.repeat(key.length - 9)}${key.slice(-4)}` : '***';
}

function errorBody(api: ScriptedApi, kind: ScriptedErrorKind, message: string): unknown {
  if (api === 'anthropic') {
    const type = {
      'invalid-api-key': 'authentication_error',
      'model-not-found': 'not_found_error',
      'context-length': 'invalid_request_error',
      'rate-limit': 'rate_limit_error',
      'quota-exceeded': 'invalid_request_error',
      'server-error': 'api_error',
      overloaded: 'overloaded_error',
    }[kind];
    return { type: 'error', error: { type, message }, request_id: 'req_scripted' };
  }
  const [type, code, param] = {
    'invalid-api-key': ['invalid_request_error', 'invalid_api_key', null],
    'model-not-found': ['invalid_request_error', 'model_not_found', null],
    'context-length': ['invalid_request_error', 'context_length_exceeded', 'messages'],
    'rate-limit': ['tokens', 'rate_limit_exceeded', null],
    'quota-exceeded': ['insufficient_quota', 'insufficient_quota', null],
    'server-error': ['server_error', null, null],
    overloaded: ['server_error', null, null],
  }[kind];
  return { error: { message, type, param, code } };
}

// ---- Timing ----------------------------------------------------------------------------------------------------

/** Sleeps, but wakes early when the client goes away so a cancelled request does not keep the test waiting. */
function sleepUnlessClosed(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
    res.once('close', done);
  });
}
