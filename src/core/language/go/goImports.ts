import type { Node } from 'web-tree-sitter';
import type { ImportShape } from '../importModel';
import type { ImportDeclarationText, ImportMerge, ImportSpec } from '../treeSitter/languageSpec';

/**
 * Go's import declarations as import shapes: every import spec is one shape, its path the module and its name
 * (`f`, `_`, `.`) the namespace name, so `import ( "a"; f "b" )` is two shapes of one declaration. An added path goes
 * where goimports would put it: into the group of a block whose paths share the longest prefix with it, in its sorted
 * place when the group is sorted; a lone `import "x"` becomes a block. Removing a path removes its line; a block left
 * empty goes. Lines are edited in place, so comments and groups stay as written.
 */

interface GoImportSpec {
  readonly name: string | undefined;
  readonly path: string;
  /** The spec's text (`f "fmt"`). */
  readonly written: string;
  readonly start: number;
  readonly end: number;
}

interface GoImportDeclaration {
  /** `import ( ... )`: the offsets of the brackets. */
  readonly block: { readonly open: number; readonly close: number } | undefined;
  readonly specs: readonly GoImportSpec[];
}

const IDENTIFIER = /[\p{L}_][\p{L}\p{N}_]*/uy;

/** Skips white space, `;` and comments from `at`; newlines too unless `sameLine`. */
function skip(text: string, at: number, sameLine = false): number {
  let i = at;
  for (;;) {
    const c = text.charAt(i);
    if (c === ' ' || c === '\t' || c === '\r' || (!sameLine && (c === '\n' || c === ';'))) i += 1;
    else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return text.length;
      i = end + 2;
    } else return i;
  }
}

/** A string literal at `at`: its end and value, or undefined. */
function stringAt(text: string, at: number): { end: number; value: string } | undefined {
  const quote = text.charAt(at);
  if (quote === '`') {
    const end = text.indexOf('`', at + 1);
    return end < 0 ? undefined : { end: end + 1, value: text.slice(at + 1, end) };
  }
  if (quote !== '"') return undefined;
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '\\') i += 1;
    else if (c === '\n') return undefined;
    else if (c === '"') return { end: i + 1, value: text.slice(at + 1, i) };
  }
  return undefined;
}

function specAt(text: string, at: number): GoImportSpec | undefined {
  let i = at;
  let name: string | undefined;
  if (text.charAt(i) === '.') {
    name = '.';
    i += 1;
  } else {
    IDENTIFIER.lastIndex = i;
    const match = IDENTIFIER.exec(text);
    if (match !== null) {
      name = match[0];
      i += name.length;
    }
  }
  if (name !== undefined) i = skip(text, i, true);
  const literal = stringAt(text, i);
  if (literal === undefined || literal.value === '') return undefined;
  return { name, path: literal.value, written: text.slice(at, literal.end), start: at, end: literal.end };
}

/** One import declaration's text read, or undefined when it is not exactly one. */
function readDeclaration(text: string): GoImportDeclaration | undefined {
  let i = skip(text, 0);
  if (!text.startsWith('import', i) || /[\p{L}\p{N}_]/u.test(text.charAt(i + 6))) return undefined;
  i = skip(text, i + 6);
  const specs: GoImportSpec[] = [];
  let block: GoImportDeclaration['block'];
  if (text.charAt(i) === '(') {
    const open = i;
    i = skip(text, i + 1);
    while (text.charAt(i) !== ')') {
      const spec = specAt(text, i);
      if (spec === undefined) return undefined;
      specs.push(spec);
      i = skip(text, spec.end);
    }
    block = { open, close: i };
    i += 1;
  } else {
    const spec = specAt(text, i);
    if (spec === undefined) return undefined;
    specs.push(spec);
    i = spec.end;
  }
  if (skip(text, i) !== text.length) return undefined;
  return { block, specs };
}

function shapeOf(spec: { name: string | undefined; path: string }): ImportShape {
  return {
    module: spec.path,
    typeOnly: false,
    named: [],
    hasNamedList: false,
    ...(spec.name === undefined ? {} : { namespaceName: spec.name }),
  };
}

function parse(text: string): readonly ImportShape[] | undefined {
  return readDeclaration(text.replace(/\r\n/g, '\n'))?.specs.map(shapeOf);
}

function specText(shape: ImportShape): string {
  return `${shape.namespaceName === undefined ? '' : `${shape.namespaceName} `}"${shape.module}"`;
}

/** A declaration of its own for shapes: `import "x"`, or a block in goimports' groups when there are several. */
function fresh(shapes: readonly ImportShape[]): string {
  const [only] = shapes;
  if (only !== undefined && shapes.length === 1) return `import ${specText(only)}`;
  const groups = [shapes.filter((s) => isStandard(s.module)), shapes.filter((s) => !isStandard(s.module))]
    .filter((group) => group.length > 0)
    .map((group) => group.map((s) => `\t${specText(s)}\n`).join(''));
  return `import (\n${groups.join('\n')})`;
}

/** A spec told apart by its name and path: `f "fmt"` and `"fmt"` are two imports. */
const keyOf = (name: string | undefined, path: string): string => `${name ?? ''} ${path}`;

/**
 * The declaration `original` keeping only the specs `shapes` still name, each removed with its line when the line
 * holds nothing else. Without an original, a declaration of its own.
 */
function render(shapes: readonly ImportShape[], original: string | undefined): string {
  const text = original?.replace(/\r\n/g, '\n');
  const read = text === undefined ? undefined : readDeclaration(text);
  if (text === undefined || read === undefined) return fresh(shapes);
  const wanted = new Map<string, number>();
  for (const shape of shapes) {
    const key = keyOf(shape.namespaceName, shape.module);
    wanted.set(key, (wanted.get(key) ?? 0) + 1);
  }
  const kept: GoImportSpec[] = [];
  const dropped: GoImportSpec[] = [];
  for (const spec of read.specs) {
    const key = keyOf(spec.name, spec.path);
    const left = wanted.get(key) ?? 0;
    if (left > 0) {
      wanted.set(key, left - 1);
      kept.push(spec);
    } else dropped.push(spec);
  }
  // Shapes the original does not hold (none when the book only takes specs out): the declaration is written anew.
  const extra: ImportShape[] = [];
  for (const shape of shapes) {
    const key = keyOf(shape.namespaceName, shape.module);
    const left = wanted.get(key) ?? 0;
    if (left > 0) {
      wanted.set(key, left - 1);
      extra.push(shape);
    }
  }
  if (extra.length > 0 || read.block === undefined || !onOwnLines(text, read)) {
    if (dropped.length === 0 && extra.length === 0) return text;
    return fresh([...kept.map(shapeOf), ...extra]);
  }
  let result = text;
  for (const spec of [...dropped].reverse()) {
    const { start, end } = lineAround(result, spec.start);
    result = result.slice(0, start) + result.slice(end);
  }
  return tidyBlank(result);
}

/** Whether every spec of a block stands on a line of its own (a trailing comment allowed). */
function onOwnLines(text: string, read: GoImportDeclaration): boolean {
  const lines = new Set<number>();
  for (const spec of read.specs) {
    const line = lineAround(text, spec.start);
    if (lines.has(line.start)) return false;
    lines.add(line.start);
    const before = text.slice(line.start, spec.start);
    const after = text.slice(spec.end, line.end);
    if (before.trim() !== '' || !/^\s*(\/\/.*)?\s*$/.test(after)) return false;
  }
  return true;
}

/** The line holding `offset`, with its newline. */
function lineAround(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  return { start, end: newline < 0 ? text.length : newline + 1 };
}

/** No blank line left right inside the brackets, none doubled: what gofmt leaves after a line is taken out. */
function tidyBlank(text: string): string {
  return text
    .replace(/\(\n(?:[ \t]*\n)+/, '(\n')
    .replace(/\n(?:[ \t]*\n)+(\s*\)\s*)$/, '\n$1')
    .replace(/\n(?:[ \t]*\n){2,}/g, '\n\n');
}

/** A path of the standard library: no dot in its first element (goimports' rule). */
function isStandard(path: string): boolean {
  return !(path.split('/')[0] ?? '').includes('.');
}

/** How many path elements two paths share, as goimports measures it. */
function matchLength(a: string, b: string): number {
  let slashes = 0;
  for (let i = 0; i < a.length && i < b.length && a[i] === b[i]; i++) if (a[i] === '/') slashes += 1;
  return slashes;
}

function merge(declarations: readonly ImportDeclarationText[], request: ImportShape): ImportMerge | undefined {
  for (const declaration of declarations) {
    for (const shape of declaration.shapes) {
      if (shape.module === request.module && shape.namespaceName === request.namespaceName)
        return { kind: 'present', note: `"${request.module}" is already imported` };
    }
  }
  // `import "C"` stays on its own: cgo reads the comment above it.
  if (request.module === 'C') return undefined;
  const candidates = declarations
    .map((declaration, index) => ({ index, text: declaration.text.replace(/\r\n/g, '\n') }))
    .map((d) => ({ ...d, read: readDeclaration(d.text) }))
    .filter((d) => d.read !== undefined && !d.read.specs.some((s) => s.path === 'C'));
  const blocks = candidates.filter((d) => d.read?.block !== undefined);
  const best = blocks
    .map((d) => ({ ...d, place: blockPlace(d.text, d.read, request) }))
    .filter((d) => d.place !== undefined)
    .sort((a, b) => (b.place?.score ?? 0) - (a.place?.score ?? 0))[0];
  if (best?.place !== undefined) return { kind: 'into', index: best.index, text: best.place.text };
  if (blocks.length > 0) return undefined;
  const [single] = candidates;
  if (single?.read !== undefined && candidates.length === 1 && declarations.length === 1) {
    // The file's only import, written alone: it becomes a block, as goimports does.
    const [spec] = single.read.specs;
    if (spec === undefined) return undefined;
    const trailing = /^[ \t]*(\/\/.*|\/\*.*\*\/)?[ \t]*$/.exec(single.text.slice(spec.end));
    if (trailing === null) return undefined;
    const comment = trailing[1] === undefined ? '' : ` ${trailing[1]}`;
    const head = single.text.slice(0, spec.start).replace(/import\s*$/, 'import (\n');
    const lines = [
      { text: `\t${spec.written}${comment}\n`, path: spec.path },
      { text: `\t${specText(request)}\n`, path: request.module },
    ];
    const groups = [lines.filter((l) => isStandard(l.path)), lines.filter((l) => !isStandard(l.path))]
      .filter((group) => group.length > 0)
      .map((group) =>
        group
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
          .map((l) => l.text)
          .join(''),
      );
    return { kind: 'into', index: single.index, text: `${head}${groups.join('\n')})` };
  }
  return undefined;
}

interface BlockLine {
  readonly spec: GoImportSpec;
  /** Offsets of the spec's line, with its newline. */
  readonly start: number;
  readonly end: number;
}

/**
 * Where a path goes in one block: the group (lines not parted by a blank line) of its kind (standard library or not)
 * whose paths share the longest prefix with it, in its sorted place when the group is sorted, else after the group's
 * last line; a group of its own when the block has none of its kind. Undefined for a block not one spec a line.
 */
function blockPlace(
  text: string,
  read: GoImportDeclaration | undefined,
  request: ImportShape,
): { text: string; score: number } | undefined {
  if (read?.block === undefined) return undefined;
  const line = `${specText(request)}\n`;
  if (read.specs.length === 0) {
    const indentOf = /\n([ \t]*)\)\s*$/.exec(text)?.[1] ?? '';
    return {
      text: `${text.slice(0, read.block.open + 1)}\n${indentOf}\t${line}${text.slice(read.block.close).trimStart()}`,
      score: 0,
    };
  }
  if (!onOwnLines(text, read)) return undefined;
  const lines: BlockLine[] = read.specs.map((spec) => ({ spec, ...lineAround(text, spec.start) }));
  const indent = /^[ \t]*/.exec(text.slice(lines[0]?.start ?? 0))?.[0] ?? '\t';
  const groups: BlockLine[][] = [];
  for (const entry of lines) {
    const last = groups.at(-1)?.at(-1);
    const parted = last === undefined || /\n[ \t]*\n/.test(text.slice(last.end - 1, entry.start));
    if (parted) groups.push([entry]);
    else groups.at(-1)?.push(entry);
  }
  const standard = isStandard(request.module);
  const ofKind = groups
    .map((group, order) => ({
      group,
      order,
      score: Math.max(...group.map((l) => matchLength(l.spec.path, request.module))),
      same: group.some((l) => isStandard(l.spec.path) === standard),
    }))
    .filter((g) => g.same)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const chosen = ofKind[0];
  const insert = (at: number, piece: string): string => text.slice(0, at) + piece + text.slice(at);
  if (chosen === undefined) {
    // A group of its own: the standard library first, the rest after.
    const first = lines[0];
    const last = lines.at(-1);
    if (first === undefined || last === undefined) return undefined;
    return standard
      ? { text: insert(first.start, `${indent}${line}\n`), score: 0 }
      : { text: insert(last.end, `\n${indent}${line}`), score: 0 };
  }
  const paths = chosen.group.map((l) => l.spec.path);
  const sorted = paths.every((path, i) => i === 0 || (paths[i - 1] ?? '') <= path);
  const after = sorted ? chosen.group.find((l) => l.spec.path > request.module) : undefined;
  const at = after?.start ?? chosen.group.at(-1)?.end ?? read.block.close;
  return { text: insert(at, `${indent}${line}`), score: chosen.score + 1 };
}

/** `"fmt"`, `f "fmt"`, several such lines, or a bare path (`net/http`): the declaration they stand for. */
function asDeclaration(content: string): string | undefined {
  const text = content.trim().replace(/\r\n/g, '\n');
  if (/^import\b/.test(text)) return undefined;
  if (/^[\w.\-~]+(?:\/[\w.\-~]+)*$/.test(text)) return `import "${text}"`;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const spec = /^(?:[\p{L}_][\p{L}\p{N}_]*\s+|\.\s*)?(?:"[^"\n]*"|`[^`]*`)\s*(?:\/\/.*)?$/u;
  if (!lines.every((l) => spec.test(l.trim()))) return undefined;
  if (lines.length === 1) return `import ${text}`;
  return `import (\n${lines.map((l) => `\t${l.trim()}`).join('\n')}\n)`;
}

function nameOf(node: Node): string {
  return node
    .descendantsOfType('import_spec')
    .map((spec) => (spec.childForFieldName('path')?.text ?? spec.text).replace(/^["`]|["`]$/g, ''))
    .join(',');
}

export const goImports: ImportSpec = {
  nodeTypes: ['import_declaration'],
  parse,
  render,
  nameOf,
  asDeclaration,
  merge,
};
