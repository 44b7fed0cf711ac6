import { after, afterEach, before, beforeEach } from 'node:test';
import { inspect } from 'node:util';
import { createProvider, type ProviderConfig } from '../../src/core/llm/createProvider';
import type { ChatProvider } from '../../src/core/llm/provider';
import type { Logger } from '../../src/core/logger';
import { startScriptedLlmServer, type ScriptedLlmServer, type ScriptedLlmServerOptions } from './llmServer';

/**
 * The set-up most model-facing suites share: the scripted LLM server started for a describe block (or for each of its
 * tests) and closed after it, real SDK clients pointed at it, what they log, and the messages each request sent.
 * Call it inside a `describe`; the server exists once the suite's tests run.
 */

export interface LogLine {
  readonly level: string;
  readonly text: string;
}

export function recordingLogger(lines: LogLine[]): Logger {
  const record =
    (level: string) =>
    (message: string | Error, ...args: unknown[]): void => {
      lines.push({
        level,
        text: [message, ...args].map((part) => (typeof part === 'string' ? part : inspect(part))).join(' '),
      });
    };
  return {
    trace: record('trace'),
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
}

export interface ScriptedModel {
  /** The running server; throws outside the suite's tests. */
  readonly server: ScriptedLlmServer;
  /** What the providers made by {@link ScriptedModel.provider} logged (emptied before each test with `perTest`). */
  readonly logLines: LogLine[];
  /**
   * A real client of the scripted server: OpenAI's unless `config.provider` says otherwise, at the server's base URL
   * for that API, a test key and model, retries 5 ms apart, logging into `logLines`.
   */
  provider(config?: Partial<ProviderConfig>): ChatProvider;
  /** The environment that points the `scalpel` CLI at the server through OpenAI's client. */
  readonly cliEnv: NodeJS.ProcessEnv;
  /** The messages of the server's request `index`, each content as text. */
  messagesOf(index: number): Array<{ role: string; content: string }>;
  /** The user messages of request `index`, joined by newlines. */
  userMessageOf(index: number): string;
}

export interface ScriptedModelOptions {
  /** A fresh server for each test instead of one for the suite. */
  readonly perTest?: boolean;
  readonly server?: ScriptedLlmServerOptions;
}

export function useScriptedModel(options: ScriptedModelOptions = {}): ScriptedModel {
  let running: ScriptedLlmServer | undefined;
  const logLines: LogLine[] = [];
  const start = async (): Promise<void> => {
    running = await startScriptedLlmServer(options.server);
    logLines.length = 0;
  };
  const stop = async (): Promise<void> => {
    await running?.close();
    running = undefined;
  };
  if (options.perTest === true) {
    beforeEach(start);
    afterEach(stop);
  } else {
    before(start);
    after(stop);
  }
  const model: ScriptedModel = {
    get server(): ScriptedLlmServer {
      if (running === undefined) throw new Error('the scripted model runs only inside the tests of its suite');
      return running;
    },
    logLines,
    get cliEnv(): NodeJS.ProcessEnv {
      return {
        OPENAI_API_KEY: 'sk-cli-test',
        SCALPEL_BASE_URL: model.server.openaiBaseUrl,
        SCALPEL_MODEL: 'gpt-4o-mini',
      };
    },
    provider(config = {}) {
      const name = config.provider ?? 'openai';
      const server = model.server;
      return createProvider(
        {
          provider: name,
          baseUrl: name === 'anthropic' ? server.anthropicBaseUrl : server.openaiBaseUrl,
          apiKey: 'sk-test',
          model: name === 'anthropic' ? 'claude-test' : 'gpt-4o-mini',
          retryDelayMs: 5,
          ...config,
        },
        recordingLogger(logLines),
      );
    },
    messagesOf(index) {
      const body = model.server.requests[index]?.body;
      return (body?.messages ?? []).map((m) => ({ role: m.role, content: String(m.content) }));
    },
    userMessageOf(index) {
      return model
        .messagesOf(index)
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .join('\n');
    },
  };
  return model;
}
