import type { Node } from 'web-tree-sitter';
import { JAVA_INFO } from '../languageCatalog';
import { C_LIKE_SYNTAX, type ContainerFlavor } from '../languageSupport';
import { scanCLike } from '../cLike/cLikeScan';
import {
  type Declaration,
  type ParentInfo,
  STAND_IN_NAME,
  type TreeSitterLanguageSpec,
} from '../treeSitter/languageSpec';
import { parseWithSpec } from '../treeSitter/treeSitterOutline';
import { javaImports } from './javaImports';
import { javaCompilerProblems } from './javaRules';

/**
 * Java: classes, interfaces, enums (their constants), records, annotation types, nested at any depth; methods
 * (overloads numbered in file order: `method[run]#2`), constructors (`constructor#2`), fields (`int a, b;` is one
 * element `property[a,b]`), static initializers, imports and the package declaration. Annotations are modifiers of
 * the declaration, so in its range; a Javadoc comment directly above joins it too.
 */

function nameOf(node: Node): string {
  return node.childForFieldName('name')?.text ?? '';
}

function declaratorNames(node: Node): string {
  return node
    .childrenForFieldName('declarator')
    .map((declarator) => declarator.childForFieldName('name')?.text ?? '')
    .join(',');
}

/** The 1-based position of a static initializer among its siblings of the same type: its name. */
function staticOrdinal(node: Node): string {
  let count = 1;
  for (let sibling = node.previousNamedSibling; sibling !== null; sibling = sibling.previousNamedSibling)
    if (sibling.type === node.type) count += 1;
  return String(count);
}

const TYPE_KINDS: Readonly<Record<string, 'class' | 'interface' | 'enum' | 'record'>> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  annotation_type_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'record',
};

function declarationOf(node: Node, parent: ParentInfo): Declaration | undefined {
  const typeKind = TYPE_KINDS[node.type];
  if (typeKind !== undefined) {
    const flavor: ContainerFlavor = typeKind === 'enum' ? 'enum' : typeKind === 'interface' ? 'interface' : 'class';
    return { kind: typeKind, name: nameOf(node), body: node.childForFieldName('body'), flavor };
  }
  if (parent.kind === undefined) {
    switch (node.type) {
      case 'package_declaration':
        return { kind: 'statement', name: 'package', body: null };
      case 'import_declaration':
        return { kind: 'import', name: javaImports.nameOf(node), body: null };
      default:
        return undefined;
    }
  }
  switch (node.type) {
    case 'method_declaration':
    case 'annotation_type_element_declaration':
      return { kind: 'method', name: nameOf(node), body: null };
    case 'constructor_declaration':
    case 'compact_constructor_declaration':
      return { kind: 'constructor', name: '', body: null };
    case 'field_declaration':
    case 'constant_declaration':
      return { kind: 'property', name: declaratorNames(node), body: null };
    case 'static_initializer':
      return { kind: 'static', name: staticOrdinal(node), body: null };
    case 'enum_constant':
      return { kind: 'member', name: nameOf(node), body: null };
    default:
      return undefined;
  }
}

/**
 * A member is parsed inside a stand-in class (interface, enum); top-level code as it is. An enum holds constants,
 * then after a `;` fields, constructors and methods: content that does not parse as constants is read as members.
 */
function wrapContent(content: string, flavor: ContainerFlavor): { text: string; prefixLines: number; indent: string } {
  if (flavor === 'enum') {
    const constants = `enum ${STAND_IN_NAME} {\n${content}\n}\n`;
    const tree = parseWithSpec(javaSpec, constants);
    const parses = !tree.rootNode.hasError;
    tree.delete();
    return { text: parses ? constants : `enum ${STAND_IN_NAME} {;\n${content}\n}\n`, prefixLines: 1, indent: '' };
  }
  const stand: Partial<Record<ContainerFlavor, string>> = {
    class: `class ${STAND_IN_NAME} {`,
    interface: `interface ${STAND_IN_NAME} {`,
  };
  const open = stand[flavor];
  if (open === undefined) return { text: content, prefixLines: 0, indent: '' };
  return { text: `${open}\n${content}\n}\n`, prefixLines: 1, indent: '' };
}

export const javaSpec: TreeSitterLanguageSpec = {
  info: JAVA_INFO,
  fenceTag: 'java',
  declarationOf,
  commentTypes: ['line_comment', 'block_comment'],
  syntax: C_LIKE_SYNTAX,
  scanCode: (text) => scanCLike(text, { tripleQuotes: true }),
  wrapContent,
  imports: javaImports,
  inlineTypes: ['enum_body_declarations'],
  headerTypes: ['package_declaration'],
  compilerProblems: (root, text) => javaCompilerProblems(root, text),
};
