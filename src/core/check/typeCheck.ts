import { ts } from 'ts-morph';
import { elementsAtOffset } from '../elements/resolve';
import { isOutlinable } from '../elements/outline';
import type { CodeGraph } from '../graph/codeGraph';
import { hashText, type OverlayText } from '../graph/tsWorkspace';

/**
 * Type-aware verification of a batch before anything is written: the TypeScript checker's diagnostics of the changed
 * files and of the workspace files that import them, once with the files as they are and once with the batch's
 * texts (both in memory), compared. Only errors the batch adds count: a missing dependency or an error the code
 * already had shows up on both sides and never blocks an edit. An error is matched by its code, its message, the
 * text of its line and the element it sits in, not by line number, so an edit that shifts code does not turn the
 * errors below it into new ones.
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
  /** `TS2554` and the like, as a number: 2554. */
  readonly code: number;
  readonly message: string;
  /** The innermost element holding the error, e.g. `src/app.ts/function[main]`; undefined at the top level. */
  readonly elementPath: string | undefined;
  /** The line as written, trimmed. */
  readonly lineText: string;
}

export interface TypeCheckResult {
  /** Errors the batch adds: the ones that block it. */
  readonly newErrors: readonly NewTypeError[];
  /**
   * New errors that only say the environment lacks something (a package that is not installed, missing type
   * definitions for node or JSX): a missing dependency never blocks an edit, but the caller may mention them.
   */
  readonly environmentErrors: readonly NewTypeError[];
  /** Errors the code had before and the batch removed. */
  readonly fixedErrors: number;
  /** Every file whose diagnostics were compared: the changed files, then their importers. */
  readonly checkedFiles: readonly string[];
  /** Importers left unchecked because of `maxImporters`. */
  readonly omittedImporters: number;
}

export interface TypeCheckOptions {
  /** At most this many importers are checked besides the changed files; default 60. */
  readonly maxImporters?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_MAX_IMPORTERS = 60;

interface FoundDiagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: number;
  readonly message: string;
  readonly elementPath: string | undefined;
  readonly lineText: string;
}

export class TypeCheckService {
  /** Diagnostics of a file in the state before a batch, by file and the versions of every file its program holds. */
  private readonly beforeCache = new Map<string, { key: string; diagnostics: readonly FoundDiagnostic[] }>();

  constructor(private readonly graph: CodeGraph) {}

  async check(changes: readonly ProposedFileChange[], options: TypeCheckOptions = {}): Promise<TypeCheckResult> {
    const checked = changes.filter((c) => isOutlinable(c.file) && c.before !== c.after);
    if (checked.length === 0) {
      return { newErrors: [], environmentErrors: [], fixedErrors: 0, checkedFiles: [], omittedImporters: 0 };
    }
    const { imports, workspace } = this.graph;
    imports.refresh();
    const changedFiles = checked.map((c) => c.file);
    const dependents = imports.dependentsOf(changedFiles, options.maxImporters ?? DEFAULT_MAX_IMPORTERS);
    const scope = [...changedFiles, ...dependents.files];

    const beforeTexts = new Map<string, OverlayText>(checked.map((c) => [c.file, c.before]));
    const afterTexts = new Map<string, OverlayText>(checked.map((c) => [c.file, c.after]));
    try {
      workspace.setOverlay(beforeTexts);
      const before = await this.diagnosticsOf(scope, beforeTexts, true, options.signal);
      workspace.setOverlay(afterTexts);
      const after = await this.diagnosticsOf(scope, afterTexts, false, options.signal);
      const { added, removed } = compareDiagnostics(before, after);
      return {
        newErrors: added.filter((e) => !isEnvironmentError(e)),
        environmentErrors: added.filter(isEnvironmentError),
        fixedErrors: removed,
        checkedFiles: scope,
        omittedImporters: dependents.omitted,
      };
    } finally {
      workspace.clearOverlay();
    }
  }

  private async diagnosticsOf(
    scope: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    cacheable: boolean,
    signal: AbortSignal | undefined,
  ): Promise<FoundDiagnostic[]> {
    const { workspace } = this.graph;
    const present = scope.filter((file) => !texts.has(file) || texts.get(file) !== undefined);
    const groups = new Map<string, { config: ReturnType<typeof workspace.configFor>; files: string[] }>();
    for (const file of present) {
      const config = workspace.configFor(file);
      const key = config.configPath ?? '<defaults>';
      const group = groups.get(key) ?? { config, files: [] };
      group.files.push(file);
      groups.set(key, group);
    }
    const found: FoundDiagnostic[] = [];
    for (const [configKey, { config, files }] of groups) {
      // Before a batch, a file's diagnostics depend only on the workspace files it reaches through imports (and the
      // declaration files every program includes): when none of those changed, the last result stands, and a
      // request whose files all stand builds no program for the "before" side at all.
      const keys = new Map(cacheable ? files.map((file) => [file, this.beforeKey(configKey, file)]) : []);
      const pending = files.filter((file) => {
        const cached = this.beforeCache.get(file);
        return !(cached !== undefined && cached.key === keys.get(file));
      });
      for (const file of files) {
        if (!pending.includes(file)) found.push(...(this.beforeCache.get(file)?.diagnostics ?? []));
      }
      if (pending.length === 0) continue;
      const service = workspace.serviceFor(config, files);
      const program = service.getProgram();
      if (program === undefined) continue;
      for (const file of pending) {
        signal?.throwIfAborted();
        const diagnostics = this.fileDiagnostics(service, program, file);
        const key = keys.get(file);
        if (key !== undefined) this.beforeCache.set(file, { key, diagnostics });
        found.push(...diagnostics);
        // Checking a large importer takes a while; let the event loop breathe between files.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    return found;
  }

  /** The versions of everything a file's diagnostics can depend on inside the workspace, hashed. */
  private beforeKey(configKey: string, file: string): string {
    const { imports, workspace } = this.graph;
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
    const versions = [...reached]
      .sort()
      .map((f) => `${f}@${workspace.scriptVersion(workspace.absolute(f))}`)
      .join('\n');
    return hashText(`${configKey}\0${versions}`);
  }

  private fileDiagnostics(service: ts.LanguageService, program: ts.Program, file: string): FoundDiagnostic[] {
    const absolutePath = this.graph.workspace.absolute(file);
    const sourceFile = program.getSourceFile(absolutePath);
    if (sourceFile === undefined) return [];
    const diagnostics = [
      ...service.getSyntacticDiagnostics(absolutePath),
      ...service.getSemanticDiagnostics(absolutePath),
    ].filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (diagnostics.length === 0) return [];
    const outline = this.graph.outlineOf(file, sourceFile.text);
    return diagnostics.map((d) => {
      const start = d.start ?? 0;
      const { line, character } = sourceFile.getLineAndCharacterOfPosition(start);
      const lineStarts = sourceFile.getLineStarts();
      const lineText = sourceFile.text.slice(lineStarts[line] ?? 0, lineStarts[line + 1] ?? sourceFile.text.length);
      return {
        file,
        line: line + 1,
        column: character + 1,
        code: d.code,
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
        elementPath: elementsAtOffset(outline, start).at(-1)?.path,
        lineText: lineText.trim(),
      };
    });
  }
}

/**
 * The errors `after` has that `before` had not, as multisets: first matched exactly (code, message, line text and
 * element), then, for what is left, without the element (an edit that renames the function around an old error).
 */
export function compareDiagnostics(
  before: readonly FoundDiagnostic[],
  after: readonly FoundDiagnostic[],
): { added: NewTypeError[]; removed: number } {
  const loose = (d: FoundDiagnostic): string => `${d.file}\0${d.code}\0${d.message}\0${d.lineText}`;
  const exact = (d: FoundDiagnostic): string => `${loose(d)}\0${d.elementPath ?? ''}`;
  const remainingBefore = [...before];
  let unmatched = [...after];
  for (const keyOf of [exact, loose]) {
    const counts = new Map<string, number>();
    for (const d of remainingBefore) counts.set(keyOf(d), (counts.get(keyOf(d)) ?? 0) + 1);
    const stillUnmatched: FoundDiagnostic[] = [];
    for (const d of unmatched) {
      const count = counts.get(keyOf(d)) ?? 0;
      if (count > 0) {
        counts.set(keyOf(d), count - 1);
        const at = remainingBefore.findIndex((b) => keyOf(b) === keyOf(d));
        if (at >= 0) remainingBefore.splice(at, 1);
      } else {
        stillUnmatched.push(d);
      }
    }
    unmatched = stillUnmatched;
  }
  return { added: unmatched, removed: remainingBefore.length };
}

/** Codes whose message says a dependency or its type definitions are missing, not that the code is wrong. */
const ENVIRONMENT_CODES: ReadonlySet<number> = new Set([
  2580, // Cannot find name 'require' / 'module': install @types/node
  2581, // jQuery
  2582, // test globals (describe, it)
  2583, // a newer lib is needed
  2584, // the dom lib is needed
  2591, // 2580 with the tsconfig `types` hint
  2592, // 2581 with the hint
  2593, // 2582 with the hint
  7016, // a package without type declarations
  7026, // JSX without React's (or another) JSX namespace
  2875, // the JSX runtime module is not installed
]);
/** Cannot find module '…' (2307), or with a moduleResolution hint (2792). */
const MISSING_MODULE_CODES: ReadonlySet<number> = new Set([2307, 2792]);

/**
 * Whether an error only reflects the environment: the codes above, and a package import that does not resolve. A
 * relative import that does not resolve is a real error (a file the batch deleted or misnamed).
 */
export function isEnvironmentError(error: Pick<NewTypeError, 'code' | 'message'>): boolean {
  if (ENVIRONMENT_CODES.has(error.code)) return true;
  if (MISSING_MODULE_CODES.has(error.code)) {
    const module = /'([^']+)'/.exec(error.message)?.[1];
    return module !== undefined && !module.startsWith('.') && !module.startsWith('/');
  }
  return false;
}

/**
 * The new errors as the model and the user read them: where (file and element, the line's code) and what. No file
 * line numbers: the model never saw them.
 */
export function describeTypeErrors(errors: readonly NewTypeError[], limit = 10): string {
  const lines: string[] = [];
  for (const error of errors.slice(0, limit)) {
    const where = error.elementPath ?? `${error.file} (top level)`;
    lines.push(`- ${where}: TS${error.code} ${error.message.replace(/\n\s*/g, ' ')}`);
    if (error.lineText.length > 0) lines.push(`    at: ${clipLine(error.lineText)}`);
  }
  if (errors.length > limit) lines.push(`- … and ${errors.length - limit} more`);
  return lines.join('\n');
}

function clipLine(text: string): string {
  return text.length <= 160 ? text : `${text.slice(0, 159)}…`;
}
