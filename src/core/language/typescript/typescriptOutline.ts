import { ts } from 'ts-morph';
import type { ElementKind, ElementNode, FileOutline, SyntaxProblem, TextRange } from '../../elements/element';
import { formatElementPath, formatSegment, normalizeFilePath } from '../../elements/elementPath';
import { countLines } from '../../elements/lines';
import { ElementNestingError, isStackOverflow, MAX_ELEMENT_DEPTH } from '../../elements/nesting';
import {
  clip,
  collapse,
  firstLine,
  functionBody,
  functionInitializer,
  hasBlankLine,
  memberName,
  skipParens,
  statementLabel,
  unwrapObjectLiteral,
} from './syntaxText';

/**
 * Outlines a TypeScript or JavaScript file into its element tree. It walks the compiler's own syntax tree (through
 * ts-morph's `ts`) instead of ts-morph's wrapped nodes: outlining runs on every request and must stay close to the
 * cost of parsing itself.
 *
 * Why one file over 500 lines: it is one recursive walker. Each declaration kind is a case of the same walk, and
 * the cases call each other (a class member holds an object literal that holds a method); splitting by kind would
 * scatter one visitor over files that only make sense together. The helpers that need no walker state (text
 * clipping, unwrapping expressions, naming statements) are in syntaxText.ts.
 */

/** The dialect, which picks the parser's script kind and the fence tag of a context. */
export type SourceLanguage = 'ts' | 'tsx' | 'js' | 'jsx';

const LANGUAGE_BY_EXTENSION: Readonly<Record<string, SourceLanguage>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
};

export function languageOf(file: string): SourceLanguage | undefined {
  const match = /\.[cm]?[jt]sx?$/i.exec(file);
  return match === null ? undefined : LANGUAGE_BY_EXTENSION[match[0].toLowerCase()];
}

const SCRIPT_KIND: Readonly<Record<SourceLanguage, ts.ScriptKind>> = {
  ts: ts.ScriptKind.TS,
  tsx: ts.ScriptKind.TSX,
  js: ts.ScriptKind.JS,
  jsx: ts.ScriptKind.JSX,
};

export function parseSource(file: string, text: string): ts.SourceFile {
  const language = languageOf(file) ?? 'ts';
  try {
    return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, SCRIPT_KIND[language]);
  } catch (error) {
    // The compiler's parser recurses per nesting level: 1,500 nested namespaces exhaust the stack.
    if (isStackOverflow(error)) throw new ElementNestingError(file, 'is nested too deeply for the TypeScript parser');
    throw error;
  }
}

export function syntaxErrorsOf(sourceFile: ts.SourceFile): SyntaxProblem[] {
  // parseDiagnostics is not in the public typings, but it is exactly the parser's own list and costs nothing.
  const diagnostics = (sourceFile as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics ?? [];
  return diagnostics.map((d) => {
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(d.start ?? 0);
    return { message: ts.flattenDiagnosticMessageText(d.messageText, '\n'), line: line + 1, column: character + 1 };
  });
}

export function outlineTypeScript(file: string, text: string): FileOutline {
  const normalizedFile = normalizeFilePath(file);
  return outlineParsedSource(normalizedFile, parseSource(normalizedFile, text));
}

/** The outline of a file already parsed with {@link parseSource}, for callers that need the syntax tree too. */
export function outlineParsedSource(file: string, sourceFile: ts.SourceFile): FileOutline {
  const normalizedFile = normalizeFilePath(file);
  const text = sourceFile.text;
  const walker = new OutlineWalker(sourceFile, normalizedFile);
  const elements = walker.statements(sourceFile.statements, []);
  return {
    file: normalizedFile,
    text,
    language: languageOf(normalizedFile) ?? 'ts',
    elements,
    syntaxErrors: syntaxErrorsOf(sourceFile),
    lineCount: countLines(text),
  };
}

/** One element before its path is known: siblings must all be seen to number same-named ones. */
interface Candidate {
  readonly kind: ElementKind;
  readonly name: string;
  /** The nodes of the element: one, or every signature of an overload set. */
  readonly nodes: readonly ts.Node[];
  /** Overrides the range start/end (a declarator sharing its statement with others). */
  readonly rangeNode?: ts.Node;
  readonly signature: () => string;
  readonly body?: () => TextRange | undefined;
  readonly children?: (segments: readonly string[]) => ElementNode[];
}

class OutlineWalker {
  private readonly text: string;

  constructor(
    private readonly sourceFile: ts.SourceFile,
    private readonly file: string,
  ) {
    this.text = sourceFile.text;
  }

  statements(statements: readonly ts.Statement[], parentSegments: readonly string[]): ElementNode[] {
    const candidates: Candidate[] = [];
    for (const statement of statements) candidates.push(...this.statementCandidates(statement));
    return this.build(mergeOverloads(candidates), parentSegments);
  }

  private build(candidates: readonly Candidate[], parentSegments: readonly string[]): ElementNode[] {
    const counts = new Map<string, number>();
    for (const c of candidates) counts.set(`${c.kind}\0${c.name}`, (counts.get(`${c.kind}\0${c.name}`) ?? 0) + 1);
    const seen = new Map<string, number>();
    return candidates.map((candidate) => {
      const key = `${candidate.kind}\0${candidate.name}`;
      const ordinal = (counts.get(key) ?? 1) > 1 ? (seen.get(key) ?? 0) + 1 : undefined;
      if (ordinal !== undefined) seen.set(key, ordinal);
      const segment = formatSegment(candidate.kind, candidate.name, ordinal);
      return this.node(candidate, [...parentSegments, segment], ordinal);
    });
  }

  private node(candidate: Candidate, segments: readonly string[], ordinal: number | undefined): ElementNode {
    const first = candidate.rangeNode ?? candidate.nodes[0];
    const last = candidate.rangeNode ?? candidate.nodes[candidate.nodes.length - 1];
    if (first === undefined || last === undefined) throw new Error('element without a syntax node');
    if (segments.length > MAX_ELEMENT_DEPTH) throw new ElementNestingError(this.file);
    const path = formatElementPath(this.file, segments);
    const range = { start: this.leadingStart(first), end: last.end };
    const declarationRange = { start: first.getStart(this.sourceFile), end: last.end };
    const bodyRange = candidate.body?.();
    const overloads =
      candidate.nodes.length > 1
        ? candidate.nodes.map((n, i) => {
            const overloadSegments = [...segments.slice(0, -1), `${segments[segments.length - 1]}#${i + 1}`];
            return this.plainNode(candidate.kind, candidate.name, n, formatElementPath(this.file, overloadSegments));
          })
        : undefined;
    const element: ElementNode = {
      kind: candidate.kind,
      name: candidate.name,
      path,
      range,
      declarationRange,
      startLine: this.lineOf(range.start),
      endLine: this.lineOf(range.end),
      signature: candidate.signature(),
      children: candidate.children?.(segments) ?? [],
      ...(ordinal === undefined ? {} : { ordinal }),
      ...(bodyRange === undefined ? {} : { bodyRange }),
      ...(overloads === undefined ? {} : { overloads }),
    };
    return element;
  }

  /** A single signature of an overload set. */
  private plainNode(kind: ElementKind, name: string, node: ts.Node, path: string): ElementNode {
    const range = { start: this.leadingStart(node), end: node.end };
    const body = functionBody(node);
    return {
      kind,
      name,
      path,
      range,
      declarationRange: { start: node.getStart(this.sourceFile), end: node.end },
      startLine: this.lineOf(range.start),
      endLine: this.lineOf(range.end),
      signature: this.headText(node, body),
      children: [],
      ...(body === undefined ? {} : { bodyRange: this.rangeOf(body) }),
    };
  }

  private lineOf(offset: number): number {
    return this.sourceFile.getLineAndCharacterOfPosition(offset).line + 1;
  }

  private rangeOf(node: ts.Node): TextRange {
    return { start: node.getStart(this.sourceFile), end: node.end };
  }

  /**
   * Where an element starts: its first token, or the first of the comments directly above it. A comment belongs to
   * the element when no blank line separates them (so a section header or a file licence above a blank line stays
   * outside).
   */
  private leadingStart(node: ts.Node): number {
    const tokenStart = node.getStart(this.sourceFile);
    const comments = ts.getLeadingCommentRanges(this.text, node.pos) ?? [];
    let start = tokenStart;
    for (let i = comments.length - 1; i >= 0; i--) {
      const comment = comments[i];
      if (comment === undefined) break;
      if (hasBlankLine(this.text, comment.end, start)) break;
      start = comment.pos;
    }
    return start;
  }

  /** Declaration text up to its body, whitespace collapsed: `validate(input: string): boolean`. */
  private headText(node: ts.Node, body: ts.Node | undefined): string {
    const start = node.getStart(this.sourceFile);
    const end = body === undefined ? node.end : body.getStart(this.sourceFile);
    return clip(collapse(this.text.slice(start, end)).replace(/\s*[;,]$/, ''));
  }

  private textOf(node: ts.Node): string {
    return this.text.slice(node.getStart(this.sourceFile), node.end);
  }

  private statementCandidates(statement: ts.Statement): Candidate[] {
    const sf = this.sourceFile;
    if (ts.isImportDeclaration(statement)) {
      const module = ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : this.textOf(statement.moduleSpecifier);
      return [
        { kind: 'import', name: module, nodes: [statement], signature: () => clip(collapse(this.textOf(statement))) },
      ];
    }
    if (ts.isImportEqualsDeclaration(statement)) {
      const reference = statement.moduleReference;
      const module =
        ts.isExternalModuleReference(reference) && ts.isStringLiteral(reference.expression)
          ? reference.expression.text
          : this.textOf(reference);
      return [
        { kind: 'import', name: module, nodes: [statement], signature: () => clip(collapse(this.textOf(statement))) },
      ];
    }
    if (ts.isClassDeclaration(statement)) {
      const name = statement.name?.text;
      return [
        {
          kind: name === undefined ? 'default' : 'class',
          name: name ?? '',
          nodes: [statement],
          signature: () => this.classHead(statement),
          body: () => this.membersBody(statement.members),
          children: (segments) => this.classMembers(statement.members, segments),
        },
      ];
    }
    if (ts.isFunctionDeclaration(statement)) {
      const name = statement.name?.text;
      return [this.functionLike(name === undefined ? 'default' : 'function', name ?? '', statement)];
    }
    if (ts.isInterfaceDeclaration(statement)) {
      return [
        {
          kind: 'interface',
          name: statement.name.text,
          nodes: [statement],
          signature: () => clip(collapse(this.text.slice(statement.getStart(sf), statement.members.pos - 1))),
          body: () => this.membersBody(statement.members),
          children: (segments) => this.typeMembers(statement.members, segments),
        },
      ];
    }
    if (ts.isTypeAliasDeclaration(statement)) {
      const literal = ts.isTypeLiteralNode(statement.type) ? statement.type : undefined;
      const candidate: Candidate = {
        kind: 'type',
        name: statement.name.text,
        nodes: [statement],
        signature: () =>
          literal === undefined
            ? clip(collapse(this.textOf(statement)).replace(/;$/, ''))
            : clip(collapse(this.text.slice(statement.getStart(sf), literal.getStart(sf)))),
      };
      if (literal === undefined) return [candidate];
      return [
        {
          ...candidate,
          body: () => this.rangeOf(literal),
          children: (segments) => this.typeMembers(literal.members, segments),
        },
      ];
    }
    if (ts.isEnumDeclaration(statement)) {
      return [
        {
          kind: 'enum',
          name: statement.name.text,
          nodes: [statement],
          signature: () => clip(collapse(this.text.slice(statement.getStart(sf), statement.members.pos - 1))),
          body: () => this.membersBody(statement.members),
          children: (segments) => this.enumMembers(statement.members, segments),
        },
      ];
    }
    if (ts.isModuleDeclaration(statement)) return [this.namespace(statement)];
    if (ts.isVariableStatement(statement)) return this.variables(statement);
    if (ts.isExportAssignment(statement)) {
      const objectLiteral = unwrapObjectLiteral(statement.expression);
      const classExpression = ts.isClassExpression(statement.expression) ? statement.expression : undefined;
      const functionExpression =
        ts.isFunctionExpression(statement.expression) || ts.isArrowFunction(statement.expression)
          ? statement.expression
          : undefined;
      const candidate: Candidate = {
        kind: statement.isExportEquals === true ? 'export=' : 'default',
        name: '',
        nodes: [statement],
        signature: () => {
          if (objectLiteral !== undefined)
            return clip(collapse(this.text.slice(statement.getStart(sf), objectLiteral.getStart(sf))) + ' {…}');
          if (functionExpression !== undefined) return this.headText(statement, functionBody(functionExpression));
          return clip(collapse(this.textOf(statement)));
        },
      };
      if (objectLiteral !== undefined) {
        return [
          {
            ...candidate,
            body: () => this.rangeOf(objectLiteral),
            children: (s) => this.objectMembers(objectLiteral, s),
          },
        ];
      }
      if (classExpression !== undefined) {
        return [
          {
            ...candidate,
            signature: () => clip(collapse(this.text.slice(statement.getStart(sf), classExpression.members.pos - 1))),
            body: () => this.membersBody(classExpression.members),
            children: (s) => this.classMembers(classExpression.members, s),
          },
        ];
      }
      if (functionExpression !== undefined) {
        const body = functionBody(functionExpression);
        return [{ ...candidate, body: () => (body === undefined ? undefined : this.rangeOf(body)) }];
      }
      return [candidate];
    }
    if (ts.isExportDeclaration(statement)) {
      const module =
        statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)
            ? `{${statement.exportClause.elements.map((e) => e.name.text).join(',')}}`
            : '*';
      return [
        { kind: 'export', name: module, nodes: [statement], signature: () => clip(collapse(this.textOf(statement))) },
      ];
    }
    if (ts.isEmptyStatement(statement)) return [];
    return [
      this.withCallback(
        {
          kind: 'statement',
          name: statementLabel(statement),
          nodes: [statement],
          signature: () => clip(firstLine(this.textOf(statement))),
        },
        statement,
      ),
    ];
  }

  /**
   * A call statement that passes a function (`describe('x', () => {...})`, `app.get('/x', (req) => {...})`) holds
   * the calls of that function's body that pass functions in turn, to any depth: tests, hooks and route handlers
   * are where real edits land, and one `describe` leaf would put a whole suite in focus for a one-test change.
   */
  private withCallback(candidate: Candidate, statement: ts.Statement): Candidate {
    const callback = callbackOf(statement);
    if (callback === undefined || !ts.isBlock(callback.body)) return candidate;
    const block = callback.body;
    return {
      ...candidate,
      signature: () => this.headText(statement, block),
      body: () => this.rangeOf(block),
      children: (segments) => this.callbackCalls(block.statements, segments),
    };
  }

  private callbackCalls(statements: readonly ts.Statement[], parentSegments: readonly string[]): ElementNode[] {
    const candidates: Candidate[] = [];
    for (const statement of statements) {
      const call = callOf(statement);
      if (call === undefined || !call.arguments.some((a) => functionInitializer(a) !== undefined)) continue;
      candidates.push(
        this.withCallback(
          {
            kind: 'call',
            name: callName(statement, call),
            nodes: [statement],
            signature: () => clip(firstLine(this.textOf(statement))),
          },
          statement,
        ),
      );
    }
    return this.build(candidates, parentSegments);
  }

  private functionLike(
    kind: ElementKind,
    name: string,
    node: ts.FunctionLikeDeclaration | ts.SignatureDeclaration,
  ): Candidate {
    return {
      kind,
      name,
      nodes: [node],
      signature: () => this.headText(node, functionBody(node)),
      body: () => {
        const body = functionBody(node);
        return body === undefined ? undefined : this.rangeOf(body);
      },
    };
  }

  private classHead(node: ts.ClassLikeDeclaration): string {
    return clip(collapse(this.text.slice(node.getStart(this.sourceFile), node.members.pos - 1)));
  }

  /** The `{ ... }` around a member list: the brace sits just before the list's first position. */
  private membersBody(members: ts.NodeArray<ts.Node>): TextRange {
    const open = this.text.lastIndexOf('{', members.pos);
    const close = this.text.indexOf('}', members.end);
    return { start: open < 0 ? members.pos : open, end: close < 0 ? members.end : close + 1 };
  }

  private namespace(node: ts.ModuleDeclaration): Candidate {
    const name = ts.isStringLiteral(node.name) ? node.name.text : node.name.text;
    const body = node.body;
    return {
      kind: 'namespace',
      name,
      nodes: [node],
      signature: () => {
        if (ts.isModuleDeclaration(node.parent)) return `namespace ${name}`;
        let innermost = body;
        while (innermost !== undefined && ts.isModuleDeclaration(innermost)) innermost = innermost.body;
        const end = innermost === undefined ? node.end : innermost.getStart(this.sourceFile);
        return clip(collapse(this.text.slice(node.getStart(this.sourceFile), end)));
      },
      body: () => (body === undefined ? undefined : this.rangeOf(body)),
      children: (segments) => {
        if (body === undefined) return [];
        if (ts.isModuleBlock(body)) return this.statements(body.statements, segments);
        if (ts.isModuleDeclaration(body)) return this.build([this.namespace(body)], segments);
        return [];
      },
    };
  }

  private variables(statement: ts.VariableStatement): Candidate[] {
    const declarations = statement.declarationList.declarations;
    const shared = declarations.length === 1;
    const head = collapse(
      this.text.slice(statement.getStart(this.sourceFile), declarations[0]?.getStart(this.sourceFile) ?? statement.end),
    );
    const candidates: Candidate[] = [];
    for (const declaration of declarations) {
      if (!ts.isIdentifier(declaration.name)) {
        // Destructuring `const { a, b } = x`: one element named by its pattern text.
        candidates.push({
          kind: 'variable',
          name: collapse(this.textOf(declaration.name)),
          nodes: [shared ? statement : declaration],
          signature: () => clip(`${head} ${collapse(this.textOf(declaration))}`),
        });
        continue;
      }
      candidates.push(this.variable(statement, declaration, declaration.name.text, head, shared));
    }
    return candidates;
  }

  private variable(
    statement: ts.VariableStatement,
    declaration: ts.VariableDeclaration,
    name: string,
    head: string,
    wholeStatement: boolean,
  ): Candidate {
    const sf = this.sourceFile;
    const initializer = declaration.initializer;
    const node = wholeStatement ? statement : declaration;
    const objectLiteral = initializer === undefined ? undefined : unwrapObjectLiteral(initializer);
    const classExpression =
      initializer !== undefined && ts.isClassExpression(skipParens(initializer))
        ? (skipParens(initializer) as ts.ClassExpression)
        : undefined;
    const fn = initializer !== undefined ? functionInitializer(initializer) : undefined;
    const prefix = `${head} `;
    const base: Candidate = {
      kind: 'variable',
      name,
      nodes: [node],
      signature: () => {
        const declarationText = this.textOf(declaration);
        if (initializer === undefined) return clip(prefix + collapse(declarationText));
        const beforeInitializer = collapse(this.text.slice(declaration.getStart(sf), initializer.getStart(sf)));
        if (fn !== undefined) {
          const fnBody = functionBody(fn);
          const fnHead = fnBody === undefined ? this.textOf(fn) : this.text.slice(fn.getStart(sf), fnBody.getStart(sf));
          return clip(
            `${prefix}${beforeInitializer} ${collapse(this.text.slice(initializer.getStart(sf), fn.getStart(sf)))}${collapse(fnHead)}`.replace(
              / +/g,
              ' ',
            ),
          );
        }
        if (objectLiteral !== undefined) return clip(`${prefix}${beforeInitializer} {…}`);
        if (classExpression !== undefined)
          return clip(
            `${prefix}${beforeInitializer} ${collapse(this.text.slice(classExpression.getStart(sf), classExpression.members.pos - 1))}`,
          );
        const initText = collapse(this.textOf(initializer));
        return clip(`${prefix}${beforeInitializer} ${initText.length <= 60 ? initText : '…'}`);
      },
    };
    if (fn !== undefined) {
      const body = functionBody(fn);
      return { ...base, body: () => (body === undefined ? undefined : this.rangeOf(body)) };
    }
    if (objectLiteral !== undefined) {
      return {
        ...base,
        body: () => this.rangeOf(objectLiteral),
        children: (s) => this.objectMembers(objectLiteral, s),
      };
    }
    if (classExpression !== undefined) {
      return {
        ...base,
        body: () => this.membersBody(classExpression.members),
        children: (s) => this.classMembers(classExpression.members, s),
      };
    }
    return base;
  }

  private classMembers(members: ts.NodeArray<ts.ClassElement>, parentSegments: readonly string[]): ElementNode[] {
    const candidates: Candidate[] = [];
    let staticBlocks = 0;
    for (const member of members) {
      if (ts.isSemicolonClassElement(member)) continue;
      if (ts.isConstructorDeclaration(member)) candidates.push(this.functionLike('constructor', '', member));
      else if (ts.isMethodDeclaration(member))
        candidates.push(this.functionLike('method', memberName(member.name, this.sourceFile), member));
      else if (ts.isGetAccessorDeclaration(member))
        candidates.push(this.functionLike('getter', memberName(member.name, this.sourceFile), member));
      else if (ts.isSetAccessorDeclaration(member))
        candidates.push(this.functionLike('setter', memberName(member.name, this.sourceFile), member));
      else if (ts.isPropertyDeclaration(member)) candidates.push(this.property(member));
      else if (ts.isIndexSignatureDeclaration(member)) candidates.push(this.indexSignature(member));
      else if (ts.isClassStaticBlockDeclaration(member)) {
        staticBlocks += 1;
        candidates.push({
          kind: 'static',
          name: String(staticBlocks),
          nodes: [member],
          signature: () => 'static',
          body: () => this.rangeOf(member.body),
        });
      }
    }
    return this.build(mergeOverloads(candidates), parentSegments);
  }

  private property(member: ts.PropertyDeclaration | ts.PropertySignature): Candidate {
    const sf = this.sourceFile;
    const initializer = ts.isPropertyDeclaration(member) ? member.initializer : undefined;
    const fn = initializer === undefined ? undefined : functionInitializer(initializer);
    return {
      kind: 'property',
      name: memberName(member.name, sf),
      nodes: [member],
      signature: () => {
        if (initializer === undefined) return clip(collapse(this.textOf(member)).replace(/;$/, ''));
        const before = collapse(this.text.slice(member.getStart(sf), initializer.getStart(sf)));
        if (fn !== undefined) {
          const fnBody = functionBody(fn);
          return clip(
            `${before} ${collapse(fnBody === undefined ? this.textOf(fn) : this.text.slice(fn.getStart(sf), fnBody.getStart(sf)))}`,
          );
        }
        const initText = collapse(this.textOf(initializer));
        if (member.type !== undefined) return clip(before.replace(/\s*=$/, ''));
        return clip(`${before} ${initText.length <= 60 ? initText : '…'}`);
      },
      body: () => {
        const body = fn === undefined ? undefined : functionBody(fn);
        return body === undefined ? undefined : this.rangeOf(body);
      },
    };
  }

  private indexSignature(member: ts.IndexSignatureDeclaration): Candidate {
    const parameter = member.parameters[0];
    const keyType = parameter?.type === undefined ? 'key' : collapse(this.textOf(parameter.type));
    return {
      kind: 'index',
      name: keyType,
      nodes: [member],
      signature: () => clip(collapse(this.textOf(member)).replace(/[;,]$/, '')),
    };
  }

  private typeMembers(members: ts.NodeArray<ts.TypeElement>, parentSegments: readonly string[]): ElementNode[] {
    const candidates: Candidate[] = [];
    for (const member of members) {
      const signature = () => clip(collapse(this.textOf(member)).replace(/[;,]$/, ''));
      if (ts.isPropertySignature(member))
        candidates.push({
          kind: 'property',
          name: memberName(member.name, this.sourceFile),
          nodes: [member],
          signature,
        });
      else if (ts.isMethodSignature(member))
        candidates.push({ kind: 'method', name: memberName(member.name, this.sourceFile), nodes: [member], signature });
      else if (ts.isIndexSignatureDeclaration(member)) candidates.push(this.indexSignature(member));
      else if (ts.isCallSignatureDeclaration(member))
        candidates.push({ kind: 'call', name: '', nodes: [member], signature });
      else if (ts.isConstructSignatureDeclaration(member))
        candidates.push({ kind: 'constructor', name: '', nodes: [member], signature });
      else if (ts.isGetAccessorDeclaration(member))
        candidates.push({ kind: 'getter', name: memberName(member.name, this.sourceFile), nodes: [member], signature });
      else if (ts.isSetAccessorDeclaration(member))
        candidates.push({ kind: 'setter', name: memberName(member.name, this.sourceFile), nodes: [member], signature });
    }
    return this.build(mergeOverloads(candidates), parentSegments);
  }

  private enumMembers(members: ts.NodeArray<ts.EnumMember>, parentSegments: readonly string[]): ElementNode[] {
    const candidates: Candidate[] = members.map((member) => ({
      kind: 'member',
      name: memberName(member.name, this.sourceFile),
      nodes: [member],
      signature: () => clip(collapse(this.textOf(member))),
    }));
    return this.build(candidates, parentSegments);
  }

  private objectMembers(literal: ts.ObjectLiteralExpression, parentSegments: readonly string[]): ElementNode[] {
    const sf = this.sourceFile;
    const candidates: Candidate[] = [];
    for (const member of literal.properties) {
      if (ts.isPropertyAssignment(member)) {
        const name = memberName(member.name, sf);
        const nested = unwrapObjectLiteral(member.initializer);
        const fn = functionInitializer(member.initializer);
        const candidate: Candidate = {
          kind: 'property',
          name,
          nodes: [member],
          signature: () => {
            const before = collapse(this.text.slice(member.getStart(sf), member.initializer.getStart(sf)));
            if (nested !== undefined) return clip(`${before} {…}`);
            if (fn !== undefined) {
              const fnBody = functionBody(fn);
              return clip(
                `${before} ${collapse(fnBody === undefined ? this.textOf(fn) : this.text.slice(fn.getStart(sf), fnBody.getStart(sf)))}`,
              );
            }
            const initText = collapse(this.textOf(member.initializer));
            return clip(`${before} ${initText.length <= 60 ? initText : '…'}`);
          },
        };
        if (nested !== undefined) {
          candidates.push({
            ...candidate,
            body: () => this.rangeOf(nested),
            children: (s) => this.objectMembers(nested, s),
          });
        } else if (fn !== undefined) {
          const body = functionBody(fn);
          candidates.push({ ...candidate, body: () => (body === undefined ? undefined : this.rangeOf(body)) });
        } else {
          candidates.push(candidate);
        }
      } else if (ts.isShorthandPropertyAssignment(member)) {
        candidates.push({
          kind: 'property',
          name: member.name.text,
          nodes: [member],
          signature: () => member.name.text,
        });
      } else if (ts.isMethodDeclaration(member)) {
        candidates.push(this.functionLike('method', memberName(member.name, sf), member));
      } else if (ts.isGetAccessorDeclaration(member)) {
        candidates.push(this.functionLike('getter', memberName(member.name, sf), member));
      } else if (ts.isSetAccessorDeclaration(member)) {
        candidates.push(this.functionLike('setter', memberName(member.name, sf), member));
      }
    }
    return this.build(candidates, parentSegments);
  }
}

/** The call an expression statement makes (through `await` and parentheses), if it makes one. */
function callOf(statement: ts.Statement): ts.CallExpression | undefined {
  if (!ts.isExpressionStatement(statement)) return undefined;
  let expression = skipParens(statement.expression);
  if (ts.isAwaitExpression(expression) || ts.isVoidExpression(expression))
    expression = skipParens(expression.expression);
  return ts.isCallExpression(expression) ? expression : undefined;
}

/** The last function a call statement passes (`it('x', () => {...}, 1000)` passes one, then a timeout). */
function callbackOf(statement: ts.Statement): ts.ArrowFunction | ts.FunctionExpression | undefined {
  const call = callOf(statement);
  if (call === undefined) return undefined;
  for (let i = call.arguments.length - 1; i >= 0; i--) {
    const argument = call.arguments[i];
    const fn = argument === undefined ? undefined : functionInitializer(argument);
    if (fn !== undefined) return fn;
  }
  return undefined;
}

/**
 * A nested call's name: its callee and, in quotes, its first string argument (`it 'adds two numbers'`,
 * `test.each 'adds %i'`), so that a test is addressed by its title rather than by its place among fifty `it`s.
 */
function callName(statement: ts.Statement, call: ts.CallExpression): string {
  const callee = statementLabel(statement);
  const first = call.arguments[0];
  if (first === undefined || !(ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) return callee;
  return `${callee} '${collapse(first.text)}'`;
}

/**
 * Folds overload signatures and their implementation into one candidate: consecutive same-kind same-name
 * function-likes where all but the last have no body (declarations in .d.ts style have none at all).
 */
function mergeOverloads(candidates: readonly Candidate[]): Candidate[] {
  const merged: Candidate[] = [];
  for (const candidate of candidates) {
    const previous = merged[merged.length - 1];
    const node = candidate.nodes[0];
    if (
      previous !== undefined &&
      node !== undefined &&
      previous.kind === candidate.kind &&
      previous.name === candidate.name &&
      isOverloadable(previous.kind) &&
      previous.nodes.every((n) => isSignatureOnly(n)) &&
      sameOverloadFamily(previous.nodes[0], node)
    ) {
      const nodes = [...previous.nodes, ...candidate.nodes];
      merged[merged.length - 1] = { ...candidate, nodes, signature: previous.signature };
      continue;
    }
    merged.push(candidate);
  }
  return merged;
}

function isOverloadable(kind: ElementKind): boolean {
  return kind === 'function' || kind === 'method' || kind === 'constructor' || kind === 'default';
}

function isSignatureOnly(node: ts.Node): boolean {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isMethodSignature(node)) &&
    (ts.isMethodSignature(node) || node.body === undefined)
  );
}

function sameOverloadFamily(a: ts.Node | undefined, b: ts.Node): boolean {
  if (a === undefined) return false;
  const staticA =
    ts.canHaveModifiers(a) && (ts.getModifiers(a) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
  const staticB =
    ts.canHaveModifiers(b) && (ts.getModifiers(b) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
  return a.kind === b.kind && staticA === staticB;
}
