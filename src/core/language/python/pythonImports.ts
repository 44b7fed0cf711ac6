import type { Node } from 'web-tree-sitter';
import type { ImportShape, NamedBinding } from '../importModel';
import type { ImportSpec } from '../treeSitter/languageSpec';

/**
 * Python's import statements as import shapes: `import a.b as c, d` is one shape per module (the alias as its
 * namespace name); `from m import x as y, z` is one shape of module `m` with named bindings.
 */

const NAME = String.raw`[A-Za-z_][\w]*`;
const DOTTED = String.raw`${NAME}(?:\s*\.\s*${NAME})*`;

/** The statement without comments and line continuations, on one line. */
function flatten(text: string): string {
  return text
    .replace(/#[^\n]*/g, '')
    .replace(/\\\n/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function parseImport(text: string): readonly ImportShape[] | undefined {
  const flat = flatten(text).replace(/;$/, '').trim();
  const plain = new RegExp(`^import (.+)$`).exec(flat);
  if (plain?.[1] !== undefined && !flat.startsWith('import (')) {
    const shapes: ImportShape[] = [];
    for (const part of plain[1].split(',')) {
      const match = new RegExp(`^(${DOTTED})(?: as (${NAME}))?$`).exec(part.trim());
      if (match?.[1] === undefined) return undefined;
      shapes.push({
        module: match[1].replace(/\s+/g, ''),
        typeOnly: false,
        named: [],
        hasNamedList: false,
        ...(match[2] === undefined ? {} : { namespaceName: match[2] }),
      });
    }
    return shapes;
  }
  const from = new RegExp(String.raw`^from (\.*(?:${DOTTED})?) import (.+)$`).exec(flat);
  if (from?.[1] === undefined || from[1] === '' || from[2] === undefined) return undefined;
  let list = from[2].trim();
  if (list.startsWith('(')) {
    if (!list.endsWith(')')) return undefined;
    list = list.slice(1, -1);
  }
  const named: NamedBinding[] = [];
  for (const part of list.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    if (item === '*') {
      named.push({ name: '*', imported: '*', typeOnly: false });
      continue;
    }
    const match = new RegExp(`^(${NAME})(?: as (${NAME}))?$`).exec(item);
    if (match?.[1] === undefined) return undefined;
    named.push({ name: match[2] ?? match[1], imported: match[1], typeOnly: false });
  }
  if (named.length === 0) return undefined;
  return [{ module: from[1].replace(/\s+/g, ''), typeOnly: false, named, hasNamedList: true }];
}

function bindingText(binding: NamedBinding): string {
  return binding.imported === binding.name ? binding.name : `${binding.imported} as ${binding.name}`;
}

function renderImport(shapes: readonly ImportShape[], original: string | undefined): string {
  const from = shapes.find((s) => s.hasNamedList);
  if (from !== undefined) {
    const names = from.named.map(bindingText);
    const head = `from ${from.module} import `;
    // A parenthesised list over several lines stays one, one name a line, as the statement was written.
    if (original !== undefined && /\(\s*\n/.test(original)) {
      const indent = /\n([ \t]+)\S/.exec(original)?.[1] ?? '    ';
      const trailing = /,\s*\)\s*$/.test(original.replace(/#[^\n]*/g, ''));
      return `${head}(\n${names.map((n, i) => `${indent}${n}${i < names.length - 1 || trailing ? ',' : ''}`).join('\n')}\n)`;
    }
    if (original !== undefined && /import\s*\(/.test(original)) return `${head}(${names.join(', ')})`;
    return `${head}${names.join(', ')}`;
  }
  return `import ${shapes.map((s) => (s.namespaceName === undefined ? s.module : `${s.module} as ${s.namespaceName}`)).join(', ')}`;
}

function nameOf(node: Node): string {
  if (node.type === 'future_import_statement') return '__future__';
  const module = node.childForFieldName('module_name');
  if (module !== null) return module.text.replace(/\s+/g, '');
  const names = node
    .childrenForFieldName('name')
    .map((n) => (n.childForFieldName('name') ?? n).text.replace(/\s+/g, ''));
  return names.join(',');
}

export const pythonImports: ImportSpec = {
  nodeTypes: ['import_statement', 'import_from_statement', 'future_import_statement'],
  parse: parseImport,
  render: renderImport,
  nameOf,
  // CPython refuses a `from __future__` import after any other statement but the docstring.
  heads: (shape) => shape.module === '__future__',
};
