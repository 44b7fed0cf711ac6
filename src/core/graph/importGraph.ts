import type { CodeGraph } from './codeGraph';
import type { ImportEdge } from './semantics';

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
  private readonly mentionCache = new Map<string, readonly string[]>();
  private generation = 0;
  private augmenting: { generation: number; files: readonly string[] } | undefined;

  constructor(private readonly graph: CodeGraph) {}

  /** Brings the graph up to date with the disk: new, changed and deleted files. Cheap when little changed. */
  refresh(): void {
    const fs = this.graph.fileSystem;
    const listing = fs.listSourceFiles();
    const listingChanged =
      this.listing === undefined ||
      this.listing.length !== listing.length ||
      this.listing.some((file, i) => listing[i] !== file);
    if (listingChanged) {
      // A file that appeared or vanished can change what any specifier resolves to: resolve everything again.
      const present = new Set(listing);
      for (const file of [...this.entries.keys()]) if (!present.has(file)) this.entries.delete(file);
    }
    const toScan = new Set<string>(listingChanged ? this.entries.keys() : []);
    for (const file of listing) {
      const version = fs.versionOf(file);
      const entry = this.entries.get(file);
      if (version === undefined) {
        if (entry !== undefined) this.entries.delete(file);
        continue;
      }
      if (entry !== undefined && entry.version === version) continue;
      const text = fs.readFile(file);
      if (text === undefined) continue;
      this.entries.set(file, { version, text, imports: [] });
      toScan.add(file);
    }
    this.listing = listing;
    if (toScan.size === 0) return;
    // A new set only when the listing changed: the language keeps its resolutions while the set stays the same.
    if (listingChanged || this.known === undefined) this.known = new Set(listing);
    const known = this.known;
    for (const file of toScan) {
      const entry = this.entries.get(file);
      if (entry !== undefined) this.entries.set(file, { ...entry, imports: this.scanImports(file, entry.text, known) });
    }
    this.rebuildImporters();
    this.generation += 1;
    this.mentionCache.clear();
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

  /** Workspace files whose text holds this identifier as a whole word, sorted. */
  filesMentioning(identifier: string): readonly string[] {
    this.ensureBuilt();
    const cached = this.mentionCache.get(identifier);
    if (cached !== undefined) return cached;
    const word = new RegExp(`(?<![\\w$])${escapeRegExp(identifier)}(?![\\w$])`);
    const files = [...this.entries]
      .filter(([, entry]) => entry.text.includes(identifier) && word.test(entry.text))
      .map(([file]) => file)
      .sort();
    this.mentionCache.set(identifier, files);
    return files;
  }

  private ensureBuilt(): void {
    if (this.listing === undefined) this.refresh();
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
