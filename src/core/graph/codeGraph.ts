import { outlineSource } from '../elements/outline';
import type { FileOutline } from '../elements/element';
import { ImportGraph } from './importGraph';
import type { SourceFileSystem } from './sourceFiles';
import { hashText, TsWorkspace } from './tsWorkspace';

/** Outlines hold their file's text: enough for the files a few requests touch, never the whole workspace. */
const MAX_CACHED_OUTLINES = 300;

/**
 * One code graph per workspace, shared by its consumers: the type check of a batch (importers of the changed files),
 * the references in a focused context, and the agent tools of issue 12 (references, callers, find_path). It owns the
 * compiler's view (TsWorkspace, warm LanguageServices) and the import graph; both are built lazily and kept by file
 * version, so a second request pays only for what changed.
 */
export class CodeGraph {
  readonly workspace: TsWorkspace;
  readonly imports: ImportGraph;
  private readonly outlines = new Map<string, { key: string; outline: FileOutline }>();

  constructor(fileSystem: SourceFileSystem) {
    this.workspace = new TsWorkspace(fileSystem);
    this.imports = new ImportGraph(this.workspace);
  }

  /** The element outline of a text, cached per file by the text's hash (a file's outline is asked for often). */
  outlineOf(file: string, text: string): FileOutline {
    const key = hashText(text);
    const cached = this.outlines.get(file);
    if (cached !== undefined && cached.key === key) {
      this.outlines.delete(file);
      this.outlines.set(file, cached);
      return cached.outline;
    }
    const outline = outlineSource(file, text);
    this.outlines.delete(file);
    this.outlines.set(file, { key, outline });
    // Oldest first: a Map keeps insertion order, so the first key is the one used longest ago.
    if (this.outlines.size > MAX_CACHED_OUTLINES) this.outlines.delete(this.outlines.keys().next().value ?? '');
    return outline;
  }

  dispose(): void {
    this.workspace.dispose();
    this.outlines.clear();
  }
}
