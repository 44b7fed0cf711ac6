import { spawnSync } from 'node:child_process';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
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
import type { SemanticsOptions } from '../../language/languageSupport';
import { CheckQueue, lineStart, skippedRun } from './checkerRuns';
import { findExecutable, runProgram, secondsText, versionIn, type ProgramRun } from './runProgram';
import { ShadowTree } from './shadowTree';

/**
 * A language's checker that is a toolchain on PATH (`cargo check`; issue 26): run on a shadow of the workspace
 * (shadowTree.ts) once with the texts the batch was built on and once with the batch's, on every project the changed
 * files belong to, with a time limit for both runs together. When the program is not on PATH, the project is not
 * found, or the run fails without reporting errors in code (dependencies that cannot be fetched offline, a broken
 * manifest), the batch is left to the parse and the reason is said in one line. What differs between toolchains (how
 * a project is found, the command, its output) is a {@link ToolchainSpec}.
 */

export interface ToolchainSpec {
  /** The executable to find on PATH (`cargo`); a setting may name another path. */
  readonly executable: string;
  /** The arguments that make it print its version; default `--version`. */
  readonly versionArgs?: readonly string[];
  /** As messages name the checker: `cargo check`. */
  readonly name: string;
  /** The language's files (`.rs`). */
  readonly files: RegExp;
  /** Label of the shadow tree's folder. */
  readonly label: string;
  /** Workspace entries the shadow leaves out (build output) and files it copies rather than links (lock files). */
  readonly skip?: (relativePath: string) => boolean;
  readonly copy?: (relativePath: string) => boolean;
  /**
   * The project folder (workspace-relative, '' for the root) a changed file belongs to; undefined when there is none.
   * `text` is the file's text in the batch.
   */
  projectOf(file: string, text: string | undefined, exists: (file: string) => boolean): string | undefined;
  /**
   * The arguments that check the project in `projectPath` (the shadow's folder of the project); `files` are the
   * shadow's paths of the language's files in the project on this side of the batch.
   */
  args(projectPath: string, files: readonly string[], workspaceRoot: string): readonly string[];
  /**
   * Further runs of the same program after the first, each with its arguments (`go build` reports every type error of
   * a package, then `go vet` its tests); their errors join the first run's, one reported twice on a line counted once.
   */
  moreRuns?(projectPath: string, files: readonly string[]): readonly (readonly string[])[];
  /** Environment additions for the run (a target folder kept between checks). */
  env?(workspaceRoot: string): NodeJS.ProcessEnv;
  /**
   * The errors the run reported, each with the absolute path of its file as the tool wrote it (resolved against
   * `projectPath` when relative), 1-based line and column; or a failure that is no error in code.
   */
  parse(run: ProgramRun, projectPath: string): { readonly errors: readonly ToolError[] } | { readonly failure: string };
}

/**
 * The nearest folder at or above a file's own that holds `manifest` (`Cargo.toml`, `go.mod`), workspace-relative ('' for
 * the root); undefined when none does. What `projectOf` is for toolchains whose project is a manifest's folder.
 */
export function nearestFolderWith(
  file: string,
  manifest: string,
  exists: (file: string) => boolean,
): string | undefined {
  let folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  for (;;) {
    if (exists(folder === '' ? manifest : `${folder}/${manifest}`)) return folder;
    if (folder === '') return undefined;
    folder = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
  }
}

export interface ToolError {
  /** Absolute, or relative to the project folder. */
  readonly path: string;
  readonly line: number;
  /** 1-based, in characters. */
  readonly column: number;
  readonly code: string;
  readonly message: string;
  /** Why the error only says the environment lacks something (a library not on the classpath). */
  readonly environment?: string;
}

/** How long both runs of one check may take together, by default. */
const DEFAULT_TIME_LIMIT_MS = 120_000;

export class ToolchainChecker implements LanguageChecker {
  private description: CheckerDescription | undefined | null = null;
  private executable: string | undefined;
  private shadow: ShadowTree | undefined;
  /** Files an earlier check wrote: written again from disk, so the tool sees them newer than its cached build. */
  private readonly touched = new Set<string>();
  private readonly queue = new CheckQueue();

  constructor(
    private readonly spec: ToolchainSpec,
    private readonly fileSystem: SourceFileSystem,
    private readonly options: SemanticsOptions = {},
  ) {}

  checker(): CheckerDescription | undefined {
    if (this.description !== null) return this.description;
    const choice = this.options.toolchain;
    const wanted = choice === undefined || choice === '' || choice === 'bundled' ? this.spec.executable : choice;
    this.executable = findExecutable(wanted);
    if (this.executable === undefined) {
      this.description = undefined;
      return undefined;
    }
    const answer = spawnSync(this.executable, [...(this.spec.versionArgs ?? ['--version'])], {
      encoding: 'utf8',
      timeout: 15_000,
      windowsHide: true,
    });
    const version = versionIn(`${answer.stdout ?? ''} ${answer.stderr ?? ''}`) ?? 'unknown';
    this.description = {
      name: this.spec.name,
      version,
      source: wanted === this.spec.executable ? 'path' : 'setting',
      location: this.executable,
    };
    return this.description;
  }

  compare(
    before: ReadonlyMap<string, OverlayText>,
    after: ReadonlyMap<string, OverlayText>,
    options: CheckerRunOptions = {},
  ): Promise<CheckerRun> {
    // One check at a time: both share the shadow and the tool's build folder.
    return this.queue.run(() => this.compareNow(before, after, options));
  }

  private async compareNow(
    before: ReadonlyMap<string, OverlayText>,
    after: ReadonlyMap<string, OverlayText>,
    options: CheckerRunOptions,
  ): Promise<CheckerRun> {
    const description = this.checker();
    const executable = this.executable;
    if (description === undefined || executable === undefined)
      return skippedRun(undefined, `${this.options.toolchain || this.spec.executable} is not on PATH`);
    const changed = [...after.keys()].filter((file) => this.spec.files.test(file));
    const exists = (file: string): boolean => this.fileSystem.versionOf(file) !== undefined;
    const projects = new Set<string>();
    for (const file of changed) {
      const project = this.spec.projectOf(file, after.get(file) ?? before.get(file), exists);
      if (project === undefined) return skippedRun(description, `no project of ${this.spec.name} holds ${file}`);
      projects.add(project);
    }
    const limit = this.options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
    const deadline = Date.now() + limit;
    const shadow = this.shadowTree();
    shadow.sync();
    const listing = this.fileSystem.listSourceFiles().filter((file) => this.spec.files.test(file));
    const sides = new Map<ReadonlyMap<string, OverlayText>, Map<string, FileErrors>>();
    try {
      for (const file of this.touched) if (!after.has(file)) shadow.write(file, this.fileSystem.readFile(file));
      // The batch's side first; the side before it only when that one has errors (without any, none is new).
      for (const side of [after, before]) {
        if (side === before && ![...(sides.get(after)?.values() ?? [])].some((f) => f.errors.length > 0)) break;
        for (const file of changed) {
          shadow.write(file, side.get(file));
          this.touched.add(file);
        }
        const errors = new Map<string, FileErrors>();
        for (const project of projects) {
          const why = await this.runOn(
            project,
            side,
            { listing, deadline, limit, description, executable },
            errors,
            options,
          );
          if (why !== undefined) return skippedRun(description, why);
        }
        sides.set(side, errors);
      }
    } finally {
      shadow.restore();
    }
    const checkedFiles = [
      ...changed,
      ...listing.filter(
        (file) => !changed.includes(file) && [...projects].some((p) => p === '' || file.startsWith(`${p}/`)),
      ),
    ];
    return {
      before: sides.get(before) ?? new Map(),
      after: sides.get(after) ?? new Map(),
      checkedFiles,
      omittedFiles: 0,
      checker: description,
    };
  }

  /** Runs the tool on one project with one side's texts in the shadow; the errors go `into`. Why it failed, if it did. */
  private async runOn(
    project: string,
    side: ReadonlyMap<string, OverlayText>,
    run: {
      readonly listing: readonly string[];
      readonly deadline: number;
      readonly limit: number;
      readonly description: CheckerDescription;
      readonly executable: string;
    },
    into: Map<string, FileErrors>,
    options: CheckerRunOptions,
  ): Promise<string | undefined> {
    const { description } = run;
    const shadow = this.shadowTree();
    options.signal?.throwIfAborted();
    options.onProgress?.(
      `type check with ${description.name} ${description.version} in ${project === '' ? 'the workspace root' : project}`,
    );
    const projectPath = project === '' ? shadow.root : shadow.pathOf(project);
    // The language's files of the project on this side: the workspace's, less those the batch deletes, with those it creates.
    const files = [...new Set([...run.listing, ...side.keys()])]
      .filter((file) => this.spec.files.test(file) && (project === '' || file.startsWith(`${project}/`)))
      .filter((file) => !side.has(file) || side.get(file) !== undefined)
      .map((file) => shadow.pathOf(file));
    const argumentLists = [
      this.spec.args(projectPath, files, this.fileSystem.root),
      ...(this.spec.moreRuns?.(projectPath, files) ?? []),
    ];
    for (const args of argumentLists) {
      const left = run.deadline - Date.now();
      const result =
        left <= 0
          ? undefined
          : await runProgram(run.executable, args, {
              cwd: projectPath,
              timeLimitMs: left,
              env: { ...process.env, ...this.spec.env?.(this.fileSystem.root) },
              ...(options.signal === undefined ? {} : { signal: options.signal }),
            });
      options.signal?.throwIfAborted();
      if (result === undefined || result.timedOut)
        return `${description.name} did not finish within ${secondsText(run.limit)}`;
      if (result.failedToStart !== undefined) return `${description.name} could not start (${result.failedToStart})`;
      const parsed = this.spec.parse(result, projectPath);
      if ('failure' in parsed) return `${description.name} failed: ${parsed.failure}`;
      for (const error of parsed.errors) this.add(into, shadow, projectPath, error, side);
    }
    return undefined;
  }

  /** An error in a workspace file (the tool also reports dependencies' files: those are not the batch's). */
  private add(
    into: Map<string, FileErrors>,
    shadow: ShadowTree,
    projectPath: string,
    error: ToolError,
    side: ReadonlyMap<string, OverlayText>,
  ): void {
    const absolute = isAbsolute(error.path) ? error.path : join(projectPath, error.path);
    const file = shadow.fileOf(absolute) ?? workspaceFileOf(this.fileSystem.root, absolute);
    if (file === undefined) return;
    const text = side.has(file) ? side.get(file) : this.fileSystem.readFile(file);
    if (text === undefined) return;
    const entry = into.get(file) ?? { text, errors: [] };
    const languageError: LanguageError = {
      start: offsetOf(text, error.line - 1, error.column - 1),
      code: error.code,
      message: error.message,
      ...(error.environment === undefined ? {} : { environment: error.environment }),
    };
    // One source checked as several targets (a binary and its tests), or by several runs, reports its errors once
    // for each: the same message on the same line is one error (two runs may place its column differently).
    const lineOf = (start: number): number => text.lastIndexOf('\n', start - 1);
    const repeated = entry.errors.some(
      (e) =>
        lineOf(e.start) === lineOf(languageError.start) &&
        e.code === languageError.code &&
        e.message === languageError.message,
    );
    if (!repeated) into.set(file, { text, errors: [...entry.errors, languageError] });
  }

  private shadowTree(): ShadowTree {
    this.shadow ??= new ShadowTree(this.fileSystem.root, {
      label: this.spec.label,
      ...(this.spec.skip === undefined ? {} : { skip: this.spec.skip }),
      ...(this.spec.copy === undefined ? {} : { copy: this.spec.copy }),
    });
    return this.shadow;
  }

  dispose(): void {
    this.shadow?.dispose();
    this.shadow = undefined;
  }
}

/** A path inside the real workspace (a tool that resolved a link), as a workspace-relative file. */
function workspaceFileOf(root: string, path: string): string | undefined {
  const inside = relative(root, path);
  if (inside === '' || inside.startsWith('..') || inside.startsWith(sep) || dirname(inside) === inside)
    return undefined;
  return inside.split(sep).join('/');
}

/** The offset of a 0-based line and character column in `text` (characters as code points, as compilers count). */
function offsetOf(text: string, line: number, column: number): number {
  let at = lineStart(text, line);
  for (let i = 0; i < column && at < text.length && text[at] !== '\n'; i++) {
    const code = text.codePointAt(at) ?? 0;
    at += code > 0xffff ? 2 : 1;
  }
  return at;
}
