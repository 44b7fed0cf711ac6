import type { Node } from 'web-tree-sitter';
import type { ElementNode } from '../../elements/element';
import {
  ancestors,
  DECLARATION_SHAPE,
  isField,
  nameParentOrShape,
  SKIP_SHAPE,
  useShape,
  type ReferenceRules,
  type ReferenceTarget,
  type Site,
  type SiteShape,
  type Verdict,
} from '../treeSitter/treeSitterReferences';
import { prefixOffsets } from '../treeSitter/treeSitterRename';

/**
 * Java uses, resolved through packages and imports: a top-level type is used in its own package, where a file
 * imports it (`import a.b.User;`, `import a.b.*;`) and by its qualified name (its constructors' names are its uses:
 * a rename changes them too); a file that imports another type of that name means that one. A member is used bare and on `this` inside its class, as `User.member`, and through a static
 * import; in a class that extends it, and on any other value, only the name ties them (by name).
 */

export interface JavaScope {
  readonly packageName: string;
  /** `import a.b.C;`: C -> a.b.C. */
  readonly imports: ReadonlyMap<string, string>;
  /** `import a.b.*;`: a.b. */
  readonly wildcards: readonly string[];
  /** `import static a.b.C.m;`: m -> a.b.C; `import static a.b.C.*;` under '*'. */
  readonly staticImports: ReadonlyMap<string, readonly string[]>;
  /** The simple names of the types the file's classes extend or implement. */
  readonly supertypes: ReadonlySet<string>;
  /** The names of the types the file declares. */
  readonly declared: ReadonlySet<string>;
}

const DECLARATION_PARENTS = new Set([
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'annotation_type_declaration',
  'method_declaration',
  'enum_constant',
  'annotation_type_element_declaration',
]);
const BINDING_PARENTS = new Set([
  'formal_parameter',
  'spread_parameter',
  'catch_formal_parameter',
  'inferred_parameters',
  'lambda_expression',
  'resource',
  'enhanced_for_statement',
  'type_parameter',
  'record_pattern_component',
]);
const NAME_TYPES = new Set(['identifier', 'type_identifier']);

function scopeOf(_file: string, root: Node): JavaScope {
  let packageName = '';
  const imports = new Map<string, string>();
  const wildcards: string[] = [];
  const staticImports = new Map<string, string[]>();
  for (const node of root.namedChildren) {
    if (node.type === 'package_declaration') packageName = node.namedChildren[0]?.text.replace(/\s+/g, '') ?? '';
    if (node.type !== 'import_declaration') continue;
    const text = node.text.replace(/\s+/g, ' ');
    const match = /^import (static )?([\w.$]+?)(\.\*)? ?;/.exec(text);
    if (match === null) continue;
    const [, isStatic, path = '', star] = match;
    const simple = path.split('.').at(-1) ?? '';
    if (isStatic !== undefined) {
      const owner = star === undefined ? path.split('.').slice(0, -1).join('.') : path;
      const key = star === undefined ? simple : '*';
      staticImports.set(key, [...(staticImports.get(key) ?? []), owner]);
    } else if (star !== undefined) wildcards.push(path);
    else imports.set(simple, path);
  }
  const supertypes = new Set<string>();
  for (const clause of [...root.descendantsOfType('superclass'), ...root.descendantsOfType('super_interfaces')]) {
    for (const type of clause?.descendantsOfType('type_identifier') ?? []) if (type !== null) supertypes.add(type.text);
  }
  const declared = new Set<string>();
  for (const type of ['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration'])
    for (const node of root.descendantsOfType(type)) {
      const name = node?.childForFieldName('name')?.text;
      if (name !== undefined) declared.add(name);
    }
  return { packageName, imports, wildcards, staticImports, supertypes, declared };
}

function shapeOf(node: Node): SiteShape | undefined {
  const parent = nameParentOrShape(node, NAME_TYPES, DECLARATION_PARENTS);
  if (parent === undefined || 'role' in parent) return parent;
  if (parent.type === 'variable_declarator' && isField(node, 'name')) return DECLARATION_SHAPE;
  if (BINDING_PARENTS.has(parent.type) && !isField(node, 'type')) return SKIP_SHAPE;
  for (const ancestor of ancestors(node)) {
    if (ancestor.type === 'import_declaration' || ancestor.type === 'package_declaration') return SKIP_SHAPE;
    if (ancestor.type === 'class_body' || ancestor.type === 'program' || ancestor.type === 'block') break;
  }
  if (parent.type === 'labeled_statement' || parent.type === 'break_statement' || parent.type === 'continue_statement')
    return SKIP_SHAPE;
  let expression = node;
  let via: SiteShape['via'] = 'bare';
  let qualifier: string | undefined;
  let isCall = false;
  const qualifierOf = (field: string): void => {
    const object = parent.childForFieldName(field);
    if (object === null) return;
    qualifier = object.text.replace(/\s+/g, '');
    via = qualifier === 'this' || qualifier === 'super' ? 'self' : 'qualified';
  };
  if (parent.type === 'method_invocation' && isField(node, 'name')) {
    isCall = true;
    qualifierOf('object');
  } else if (parent.type === 'field_access' && isField(node, 'field')) {
    expression = parent;
    qualifierOf('object');
  } else if (
    (parent.type === 'scoped_identifier' || parent.type === 'scoped_type_identifier') &&
    node.nextSibling === null
  ) {
    expression = parent;
    qualifier = parent.namedChildren[0]?.text.replace(/\s+/g, '') ?? '';
    via = 'qualified';
  } else if (parent.type === 'method_reference' && node.previousSibling?.type === '::') {
    qualifier = parent.namedChildren[0]?.text.replace(/\s+/g, '') ?? '';
    via = 'qualified';
  } else if (parent.type === 'object_creation_expression' && isField(node, 'type')) {
    isCall = true;
  }
  const isWrite =
    (expression.parent?.type === 'assignment_expression' && isField(expression, 'left')) ||
    expression.parent?.type === 'update_expression';
  return useShape(via, qualifier, isCall, isWrite);
}

function isTypeName(name: string): boolean {
  return /^[A-Z]/.test(name) && !/^[A-Z0-9_]+$/.test(name);
}

function resolveType(target: ReferenceTarget, targetScope: JavaScope, site: Site<JavaScope>): Verdict {
  const { shape, scope } = site;
  const full = targetScope.packageName === '' ? target.name : `${targetScope.packageName}.${target.name}`;
  if (shape.via === 'qualified') {
    const qualifier = shape.qualifier ?? '';
    if (qualifier === targetScope.packageName) return 'resolved';
    // `Outer.Name` is a nested type of another class; a value's field of that name is no type.
    return 'other';
  }
  if (site.file === target.file) return 'resolved';
  if (scope.declared.has(target.name)) return 'other';
  const imported = scope.imports.get(target.name);
  if (imported !== undefined) return imported === full ? 'resolved' : 'other';
  if (scope.packageName === targetScope.packageName) return 'resolved';
  if (scope.wildcards.includes(targetScope.packageName)) return 'resolved';
  return scope.wildcards.length > 0 ? 'byName' : 'other';
}

function resolveMember(target: ReferenceTarget, container: ElementNode, site: Site<JavaScope>): Verdict {
  const { shape, scope } = site;
  const insideContainer = site.file === target.file && site.holders.some((h) => h.path === container.path);
  const subclass = scope.supertypes.has(container.name);
  // Methods and fields live apart in Java: a call names a method, anything else a field (or a method reference).
  const isMethod = target.element.kind === 'method';
  const reference = site.node.parent?.type === 'method_reference';
  if (target.element.kind !== 'class' && target.element.kind !== 'interface' && target.element.kind !== 'enum') {
    if (isMethod && !shape.isCall && !reference) return 'other';
    if (!isMethod && shape.isCall) return 'other';
  }
  switch (shape.via) {
    case 'self':
      return insideContainer && shape.qualifier === 'this' ? 'resolved' : 'byName';
    case 'bare': {
      if (insideContainer) return 'resolved';
      const imported = scope.imports.get(target.name);
      if (imported !== undefined) return imported.endsWith(`.${container.name}.${target.name}`) ? 'resolved' : 'other';
      const owners = [...(scope.staticImports.get(target.name) ?? []), ...(scope.staticImports.get('*') ?? [])];
      if (owners.some((owner) => owner === container.name || owner.endsWith(`.${container.name}`))) return 'resolved';
      // A bare `Name` in an enum's `switch` case, or an inherited member.
      return subclass || site.file === target.file ? 'byName' : 'other';
    }
    case 'qualified': {
      const qualifier = shape.qualifier ?? '';
      const last = qualifier.split('.').at(-1) ?? '';
      if (last === container.name) return 'resolved';
      if (isTypeName(last) && !subclass && !scope.supertypes.has(last)) return 'other';
      return 'byName';
    }
    case 'keyword':
      return 'byName';
  }
}

const TYPE_KINDS: ReadonlySet<string> = new Set(['class', 'interface', 'enum', 'record']);

/** The name node of a type as a base list writes it: `Base`, `a.b.Base`, `Base<T>`. */
function typeNameOf(type: Node | null): Node | undefined {
  if (type === null) return undefined;
  if (type.type === 'type_identifier') return type;
  if (type.type === 'generic_type') return typeNameOf(type.namedChildren[0] ?? null);
  if (type.type === 'scoped_type_identifier') return typeNameOf(type.namedChildren.at(-1) ?? null);
  return undefined;
}

/** The name nodes of the types a type declaration extends or implements. */
function baseNamesOf(declaration: Node): Node[] {
  const names: Node[] = [];
  for (const clause of declaration.namedChildren) {
    if (clause === null) continue;
    if (clause.type === 'superclass') names.push(...clause.namedChildren.flatMap((t) => typeNameOf(t) ?? []));
    if (clause.type === 'super_interfaces' || clause.type === 'extends_interfaces')
      for (const list of clause.namedChildren)
        names.push(...(list?.namedChildren ?? []).flatMap((t) => typeNameOf(t) ?? []));
  }
  return names;
}

export const javaReferenceRules: ReferenceRules<JavaScope> = {
  baseNamesOf,
  overridable: new Set(['method']),
  overloads: true,
  bareMembers: true,
  identifierOf: (element) => (/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(element.name) ? element.name : undefined),
  shapeOf,
  scopeOf: (file, root) => scopeOf(file, root),
  importedNames(target, targetScope, _scope, root) {
    const full = [targetScope.packageName, ...target.containers.map((c) => c.name), target.name]
      .filter((part) => part !== '')
      .join('.');
    return root.namedChildren
      .filter((node) => node.type === 'import_declaration')
      .flatMap((node) =>
        prefixOffsets(
          node.descendantsOfType('identifier').filter((n) => n !== null),
          full,
        ),
      );
  },
  renameProblem(target) {
    const base = target.file.slice(target.file.lastIndexOf('/') + 1).replace(/\.java$/, '');
    const isPublicType =
      target.containers.length === 0 &&
      TYPE_KINDS.has(target.element.kind) &&
      /\bpublic\b/.test(target.element.signature);
    return isPublicType && base === target.name
      ? `Java wants the public type ${target.name} in a file named ${target.name}.java, and a rename moves no file; rename the file with the type by hand (CREATE_FILE and a delete), or keep the name`
      : undefined;
  },
  resolve(target, targetScope, site) {
    const container = target.containers.at(-1);
    if (container === undefined) return resolveType(target, targetScope, site);
    return resolveMember(target, container, site);
  },
};
