import { createHash } from 'node:crypto';
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

/**
 * A copy of the workspace that costs almost nothing, for a checker that reads the project from disk (pyright's
 * imports, `cargo check`, `dotnet build`): a folder in the temporary directory whose entries are symbolic links to the
 * workspace's. A batch's texts are written there, never in the workspace: the folders on the way to a written file are
 * made real folders (their other entries links again), and the file itself a real file. `restore` turns the written
 * files back into links, so the tree shows the workspace again for the next check.
 *
 * Nothing is ever written through a link: before a file is written or removed, every folder between the shadow's root
 * and it is checked to be a real folder of the shadow, and a link in its place is unlinked (never opened for writing).
 * The tool that runs in the tree writes only inside it when the entries it writes (a lock file, build output) are
 * given as copies or skipped (`ShadowOptions`).
 */

export interface ShadowOptions {
  /** Workspace entries (relative, `/`-separated) left out of the tree: version control, build output. */
  readonly skip?: (relativePath: string) => boolean;
  /** Files placed as copies rather than links, because the tool may write them (`Cargo.lock`). */
  readonly copy?: (relativePath: string) => boolean;
  /** Parent folder of the tree; default the system's temporary folder. */
  readonly parent?: string;
  /** A name that tells the tree apart (`pyright`); the tree's folder is this plus a hash of the workspace root. */
  readonly label: string;
}

const ALWAYS_SKIPPED = new Set(['.git', '.hg', '.svn']);

/** Scratch folders not yet removed: removed when the process exits (a CLI run ends without disposing its checkers). */
const live = new Set<string>();
let removeOnExit = false;

/** Removes a scratch folder of a check when the process exits, if nothing removed it before. */
export function removeAtExit(folder: string): void {
  live.add(folder);
  if (removeOnExit) return;
  removeOnExit = true;
  process.once('exit', () => {
    for (const folder of live) rmSync(folder, { recursive: true, force: true });
  });
}

export class ShadowTree {
  readonly root: string;
  /** Folders (relative, '' for the root) that are real folders in the tree, with links for their entries. */
  private readonly unfolded = new Set<string>();
  /** Files the current batch wrote or removed, to restore. */
  private readonly written = new Set<string>();

  constructor(
    readonly workspaceRoot: string,
    private readonly options: ShadowOptions,
  ) {
    const hash = createHash('sha256').update(workspaceRoot).digest('hex').slice(0, 12);
    this.root = join(options.parent ?? tmpdir(), `scalpel-${options.label}-${process.pid}-${hash}`);
    rmSync(this.root, { recursive: true, force: true });
    mkdirSync(this.root, { recursive: true });
    removeAtExit(this.root);
    this.unfolded.add('');
  }

  /** The tree's path of a workspace-relative file. */
  pathOf(file: string): string {
    return join(this.root, ...file.split('/'));
  }

  /** The workspace-relative file of a path in the tree, or undefined for one outside it. */
  fileOf(path: string): string | undefined {
    const inside = relative(this.root, path);
    if (inside === '' || inside.startsWith('..') || inside.startsWith(sep)) return undefined;
    return inside.split(sep).join('/');
  }

  /**
   * Brings the real folders' entries up to date with the workspace: links for entries that appeared, none for those
   * that vanished. Call before each check: the workspace changes between them.
   */
  sync(): void {
    // Parents first: a folder the workspace lost takes the real folders below it out of the set.
    for (const folder of [...this.unfolded].sort()) if (this.unfolded.has(folder)) this.fillFolder(folder);
  }

  /** Places a batch's text for a file (a real file in the tree); `undefined` removes the file from the tree. */
  write(file: string, text: string | undefined): void {
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    this.unfold(folder);
    const path = this.pathOf(file);
    this.assertRealFolders(path);
    if (lstatOrUndefined(path) !== undefined) unlinkSync(path);
    this.written.add(file);
    if (text !== undefined) writeFileSync(path, text, { flag: 'wx' });
  }

  /** Every file written since the last restore, as the batch wrote it (workspace-relative). */
  writtenFiles(): readonly string[] {
    return [...this.written];
  }

  /** The tree shows the workspace again: each written or removed file is a link (or a copy) once more. */
  restore(): void {
    for (const file of this.written) {
      const path = this.pathOf(file);
      this.assertRealFolders(path);
      if (lstatOrUndefined(path) !== undefined) unlinkSync(path);
      const source = join(this.workspaceRoot, ...file.split('/'));
      const stats = lstatOrUndefined(source);
      if (stats !== undefined) this.place(file, source, stats);
    }
    this.written.clear();
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
    live.delete(this.root);
    this.unfolded.clear();
    this.written.clear();
  }

  /** Makes a folder and every folder above it real folders of the tree, their entries links. */
  unfold(folder: string): void {
    const parts = folder === '' ? [] : folder.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const current = parts.slice(0, i).join('/');
      if (this.unfolded.has(current)) continue;
      const path = this.pathOf(current);
      this.assertRealFolders(path);
      const stats = lstatOrUndefined(path);
      if (stats !== undefined && !stats.isDirectory()) unlinkSync(path);
      if (stats === undefined || !stats.isDirectory() || stats.isSymbolicLink()) mkdirSync(path);
      this.unfolded.add(current);
      this.fillFolder(current);
    }
  }

  /** Links for the workspace entries of a real folder that it lacks; none for entries the workspace lost. */
  private fillFolder(folder: string): void {
    const source = folder === '' ? this.workspaceRoot : join(this.workspaceRoot, ...folder.split('/'));
    let names: string[];
    try {
      names = readdirSync(source);
    } catch {
      names = [];
    }
    const present = new Set(names);
    const target = folder === '' ? this.root : this.pathOf(folder);
    for (const name of names) {
      const file = folder === '' ? name : `${folder}/${name}`;
      if (this.skipped(file) || this.written.has(file)) continue;
      const path = join(target, name);
      const stats = lstatOrUndefined(path);
      if (stats !== undefined) continue;
      const sourceStats = lstatOrUndefined(join(source, name));
      if (sourceStats !== undefined) this.place(file, join(source, name), sourceStats);
    }
    let entries: string[];
    try {
      entries = readdirSync(target);
    } catch {
      entries = [];
    }
    for (const name of entries) {
      const file = folder === '' ? name : `${folder}/${name}`;
      if (present.has(name) || this.written.has(file)) continue;
      const path = join(target, name);
      // An entry the workspace lost: a link or copy goes; a real folder this tree made goes with what it holds.
      rmSync(path, { recursive: true, force: true });
      for (const inner of [...this.unfolded])
        if (inner === file || inner.startsWith(`${file}/`)) this.unfolded.delete(inner);
    }
  }

  private place(file: string, source: string, stats: Stats): void {
    const path = this.pathOf(file);
    this.assertRealFolders(path);
    if (this.options.copy?.(file) === true && stats.isFile()) {
      copyFileSync(source, path);
      return;
    }
    // A link in the workspace is linked as it is (its target read, never followed here).
    const target = stats.isSymbolicLink() ? readlinkSync(source) : source;
    try {
      symlinkSync(target, path, stats.isDirectory() ? 'junction' : 'file');
    } catch (error) {
      // Windows without the right to make links: a file is copied (folders are junctions, which need none).
      if (stats.isFile()) copyFileSync(source, path);
      else throw error;
    }
  }

  private skipped(file: string): boolean {
    const first = file.split('/')[0] ?? file;
    return ALWAYS_SKIPPED.has(first) || this.options.skip?.(file) === true;
  }

  /** Throws unless every folder from the tree's root down to `path`'s parent is a real folder of the tree. */
  private assertRealFolders(path: string): void {
    const inside = relative(this.root, dirname(path));
    if (inside.startsWith('..') || inside.startsWith(sep)) throw new Error(`${path} is outside the check's copy`);
    let current = this.root;
    for (const part of inside === '' ? [] : inside.split(sep)) {
      current = join(current, part);
      const stats = lstatOrUndefined(current);
      if (stats === undefined || stats.isSymbolicLink() || !stats.isDirectory())
        throw new Error(`${current} is not a folder of the check's copy; nothing is written through it`);
    }
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
