import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { Node, Project, ts, type SourceFile } from 'ts-morph';
import type { ElementNode } from '../../elements/element';
import { elementsAtOffset, resolveElementPath } from '../../elements/resolve';
import { parseElementPath } from '../../elements/elementPath';
import type { OutlineCache } from '../outlineCache';
import { ToolInputError, type ToolWorkspace } from '../types';
import type { CodeGraph, GraphDiagnostic, UseEdge, UseSite } from './codeGraph';

/**
 * A code graph over the TypeScript language service (through ts-morph), kept deliberately small: it is the stand-in
 * until the shared index of issue #18 lands (see codeGraph.ts). The program is built on the first query and kept
 * warm; before each query, files whose version changed are re-read, so answers follow edits.
 */

const MAX_CODE_CHARS = 160;

function compilerOptions(root: string): { tsConfigFilePath?: string; compilerOptions: ts.CompilerOptions } {
  const overrides: ts.CompilerOptions = {
    allowJs: true,
    noEmit: true,
    skipLibCheck: true,
    jsx: ts.JsxEmit.Preserve,
  };
  const tsconfig = join(root, 'tsconfig.json');
  return existsSync(tsconfig)
    ? { tsConfigFilePath: tsconfig, compilerOptions: overrides }
    : {
        compilerOptions: {
          ...overrides,
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          strict: true,
        },
      };
}

function createProject(root: string): Project {
  const options = compilerOptions(root);
  try {
    return new Project({ ...options, skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  } catch {
    // A tsconfig that does not load (a missing base config): the defaults still give references and calls.
    return new Project({ compilerOptions: compilerOptions('/nonexistent').compilerOptions });
  }
}

/** The node a use of an element points at: its name, or the class name for a constructor. */
function nameNodeOf(sourceFile: SourceFile, element: ElementNode): Node | undefined {
  const start = element.declarationRange.start;
  const end = element.range.end;
  let found: Node | undefined;
  sourceFile.forEachDescendant((node, traversal) => {
    if (node.getEnd() < start || node.getPos() > end) {
      traversal.skip();
      return;
    }
    if (node.getStart() < start || node.getEnd() > end) return;
    if (element.kind === 'constructor' && Node.isConstructorDeclaration(node)) {
      const owner = node.getParent();
      found = Node.isClassDeclaration(owner) ? owner.getNameNode() : undefined;
      traversal.stop();
      return;
    }
    if (!Node.hasName(node)) return;
    const name = node.getNameNode();
    const text = name.getText().replace(/^(['"`])(.*)\1$/, '$2');
    if (text === element.name) {
      found = name;
      traversal.stop();
    }
  });
  return found;
}

function isCallee(node: Node): boolean {
  let expression: Node = node;
  const parent = node.getParent();
  if (parent !== undefined && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === node)
    expression = parent;
  const holder = expression.getParent();
  if (holder === undefined) return false;
  if ((Node.isCallExpression(holder) || Node.isNewExpression(holder)) && holder.getExpression() === expression)
    return true;
  if (Node.isTaggedTemplateExpression(holder) && holder.getTag() === expression) return true;
  return (
    (Node.isJsxOpeningElement(holder) || Node.isJsxSelfClosingElement(holder)) && holder.getTagNameNode() === expression
  );
}

export class TsMorphGraph implements CodeGraph {
  private project: Project | undefined;
  private readonly loaded = new Map<string, string>();
  private readonly realRoot: string;
  /** Answers for the program as it is; emptied when any file changes. Paging through a long list asks again. */
  private readonly answers = new Map<string, UseSite[] | UseEdge[]>();

  constructor(
    private readonly workspace: ToolWorkspace,
    private readonly outlines: OutlineCache,
  ) {
    this.realRoot = realpathSync(workspace.root);
  }

  private absolute(path: string): string {
    return join(this.realRoot, path).replace(/\\/g, '/');
  }

  /** The workspace-relative path of a program file, or undefined for one outside the workspace (lib, packages). */
  private relativeOf(sourceFile: SourceFile): string | undefined {
    const rel = relative(this.realRoot, sourceFile.getFilePath()).replace(/\\/g, '/');
    if (rel.startsWith('..') || isAbsolute(rel) || rel.split('/').includes('node_modules')) return undefined;
    return this.loaded.has(rel) ? rel : undefined;
  }

  /** The program with every workspace source file at its current version. */
  private fresh(): Project {
    const project = (this.project ??= createProject(this.realRoot));
    const files = this.workspace.listSourceFiles();
    const present = new Set(files);
    let changed = false;
    for (const path of files) {
      const version = this.workspace.version(path);
      if (this.loaded.get(path) === version) continue;
      const text = this.workspace.read(path);
      if (text === undefined) continue;
      project.createSourceFile(this.absolute(path), text, { overwrite: true });
      this.loaded.set(path, version);
      changed = true;
    }
    for (const path of [...this.loaded.keys()]) {
      if (present.has(path)) continue;
      const sourceFile = project.getSourceFile(this.absolute(path));
      if (sourceFile !== undefined) project.removeSourceFile(sourceFile);
      this.loaded.delete(path);
      changed = true;
    }
    if (changed) this.answers.clear();
    return project;
  }

  private elementOrThrow(project: Project, path: string): { sourceFile: SourceFile; element: ElementNode } {
    let file: string;
    try {
      file = parseElementPath(path).file;
    } catch (error) {
      throw new ToolInputError(error instanceof Error ? error.message : String(error));
    }
    const outline = this.outlines.getOrThrow(file);
    const resolved = resolveElementPath(outline, path);
    if (!resolved.ok) {
      throw new ToolInputError(
        `${resolved.message}${resolved.suggestions.length === 0 ? '' : `; nearest: ${resolved.suggestions.join(', ')}`}`,
      );
    }
    const sourceFile = project.getSourceFile(this.absolute(file));
    if (sourceFile === undefined) throw new ToolInputError(`${file}: not among the workspace's source files`);
    return { sourceFile, element: resolved.element };
  }

  /** The innermost element at an offset of a workspace file, or the file itself. */
  private enclosing(file: string, offset: number): string {
    const outline = this.outlines.get(file);
    if (outline === undefined) return file;
    return elementsAtOffset(outline, offset).at(-1)?.path ?? file;
  }

  references(path: string): UseSite[] {
    const project = this.fresh();
    const known = this.answers.get(`references ${path}`);
    if (known !== undefined) return known as UseSite[];
    const { sourceFile, element } = this.elementOrThrow(project, path);
    if (element.kind === 'import' || element.kind === 'statement' || element.kind === 'export') {
      throw new ToolInputError(`${element.path} is a ${element.kind}; ask for the references of a declared element`);
    }
    const name = nameNodeOf(sourceFile, element);
    if (name === undefined || !Node.isReferenceFindable(name)) {
      throw new ToolInputError(`${element.path} has no name that code can refer to`);
    }
    const sites: UseSite[] = [];
    for (const node of name.findReferencesAsNodes()) {
      const nodeFile = node.getSourceFile();
      const file = this.relativeOf(nodeFile);
      if (file === undefined) continue;
      if (nodeFile === sourceFile && node.getStart() === name.getStart()) continue;
      const line = node.getStartLineNumber();
      sites.push({
        file,
        line,
        element: this.enclosing(file, node.getStart()),
        code: lineText(nodeFile, line),
        call: isCallee(node),
      });
    }
    sites.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
    this.answers.set(`references ${path}`, sites);
    return sites;
  }

  uses(path: string): UseEdge[] {
    const project = this.fresh();
    const known = this.answers.get(`uses ${path}`);
    if (known !== undefined) return known as UseEdge[];
    const { sourceFile, element } = this.elementOrThrow(project, path);
    // A container's members are elements of their own: its uses are those of its own code (heritage, decorators).
    const members = element.children.map((child) => child.range);
    const file = this.relativeOf(sourceFile) ?? '';
    const edges = new Map<string, { kind: 'call' | 'ref'; count: number; file: string; line: number }>();
    const { start, end } = element.range;
    sourceFile.forEachDescendant((node, traversal) => {
      if (node.getEnd() < start || node.getPos() > end) {
        traversal.skip();
        return;
      }
      if (members.some((m) => node.getPos() >= m.start && node.getEnd() <= m.end)) {
        traversal.skip();
        return;
      }
      if (!Node.isIdentifier(node) && !Node.isPrivateIdentifier(node)) return;
      if (node.getStart() < start || node.getEnd() > end) return;
      let symbol = node.getSymbol();
      if (symbol === undefined) return;
      if (symbol.isAlias()) symbol = symbol.getAliasedSymbol() ?? symbol;
      for (const declaration of symbol.getDeclarations()) {
        const declarationFile = declaration.getSourceFile();
        const targetFile = this.relativeOf(declarationFile);
        if (targetFile === undefined) continue;
        const at = declaration.getStart();
        // Its own parameters and locals are not uses of another element.
        if (declarationFile === sourceFile && at >= start && at <= end) continue;
        const target = this.enclosing(targetFile, at);
        if (target === targetFile || target === element.path || element.path.startsWith(`${target}/`)) continue;
        const call = isCallee(node);
        const edge = edges.get(target);
        if (edge === undefined) {
          edges.set(target, { kind: call ? 'call' : 'ref', count: 1, file, line: node.getStartLineNumber() });
        } else {
          edge.count++;
          if (call) edge.kind = 'call';
        }
        break;
      }
    });
    const result = [...edges.entries()]
      .map(([target, edge]) => ({ target, ...edge }))
      .sort((a, b) => (a.kind === b.kind ? a.line - b.line : a.kind === 'call' ? -1 : 1));
    this.answers.set(`uses ${path}`, result);
    return result;
  }

  diagnostics(files: readonly string[]): GraphDiagnostic[] {
    const project = this.fresh();
    const program = project.getProgram().compilerObject;
    const found: GraphDiagnostic[] = [];
    for (const file of files) {
      const sourceFile = project.getSourceFile(this.absolute(file));
      if (sourceFile === undefined) throw new ToolInputError(`${file}: not among the workspace's source files`);
      const compiled = sourceFile.compilerNode;
      for (const diagnostic of [
        ...program.getSyntacticDiagnostics(compiled),
        ...program.getSemanticDiagnostics(compiled),
      ]) {
        const start = diagnostic.start ?? 0;
        const position = compiled.getLineAndCharacterOfPosition(start);
        found.push({
          file,
          line: position.line + 1,
          column: position.character + 1,
          severity:
            diagnostic.category === ts.DiagnosticCategory.Error
              ? 'error'
              : diagnostic.category === ts.DiagnosticCategory.Warning
                ? 'warning'
                : 'suggestion',
          code: `TS${diagnostic.code}`,
          message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').slice(0, 300),
          element: this.enclosing(file, start),
        });
      }
    }
    return found;
  }
}

function lineText(sourceFile: SourceFile, line: number): string {
  const text = sourceFile.getFullText();
  const starts = sourceFile.compilerNode.getLineStarts();
  const from = starts[line - 1] ?? 0;
  const to = starts[line] ?? text.length;
  const code = text.slice(from, to).trim();
  return code.length > MAX_CODE_CHARS ? `${code.slice(0, MAX_CODE_CHARS - 1)}…` : code;
}
