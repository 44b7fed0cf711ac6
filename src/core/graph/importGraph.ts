import { filesMatchingSync } from '../search/textSearch';
import type { CodeGraph } from './codeGraph';
import type { ImportEdge, OverlayText } from './semantics';

export type { ImportEdge } from './semantics';

/**
 * Who imports whom across the workspace, found cheaply: the file's language scans its import specifiers (for
 * TypeScript the compiler's pre-processor: no parse, no type check) and resolves them to workspace files (with the
 * file's own tsconfig). Built lazily on the first question and kept by file version: a refresh re-scans only the files
 * whose version changed. The type check asks it for the importers of the files a batch changes; the references
 * search and the agent tools (issue 12) ask it which files can see a declaration.
 */

interface IndexEntry {
  readonly version: string;
  readonly text: string;
  readonly imports: readonly ImportEdge[];
}

/** Identifier searches whose answers are kept (by the versions of the files) at most. */
const MAX_CACHED_MENTIONS = 500;

/** The files that mention a name, and how far the search that found them reached. */
export interface MentioningFiles {
  readonly files: readonly string[];
  /** Files searched: every listed source file (and the overlay's). */
  readonly searched: number;
  /** The search stopped at its time limit: `files` is partial. */
  readonly cutShort: boolean;
  /** The listing itself stopped at its limit: files beyond it were not searched. */
  readonly truncated: boolean;
}

export interface DependentFiles {
  /** Files that import one of the given files (directly, or through files that re-export them), nearest first. */
  readonly files: readonly string[];
  /** How many more there were beyond the limit. */
  readonly omitted: number;
}

export class ImportGraph {
  private readonly entries = new Map<string, IndexEntry>();
  private importers = new Map<string, Set<string>>();
  private listing: readonly string[] | undefined;
  private known: ReadonlySet<string> | undefined;
  private readonly mentionCache = new Map<string, MentioningFiles>();
  private generation = 0;
  private augmenting: { generation: number; files: readonly string[] } | undefined;
  /** Entries to scan again (the listing changed since they were scanned). */
  private unresolved = new Set<string>();
  /** Entries changed since the importers were last rebuilt. */
  private changed = false;

  constructor(private readonly graph: CodeGraph) {}

  /** Brings the graph up to date with the disk: new, changed and deleted files. Cheap when little changed. */
  refresh(): void {
    for (const step of this.refreshSteps()) void step;
  }

  /**
   * {@link refresh} with `turn` awaited between files: reading and scanning a thousand files takes seconds, and a
   * server answering other calls meanwhile gives them turns (src/core/tools/turns.ts). What a turn throws (a
   * cancelled call) stops the refresh between files; the next refresh goes on from what this one kept.
   */
  async refreshWithTurns(turn: () => Promise<void>): Promise<void> {
    for (const step of this.refreshSteps()) {
      void step;
      await turn();
    }
  }

  /** The refresh, one step per file read or scanned. */
  private *refreshSteps(): Generator<void> {
    const fs = this.graph.fileSystem;
    const listing = fs.listSourceFiles();
    const listingChanged =
      this.listing === undefined ||
      this.listing.length !== listing.length ||
      this.listing.some((file, i) => listing[i] !== file);
    if (listingChanged || this.known === undefined) {
      // A file that appeared or vanished can change what any specifier resolves to: resolve everything again.
      const present = new Set(listing);
      for (const file of [...this.entries.keys()]) if (!present.has(file)) this.entries.delete(file);
      this.unresolved = new Set(this.entries.keys());
      // A new set only when the listing changed: the language keeps its resolutions while the set stays the same.
      this.known = new Set(listing);
      this.changed = true;
    }
    const known = this.known;
    // Only the files of a language that scans imports are read and kept: the others are searched on disk. Each file
    // is scanned as it is read, so a refresh stopped between files leaves every entry whole; what it did not reach
    // (`unresolved`, `changed`) the next refresh finishes.
    for (const file of listing) {
      if (!this.scansImports(file)) continue;
      const version = fs.versionOf(file);
      const entry = this.entries.get(file);
      if (version === undefined) {
        if (entry !== undefined) this.entries.delete(file);
        this.changed ||= entry !== undefined;
        continue;
      }
      const current = entry !== undefined && entry.version === version;
      if (current && !this.unresolved.has(file)) continue;
      const text = current ? entry.text : fs.readFile(file);
      if (text === undefined) continue;
      this.entries.set(file, { version, text, imports: this.scanImports(file, text, known) });
      this.unresolved.delete(file);
      this.changed = true;
      yield;
    }
    this.listing = listing;
    if (!this.changed) return;
    this.rebuildImporters();
    this.generation += 1;
    this.mentionCache.clear();
    this.changed = false;
  }

  files(): readonly string[] {
    this.ensureBuilt();
    return this.listing ?? [];
  }

  textOf(file: string): string | undefined {
    this.ensureBuilt();
    return this.entries.get(file)?.text;
  }

  versionOf(file: string): string | undefined {
    this.ensureBuilt();
    return this.entries.get(file)?.version;
  }

  importsOf(file: string): readonly ImportEdge[] {
    this.ensureBuilt();
    return this.entries.get(file)?.imports ?? [];
  }

  /** Files that import this one directly, sorted. */
  importersOf(file: string): readonly string[] {
    this.ensureBuilt();
    return [...(this.importers.get(file) ?? [])].sort();
  }

  /**
   * Files that can see the exports of `files`: their direct importers, and the importers of any file that re-exports
   * them (a barrel `index.ts`), breadth first, at most `limit`. The given files themselves are not listed.
   */
  dependentsOf(files: readonly string[], limit = Number.POSITIVE_INFINITY): DependentFiles {
    this.ensureBuilt();
    const start = new Set(files);
    const found: string[] = [];
    const seen = new Set(files);
    let frontier = [...files];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const file of frontier) {
        for (const importer of this.importersOf(file)) {
          if (seen.has(importer)) continue;
          seen.add(importer);
          found.push(importer);
          const reExports = this.importsOf(importer).some((e) => e.reExport && e.target === file);
          if (reExports) next.push(importer);
        }
      }
      frontier = next;
    }
    const dependents = found.filter((f) => !start.has(f));
    return {
      files: dependents.slice(0, limit),
      omitted: Math.max(0, dependents.length - limit),
    };
  }

  /**
   * Files that augment a module or the global scope (`declare module '…'`, `declare global`): their declarations
   * change types in files that never import them, so every program that checks code needs them.
   */
  augmentingFiles(): readonly string[] {
    this.ensureBuilt();
    if (this.augmenting === undefined || this.augmenting.generation !== this.generation) {
      const pattern = /\bdeclare\s+(?:module\s*['"]|global\b)/;
      const files = [...this.entries].filter(([, entry]) => pattern.test(entry.text)).map(([file]) => file);
      this.augmenting = { generation: this.generation, files: files.sort() };
    }
    return this.augmenting.files;
  }

  /**
   * Workspace files whose text holds this identifier as a whole word, sorted: a text search of every listed file
   * (src/core/search/textSearch.ts), with `texts` and the unsaved files of the file system in place of the disk.
   * Kept until a file changes, unless texts are given.
   */
  filesMentioning(identifier: string, texts?: ReadonlyMap<string, OverlayText>): MentioningFiles {
    this.ensureBuilt();
    const overlay = this.overlayOf(texts);
    const version = this.versionsKey();
    const useCache = overlay.size === 0 && this.graph.fileSystem.unsavedFiles === undefined && version !== undefined;
    const key = `${version ?? ''}\0${identifier}`;
    const cached = useCache ? this.mentionCache.get(key) : undefined;
    if (cached !== undefined) return cached;
    const listing = this.listing ?? [];
    const files = overlay.size === 0 ? listing : [...new Set([...listing, ...overlay.keys()])];
    const found = filesMatchingSync(
      { text: identifier, mode: 'identifier' },
      { root: this.graph.fileSystem.root, files, texts: overlay },
    );
    const answer: MentioningFiles = {
      files: found.files,
      searched: files.length,
      cutShort: found.cutShort,
      truncated: this.graph.fileSystem.listingTruncated?.() === true,
    };
    if (useCache && !found.cutShort) {
      if (this.mentionCache.size >= MAX_CACHED_MENTIONS) this.mentionCache.clear();
      this.mentionCache.set(key, answer);
    }
    return answer;
  }

  /** The request's texts and the file system's unsaved ones: what a search reads instead of the disk. */
  private overlayOf(texts: ReadonlyMap<string, OverlayText> | undefined): Map<string, OverlayText> {
    const overlay = new Map<string, OverlayText>();
    const fs = this.graph.fileSystem;
    for (const file of fs.unsavedFiles?.() ?? []) overlay.set(file, fs.readFile(file));
    for (const [file, text] of texts ?? []) overlay.set(file, text);
    return overlay;
  }

  /**
   * Changes when a listed file's text may have; undefined when the graph cannot tell (files outside the index are
   * read from the disk by the search, and their versions are not followed).
   */
  private versionsKey(): string | undefined {
    const listing = this.listing ?? [];
    if (listing.some((file) => !this.entries.has(file))) return undefined;
    return `${this.generation}:${listing.length}`;
  }

  private ensureBuilt(): void {
    if (this.listing === undefined) this.refresh();
  }

  private scansImports(file: string): boolean {
    return this.graph.semanticsFor(file) !== undefined;
  }

  private scanImports(file: string, text: string, known: ReadonlySet<string>): ImportEdge[] {
    return this.graph.semanticsFor(file)?.scanImports(file, text, known) ?? [];
  }

  private rebuildImporters(): void {
    const importers = new Map<string, Set<string>>();
    for (const [file, entry] of this.entries) {
      for (const edge of entry.imports) {
        if (edge.target === undefined || edge.target === file) continue;
        let set = importers.get(edge.target);
        if (set === undefined) {
          set = new Set();
          importers.set(edge.target, set);
        }
        set.add(file);
      }
    }
    this.importers = importers;
  }
}
