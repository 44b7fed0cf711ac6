import { statSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createTokenCounter, DEFAULT_ENCODING, isTokenEncoding } from '../../core/context/tokens';
import { createEditService, type EditService } from '../../core/edit/editService';
import type { Logger } from '../../core/logger';
import type { SnapshotReader } from '../../core/ops/apply/types';
import { appendToolCall } from '../../core/llm/metrics';
import {
  answerBudget,
  type BatchWriter,
  createToolEnv,
  diskWorkspace,
  listedTools,
  runTool,
  toolByName,
  TOOLS,
} from '../../core/tools';
import { GraphWorker } from '../../core/tools/graph/graphWorker';
import { clipped } from '../../core/tools/validateInput';
import { CliError, UsageError } from '../cliError';
import { type CliCommand, parseCommandArgs, parsePositiveInteger } from '../command';
import { metricsFilePath } from '../metricsFile';
import { BoundedStdioTransport } from '../mcpTransport';
import { checkWriteOrThrow, type DiskSnapshot, diskSnapshot, writeChanges } from '../writeChanges';
import { workspaceRoot } from '../workspaceFiles';

/**
 * The one adapter between the agent tools and the disk: the same snapshot, verification, pre-write gates and writer
 * as `scalpel apply` (checked against the disk again just before the write, all or nothing). An agent names no file
 * as the user does: every protected file is refused. TODO(#9): the core edit service replaces this function when it
 * serves the tools; nothing else in the MCP path writes.
 */
export function cliBatchWriter(root: string, worker?: GraphWorker): BatchWriter {
  const verifyHere = cliVerifier(root);
  // What each snapshot has read, for a verification in the worker (it must read the batch's files as they were read).
  const read = new WeakMap<SnapshotReader, Map<string, string | undefined>>();
  return {
    snapshot: () => {
      const disk = diskSnapshot(root);
      if (worker === undefined) return disk;
      const texts = new Map<string, string | undefined>();
      const recorded: DiskSnapshot = {
        fingerprints: disk.fingerprints,
        read(path) {
          const text = disk.read(path);
          texts.set(path, text);
          return text;
        },
      };
      read.set(recorded, texts);
      return recorded;
    },
    verify: (request) => {
      const texts = read.get(request.snapshot);
      // The type check builds programs (seconds, cold): in the worker, the server answers other calls meanwhile.
      return worker !== undefined && texts !== undefined ? worker.verify(request, texts) : verifyHere(request);
    },
    checkWrite: async (changes) => {
      try {
        await checkWriteOrThrow(root, changes);
        return undefined;
      } catch (error) {
        if (error instanceof CliError) return error.message;
        throw error;
      }
    },
    write: async (batch, signal) => {
      const files = batch.changes.map((c) => c.path);
      try {
        await checkWriteOrThrow(root, batch.changes);
        // The last moment a cancellation can still keep every file as it was (writeChanges is synchronous).
        if (signal?.aborted === true)
          return {
            status: 'cancelled',
            message: 'the call was cancelled before the write: nothing was written',
            files: [],
          };
        writeChanges(root, batch.changes);
        return {
          status: 'written',
          message: files.length === 0 ? 'no file changed' : `wrote ${files.join(', ')}`,
          files,
        };
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        return {
          status: /changed on disk|created by someone/.test(error.message) ? 'conflict' : 'failed',
          message: error.message,
          files: [],
        };
      }
    },
  };
}

/** `BatchWriter.verify` of the CLI: one edit service, whose type checker and reference search stay warm between calls. */
export function cliVerifier(root: string): BatchWriter['verify'] {
  let service: EditService | undefined;
  return ({ snapshot, operations, partial, verify, allowNewErrors }) => {
    service ??= createEditService({ workspaceRoot: root });
    return service.verify({
      snapshot,
      operations,
      partial,
      settings: { verify: verify ?? 'types' },
      allowNewErrors: allowNewErrors === true,
      allowBrokenReferences: allowNewErrors === true,
    });
  };
}

/** Logs to stderr: stdout carries the protocol. */
function stderrLogger(write: (text: string) => void): Logger {
  const line =
    (level: string) =>
    (message: string | Error, ...args: unknown[]): void =>
      write(
        `scalpel mcp ${level}: ${message instanceof Error ? message.message : message}${args.length > 0 ? ` ${args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ')}` : ''}\n`,
      );
  return {
    trace: () => undefined,
    debug: () => undefined,
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
  };
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary:
    'serve the agent tools (outline, context, find_symbols, search, references, find_path, apply, diagnostics) over MCP on stdio',
  usage: `Usage: scalpel mcp [--root DIR] [--max-tokens N] [--encoding E]

Runs a Model Context Protocol server on standard input and output for agents such as
Claude Code, Cursor or Cline. Paths in tool calls are relative to the root; apply writes
through the same verified, all-or-nothing path as "scalpel apply".

Options:
  --root DIR       workspace root (default: the current directory)
  --max-tokens N   token budget of one tool answer (default 10000; $SCALPEL_TOOL_MAX_TOKENS)
  --encoding E     tokenizer: o200k_base (default) or cl100k_base

Tool calls are recorded (answer tokens, time) in the metrics log that "scalpel stats" reads.
The code graph (references, declarations, rename's places, diagnostics) and the type check
of apply and rename run in a worker thread, so other calls are answered while the compiler
works; SCALPEL_GRAPH_WORKER=0 keeps them in process.`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      root: { type: 'string' },
      'max-tokens': { type: 'string' },
      encoding: { type: 'string' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`mcp takes no file arguments\n\n${this.usage}`);
    const root = workspaceRoot(io, values.root);
    try {
      if (!statSync(root).isDirectory()) throw new CliError(`--root ${root}: not a folder`);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`--root ${root}: no such folder`);
    }
    const encoding = values.encoding ?? DEFAULT_ENCODING;
    if (!isTokenEncoding(encoding))
      throw new UsageError(`--encoding must be o200k_base or cl100k_base, got "${encoding}"`);
    const maxTokens = parsePositiveInteger('max-tokens', values['max-tokens'] ?? io.env['SCALPEL_TOOL_MAX_TOKENS']);
    const budget = answerBudget(maxTokens);
    const logger = stderrLogger(io.stderr);
    // The code graph (TypeScript's compiler work: seconds on a large project) answers from a worker thread, so the
    // other calls are served meanwhile; SCALPEL_GRAPH_WORKER=0 keeps it on this thread (the bench's baseline).
    const worker =
      io.workerScript === undefined || io.env['SCALPEL_GRAPH_WORKER'] === '0'
        ? undefined
        : new GraphWorker({ script: io.workerScript, root, logger });
    const env = createToolEnv(
      diskWorkspace(root),
      cliBatchWriter(root, worker),
      createTokenCounter(encoding),
      logger,
      undefined,
      worker?.graph(),
    );
    const metricsFile = metricsFilePath(io.env, io.cwd);

    // The low-level Server rather than McpServer: McpServer.registerTool takes zod schemas, and the tool table's JSON
    // schemas are the ones VS Code and package.json use; one schema per tool, sent as-is.
    const server = new Server(
      { name: 'scalpel', version: io.env['SCALPEL_VERSION'] ?? '0.1.0' },
      {
        capabilities: { tools: {} },
        instructions:
          'Scalpel edits TypeScript, JavaScript, Python, Go, Rust, Java and C# by element paths such as ' +
          'src/user.ts/class[User]/method[validate]. The type check is TypeScript and JavaScript only; references ' +
          'cover every language (outside TypeScript found by name and resolved through imports); search finds text. ' +
          'Find elements with outline or find_symbols, read them with context, change them with apply (element ' +
          'operations, verified, all or nothing). Long answers come in pages: pass the cursor an answer gives.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const tool = toolByName(request.params.name);
      // An unknown tool is a protocol error, as the MCP specification says, not a tool's failed answer.
      if (tool === undefined)
        throw new McpError(
          ErrorCode.InvalidParams,
          `no tool "${clipped(request.params.name)}"; the tools are ${TOOLS.map((t) => t.name).join(', ')}`,
        );
      const progressToken = request.params._meta?.progressToken;
      let step = 0;
      const run = await runTool(tool, request.params.arguments ?? {}, env, {
        budget,
        surface: 'mcp',
        signal: extra.signal,
        ...(progressToken === undefined
          ? {}
          : {
              progress: (message: string) =>
                extra.sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken, progress: ++step, message },
                }),
            }),
        record: (record) => appendToolCall(metricsFile, record, (message) => logger.warn(message)),
      });
      return { content: [{ type: 'text', text: run.text }], isError: run.isError };
    });

    const transport = new BoundedStdioTransport(process.stdin, process.stdout, (message) => logger.warn(message));
    // Every protocol error (a line that is not JSON-RPC, a failed send) is a line on stderr, never silence.
    server.onerror = (error) => logger.error(`protocol: ${error.message}`);
    let reason = 'the client closed the connection';
    const closed = new Promise<void>((done) => {
      server.onclose = () => done();
      process.stdin.once('end', () => {
        reason = 'standard input closed';
        done();
      });
      process.stdin.once('error', (error) => {
        reason = `standard input failed: ${error.message}`;
        done();
      });
      io.signal.addEventListener('abort', () => done(), { once: true });
    });
    await server.connect(transport);
    logger.info(`serving ${TOOLS.length} tools for ${root}`);
    // The worker loads its bundle and parsers now, beside the first calls, rather than during the first graph query.
    worker?.warm();
    await closed;
    logger.info(`stopping: ${reason}`);
    await server.close();
    // A call still running (a graph build over a huge tree) must not keep a server nobody talks to alive: the process
    // ends now instead of when that call would have (issue 27: alive 60 s after its client was killed).
    setTimeout(() => process.exit(process.exitCode ?? 0), 100).unref();
    await worker?.close();
    return 0;
  },
};
