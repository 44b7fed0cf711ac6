import type { Node } from 'web-tree-sitter';
import type { ElementNode } from '../../elements/element';
import {
  ancestors,
  isField,
  KEYWORD_SHAPE,
  nameParentOrShape,
  SKIP_SHAPE,
  useShape,
  type OpenFile,
  type ReferenceRules,
  type ReferenceTarget,
  type Site,
  type SiteShape,
  type TypeAt,
  type Verdict,
} from '../treeSitter/treeSitterReferences';
import { typesIn } from '../treeSitter/treeSitterHierarchy';
import { prefixOffsets } from '../treeSitter/treeSitterRename';

/**
 * C# uses, resolved through namespaces: a type is used in its own namespace (and the namespaces inside it), where a
 * file has `using` its namespace, and by its qualified name (its constructors' names are its uses too); elsewhere only the name ties them, since a file's other
 * `using`s may bring a type of that name (by name). A member is used bare and on `this` inside its type (a `partial`
 * type's other files included), as `Type.Member`, and as a property set in `new Type { Member = ... }`; on a derived
 * type and any other value only the name ties them (by name).
 */

export interface CSharpScope {
  /** `using A.B;` */
  readonly usings: readonly string[];
  /** `using static A.B.C;` */
  readonly staticUsings: readonly string[];
  /** The simple names of the types the file's types derive from. */
  readonly bases: ReadonlySet<string>;
  /** The file-scoped namespace (`namespace A.B;`), '' when there is none. */
  readonly fileNamespace: string;
  /** The names of the types the file declares, each with the namespace it is declared in. */
  readonly declared: ReadonlyMap<string, readonly string[]>;
}

const DECLARATION_PARENTS = new Set([
  'class_declaration',
  'struct_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'delegate_declaration',
  'method_declaration',
  'property_declaration',
  'event_declaration',
  'enum_member_declaration',
  'local_function_statement',
  'variable_declarator',
]);
const NAME_TYPES = new Set(['identifier']);
const BINDING_PARENTS = new Set([
  'parameter',
  'catch_declaration',
  'foreach_statement',
  'type_parameter',
  'declaration_expression',
  'implicit_parameter',
]);

function scopeOf(_file: string, root: Node): CSharpScope {
  const usings: string[] = [];
  const staticUsings: string[] = [];
  for (const directive of root.descendantsOfType('using_directive')) {
    if (directive === null || directive.childForFieldName('name') !== null) continue;
    const text = directive.text.replace(/\s+/g, ' ');
    const match = /using (static )?([\w.]+)\s*;/.exec(text.replace(/^global /, ''));
    if (match === null) continue;
    if (match[1] !== undefined) staticUsings.push(match[2] ?? '');
    else usings.push(match[2] ?? '');
  }
  const bases = new Set<string>();
  for (const list of root.descendantsOfType('base_list'))
    for (const type of list?.namedChildren ?? [])
      bases.add(
        type.text
          .replace(/<[\s\S]*>$/, '')
          .split('.')
          .at(-1) ?? '',
      );
  const fileScoped = root.namedChildren.find((c) => c.type === 'file_scoped_namespace_declaration');
  const fileNamespace = fileScoped === undefined ? '' : namespaceName(fileScoped);
  return { usings, staticUsings, bases, fileNamespace, declared: declaredTypes(root, fileNamespace) };
}

const TYPE_DECLARATIONS: ReadonlySet<string> = new Set([
  'class_declaration',
  'struct_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
]);

/**
 * The namespaces each type name of a file is declared in, in one walk that carries the namespace down (asking each
 * declaration for its ancestors costs the depth per step: minutes in a file of 1,500 nested classes). No recursion.
 */
function declaredTypes(root: Node, fileNamespace: string): Map<string, string[]> {
  const declared = new Map<string, string[]>();
  const stack: { node: Node; namespace: string }[] = [{ node: root, namespace: fileNamespace }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node } = item;
    let { namespace } = item;
    if (node.type === 'namespace_declaration') namespace = nestedNamespace(namespace, namespaceName(node));
    else if (TYPE_DECLARATIONS.has(node.type)) {
      const name = node.childForFieldName('name')?.text;
      if (name !== undefined) declared.set(name, [...(declared.get(name) ?? []), namespace]);
    }
    const children = node.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== undefined && child !== null) stack.push({ node: child, namespace });
    }
  }
  return declared;
}

/** A namespace declaration's name as qualified names write it (`A . B` reads `A.B`). */
function namespaceName(declaration: Node): string {
  return declaration.childForFieldName('name')?.text.replace(/\s+/g, '') ?? '';
}

/** The namespace `name` declared inside `outer`. */
function nestedNamespace(outer: string, name: string): string {
  return outer === '' ? name : `${outer}.${name}`;
}

/** The namespace a site sits in: its file's file-scoped namespace, then the namespace declarations around it. */
function namespaceAt(site: Site<CSharpScope>): string {
  const names = [...ancestors(site.node)].filter((a) => a.type === 'namespace_declaration').map(namespaceName);
  return names.reverse().reduce(nestedNamespace, site.scope.fileNamespace);
}

function shapeOf(node: Node): SiteShape | undefined {
  const parent = nameParentOrShape(node, NAME_TYPES, DECLARATION_PARENTS);
  if (parent === undefined || 'role' in parent) return parent;
  if (BINDING_PARENTS.has(parent.type) && (isField(node, 'name') || isField(node, 'left'))) return SKIP_SHAPE;
  for (const ancestor of ancestors(node)) {
    if (
      ancestor.type === 'using_directive' ||
      ancestor.type === 'file_scoped_namespace_declaration' ||
      (ancestor.type === 'namespace_declaration' && ancestor.childForFieldName('name')?.endIndex === node.endIndex)
    )
      return SKIP_SHAPE;
    if (ancestor.type === 'block' || ancestor.type === 'declaration_list') break;
  }
  if (parent.type === 'argument' && isField(node, 'name')) return KEYWORD_SHAPE;
  if (
    parent.type === 'assignment_expression' &&
    isField(node, 'left') &&
    parent.parent?.type === 'initializer_expression'
  )
    return { role: 'use', via: 'keyword', isCall: false, isWrite: true };
  let expression = node;
  let via: SiteShape['via'] = 'bare';
  let qualifier: string | undefined;
  if (parent.type === 'member_access_expression' && isField(node, 'name')) {
    expression = parent;
    qualifier = parent.childForFieldName('expression')?.text.replace(/\s+/g, '') ?? '';
    via = qualifier === 'this' || qualifier === 'base' ? 'self' : 'qualified';
  } else if (parent.type === 'qualified_name' && isField(node, 'name')) {
    expression = parent;
    qualifier = parent.childForFieldName('qualifier')?.text.replace(/\s+/g, '') ?? '';
    via = 'qualified';
  }
  const outer = expression.parent;
  const isCall =
    (outer?.type === 'invocation_expression' && isField(expression, 'function')) ||
    (outer?.type === 'object_creation_expression' && isField(expression, 'type'));
  const isWrite =
    (outer?.type === 'assignment_expression' && isField(expression, 'left')) ||
    outer?.type === 'postfix_unary_expression' ||
    outer?.type === 'prefix_unary_expression';
  return useShape(via, qualifier, isCall, isWrite);
}

function resolveType(target: ReferenceTarget, site: Site<CSharpScope>, targetNamespace: string): Verdict {
  const { shape, scope } = site;
  if (shape.via === 'qualified') {
    const qualifier = shape.qualifier ?? '';
    return qualifier === targetNamespace || qualifier === `global::${targetNamespace}` ? 'resolved' : 'byName';
  }
  if (site.file === target.file) return 'resolved';
  // A type of that name declared in the file itself, in another namespace (a partial type in the same one is this).
  const own = scope.declared.get(target.name);
  if (own !== undefined && !own.includes(targetNamespace)) return 'other';
  const namespace = namespaceAt(site);
  if (namespace === targetNamespace || namespace.startsWith(`${targetNamespace}.`)) return 'resolved';
  if (scope.usings.includes(targetNamespace)) return 'resolved';
  return 'byName';
}

/** Whether the site is inside a type named like the container, in the container's namespace (a partial type). */
function insideType(
  site: Site<CSharpScope>,
  target: ReferenceTarget,
  container: ElementNode,
  namespace: string,
): boolean {
  if (site.file === target.file) return site.holders.some((h) => h.path === container.path);
  return (
    site.holders.some((h) => h.name === container.name && h.kind === container.kind) && namespaceAt(site) === namespace
  );
}

/** The type of the `new T { ... }` whose initializer holds the node. */
function initializedType(node: Node): string | undefined {
  for (const ancestor of ancestors(node)) {
    if (ancestor.type === 'object_creation_expression')
      return ancestor
        .childForFieldName('type')
        ?.text.replace(/<[\s\S]*>$/, '')
        .split('.')
        .at(-1);
  }
  return undefined;
}

function resolveMember(
  target: ReferenceTarget,
  container: ElementNode,
  site: Site<CSharpScope>,
  namespace: string,
): Verdict {
  const { shape, scope } = site;
  const inside = insideType(site, target, container, namespace);
  // A call names a method (or a delegate-typed member); a method is rarely named without calling it (a method group).
  if (target.element.kind === 'property' && shape.isCall && site.node.parent?.type !== 'member_access_expression')
    return 'other';
  switch (shape.via) {
    case 'self':
      return inside && shape.qualifier === 'this' ? 'resolved' : 'byName';
    case 'bare': {
      if (inside) return 'resolved';
      const owner = `${namespace === '' ? '' : `${namespace}.`}${container.name}`;
      if (scope.staticUsings.includes(owner)) return 'resolved';
      return scope.bases.has(container.name) ? 'byName' : 'other';
    }
    case 'qualified': {
      const last = (shape.qualifier ?? '').split('.').at(-1) ?? '';
      return last === container.name ? 'resolved' : 'byName';
    }
    case 'keyword': {
      const type = initializedType(site.node);
      return type === container.name ? 'resolved' : 'byName';
    }
  }
}

/** The name node of a type as a base list writes it: `Base`, `A.B.Base`, `Base<T>`, `global::A.Base`. */
function typeNameOf(type: Node | null): Node | undefined {
  if (type === null) return undefined;
  if (type.type === 'identifier') return type;
  if (type.type === 'generic_name') return typeNameOf(type.namedChildren[0] ?? null);
  if (type.type === 'qualified_name' || type.type === 'alias_qualified_name')
    return typeNameOf(type.childForFieldName('name'));
  // A record's base with its arguments: `record B(int X) : A(X)`.
  if (type.type === 'primary_constructor_base_type') return typeNameOf(type.namedChildren[0] ?? null);
  return undefined;
}

/** The name nodes of the types a type declaration's base list names. */
function baseNamesOf(declaration: Node): Node[] {
  const list = declaration.namedChildren.find((child) => child?.type === 'base_list');
  return (list?.namedChildren ?? []).flatMap((type) => typeNameOf(type) ?? []);
}

/** The namespace a type of `parsed` is declared in: the file's file-scoped namespace, then its containers'. */
function namespaceOf(scope: CSharpScope, containers: readonly ElementNode[]): string {
  return containers
    .filter((c) => c.kind === 'namespace')
    .map((c) => c.name)
    .reduce(nestedNamespace, scope.fileNamespace);
}

/** Whether a type's declaration says `partial`. */
function isPartial(text: string, element: ElementNode): boolean {
  const header = text.slice(element.declarationRange.start, element.bodyRange?.start ?? element.declarationRange.end);
  return /\bpartial\b/.test(header);
}

/** The other parts of a partial type: a partial type of the same kind, name, outer types and namespace. */
function partsOf(type: TypeAt, open: OpenFile<CSharpScope>, files: readonly string[]): TypeAt[] {
  const declaring = open(type.file);
  if (declaring === undefined || !isPartial(declaring.text, type.element)) return [];
  const outer = (containers: readonly ElementNode[]): string =>
    containers
      .filter((c) => c.kind !== 'namespace')
      .map((c) => c.name)
      .join('.');
  const namespace = namespaceOf(declaring.scope, type.containers);
  const parts: TypeAt[] = [];
  for (const path of new Set([type.file, ...files])) {
    const parsed = open(path);
    if (parsed === undefined) continue;
    for (const { element, containers } of typesIn(parsed.outline)) {
      if (element === type.element || element.kind !== type.element.kind || element.name !== type.element.name)
        continue;
      if (!isPartial(parsed.text, element) || outer(containers) !== outer(type.containers)) continue;
      if (namespaceOf(parsed.scope, containers) === namespace) parts.push({ file: path, element, containers });
    }
  }
  return parts;
}

export const csharpReferenceRules: ReferenceRules<CSharpScope> = {
  baseNamesOf,
  overridable: new Set(['method', 'property']),
  overloads: true,
  bareMembers: true,
  partsOf,
  identifierOf: (element) =>
    /^@?[\p{L}_][\p{L}\p{N}_]*$/u.test(element.name) ? element.name.replace(/^@/, '') : undefined,
  shapeOf,
  scopeOf: (file, root) => scopeOf(file, root),
  importedNames(target, targetScope, _scope, root) {
    // `using static Ns.Type;` and `using Alias = Ns.Type;` name a type by its full name (the alias itself is not it).
    const full = [targetScope.fileNamespace, ...target.containers.map((c) => c.name), target.name]
      .filter((part) => part !== '')
      .join('.');
    return root.descendantsOfType('using_directive').flatMap((directive) => {
      if (directive === null) return [];
      const alias = directive.childForFieldName('name');
      const names = directive.descendantsOfType('identifier').filter((n) => n !== null && n.id !== alias?.id);
      return prefixOffsets(names as Node[], full);
    });
  },
  resolve(target, targetScope, site) {
    const container = target.containers.filter((c) => c.kind !== 'namespace').at(-1);
    const targetNamespace = [
      targetScope.fileNamespace,
      ...target.containers.filter((c) => c.kind === 'namespace').map((c) => c.name),
    ]
      .filter((part) => part !== '')
      .join('.');
    if (container === undefined) return resolveType(target, site, targetNamespace);
    return resolveMember(target, container, site, targetNamespace);
  },
};
