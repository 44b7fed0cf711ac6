import { LineIndex } from '../elements/lines';
import { elementsAtOffset } from '../elements/resolve';
import type { CodeGraph } from '../graph/codeGraph';
import { languageFor } from '../language/languages';
import {
  describeChecker,
  errorCodeLabel,
  hashText,
  type CheckerDescription,
  type FileErrors,
  type LanguageChecker,
  type OverlayText,
  type WorkspaceSemantics,
} from '../graph/semantics';
import { briefMessage, compareErrors, relativeMessage } from './newErrors';

/**
 * Type-aware verification of a batch before anything is written: the language's checker's diagnostics (for
 * TypeScript, the compiler's) of the changed
 * files and of the workspace files that import them, once with the files as they are and once with the batch's
 * texts (both in memory), compared by the rule of newErrors.ts: an error whose code and message the file already had
 * is old, however many copies the batch adds, so an edit that shifts code, or writes one more line like the file's
 * others, turns nothing old into new. Errors that only say the environment lacks something (a package not installed,
 * the project's configuration) are set aside and reported apart. A language without semantics is checked the same way
 * by its {@link LanguageChecker} (pyright, a toolchain on PATH), which finds both sides itself.
 */

export interface ProposedFileChange {
  /** Workspace-relative path. */
  readonly file: string;
  /** The text before the batch (what the edit was built on); undefined for a file the batch creates. */
  readonly before: string | undefined;
  /** The text after the batch; undefined for a file the batch deletes. */
  readonly after: string | undefined;
}

export interface NewTypeError {
  readonly file: string;
  /** 1-based line and column in the file after the batch. */
  readonly line: number;
  readonly column: number;
  /** TypeScript's `TS2554` as a number (2554); another checker's own code as a string (`reportCallIssue`). */
  readonly code: number | string;
  readonly message: string;
  /** The innermost element holding the error, e.g. `src/app.ts/function[main]`; undefined at the top level. */
  readonly elementPath: string | undefined;
  /** The line as written, trimmed. */
  readonly lineText: string;
  /** The checker that reported it when it is not TypeScript's compiler (`pyright`, `cargo check`). */
  readonly checker?: string;
}

/** An error the batch caused that only says the environment lacks something. */
export interface EnvironmentError extends NewTypeError {
  /** Why, in a few words: `@types/node, not installed`, `the project's configuration`. */
  readonly reason: string;
}

export interface TypeCheckResult {
  /** Errors the batch caused: the ones that block it. */
  readonly newErrors: readonly NewTypeError[];
  /**
   * Errors the batch caused that only say the environment lacks something (a package that is not installed, missing
   * type definitions for node or a test runner, the project's configuration): they never block an edit and are never
   * sent to the model, but the user is told.
   */
  readonly environmentErrors: readonly EnvironmentError[];
  /** Every file whose diagnostics were compared: the changed files, then their importers. */
  readonly checkedFiles: readonly string[];
  /**
   * The batch left what importers see of the changed files as it was, so the importers kept their diagnostics and
   * were not checked again.
   */
  readonly importersUnaffected: boolean;
  /** Importers left unchecked because of `maxImporters`. */
  readonly omittedImporters: number;
  /** Which checker checked (TypeScript and its version); undefined when no file had one. */
  readonly checker: CheckerDescription | undefined;
  /** Per language of the changed files: which checker checked them, or why none did. */
  readonly checks: readonly LanguageCheck[];
}

/** What checked the changed files of one language, for every surface to say. */
export interface LanguageCheck {
  /** As a sentence names it: `Python`. */
  readonly language: string;
  /** The checker that ran; undefined when none could (then `note` says why). */
  readonly checker: CheckerDescription | undefined;
  /** Why no checker ran, or why it did not finish: the files then had their syntax and references checked only. */
  readonly note?: string;
  /** Files whose errors were compared. */
  readonly files: number;
}

/** What a verification's type check says beyond its problems, for every surface to show. */
export interface TypeCheckSummary {
  /** Which checker checked; undefined when no changed file had one. */
  readonly checker: CheckerDescription | undefined;
  /** Errors the batch caused that only reflect the environment: set aside, reported apart, never sent to the model. */
  readonly environmentErrors: readonly EnvironmentError[];
  readonly checkedFiles: number;
  readonly omittedImporters: number;
  /** Per language of the changed files: which checker checked them, or why none did. */
  readonly checks: readonly LanguageCheck[];
}

export interface TypeCheckOptions {
  /** At most this many importers are checked besides the changed files; default 60. */
  readonly maxImporters?: number;
  readonly signal?: AbortSignal;
  /** What the check is doing, for a progress line: the first check of a workspace builds its program for a while. */
  readonly onProgress?: (message: string) => void;
}

export const DEFAULT_MAX_IMPORTERS = 60;
/** Importers checked in the program of the batch rather than by comparing what they see of the changed files. */
const FEW_IMPORTERS = 10;

/** A diagnostic as found, before it is compared: the same fields as a new error. */
type FoundDiagnostic = NewTypeError;

interface CheckedDiagnostic extends FoundDiagnostic {
  /** Why it only says the environment lacks something, or follows from it; undefined for the code's own errors. */
  readonly environment: string | undefined;
}

export class TypeCheckService {
  /** Diagnostics of a file before a batch, keyed by the versions of what the file reaches through imports. */
  private readonly beforeCache = new Map<string, { key: string; diagnostics: readonly CheckedDiagnostic[] }>();
  /** Export surfaces before a batch, keyed like the diagnostics. */
  private readonly surfaceCache = new Map<string, { key: string; surface: string | undefined }>();

  constructor(private readonly graph: CodeGraph) {}

  async check(changes: readonly ProposedFileChange[], options: TypeCheckOptions = {}): Promise<TypeCheckResult> {
    const changed = changes.filter((c) => c.before !== c.after);
    const results: TypeCheckResult[] = [];
    const bySemantics = changed.filter((c) => this.graph.semanticsFor(c.file) !== undefined);
    if (bySemantics.length > 0) results.push(await this.checkSemantics(bySemantics, options));
    const byChecker = new Map<LanguageChecker, ProposedFileChange[]>();
    for (const change of changed) {
      const checker = this.graph.checkerFor(change.file);
      if (checker !== undefined) byChecker.set(checker, [...(byChecker.get(checker) ?? []), change]);
    }
    for (const [checker, files] of byChecker) results.push(await this.checkWith(checker, files, options));
    return mergeResults(results);
  }

  /** The changes of languages with semantics (TypeScript), checked by their compiler in this process. */
  private async checkSemantics(
    checked: readonly ProposedFileChange[],
    options: TypeCheckOptions,
  ): Promise<TypeCheckResult> {
    const { imports } = this.graph;
    imports.refresh();
    const changedFiles = checked.map((c) => c.file);
    const dependents = imports.dependentsOf(changedFiles, options.maxImporters ?? DEFAULT_MAX_IMPORTERS);
    const scope = [...changedFiles, ...dependents.files];

    const beforeTexts = new Map<string, OverlayText>(checked.map((c) => [c.file, c.before]));
    const afterTexts = new Map<string, OverlayText>(checked.map((c) => [c.file, c.after]));
    // Every program of this check holds the same files, augmentations included, so both sides see the same types.
    const roots = [...new Set([...scope, ...imports.augmentingFiles()])];
    const run = { roots, signal: options.signal, onProgress: options.onProgress };
    const checker = this.graph.semanticsFor(changedFiles[0] ?? '')?.checker?.();
    options.onProgress?.(
      `type check${checker === undefined ? '' : ` with ${checker.name} ${checker.version}`}: ${changedFiles.length} changed file${changedFiles.length === 1 ? '' : 's'} and ${dependents.files.length} importer${dependents.files.length === 1 ? '' : 's'}`,
    );
    // An edit that leaves what importers see of every changed file as it was (a body changed, a private helper
    // added) cannot give them new errors: they keep their diagnostics and are not checked again. Telling that takes
    // what importers saw before the batch, a program and checker of its own (cached for later rounds of the same
    // snapshot): worth it for many importers, while a few are checked in the program already built.
    const viaSurfaces = dependents.files.length > FEW_IMPORTERS;
    const afterSurfaces = new Map<string, string | undefined>();
    const after = await this.diagnosticsOf(
      viaSurfaces ? changedFiles : scope,
      afterTexts,
      run,
      false,
      viaSurfaces ? afterSurfaces : undefined,
    );
    const importersUnaffected =
      viaSurfaces && (await this.surfacesUnchanged(checked, beforeTexts, afterSurfaces, roots));
    if (viaSurfaces && !importersUnaffected)
      after.push(...(await this.diagnosticsOf(dependents.files, afterTexts, run, false)));
    // The side before the batch only where the side after has errors: a file without any has no new one. A correct
    // edit's first check then costs one checker pass over the files, not two.
    const withErrors = scope.filter((file) => after.some((d) => d.file === file));
    const before = await this.diagnosticsOf(withErrors, beforeTexts, run, true);
    const { newErrors, environmentErrors } = splitAdded(before, after);
    return {
      newErrors,
      environmentErrors,
      checkedFiles: scope,
      importersUnaffected,
      omittedImporters: dependents.omitted,
      checker,
      checks: [{ language: languageNameOf(changedFiles[0] ?? ''), checker, files: scope.length }],
    };
  }

  /**
   * The changes of one language checked by its {@link LanguageChecker}: both sides come from the checker, compared by
   * the same rule. A checker that could not run (not installed, out of time) leaves the batch to the syntax and
   * reference checks and says why.
   */
  private async checkWith(
    checker: LanguageChecker,
    changes: readonly ProposedFileChange[],
    options: TypeCheckOptions,
  ): Promise<TypeCheckResult> {
    const run = await checker.compare(
      new Map(changes.map((c) => [c.file, c.before])),
      new Map(changes.map((c) => [c.file, c.after])),
      {
        maxImporters: options.maxImporters ?? DEFAULT_MAX_IMPORTERS,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      },
    );
    const name = run.checker?.name;
    const sideOf = (side: ReadonlyMap<string, FileErrors>): CheckedDiagnostic[] =>
      [...side].flatMap(([file, errors]) =>
        this.located(file, errors).map((d) => (name === undefined ? d : { ...d, checker: name })),
      );
    const { newErrors, environmentErrors } = splitAdded(sideOf(run.before), sideOf(run.after));
    return {
      newErrors,
      environmentErrors,
      checkedFiles: run.checkedFiles,
      importersUnaffected: false,
      omittedImporters: run.omittedFiles,
      checker: run.checker,
      checks: [
        {
          language: languageNameOf(changes[0]?.file ?? ''),
          checker: run.checker,
          files: run.checkedFiles.length,
          ...(run.skipped === undefined ? {} : { note: run.skipped }),
        },
      ],
    };
  }

  private async surfacesUnchanged(
    changes: readonly ProposedFileChange[],
    beforeTexts: ReadonlyMap<string, OverlayText>,
    afterSurfaces: ReadonlyMap<string, string | undefined>,
    roots: readonly string[],
  ): Promise<boolean> {
    for (const change of changes) {
      if (change.before === undefined || change.after === undefined) return false;
      const after = afterSurfaces.get(change.file);
      const semantics = this.graph.semanticsFor(change.file);
      if (after === undefined || semantics === undefined) return false;
      const key = this.beforeKey(change.file, beforeTexts);
      let before = this.surfaceCache.get(change.file);
      if (before === undefined || before.key !== key) {
        before = { key, surface: semantics.surfaces([change.file], beforeTexts, roots).get(change.file) };
        this.surfaceCache.set(change.file, before);
      }
      if (before.surface === undefined || before.surface !== after) return false;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return true;
  }

  private async diagnosticsOf(
    scope: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    run: {
      readonly roots: readonly string[];
      readonly signal: AbortSignal | undefined;
      readonly onProgress: ((message: string) => void) | undefined;
    },
    cacheable: boolean,
    surfaces?: Map<string, string | undefined>,
  ): Promise<CheckedDiagnostic[]> {
    const present = scope.filter((file) => !texts.has(file) || texts.get(file) !== undefined);
    const groups = new Map<WorkspaceSemantics, string[]>();
    for (const file of present) {
      const semantics = this.graph.semanticsFor(file);
      if (semantics === undefined) continue;
      groups.set(semantics, [...(groups.get(semantics) ?? []), file]);
    }
    const found: CheckedDiagnostic[] = [];
    for (const [semantics, files] of groups) {
      // Before a batch, a file's diagnostics depend only on the workspace files it reaches through imports (and the
      // declaration files every program includes): when none of those changed, the last result stands, and a
      // request whose files all stand asks the checker nothing for the "before" side.
      const keys = new Map(cacheable ? files.map((file) => [file, this.beforeKey(file, texts)]) : []);
      const pending: string[] = [];
      for (const file of files) {
        const cached = this.beforeCache.get(file);
        if (cached !== undefined && cached.key === keys.get(file)) found.push(...cached.diagnostics);
        else pending.push(file);
      }
      if (pending.length === 0) continue;
      // The checker is rooted at every file of the group, so the program is the same whichever are pending.
      const errors = await semantics.errors(pending, texts, {
        roots: run.roots.filter((f) => !texts.has(f) || texts.get(f) !== undefined),
        ...(run.signal === undefined ? {} : { signal: run.signal }),
        ...(run.onProgress === undefined ? {} : { onProgress: run.onProgress }),
        ...(surfaces === undefined ? {} : { surfaceOf: pending }),
      });
      for (const file of pending) {
        const fileErrors = errors.get(file);
        surfaces?.set(file, fileErrors?.surface);
        const diagnostics = fileErrors === undefined ? [] : this.located(file, fileErrors);
        const key = keys.get(file);
        if (key !== undefined) this.beforeCache.set(file, { key, diagnostics });
        found.push(...diagnostics);
      }
    }
    return found;
  }

  /** File, line, element and line text of each error, its message workspace-relative. */
  private located(file: string, fileErrors: FileErrors): CheckedDiagnostic[] {
    const { text, errors } = fileErrors;
    if (errors.length === 0) return [];
    const outline = this.graph.outlineOf(file, text);
    const lines = new LineIndex(text);
    const root = this.graph.fileSystem.root;
    return errors.map((error) => {
      const line = lines.lineOf(error.start);
      return {
        file,
        line,
        column: error.start - lines.startOfLine(line) + 1,
        code: error.code,
        message: relativeMessage(error.message, root),
        elementPath: elementsAtOffset(outline, error.start).at(-1)?.path,
        lineText: lines.lineText(text, line).trim(),
        environment: error.environment,
      };
    });
  }

  /** The versions of everything a file's diagnostics can depend on inside the workspace, hashed. */
  private beforeKey(file: string, texts: ReadonlyMap<string, OverlayText>): string {
    const { imports } = this.graph;
    const reached = new Set([file]);
    const queue = [file];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      for (const edge of imports.importsOf(next)) {
        if (edge.target !== undefined && !reached.has(edge.target)) {
          reached.add(edge.target);
          queue.push(edge.target);
        }
      }
    }
    for (const declarationFile of imports.files())
      if (/\.d\.[cm]?ts$/.test(declarationFile)) reached.add(declarationFile);
    for (const augmenting of imports.augmentingFiles()) reached.add(augmenting);
    const versions = [...reached]
      .sort()
      .map((f) => `${f}@${this.graph.versionOf(f, texts)}`)
      .join('\n');
    return hashText(versions);
  }
}

/** The errors the batch added, the environment's set aside (the rule of newErrors.ts). */
function splitAdded(
  before: readonly CheckedDiagnostic[],
  after: readonly CheckedDiagnostic[],
): { newErrors: NewTypeError[]; environmentErrors: EnvironmentError[] } {
  const { added } = compareErrors(before, after);
  const newErrors: NewTypeError[] = [];
  const environmentErrors: EnvironmentError[] = [];
  for (const { environment, ...error } of added) {
    if (environment === undefined) newErrors.push(error);
    else environmentErrors.push({ ...error, reason: environment });
  }
  return { newErrors, environmentErrors };
}

/** The results of each language's check as one. */
function mergeResults(results: readonly TypeCheckResult[]): TypeCheckResult {
  return {
    newErrors: results.flatMap((r) => r.newErrors),
    environmentErrors: results.flatMap((r) => r.environmentErrors),
    checkedFiles: results.flatMap((r) => r.checkedFiles),
    importersUnaffected: results.every((r) => r.importersUnaffected),
    omittedImporters: results.reduce((sum, r) => sum + r.omittedImporters, 0),
    checker: results.find((r) => r.checker !== undefined)?.checker,
    checks: results.flatMap((r) => r.checks),
  };
}

function languageNameOf(file: string): string {
  return languageFor(file)?.displayName ?? file;
}

/**
 * Which checker checked each language of a batch, one line each, the same on every surface: `types checked with
 * pyright 1.1.414 (bundled with Scalpel)`, or `Go not type-checked: go is not on PATH`.
 */
export function describeChecks(checks: readonly LanguageCheck[]): string[] {
  return checks.map((check) => {
    if (check.checker === undefined || check.note !== undefined)
      return `${check.language} not type-checked: ${check.note ?? 'no checker for it'}`;
    const fallback = check.checker.fallbackReason;
    return `types checked with ${describeChecker(check.checker)}${fallback === undefined ? '' : `: ${fallback}`}`;
  });
}

/**
 * How many errors, by the checker that found them: `1 TypeScript error`, `2 pyright errors`, `1 TypeScript error and
 * 1 pyright error`.
 */
export function errorCountPhrase(errors: readonly Pick<NewTypeError, 'checker'>[]): string {
  const counts = new Map<string, number>();
  for (const error of errors)
    counts.set(error.checker ?? 'TypeScript', (counts.get(error.checker ?? 'TypeScript') ?? 0) + 1);
  if (counts.size === 0) return '0 errors';
  const parts = [...counts].map(([checker, n]) => `${n} ${checker} error${n === 1 ? '' : 's'}`);
  return parts.length === 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}

/** At most this many errors of one file are listed to the model or in a chat; the rest are counted. */
export const MAX_ERRORS_PER_FILE = 5;

/**
 * The new errors as the model and the user read them, file by file: where (the element, the line's code) and what,
 * each message cut to its first line (at most 300 characters), at most `perFile` per file and then `… and N more in
 * <file>`. No file line numbers: the model never saw them.
 */
export function describeTypeErrors(
  errors: readonly NewTypeError[],
  { perFile = MAX_ERRORS_PER_FILE }: { readonly perFile?: number } = {},
): string {
  const lines: string[] = [];
  for (const [file, inFile] of errorsByFile(errors)) {
    for (const error of inFile.slice(0, perFile)) {
      const where = error.elementPath ?? `${file} (top level)`;
      lines.push(`- ${where}: ${errorCodeLabel(error.code)} ${briefMessage(error.message)}`);
      if (error.lineText.length > 0) lines.push(`    at: ${clipLine(error.lineText)}`);
    }
    if (inFile.length > perFile) lines.push(`- … and ${inFile.length - perFile} more in ${file}`);
  }
  return lines.join('\n');
}

/** Errors grouped by file, in the order the files first appear. */
export function errorsByFile<T extends { readonly file: string }>(errors: readonly T[]): Map<string, T[]> {
  const byFile = new Map<string, T[]>();
  for (const error of errors) byFile.set(error.file, [...(byFile.get(error.file) ?? []), error]);
  return byFile;
}

export function clipLine(text: string): string {
  return text.length <= 160 ? text : `${text.slice(0, 159)}…`;
}
