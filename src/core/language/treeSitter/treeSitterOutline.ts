import type { Node, Tree } from 'web-tree-sitter';
import type { ElementNode, FileOutline, SyntaxProblem, TextRange } from '../../elements/element';
import { formatElementPath, formatSegment } from '../../elements/elementPath';
import { countLines, LineIndex } from '../../elements/lines';
import { ElementNestingError, MAX_ELEMENT_DEPTH } from '../../elements/nesting';
import type { ContainerFlavor } from '../languageSupport';
import type { Declaration, ParentInfo, TreeSitterLanguageSpec } from './languageSpec';
import { loadedGrammar, parserFor } from './treeSitterRuntime';

/** The language's grammar was not loaded before a synchronous parse: a surface forgot `loadLanguagesFor`. */
export class GrammarNotLoadedError extends Error {
  constructor(displayName: string) {
    super(`the ${displayName} parser is not loaded yet (loadLanguagesFor must run before a file is read)`);
    this.name = 'GrammarNotLoadedError';
  }
}

/** The grammar file a spec's language names in the catalog. */
export function grammarOf(spec: TreeSitterLanguageSpec): string {
  const grammar = spec.info.grammar;
  if (grammar === undefined) throw new Error(`${spec.info.displayName}: the language catalog names no grammar`);
  return grammar;
}

/** Parses text with a spec's grammar; the caller deletes the tree (it lives in WebAssembly memory). */
export function parseWithSpec(spec: TreeSitterLanguageSpec, text: string): Tree {
  const grammar = loadedGrammar(grammarOf(spec));
  if (grammar === undefined) throw new GrammarNotLoadedError(spec.info.displayName);
  const tree = parserFor(grammar).parse(text);
  if (tree === null) throw new Error(`${spec.info.displayName}: the parser returned no tree`);
  return tree;
}

/** Where members of an element go, for CREATE_ELEMENT: kept beside the outline, by element path. */
export interface BodyInfo {
  readonly flavor: ContainerFlavor;
  /** The body node's range (`{ ... }` with its brackets, or an indented block). */
  readonly range: TextRange;
  /** Offset where the first member goes (after a docstring); an indented block only. */
  readonly firstMemberStart: number;
  /** The lone placeholder statement of the body (`pass`), a docstring aside; an indented block only. */
  readonly placeholder?: TextRange;
}

export interface SpecOutline {
  readonly outline: FileOutline;
  readonly bodies: ReadonlyMap<string, BodyInfo>;
  /**
   * The end of the last top-level node of the spec's `headerTypes` (Go's `package` clause), or of a file comment after
   * one; 0 when none.
   */
  readonly headerEnd: number;
}

const SIGNATURE_LIMIT = 200;
/** A decorator shown above a signature is one short line: its arguments are no part of what the model addresses. */
const DECORATOR_LIMIT = 100;

/** A run of sibling nodes still to be read, and the list their elements go into. */
interface LevelWork {
  readonly nodes: readonly Node[];
  readonly parent: ParentInfo;
  readonly segments: readonly string[];
  readonly into: ElementNode[];
}

interface Candidate {
  readonly declaration: Declaration;
  readonly node: Node;
  /** The node the range is taken from (a wrapper such as `decorated_definition`, else the node). */
  readonly outer: Node;
  readonly start: number;
  /** A node after the declaration that belongs to it (an attribute docstring); its end ends the range. */
  readonly trailer?: Node;
}

/** The element tree of a parse, with the bodies of its containers. */
export class SpecOutliner {
  readonly bodies = new Map<string, BodyInfo>();
  headerEnd = 0;
  private readonly lines: LineIndex;

  constructor(
    private readonly spec: TreeSitterLanguageSpec,
    private readonly file: string,
    private readonly text: string,
  ) {
    this.lines = new LineIndex(text);
  }

  outline(tree: Tree): FileOutline {
    const headerTypes = this.spec.headerTypes ?? [];
    for (const node of tree.rootNode.namedChildren) {
      // A file comment (Rust's `//!`) may follow an inner attribute; code must come after both.
      const heads =
        headerTypes.includes(node.type) ||
        (this.spec.commentTypes.includes(node.type) && this.spec.isFileComment?.(node) === true && this.headerEnd > 0);
      if (heads) this.headerEnd = Math.max(this.headerEnd, node.endIndex);
    }
    const elements = this.levels(this.childrenOf(tree.rootNode), { kind: undefined, node: undefined }, []);
    return {
      file: this.file,
      text: this.text,
      language: this.spec.fenceTag,
      elements,
      syntaxErrors: [
        ...syntaxProblemsOf(tree.rootNode, this.lines, this.text),
        ...emptyBodiesOf(tree.rootNode, this.spec.nonEmptyTypes ?? [], this.lines),
        ...(this.spec.compilerProblems?.(tree.rootNode, this.text) ?? []),
      ].sort((a, b) => a.line - b.line || a.column - b.column),
      lineCount: countLines(this.text),
    };
  }

  /**
   * The elements among sibling nodes (the root's children) and, level by level, those of their bodies. Iterative, not
   * recursive: a file of 1,500 nested modules or classes must not exhaust the stack (issue 25).
   */
  private levels(nodes: readonly Node[], parent: ParentInfo, parentSegments: readonly string[]): ElementNode[] {
    const top: ElementNode[] = [];
    const work: LevelWork[] = [{ nodes, parent, segments: parentSegments, into: top }];
    for (let next = work.pop(); next !== undefined; next = work.pop()) {
      for (const { candidate, segment, ordinal } of this.level(next.nodes, next.parent)) {
        const children: ElementNode[] = [];
        const segments = [...next.segments, segment];
        if (segments.length > MAX_ELEMENT_DEPTH) throw new ElementNestingError(this.file);
        next.into.push(this.element(candidate, segments, ordinal, children));
        const body = candidate.declaration.body;
        if (body !== null) {
          const inner = { kind: candidate.declaration.kind, node: candidate.node };
          work.push({ nodes: this.childrenOf(body), parent: inner, segments, into: children });
        }
      }
    }
    return top;
  }

  /** The declarations among sibling nodes, each with its path segment and ordinal. */
  private level(
    nodes: readonly Node[],
    parent: ParentInfo,
  ): Array<{ candidate: Candidate; segment: string; ordinal: number | undefined }> {
    const candidates: Candidate[] = [];
    let leadingFrom: Node | undefined;
    let previous: Node | undefined;
    for (const [index, node] of nodes.entries()) {
      if (candidates.at(-1)?.trailer === node) {
        previous = node;
        continue;
      }
      const isComment = this.spec.commentTypes.includes(node.type);
      if (isComment && this.spec.isFileComment?.(node) === true) {
        leadingFrom = undefined;
        previous = node;
        continue;
      }
      const isLeading = isComment || (this.spec.leadingTypes?.includes(node.type) ?? false);
      const adjacent = previous !== undefined && this.adjacent(previous, node);
      if (isLeading) {
        // A comment trailing code on its line belongs to that code, not to what follows.
        const ownLine = !isComment || this.startsLine(node.startIndex);
        if (!ownLine) leadingFrom = undefined;
        else if (leadingFrom === undefined || !adjacent) leadingFrom = node;
        previous = node;
        continue;
      }
      const inner = this.spec.unwrap?.(node) ?? node;
      const declaration = this.spec.declarationOf(inner, parent);
      if (declaration !== undefined) {
        const start = leadingFrom !== undefined && adjacent ? leadingFrom.startIndex : node.startIndex;
        const next = nodes[index + 1];
        const trails = next !== undefined && this.adjacent(node, next) && (this.spec.trails?.(inner, next) ?? false);
        candidates.push({ declaration, node: inner, outer: node, start, ...(trails ? { trailer: next } : {}) });
      }
      leadingFrom = undefined;
      previous = node;
    }
    const counts = new Map<string, number>();
    const keyOf = (c: Candidate): string => `${c.declaration.kind}\0${c.declaration.name}`;
    for (const c of candidates) counts.set(keyOf(c), (counts.get(keyOf(c)) ?? 0) + 1);
    const seen = new Map<string, number>();
    return candidates.map((candidate) => {
      const key = keyOf(candidate);
      const ordinal = (counts.get(key) ?? 1) > 1 ? (seen.get(key) ?? 0) + 1 : undefined;
      if (ordinal !== undefined) seen.set(key, ordinal);
      const segment = formatSegment(candidate.declaration.kind, candidate.declaration.name, ordinal);
      return { candidate, segment, ordinal };
    });
  }

  /** The named children of a node, those of an inlined node (spec.inlineTypes) in its place. */
  private childrenOf(node: Node): Node[] {
    const inline = this.spec.inlineTypes;
    if (inline === undefined) return node.namedChildren;
    return node.namedChildren.flatMap((child) => (inline.includes(child.type) ? this.childrenOf(child) : [child]));
  }

  /** No blank line between two nodes (so a comment run belongs to the declaration below it). */
  private adjacent(above: Node, below: Node): boolean {
    return this.lines.lineOf(below.startIndex) - this.lines.lineOf(Math.max(above.startIndex, above.endIndex - 1)) <= 1;
  }

  private startsLine(offset: number): boolean {
    const lineStart = this.lines.startOfLine(this.lines.lineOf(offset));
    return /^[ \t\ufeff]*$/.test(this.text.slice(lineStart, offset));
  }

  /** One element; `children` is filled in by the walk when it reaches the element's body. */
  private element(
    candidate: Candidate,
    segments: readonly string[],
    ordinal: number | undefined,
    children: ElementNode[],
  ): ElementNode {
    const { declaration, node, outer } = candidate;
    const path = formatElementPath(this.file, segments);
    const end = trimmedEnd(this.text, (candidate.trailer ?? outer).endIndex, outer.startIndex);
    const range = { start: candidate.start, end };
    const body = declaration.body;
    if (body !== null) this.bodies.set(path, this.bodyInfo(body, declaration.flavor ?? 'class'));
    const decorators = (this.spec.decoratorsOf?.(node, outer) ?? []).map((d) =>
      limit(d.replace(/\s+/g, ' ').trim(), DECORATOR_LIMIT),
    );
    return {
      kind: declaration.kind,
      name: declaration.name,
      path,
      range,
      declarationRange: { start: outer.startIndex, end },
      startLine: this.lines.lineOf(range.start),
      endLine: this.lines.lineOf(range.end),
      signature: this.signatureOf(node, body),
      ...(decorators.length === 0 ? {} : { decorators }),
      children,
      ...(ordinal === undefined ? {} : { ordinal }),
      ...(body === null ? {} : { bodyRange: { start: body.startIndex, end: body.endIndex } }),
    };
  }

  private bodyInfo(body: Node, flavor: ContainerFlavor): BodyInfo {
    let firstMemberStart = body.startIndex;
    let placeholder: TextRange | undefined;
    if (this.spec.syntax.blocks === 'indent') {
      const statements = body.namedChildren.filter(
        (child, index) => !this.spec.commentTypes.includes(child.type) && !(index === 0 && isDocstring(child)),
      );
      const [only] = statements;
      if (statements.length === 1 && only !== undefined && (this.spec.isPlaceholder?.(only) ?? false))
        placeholder = { start: only.startIndex, end: only.endIndex };
      // A docstring opens the body; members go after it.
      const [first, second] = body.namedChildren;
      if (first !== undefined && isDocstring(first)) {
        // The line of what follows the docstring, so the blank lines after the docstring stay where they are.
        const next =
          second === undefined ? this.lines.lineOf(first.endIndex) + 1 : this.lines.lineOf(second.startIndex);
        firstMemberStart = this.lines.startOfLine(next);
        if (firstMemberStart === 0 || firstMemberStart > body.endIndex) firstMemberStart = body.endIndex;
      } else {
        firstMemberStart = this.lines.startOfLine(this.lines.lineOf(body.startIndex));
      }
    }
    // A braced body may start with a keyword (Go's `interface { ... }`): the container opens at its bracket.
    const bracket = this.spec.syntax.blocks === 'braces' ? this.text.indexOf('{', body.startIndex) : -1;
    const start = bracket >= 0 && bracket < body.endIndex ? bracket : body.startIndex;
    return {
      flavor,
      range: { start, end: body.endIndex },
      firstMemberStart,
      ...(placeholder === undefined ? {} : { placeholder }),
    };
  }

  private signatureOf(node: Node, body: Node | null): string {
    const custom = this.spec.signatureOf?.(node, this.text);
    if (custom !== undefined) return limit(custom);
    const bodyNode = body ?? node.childForFieldName('body');
    const end = bodyNode === null ? node.endIndex : bodyNode.startIndex;
    let head = this.text.slice(node.startIndex, end).replace(/\s+/g, ' ').trim();
    head = head.replace(this.spec.syntax.blocks === 'indent' ? /\s*:$/ : /\s*\{$/, '');
    return limit(head);
  }
}

function limit(signature: string, max = SIGNATURE_LIMIT): string {
  return signature.length <= max ? signature : `${signature.slice(0, max - 1)}…`;
}

/** The end of a node without trailing whitespace (a grammar may let a block end after blank lines). */
function trimmedEnd(text: string, end: number, floor: number): number {
  let at = end;
  while (at > floor && /\s/.test(text.charAt(at - 1))) at -= 1;
  return at;
}

/** A string standing alone as the first statement: a Python docstring. */
function isDocstring(node: Node): boolean {
  return node.type === 'expression_statement' && node.namedChildCount === 1 && node.namedChildren[0]?.type === 'string';
}

/** Bodies the grammar accepted empty where the language needs code (an indented block that is not indented). */
function emptyBodiesOf(root: Node, types: readonly string[], lines: LineIndex): SyntaxProblem[] {
  if (types.length === 0) return [];
  return root
    .descendantsOfType([...types])
    .filter((node) => node !== null && node.childCount === 0)
    .map((node) => {
      const line = lines.lineOf(node.startIndex);
      return { message: 'an indented block expected', line, column: node.startIndex - lines.startOfLine(line) + 1 };
    });
}

/** ERROR and MISSING nodes, each once (an ERROR's own children are not reported again), in document order. */
export function syntaxProblemsOf(root: Node, lines: LineIndex, text: string): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  if (!root.hasError) return problems;
  // An explicit stack, not recursion: a deeply nested file must not exhaust the call stack.
  const stack: Node[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    // A leaf with an error that is neither MISSING nor ERROR: tree-sitter-c-sharp's stand-in for a name it needed and
    // did not find (`new List<int>();` among a class's members); zero-width, like a MISSING node.
    const missing = node.isMissing || (node.childCount === 0 && node.hasError && !node.isError);
    if (missing || node.isError) {
      const line = lines.lineOf(node.startIndex);
      const column = node.startIndex - lines.startOfLine(line) + 1;
      const shown = text.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 40)).split('\n')[0] ?? '';
      const message = missing ? `'${node.type}' expected` : `unexpected '${shown.trim()}'`;
      problems.push({ message, line, column });
      continue;
    }
    if (!node.hasError) continue;
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== undefined && child !== null) stack.push(child);
    }
  }
  return problems;
}
