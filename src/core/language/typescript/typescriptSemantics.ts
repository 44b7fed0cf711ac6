import { getLibFiles, libFolderInMemoryPath } from '@ts-morph/common';
import { ts } from 'ts-morph';
import type { ElementNode } from '../../elements/element';
import {
  hashText,
  type ErrorsOptions,
  type FileErrors,
  type ImportEdge,
  type LanguageError,
  type OverlayText,
  type ReferenceHit,
  ReferenceSearchCutShort,
  type ReferenceSearchOptions,
  type UseHit,
  type WorkspaceSemantics,
} from '../../graph/semantics';
import type { SourceFileSystem } from '../../graph/sourceFiles';

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

class TsWorkspace {
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
  /** `Date.now()` after which the services' searches stop (the compiler checks it between files). */
  deadline: number | undefined;

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
    if (this.isDependency(absolutePath)) return 'dependency';
    const file = this.relative(absolutePath);
    if (file !== undefined) return this.fileSystem.versionOf(file) ?? 'missing';
    return ts.sys.getModifiedTime?.(absolutePath)?.getTime().toString() ?? 'outside';
  }

  readScript(absolutePath: string): string | undefined {
    const overlaid = this.overlay.get(absolutePath);
    if (overlaid !== undefined) return overlaid.text;
    if (absolutePath.startsWith(`${libFolderInMemoryPath}/`)) return this.libText(absolutePath);
    const file = this.relative(absolutePath);
    if (file === undefined || this.isDependency(absolutePath)) return ts.sys.readFile(absolutePath);
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
      getCancellationToken: () => ({
        isCancellationRequested: () => workspace.deadline !== undefined && Date.now() >= workspace.deadline,
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

/** Codes whose message says a dependency or its type definitions are missing, not that the code is wrong. */
const ENVIRONMENT_CODES: ReadonlySet<number> = new Set([
  2580, // Cannot find name 'require' / 'module': install @types/node
  2581, // jQuery
  2582, // test globals (describe, it)
  2583, // a newer lib is needed
  2584, // the dom lib is needed
  2591, // 2580 with the tsconfig `types` hint
  2592, // 2581 with the hint
  2593, // 2582 with the hint
  7016, // a package without type declarations
  7026, // JSX without React's (or another) JSX namespace
  2875, // the JSX runtime module is not installed
]);
/** Cannot find module '…' (2307), or with a moduleResolution hint (2792). */
const MISSING_MODULE_CODES: ReadonlySet<number> = new Set([2307, 2792]);
/**
 * Implicit `any` (a parameter, a binding element, a variable): in a file whose imports do not resolve, the contextual
 * type that would have typed it is missing, so the error says more about the environment than the edit.
 */
const IMPLICIT_ANY_CODES: ReadonlySet<number> = new Set([7005, 7006, 7008, 7019, 7031, 7034]);

export class TypeScriptSemantics implements WorkspaceSemantics {
  private readonly workspace: TsWorkspace;
  private readonly resolutionCaches = new Map<string, ts.ModuleResolutionCache>();
  private resolutionListing: ReadonlySet<string> | undefined;

  constructor(fileSystem: SourceFileSystem) {
    this.workspace = new TsWorkspace(fileSystem);
  }

  scanImports(file: string, text: string, known: ReadonlySet<string>): ImportEdge[] {
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
          program === undefined || sourceFile === undefined ? undefined : exportSurface(program, sourceFile),
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
        const program = service.getProgram();
        if (program === undefined) continue;
        for (const file of group) {
          signal?.throwIfAborted();
          const absolutePath = workspace.absolute(file);
          const sourceFile = program.getSourceFile(absolutePath);
          if (sourceFile === undefined) continue;
          const errors: LanguageError[] = [
            ...service.getSyntacticDiagnostics(absolutePath),
            ...service.getSemanticDiagnostics(absolutePath),
          ]
            .filter((d) => options.allCategories === true || d.category === ts.DiagnosticCategory.Error)
            .map((d) => ({
              start: d.start ?? 0,
              code: d.code,
              message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
              ...(options.allCategories === true ? { category: categoryOf(d.category) } : {}),
            }));
          const surface = surfaceOf.includes(file) ? exportSurface(program, sourceFile) : undefined;
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
    let started = Date.now();
    workspace.setOverlay(texts);
    try {
      const service = workspace.serviceFor(workspace.configFor(file), [file, ...candidates]);
      const program = service.getProgram();
      const declaring = program?.getSourceFile(workspace.absolute(file));
      if (program === undefined || declaring === undefined) return [];
      const position = findNamePosition(declaring.text, element);
      if (position === undefined) return [];
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
            isCall: isCalleeAt(sourceFile, reference.textSpan.start),
          });
        }
      }
      return hits;
    } catch (error) {
      if (error instanceof ts.OperationCanceledException) throw new ReferenceSearchCutShort(Date.now() - started);
      throw error;
    } finally {
      workspace.deadline = undefined;
      workspace.clearOverlay();
    }
  }

  uses(file: string, element: ElementNode, texts: ReadonlyMap<string, OverlayText>): UseHit[] {
    const { workspace } = this;
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
        isCall: isCallee(node),
        declarationFile,
        declarationStart: at,
        declarationText: declaring.text,
      };
    }
    return undefined;
  }

  isEnvironmentError(error: Pick<LanguageError, 'code' | 'message'>): boolean {
    if (ENVIRONMENT_CODES.has(error.code)) return true;
    if (MISSING_MODULE_CODES.has(error.code)) {
      const module = /'([^']+)'/.exec(error.message)?.[1];
      return module !== undefined && !module.startsWith('.') && !module.startsWith('/');
    }
    return false;
  }

  followsFromEnvironment(error: Pick<LanguageError, 'code' | 'message'>): boolean {
    return IMPLICIT_ANY_CODES.has(error.code);
  }

  dispose(): void {
    this.workspace.dispose();
  }
}

/**
 * What importers of a module can see of it, as text: every export with its kind and type (inferred types included),
 * the members, signatures and index signatures of exported classes, interfaces, aliases and enums (with enum
 * values). Equal before and after an edit, the edit changed nothing an importer can depend on, so the importers
 * need no new check. Undefined when that cannot be told: a script (no module), a file that augments modules or the
 * global scope, or anything that throws.
 */
export function exportSurface(program: ts.Program, sourceFile: ts.SourceFile): string | undefined {
  try {
    if (!ts.isExternalModule(sourceFile)) return undefined;
    if (
      sourceFile.statements.some(
        (s) => ts.isModuleDeclaration(s) && (s.flags & ts.NodeFlags.GlobalAugmentation || ts.isStringLiteral(s.name)),
      )
    ) {
      return undefined;
    }
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(sourceFile);
    if (module === undefined) return undefined;
    const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.WriteArrayAsGenericType;
    const typeText = (type: ts.Type): string => checker.typeToString(type, undefined, flags);
    const membersOf = (type: ts.Type, at: ts.Node): string[] => [
      ...checker.getPropertiesOfType(type).map((p) => {
        const declaration = p.valueDeclaration ?? p.declarations?.[0];
        const modifiers = declaration === undefined ? 0 : ts.getCombinedModifierFlags(declaration);
        return `${p.name}${p.flags & ts.SymbolFlags.Optional ? '?' : ''}#${modifiers}:${typeText(checker.getTypeOfSymbolAtLocation(p, declaration ?? at))}`;
      }),
      ...checker.getSignaturesOfType(type, ts.SignatureKind.Call).map((sig) => `call${checker.signatureToString(sig)}`),
      ...checker
        .getSignaturesOfType(type, ts.SignatureKind.Construct)
        .map((sig) => `new${checker.signatureToString(sig)}`),
      ...checker
        .getIndexInfosOfType(type)
        .map((info) => `[${typeText(info.keyType)}]${info.isReadonly ? 'ro' : ''}:${typeText(info.type)}`),
    ];
    const parts = checker
      .getExportsOfModule(module)
      .map((exported) => {
        const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const declaration = target.valueDeclaration ?? target.declarations?.[0] ?? sourceFile;
        const lines = [`${exported.name}=${target.name}@${target.flags}`];
        if (target.flags & ts.SymbolFlags.Value) {
          const type = checker.getTypeOfSymbolAtLocation(target, declaration);
          lines.push(typeText(type), ...membersOf(type, declaration));
        }
        if (target.flags & (ts.SymbolFlags.Type | ts.SymbolFlags.Enum)) {
          const declared = checker.getDeclaredTypeOfSymbol(target);
          lines.push(typeText(declared), ...membersOf(declared, declaration));
          for (const parameter of (declared as ts.InterfaceType).typeParameters ?? []) {
            const constraint = parameter.getConstraint();
            const fallback = parameter.getDefault();
            lines.push(
              `<${typeText(parameter)} extends ${constraint === undefined ? '' : typeText(constraint)} = ${fallback === undefined ? '' : typeText(fallback)}>`,
            );
          }
          for (const node of target.declarations ?? []) {
            if (ts.isEnumDeclaration(node))
              for (const member of node.members)
                lines.push(`${member.name.getText()}=${String(checker.getConstantValue(member))}`);
            if (ts.isTypeAliasDeclaration(node)) lines.push(node.type.getText());
          }
        }
        return lines.join('\n');
      })
      .sort();
    return parts.join('\n\n');
  } catch {
    return undefined;
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

function categoryOf(category: ts.DiagnosticCategory): 'error' | 'warning' | 'suggestion' {
  return category === ts.DiagnosticCategory.Error
    ? 'error'
    : category === ts.DiagnosticCategory.Warning
      ? 'warning'
      : 'suggestion';
}

/** Whether the name at `position` is called: `f()`, `a.f()`, `new C()`, ``tag`…` ``, `<Component />`. */
function isCalleeAt(sourceFile: ts.SourceFile, position: number): boolean {
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
  return found !== undefined && isCallee(found);
}

function isCallee(node: ts.Node): boolean {
  let expression: ts.Node = node;
  const parent = node.parent as ts.Node | undefined;
  if (parent !== undefined && ts.isPropertyAccessExpression(parent) && parent.name === node) expression = parent;
  const holder = expression.parent as ts.Node | undefined;
  if (holder === undefined) return false;
  if ((ts.isCallExpression(holder) || ts.isNewExpression(holder)) && holder.expression === expression) return true;
  if (ts.isTaggedTemplateExpression(holder) && holder.tag === expression) return true;
  return (ts.isJsxOpeningElement(holder) || ts.isJsxSelfClosingElement(holder)) && holder.tagName === expression;
}
