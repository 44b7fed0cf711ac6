import type { Node } from 'web-tree-sitter';
import { flattenCLikeDeclaration as flatten, withDeclarationKeyword } from '../cLike/cLikeScan';
import type { ImportShape } from '../importModel';
import type { ImportSpec } from '../treeSitter/languageSpec';

/**
 * C#'s using directives as import shapes: one directive imports one namespace, type or alias, so a shape is a
 * module without bindings whose `module` is what follows `using`, whitespace collapsed: `System`,
 * `static System.Math`, `Env = System.Environment` (the alias is also its namespace name), with `global ` in front
 * for a global using. That is also the element's name (`import[static System.Math]`), so a REMOVE_IMPORT by path
 * and one by content find the same directive.
 */

const NAME = String.raw`@?[\p{L}_][\p{L}\p{N}_]*`;
const QUALIFIED = String.raw`(?:global::)?${NAME}(?:\s*(?:\.|::)\s*${NAME})*`;
const DIRECTIVE = new RegExp(
  String.raw`^(global\s+)?using\s+(?:(static)\s+(${QUALIFIED}(?:\s*<.*>)?)|(${NAME})\s*=\s*(\S.*)|(${QUALIFIED}))$`,
  'u',
);

interface Directive {
  readonly module: string;
  readonly alias: string | undefined;
}

function read(text: string): Directive | undefined {
  const match = /^(.*);$/.exec(flatten(text));
  const parts = match?.[1] === undefined ? null : DIRECTIVE.exec(match[1].trim());
  if (parts === null) return undefined;
  const global = parts[1] === undefined ? '' : 'global ';
  const [, , isStatic, staticName, alias, target, namespace] = parts;
  if (isStatic !== undefined && staticName !== undefined)
    return { module: `${global}static ${compact(staticName)}`, alias: undefined };
  if (alias !== undefined && target !== undefined) return { module: `${global}${alias} = ${target.trim()}`, alias };
  if (namespace !== undefined) return { module: `${global}${compact(namespace)}`, alias: undefined };
  return undefined;
}

/** A qualified name without the spaces around its dots. */
function compact(name: string): string {
  return name.replace(/\s*(\.|::)\s*/g, '$1').replace(/\s+/g, ' ');
}

function parse(text: string): readonly ImportShape[] | undefined {
  const directive = read(text);
  if (directive === undefined) return undefined;
  return [
    {
      module: directive.module,
      typeOnly: false,
      named: [],
      hasNamedList: false,
      ...(directive.alias === undefined ? {} : { namespaceName: directive.alias }),
    },
  ];
}

function render(shapes: readonly ImportShape[]): string {
  return shapes
    .map((shape) => {
      const global = shape.module.startsWith('global ');
      return `${global ? 'global ' : ''}using ${global ? shape.module.slice('global '.length) : shape.module};`;
    })
    .join('\n');
}

/**
 * An operation's content as directives: `using System;` as it is, and the shorter forms a model writes without the
 * keyword or the semicolon (`System.Text`, `static System.Math`, `Env = System.Environment`), one a line.
 */
function asDeclaration(content: string): string {
  // Only what reads as a directive's body gets the keyword.
  return withDeclarationKeyword(
    content,
    'using',
    (code) => /^(global\s+)?using\b/.test(code),
    (bare) => read(`using ${bare};`) !== undefined,
  );
}

function withoutGlobal(module: string): string {
  return module.startsWith('global ') ? module.slice('global '.length) : module;
}

/** A global using makes the same directive of this file redundant. */
function covers(existing: ImportShape, added: ImportShape): boolean {
  return existing.module === `global ${added.module}`;
}

/** Two aliases of one name do not compile (CS1537). */
function clashOf(existing: ImportShape, added: ImportShape): { message: string; hint: string } | undefined {
  const alias = added.namespaceName;
  if (alias === undefined || existing.namespaceName !== alias) return undefined;
  if (withoutGlobal(existing.module) === withoutGlobal(added.module)) return undefined;
  return {
    message: `the alias '${alias}' is already taken by using ${existing.module}`,
    hint: `choose another alias, or remove using ${existing.module} first`,
  };
}

/** Namespaces, static usings and aliases each sort among their own kind; System's namespaces first (Visual Studio's default). */
function orderOf(shape: ImportShape): { kind: string; name: string; rank: number } {
  const module = withoutGlobal(shape.module);
  const global = shape.module === module ? '' : 'global ';
  const kind = module.startsWith('static ') ? 'static' : shape.namespaceName !== undefined ? 'alias' : 'namespace';
  const name = kind === 'static' ? module.slice('static '.length) : module;
  const rank = /^System(\.|$)/.test(name) ? 0 : 1;
  return { kind: `${global}${kind}`, name, rank };
}

function nameOf(node: Node): string {
  return parse(node.text)?.[0]?.module ?? flatten(node.text).replace(/^(global\s+)?using\s+|\s*;$/g, '');
}

export const csharpImports: ImportSpec = {
  nodeTypes: ['using_directive'],
  parse,
  render,
  nameOf,
  example: 'using System.Text;',
  inNamespaces: true,
  asDeclaration,
  covers,
  clashOf,
  orderOf,
};
