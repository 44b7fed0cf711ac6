import { type MessagePort, Worker } from 'node:worker_threads';
import { ElementNotFoundError } from '../../elements/resolve';
import { loadAllLanguages } from '../../language/languages';
import { cancellationRequested, setCancellationCheck } from '../../graph/cancellation';
import type { Logger } from '../../logger';
import { WorkspacePathError } from '../../workspace/workspacePaths';
import { diskWorkspace } from '../diskWorkspace';
import { OutlineCache } from '../outlineCache';
import { CallCancelledError } from '../turns';
import { ToolInputError, type BatchVerifyRequest, type ToolWorkspace } from '../types';
import { normalizeWorkspacePath, type WorkspaceFilesOptions } from '../../workspace/workspaceFiles';
import type { Verification } from '../../edit/verification';
import type { SnapshotReader } from '../../ops/apply/types';
import type { CodeGraph } from './codeGraph';
import { WorkspaceGraph } from './workspaceGraph';

/**
 * The code graph of `scalpel mcp` in a worker thread (issue 27: "a slow call never blocks the others"). TypeScript's
 * compiler work is one synchronous call: building the program of a large project, or one `findReferences` across a
 * thousand files, held the server's only thread for up to 20 s, and every other call (a `ping` included) waited. The
 * walks take turns (turns.ts), but the compiler cannot. Here the graph (its outlines, its language services, its
 * answers) lives in a thread of its own over the same disk; the server's thread only posts the question and awaits the
 * answer, serving the other calls meanwhile. Graph queries are answered one at a time, in order, as the compiler is one.
 *
 * The worker reads the disk as the server does (diskWorkspace, stateless), so a file the server writes is seen at the
 * worker's next query: the graph keys its answers and its programs on each file's stamp.
 */

/** What the worker is started with (`workerData`). */
export interface GraphWorkerData {
  readonly scalpelGraphWorker: true;
  readonly root: string;
  /** The listing's exclusions (VS Code: `scalpel.exclude`, `files.exclude`, `search.exclude`). */
  readonly files?: WorkspaceFilesOptions;
  /** One Int32: the id of the call the server gave up (see GraphWorker.call). */
  readonly cancel: SharedArrayBuffer;
}

export function isGraphWorkerData(data: unknown): data is GraphWorkerData {
  return (
    typeof data === 'object' && data !== null && (data as { scalpelGraphWorker?: unknown }).scalpelGraphWorker === true
  );
}

type Method =
  'warm' | 'prepare' | 'references' | 'uses' | 'declarations' | 'implementations' | 'rename' | 'diagnostics' | 'verify';

/**
 * A batch's verification as it crosses to the worker: the texts the server's snapshot has read so far stand for those
 * files (the batch is resolved against one snapshot); the worker reads any other file the way the snapshot would.
 */
interface PostedVerifyRequest extends Omit<BatchVerifyRequest, 'snapshot'> {
  readonly texts: ReadonlyMap<string, string | undefined>;
}

/** What the worker is given by the program that starts it (the CLI: its own disk snapshot and edit service). */
export interface GraphWorkerHooks {
  /** A batch's verification, the same as the server's own would be (`BatchWriter.verify`). */
  readonly verify?: (request: BatchVerifyRequest) => Promise<Verification>;
  /** A snapshot of the disk at the worker's root, read lazily. */
  readonly snapshot?: () => SnapshotReader;
}

/** An editor's document with changes not saved: workspace-relative path, its text, its version. */
export type UnsavedDocument = readonly [path: string, text: string, version: string];

interface Call {
  readonly id: number;
  readonly method: Method;
  readonly args: readonly unknown[];
  /** The documents the editor holds unsaved when the call is made: the worker reads them instead of the disk. */
  readonly unsaved?: readonly UnsavedDocument[];
}

/** An error as it crosses threads: the tools tell the agent's mistakes (bad input, no such element) by their class. */
interface PostedError {
  readonly name: string;
  readonly message: string;
  readonly suggestions?: readonly string[];
  readonly path?: string;
}

interface Reply {
  readonly id: number;
  readonly value?: unknown;
  readonly error?: PostedError;
}

/**
 * A rename's places each carry their file's whole text; posted as they are, a file's text would be copied once per
 * place (a rename with 300 places in one 100 KB file: 30 MB). Long strings are posted once and referred to by index.
 * Maps and sets are spelled out (`$map`, `$set`); the answers are plain data otherwise (no object of theirs has a
 * single key named `$shared`, `$map` or `$set`).
 */
const SHARED_STRING_CHARS = 1_024;

interface Packed {
  readonly value: unknown;
  readonly strings: readonly string[];
}

function pack(value: unknown): Packed {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && v.length >= SHARED_STRING_CHARS) {
      let at = index.get(v);
      if (at === undefined) {
        at = strings.length;
        strings.push(v);
        index.set(v, at);
      }
      return { $shared: at };
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v instanceof Map) return { $map: [...v.entries()].map(([k, x]) => [walk(k), walk(x)]) };
    if (v instanceof Set) return { $set: [...v].map(walk) };
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return { value: walk(value), strings };
}

function unpack({ value, strings }: Packed): unknown {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      const shared = (v as { $shared?: unknown }).$shared;
      if (typeof shared === 'number' && Object.keys(v).length === 1) return strings[shared];
      const map = (v as { $map?: unknown }).$map;
      if (Array.isArray(map) && Object.keys(v).length === 1)
        return new Map((map as Array<[unknown, unknown]>).map(([k, x]) => [walk(k), walk(x)]));
      const set = (v as { $set?: unknown }).$set;
      if (Array.isArray(set) && Object.keys(v).length === 1) return new Set(set.map(walk));
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value);
}

function postedError(error: unknown): PostedError {
  if (error instanceof ElementNotFoundError)
    return { name: error.name, message: error.message, suggestions: error.suggestions };
  if (error instanceof WorkspacePathError) return { name: error.name, message: error.message, path: error.path };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

function revived(posted: PostedError): Error {
  let error: Error;
  if (posted.name === 'ToolInputError') error = new ToolInputError(posted.message);
  else if (posted.name === 'ElementNotFoundError') error = new ElementNotFoundError('', posted.suggestions ?? []);
  else if (posted.name === 'WorkspacePathError') error = new WorkspacePathError(posted.path ?? '', '');
  else {
    error = new Error(posted.message);
    error.name = posted.name;
  }
  // The message as the worker worded it (the constructors above would word it again).
  error.message = posted.message;
  return error;
}

/**
 * The worker's side: one {@link WorkspaceGraph} over the disk at `root`, answering the server's calls in order. A
 * call the server cancels is skipped if it has not started, and stopped where TypeScript next asks its cancellation
 * token if it has (the shared `cancel` slot holds the id of the call given up).
 */
export function serveGraphWorker(port: MessagePort, data: GraphWorkerData, hooks: GraphWorkerHooks = {}): void {
  let graph: WorkspaceGraph | undefined;
  const unsaved = new Map<string, { readonly text: string; readonly version: string }>();
  const ready = loadAllLanguages().then(() => {
    const workspace = withUnsaved(diskWorkspace(data.root, data.files), unsaved);
    graph = new WorkspaceGraph(workspace, new OutlineCache(workspace));
    return graph;
  });
  const cancel = new Int32Array(data.cancel);
  const skipped = new Set<number>();
  let running = 0;
  setCancellationCheck(() => running !== 0 && Atomics.load(cancel, 0) === running);
  // One call at a time, in the order posted: each waits for the one before it.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (message: Call | { readonly cancel: number }) => {
    if ('cancel' in message) {
      skipped.add(message.cancel);
      return;
    }
    const call = message;
    queue = queue.then(async () => {
      // The server no longer waits for it: its reply says only that it was skipped.
      if (skipped.delete(call.id)) {
        port.postMessage({ id: call.id, error: { name: 'CallSkipped', message: 'cancelled before it started' } });
        return;
      }
      let reply: Reply;
      running = call.id;
      unsaved.clear();
      for (const [path, text, version] of call.unsaved ?? []) unsaved.set(path, { text, version });
      try {
        const g = graph ?? (await ready);
        const value = await answer(g, call, hooks);
        reply = { id: call.id, value: pack(value) };
      } catch (error) {
        // TypeScript's OperationCanceledException is no Error: a throw while the call is given up is that.
        reply = {
          id: call.id,
          error: cancellationRequested()
            ? { name: 'OperationCanceledException', message: 'stopped at the cancellation' }
            : postedError(error),
        };
      } finally {
        running = 0;
        skipped.delete(call.id);
      }
      port.postMessage(reply);
    });
  });
}

/** The disk with an editor's unsaved documents in place of their files (as the editor's own tool workspace reads). */
function withUnsaved(
  disk: ToolWorkspace,
  unsaved: ReadonlyMap<string, { readonly text: string; readonly version: string }>,
): ToolWorkspace {
  return {
    ...disk,
    unsavedFiles: () => [...unsaved.keys()],
    read: (path) => {
      const document = unsaved.get(normalizeWorkspacePath(path));
      return document === undefined || disk.excludedBy?.(path) !== undefined ? disk.read(path) : document.text;
    },
    version: (path) => {
      const document = unsaved.get(normalizeWorkspacePath(path));
      return document === undefined ? disk.version(path) : `document:${document.version}`;
    },
  };
}

async function answer(graph: WorkspaceGraph, call: Call, hooks: GraphWorkerHooks): Promise<unknown> {
  const [a, b, c] = call.args as [unknown, unknown, unknown];
  switch (call.method) {
    case 'warm':
      // The parsers are loaded (`ready`): nothing else to do ahead of the first query.
      return undefined;
    case 'prepare':
      // No other call shares this thread: the read needs no turns.
      return graph.prepare(() => Promise.resolve());
    case 'references':
      return graph.references(a as string);
    case 'uses':
      return graph.uses(a as string);
    case 'declarations':
      return graph.declarations(a as string, b as string, c as number | undefined);
    case 'implementations':
      return graph.implementations(a as string);
    case 'rename':
      return graph.rename(a as string, b as string);
    case 'diagnostics':
      return graph.diagnostics(a as string[], (unpack(b as Packed) as Map<string, string | undefined>) ?? new Map());
    case 'verify': {
      if (hooks.verify === undefined || hooks.snapshot === undefined)
        throw new Error('this worker was started without a verification');
      const { texts, ...request } = unpack(a as Packed) as PostedVerifyRequest;
      const disk = hooks.snapshot();
      const snapshot: SnapshotReader = { read: (path) => (texts.has(path) ? texts.get(path) : disk.read(path)) };
      return hooks.verify({ ...request, snapshot });
    }
  }
}

export interface WorkerGraphOptions {
  /** The script the worker runs: one that calls {@link serveGraphWorker} when started with {@link GraphWorkerData}. */
  readonly script: string;
  readonly root: string;
  readonly logger: Logger;
  /** The listing's exclusions, as the server's own tool workspace has them. */
  readonly files?: WorkspaceFilesOptions;
  /** The editor's unsaved documents, asked at each call (VS Code); absent: the disk is the workspace. */
  readonly unsaved?: () => readonly UnsavedDocument[];
}

/**
 * The server's side of the worker: it starts the worker on the first call; if the worker dies (out of memory, a
 * crash), the calls it held fail with that reason and the next call starts a new one (cold again).
 */
export class GraphWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  /** Calls given up, by id: the worker's reply to one says whether it stopped. */
  private readonly dropped = new Map<number, Method>();
  /** The id of the call given up, which the worker's TypeScript reads through its cancellation token. */
  private readonly cancel = new Int32Array(new SharedArrayBuffer(4));
  /** Whether the worker has read the workspace (its first query builds the graph). */
  prepared = false;

  constructor(private readonly options: WorkerGraphOptions) {}

  private start(): Worker {
    const data: GraphWorkerData = {
      scalpelGraphWorker: true,
      root: this.options.root,
      ...(this.options.files === undefined ? {} : { files: this.options.files }),
      cancel: this.cancel.buffer as SharedArrayBuffer,
    };
    const worker = new Worker(this.options.script, { workerData: data, stdout: false, stderr: false });
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      const dropped = this.dropped.get(reply.id);
      if (dropped !== undefined) {
        this.dropped.delete(reply.id);
        this.options.logger.info(
          reply.error?.name === 'CallSkipped'
            ? `the code graph's worker skipped ${dropped}: cancelled before it started`
            : reply.error?.name === 'OperationCanceledException'
              ? `the code graph's worker stopped ${dropped} at its cancellation`
              : `the code graph's worker finished ${dropped} after its cancellation (the answer is dropped)`,
        );
      }
      if (waiting === undefined) return;
      this.pending.delete(reply.id);
      if (reply.error !== undefined) waiting.reject(revived(reply.error));
      else waiting.resolve(unpack(reply.value as Packed));
    });
    const stopped = (reason: string): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.prepared = false;
      if (this.pending.size > 0) this.options.logger.error(`the code graph's worker stopped: ${reason}`);
      for (const waiting of this.pending.values())
        waiting.reject(new Error(`the code graph's worker stopped (${reason}); ask again to start a new one`));
      this.pending.clear();
    };
    worker.on('error', (error) => stopped(error.message));
    worker.on('exit', (code) => stopped(`exit code ${code}`));
    // An idle worker does not keep the process alive; one with calls in flight does (see call).
    worker.unref();
    return worker;
  }

  /**
   * `method` answered by the worker. When `signal` aborts first, the call fails at once with
   * {@link CallCancelledError} and the worker drops it: before it starts, or where its compiler work next looks.
   */
  call<T>(method: Method, signal: AbortSignal | undefined, ...args: unknown[]): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(new CallCancelledError(`before the code graph's ${method}`));
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.pending.delete(id)) return;
        Atomics.store(this.cancel, 0, id);
        worker.postMessage({ cancel: id });
        this.dropped.set(id, method);
        this.settled(worker);
        reject(new CallCancelledError(`while the code graph's worker answered ${method}`));
      };
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, {
        resolve: (value) => {
          signal?.removeEventListener('abort', onAbort);
          this.settled(worker);
          resolve(value as T);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          this.settled(worker);
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      const unsaved = this.options.unsaved?.();
      worker.postMessage({ id, method, args, ...(unsaved === undefined ? {} : { unsaved }) } satisfies Call);
    });
  }

  private settled(worker: Worker): void {
    if (this.pending.size === 0) worker.unref();
  }

  /**
   * Starts the worker and has it load its parsers ahead of the first query (about a second of the worker's own time:
   * the bundle and the grammars), so that query waits for its own work only. Nothing of the workspace is read.
   */
  warm(): void {
    this.call('warm', undefined).catch((error: unknown) =>
      this.options.logger.warn(
        `the code graph's worker did not start: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }

  /** The code graph served by this worker, its calls cancelled with `signal`. */
  graph(signal?: AbortSignal): WorkerCodeGraph {
    return new WorkerCodeGraph(this, signal);
  }

  /**
   * Verifies a batch in the worker (its type check builds and checks programs: seconds, cold). `texts`: what the
   * request's snapshot has read so far, which the worker's reading of the batch must agree with.
   */
  verify(request: BatchVerifyRequest, texts: ReadonlyMap<string, string | undefined>): Promise<Verification> {
    const { snapshot: _snapshot, ...rest } = request;
    return this.call('verify', undefined, pack({ ...rest, texts } satisfies PostedVerifyRequest));
  }

  /** Ends the worker; calls in flight fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    await worker.terminate();
  }
}

/** A {@link CodeGraph} whose every query is answered by a {@link GraphWorker}. */
export class WorkerCodeGraph implements CodeGraph {
  constructor(
    private readonly worker: GraphWorker,
    private readonly signal?: AbortSignal,
  ) {}

  get ready(): boolean {
    return this.worker.prepared;
  }

  withSignal(signal: AbortSignal): WorkerCodeGraph {
    return this.worker.graph(signal);
  }

  async prepare(): Promise<void> {
    await this.worker.call<void>('prepare', this.signal);
    this.worker.prepared = true;
  }

  references(path: string): ReturnType<CodeGraph['references']> {
    return this.worker.call('references', this.signal, path);
  }

  uses(path: string): ReturnType<CodeGraph['uses']> {
    return this.worker.call('uses', this.signal, path);
  }

  declarations(path: string, name: string, line?: number): ReturnType<NonNullable<CodeGraph['declarations']>> {
    return this.worker.call('declarations', this.signal, path, name, line);
  }

  implementations(path: string): ReturnType<NonNullable<CodeGraph['implementations']>> {
    return this.worker.call('implementations', this.signal, path);
  }

  rename(path: string, newName: string): ReturnType<NonNullable<CodeGraph['rename']>> {
    return this.worker.call('rename', this.signal, path, newName);
  }

  diagnostics(
    files: readonly string[],
    texts: ReadonlyMap<string, string | undefined> = new Map(),
  ): ReturnType<CodeGraph['diagnostics']> {
    return this.worker.call('diagnostics', this.signal, [...files], pack(texts));
  }
}
