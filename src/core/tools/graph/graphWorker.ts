import { type MessagePort, Worker } from 'node:worker_threads';
import { ElementNotFoundError } from '../../elements/resolve';
import { loadAllLanguages } from '../../language/languages';
import type { Logger } from '../../logger';
import { WorkspacePathError } from '../../workspace/workspacePaths';
import { diskWorkspace } from '../diskWorkspace';
import { OutlineCache } from '../outlineCache';
import { ToolInputError, type BatchVerifyRequest } from '../types';
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
}

export function isGraphWorkerData(data: unknown): data is GraphWorkerData {
  return (
    typeof data === 'object' && data !== null && (data as { scalpelGraphWorker?: unknown }).scalpelGraphWorker === true
  );
}

type Method =
  'prepare' | 'references' | 'uses' | 'declarations' | 'implementations' | 'rename' | 'diagnostics' | 'verify';

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

interface Call {
  readonly id: number;
  readonly method: Method;
  readonly args: readonly unknown[];
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

/** The worker's side: one {@link WorkspaceGraph} over the disk at `root`, answering the server's calls in order. */
export function serveGraphWorker(port: MessagePort, data: GraphWorkerData, hooks: GraphWorkerHooks = {}): void {
  let graph: WorkspaceGraph | undefined;
  const ready = loadAllLanguages().then(() => {
    const workspace = diskWorkspace(data.root);
    graph = new WorkspaceGraph(workspace, new OutlineCache(workspace));
    return graph;
  });
  // One call at a time, in the order posted: each waits for the one before it.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (call: Call) => {
    queue = queue.then(async () => {
      let reply: Reply;
      try {
        const g = graph ?? (await ready);
        const value = await answer(g, call, hooks);
        reply = { id: call.id, value: pack(value) };
      } catch (error) {
        reply = { id: call.id, error: postedError(error) };
      }
      port.postMessage(reply);
    });
  });
}

async function answer(graph: WorkspaceGraph, call: Call, hooks: GraphWorkerHooks): Promise<unknown> {
  const [a, b, c] = call.args as [unknown, unknown, unknown];
  switch (call.method) {
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
}

/**
 * The server's side: a {@link CodeGraph} whose every query is answered by the worker. The worker starts on the first
 * query; if it dies (out of memory, a crash), the calls it held fail with that reason and the next query starts a new
 * one (cold again).
 */
export class WorkerCodeGraph implements CodeGraph {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private prepared = false;

  constructor(private readonly options: WorkerGraphOptions) {}

  /** Whether the worker has read the workspace (its first query builds the graph). */
  get ready(): boolean {
    return this.prepared;
  }

  private start(): Worker {
    const data: GraphWorkerData = { scalpelGraphWorker: true, root: this.options.root };
    const worker = new Worker(this.options.script, { workerData: data, stdout: false, stderr: false });
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
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

  private call<T>(method: Method, ...args: unknown[]): Promise<T> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, {
        resolve: (value) => {
          this.settled(worker);
          resolve(value as T);
        },
        reject: (error) => {
          this.settled(worker);
          reject(error);
        },
      });
      worker.postMessage({ id, method, args } satisfies Call);
    });
  }

  private settled(worker: Worker): void {
    if (this.pending.size === 0) worker.unref();
  }

  async prepare(): Promise<void> {
    await this.call<void>('prepare');
    this.prepared = true;
  }

  references(path: string): ReturnType<CodeGraph['references']> {
    return this.call('references', path);
  }

  uses(path: string): ReturnType<CodeGraph['uses']> {
    return this.call('uses', path);
  }

  declarations(path: string, name: string, line?: number): ReturnType<NonNullable<CodeGraph['declarations']>> {
    return this.call('declarations', path, name, line);
  }

  implementations(path: string): ReturnType<NonNullable<CodeGraph['implementations']>> {
    return this.call('implementations', path);
  }

  rename(path: string, newName: string): ReturnType<NonNullable<CodeGraph['rename']>> {
    return this.call('rename', path, newName);
  }

  diagnostics(
    files: readonly string[],
    texts: ReadonlyMap<string, string | undefined> = new Map(),
  ): ReturnType<CodeGraph['diagnostics']> {
    return this.call('diagnostics', [...files], pack(texts));
  }

  /**
   * Verifies a batch in the worker (its type check builds and checks programs: seconds, cold). `texts`: what the
   * request's snapshot has read so far, which the worker's reading of the batch must agree with.
   */
  verify(request: BatchVerifyRequest, texts: ReadonlyMap<string, string | undefined>): Promise<Verification> {
    const { snapshot: _snapshot, ...rest } = request;
    return this.call('verify', pack({ ...rest, texts } satisfies PostedVerifyRequest));
  }

  /** Ends the worker; calls in flight fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    await worker.terminate();
  }
}
