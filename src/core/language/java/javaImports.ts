import type { Node } from 'web-tree-sitter';
import { flattenCLikeDeclaration as flatten, withDeclarationKeyword } from '../cLike/cLikeScan';
import type { ImportShape } from '../importModel';
import type { ImportSpec } from '../treeSitter/languageSpec';

/**
 * Java's import declarations as import shapes: one declaration imports one name, so a shape is a module without
 * bindings whose `module` is what follows `import`, whitespace removed: `java.util.List`, `java.util.*`,
 * `static java.lang.Math.sqrt`. That is also the element's name (`import[static java.lang.Math.sqrt]`), so a
 * REMOVE_IMPORT by path and one by content find the same declaration.
 */

const NAME = String.raw`[\p{L}_$][\p{L}\p{N}_$]*`;
// At least one dot: javac's parser refuses `import List;` ("'.' expected"), and a bare name is no import.
const QUALIFIED = new RegExp(String.raw`^(static\s+)?(${NAME}(?:\s*\.\s*${NAME})*\s*\.\s*(?:${NAME}|\*))$`, 'u');

/** `static a.b.C` or `a.b.*` from the text after `import`; undefined when it is not a qualified name. */
function moduleOf(rest: string): string | undefined {
  const match = QUALIFIED.exec(rest.trim());
  if (match?.[2] === undefined) return undefined;
  const name = match[2].replace(/\s+/g, '');
  return match[1] === undefined ? name : `static ${name}`;
}

function parse(text: string): readonly ImportShape[] | undefined {
  const match = /^import\s+([^;]*);$/.exec(flatten(text));
  const module = match?.[1] === undefined ? undefined : moduleOf(match[1]);
  if (module === undefined) return undefined;
  return [{ module, typeOnly: false, named: [], hasNamedList: false }];
}

function render(shapes: readonly ImportShape[]): string {
  return shapes.map((shape) => `import ${shape.module};`).join('\n');
}

/**
 * An operation's content as declarations: `import a.b.C;` as it is, and the shorter forms a model writes without
 * the keyword or the semicolon (`a.b.C`, `static a.B.m;`), one a line.
 */
function asDeclaration(content: string): string {
  // Only a qualified name gets the keyword.
  return withDeclarationKeyword(
    content,
    'import',
    (code) => /^import\b/.test(code),
    (bare) => moduleOf(bare) !== undefined,
  );
}

/** The package (or class, for a static import) a name is in, and its last part: `java.util` and `List`. */
function split(module: string): { isStatic: boolean; owner: string; last: string } {
  const isStatic = module.startsWith('static ');
  const name = isStatic ? module.slice('static '.length) : module;
  const dot = name.lastIndexOf('.');
  return { isStatic, owner: dot < 0 ? '' : name.slice(0, dot), last: dot < 0 ? name : name.slice(dot + 1) };
}

/** `a.b.*` makes `a.b.C` available (and `static a.B.*` the static `a.B.m`). */
function covers(existing: ImportShape, added: ImportShape): boolean {
  const have = split(existing.module);
  const want = split(added.module);
  return have.last === '*' && want.last !== '*' && have.isStatic === want.isStatic && have.owner === want.owner;
}

/** Two single-type imports of one simple name do not compile (JLS 7.5.1). */
function clashOf(existing: ImportShape, added: ImportShape): { message: string; hint: string } | undefined {
  const have = split(existing.module);
  const want = split(added.module);
  if (have.isStatic || want.isStatic || want.last === '*' || have.last !== want.last) return undefined;
  if (existing.module === added.module) return undefined;
  return {
    message: `'${want.last}' is already imported as ${existing.module}; Java cannot import ${added.module} beside it`,
    hint: `write ${added.module} in full where it is used, or remove the import of ${existing.module} first`,
  };
}

function nameOf(node: Node): string {
  const rest = flatten(node.text)
    .replace(/^import\s+/, '')
    .replace(/\s*;$/, '');
  return moduleOf(rest) ?? rest;
}

export const javaImports: ImportSpec = {
  nodeTypes: ['import_declaration'],
  parse,
  render,
  nameOf,
  example: 'import java.util.List;',
  asDeclaration,
  covers,
  clashOf,
  orderOf: (shape) => {
    const { isStatic } = split(shape.module);
    return {
      kind: isStatic ? 'static' : 'type',
      name: isStatic ? shape.module.slice('static '.length) : shape.module,
      rank: 0,
    };
  },
};
