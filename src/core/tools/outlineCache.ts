import type { FileOutline } from '../elements/element';
import { isOutlinable, outlineSource } from '../elements/outline';
import { supportedNames } from '../language/languages';
import { ToolInputError, type ToolWorkspace } from './types';

/** Outlines by file version: a file is parsed again only when its version changes. */
export class OutlineCache {
  private readonly entries = new Map<string, { version: string; outline: FileOutline }>();

  constructor(private readonly workspace: ToolWorkspace) {}

  /** The outline, or undefined for a missing or non-source file. */
  get(path: string): FileOutline | undefined {
    if (!isOutlinable(path)) return undefined;
    const version = this.workspace.version(path);
    const cached = this.entries.get(path);
    if (cached !== undefined && cached.version === version) return cached.outline;
    const text = this.workspace.read(path);
    if (text === undefined) {
      this.entries.delete(path);
      return undefined;
    }
    const outline = outlineSource(path, text);
    this.entries.set(path, { version, outline });
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
}
