import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';

/**
 * pyright's language server (`pyright-langserver --stdio`) as a warm checker: documents opened with the texts to
 * check, their errors asked for with LSP's pull diagnostics (`textDocument/diagnostic`, answered for the document as
 * it is now, so there is no race with a push of an older version), files changed on disk announced with
 * `workspace/didChangeWatchedFiles`. The JSON-RPC framing is vscode-jsonrpc's (the library VS Code's own language
 * client uses).
 *
 * The server reads `pyrightconfig.json` or `[tool.pyright]` of `pyproject.toml` at its root, and finds installed
 * packages through the Python interpreter on PATH, as pyright does on the command line.
 */

export interface LspDiagnostic {
  readonly range: { readonly start: { readonly line: number; readonly character: number } };
  /** 1 error, 2 warning, 3 information, 4 hint. */
  readonly severity?: number;
  readonly code?: string | number;
  readonly message: string;
}

/** A file change on disk as LSP names it: 1 created, 2 changed, 3 deleted. */
export interface DiskChange {
  readonly path: string;
  readonly type: 1 | 2 | 3;
}

export class PyrightServer {
  private readonly versions = new Map<string, number>();
  private busy = 0;

  private constructor(
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
  ) {}

  /** Starts the server on `root` and waits until it is initialized. */
  static async start(serverScript: string, root: string): Promise<PyrightServer> {
    const child = spawn(process.execPath, [serverScript, '--stdio'], {
      cwd: root,
      // In VS Code's extension host process.execPath is Electron: run it as Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['pipe', 'pipe', 'ignore'],
      windowsHide: true,
    });
    if (child.stdout === null || child.stdin === null) throw new Error('pyright: no pipes to the language server');
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    // Settings are the project's own (its pyright config file); the client adds none.
    connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) =>
      (params.items ?? []).map(() => ({})),
    );
    // Capability registrations, progress tokens, refresh requests: acknowledged, nothing to do.
    connection.onRequest(() => null);
    connection.onNotification(() => undefined);
    connection.listen();
    const server = new PyrightServer(child, connection);
    const exited = new Promise<never>((_, reject) => {
      child.once('error', (error) => reject(new Error(`pyright could not start: ${error.message}`)));
      child.once('exit', (code) => reject(new Error(`pyright's language server stopped (exit code ${code ?? '?'})`)));
    });
    exited.catch(() => undefined);
    const uri = pathToFileURL(root).href;
    await server.during(
      Promise.race([
        connection.sendRequest('initialize', {
          processId: process.pid,
          rootUri: uri,
          workspaceFolders: [{ uri, name: 'workspace' }],
          capabilities: {
            textDocument: { diagnostic: { dynamicRegistration: true } },
            workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: {} },
          },
          initializationOptions: {},
        }),
        exited,
      ]),
    );
    await connection.sendNotification('initialized', {});
    server.exited = exited;
    return server;
  }

  private exited: Promise<never> = new Promise(() => undefined);

  /** Whether the server process still runs. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Opens a document with this text, or gives an open one this text. */
  async setText(path: string, text: string): Promise<void> {
    const uri = pathToFileURL(path).href;
    const version = (this.versions.get(path) ?? 0) + 1;
    const wasOpen = this.versions.has(path);
    this.versions.set(path, version);
    if (wasOpen)
      await this.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    else
      await this.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'python', version, text },
      });
  }

  /** Closes a document: the server reads the file from disk again. */
  async close(path: string): Promise<void> {
    if (!this.versions.delete(path)) return;
    await this.connection.sendNotification('textDocument/didClose', {
      textDocument: { uri: pathToFileURL(path).href },
    });
  }

  async closeAll(): Promise<void> {
    for (const path of [...this.versions.keys()]) await this.close(path);
  }

  async changedOnDisk(changes: readonly DiskChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: changes.map((c) => ({ uri: pathToFileURL(c.path).href, type: c.type })),
    });
  }

  /** The diagnostics of an open document as it is now. */
  async diagnostics(path: string): Promise<readonly LspDiagnostic[]> {
    const answer = await this.during(
      Promise.race([
        this.connection.sendRequest('textDocument/diagnostic', {
          textDocument: { uri: pathToFileURL(path).href },
        }),
        this.exited,
      ]),
    );
    const items = (answer as { items?: unknown } | null)?.items;
    return Array.isArray(items) ? (items as LspDiagnostic[]) : [];
  }

  /** Keeps the process (and its pipes) from holding a finished CLI open: referenced only while work is pending. */
  async during<T>(work: Promise<T>): Promise<T> {
    this.busy += 1;
    this.setReferenced(true);
    try {
      return await work;
    } finally {
      this.busy -= 1;
      if (this.busy === 0) this.setReferenced(false);
    }
  }

  private setReferenced(referenced: boolean): void {
    const handles = [this.child, this.child.stdin, this.child.stdout] as (ChildProcess | Socket | null)[];
    for (const handle of handles) {
      if (handle === null) continue;
      if (referenced) handle.ref();
      else handle.unref();
    }
  }

  dispose(): void {
    if (!this.running) return;
    const kill = setTimeout(() => this.child.kill(), 2_000);
    kill.unref();
    void this.connection
      .sendRequest('shutdown')
      .then(() => this.connection.sendNotification('exit'))
      .catch(() => this.child.kill())
      .finally(() => this.connection.dispose());
    this.setReferenced(false);
  }
}
