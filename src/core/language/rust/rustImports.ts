import type { ImportShape, NamedBinding } from '../importModel';
import type { ImportDeclarationText, ImportMerge, ImportSpec } from '../treeSitter/languageSpec';

/**
 * Rust's `use` declarations as import shapes: every leaf of a use tree is a name bound from the path before it, so
 * `use std::{fmt::{self, Display}, io};` is a shape of `std` naming `fmt` and `io` and one of `std::fmt` naming
 * `Display` (`self` is the import of its path, as `use std::fmt;` would be; a glob names `*`; `a as b` binds `b`). `extern crate x;` is a module import of `crate x`, as its element is
 * named. An added name goes into a braced list of its path where the file has one (in its sorted place when the list
 * is sorted), else into a declaration of its own; a name removed leaves the tree's layout as written, and a list left
 * with one name loses its braces.
 */

interface UseNode {
  readonly start: number;
  readonly end: number;
  /** The path segments this node writes before its leaf, list or glob. */
  readonly segments: readonly string[];
  readonly kind: 'leaf' | 'glob' | 'list';
  /** A leaf's alias (`as x`). */
  readonly alias?: string;
  readonly items: readonly UseNode[];
  /** The offsets of a list's `{` and `}`. */
  readonly open: number;
  readonly close: number;
}

interface UseDeclaration {
  /** What precedes `use` (`pub(crate) `), whitespace collapsed: only declarations alike are merged. */
  readonly visibility: string;
  readonly tree: UseNode | undefined;
  /** `extern crate x [as y]`. */
  readonly crate?: { readonly name: string; readonly alias: string | undefined };
}

interface Leaf {
  readonly node: UseNode;
  readonly module: string;
  readonly binding: NamedBinding;
}

const IDENT = /(?:r#)?[\p{L}_][\p{L}\p{N}_]*|\$crate/uy;

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  skip(): void {
    for (;;) {
      const rest = this.text.slice(this.at);
      const space = /^\s+/.exec(rest)?.[0].length ?? 0;
      if (space > 0) this.at += space;
      else if (rest.startsWith('//')) {
        const end = this.text.indexOf('\n', this.at);
        this.at = end < 0 ? this.text.length : end;
      } else if (rest.startsWith('/*')) {
        const end = this.text.indexOf('*/', this.at + 2);
        this.at = end < 0 ? this.text.length : end + 2;
      } else return;
    }
  }

  eat(token: string): boolean {
    this.skip();
    if (!this.text.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }

  ident(): string | undefined {
    this.skip();
    IDENT.lastIndex = this.at;
    const match = IDENT.exec(this.text);
    if (match === null) return undefined;
    this.at += match[0].length;
    return match[0];
  }

  keyword(word: string): boolean {
    const at = this.at;
    if (this.ident() === word) return true;
    this.at = at;
    return false;
  }

  tree(): UseNode | undefined {
    this.skip();
    const start = this.at;
    const segments: string[] = [];
    if (this.eat('::')) segments.push('');
    for (;;) {
      this.skip();
      if (this.eat('*')) return { start, end: this.at, segments, kind: 'glob', items: [], open: -1, close: -1 };
      if (this.text.startsWith('{', this.at)) {
        const open = this.at;
        this.at += 1;
        const items: UseNode[] = [];
        for (;;) {
          if (this.eat('}')) break;
          const item = this.tree();
          if (item === undefined) return undefined;
          items.push(item);
          if (this.eat('}')) break;
          if (!this.eat(',')) return undefined;
        }
        return { start, end: this.at, segments, kind: 'list', items, open, close: this.at - 1 };
      }
      const name = this.ident();
      if (name === undefined) return undefined;
      segments.push(name);
      const before = this.at;
      if (this.eat('::')) continue;
      this.at = before;
      let alias: string | undefined;
      if (this.keyword('as')) {
        alias = this.ident();
        if (alias === undefined) return undefined;
      }
      return {
        start,
        end: this.at,
        segments,
        kind: 'leaf',
        ...(alias === undefined ? {} : { alias }),
        items: [],
        open: -1,
        close: -1,
      };
    }
  }
}

function readDeclaration(text: string): UseDeclaration | undefined {
  const reader = new Reader(text);
  reader.skip();
  const head = reader.at;
  if (reader.keyword('pub')) {
    reader.skip();
    if (reader.text.startsWith('(', reader.at)) {
      const close = text.indexOf(')', reader.at);
      if (close < 0) return undefined;
      reader.at = close + 1;
    }
  }
  const visibility = text.slice(head, reader.at).replace(/\s+/g, ' ').trim();
  let declaration: UseDeclaration;
  if (reader.keyword('extern')) {
    if (!reader.keyword('crate')) return undefined;
    const name = reader.ident();
    if (name === undefined) return undefined;
    const alias = reader.keyword('as') ? reader.ident() : undefined;
    declaration = { visibility, tree: undefined, crate: { name, alias } };
  } else {
    if (!reader.keyword('use')) return undefined;
    const tree = reader.tree();
    if (tree === undefined) return undefined;
    declaration = { visibility, tree };
  }
  if (!reader.eat(';')) return undefined;
  reader.skip();
  return reader.at === text.length ? declaration : undefined;
}

function leavesOf(node: UseNode, prefix: readonly string[]): Leaf[] {
  const path = [...prefix, ...node.segments];
  if (node.kind === 'list') return node.items.flatMap((item) => leavesOf(item, path));
  const join = (segments: readonly string[]): string =>
    segments.length === 1 && segments[0] === '' ? '::' : segments.join('::');
  if (node.kind === 'glob')
    return [{ node, module: join(path), binding: { name: '*', imported: '*', typeOnly: false } }];
  // `a::b::{self}` imports `a::b`: read as `b` from `a`, so it is the same import as `use a::b;`.
  const last = path.length > 1 && path.at(-1) === 'self' ? path.length - 2 : path.length - 1;
  const imported = path[last] ?? '';
  const binding = { name: node.alias ?? imported, imported, typeOnly: false };
  return [{ node, module: join(path.slice(0, last)), binding }];
}

function shapesOf(declaration: UseDeclaration): ImportShape[] {
  if (declaration.crate !== undefined) {
    const { name, alias } = declaration.crate;
    return [
      {
        module: `crate ${name}`,
        typeOnly: false,
        named: [],
        hasNamedList: false,
        ...(alias === undefined ? {} : { namespaceName: alias }),
      },
    ];
  }
  const shapes = new Map<string, NamedBinding[]>();
  for (const leaf of declaration.tree === undefined ? [] : leavesOf(declaration.tree, [])) {
    const named = shapes.get(leaf.module) ?? [];
    named.push(leaf.binding);
    shapes.set(leaf.module, named);
  }
  return [...shapes].map(([module, named]) => ({ module, typeOnly: false, named, hasNamedList: true }));
}

function parse(text: string): readonly ImportShape[] | undefined {
  const declaration = readDeclaration(text.replace(/\r\n/g, '\n'));
  return declaration === undefined ? undefined : shapesOf(declaration);
}

const bindingText = (b: NamedBinding): string => (b.name === b.imported ? b.imported : `${b.imported} as ${b.name}`);
const keyOf = (module: string, b: NamedBinding): string => `${module}\0${b.imported}\0${b.name}`;

/** A use declaration of its own for shapes: `use a::b;`, `use a::{b, c};`, `use {a::b, c::d};`. */
function fresh(shapes: readonly ImportShape[], visibility: string): string {
  const head = visibility === '' ? 'use ' : `${visibility} use `;
  const crate = shapes.find((s) => s.module.startsWith('crate ') && !s.hasNamedList);
  if (crate !== undefined) {
    const alias = crate.namespaceName === undefined ? '' : ` as ${crate.namespaceName}`;
    return `${visibility === '' ? '' : `${visibility} `}extern ${crate.module}${alias};`;
  }
  const trees = shapes.map((shape) => {
    const prefix = shape.module === '' ? '' : shape.module.endsWith('::') ? shape.module : `${shape.module}::`;
    const [only] = shape.named;
    if (only !== undefined && shape.named.length === 1) return `${prefix}${bindingText(only)}`;
    return `${prefix}{${shape.named.map(bindingText).join(', ')}}`;
  });
  const [tree] = trees;
  return `${head}${tree !== undefined && trees.length === 1 ? tree : `{${trees.join(', ')}}`};`;
}

/** The start of the line of `offset` when only white space precedes it there, else undefined. */
function ownLineStart(text: string, offset: number): number | undefined {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset)) ? start : undefined;
}

/** Whether a list is written one item a line with its `}` on a line of its own (rustfmt's vertical layout). */
function isVertical(text: string, list: UseNode): boolean {
  if (!text.slice(list.open, list.close).includes('\n') || list.items.length === 0) return false;
  return (
    ownLineStart(text, list.close) !== undefined &&
    list.items.every((item) => ownLineStart(text, item.start) !== undefined)
  );
}

/** The node's text with the leaves in `dropped` taken out; undefined when nothing of it is left. */
function pruned(text: string, node: UseNode, dropped: ReadonlySet<UseNode>): string | undefined {
  if (node.kind !== 'list') return dropped.has(node) ? undefined : text.slice(node.start, node.end);
  if (!leavesOf(node, []).some((leaf) => dropped.has(leaf.node))) return text.slice(node.start, node.end);
  const kept = node.items
    .map((item) => ({ item, text: pruned(text, item, dropped) }))
    .filter((k): k is { item: UseNode; text: string } => k.text !== undefined);
  if (kept.length === 0) return undefined;
  const head = text.slice(node.start, node.open);
  const [only] = kept;
  if (kept.length < node.items.length && only !== undefined && kept.length === 1 && only.text !== 'self')
    return `${head}${only.text}`;
  if (isVertical(text, node)) {
    let body = '';
    node.items.forEach((item, i) => {
      const entry = kept.find((k) => k.item === item);
      if (entry === undefined) return;
      const lineStart = ownLineStart(text, item.start) ?? item.start;
      const next = node.items[i + 1];
      const nextStart =
        next === undefined
          ? (ownLineStart(text, node.close) ?? node.close)
          : (ownLineStart(text, next.start) ?? next.start);
      body += text.slice(lineStart, item.start) + entry.text + text.slice(item.end, nextStart);
    });
    const closeLine = ownLineStart(text, node.close) ?? node.close;
    const firstLine = ownLineStart(text, node.items[0]?.start ?? node.close) ?? node.open + 1;
    return `${text.slice(node.start, firstLine)}${body}${text.slice(closeLine, node.end)}`;
  }
  return `${head}{${kept.map((k) => k.text).join(', ')}}`;
}

/**
 * The declaration `original` keeping only the names `shapes` still bind, its layout as written. Without an original,
 * or when shapes bind a name the original lacks, a declaration of its own.
 */
function render(shapes: readonly ImportShape[], original: string | undefined): string {
  const text = original?.replace(/\r\n/g, '\n');
  const declaration = text === undefined ? undefined : readDeclaration(text);
  if (text === undefined || declaration === undefined) return fresh(shapes, declaration?.visibility ?? '');
  if (declaration.tree === undefined) return shapes.length === 0 ? '' : text;
  const wanted = new Map<string, number>();
  for (const shape of shapes)
    for (const b of shape.named) wanted.set(keyOf(shape.module, b), (wanted.get(keyOf(shape.module, b)) ?? 0) + 1);
  const dropped = new Set<UseNode>();
  for (const leaf of leavesOf(declaration.tree, [])) {
    const left = wanted.get(keyOf(leaf.module, leaf.binding)) ?? 0;
    if (left > 0) wanted.set(keyOf(leaf.module, leaf.binding), left - 1);
    else dropped.add(leaf.node);
  }
  if ([...wanted.values()].some((left) => left > 0)) return fresh(shapes, declaration.visibility);
  const tree = pruned(text, declaration.tree, dropped);
  if (tree === undefined) return '';
  return `${text.slice(0, declaration.tree.start)}${tree}${text.slice(declaration.tree.end)}`;
}

function fullPath(module: string, binding: NamedBinding): string {
  return module === '' ? binding.imported : `${module}::${binding.imported}`;
}

/** Lists of a tree by the path before their `{`. */
function listsOf(node: UseNode, prefix: readonly string[], found: Array<{ path: string; list: UseNode }>): void {
  const path = [...prefix, ...node.segments];
  if (node.kind !== 'list') return;
  found.push({ path: path.join('::'), list: node });
  for (const item of node.items) listsOf(item, path, found);
}

/** rustfmt's order inside a list: `self` first, then by name. */
function sortKey(text: string): string {
  return text === 'self' ? '' : text.replace(/^\{/, '');
}

function inserted(text: string, list: UseNode, added: readonly string[]): string {
  const itemTexts = list.items.map((item) => text.slice(item.start, item.end));
  const orders: Array<(a: string, b: string) => number> = [
    (a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0),
    (a, b) => sortKey(a).toLowerCase().localeCompare(sortKey(b).toLowerCase()),
  ];
  const order =
    itemTexts.length < 2
      ? orders[0]
      : orders.find((compare) => itemTexts.every((t, i) => i === 0 || compare(itemTexts[i - 1] ?? '', t) <= 0));
  // Where each added item goes: before the first item that sorts after it, or at the end.
  const placed = added.map((piece) => {
    const before = order === undefined ? -1 : itemTexts.findIndex((t) => order(t, piece) > 0);
    return { piece, before: before < 0 ? list.items.length : before };
  });
  if (isVertical(text, list)) {
    const indent = /^[ \t]*/.exec(text.slice(ownLineStart(text, list.items[0]?.start ?? 0) ?? 0))?.[0] ?? '    ';
    const edits: Array<{ at: number; insert: string }> = [];
    const last = list.items.at(-1);
    const trailingComma = last !== undefined && text.slice(last.end, list.close).includes(',');
    for (const { piece, before } of placed) {
      const anchor = list.items[before];
      const at =
        anchor === undefined
          ? (ownLineStart(text, list.close) ?? list.close)
          : (ownLineStart(text, anchor.start) ?? anchor.start);
      edits.push({ at, insert: `${indent}${piece},\n` });
    }
    if (!trailingComma && last !== undefined && placed.some((p) => p.before === list.items.length))
      edits.push({ at: last.end, insert: ',' });
    let result = text;
    for (const edit of edits.sort((a, b) => b.at - a.at))
      result = result.slice(0, edit.at) + edit.insert + result.slice(edit.at);
    return result;
  }
  const items: string[] = [];
  for (let i = 0; i <= itemTexts.length; i++) {
    for (const p of placed) if (p.before === i) items.push(p.piece);
    const own = itemTexts[i];
    if (own !== undefined) items.push(own);
  }
  return `${text.slice(0, list.open)}{${items.join(', ')}}${text.slice(list.close + 1)}`;
}

function merge(
  declarations: readonly ImportDeclarationText[],
  request: ImportShape,
  requestText: string,
): ImportMerge | undefined {
  if (!request.hasNamedList) {
    const present = declarations.some((d) => d.shapes.some((s) => s.module === request.module && !s.hasNamedList));
    return present ? { kind: 'present', note: `${request.module} is already imported` } : undefined;
  }
  const existing = declarations.flatMap((d) =>
    d.shapes.flatMap((s) => s.named.map((b) => ({ path: fullPath(s.module, b), local: b.name, module: s.module, b }))),
  );
  const missing = request.named.filter((b) => {
    const path = fullPath(request.module, b);
    return !existing.some((e) => e.path === path && e.local === b.name);
  });
  const what = request.named.map((b) => fullPath(request.module, b)).join(', ');
  if (missing.length === 0) return { kind: 'present', note: `${what} is already imported` };
  for (const b of missing) {
    const local = b.name;
    if (local === '_' || local === '*') continue;
    const clash = existing.find((e) => e.local === local && e.path !== fullPath(request.module, b));
    if (clash !== undefined)
      return {
        kind: 'clash',
        message: `'${local}' is already imported as ${clash.path}`,
        hint: `import it under another name (use ${fullPath(request.module, b)} as Other;), or remove the existing import first`,
      };
  }
  const visibility = readDeclaration(requestText.replace(/\r\n/g, '\n'))?.visibility ?? '';
  for (let index = 0; index < declarations.length; index++) {
    const text = (declarations[index]?.text ?? '').replace(/\r\n/g, '\n');
    const declaration = readDeclaration(text);
    if (declaration?.tree === undefined || declaration.visibility !== visibility) continue;
    const lists: Array<{ path: string; list: UseNode }> = [];
    listsOf(declaration.tree, [], lists);
    const target = lists.find((l) => l.path === request.module);
    if (target !== undefined)
      return { kind: 'into', index, text: inserted(text, target.list, missing.map(bindingText)) };
  }
  if (missing.length < request.named.length) {
    // Some of the names are imported already: the others alone, in a declaration of their own.
    return { kind: 'separate', text: fresh([{ ...request, named: missing }], visibility) };
  }
  return undefined;
}

/** A path written without `use` (`std::fmt::Display`): the declaration it stands for. */
function asDeclaration(content: string): string | undefined {
  const text = content.trim().replace(/;$/, '').trim();
  if (/^(pub\b|use\b|extern\b)/.test(text)) return undefined;
  return /^(?:::)?[\w$]+(?:::[\w$]+)*(?:::\*|::\{[\s\S]*\}|\s+as\s+\w+)?$/.test(text) ? `use ${text};` : undefined;
}

export const rustImports: ImportSpec = {
  nodeTypes: ['use_declaration', 'extern_crate_declaration'],
  parse,
  render,
  nameOf: (node) =>
    node.type === 'extern_crate_declaration'
      ? `crate ${node.childForFieldName('name')?.text ?? ''}`
      : (node.childForFieldName('argument')?.text ?? '').replace(/\s+/g, ' '),
  asDeclaration,
  merge,
};
