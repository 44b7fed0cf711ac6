import type { Node } from 'web-tree-sitter';
import { RUST_INFO } from '../languageCatalog';
import { C_LIKE_SYNTAX, type ContainerFlavor } from '../languageSupport';
import { scanCLike } from '../cLike/cLikeScan';
import { rustImports } from './rustImports';
import type { Declaration, ParentInfo, TreeSitterLanguageSpec } from '../treeSitter/languageSpec';
import { rustCompilerProblems } from './rustRules';

/**
 * Rust: items (functions, structs and unions with their fields, enums with their variants, traits with their
 * functions, constants and types, `impl` blocks with theirs, modules, constants, statics, type aliases, `use`
 * declarations, `macro_rules!`, top-level macro calls). An impl block is named by what it implements, generics left
 * out: `impl[Point]`, `impl[Display for Point]`, so a method keeps its type: `impl[Point]/method[new]`. Outer
 * attributes (`#[derive(...)]`) and doc comments directly above an item are in its range.
 */

/** `Wrapper<T>` -> `Wrapper`, `&'a mut Foo` stays readable: generics dropped, whitespace collapsed. */
function typeName(node: Node | null): string {
  if (node === null) return '';
  return node.text
    .replace(/<[\s\S]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function nameOf(node: Node): string {
  return node.childForFieldName('name')?.text ?? '';
}

function implName(node: Node): string {
  const trait = node.childForFieldName('trait');
  const type = typeName(node.childForFieldName('type'));
  if (trait === null) return type;
  const negative = node.children.some((c) => c.type === '!') ? '!' : '';
  return `${negative}${typeName(trait)} for ${type}`;
}

/** Rust's keywords: a macro's leading `pub struct`, `static ref` are no name. */
const KEYWORDS: ReadonlySet<string> = new Set(
  'as async await box const crate dyn enum extern fn for impl in let mod move mut pub ref self static struct super trait type union unsafe use where'.split(
    ' ',
  ),
);

/**
 * A macro call is named by its macro and its first identifier argument, the way a test or an item it declares is
 * known (`rgtest!(r1098, |dir, cmd| {...})` is `rgtest! r1098`, `ast_struct! { pub struct ExprArray {...} }` is
 * `ast_struct! ExprArray`): leading doc comments, attributes, keywords, literals and separators are skipped
 * (`define_bool!(0, is_literal, ...)` is `define_bool! is_literal`); a bracketed group before any identifier, or an
 * identifier that is a macro call or a path (`foo!`, `foo::`), names nothing. Without such an argument the name is the macro alone
 * (`serde_if_integer128!`), and same-named calls carry ordinals.
 */
function macroName(node: Node): string {
  const macro = `${node.childForFieldName('macro')?.text ?? ''}!`;
  const tree = node.namedChildren.find((child) => child.type === 'token_tree');
  const tokens = tree?.children.slice(1) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined) break;
    // Comments, literals and separators before the name (`define_bool!(0, is_literal, set_literal)`).
    if (/comment$|literal$|^mutable_specifier$|^[,;]$/.test(token.type)) continue;
    // An attribute `#[...]` (or syn's `#full` marker after a name): skip the `#` and what it marks.
    if (token.type === '#') {
      i += tokens[i + 1]?.type === '!' ? 2 : 1;
      continue;
    }
    const word = token.text;
    if (!token.isNamed && KEYWORDS.has(word)) continue;
    if (token.type === 'identifier' && KEYWORDS.has(word)) continue;
    if (token.type !== 'identifier' && token.type !== 'primitive_type') break;
    const next = tokens[i + 1]?.type;
    if (next === '!' || next === '::' || next === '.') break;
    return `${macro} ${word}`;
  }
  return macro;
}

function memberOf(node: Node): Declaration | undefined {
  switch (node.type) {
    case 'function_item':
    case 'function_signature_item':
      return { kind: 'method', name: nameOf(node), body: null };
    case 'const_item':
    case 'static_item':
      return { kind: 'variable', name: nameOf(node), body: null };
    case 'associated_type':
    case 'type_item':
      return { kind: 'type', name: nameOf(node), body: null };
    case 'macro_invocation':
      return { kind: 'statement', name: macroName(node), body: null };
    default:
      return undefined;
  }
}

function itemOf(node: Node, parent: ParentInfo): Declaration | undefined {
  switch (node.type) {
    case 'use_declaration':
    case 'extern_crate_declaration':
      return { kind: 'import', name: rustImports.nameOf(node), body: null };
    case 'function_item':
    case 'function_signature_item':
      return { kind: 'function', name: nameOf(node), body: null };
    case 'struct_item':
    case 'union_item': {
      const body = node.childForFieldName('body');
      // A tuple struct's `( ... )` holds no addressable fields. Fields are comma-separated, like an object's.
      const fields = body?.type === 'field_declaration_list' ? body : null;
      return { kind: 'struct', name: nameOf(node), body: fields, flavor: 'object' };
    }
    case 'enum_item':
      return { kind: 'enum', name: nameOf(node), body: node.childForFieldName('body'), flavor: 'enum' };
    case 'trait_item':
      return { kind: 'trait', name: nameOf(node), body: node.childForFieldName('body'), flavor: 'interface' };
    case 'impl_item':
      return { kind: 'impl', name: implName(node), body: node.childForFieldName('body'), flavor: 'class' };
    case 'mod_item':
      return { kind: 'namespace', name: nameOf(node), body: node.childForFieldName('body'), flavor: 'namespace' };
    case 'const_item':
    case 'static_item':
      return { kind: 'variable', name: nameOf(node), body: null };
    case 'type_item':
      return { kind: 'type', name: nameOf(node), body: null };
    case 'macro_definition':
      return { kind: 'statement', name: `macro_rules! ${nameOf(node)}`, body: null };
    case 'macro_invocation':
      return { kind: 'statement', name: macroName(node), body: null };
    case 'expression_statement': {
      const inner = node.namedChildren[0];
      return inner?.type === 'macro_invocation' ? itemOf(inner, parent) : undefined;
    }
    case 'foreign_mod_item':
      return { kind: 'statement', name: 'extern', body: null };
    default:
      return undefined;
  }
}

function declarationOf(node: Node, parent: ParentInfo): Declaration | undefined {
  switch (parent.kind) {
    case undefined:
    case 'namespace':
      return itemOf(node, parent);
    case 'struct':
      return node.type === 'field_declaration' ? { kind: 'property', name: nameOf(node), body: null } : undefined;
    case 'enum':
      return node.type === 'enum_variant' ? { kind: 'member', name: nameOf(node), body: null } : undefined;
    case 'trait':
    case 'impl':
      return memberOf(node);
    default:
      return undefined;
  }
}

/** Content for a container is parsed inside a stand-in of it. */
function wrapContent(content: string, flavor: ContainerFlavor): { text: string; prefixLines: number; indent: string } {
  const stand: Partial<Record<ContainerFlavor, string>> = {
    class: 'impl _ {',
    object: 'struct _ {',
    interface: 'trait _ {',
    enum: 'enum _ {',
    namespace: 'mod _ {',
  };
  const open = stand[flavor];
  if (open === undefined) return { text: content, prefixLines: 0, indent: '' };
  return { text: `${open}\n${content}\n}\n`, prefixLines: 1, indent: '' };
}

export const rustSpec: TreeSitterLanguageSpec = {
  info: RUST_INFO,
  fenceTag: 'rust',
  declarationOf,
  commentTypes: ['line_comment', 'block_comment'],
  // `//!` and `/*! */` document the enclosing module (the file at the top), not the item below them.
  isFileComment: (node) => /^\/[/*]!/.test(node.text),
  headerTypes: ['inner_attribute_item'],
  leadingTypes: ['attribute_item'],
  // The `;` after a macro call among items (`define_bool!(0, a, b);` in an impl) is a node of its own: it belongs to
  // the call, so deleting the call takes it along (a lone `;` is no item).
  trails: (node, next) =>
    node.type === 'macro_invocation' &&
    next.type === 'empty_statement' &&
    next.startPosition.row === node.endPosition.row,
  compilerProblems: (root, text) => rustCompilerProblems(root, text),
  // rustc ends a line at LF only: a lone CR is whitespace, so a file of them is read as it is (one line, where
  // members are inserted inline). A trait's items end with their `;` or `}`: a `;` more is "non-item in item list".
  syntax: { ...C_LIKE_SYNTAX, loneCrIsWhitespace: true, membersEndThemselves: true },
  scanCode: (text) => scanCLike(text, { rustStrings: true }),
  wrapContent,
  imports: rustImports,
};
