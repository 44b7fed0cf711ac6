import type { ElementNode } from '../../elements/element';
import { parseElementPath } from '../../elements/elementPath';
import { isOutlinable } from '../../elements/outline';
import { elementsAtOffset, resolveElementPath } from '../../elements/resolve';
import { CodeGraph as SharedCodeGraph } from '../../graph/codeGraph';
import { isReferable, ReferenceFinder } from '../../graph/references';
import type { SourceFileSystem } from '../../graph/sourceFiles';
import { errorCodeLabel } from '../../graph/semantics';
import { MAX_RENAME_FILES, planRename, RENAME_LANGUAGES } from '../../graph/renamePlan';
import type { OutlineCache } from '../outlineCache';
import { ToolInputError, type ToolWorkspace } from '../types';
import type {
  CodeGraph,
  DeclarationLookup,
  GraphDiagnostic,
  ImplementationLookup,
  ReferenceAnswer,
  RenamePlan,
  UseEdge,
  UseSite,
} from './codeGraph';
import { declarationLookup, implementationLookup } from './navigation';

/**
 * The agent tools' code graph over the shared one of src/core/graph (issue 18's "one index, two consumers"): the
 * references the focused context lists, the uses the language's semantics resolve, and the checker's diagnostics.
 * The workspace the tools see (exclusions, unsaved documents in VS Code) is the file system it reads.
 */

const MAX_CODE_CHARS = 160;
/** References of an element with many uses: the tools page through them, so every mentioning file is searched. */
const MAX_SEARCHED_FILES = MAX_RENAME_FILES;

export { RENAME_LANGUAGES };

function fileSystemOf(workspace: ToolWorkspace): SourceFileSystem {
  const unsaved = workspace.unsavedFiles?.bind(workspace);
  return {
    root: workspace.root,
    listSourceFiles: () => workspace.listSourceFiles(),
    versionOf: (file) => (workspace.read(file) === undefined ? undefined : workspace.version(file)),
    readFile: (file) => workspace.read(file),
    ...(unsaved === undefined ? {} : { unsavedFiles: unsaved }),
  };
}

export class WorkspaceGraph implements CodeGraph {
  private readonly graph: SharedCodeGraph;
  private readonly finder: ReferenceFinder;
  /** Answers for the workspace as it is; paging through a long list asks again. Emptied when any file changes. */
  private readonly answers = new Map<string, ReferenceAnswer | UseEdge[]>();
  private answersVersion = '';

  constructor(
    private readonly workspace: ToolWorkspace,
    private readonly outlines: OutlineCache,
  ) {
    this.graph = new SharedCodeGraph(fileSystemOf(workspace));
    this.finder = new ReferenceFinder(this.graph);
  }

  /** The import index was read once with turns; later refreshes read only what changed, at once. */
  private prepared = false;

  async prepare(turn: () => Promise<void>): Promise<void> {
    if (this.prepared) return;
    await this.graph.imports.refreshWithTurns(turn);
    this.prepared = true;
  }

  /** The cached answer to `key`, or `compute`'s, kept until a file of the workspace changes. */
  private cached<T extends ReferenceAnswer | UseEdge[]>(key: string, compute: () => T): T {
    const version = this.workspace
      .listSourceFiles()
      .map((file) => `${file}\0${this.workspace.version(file)}`)
      .join('\n');
    if (version !== this.answersVersion) {
      this.answers.clear();
      this.answersVersion = version;
    }
    const known = this.answers.get(key);
    if (known !== undefined) return known as T;
    const answer = compute();
    this.answers.set(key, answer);
    return answer;
  }

  private elementOrThrow(path: string): { file: string; element: ElementNode } {
    let file: string;
    try {
      file = parseElementPath(path).file;
    } catch (error) {
      throw new ToolInputError(error instanceof Error ? error.message : String(error));
    }
    const outline = this.outlines.getOrThrow(file);
    const resolved = resolveElementPath(outline, path);
    if (!resolved.ok) {
      throw new ToolInputError(
        `${resolved.message}${resolved.suggestions.length === 0 ? '' : `; nearest: ${resolved.suggestions.join(', ')}`}`,
      );
    }
    return { file, element: resolved.element };
  }

  /** The innermost element at an offset of a file's text, or the file itself. */
  private enclosing(file: string, text: string, offset: number): string {
    return elementsAtOffset(this.graph.outlineOf(file, text), offset).at(-1)?.path ?? file;
  }

  async references(path: string): Promise<ReferenceAnswer> {
    return this.cached(`references ${path}`, () => this.findReferences(path));
  }

  async rename(path: string, newName: string): Promise<RenamePlan> {
    const { file, element } = this.elementOrThrow(path);
    if (!isReferable(element)) throw new ToolInputError(`${element.path} has no name that code can refer to`);
    const plan = planRename(this.graph, file, element, newName);
    if (plan === undefined) throw new ToolInputError(`${file} has no rename: ${RENAME_LANGUAGES}`);
    return plan;
  }

  async declarations(path: string, name: string, line?: number): Promise<DeclarationLookup> {
    const { file, segments } = parseElementPathOrThrow(path);
    const element = segments.length === 0 ? undefined : this.elementOrThrow(path).element;
    return declarationLookup(this.graph, this.workspace, this.outlines, file, element, name, line);
  }

  async implementations(path: string): Promise<ImplementationLookup> {
    const { file, element } = this.elementOrThrow(path);
    if (!isReferable(element)) throw new ToolInputError(`${element.path} has no name that code can refer to`);
    return implementationLookup(this.graph, this.outlines, file, element);
  }

  async uses(path: string): Promise<UseEdge[]> {
    return this.cached(`uses ${path}`, () => this.findUses(path));
  }

  private findReferences(path: string): ReferenceAnswer {
    const { file, element } = this.elementOrThrow(path);
    if (element.kind === 'import' || element.kind === 'statement' || element.kind === 'export') {
      throw new ToolInputError(`${element.path} is a ${element.kind}; ask for the references of a declared element`);
    }
    if (!isReferable(element)) throw new ToolInputError(`${element.path} has no name that code can refer to`);
    const found = this.finder.referencesOf(file, element.path, { maxFiles: MAX_SEARCHED_FILES });
    if (found.notSearched !== undefined)
      throw new ToolInputError(`the references of ${element.path} were not searched: ${found.notSearched}; use search`);
    const sites: UseSite[] = found.sites
      .map((site) => ({
        file: site.file,
        line: site.line,
        element: site.elementPath ?? site.file,
        code: clip(site.lineText),
        call: site.isCall,
        ...(site.byName === true ? { byName: true as const } : {}),
      }))
      .sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
    const gaps = [
      ...(found.unsearched === undefined ? [] : [`${found.unsearched} more files that mention the name not searched`]),
      ...(found.partial === undefined ? [] : [found.partial]),
    ];
    return { sites, resolution: found.resolution ?? 'compiler', gaps };
  }

  private findUses(path: string): UseEdge[] {
    const { file, element } = this.elementOrThrow(path);
    const semantics = this.graph.semanticsFor(file);
    if (semantics === undefined) return [];
    const text = this.graph.textOf(file);
    const edges = new Map<string, { kind: 'call' | 'ref'; count: number; file: string; line: number }>();
    for (const hit of semantics.uses(file, element, new Map())) {
      // A JSON module (resolveJsonModule), a stylesheet, an asset: no elements to step through (issue 27: find_path
      // failed with an internal error on the first JSON import).
      if (!isOutlinable(hit.declarationFile)) continue;
      const target = this.enclosing(hit.declarationFile, hit.declarationText, hit.declarationStart);
      if (target === hit.declarationFile || target === element.path || element.path.startsWith(`${target}/`)) continue;
      const edge = edges.get(target);
      if (edge === undefined) {
        edges.set(target, {
          kind: hit.isCall ? 'call' : 'ref',
          count: 1,
          file,
          line: lineAt(text ?? '', hit.start),
        });
      } else {
        edge.count += 1;
        if (hit.isCall) edge.kind = 'call';
      }
    }
    return [...edges.entries()]
      .map(([target, edge]) => ({ target, ...edge }))
      .sort((a, b) => (a.kind === b.kind ? a.line - b.line : a.kind === 'call' ? -1 : 1));
  }

  async diagnostics(
    files: readonly string[],
    texts: ReadonlyMap<string, string | undefined> = new Map(),
  ): Promise<GraphDiagnostic[]> {
    const found: GraphDiagnostic[] = [];
    const byLanguage = new Map<NonNullable<ReturnType<SharedCodeGraph['semanticsFor']>>, string[]>();
    for (const file of files) {
      const semantics = this.graph.semanticsFor(file);
      if (semantics === undefined) continue;
      byLanguage.set(semantics, [...(byLanguage.get(semantics) ?? []), file]);
    }
    for (const [semantics, group] of byLanguage) {
      const results = await semantics.errors(group, texts, { allCategories: true });
      for (const file of group) {
        const result = results.get(file);
        // A file the earlier state did not have has no errors there.
        if (result === undefined && texts.has(file)) continue;
        if (result === undefined) throw new ToolInputError(`${file}: not among the workspace's source files`);
        for (const error of result.errors) {
          const { line, column } = positionAt(result.text, error.start);
          found.push({
            file,
            line,
            column,
            severity: error.category ?? 'error',
            code: errorCodeLabel(error.code),
            message: error.message.replace(/\n\s*/g, ' ').slice(0, 300),
            element: this.enclosing(file, result.text, error.start),
            lineText: lineTextAt(result.text, error.start),
          });
        }
      }
    }
    return found;
  }
}

function parseElementPathOrThrow(path: string): ReturnType<typeof parseElementPath> {
  try {
    return parseElementPath(path);
  } catch (error) {
    throw new ToolInputError(error instanceof Error ? error.message : String(error));
  }
}

function clip(code: string): string {
  return code.length > MAX_CODE_CHARS ? `${code.slice(0, MAX_CODE_CHARS - 1)}…` : code;
}

function lineAt(text: string, offset: number): number {
  return positionAt(text, offset).line;
}

function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function lineTextAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end < 0 ? text.length : end).trim();
}
