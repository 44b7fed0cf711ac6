import { getLibFiles, libFolderInMemoryPath } from '@ts-morph/common';
import { ts } from 'ts-morph';
import type { SourceFileSystem } from './sourceFiles';

/**
 * The TypeScript compiler's view of a workspace, shared by the type check and the code graph: the project
 * configuration of each file (its nearest tsconfig.json, else defaults) and one LanguageService per configuration,
 * kept warm across requests. Each service is rooted at the files a request names (the changed files and their
 * importers, or a declaration and the files that mention it), never at the whole project: the compiler follows
 * imports from there, so a check costs what the files it touches cost. Texts a request proposes live in an
 * in-memory overlay; nothing is written.
 *
 * The TypeScript here is the copy ts-morph bundles (its `ts` export and its in-memory lib files), so the extension
 * ships one compiler.
 */

/** Options used where no tsconfig.json or jsconfig.json applies: a modern project as `tsc --init` would set it up. */
export const DEFAULT_COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  allowJs: true,
  checkJs: false,
  esModuleInterop: true,
  resolveJsonModule: true,
  allowImportingTsExtensions: true,
};

/** Never emit; never check declaration files of dependencies (their errors are not the edit's, and they are slow). */
const FORCED_OPTIONS: ts.CompilerOptions = {
  noEmit: true,
  skipLibCheck: true,
  incremental: false,
  composite: false,
  declaration: false,
  declarationMap: false,
  sourceMap: false,
};

export interface ProjectConfig {
  /** Absolute path of the tsconfig.json / jsconfig.json, or undefined for the defaults. */
  readonly configPath: string | undefined;
  readonly options: ts.CompilerOptions;
}

/** A text a request proposes for a file; `undefined` deletes the file. */
export type OverlayText = string | undefined;

export class TsWorkspace {
  /** Absolute root with forward slashes, no trailing slash. */
  readonly root: string;
  /** Shared by every service: a file parsed for one configuration is reused by the others when options allow. */
  readonly documentRegistry = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, ts.sys.getCurrentDirectory());
  private readonly services = new Map<string, ProjectService>();
  private readonly configByDirectory = new Map<string, ProjectConfig>();
  private readonly parsedConfigs = new Map<string, ts.ParsedCommandLine | undefined>();
  private overlay = new Map<string, { text: OverlayText; version: string }>();
  private readonly diskTexts = new Map<string, { version: string; text: string }>();
  private libTexts: Map<string, string> | undefined;

  constructor(readonly fileSystem: SourceFileSystem) {
    this.root = fileSystem.root.replace(/\\/g, '/').replace(/\/+$/, '');
  }

  absolute(file: string): string {
    return `${this.root}/${file}`;
  }

  /** The workspace-relative form of an absolute path, or undefined when it lies outside the workspace. */
  relative(absolutePath: string): string | undefined {
    const normalized = absolutePath.replace(/\\/g, '/');
    return normalized.startsWith(`${this.root}/`) ? normalized.slice(this.root.length + 1) : undefined;
  }

  /** Replaces the overlay: these workspace-relative files read as given until the next call. */
  setOverlay(texts: ReadonlyMap<string, OverlayText>): void {
    const next = new Map<string, { text: OverlayText; version: string }>();
    for (const [file, text] of texts) {
      next.set(this.absolute(file), { text, version: text === undefined ? 'deleted' : `o${hashText(text)}` });
    }
    this.overlay = next;
  }

  clearOverlay(): void {
    this.overlay = new Map();
  }

  /** The configuration that governs a workspace file: its nearest tsconfig.json or jsconfig.json inside the root. */
  configFor(file: string): ProjectConfig {
    const absolutePath = this.absolute(file);
    const directory = absolutePath.slice(0, absolutePath.lastIndexOf('/'));
    const cached = this.configByDirectory.get(directory);
    if (cached !== undefined) return this.refineForReferences(cached, absolutePath);
    let config: ProjectConfig = { configPath: undefined, options: { ...DEFAULT_COMPILER_OPTIONS, ...FORCED_OPTIONS } };
    for (let dir = directory; dir.length >= this.root.length; dir = dir.slice(0, dir.lastIndexOf('/'))) {
      const found = ['tsconfig.json', 'jsconfig.json']
        .map((name) => `${dir}/${name}`)
        .find((p) => ts.sys.fileExists(p));
      if (found !== undefined) {
        const parsed = this.parseConfig(found);
        if (parsed !== undefined) config = { configPath: found, options: { ...parsed.options, ...FORCED_OPTIONS } };
        break;
      }
      if (!dir.includes('/')) break;
    }
    this.configByDirectory.set(directory, config);
    return this.refineForReferences(config, absolutePath);
  }

  /** The LanguageService of a configuration, rooted at `roots` (workspace-relative) for the next request. */
  serviceFor(config: ProjectConfig, roots: readonly string[]): ts.LanguageService {
    const key = config.configPath ?? '<defaults>';
    let service = this.services.get(key);
    if (service === undefined) {
      service = new ProjectService(this, config.options);
      this.services.set(key, service);
    }
    service.setRoots(roots.map((f) => this.absolute(f)));
    return service.languageService;
  }

  /** A version per script, for the host and for cache keys. */
  scriptVersion(absolutePath: string): string {
    const overlaid = this.overlay.get(absolutePath);
    if (overlaid !== undefined) return overlaid.version;
    if (absolutePath.startsWith(`${libFolderInMemoryPath}/`)) return 'lib';
    // Installed dependencies are taken as fixed while Scalpel runs; stat-ing hundreds of .d.ts per request is waste.
    if (absolutePath.includes('/node_modules/')) return 'dependency';
    const file = this.relative(absolutePath);
    if (file !== undefined) return this.fileSystem.versionOf(file) ?? 'missing';
    return ts.sys.getModifiedTime?.(absolutePath)?.getTime().toString() ?? 'outside';
  }

  readScript(absolutePath: string): string | undefined {
    const overlaid = this.overlay.get(absolutePath);
    if (overlaid !== undefined) return overlaid.text;
    if (absolutePath.startsWith(`${libFolderInMemoryPath}/`)) return this.libText(absolutePath);
    const file = this.relative(absolutePath);
    if (file === undefined || absolutePath.includes('/node_modules/')) return ts.sys.readFile(absolutePath);
    const version = this.fileSystem.versionOf(file);
    if (version === undefined) return undefined;
    const cached = this.diskTexts.get(absolutePath);
    if (cached !== undefined && cached.version === version) return cached.text;
    const text = this.fileSystem.readFile(file);
    if (text !== undefined) this.diskTexts.set(absolutePath, { version, text });
    return text;
  }

  fileExists(absolutePath: string): boolean {
    const overlaid = this.overlay.get(absolutePath);
    if (overlaid !== undefined) return overlaid.text !== undefined;
    if (absolutePath.startsWith(`${libFolderInMemoryPath}/`)) return this.libText(absolutePath) !== undefined;
    return ts.sys.fileExists(absolutePath);
  }

  /** Files the overlay adds, so directory listings and module resolution see a file a batch creates. */
  overlaidFiles(): string[] {
    return [...this.overlay].filter(([, v]) => v.text !== undefined).map(([path]) => path);
  }

  dispose(): void {
    for (const service of this.services.values()) service.languageService.dispose();
    this.services.clear();
  }

  private libText(absolutePath: string): string | undefined {
    if (this.libTexts === undefined) {
      this.libTexts = new Map(getLibFiles().map((lib) => [`${libFolderInMemoryPath}/${lib.fileName}`, lib.text]));
    }
    return this.libTexts.get(absolutePath);
  }

  private parseConfig(configPath: string): ts.ParsedCommandLine | undefined {
    if (this.parsedConfigs.has(configPath)) return this.parsedConfigs.get(configPath);
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    const parsed =
      read.error === undefined
        ? ts.parseJsonConfigFileContent(
            read.config,
            ts.sys,
            configPath.slice(0, configPath.lastIndexOf('/')),
            undefined,
            configPath,
          )
        : undefined;
    this.parsedConfigs.set(configPath, parsed);
    return parsed;
  }

  /**
   * A solution-style tsconfig (`"files": []` with `references`) governs no file itself: the referenced project
   * that lists the file does.
   */
  private refineForReferences(config: ProjectConfig, absolutePath: string): ProjectConfig {
    if (config.configPath === undefined) return config;
    const parsed = this.parseConfig(config.configPath);
    if (parsed === undefined || parsed.fileNames.includes(absolutePath)) return config;
    for (const reference of parsed.projectReferences ?? []) {
      const referencePath = ts.resolveProjectReferencePath(reference).replace(/\\/g, '/');
      const referenced = this.parseConfig(referencePath);
      if (referenced?.fileNames.includes(absolutePath) === true) {
        return { configPath: referencePath, options: { ...referenced.options, ...FORCED_OPTIONS } };
      }
    }
    return config;
  }
}

class ProjectService {
  readonly languageService: ts.LanguageService;
  private roots: string[] = [];
  private projectVersion = 0;

  constructor(
    workspace: TsWorkspace,
    private readonly options: ts.CompilerOptions,
  ) {
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => this.options,
      getProjectVersion: () => String(this.projectVersion),
      getScriptFileNames: () => this.roots,
      getScriptVersion: (path) => workspace.scriptVersion(path),
      getScriptSnapshot: (path) => {
        const text = workspace.readScript(path);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => workspace.root,
      getDefaultLibFileName: (options) => `${libFolderInMemoryPath}/${ts.getDefaultLibFileName(options)}`,
      fileExists: (path) => workspace.fileExists(path),
      readFile: (path) => workspace.readScript(path),
      directoryExists: (path) =>
        path.startsWith(libFolderInMemoryPath) ||
        ts.sys.directoryExists(path) ||
        workspace.overlaidFiles().some((f) => f.startsWith(`${path}/`)),
      getDirectories: (path) => ts.sys.getDirectories(path),
      readDirectory: (path, extensions, exclude, include, depth) =>
        ts.sys.readDirectory(path, extensions, exclude, include, depth),
      realpath: (path) => (ts.sys.realpath === undefined ? path : ts.sys.realpath(path)),
      useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
    };
    this.languageService = ts.createLanguageService(host, workspace.documentRegistry);
  }

  setRoots(roots: readonly string[]): void {
    // The project version is bumped on every request: the overlay may have changed, and the service then compares
    // script versions file by file, reusing every unchanged parse.
    this.roots = [...new Set(roots)];
    this.projectVersion += 1;
  }
}

/** cyrb53: a fast 53-bit string hash; overlay texts that are equal get equal versions, so cached results carry over. */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef ^ text.length;
  let h2 = 0x41c6ce57 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
