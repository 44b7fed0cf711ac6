import type { FileOutline } from '../elements/element';
import { languageFor, outlineSource } from '../language/languages';
import { ImportGraph } from './importGraph';
import { hashText, type OverlayText, type ReferenceSemantics, type WorkspaceSemantics } from './semantics';
import type { SourceFileSystem } from './sourceFiles';

/** Outlines hold their file's text: enough for the files a few requests touch, never the whole workspace. */
const MAX_CACHED_OUTLINES = 300;

export interface CodeGraphOptions {
  /** Per language id, which copy of its checker to use (`typescript: 'bundled'`); see `SemanticsOptions.toolchain`. */
  readonly toolchains?: Readonly<Record<string, string>>;
}

/**
 * One code graph per workspace, shared by its consumers: the type check of a batch (importers of the changed files),
 * the references in a focused context, and the agent tools of issue 12 (references, callers, find_path). It owns the
 * languages' semantics (for TypeScript: warm LanguageServices) and the import graph; both are built lazily and kept
 * by file version, so a second request pays only for what changed. Everything here is language-neutral: a language
 * takes part through `LanguageSupport.semantics`.
 */
export class CodeGraph {
  readonly imports: ImportGraph;
  private readonly semantics = new Map<string, WorkspaceSemantics | undefined>();
  private readonly referenceSearches = new Map<string, ReferenceSemantics | undefined>();
  private readonly outlines = new Map<string, { key: string; outline: FileOutline }>();

  constructor(
    readonly fileSystem: SourceFileSystem,
    private readonly options: CodeGraphOptions = {},
  ) {
    this.imports = new ImportGraph(this);
  }

  /** The semantics of the file's language, created on first use; undefined for a language without them. */
  semanticsFor(file: string): WorkspaceSemantics | undefined {
    const language = languageFor(file);
    if (language === undefined) return undefined;
    if (!this.semantics.has(language.id)) {
      const toolchain = this.options.toolchains?.[language.id];
      this.semantics.set(
        language.id,
        language.semantics?.(this.fileSystem, toolchain === undefined || toolchain === '' ? {} : { toolchain }),
      );
    }
    return this.semantics.get(language.id);
  }

  /**
   * Where declarations of the file's language are used: its semantics' references, or the reference search of a
   * language without semantics (tree-sitter); undefined for a language with neither.
   */
  referencesFor(file: string): ReferenceSemantics | undefined {
    const semantics = this.semanticsFor(file);
    if (semantics !== undefined) return semantics;
    const language = languageFor(file);
    if (language === undefined) return undefined;
    if (!this.referenceSearches.has(language.id))
      this.referenceSearches.set(language.id, language.references?.(this.fileSystem));
    return this.referenceSearches.get(language.id);
  }

  /** A file's text with `texts` in place of the disk; undefined when it does not exist. */
  textOf(file: string, texts?: ReadonlyMap<string, OverlayText>): string | undefined {
    if (texts?.has(file) === true) return texts.get(file);
    return this.imports.textOf(file) ?? this.fileSystem.readFile(file);
  }

  /** A token that changes with the file's text, overlay included. */
  versionOf(file: string, texts?: ReadonlyMap<string, OverlayText>): string {
    if (texts?.has(file) === true) {
      const text = texts.get(file);
      return text === undefined ? 'deleted' : `o${hashText(text)}`;
    }
    return this.fileSystem.versionOf(file) ?? 'missing';
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
    for (const semantics of this.semantics.values()) semantics?.dispose();
    this.semantics.clear();
    this.referenceSearches.clear();
    this.outlines.clear();
  }
}
