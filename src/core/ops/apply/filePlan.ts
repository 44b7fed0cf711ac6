import { ts } from 'ts-morph';
import type { ElementKind, ElementNode, FileOutline, TextRange } from '../../elements/element';
import {
  canonicalKind,
  ElementPathSyntaxError,
  formatSegment,
  kindsCompatible,
  normalizeFilePath,
  parseElementPath,
} from '../../elements/elementPath';
import { ancestryOf, resolveElementPath } from '../../elements/resolve';
import type {
  AddImportOperation,
  CreateElementOperation,
  DeleteElementOperation,
  Operation,
  PatchElementOperation,
  RemoveImportOperation,
  ReplaceElementOperation,
} from '../operation';
import type { Action, Expectation, InsertAction, OpFailure, Slot } from './actions';
import { declarationMismatch, describeElement, memberWords, parseHint, withExportKept } from './contentChecks';
import { scanCode } from './codeScan';
import { type ContainerFlavor, shapeOfContent } from './contentShape';
import { blankLinesOf, childIndent, isBlock, memberSeparatorOf, trailingCommaOf } from './containerLayout';
import {
  type DeclaratorFate,
  declaresVariable,
  readDeclaratorContent,
  rewriteDeclarations,
  variableHead,
} from './declarators';
import { type ContainerInfo, type DeclaratorInfo, FileSyntax } from './fileSyntax';
import { ImportPlan, type ImportStep } from './importPlan';
import { readImportContent, splitLeadingImports } from './imports';
import { applyPatches } from './patchMatch';
import { findNewPlaceholder } from './placeholders';
import { normalizeContent, reindent, reindentReplacing, withoutFirstIndent } from './reindent';
import { indentOfLine, type TextStyle, toLf, withEol } from './textStyle';

/**
 * Plans the element and import operations of one file against its snapshot: resolves every path once, composes
 * operations that touch the same element, refuses those that collide, and turns the rest into actions for the
 * renderer. Nothing here reads the text as edited; every decision is made on the snapshot.
 *
 * Compositions (same element, in batch order):
 * - PATCH then PATCH, REPLACE then PATCH: the later searches run on the text the earlier operation left.
 * - PATCH then REPLACE: refused (the replace would silently drop the patch).
 * - REPLACE then REPLACE: refused (a duplicate, or two versions of one element).
 * - DELETE with any other edit of the same element: refused, either order.
 * - DELETE X and CREATE of an element named X in the same container, either order: both apply; the new element
 *   takes the place the CREATE names (a replace, or a move).
 * - An edit of an element and an edit of anything inside it (REPLACE of a class and PATCH of its method, CREATE in
 *   a class that is also replaced): refused; the inner change belongs in the outer operation.
 * - Several CREATEs at one position go in batch order; BEFORE/AFTER may name an element created earlier in the
 *   batch. Creating a name the container already has is refused unless the batch deletes that element.
 * - ADD_IMPORT/REMOVE_IMPORT of one module compose in order; an element operation on an import declaration that an
 *   import operation also changes is refused.
 */

export interface FilePlan {
  readonly actions: readonly Action[];
  readonly expectations: readonly Expectation[];
  readonly failures: ReadonlyMap<number, OpFailure>;
  readonly notes: ReadonlyMap<number, string>;
}

type ElementOperation =
  | ReplaceElementOperation
  | CreateElementOperation
  | DeleteElementOperation
  | PatchElementOperation
  | AddImportOperation
  | RemoveImportOperation;

interface Target {
  readonly element: ElementNode;
  /** The element or overload signature whose range is edited. */
  readonly node: ElementNode;
  readonly range: TextRange;
  readonly ops: number[];
  readonly parentChain: readonly string[];
  readonly flavor: ContainerFlavor;
  readonly containerOpen: number | undefined;
  readonly declarator: DeclaratorInfo | undefined;
  state: 'replaced' | 'patched' | 'deleted';
  /** Current text of the range (file line breaks); for a declarator that became its own statement, that statement. */
  text: string;
  split: boolean;
}

interface Group {
  readonly key: string;
  readonly container: ContainerInfo;
  readonly containerElement: ElementNode | undefined;
  readonly slot: Slot;
  readonly items: { ops: number[]; text: string; block: boolean; creation: Creation | undefined }[];
  readonly neighbourBlock: boolean;
  readonly blankLines: { block: number; line: number };
  readonly trailingComma: boolean;
}

interface Creation {
  readonly index: number;
  readonly containerKey: string;
  readonly containerPath: string;
  readonly containerChain: readonly string[];
  readonly children: readonly ElementNode[];
  readonly declared: readonly { kind: ElementKind; name: string }[];
  readonly group: Group;
}

const COMMA_FLAVORS = new Set<ContainerFlavor>(['object', 'enum']);

function segmentOf(element: ElementNode): string {
  return `${element.kind}[${element.name}]`;
}

/** A KIND hint fits an element of a compatible kind; a function kind needs a function (an arrow in a property). */
function kindFits(wanted: ElementKind, element: ElementNode): boolean {
  if (!kindsCompatible(wanted, element.kind)) return false;
  const wantsFunction = wanted === 'function' || wanted === 'method';
  const isValue = element.kind === 'property' || element.kind === 'variable';
  return !(wantsFunction && isValue && element.bodyRange === undefined);
}

function isAccessorPair(a: string, b: string): boolean {
  return (a === 'getter' && b === 'setter') || (a === 'setter' && b === 'getter');
}

/** Whether the comments above a declaration end with a doc comment (`/** ... *\/`), the one a replace keeps. */
function endsWithDocComment(leading: string): boolean {
  return /\/\*\*(?:[^*]|\*(?!\/))*\*\/\s*$/.test(leading);
}

function startsWithComment(code: string): boolean {
  return /^(?:\/\/|\/\*)/.test(code.trimStart());
}

/** Removes one trailing comma (comments after it aside). */
function withoutTrailingComma(code: string): string {
  const scan = scanCode(code);
  if (scan.lastCodeKind !== ts.SyntaxKind.CommaToken) return code;
  return code.slice(0, scan.lastCodeEnd - 1) + code.slice(scan.lastCodeEnd);
}

/** Appends `terminator` after the last token (before trailing comments). */
function withTerminator(code: string, terminator: string): string {
  const { lastCodeEnd } = scanCode(code);
  return code.slice(0, lastCodeEnd) + terminator + code.slice(lastCodeEnd);
}

function unquote(text: string): string {
  const trimmed = text.trim().replace(/;$/, '').trim();
  const match = /^(['"`])(.*)\1$/.exec(trimmed);
  return match?.[2] ?? trimmed;
}

export class FilePlanner {
  private readonly syntax: FileSyntax;
  private readonly semicolons: boolean;
  private readonly targets = new Map<string, Target>();
  private readonly groups: Group[] = [];
  private readonly creations: Creation[] = [];
  private readonly importPlan: ImportPlan;
  private readonly importOps = new Map<string, number[]>();
  private readonly failures = new Map<number, OpFailure>();
  private readonly notes = new Map<number, string>();

  constructor(
    readonly file: string,
    readonly text: string,
    readonly outline: FileOutline,
    readonly style: TextStyle,
    sourceFile?: ts.SourceFile,
  ) {
    this.syntax = new FileSyntax(file, text, sourceFile);
    this.semicolons = this.syntax.usesSemicolons();
    const importElements = outline.elements.filter((e) => e.kind === 'import');
    const braceSpacing = !importElements.some((e) => /\{\S/.test(text.slice(e.declarationRange.start, e.range.end)));
    this.importPlan = new ImportPlan(
      importElements.map((element) => ({
        element,
        text: text.slice(element.declarationRange.start, element.range.end),
      })),
      { quote: this.syntax.quote(), semicolon: this.semicolons, braceSpacing, eol: style.eol },
      file,
    );
  }

  private fail(index: number, failure: OpFailure): void {
    if (!this.failures.has(index)) this.failures.set(index, failure);
  }

  plan(index: number, operation: ElementOperation): void {
    try {
      switch (operation.type) {
        case 'REPLACE_ELEMENT':
          this.planReplace(index, operation);
          break;
        case 'PATCH_ELEMENT':
          this.planPatch(index, operation);
          break;
        case 'DELETE_ELEMENT':
          this.planDelete(index, operation);
          break;
        case 'CREATE_ELEMENT':
          this.planCreate(index, operation);
          break;
        case 'ADD_IMPORT':
        case 'REMOVE_IMPORT':
          this.planImport(index, operation);
          break;
      }
    } catch (error) {
      // A defect here must cost this operation, not the batch or the session.
      const reason = error instanceof Error ? error.message : String(error);
      this.fail(index, { message: `internal error while planning ${operation.type} ${operation.path}: ${reason}` });
    }
  }

  // ------------------------------------------------------------------ resolution

  private resolve(index: number, path: string): { element: ElementNode; node: ElementNode } | undefined {
    const resolved = resolveElementPath(this.outline, path);
    if (!resolved.ok) {
      this.fail(index, {
        message: resolved.message,
        hint:
          resolved.suggestions.length > 0
            ? 'use one of the existing paths'
            : 'check the file outline for the right path',
        suggestions: resolved.suggestions,
      });
      return undefined;
    }
    if (resolved.tolerant && !this.notes.has(index)) this.notes.set(index, `${path} was read as ${resolved.path}`);
    return { element: resolved.element, node: resolved.overload ?? resolved.element };
  }

  private chainOf(element: ElementNode): ElementNode[] {
    return ancestryOf(this.outline, element.path) ?? [element];
  }

  private parentOf(element: ElementNode): ElementNode | undefined {
    const chain = this.chainOf(element);
    return chain[chain.length - 2];
  }

  private containerInfoOf(parent: ElementNode | undefined): ContainerInfo | undefined {
    if (parent === undefined) return { flavor: 'file', indent: '' };
    const lookup = this.syntax.containerOf(parent);
    return lookup.ok ? lookup.container : undefined;
  }

  private newTarget(
    element: ElementNode,
    node: ElementNode,
    index: number,
    state: Target['state'],
    text: string,
  ): Target {
    const chain = this.chainOf(element);
    const parent = chain[chain.length - 2];
    const container = this.containerInfoOf(parent);
    const range = node.range;
    return {
      element,
      node,
      range,
      ops: [index],
      parentChain: chain.slice(0, -1).map(segmentOf),
      flavor: container?.flavor ?? 'file',
      containerOpen: container?.open,
      declarator: node === element ? this.syntax.declaratorOf(element) : undefined,
      state,
      text,
      split: false,
    };
  }

  /** Refuses an edit of an element inside (or around) one another operation already edits or inserts into. */
  private collides(index: number, range: TextRange, label: string): boolean {
    for (const target of this.targets.values()) {
      const same = target.range.start === range.start && target.range.end === range.end;
      if (same) continue;
      const overlaps = target.range.start < range.end && range.start < target.range.end;
      if (overlaps) {
        const inside = target.range.start <= range.start && range.end <= target.range.end;
        this.fail(index, {
          message: `${label} overlaps ${describeElement(target.node)}, which operation #${(target.ops[0] ?? 0) + 1} already ${target.state === 'deleted' ? 'deletes' : 'edits'} (${inside ? 'it contains this element' : 'this element contains it'})`,
          hint: 'make the whole change in one operation on the outer element, or edit the inner elements separately without touching the outer one',
        });
        return true;
      }
    }
    for (const group of this.groups) {
      const container = group.containerElement;
      if (container === undefined) continue;
      if (range.start <= container.range.start && container.range.end <= range.end) {
        const op = group.items[0]?.ops[0] ?? 0;
        this.fail(index, {
          message: `${label} contains ${describeElement(container)}, where operation #${op + 1} creates an element`,
          hint: "put the new element into this operation's content instead of a separate CREATE_ELEMENT, or leave the container alone",
        });
        return true;
      }
    }
    for (const [key, ops] of this.importOps) {
      const [start, end] = key.split(':').map(Number);
      if (start === undefined || end === undefined) continue;
      if (start < range.end && range.start < end) {
        this.fail(index, {
          message: `${label} is an import declaration that operation #${(ops[0] ?? 0) + 1} (an import operation) already changes`,
          hint: 'use only ADD_IMPORT/REMOVE_IMPORT for imports',
        });
        return true;
      }
    }
    return false;
  }

  /** A CREATE in a container that another operation of the batch replaces, patches or deletes (or one around it). */
  private containerBlocked(index: number, container: ElementNode | undefined, label: string): boolean {
    if (container === undefined) return false;
    for (const target of this.targets.values()) {
      if (target.range.start <= container.range.start && container.range.end <= target.range.end) {
        this.fail(index, {
          message: `${label} conflicts with operation #${(target.ops[0] ?? 0) + 1}, which ${target.state === 'deleted' ? 'deletes' : 'rewrites'} ${target.node.path}`,
          hint:
            target.state === 'deleted'
              ? 'do not create elements in a container the batch deletes'
              : "put the new element into that operation's content instead of a separate CREATE_ELEMENT",
        });
        return true;
      }
    }
    return false;
  }

  private keyOf(range: TextRange): string {
    return `${range.start}:${range.end}`;
  }

  // ------------------------------------------------------------------ REPLACE

  private planReplace(index: number, op: ReplaceElementOperation): void {
    const content = normalizeContent(op.content);
    if (content === '') {
      this.fail(index, {
        message: `REPLACE_ELEMENT ${op.path} has no content`,
        hint: 'to remove the element use DELETE_ELEMENT; to change it, write the whole new element',
      });
      return;
    }
    const resolved = this.resolve(index, op.path);
    if (resolved === undefined) return;
    const { element, node } = resolved;
    const label = `REPLACE_ELEMENT ${node.path}`;
    const oldText = this.text.slice(node.range.start, node.range.end);
    if (this.refusePlaceholder(index, label, content, oldText)) return;
    const key = this.keyOf(node.range);
    const existing = this.targets.get(key);
    if (existing !== undefined) {
      const first = (existing.ops[0] ?? 0) + 1;
      const reason =
        existing.state === 'deleted'
          ? `operation #${first} deletes ${describeElement(node)}`
          : existing.state === 'patched'
            ? `operation #${first} patches ${describeElement(node)}; replacing it afterwards would silently drop that patch`
            : `operation #${first} already replaces ${describeElement(node)}`;
      this.fail(index, {
        message: `${label} conflicts with the batch: ${reason}`,
        hint: 'send one REPLACE_ELEMENT with the final version of the element',
      });
      return;
    }
    const probe = this.newTarget(element, node, index, 'replaced', '');
    if (this.collides(index, probe.range, label)) return;
    const code =
      probe.flavor === 'file' && element.kind !== 'import'
        ? this.withoutLeadingImports(index, label, content)
        : content;
    if (code === undefined) return;
    if (probe.declarator !== undefined) {
      this.planDeclaratorReplace(index, probe, code, label);
      return;
    }
    const newText = this.replacementText(index, label, node, probe.flavor, code, oldText);
    if (newText === undefined) return;
    this.targets.set(key, { ...probe, text: newText });
  }

  /** The text that replaces `node.range`, checked to declare the same element; undefined after a failure. */
  private replacementText(
    index: number,
    label: string,
    node: ElementNode,
    flavor: ContainerFlavor,
    content: string,
    oldText: string,
  ): string | undefined {
    const isComma = COMMA_FLAVORS.has(flavor);
    let body = isComma ? withoutTrailingComma(content) : content;
    const shape = shapeOfContent(body, flavor, this.file);
    const problem = shape.syntaxErrors[0];
    if (problem !== undefined) {
      this.fail(index, {
        message: `${label}: the content does not parse as ${memberWords(flavor)}: ${problem.message} (line ${problem.line} of the content)`,
        hint: parseHint(flavor),
      });
      return undefined;
    }
    if (!this.checkDeclares(index, label, shape.elements, node)) return undefined;
    if (!isComma && shape.statementLike && !shape.terminated) {
      const oldEnd = oldText.trimEnd();
      const terminator = oldEnd.endsWith(';') ? ';' : oldEnd.endsWith(',') ? ',' : '';
      if (terminator !== '') body = withTerminator(body, terminator);
    }
    if (flavor === 'file' || flavor === 'namespace') body = withExportKept(this.file, this.syntax, body, node);
    const keepsDoc =
      !startsWithComment(body) && endsWithDocComment(this.text.slice(node.range.start, node.declarationRange.start));
    const indent = indentOfLine(this.text, node.range.start);
    const lines = withoutFirstIndent(
      reindentReplacing(body, { indent, style: this.style.indent }, toLf(oldText).replace(/\r/g, '')),
      indent,
    );
    const written = withEol(lines.join('\n'), this.style.eol);
    return keepsDoc ? this.text.slice(node.range.start, node.declarationRange.start) + written : written;
  }

  /** The content of a replace must declare exactly the element it replaces. */
  private checkDeclares(index: number, label: string, declared: readonly ElementNode[], node: ElementNode): boolean {
    const mismatch = declarationMismatch(declared, node);
    if (mismatch !== undefined) this.fail(index, { ...mismatch, message: `${label}: ${mismatch.message}` });
    return mismatch === undefined;
  }

  private refusePlaceholder(index: number, label: string, content: string, original: string | undefined): boolean {
    const placeholder = findNewPlaceholder(content, original);
    if (placeholder === undefined) return false;
    this.fail(index, {
      message: `${label}: the content holds a placeholder instead of code: "${placeholder.text}" (line ${placeholder.line} of the content); it would delete the code it stands for`,
      hint: 'write out the complete code, or use PATCH_ELEMENT to change only a few lines',
    });
    return true;
  }

  // ------------------------------------------------------------------ declarators

  /** A replace of one declarator of `const a = 1, b = 2`; see {@link readDeclaratorContent}. */
  private planDeclaratorReplace(index: number, probe: Target, content: string, label: string): void {
    const info = probe.declarator;
    if (info === undefined) return;
    const read = readDeclaratorContent(this.file, content, probe.element.name, variableHead(info.statement));
    if (read.kind === 'invalid') {
      this.fail(index, { message: `${label}: ${read.message}`, hint: read.hint });
      return;
    }
    const code =
      read.kind === 'statement' && this.semicolons && !/;\s*$/.test(read.code)
        ? withTerminator(read.code, ';')
        : read.code;
    const indent = indentOfLine(this.text, info.statement.getStart(this.syntax.sourceFile));
    const original = toLf(this.text.slice(probe.range.start, probe.range.end));
    const lines = withoutFirstIndent(reindentReplacing(code, { indent, style: this.style.indent }, original), indent);
    const text = withEol(lines.join('\n'), this.style.eol);
    this.targets.set(this.keyOf(probe.range), { ...probe, text, split: read.kind === 'statement' });
  }

  // ------------------------------------------------------------------ PATCH

  private planPatch(index: number, op: PatchElementOperation): void {
    const resolved = this.resolve(index, op.path);
    if (resolved === undefined) return;
    const { element, node } = resolved;
    const label = `PATCH_ELEMENT ${node.path}`;
    if (op.patches.length === 0) {
      this.fail(index, {
        message: `${label} has no SEARCH/REPLACE pair`,
        hint: 'give at least one SEARCH/REPLACE pair',
      });
      return;
    }
    const probe = this.newTarget(element, node, index, 'patched', '');
    const key = this.keyOf(probe.range);
    const existing = this.targets.get(key);
    if (existing?.state === 'deleted') {
      this.fail(index, {
        message: `${label} conflicts with operation #${(existing.ops[0] ?? 0) + 1}, which deletes that element`,
        hint: 'either delete the element or patch it, not both',
      });
      return;
    }
    if (existing === undefined && this.collides(index, probe.range, label)) return;
    const originalText = this.text.slice(probe.range.start, probe.range.end);
    const current = existing?.text ?? originalText;
    const outcome = applyPatches(
      { text: current, firstLine: node.startLine, describe: node.path, indent: this.style.indent },
      op.patches,
    );
    if (!outcome.ok) {
      const pair = op.patches[outcome.pair];
      const elsewhere =
        outcome.reason === 'notFound' && pair !== undefined ? this.whereElse(pair.search, probe.range) : undefined;
      this.fail(index, {
        message: outcome.message,
        hint: elsewhere === undefined ? outcome.hint : `that text is in ${elsewhere}: patch that element instead`,
        ...(elsewhere === undefined ? {} : { suggestions: [elsewhere] }),
      });
      return;
    }
    const patched = outcome.text;
    if (this.refusePlaceholder(index, label, toLf(patched), toLf(originalText))) return;
    if (!this.checkPatched(index, label, probe, node, patched, existing?.split ?? false)) return;
    if (existing !== undefined) {
      existing.text = patched;
      existing.ops.push(index);
      if (existing.state !== 'replaced') existing.state = 'patched';
      return;
    }
    this.targets.set(key, { ...probe, text: patched });
  }

  /** The element outside `range` whose text holds `search`, for a hint. */
  private whereElse(search: string, range: TextRange): string | undefined {
    const wanted = search.replace(/\r\n?/g, '\n').trim();
    if (wanted === '') return undefined;
    const at = toLf(this.text).indexOf(wanted);
    if (at < 0) return undefined;
    const lfOffsetToText = (lfOffset: number): number => {
      let crs = 0;
      for (let i = 0, seen = 0; i < this.text.length && seen < lfOffset; i++) {
        if (this.text.charCodeAt(i) === 13 && this.text.charCodeAt(i + 1) === 10) crs += 1;
        else seen += 1;
      }
      return lfOffset + crs;
    };
    const offset = lfOffsetToText(at);
    if (range.start <= offset && offset < range.end) return undefined;
    let found: ElementNode | undefined;
    let level = this.outline.elements;
    for (;;) {
      const hit = level.find((e) => e.range.start <= offset && offset < e.range.end);
      if (hit === undefined) break;
      found = hit;
      level = hit.children;
    }
    return found?.path;
  }

  /** After a patch the element must still parse as itself. */
  private checkPatched(
    index: number,
    label: string,
    probe: Target,
    node: ElementNode,
    patched: string,
    split: boolean,
  ): boolean {
    const code = toLf(patched);
    if (probe.declarator !== undefined) {
      const name = probe.element.name;
      const { keyword } = variableHead(probe.declarator.statement);
      if (!declaresVariable(this.file, code, name, keyword, split)) {
        this.fail(index, {
          message: `${label}: after the patch, the declaration of ${name} no longer parses as one variable`,
          hint: 'check the REPLACE text of each pair',
        });
        return false;
      }
      return true;
    }
    // Measured as the element sits: the first line at its column, the rest with their indentation.
    const indent = indentOfLine(this.text, node.range.start);
    const shape = shapeOfContent(indent + code, probe.flavor, this.file);
    const problem = shape.syntaxErrors[0];
    if (problem !== undefined) {
      this.fail(index, {
        message: `${label}: after the patch the element does not parse: ${problem.message} (line ${node.startLine + problem.line - 1} of the file)`,
        hint: 'check that every SEARCH/REPLACE pair keeps brackets and quotes balanced',
      });
      return false;
    }
    return this.checkDeclares(index, label, shape.elements, node);
  }

  // ------------------------------------------------------------------ DELETE

  private planDelete(index: number, op: DeleteElementOperation): void {
    const resolved = this.resolve(index, op.path);
    if (resolved === undefined) return;
    const { element, node } = resolved;
    const label = `DELETE_ELEMENT ${node.path}`;
    const overloads = element.overloads;
    if (overloads !== undefined && node === overloads[overloads.length - 1] && node.bodyRange !== undefined) {
      this.fail(index, {
        message: `${label} would leave the overload signatures of ${element.path} without their implementation`,
        hint: `delete the whole set with DELETE_ELEMENT ${element.path}, or one of the signatures before it`,
        suggestions: [element.path],
      });
      return;
    }
    const probe = this.newTarget(element, node, index, 'deleted', '');
    const existing = this.targets.get(this.keyOf(probe.range));
    if (existing !== undefined) {
      const first = (existing.ops[0] ?? 0) + 1;
      this.fail(index, {
        message:
          existing.state === 'deleted'
            ? `${label} repeats operation #${first}, which already deletes it`
            : `${label} conflicts with operation #${first}, which edits that element; deleting it would discard that edit`,
        hint:
          existing.state === 'deleted' ? 'send each operation once' : 'either delete the element or edit it, not both',
      });
      return;
    }
    if (this.collides(index, probe.range, label)) return;
    this.targets.set(this.keyOf(probe.range), probe);
  }

  // ------------------------------------------------------------------ CREATE

  private resolveContainer(
    index: number,
    path: string,
  ):
    | {
        element: ElementNode | undefined;
        info: ContainerInfo;
        path: string;
        children: readonly ElementNode[];
        chain: string[];
      }
    | undefined {
    let parsed;
    try {
      parsed = parseElementPath(path);
    } catch (error) {
      if (!(error instanceof ElementPathSyntaxError)) throw error;
      this.fail(index, {
        message: error.message,
        hint: 'write the container as <file>/<kind>[<name>], or just the file',
      });
      return undefined;
    }
    if (parsed.segments.length === 0) {
      return {
        element: undefined,
        info: { flavor: 'file', indent: '' },
        path: this.file,
        children: this.outline.elements,
        chain: [],
      };
    }
    const resolved = this.resolve(index, path);
    if (resolved === undefined) return undefined;
    const element = resolved.element;
    const lookup = this.syntax.containerOf(element);
    if (!lookup.ok) {
      this.fail(index, {
        message: `CREATE_ELEMENT in ${element.path}: ${lookup.reason}`,
        hint: 'create the element in a class, interface, enum, namespace, object literal, type literal or the file',
      });
      return undefined;
    }
    return {
      element,
      info: lookup.container,
      path: element.path,
      children: element.children,
      chain: this.chainOf(element).map(segmentOf),
    };
  }

  /** `'use strict'` and kin: FIRST_CHILD goes after them. */
  private isDirective(element: ElementNode): boolean {
    return element.kind === 'statement' && /^['"]/.test(this.text.slice(element.declarationRange.start));
  }

  private anchorRange(element: ElementNode): TextRange {
    const info = this.syntax.declaratorOf(element);
    return info === undefined ? element.range : this.syntax.statementRange(info.statement);
  }

  private planCreate(index: number, op: CreateElementOperation): void {
    const container = this.resolveContainer(index, op.path);
    if (container === undefined) return;
    const label = `CREATE_ELEMENT in ${container.path}`;
    const content = normalizeContent(op.content);
    if (content === '') {
      this.fail(index, { message: `${label} has no content`, hint: 'write the complete new element' });
      return;
    }
    if (this.refusePlaceholder(index, label, content, undefined)) return;
    const { info } = container;
    const flavor = info.flavor;
    const isComma = COMMA_FLAVORS.has(flavor);
    const code = flavor === 'file' ? this.withoutLeadingImports(index, label, content) : content;
    if (code === undefined) return;
    let body = isComma ? withoutTrailingComma(code) : code;
    const shape = shapeOfContent(body, flavor, this.file);
    const problem = shape.syntaxErrors[0];
    if (problem !== undefined) {
      this.fail(index, {
        message: `${label}: the content does not parse as ${memberWords(flavor)}: ${problem.message} (line ${problem.line} of the content)`,
        hint: parseHint(flavor),
      });
      return;
    }
    if (shape.elements.length === 0) {
      this.fail(index, {
        message: `${label}: the content declares no element`,
        hint: 'write the complete new element',
      });
      return;
    }
    if (shape.elements.some((e) => e.kind === 'import')) {
      this.fail(index, {
        message: `${label}: the content holds an import declaration`,
        hint: 'add imports with ADD_IMPORT and keep CREATE_ELEMENT for the element itself',
      });
      return;
    }
    if (op.elementKind !== undefined) {
      const wanted = canonicalKind(op.elementKind);
      const mismatch = wanted === undefined ? undefined : shape.elements.find((e) => !kindFits(wanted, e));
      if (mismatch !== undefined && wanted !== undefined) {
        this.fail(index, {
          message: `${label}: KIND=${op.elementKind} was given, but the content declares ${describeElement(mismatch)}`,
          hint: `write a ${wanted}, or correct KIND`,
        });
        return;
      }
    }
    if (!isComma && shape.statementLike && !shape.terminated) {
      const terminator =
        flavor === 'interface' || flavor === 'typeLiteral'
          ? memberSeparatorOf(this.text, container.children, this.semicolons)
          : this.semicolons
            ? ';'
            : '';
      if (terminator !== '') body = withTerminator(body, terminator);
    }
    const indent = childIndent(this.text, info, container.children, this.style.indent.unit);
    const itemText = reindent(body, { indent, style: this.style.indent }).join('\n');
    const located = this.slotFor(index, op, container, label);
    if (located === undefined) return;
    const containerKey = container.element === undefined ? 'file' : this.keyOf(container.element.range);
    if (this.containerBlocked(index, container.element, label)) return;
    const declared = shape.elements.map((e) => ({ kind: e.kind, name: e.name }));
    const groupKey = `${containerKey}|${located.key}`;
    let group = located.joins?.group ?? this.groups.find((g) => g.key === groupKey);
    if (group === undefined) {
      group = {
        key: groupKey,
        container: info,
        containerElement: container.element,
        slot: located.slot,
        items: [],
        neighbourBlock: located.neighbour !== undefined && isBlock(located.neighbour),
        blankLines: blankLinesOf(this.text, container.children, flavor),
        trailingComma: trailingCommaOf(this.text, container.children, info),
      };
      this.groups.push(group);
    }
    const creation: Creation = {
      index,
      containerKey,
      containerPath: container.path,
      containerChain: container.chain,
      children: container.children,
      declared,
      group,
    };
    const block = shape.elements.some((e) => isBlock(e)) || itemText.includes('\n');
    const item = { ops: [index], text: itemText, block, creation };
    if (located.joins !== undefined) {
      const at = group.items.findIndex((i) => i.creation === located.joins);
      group.items.splice(located.before ? Math.max(at, 0) : at + 1, 0, item);
    } else {
      group.items.push(item);
    }
    this.creations.push(creation);
  }

  private slotFor(
    index: number,
    op: CreateElementOperation,
    container: {
      element: ElementNode | undefined;
      info: ContainerInfo;
      path: string;
      children: readonly ElementNode[];
    },
    label: string,
  ): { slot: Slot; key: string; neighbour: ElementNode | undefined; joins?: Creation; before?: boolean } | undefined {
    const { children } = container;
    const position = op.position;
    if (position.kind === 'FIRST_CHILD') {
      if (container.element !== undefined) return { slot: { kind: 'first' }, key: 'first', neighbour: children[0] };
      const firstCode = children.find((c) => c.kind !== 'import' && !this.isDirective(c));
      if (firstCode !== undefined) {
        const anchor = this.anchorRange(firstCode);
        return { slot: { kind: 'before', anchor }, key: `before:${anchor.start}`, neighbour: firstCode };
      }
      return { slot: { kind: 'end' }, key: 'end', neighbour: children[children.length - 1] };
    }
    if (position.kind === 'LAST_CHILD') {
      if (container.element !== undefined)
        return { slot: { kind: 'last' }, key: 'last', neighbour: children[children.length - 1] };
      return { slot: { kind: 'end' }, key: 'end', neighbour: children[children.length - 1] };
    }
    const sibling = position.sibling.trim();
    let path = `${container.path}/${sibling}`;
    try {
      const parsed = parseElementPath(sibling);
      if (parsed.segments.length > 0 && normalizeFilePath(parsed.file) === this.file) path = sibling;
    } catch {
      // Not a full path: it is a segment relative to the container.
    }
    const resolved = resolveElementPath(this.outline, path);
    const before = position.kind === 'BEFORE';
    if (resolved.ok) {
      const parent = this.parentOf(resolved.element);
      if (parent?.path !== container.element?.path) {
        this.fail(index, {
          message: `${label} ${position.kind} ${sibling}: ${resolved.element.path} is not a direct child of ${container.path}`,
          hint: "name a sibling inside the container, or create the element in the sibling's own container",
          suggestions: children
            .filter((c) => c.kind !== 'import')
            .slice(0, 8)
            .map((c) => c.path),
        });
        return undefined;
      }
      const anchor = this.anchorRange(resolved.element);
      return {
        slot: before ? { kind: 'before', anchor } : { kind: 'after', anchor },
        key: `${before ? 'before' : 'after'}:${anchor.start}`,
        neighbour: resolved.element,
      };
    }
    const wanted = this.segmentWanted(sibling);
    const created =
      wanted === undefined
        ? undefined
        : [...this.creations]
            .reverse()
            .find(
              (c) =>
                c.containerPath === container.path &&
                !this.failures.has(c.index) &&
                c.declared.some(
                  (d) => d.name === wanted.name && (wanted.kind === undefined || kindsCompatible(d.kind, wanted.kind)),
                ),
            );
    if (created !== undefined) {
      return { slot: created.group.slot, key: created.group.key, neighbour: undefined, joins: created, before };
    }
    this.fail(index, {
      message: `${label} ${position.kind} ${sibling}: ${resolved.message}`,
      hint: 'name an existing sibling of the new element, or use FIRST_CHILD/LAST_CHILD',
      suggestions: resolved.suggestions,
    });
    return undefined;
  }

  private segmentWanted(sibling: string): { kind: ReturnType<typeof canonicalKind>; name: string } | undefined {
    const match = /([A-Za-z][\w-]*=?)(?:\[(.*)\])?(?:#\d+)?$/.exec(sibling.trim());
    if (match?.[1] === undefined) return undefined;
    return { kind: canonicalKind(match[1]), name: match[2] ?? '' };
  }

  // ------------------------------------------------------------------ imports

  private planImport(index: number, op: AddImportOperation | RemoveImportOperation): void {
    const content = normalizeContent(op.content);
    let pathModule: string | undefined;
    try {
      const segment = parseElementPath(op.path).segments[0];
      if (segment !== undefined && canonicalKind(segment.kind) === 'import') pathModule = segment.name;
    } catch {
      // The file part was checked before; a malformed element part is read as no module.
    }
    const label = `${op.type} ${this.file}`;
    if (content === '' && (op.type === 'ADD_IMPORT' || pathModule === undefined)) {
      this.fail(index, {
        message: `${label} has no import declaration`,
        hint:
          op.type === 'ADD_IMPORT'
            ? "write the import, e.g. import { a } from './a';"
            : "write the import to remove, or just its module ('./a')",
      });
      return;
    }
    if (op.type === 'REMOVE_IMPORT' && (content === '' || !/^\s*import\b/.test(content))) {
      const module = content === '' ? (pathModule ?? '') : unquote(content);
      this.changeImports(index, label, () => this.importPlan.remove({ module }, index));
      return;
    }
    this.importDeclarations(index, label, content, op.type === 'ADD_IMPORT' ? 'add' : 'remove');
  }

  /** Adds or removes the bindings of import declarations written in `content`; false after a failure. */
  private importDeclarations(index: number, label: string, content: string, change: 'add' | 'remove'): boolean {
    const read = readImportContent(content);
    if (!read.ok) {
      this.fail(index, {
        message: `${label}: ${read.message}`,
        hint: "write one import declaration, e.g. import { a } from './a';",
      });
      return false;
    }
    return this.changeImports(index, label, () => {
      for (let i = 0; i < read.imports.length; i++) {
        const shape = read.imports[i];
        const text = read.texts[i] ?? '';
        if (shape === undefined) continue;
        const normalized = this.semicolons && !text.trimEnd().endsWith(';') ? `${text.trimEnd()};` : text;
        const result =
          change === 'add' ? this.importPlan.add(shape, normalized, index) : this.importPlan.remove(shape, index);
        if (!result.ok) return result;
        if (result.note !== undefined) this.notes.set(index, result.note);
      }
      return { ok: true };
    });
  }

  /** Runs one operation's import changes as a whole; false after a failure. */
  private changeImports(index: number, label: string, step: () => ImportStep): boolean {
    const beforeOps = new Map(this.importPlan.declarations.map((d) => [d, d.ops.length]));
    const outcome = this.importPlan.transaction(step);
    if (!outcome.ok) {
      this.fail(index, {
        message: `${label}: ${outcome.message}`,
        hint: outcome.hint,
        ...(outcome.suggestions === undefined ? {} : { suggestions: outcome.suggestions }),
      });
      return false;
    }
    // A declaration an element operation also edits: this operation is refused (its import changes go with it).
    for (const state of this.importPlan.declarations) {
      const element = state.element;
      if (element === undefined || (beforeOps.get(state) ?? 0) === state.ops.length) continue;
      const range = { start: element.range.start, end: element.range.end };
      const target = [...this.targets.values()].find((t) => t.range.start < range.end && range.start < t.range.end);
      if (target !== undefined) {
        this.fail(index, {
          message: `${label} changes the import of '${element.name}', which operation #${(target.ops[0] ?? 0) + 1} already edits as an element`,
          hint: 'use only ADD_IMPORT/REMOVE_IMPORT for imports',
        });
        return false;
      }
      const key = this.keyOf(range);
      const ops = this.importOps.get(key) ?? [];
      if (!ops.includes(index)) ops.push(index);
      this.importOps.set(key, ops);
    }
    return true;
  }

  /**
   * Top-level code that starts with the imports it needs (a habit of models): the imports are merged into the
   * file's like ADD_IMPORT and the rest is the element. Undefined after a failure.
   */
  private withoutLeadingImports(index: number, label: string, content: string): string | undefined {
    const split = splitLeadingImports(this.file, content);
    if (split === undefined) return content;
    if (!this.importDeclarations(index, label, split.imports, 'add')) return undefined;
    this.notes.set(index, 'the imports at the head of its content were merged into the imports of the file');
    return split.code;
  }

  // ------------------------------------------------------------------ finish

  /** Checks what needs the whole batch (names created), then turns the plan into actions. */
  finish(failedElsewhere: ReadonlySet<number> = new Set()): FilePlan {
    this.checkCreatedNames();
    const failed = (ops: readonly number[]): boolean => ops.some((i) => this.failures.has(i) || failedElsewhere.has(i));
    const actions: Action[] = [...this.importActions(failed)];
    const expectations: Expectation[] = [];
    for (const group of this.groups) {
      const items = group.items.filter((item) => !failed(item.ops));
      if (items.length === 0) continue;
      const action: InsertAction = {
        kind: 'insert',
        ops: items.flatMap((i) => i.ops),
        container: group.container,
        ...(group.containerElement === undefined ? {} : { containerRange: group.containerElement.range }),
        slot: group.slot,
        items: items.map((i) => ({ ops: i.ops, text: i.text, block: i.block })),
        blankLines: group.blankLines,
        neighbourBlock: group.neighbourBlock,
        trailingComma: group.trailingComma,
      };
      actions.push(action);
      for (const item of items) {
        for (const declared of item.creation?.declared ?? []) {
          expectations.push({
            ops: item.ops,
            parentChain: item.creation?.containerChain ?? [],
            kind: declared.kind,
            name: declared.name,
            describe: `${item.creation?.containerPath ?? this.file}/${formatSegment(declared.kind, declared.name)}`,
          });
        }
      }
    }
    const statements = new Map<ts.VariableStatement, Target[]>();
    for (const target of this.targets.values()) {
      if (failed(target.ops)) continue;
      if (target.declarator !== undefined) {
        const list = statements.get(target.declarator.statement) ?? [];
        list.push(target);
        statements.set(target.declarator.statement, list);
      } else if (target.state === 'deleted') {
        actions.push({
          kind: 'delete',
          ops: target.ops,
          range: target.range,
          ...(COMMA_FLAVORS.has(target.flavor) && target.containerOpen !== undefined
            ? { commaContainerOpen: target.containerOpen }
            : {}),
          ...(target.containerOpen === undefined ? {} : { containerOpen: target.containerOpen }),
        });
      } else {
        actions.push({ kind: 'rewrite', ops: target.ops, range: target.range, newText: target.text });
      }
      if (target.state !== 'deleted') {
        expectations.push({
          ops: target.ops,
          parentChain: target.parentChain,
          kind: target.element.kind,
          name: target.element.name,
          describe: target.node.path,
        });
      }
    }
    for (const [statement, targets] of statements) actions.push(this.statementAction(statement, targets));
    return { actions, expectations, failures: this.failures, notes: this.notes };
  }

  private checkCreatedNames(): void {
    const createdSoFar = new Map<string, Creation>();
    for (const creation of this.creations) {
      if (this.failures.has(creation.index)) continue;
      for (const declared of creation.declared) {
        // A statement's label (`describe`, `test`, `app.get`) is no name: a test file holds many, numbered #1, #2...
        if (declared.kind === 'statement') continue;
        const clash = creation.children.find(
          (child) =>
            child.name === declared.name &&
            child.kind !== 'import' &&
            kindsCompatible(child.kind, declared.kind) &&
            !isAccessorPair(child.kind, declared.kind) &&
            !this.isDeleted(child),
        );
        if (clash !== undefined) {
          this.fail(creation.index, {
            message: `CREATE_ELEMENT in ${creation.containerPath}: ${clash.path} already exists`,
            hint: `to change it use REPLACE_ELEMENT ${clash.path}; to have both, give the new element another name`,
            suggestions: [clash.path],
          });
          break;
        }
        const key = `${creation.containerKey}|${declared.kind}|${declared.name}`;
        const earlier = createdSoFar.get(key);
        if (earlier !== undefined) {
          this.fail(creation.index, {
            message: `CREATE_ELEMENT in ${creation.containerPath}: operation #${earlier.index + 1} already creates ${describeElement(declared)} there`,
            hint: 'send each element once',
          });
          break;
        }
        createdSoFar.set(key, creation);
      }
    }
  }

  private isDeleted(element: ElementNode): boolean {
    return [...this.targets.values()].some(
      (t) => t.state === 'deleted' && t.node === element && !this.failures.has(t.ops[0] ?? -1),
    );
  }

  private importActions(failed: (ops: readonly number[]) => boolean): Action[] {
    const actions: Action[] = [];
    const eol = this.style.eol;
    const newByAnchor = new Map<
      string,
      { anchor: ElementNode | undefined; items: { ops: number[]; text: string; block: boolean }[] }
    >();
    for (const state of this.importPlan.declarations) {
      if (state.ops.length === 0 || failed(state.ops)) continue;
      if (state.element !== undefined) {
        const element = state.element;
        if (state.removed) {
          actions.push({ kind: 'delete', ops: state.ops, range: element.range });
        } else {
          const range = { start: element.declarationRange.start, end: element.range.end };
          const newText = withEol(toLf(state.text), eol);
          if (newText !== this.text.slice(range.start, range.end))
            actions.push({ kind: 'rewrite', ops: state.ops, range, newText });
        }
        continue;
      }
      if (state.removed) continue;
      const anchor = state.after?.element;
      const key = anchor === undefined ? 'top' : String(anchor.range.start);
      const entry = newByAnchor.get(key) ?? { anchor, items: [] };
      entry.items.push({ ops: state.ops, text: toLf(state.text), block: false });
      newByAnchor.set(key, entry);
    }
    for (const { anchor, items } of newByAnchor.values()) {
      const slot: Slot =
        anchor === undefined
          ? { kind: 'line', offset: this.syntax.topInsertionOffset() }
          : { kind: 'after', anchor: anchor.range };
      actions.push({
        kind: 'insert',
        ops: items.flatMap((i) => i.ops),
        container: { flavor: 'file', indent: '' },
        slot,
        items,
        blankLines: { block: 0, line: 0 },
        neighbourBlock: false,
        trailingComma: false,
        ...(anchor === undefined ? { minBlankAfter: 1 } : { blankBefore: 0 }),
      });
    }
    return actions;
  }

  /** One statement whose declarators the batch edits: rewritten as a whole, or deleted when none is left. */
  private statementAction(statement: ts.VariableStatement, targets: readonly Target[]): Action {
    const ops = targets.flatMap((t) => t.ops);
    const fates = new Map<number, DeclaratorFate>();
    for (const target of targets) {
      const fate: DeclaratorFate =
        target.state === 'deleted'
          ? { state: 'deleted' }
          : { state: target.split ? 'statement' : 'declarator', text: target.text };
      fates.set(target.declarator?.index ?? -1, fate);
    }
    const declarations = statement.declarationList.declarations;
    if (declarations.every((_, i) => fates.get(i)?.state === 'deleted')) {
      return { kind: 'delete', ops, range: this.syntax.statementRange(statement) };
    }
    const start = statement.getStart(this.syntax.sourceFile);
    const lineBreak = this.style.eol + indentOfLine(this.text, start);
    const newText = rewriteDeclarations(this.text, this.syntax.sourceFile, statement, fates, lineBreak);
    return { kind: 'rewrite', ops, range: { start, end: statement.end }, newText };
  }
}

export type { ElementOperation };
export const isElementOperation = (op: Operation): op is ElementOperation =>
  op.type !== 'CREATE_FILE' && op.type !== 'REPLACE_FILE';
