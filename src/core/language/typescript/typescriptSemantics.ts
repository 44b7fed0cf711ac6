import { getLibFiles, libFolderInMemoryPath } from '@ts-morph/common';
import { ts } from 'ts-morph';
import type { ElementNode } from '../../elements/element';
import {
  hashText,
  type DeclarationsAnswer,
  type ErrorsOptions,
  type FileErrors,
  type ImportEdge,
  type LanguageError,
  type NavigationTarget,
  type OverlayText,
  type ReferenceHit,
  type RenameAnswer,
  ReferenceSearchCutShort,
  type ReferenceSearchOptions,
  type UseHit,
  type WorkspaceSemantics,
  type CheckerDescription,
} from '../../graph/semantics';
import type { SourceFileSystem } from '../../graph/sourceFiles';
import { cancellationRequested } from '../../graph/cancellation';
import { environmentReason, InstalledPackages } from './environmentErrors';
import { MISSING_PROPERTY_CODES, unresolvedGuardReason } from './unresolvedGuards';
import { exportSurface } from './exportSurface';
import { declarationsAt, implementationsAt } from './typescriptNavigation';
import { renameAt } from './typescriptRename';
import { typescriptRuntimeFor, type TypeScriptModule, type TypeScriptRuntime } from './typescriptRuntime';

/** Cannot find module (2307, 2792), a module without types (7016): what a missing package leaves unresolved. */
const UNRESOLVED_MODULE_CODES: ReadonlySet<number> = new Set([2307, 2792, 7016]);
/**
 * TypeScript's semantics for the code graph (src/core/graph/semantics.ts): import edges resolved with each file's own
 * compiler options, errors from the checker, and references from the LanguageService.
 *
 * The compiler's view of a workspace, shared by the type check and the code graph: the project
 * configuration of each file (its nearest tsconfig.json, else defaults) and one LanguageService per configuration,
 * kept warm across requests. Each service is rooted at the files a request names (the changed files and their
 * importers, or a declaration and the files that mention it), never at the whole project: the compiler follows
 * imports from there, so a check costs what the files it touches cost. Texts a request proposes live in an
 * in-memory overlay; nothing is written.
 *
 * The TypeScript here is the workspace's own when it has one (typescriptRuntime.ts), else the copy ts-morph bundles
 * (its `ts` export and its in-memory lib files). Everything that builds or reads a program goes through the runtime's
 * module (`this.ts`): syntax kinds and flags differ between compiler versions.
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

class TsWorkspace {
  /** Absolute root with forward slashes, no trailing slash. */
  readonly root: string;
  readonly ts: TypeScriptModule;
  /** Shared by every service: a file parsed for one configuration is reused by the others when options allow. */
  readonly documentRegistry: ts.DocumentRegistry;
  private readonly services = new Map<string, ProjectService>();
  private readonly configByDirectory = new Map<string, ProjectConfig>();
  private readonly parsedConfigs = new Map<string, ts.ParsedCommandLine | undefined>();
  private overlay = new Map<string, { text: OverlayText; version: string }>();
  private readonly diskTexts = new Map<string, { version: string; text: string }>();
  private libTexts: Map<string, string> | undefined;
  /** `Date.now()` after which the services' searches stop (the compiler checks it between files). */
  deadline: number | undefined;
  /** Called for every file a program build reads while set (the first check's progress). */
  onRead: ((absolutePath: string) => void) | undefined;

  constructor(
    readonly fileSystem: SourceFileSystem,
    readonly runtime: TypeScriptRuntime,
  ) {
    this.root = fileSystem.root.replace(/\\/g, '/').replace(/\/+$/, '');
    this.ts = runtime.ts;
    this.documentRegistry = this.ts.createDocumentRegistry(
      this.ts.sys.useCaseSensitiveFileNames,
      this.ts.sys.getCurrentDirectory(),
    );
  }

  /** The path of the default lib file for these options: in memory for the bundled compiler, else on disk. */
  defaultLibFileName(options: ts.CompilerOptions): string {
    return this.runtime.bundled
      ? `${libFolderInMemoryPath}/${this.ts.getDefaultLibFileName(options)}`
      : this.ts.getDefaultLibFilePath(options).replace(/\\/g, '/');
  }

  private isInMemoryLib(absolutePath: string): boolean {
    return this.runtime.bundled && absolutePath.startsWith(`${libFolderInMemoryPath}/`);
  }

  absolute(file: string): string {
    return `${this.root}/${file}`;
  }

  /** The workspace-relative form of an absolute path, or undefined when it lies outside the workspace. */
  relative(absolutePath: string): string | undefined {
    const normalized = absolutePath.replace(/\\/g, '/');
    return normalized.startsWith(`${this.root}/`) ? normalized.slice(this.root.length + 1) : undefined;
  }

  /**
   * An installed dependency: a file under a `node_modules` folder. Inside the workspace only the part below the root
   * counts, so a workspace that itself lies under a `node_modules` folder (a package's sources checked in place, the
   * bench's corpus) is still the workspace, not a dependency.
   */
  isDependency(absolutePath: string): boolean {
    const file = this.relative(absolutePath);
    if (file === undefined) return absolutePath.includes('/node_modules/');
    return file.startsWith('node_modules/') || file.includes('/node_modules/');
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
        .find((p) => this.ts.sys.fileExists(p));
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
    if (this.isInMemoryLib(absolutePath)) return 'lib';
    // Installed dependencies are taken as fixed while Scalpel runs; stat-ing hundreds of .d.ts per request is waste.
    if (this.isDependency(absolutePath)) return 'dependency';
    const file = this.relative(absolutePath);
    if (file !== undefined) return this.fileSystem.versionOf(file) ?? 'missing';
    return this.ts.sys.getModifiedTime?.(absolutePath)?.getTime().toString() ?? 'outside';
  }

  readScript(absolutePath: string): string | undefined {
    this.onRead?.(absolutePath);
    const overlaid = this.overlay.get(absolutePath);
    if (overlaid !== undefined) return overlaid.text;
    if (this.isInMemoryLib(absolutePath)) return this.libText(absolutePath);
    const file = this.relative(absolutePath);
    if (file === undefined || this.isDependency(absolutePath)) return this.ts.sys.readFile(absolutePath);
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
    if (this.isInMemoryLib(absolutePath)) return this.libText(absolutePath) !== undefined;
    return this.ts.sys.fileExists(absolutePath);
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
    const read = this.ts.readConfigFile(configPath, this.ts.sys.readFile);
    const parsed =
      read.error === undefined
        ? this.ts.parseJsonConfigFileContent(
            read.config,
            this.ts.sys,
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
      const referencePath = this.ts.resolveProjectReferencePath(reference).replace(/\\/g, '/');
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
    const { ts } = workspace;
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
      getDefaultLibFileName: (options) => workspace.defaultLibFileName(options),
      fileExists: (path) => workspace.fileExists(path),
      readFile: (path) => workspace.readScript(path),
      directoryExists: (path) =>
        (workspace.runtime.bundled && path.startsWith(libFolderInMemoryPath)) ||
        ts.sys.directoryExists(path) ||
        workspace.overlaidFiles().some((f) => f.startsWith(`${path}/`)),
      getDirectories: (path) => ts.sys.getDirectories(path),
      readDirectory: (path, extensions, exclude, include, depth) =>
        ts.sys.readDirectory(path, extensions, exclude, include, depth),
      realpath: (path) => (ts.sys.realpath === undefined ? path : ts.sys.realpath(path)),
      useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
      getCancellationToken: () => ({
        isCancellationRequested: () =>
          (workspace.deadline !== undefined && Date.now() >= workspace.deadline) || cancellationRequested(),
      }),
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

export interface TypeScriptSemanticsOptions {
  /** Which TypeScript checks: a folder, `bundled`, or absent for the workspace's own (typescriptRuntime.ts). */
  readonly sdk?: string;
}

export class TypeScriptSemantics implements WorkspaceSemantics {
  private readonly workspace: TsWorkspace;
  private readonly resolutionCaches = new Map<string, ts.ModuleResolutionCache>();
  private resolutionListing: ReadonlySet<string> | undefined;
  private readonly packages = new InstalledPackages();

  constructor(fileSystem: SourceFileSystem, options: TypeScriptSemanticsOptions = {}) {
    this.workspace = new TsWorkspace(fileSystem, typescriptRuntimeFor(fileSystem.root, options.sdk));
  }

  checker(): CheckerDescription {
    return this.workspace.runtime.description;
  }

  scanImports(file: string, text: string, known: ReadonlySet<string>): ImportEdge[] {
    const { ts } = this.workspace;
    const info = ts.preProcessFile(text, true, true);
    const specifiers = [...new Set(info.importedFiles.map((f) => f.fileName))];
    if (specifiers.length === 0) return [];
    if (this.resolutionListing !== known) {
      // A file that appeared or vanished can change what any specifier resolves to.
      this.resolutionCaches.clear();
      this.resolutionListing = known;
    }
    const reExported = reExportSpecifiers(text);
    const config = this.workspace.configFor(file);
    const cacheKey = config.configPath ?? '<defaults>';
    let cache = this.resolutionCaches.get(cacheKey);
    if (cache === undefined) {
      cache = ts.createModuleResolutionCache(this.workspace.root, (f) => f, config.options);
      this.resolutionCaches.set(cacheKey, cache);
    }
    const containing = this.workspace.absolute(file);
    return specifiers.map((specifier) => {
      const resolved = ts.resolveModuleName(specifier, containing, config.options, ts.sys, cache).resolvedModule;
      const target = resolved === undefined ? undefined : this.workspace.relative(resolved.resolvedFileName);
      return {
        specifier,
        target: target !== undefined && known.has(target) ? target : undefined,
        reExport: reExported.has(specifier),
      };
    });
  }

  surfaces(
    files: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    roots: readonly string[] = [],
  ): ReadonlyMap<string, string | undefined> {
    const { workspace } = this;
    const found = new Map<string, string | undefined>();
    workspace.setOverlay(texts);
    try {
      for (const file of files) {
        if (texts.has(file) && texts.get(file) === undefined) continue;
        const program = workspace.serviceFor(workspace.configFor(file), [file, ...roots]).getProgram();
        const sourceFile = program?.getSourceFile(workspace.absolute(file));
        found.set(
          file,
          program === undefined || sourceFile === undefined
            ? undefined
            : exportSurface(program, sourceFile, workspace.ts),
        );
      }
    } finally {
      workspace.clearOverlay();
    }
    return found;
  }

  async errors(
    files: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    options: ErrorsOptions = {},
  ): Promise<ReadonlyMap<string, FileErrors>> {
    const { signal, surfaceOf = [], roots = [] } = options;
    const { workspace } = this;
    const { ts } = workspace;
    const present = files.filter((file) => !texts.has(file) || texts.get(file) !== undefined);
    const found = new Map<string, FileErrors>();
    workspace.setOverlay(texts);
    try {
      const groups = new Map<string, { config: ProjectConfig; files: string[] }>();
      for (const file of present) {
        const config = workspace.configFor(file);
        const key = config.configPath ?? '<defaults>';
        const group = groups.get(key) ?? { config, files: [] };
        group.files.push(file);
        groups.set(key, group);
      }
      for (const { config, files: group } of groups.values()) {
        const extra = roots.filter((f) => workspace.configFor(f).configPath === config.configPath);
        const service = workspace.serviceFor(config, [...group, ...extra]);
        const program = this.buildProgram(service, options.onProgress);
        if (program === undefined) continue;
        for (const file of group) {
          signal?.throwIfAborted();
          const absolutePath = workspace.absolute(file);
          const sourceFile = program.getSourceFile(absolutePath);
          if (sourceFile === undefined) continue;
          const diagnostics = [
            ...service.getSyntacticDiagnostics(absolutePath),
            ...service.getSemanticDiagnostics(absolutePath),
          ]
            .filter((d) => options.allCategories === true || d.category === ts.DiagnosticCategory.Error)
            .map((d) => ({
              start: d.start ?? 0,
              code: d.code,
              message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
              ...(options.allCategories === true ? { category: categoryOf(ts, d.category) } : {}),
            }));
          const errors = this.withEnvironment(diagnostics, absolutePath, sourceFile);
          const surface = surfaceOf.includes(file) ? exportSurface(program, sourceFile, ts) : undefined;
          found.set(file, { text: sourceFile.text, errors, ...(surface === undefined ? {} : { surface }) });
          // Checking a large importer takes a while; let the event loop breathe between files.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      workspace.clearOverlay();
    }
    return found;
  }

  references(
    file: string,
    element: ElementNode,
    candidates: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
    options: ReferenceSearchOptions = {},
  ): ReferenceHit[] {
    const { workspace } = this;
    const { ts } = workspace;
    let started = Date.now();
    workspace.setOverlay(texts);
    try {
      const site = this.siteOf(file, element, candidates);
      if (typeof site === 'string') return [];
      const { service, program, position } = site;
      if (options.timeLimitMs !== undefined) {
        // The checker binds every file when created; only the search after it is limited.
        program.getTypeChecker();
        started = Date.now();
        workspace.deadline = started + options.timeLimitMs;
      }
      const hits: ReferenceHit[] = [];
      const seen = new Set<string>();
      for (const symbol of service.findReferences(workspace.absolute(file), position) ?? []) {
        for (const reference of symbol.references) {
          if (reference.isDefinition === true || workspace.isDependency(reference.fileName)) continue;
          const siteFile = workspace.relative(reference.fileName);
          const sourceFile = program.getSourceFile(reference.fileName);
          if (siteFile === undefined || sourceFile === undefined) continue;
          const key = `${siteFile}:${reference.textSpan.start}`;
          if (seen.has(key)) continue;
          seen.add(key);
          hits.push({
            file: siteFile,
            start: reference.textSpan.start,
            text: sourceFile.text,
            isWrite: reference.isWriteAccess,
            isCall: isCalleeAt(ts, sourceFile, reference.textSpan.start),
          });
        }
      }
      return hits;
    } catch (error) {
      // Past the time limit; a caller that gave up (a cancelled call) gets TypeScript's own exception instead.
      if (error instanceof ts.OperationCanceledException && !cancellationRequested())
        throw new ReferenceSearchCutShort(Date.now() - started);
      throw error;
    } finally {
      workspace.deadline = undefined;
      workspace.clearOverlay();
    }
  }

  /**
   * The language service over `file` and `candidates`, its program, the declaring file and the position of
   * `element`'s name in it; or why there is none. Called with the overlay set.
   */
  private siteOf(
    file: string,
    element: ElementNode,
    candidates: readonly string[],
  ):
    | { service: ts.LanguageService; program: ts.Program; declaring: ts.SourceFile; position: number }
    | 'not in its program'
    | 'name not found' {
    const { workspace } = this;
    const service = workspace.serviceFor(workspace.configFor(file), [file, ...candidates]);
    const program = service.getProgram();
    const declaring = program?.getSourceFile(workspace.absolute(file));
    if (program === undefined || declaring === undefined) return 'not in its program';
    const position = findNamePosition(declaring.text, element);
    return position === undefined ? 'name not found' : { service, program, declaring, position };
  }

  renameLocations(
    file: string,
    element: ElementNode,
    newName: string,
    candidates: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
  ): RenameAnswer {
    const { workspace } = this;
    workspace.setOverlay(texts);
    try {
      const site = this.siteOf(file, element, candidates);
      if (site === 'not in its program') return { locations: [], refused: `${file} is not in its TypeScript program` };
      if (site === 'name not found') return { locations: [], refused: `the name of ${element.path} was not found` };
      return renameAt(workspace.ts, site.service, site.program, site.declaring, site.position, newName, workspace);
    } finally {
      workspace.clearOverlay();
    }
  }

  declarationsOf(
    file: string,
    start: number,
    end: number,
    name: string,
    texts: ReadonlyMap<string, OverlayText>,
  ): DeclarationsAnswer {
    const { workspace } = this;
    workspace.setOverlay(texts);
    try {
      const service = workspace.serviceFor(workspace.configFor(file), [file]);
      const program = service.getProgram();
      const sourceFile = program?.getSourceFile(workspace.absolute(file));
      if (program === undefined || sourceFile === undefined) return { text: '', uses: [] };
      return declarationsAt(workspace.ts, service, program, sourceFile, start, end, name, workspace);
    } finally {
      workspace.clearOverlay();
    }
  }

  implementationsOf(
    file: string,
    element: ElementNode,
    candidates: readonly string[],
    texts: ReadonlyMap<string, OverlayText>,
  ): NavigationTarget[] {
    const { workspace } = this;
    workspace.setOverlay(texts);
    try {
      const site = this.siteOf(file, element, candidates);
      if (typeof site === 'string') return [];
      return implementationsAt(site.service, site.program, site.declaring, site.position, workspace);
    } finally {
      workspace.clearOverlay();
    }
  }

  uses(file: string, element: ElementNode, texts: ReadonlyMap<string, OverlayText>): UseHit[] {
    const { workspace } = this;
    const { ts } = workspace;
    workspace.setOverlay(texts);
    try {
      const service = workspace.serviceFor(workspace.configFor(file), [file]);
      const program = service.getProgram();
      const sourceFile = program?.getSourceFile(workspace.absolute(file));
      if (program === undefined || sourceFile === undefined) return [];
      const checker = program.getTypeChecker();
      const { start, end } = element.range;
      // A container's members are elements of their own: its uses are those of its own code (heritage, decorators).
      const members = element.children.map((child) => child.range);
      const hits: UseHit[] = [];
      const visit = (node: ts.Node): void => {
        if (node.end < start || node.pos > end) return;
        if (members.some((m) => node.pos >= m.start && node.end <= m.end)) return;
        // `pos` includes leading trivia: the next sibling's node starts at this element's end, so bound both sides.
        if (
          (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) &&
          node.getStart(sourceFile) >= start &&
          node.end <= end
        ) {
          const hit = this.useOf(checker, sourceFile, node, start, end);
          if (hit !== undefined) hits.push(hit);
        }
        ts.forEachChild(node, visit);
      };
      visit(sourceFile);
      return hits;
    } finally {
      workspace.clearOverlay();
    }
  }

  private useOf(
    checker: ts.TypeChecker,
    sourceFile: ts.SourceFile,
    node: ts.Identifier | ts.PrivateIdentifier,
    start: number,
    end: number,
  ): UseHit | undefined {
    const { ts } = this.workspace;
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol === undefined) return undefined;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    for (const declaration of symbol.declarations ?? []) {
      const declaring = declaration.getSourceFile();
      if (this.workspace.isDependency(declaring.fileName)) continue;
      const declarationFile = this.workspace.relative(declaring.fileName);
      if (declarationFile === undefined) continue;
      const at = declaration.getStart(declaring);
      // Its own parameters and locals are not uses of another element.
      if (declaring === sourceFile && at >= start && at <= end) return undefined;
      return {
        start: node.getStart(sourceFile),
        isCall: isCallee(ts, node),
        declarationFile,
        declarationStart: at,
        declarationText: declaring.text,
      };
    }
    return undefined;
  }

  /**
   * The service's program, built or brought up to date. A first build reads every file the roots reach (hundreds of
   * declaration files in a real project) and takes seconds: past a second, `onProgress` hears how far it got, once a
   * second, and how long it took.
   */
  private buildProgram(
    service: ts.LanguageService,
    onProgress: ((message: string) => void) | undefined,
  ): ts.Program | undefined {
    if (onProgress === undefined) return service.getProgram();
    const { workspace } = this;
    const started = Date.now();
    let read = 0;
    let told = started;
    const version = workspace.runtime.description.version;
    workspace.onRead = () => {
      read += 1;
      const now = Date.now();
      if (now - told < 1_000) return;
      told = now;
      onProgress(`type check: building the TypeScript ${version} program, ${read} files read so far`);
    };
    try {
      return service.getProgram();
    } finally {
      workspace.onRead = undefined;
      const seconds = (Date.now() - started) / 1000;
      if (seconds >= 1)
        onProgress(`type check: program built in ${seconds.toFixed(1)} s (${read} files read); checking the files`);
    }
  }

  /** The errors of a file, each one that only reflects the environment marked with why (environmentErrors.ts). */
  private withEnvironment(
    errors: readonly (LanguageError & { readonly code: number })[],
    absolutePath: string,
    sourceFile: ts.SourceFile,
  ): LanguageError[] {
    const first = errors.map((error) => environmentReason(error, absolutePath, this.packages));
    const fileHasEnvironmentError = first.some((reason) => reason !== undefined);
    // Modules whose package is missing: a guard imported from one narrows nothing (unresolvedGuards.ts).
    const unresolved = new Set(
      errors.flatMap((error, index) =>
        first[index] !== undefined && UNRESOLVED_MODULE_CODES.has(error.code)
          ? [/'([^']+)'/.exec(error.message)?.[1] ?? '']
          : [],
      ),
    );
    return errors.map((error, index) => {
      const reason =
        first[index] ??
        environmentReason(error, absolutePath, this.packages, fileHasEnvironmentError) ??
        (MISSING_PROPERTY_CODES.has(error.code)
          ? unresolvedGuardReason(this.workspace.ts, sourceFile, error.start, unresolved)
          : undefined);
      return reason === undefined ? error : { ...error, environment: reason };
    });
  }

  dispose(): void {
    this.workspace.dispose();
  }
}

/** Specifiers of `export * from '…'` and `export { … } from '…'` statements. */
function reExportSpecifiers(text: string): Set<string> {
  const found = new Set<string>();
  if (!text.includes('export')) return found;
  const pattern = /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(['"])([^'"]+)\1/g;
  for (const match of text.matchAll(pattern)) if (match[2] !== undefined) found.add(match[2]);
  return found;
}

/**
 * The offset of the element's name in its declaration: the first identifier-like token with that text after the
 * declaration starts, decorators skipped.
 */
export function findNamePosition(text: string, element: ElementNode): number | undefined {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.JSX, text);
  const limit = element.bodyRange?.start ?? element.range.end;
  scanner.resetTokenState(element.declarationRange.start);
  let depth = 0;
  let afterAt = false;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const position = scanner.getTokenStart();
    if (position >= limit) return undefined;
    // Decorators (`@Input() name`) may mention anything; skip `@x(...)` wholesale.
    if (kind === ts.SyntaxKind.AtToken) {
      afterAt = true;
      continue;
    }
    if (kind === ts.SyntaxKind.OpenParenToken) depth += 1;
    else if (kind === ts.SyntaxKind.CloseParenToken) {
      depth -= 1;
      if (depth === 0) afterAt = false;
      continue;
    }
    if (depth > 0) continue;
    if (afterAt && kind === ts.SyntaxKind.Identifier) {
      afterAt = !isDecoratorEnd(text, scanner.getTokenEnd());
      continue;
    }
    const isName =
      kind === ts.SyntaxKind.Identifier ||
      kind === ts.SyntaxKind.StringLiteral ||
      kind === ts.SyntaxKind.NumericLiteral;
    if (isName && scanner.getTokenValue() === element.name) return position;
    if (kind === ts.SyntaxKind.PrivateIdentifier && scanner.getTokenText() === element.name) return position;
  }
  return undefined;
}

/** After `@name`, a decorator ends unless a `.` or `(` follows. */
function isDecoratorEnd(text: string, end: number): boolean {
  const next = /\S/.exec(text.slice(end, end + 40));
  return next === null || (next[0] !== '.' && next[0] !== '(');
}

function categoryOf(ts: TypeScriptModule, category: ts.DiagnosticCategory): 'error' | 'warning' | 'suggestion' {
  return category === ts.DiagnosticCategory.Error
    ? 'error'
    : category === ts.DiagnosticCategory.Warning
      ? 'warning'
      : 'suggestion';
}

/** Whether the name at `position` is called: `f()`, `a.f()`, `new C()`, ``tag`…` ``, `<Component />`. */
function isCalleeAt(ts: TypeScriptModule, sourceFile: ts.SourceFile, position: number): boolean {
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (position < node.pos || position >= node.end) return;
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && node.getStart(sourceFile) === position) {
      found = node;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found !== undefined && isCallee(ts, found);
}

function isCallee(ts: TypeScriptModule, node: ts.Node): boolean {
  let expression: ts.Node = node;
  const parent = node.parent as ts.Node | undefined;
  if (parent !== undefined && ts.isPropertyAccessExpression(parent) && parent.name === node) expression = parent;
  const holder = expression.parent as ts.Node | undefined;
  if (holder === undefined) return false;
  if ((ts.isCallExpression(holder) || ts.isNewExpression(holder)) && holder.expression === expression) return true;
  if (ts.isTaggedTemplateExpression(holder) && holder.tag === expression) return true;
  return (ts.isJsxOpeningElement(holder) || ts.isJsxSelfClosingElement(holder)) && holder.tagName === expression;
}
