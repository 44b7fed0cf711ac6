import type { FileOutline } from '../elements/element';
import { isOutlinable, outlineSource } from '../language/languages';
import { supportedNames } from '../language/languages';
import { ToolInputError, type ToolWorkspace } from './types';

export interface OutlineCacheLimits {
  /** Estimated bytes of memory the cached outlines may hold (each weighs about five times its source text). */
  readonly maxBytes: number;
  /** Outlines held at most, however small. */
  readonly maxEntries: number;
}

/** About 32 MB of outlines (some 6 MB of source): a working set, not every file a long session ever touched. */
export const DEFAULT_OUTLINE_CACHE_LIMITS: OutlineCacheLimits = { maxBytes: 32 * 1024 * 1024, maxEntries: 4_000 };

/** Insertions between two sweeps of deleted files. */
const SWEEP_EVERY = 200;

/** The memory an outline holds: its text, and element nodes with their slices of it (measured: about 5x the text). */
function weightOf(outline: FileOutline): number {
  return outline.text.length * 5 + 1_024;
}

/**
 * Outlines by file version: a file is parsed again only when its version changes. Bounded (least recently used out
 * first, by estimated size and count) and dropping files that are gone: a server outlining file after file once kept
 * every outline, deleted files too (issue 27: 1.3 GB after 1,500 files).
 */
export class OutlineCache {
  private readonly entries = new Map<string, { version: string; outline: FileOutline; weight: number }>();
  private bytes = 0;
  private insertions = 0;

  constructor(
    private readonly workspace: ToolWorkspace,
    private readonly limits: OutlineCacheLimits = DEFAULT_OUTLINE_CACHE_LIMITS,
  ) {}

  /** Outlines held, and their estimated bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The outline, or undefined for a missing or non-source file. */
  get(path: string): FileOutline | undefined {
    if (!isOutlinable(path)) return undefined;
    const version = this.workspace.version(path);
    const cached = this.entries.get(path);
    if (cached !== undefined && cached.version === version) {
      // Most recently used goes last: the eviction takes from the front.
      this.entries.delete(path);
      this.entries.set(path, cached);
      return cached.outline;
    }
    this.drop(path);
    const text = this.workspace.read(path);
    if (text === undefined) return undefined;
    const outline = outlineSource(path, text);
    const weight = weightOf(outline);
    this.entries.set(path, { version, outline, weight });
    this.bytes += weight;
    if (++this.insertions % SWEEP_EVERY === 0) this.sweep();
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.limits.maxBytes && this.entries.size <= this.limits.maxEntries) break;
      if (oldest === path) break;
      this.drop(oldest);
    }
    return outline;
  }

  getOrThrow(path: string): FileOutline {
    const outline = this.get(path);
    if (outline !== undefined) return outline;
    const exclusion = this.workspace.excludedBy?.(path);
    if (exclusion !== undefined)
      throw new ToolInputError(`${path} is excluded by ${exclusion}; Scalpel does not show it`);
    if (!isOutlinable(path)) throw new ToolInputError(`${path}: not a file Scalpel reads (${supportedNames()})`);
    throw new ToolInputError(`${path}: no such file in the workspace (paths are relative to its root)`);
  }

  /** Drops the outlines of files that are gone. */
  sweep(): void {
    for (const path of [...this.entries.keys()]) if (this.workspace.version(path) === 'missing') this.drop(path);
  }

  private drop(path: string): void {
    const entry = this.entries.get(path);
    if (entry === undefined) return;
    this.entries.delete(path);
    this.bytes -= entry.weight;
  }
}
