import type { Node } from 'web-tree-sitter';
import { CSHARP_INFO } from '../languageCatalog';
import { C_LIKE_SYNTAX, type ContainerFlavor } from '../languageSupport';
import { scanCLike } from '../cLike/cLikeScan';
import {
  type Declaration,
  type ParentInfo,
  STAND_IN_NAME,
  type TreeSitterLanguageSpec,
} from '../treeSitter/languageSpec';
import { csharpImports } from './csharpImports';
import { csharpCompilerProblems } from './csharpRules';

/**
 * C#: namespaces (block and file-scoped), classes, structs, interfaces, records, enums (their members), nested at
 * any depth; methods (overloads numbered: `method[Run]#2`), constructors, a finalizer (`method[~A]`), operators
 * (`method[operator +]`), properties, indexers (`index[this]`), events, fields (`int a, b;` is `property[a,b]`),
 * delegates, `using` directives and top-level statements. Attributes are part of the declaration node in this
 * grammar, so `[Serializable]` above a class is in its range, with the `///` comments directly above.
 */

function nameOf(node: Node): string {
  return node.childForFieldName('name')?.text ?? '';
}

function variableNames(node: Node): string {
  return node
    .descendantsOfType('variable_declarator')
    .map((declarator) => declarator.childForFieldName('name')?.text ?? declarator.namedChildren[0]?.text ?? '')
    .join(',');
}

const TYPE_KINDS: Readonly<Record<string, 'class' | 'struct' | 'interface' | 'enum' | 'record'>> = {
  class_declaration: 'class',
  struct_declaration: 'struct',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'record',
  record_struct_declaration: 'record',
};

function memberOf(node: Node): Declaration | undefined {
  switch (node.type) {
    case 'method_declaration':
      return { kind: 'method', name: nameOf(node), body: null };
    case 'constructor_declaration':
      return { kind: 'constructor', name: '', body: null };
    case 'destructor_declaration':
      return { kind: 'method', name: `~${nameOf(node)}`, body: null };
    case 'operator_declaration': {
      const operator = node.childForFieldName('operator')?.text ?? '';
      return { kind: 'method', name: `operator ${operator}`, body: null };
    }
    case 'conversion_operator_declaration': {
      const direction = node.children.find((c) => c.type === 'implicit' || c.type === 'explicit')?.type ?? '';
      const type = node.childForFieldName('type')?.text.replace(/\s+/g, '') ?? '';
      return { kind: 'method', name: `${direction} operator ${type}`.trim(), body: null };
    }
    case 'property_declaration':
    case 'event_declaration':
      return { kind: 'property', name: nameOf(node), body: null };
    case 'indexer_declaration':
      return { kind: 'index', name: 'this', body: null };
    case 'field_declaration':
    case 'event_field_declaration':
      return { kind: 'property', name: variableNames(node), body: null };
    case 'delegate_declaration':
      return { kind: 'type', name: nameOf(node), body: null };
    case 'enum_member_declaration':
      return { kind: 'member', name: nameOf(node), body: null };
    default:
      return undefined;
  }
}

function declarationOf(node: Node, parent: ParentInfo): Declaration | undefined {
  const typeKind = TYPE_KINDS[node.type];
  if (typeKind !== undefined) {
    const flavor: ContainerFlavor = typeKind === 'enum' ? 'enum' : typeKind === 'interface' ? 'interface' : 'class';
    return { kind: typeKind, name: nameOf(node), body: node.childForFieldName('body'), flavor };
  }
  switch (node.type) {
    case 'namespace_declaration':
      return { kind: 'namespace', name: nameOf(node), body: node.childForFieldName('body'), flavor: 'namespace' };
    case 'file_scoped_namespace_declaration':
      // Its members follow it at the top level of the file: the namespace is the one line that names it.
      return { kind: 'namespace', name: nameOf(node), body: null };
    case 'using_directive':
      return { kind: 'import', name: csharpImports.nameOf(node), body: null };
    case 'delegate_declaration':
      return { kind: 'type', name: nameOf(node), body: null };
    case 'global_statement':
      return parent.kind === undefined
        ? { kind: 'statement', name: node.namedChildren[0]?.type.replace(/_statement$/, '') ?? 'statement', body: null }
        : undefined;
    case 'extern_alias_directive':
      return { kind: 'import', name: `extern alias ${node.namedChildren[0]?.text ?? ''}`, body: null };
    default:
      return parent.kind === undefined || parent.kind === 'namespace' ? undefined : memberOf(node);
  }
}

/** A member is parsed inside a stand-in type (interface, enum, namespace); top-level code as it is. */
function wrapContent(content: string, flavor: ContainerFlavor): { text: string; prefixLines: number; indent: string } {
  const stand: Partial<Record<ContainerFlavor, string>> = {
    class: `class ${STAND_IN_NAME} {`,
    interface: `interface ${STAND_IN_NAME} {`,
    enum: `enum ${STAND_IN_NAME} {`,
    namespace: `namespace ${STAND_IN_NAME} {`,
  };
  const open = stand[flavor];
  if (open === undefined) return { text: content, prefixLines: 0, indent: '' };
  return { text: `${open}\n${content}\n}\n`, prefixLines: 1, indent: '' };
}

export const csharpSpec: TreeSitterLanguageSpec = {
  info: CSHARP_INFO,
  fenceTag: 'csharp',
  declarationOf,
  commentTypes: ['comment'],
  compilerProblems: (root) => csharpCompilerProblems(root),
  syntax: C_LIKE_SYNTAX,
  scanCode: (text) => scanCLike(text, { verbatimStrings: true, tripleQuotes: true }),
  wrapContent,
  imports: csharpImports,
};
