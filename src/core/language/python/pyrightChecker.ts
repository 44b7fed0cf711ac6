import type {
  CheckerDescription,
  CheckerRun,
  CheckerRunOptions,
  FileErrors,
  LanguageChecker,
  LanguageError,
  OverlayText,
} from '../../graph/semantics';
import type { SourceFileSystem } from '../../graph/sourceFiles';
import { ShadowTree } from '../../check/toolchain/shadowTree';
import { CheckQueue, lineStart, skippedRun } from '../../check/toolchain/checkerRuns';
import { secondsText } from '../../check/toolchain/runProgram';
import type { SemanticsOptions } from '../languageSupport';
import { moduleNameOf, pythonImporters } from './pythonImporters';
import { pyrightRuntimeFor, type PyrightRuntime } from './pyrightRuntime';
import { PyrightServer, type DiskChange, type LspDiagnostic } from './pyrightServer';

/**
 * Python's checker: pyright (issue 26), kept warm as a language server, on the changed files and the files that import
 * them. The server runs on a shadow of the workspace (shadowTree.ts), so a module the batch creates or deletes is
 * seen as created or deleted by the imports of the others; every other text of the batch is an open document. Both
 * sides of the comparison come from the same warm server: the texts the batch was built on, then the batch's.
 *
 * Only errors count (warnings and hints are the project's business). An unresolved import of a module that is not
 * the workspace's (`Import "requests" could not be resolved`) only says a package is not installed: it is marked as
 * an environment error and set aside.
 */

/** How long one check may take (the first one starts the server and reads the project). */
export const DEFAULT_CHECK_TIME_LIMIT_MS = 120_000;
/** A server left unused this long is stopped; the next check starts another. */
const IDLE_STOP_MS = 10 * 60_000;

const PYTHON_FILE = /\.pyi?$/;

export class PyrightChecker implements LanguageChecker {
  private runtime: PyrightRuntime | undefined | null = null;
  private server: PyrightServer | undefined;
  private starting: Promise<PyrightServer> | undefined;
  private shadow: ShadowTree | undefined;
  /** Versions of the workspace's Python files at the last check: what changed since is announced to the server. */
  private versions = new Map<string, string>();
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly queue = new CheckQueue();

  constructor(
    private readonly fileSystem: SourceFileSystem,
    private readonly options: SemanticsOptions = {},
  ) {}

  checker(): CheckerDescription | undefined {
    return this.runtimeOf()?.description;
  }

  compare(
    before: ReadonlyMap<string, OverlayText>,
    after: ReadonlyMap<string, OverlayText>,
    options: CheckerRunOptions = {},
  ): Promise<CheckerRun> {
    // One check at a time: both sides of a check are states of the same server.
    return this.queue.run(() => this.compareNow(before, after, options));
  }

  private async compareNow(
    before: ReadonlyMap<string, OverlayText>,
    after: ReadonlyMap<string, OverlayText>,
    options: CheckerRunOptions,
  ): Promise<CheckerRun> {
    const runtime = this.runtimeOf();
    const changed = [...after.keys()].filter((file) => PYTHON_FILE.test(file));
    if (runtime === undefined)
      return skippedRun(
        undefined,
        'pyright was not found (name its folder with the scalpel.checkers setting or --checker python=DIR)',
      );
    const limit = this.options.timeLimitMs ?? DEFAULT_CHECK_TIME_LIMIT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), limit);
    });
    try {
      const result = await Promise.race([this.check(runtime, before, after, changed, options), timeout]);
      if (result !== 'timeout') return result;
      // A server that did not answer in time may be stuck: the next check starts a new one.
      this.stopServer();
      return skippedRun(runtime.description, `pyright did not finish within ${secondsText(limit)}`);
    } catch (error) {
      options.signal?.throwIfAborted();
      this.stopServer();
      return skippedRun(
        runtime.description,
        `pyright failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
      this.armIdleStop();
    }
  }

  private async check(
    runtime: PyrightRuntime,
    before: ReadonlyMap<string, OverlayText>,
    after: ReadonlyMap<string, OverlayText>,
    changed: readonly string[],
    options: CheckerRunOptions,
  ): Promise<CheckerRun> {
    const { fileSystem } = this;
    const listing = fileSystem.listSourceFiles().filter((file) => PYTHON_FILE.test(file));
    const afterText = (file: string): string | undefined =>
      after.has(file) ? after.get(file) : fileSystem.readFile(file);
    const beforeText = (file: string): string | undefined =>
      before.has(file) ? before.get(file) : fileSystem.readFile(file);
    const importers = pythonImporters(changed, listing, afterText, options.maxImporters ?? 60);
    const scope = [...changed, ...importers.files];
    options.onProgress?.(
      `type check with pyright ${runtime.description.version}: ${changed.length} changed file${changed.length === 1 ? '' : 's'} and ${importers.files.length} importer${importers.files.length === 1 ? '' : 's'}`,
    );
    const server = await this.serverFor(runtime, listing, options);
    const shadow = this.shadowTree();
    const beforeErrors = new Map<string, FileErrors>();
    const afterErrors = new Map<string, FileErrors>();
    const workspaceModules = new Set(listing.map(moduleNameOf));
    try {
      // The side the batch was built on: files it creates do not exist, the others have the texts it read.
      for (const file of changed) if (before.get(file) === undefined) shadow.write(file, undefined);
      await server.changedOnDisk(changed.filter((f) => before.get(f) === undefined).map((f) => deletion(shadow, f)));
      await this.collect(server, shadow, scope, beforeText, workspaceModules, beforeErrors, options);

      // The batch's side: created and deleted files on the shadow's disk, the rest as open documents.
      const diskChanges: DiskChange[] = [];
      for (const file of changed) {
        const text = after.get(file);
        if (text === undefined) {
          await server.close(shadow.pathOf(file));
          shadow.write(file, undefined);
          diskChanges.push(deletion(shadow, file));
        } else if (before.get(file) === undefined) {
          shadow.write(file, text);
          diskChanges.push({ path: shadow.pathOf(file), type: 1 });
        }
      }
      await server.changedOnDisk(diskChanges);
      await this.collect(server, shadow, scope, afterText, workspaceModules, afterErrors, options);
    } finally {
      // The shadow shows the workspace again, and the server reads it from disk.
      const written = shadow.writtenFiles();
      shadow.restore();
      await server.closeAll();
      // A file the batch deleted is there again (created), one it created is gone (deleted): a "changed" for those
      // left the server without the module the workspace has, or with one it does not.
      await server.changedOnDisk(
        written.map((file) => ({
          path: shadow.pathOf(file),
          type: after.has(file) && after.get(file) === undefined ? 1 : before.get(file) === undefined ? 3 : 2,
        })),
      );
    }
    return {
      before: beforeErrors,
      after: afterErrors,
      checkedFiles: scope,
      omittedFiles: importers.omitted,
      checker: runtime.description,
    };
  }

  private async collect(
    server: PyrightServer,
    shadow: ShadowTree,
    scope: readonly string[],
    textOf: (file: string) => string | undefined,
    workspaceModules: ReadonlySet<string>,
    into: Map<string, FileErrors>,
    options: CheckerRunOptions,
  ): Promise<void> {
    const present: [string, string][] = [];
    for (const file of scope) {
      const text = textOf(file);
      if (text === undefined) continue;
      await server.setText(shadow.pathOf(file), text);
      present.push([file, text]);
    }
    for (const [file, text] of present) {
      options.signal?.throwIfAborted();
      const diagnostics = await server.diagnostics(shadow.pathOf(file));
      const errors = diagnostics
        .filter((d) => (d.severity ?? 1) === 1)
        .map((d) => languageErrorOf(d, text, workspaceModules));
      into.set(file, { text, errors });
    }
  }

  private async serverFor(
    runtime: PyrightRuntime,
    listing: readonly string[],
    options: CheckerRunOptions,
  ): Promise<PyrightServer> {
    const shadow = this.shadowTree();
    shadow.sync();
    const versions = new Map(listing.map((file) => [file, this.fileSystem.versionOf(file) ?? '']));
    if (this.server?.running === true) {
      // What changed on disk since the last check: the server re-reads those files.
      const changes: DiskChange[] = [];
      for (const [file, version] of versions) {
        const old = this.versions.get(file);
        if (old === undefined) changes.push({ path: shadow.pathOf(file), type: 1 });
        else if (old !== version) changes.push({ path: shadow.pathOf(file), type: 2 });
      }
      for (const file of this.versions.keys()) if (!versions.has(file)) changes.push(deletion(shadow, file));
      this.versions = versions;
      await this.server.changedOnDisk(changes);
      return this.server;
    }
    this.versions = versions;
    options.onProgress?.(`type check: starting pyright ${runtime.description.version}`);
    this.starting ??= PyrightServer.start(runtime.serverScript, shadow.root);
    try {
      this.server = await this.starting;
    } finally {
      this.starting = undefined;
    }
    return this.server;
  }

  private shadowTree(): ShadowTree {
    this.shadow ??= new ShadowTree(this.fileSystem.root, {
      label: 'pyright',
      // Folders pyright skips anyway, and what a Python project builds.
      skip: (file) => file === 'node_modules' || file.endsWith('/node_modules') || file.endsWith('__pycache__'),
    });
    return this.shadow;
  }

  private runtimeOf(): PyrightRuntime | undefined {
    if (this.runtime === null) this.runtime = pyrightRuntimeFor(this.fileSystem.root, this.options.toolchain);
    return this.runtime;
  }

  private armIdleStop(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.stopServer(), IDLE_STOP_MS);
    this.idleTimer.unref();
  }

  private stopServer(): void {
    this.server?.dispose();
    this.server = undefined;
    this.versions = new Map();
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    this.stopServer();
    this.shadow?.dispose();
    this.shadow = undefined;
  }
}

function deletion(shadow: ShadowTree, file: string): DiskChange {
  return { path: shadow.pathOf(file), type: 3 };
}

/** An LSP diagnostic as the type check reads it: an offset, pyright's rule, and whether it is the environment's. */
function languageErrorOf(
  diagnostic: LspDiagnostic,
  text: string,
  workspaceModules: ReadonlySet<string>,
): LanguageError {
  const { line, character } = diagnostic.range.start;
  const start = offsetOf(text, line, character);
  const code = diagnostic.code === undefined ? 'pyright' : String(diagnostic.code);
  const environment =
    code === 'reportMissingImports' ? missingPackage(diagnostic.message, workspaceModules) : undefined;
  return { start, code, message: diagnostic.message, ...(environment === undefined ? {} : { environment }) };
}

/**
 * For `Import "X" could not be resolved`: why it is the environment's (X is no module of the workspace, so a package
 * that is not installed), or undefined when X is relative or the workspace's own (the batch broke the import).
 */
export function missingPackage(message: string, workspaceModules: ReadonlySet<string>): string | undefined {
  const name = /Import "([^"]+)" could not be resolved/.exec(message)?.[1];
  if (name === undefined || name.startsWith('.')) return undefined;
  const top = name.split('.')[0] ?? name;
  for (const module of workspaceModules) {
    const parts = module.split('.');
    // `pkg.helpers` is the workspace's when some file's module, from any source root, starts with `pkg`.
    for (let i = 0; i < parts.length; i++) if (parts[i] === top) return undefined;
  }
  return `the package ${top} is not installed for the Python pyright uses`;
}

/** The offset of an LSP position (UTF-16 units, as JavaScript strings count) in `text`. */
function offsetOf(text: string, line: number, character: number): number {
  return Math.min(lineStart(text, line) + character, text.length);
}
