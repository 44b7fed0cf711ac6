import type { Node } from 'web-tree-sitter';
import { GO_INFO } from '../languageCatalog';
import { C_LIKE_SYNTAX, type ContainerFlavor } from '../languageSupport';
import { scanCLike } from '../cLike/cLikeScan';
import { goImports } from './goImports';
import type { Declaration, ParentInfo, TreeSitterLanguageSpec } from '../treeSitter/languageSpec';
import { goCompilerProblems } from './goRules';

/**
 * Go: functions, methods named with their receiver as Go itself writes them (`method[(*Server).Start]`,
 * `method[Server.Name]`), struct types with their fields, interfaces with their methods, other types, `const` and
 * `var` declarations (a parenthesised group is one element named by all its names), import declarations and the
 * package clause. Methods stay at the top level, where Go declares them, so ranges never overlap.
 */

/** `*T[K]` -> `(*T)`, `T[K]` -> `T`: the receiver as the method's qualifier. */
function receiverQualifier(node: Node): string | undefined {
  const parameter = node.childForFieldName('receiver')?.namedChildren.find((c) => c.type === 'parameter_declaration');
  const type = parameter?.childForFieldName('type');
  if (type === null || type === undefined) return undefined;
  const pointer = type.type === 'pointer_type';
  const base = type.text
    .replace(/^\*\s*/, '')
    .replace(/\[[\s\S]*\]$/, '')
    .replace(/\s+/g, '');
  return pointer ? `(*${base})` : base;
}

function specNames(node: Node, specType: string): string {
  return node.namedChildren
    .filter((c) => c.type === specType)
    .flatMap((spec) => spec.childrenForFieldName('name').map((name) => name.text))
    .join(',');
}

function typeDeclaration(node: Node): Declaration | undefined {
  const specs = node.namedChildren.filter((c) => c.type === 'type_spec' || c.type === 'type_alias');
  const [spec] = specs;
  if (spec === undefined) return undefined;
  if (specs.length > 1) {
    return { kind: 'type', name: specs.map((s) => s.childForFieldName('name')?.text ?? '').join(','), body: null };
  }
  const name = spec.childForFieldName('name')?.text ?? '';
  const type = spec.childForFieldName('type');
  if (spec.type === 'type_spec' && type?.type === 'struct_type') {
    const fields = type.namedChildren.find((c) => c.type === 'field_declaration_list') ?? null;
    return { kind: 'struct', name, body: fields, flavor: 'class' };
  }
  if (spec.type === 'type_spec' && type?.type === 'interface_type')
    return { kind: 'interface', name, body: type, flavor: 'interface' };
  return { kind: 'type', name, body: null };
}

function declarationOf(node: Node, parent: ParentInfo): Declaration | undefined {
  if (parent.kind === 'struct') {
    if (node.type !== 'field_declaration') return undefined;
    const names = node.childrenForFieldName('name').map((n) => n.text);
    // An embedded field is named by its type: `sync.Mutex`, `*Base` -> `Base`.
    const name =
      names.length > 0 ? names.join(',') : (node.childForFieldName('type')?.text ?? node.text).replace(/^\*/, '');
    return { kind: 'property', name, body: null };
  }
  if (parent.kind === 'interface') {
    if (node.type === 'method_elem' || node.type === 'method_spec')
      return { kind: 'method', name: node.childForFieldName('name')?.text ?? '', body: null };
    if (node.type === 'type_elem' || node.type === 'constraint_elem')
      return { kind: 'type', name: node.text.replace(/\s+/g, ' '), body: null };
    return undefined;
  }
  if (parent.kind !== undefined) return undefined;
  switch (node.type) {
    case 'package_clause':
      return { kind: 'statement', name: 'package', body: null };
    case 'import_declaration':
      return { kind: 'import', name: goImports.nameOf(node), body: null };
    case 'function_declaration':
      return { kind: 'function', name: node.childForFieldName('name')?.text ?? '', body: null };
    case 'method_declaration': {
      const name = node.childForFieldName('name')?.text ?? '';
      const qualifier = receiverQualifier(node);
      return { kind: 'method', name: qualifier === undefined ? name : `${qualifier}.${name}`, body: null };
    }
    case 'type_declaration':
      return typeDeclaration(node);
    case 'const_declaration':
      return { kind: 'variable', name: specNames(node, 'const_spec'), body: null };
    case 'var_declaration':
      return { kind: 'variable', name: specNames(node, 'var_spec'), body: null };
    default:
      return { kind: 'statement', name: node.type.replace(/_(statement|declaration)$/, ''), body: null };
  }
}

/** Members of a struct or an interface are parsed inside a stand-in of one; top-level code as it is. */
function wrapContent(content: string, flavor: ContainerFlavor): { text: string; prefixLines: number; indent: string } {
  if (flavor === 'class') return { text: `type _ struct {\n${content}\n}\n`, prefixLines: 1, indent: '' };
  if (flavor === 'interface') return { text: `type _ interface {\n${content}\n}\n`, prefixLines: 1, indent: '' };
  return { text: content, prefixLines: 0, indent: '' };
}

export const goSpec: TreeSitterLanguageSpec = {
  info: GO_INFO,
  fenceTag: 'go',
  declarationOf,
  commentTypes: ['comment'],
  headerTypes: ['package_clause'],
  compilerProblems: (root, text) => goCompilerProblems(root, text),
  // The Go compiler ends a line at LF only: a lone CR is whitespace, so a file of them is read as it is.
  syntax: {
    ...C_LIKE_SYNTAX,
    loneCrIsWhitespace: true,
    fileClause: { kind: 'statement', name: 'package', message: "expected 'package', found" },
  },
  scanCode: (text) => scanCLike(text, { backtickStrings: true }),
  wrapContent,
  imports: goImports,
};
