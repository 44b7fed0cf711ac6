import type { ElementNode, FileOutline, SyntaxProblem } from '../../elements/element';
import { normalizeFilePath } from '../../elements/elementPath';
import type {
  ContainerFlavor,
  ContainerLookup,
  ContentShape,
  ImportBook,
  ImportContent,
  ImportEditing,
  LanguageSupport,
  SourceEditor,
} from '../languageSupport';
import type { ImportBindingChange, ImportShape } from '../importModel';
import type { TreeSitterLanguageSpec } from './languageSpec';
import { LineIndex } from '../../elements/lines';
import { type BodyInfo, grammarOf, parseWithSpec, SpecOutliner, type SpecOutline } from './treeSitterOutline';
import { type ExistingImport, SpecImportBook } from './specImportBook';
import { loadGrammar } from './treeSitterRuntime';

/**
 * A LanguageSupport made from a tree-sitter spec: the outline, the editing rules and the import operations are the
 * same for every such language; the spec says which nodes are elements and how the language is written.
 */
export function treeSitterLanguage(spec: TreeSitterLanguageSpec): LanguageSupport {
  return {
    ...spec.info,
    syntax: spec.syntax,
    load: async () => {
      await loadGrammar(grammarOf(spec));
    },
    outline: (file, text) => outlineWithSpec(spec, normalizeFilePath(file), text).outline,
    scanCode: (text) => spec.scanCode(text),
    editor: (file, text) => new SpecEditor(spec, normalizeFilePath(file), text),
    ...(spec.imports === undefined
      ? {}
      : { importBindingChange: (before: string, after: string) => importBindingChange(spec, before, after) }),
  };
}

export function outlineWithSpec(spec: TreeSitterLanguageSpec, file: string, text: string): SpecOutline {
  const tree = parseWithSpec(spec, text);
  try {
    const outliner = new SpecOutliner(spec, file, text);
    const outline = outliner.outline(tree);
    return { outline, bodies: outliner.bodies, headerEnd: outliner.headerEnd };
  } finally {
    tree.delete();
  }
}

/** The indentation of the line an offset is on, up to the offset. */
function lineIndentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

class SpecEditor implements SourceEditor {
  readonly outline: FileOutline;
  readonly semicolons = false;
  readonly declarators = undefined;
  readonly imports: ImportEditing | undefined;
  private readonly bodies: ReadonlyMap<string, BodyInfo>;
  private readonly headerEnd: number;

  constructor(
    private readonly spec: TreeSitterLanguageSpec,
    file: string,
    private readonly text: string,
  ) {
    const { outline, bodies, headerEnd } = outlineWithSpec(spec, file, text);
    this.outline = outline;
    this.bodies = bodies;
    this.headerEnd = headerEnd;
    this.imports = spec.imports === undefined ? undefined : new SpecImports(spec, this.outline);
  }

  containerOf(element: ElementNode): ContainerLookup {
    const body = this.bodies.get(element.path);
    if (body === undefined) return { ok: false, reason: `${element.kind} ${element.name} holds no elements` };
    const indent = lineIndentAt(this.text, element.declarationRange.start);
    if (this.spec.syntax.blocks === 'indent') {
      // A body on the definition's own line (`class A: pass`) has no line a member could go on.
      if (!this.text.slice(element.declarationRange.start, body.range.start).includes('\n'))
        return { ok: false, reason: `${element.kind} ${element.name} has its body on one line; replace it whole` };
      return {
        ok: true,
        container: {
          flavor: body.flavor,
          indent,
          block: {
            firstMemberStart: body.firstMemberStart,
            end: body.range.end,
            ...(body.placeholder === undefined ? {} : { placeholder: body.placeholder }),
          },
        },
      };
    }
    return {
      ok: true,
      container: { flavor: body.flavor, open: body.range.start, close: body.range.end - 1, indent },
    };
  }

  shapeOf(content: string, flavor: ContainerFlavor): ContentShape {
    return shapeWithSpec(this.spec, content, flavor);
  }

  keepModifiers(body: string): string {
    return body;
  }

  headsFile(element: ElementNode): boolean {
    return element.declarationRange.end <= this.headerEnd;
  }

  topInsertionOffset(): number {
    const text = this.text;
    const lines = new LineIndex(text);
    if (this.headerEnd > 0) {
      // After the header (Go's `package` clause, Java's `package` declaration, Rust's inner attributes) and the rest of its last line.
      const next = lines.startOfLine(lines.lineOf(this.headerEnd) + 1);
      return next <= this.headerEnd ? text.length : next;
    }
    // After the comments (licence, shebang, encoding) and a docstring at the head of the file.
    const first = this.outline.elements[0];
    const limit = first === undefined ? text.length : first.range.start;
    const head = text.slice(0, limit);
    const scan = this.spec.scanCode(head);
    const covered = [...scan.comments, ...scan.literals].sort((a, b) => a.start - b.start);
    let at = 0;
    for (const range of covered) {
      if (text.slice(at, range.start).trim() !== '') break;
      at = range.end;
    }
    if (at === 0) return 0;
    const next = lines.startOfLine(lines.lineOf(at) + 1);
    return next <= at ? text.length : next;
  }
}

/** Parses content as it will sit in a container of `flavor`; lines and elements are the content's own. */
export function shapeWithSpec(spec: TreeSitterLanguageSpec, content: string, flavor: ContainerFlavor): ContentShape {
  const dedented = dedent(content);
  const wrapped = spec.wrapContent?.(dedented, flavor) ?? { text: dedented, prefixLines: 0, indent: '' };
  const { outline, bodies } = outlineWithSpec(spec, 'content', wrapped.text);
  let elements = outline.elements;
  if (wrapped.prefixLines > 0) {
    const stand = outline.elements[0];
    elements = stand !== undefined && bodies.has(stand.path) ? stand.children : [];
  }
  const syntaxErrors: SyntaxProblem[] = outline.syntaxErrors.map((p) => ({
    ...p,
    line: Math.max(1, p.line - wrapped.prefixLines),
  }));
  return { elements, syntaxErrors, statementLike: false, terminated: false };
}

/** Removes the indentation all non-blank lines share (content a model sent at its own indentation). */
function dedent(content: string): string {
  const lines = content.split('\n');
  const widths = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const common = widths.length === 0 ? 0 : Math.min(...widths);
  return common === 0
    ? content
    : lines.map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)?.[0].length ?? 0))).join('\n');
}

class SpecImports implements ImportEditing {
  constructor(
    private readonly spec: TreeSitterLanguageSpec,
    private readonly outline: FileOutline,
  ) {}

  read(content: string): ImportContent {
    return readImports(this.spec, this.spec.imports?.asDeclaration?.(content) ?? content);
  }

  splitLeading(content: string): { imports: string; code: string } | undefined {
    const { outline } = outlineWithSpec(this.spec, 'content', dedent(content));
    let count = 0;
    while (outline.elements[count]?.kind === 'import') count += 1;
    const last = outline.elements[count - 1];
    const next = outline.elements[count];
    if (count === 0 || last === undefined || next === undefined) return undefined;
    return { imports: content.slice(0, last.range.end), code: content.slice(next.range.start) };
  }

  isDeclaration(content: string): boolean {
    const imports = this.spec.imports;
    return imports !== undefined && imports.parse(imports.asDeclaration?.(content) ?? content) !== undefined;
  }

  book(eol: '\n' | '\r\n'): ImportBook {
    const imports = this.spec.imports;
    if (imports === undefined) throw new Error('a language without imports has no import book');
    return new SpecImportBook(imports, importsOf(this.outline, imports.inNamespaces === true), eol);
  }
}

/**
 * The file's import declarations: top-level ones, and with `inNamespaces` those inside namespace blocks (C# usings
 * written in the namespace). New ones are placed beside the top-level ones, or when there are none, beside those of the first
 * namespace that has some; a blank line or another container between two declarations starts a new group.
 */
function importsOf(outline: FileOutline, inNamespaces: boolean): ExistingImport[] {
  const text = outline.text;
  const runs: { parent: ElementNode | undefined; elements: ElementNode[] }[] = [];
  const visit = (elements: readonly ElementNode[], parent: ElementNode | undefined): void => {
    let run: ElementNode[] = [];
    const close = (): void => {
      if (run.length > 0) runs.push({ parent, elements: run });
      run = [];
    };
    for (const element of elements) {
      if (element.kind !== 'import') {
        close();
        if (inNamespaces && element.kind === 'namespace') visit(element.children, element);
        continue;
      }
      const previous = run.at(-1);
      if (previous !== undefined && /\n[ \t]*\r?\n/.test(text.slice(previous.range.end, element.range.start))) close();
      run.push(element);
    }
    close();
  };
  visit(outline.elements, undefined);
  const home = runs.some((run) => run.parent === undefined) ? undefined : runs[0]?.parent;
  return runs.flatMap((run, group) =>
    run.elements.map((element) => ({
      element,
      text: text.slice(element.declarationRange.start, element.range.end),
      group,
      placeable: run.parent === home,
    })),
  );
}

/** The import declarations in content, one shape each with its own text (`import os, sys` reads as two). */
export function readImports(spec: TreeSitterLanguageSpec, content: string): ImportContent {
  const imports = spec.imports;
  if (imports === undefined) return { ok: false, message: 'the language has no import declarations' };
  const refused = (message: string): ImportContent => ({
    ok: false,
    message,
    ...(imports.example === undefined ? {} : { hint: `write one import declaration, e.g. ${imports.example}` }),
  });
  const { outline } = outlineWithSpec(spec, 'content', dedent(content));
  const problem = outline.syntaxErrors[0];
  if (problem !== undefined) return refused(`the import does not parse: ${problem.message}`);
  const shapes: ImportShape[] = [];
  const texts: string[] = [];
  for (const element of outline.elements) {
    const written = outline.text.slice(element.declarationRange.start, element.range.end);
    const read = element.kind === 'import' ? imports.parse(written) : undefined;
    if (read === undefined) return refused(`not an import declaration: ${written.split('\n')[0] ?? ''}`);
    for (const shape of read) {
      shapes.push(shape);
      texts.push(read.length === 1 ? written : imports.render([shape], undefined));
    }
  }
  if (shapes.length === 0) return refused('no import declaration found');
  return { ok: true, imports: shapes, texts };
}

/** The bindings added and removed between two versions of one import declaration, as declarations. */
function importBindingChange(
  spec: TreeSitterLanguageSpec,
  beforeText: string,
  afterText: string,
): ImportBindingChange | undefined {
  const imports = spec.imports;
  const before = imports?.parse(beforeText);
  const after = imports?.parse(afterText);
  if (imports === undefined || before === undefined || after === undefined) return undefined;
  const [b] = before;
  const [a] = after;
  // One module with a list of names on both sides: the names that came and went.
  if (before.length !== 1 || after.length !== 1 || b === undefined || a === undefined) return undefined;
  if (!b.hasNamedList || !a.hasNamedList || a.module !== b.module) return undefined;
  const key = (n: { name: string; imported: string }): string => `${n.imported} as ${n.name}`;
  const beforeKeys = new Set(b.named.map(key));
  const afterKeys = new Set(a.named.map(key));
  const added = a.named.filter((n) => !beforeKeys.has(key(n)));
  const removed = b.named.filter((n) => !afterKeys.has(key(n)));
  if (added.length === 0 && removed.length === 0) return undefined;
  return {
    add: added.length === 0 ? undefined : imports.render([{ ...a, named: added }], undefined),
    remove: removed.length === 0 ? undefined : imports.render([{ ...b, named: removed }], undefined),
  };
}
