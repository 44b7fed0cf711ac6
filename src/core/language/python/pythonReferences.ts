import type { Node } from 'web-tree-sitter';
import type { ElementNode } from '../../elements/element';
import {
  ancestors,
  isField,
  KEYWORD_SHAPE,
  nameParentOrShape,
  SKIP_SHAPE,
  useShape,
  type ReferenceRules,
  type ReferenceTarget,
  type RulesWorkspace,
  type Site,
  type SiteShape,
  type Verdict,
} from '../treeSitter/treeSitterReferences';

/**
 * Python uses, resolved through imports: a module-level function, class or variable is used where its own module
 * names it, where a module imports it (`from pkg.m import f`, `from .m import f as g`, `from pkg import f` through the
 * package's `__init__.py`, `from m import *`) and as an attribute of its module (`import pkg.m as m; m.f()`); a name
 * bound to something else (imported from another module, defined again) is another thing. A method or attribute is
 * used on `self`/`cls` inside its class and on its class (`User.create`); on any other value only the name ties them:
 * those uses are "by name".
 */

interface FromImport {
  /** The module, absolute and dotted (relative imports resolved against the importing file). */
  readonly module: string;
  /** The name imported from it. */
  readonly name: string;
}

export interface PythonScope {
  /** The file's module, dotted from the workspace root (`src.pkg.m`; a package's `__init__.py` is the package). */
  readonly module: string;
  readonly isPackage: boolean;
  /** `from M import a as b`: b -> (M, a). */
  readonly fromImports: ReadonlyMap<string, FromImport>;
  /** `import a.b as x`: x -> a.b; `import a.b`: a -> a. */
  readonly moduleAliases: ReadonlyMap<string, string>;
  /** `from M import *`. */
  readonly starModules: readonly string[];
  /** Names the module itself defines at its top level. */
  readonly topLevelNames: ReadonlySet<string>;
}

const DEFINITIONS = new Set(['function_definition', 'class_definition']);
const NAME_TYPES = new Set(['identifier']);
const PARAMETER_PARENTS = new Set([
  'parameters',
  'lambda_parameters',
  'list_splat_pattern',
  'dictionary_splat_pattern',
  'typed_parameter',
]);
const IMPORTS = new Set(['import_statement', 'import_from_statement', 'future_import_statement']);
const ASSIGNMENTS = new Set(['assignment', 'augmented_assignment', 'for_statement', 'for_in_clause']);
const PATTERNS = new Set(['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list']);

function moduleOfPath(file: string): { module: string; isPackage: boolean } {
  const withoutExtension = file.replace(/\.pyi?$/, '');
  const isPackage = /(^|\/)__init__$/.test(withoutExtension);
  const path = isPackage ? withoutExtension.replace(/\/?__init__$/, '') : withoutExtension;
  return { module: path.split('/').join('.'), isPackage };
}

/** Whether `spec` (as an import writes it) names `module` (dotted from the workspace root). */
function names(spec: string, module: string): boolean {
  return spec !== '' && (spec === module || module.endsWith(`.${spec}`));
}

function resolveRelative(spec: string, scope: { module: string; isPackage: boolean }): string {
  const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
  if (dots === 0) return spec;
  const parts = scope.module === '' ? [] : scope.module.split('.');
  // The importing module's package: itself for a package's __init__, else its parent; each further dot goes up.
  const base = parts.slice(0, Math.max(0, parts.length - (scope.isPackage ? 0 : 1) - (dots - 1)));
  const rest = spec.slice(dots);
  return [...base, ...(rest === '' ? [] : [rest])].join('.');
}

function scopeOf(file: string, root: Node): PythonScope {
  const own = moduleOfPath(file);
  const fromImports = new Map<string, FromImport>();
  const moduleAliases = new Map<string, string>();
  const starModules: string[] = [];
  const topLevelNames = new Set<string>();
  const visit = (node: Node): void => {
    if (node.type === 'import_from_statement') {
      const moduleNode = node.childForFieldName('module_name');
      const module = resolveRelative(moduleNode?.text.replace(/\s+/g, '') ?? '', own);
      if (node.namedChildren.some((c) => c.type === 'wildcard_import')) starModules.push(module);
      for (const imported of node.childrenForFieldName('name')) {
        if (imported.type === 'aliased_import') {
          const name = imported.childForFieldName('name')?.text ?? '';
          const alias = imported.childForFieldName('alias')?.text ?? name;
          fromImports.set(alias, { module, name });
        } else fromImports.set(imported.text, { module, name: imported.text });
      }
      return;
    }
    if (node.type === 'import_statement') {
      for (const imported of node.childrenForFieldName('name')) {
        if (imported.type === 'aliased_import') {
          const name = imported.childForFieldName('name')?.text ?? '';
          moduleAliases.set(imported.childForFieldName('alias')?.text ?? name, name);
        } else {
          const first = imported.text.split('.')[0] ?? '';
          moduleAliases.set(first, first);
        }
      }
      return;
    }
    for (const child of node.namedChildren) visit(child);
  };
  visit(root);
  for (const statement of root.namedChildren) {
    const definition =
      statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
    if (definition !== null && DEFINITIONS.has(definition.type)) {
      topLevelNames.add(definition.childForFieldName('name')?.text ?? '');
    } else if (statement.type === 'expression_statement') {
      const assignment = statement.namedChildren[0];
      const left = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : null;
      if (left?.type === 'identifier') topLevelNames.add(left.text);
    }
  }
  return { ...own, fromImports, moduleAliases, starModules, topLevelNames };
}

function shapeOf(node: Node): SiteShape | undefined {
  const parent = nameParentOrShape(node, NAME_TYPES, DEFINITIONS);
  if (parent === undefined || 'role' in parent) return parent;
  for (const ancestor of ancestors(node)) {
    if (IMPORTS.has(ancestor.type)) return SKIP_SHAPE;
    if (ancestor.type === 'block' || ancestor.type === 'module') break;
  }
  if (PARAMETER_PARENTS.has(parent.type) && !isField(node, 'type')) return SKIP_SHAPE;
  if ((parent.type === 'default_parameter' || parent.type === 'typed_default_parameter') && isField(node, 'name'))
    return SKIP_SHAPE;
  if (parent.type === 'global_statement' || parent.type === 'nonlocal_statement') return SKIP_SHAPE;
  if (parent.type === 'keyword_argument' && isField(node, 'name')) return KEYWORD_SHAPE;
  let expression = node;
  let via: SiteShape['via'] = 'bare';
  let qualifier: string | undefined;
  if (parent.type === 'attribute' && isField(node, 'attribute')) {
    expression = parent;
    const object = parent.childForFieldName('object');
    qualifier = object?.text.replace(/\s+/g, '') ?? '';
    via = qualifier === 'self' || qualifier === 'cls' ? 'self' : 'qualified';
  }
  const outer = expression.parent;
  const isCall = outer?.type === 'call' && isField(expression, 'function');
  let written: Node = expression;
  while (written.parent !== null && PATTERNS.has(written.parent.type)) written = written.parent;
  const isWrite = written.parent !== null && ASSIGNMENTS.has(written.parent.type) && isField(written, 'left');
  return useShape(via, qualifier, isCall, isWrite);
}

/** The package folders above a module, as dotted names with their `__init__.py` path. */
function packagesAbove(file: string): Array<{ dotted: string; init: string }> {
  const segments = file.split('/').slice(0, -1);
  const found: Array<{ dotted: string; init: string }> = [];
  for (let length = segments.length; length > 0; length--) {
    const folder = segments.slice(0, length);
    found.push({ dotted: folder.join('.'), init: `${folder.join('/')}/__init__.py` });
  }
  return found;
}

/** `from pkg import f` where pkg's `__init__.py` imports f from the target's module. */
function reExported(target: ReferenceTarget, module: string, workspace: RulesWorkspace): Verdict | undefined {
  for (const { dotted, init } of packagesAbove(target.file)) {
    if (!names(module, dotted)) continue;
    const text = workspace.readFile(init);
    if (text === undefined) return 'byName';
    const word = new RegExp(`\\bimport\\b[^\\n]*\\b${target.name}\\b|^\\s*${target.name}\\s*[,)]`, 'm');
    return word.test(text) ? 'resolved' : 'byName';
  }
  return undefined;
}

function resolveTopLevel(
  target: ReferenceTarget,
  targetScope: PythonScope,
  site: Site<PythonScope>,
  workspace: RulesWorkspace,
): Verdict {
  const { shape, scope } = site;
  const own = (spec: string): boolean => names(spec, targetScope.module);
  if (shape.via === 'bare') {
    if (site.file === target.file) return 'resolved';
    const imported = scope.fromImports.get(target.name);
    if (imported !== undefined) {
      if (imported.name !== target.name) return 'other';
      if (own(imported.module)) return 'resolved';
      return reExported(target, imported.module, workspace) ?? 'other';
    }
    if (scope.topLevelNames.has(target.name)) return 'other';
    if (scope.starModules.some(own)) return 'resolved';
    return scope.starModules.length > 0 ? 'byName' : 'other';
  }
  if (shape.via === 'qualified') {
    const qualifier = shape.qualifier ?? '';
    const alias = scope.moduleAliases.get(qualifier);
    if (alias !== undefined) return own(alias) ? 'resolved' : 'other';
    const first = qualifier.split('.')[0] ?? '';
    if (scope.moduleAliases.has(first) && own(qualifier)) return 'resolved';
    const fromImported = scope.fromImports.get(qualifier);
    if (fromImported !== undefined) return own(`${fromImported.module}.${fromImported.name}`) ? 'resolved' : 'other';
    return 'other';
  }
  return 'other';
}

function resolveMember(target: ReferenceTarget, container: ElementNode, site: Site<PythonScope>): Verdict {
  const { shape } = site;
  const insideContainer = site.file === target.file && site.holders.some((h) => h.path === container.path);
  switch (shape.via) {
    case 'self':
      return insideContainer ? 'resolved' : 'byName';
    case 'qualified': {
      const qualifier = shape.qualifier ?? '';
      return qualifier === container.name || qualifier.endsWith(`.${container.name}`) ? 'resolved' : 'byName';
    }
    case 'keyword':
      // A field given by keyword: `User(name=...)` for a dataclass or attrs class.
      return target.element.kind === 'property' || target.element.kind === 'variable' ? 'byName' : 'other';
    case 'bare': {
      if (!insideContainer) return 'other';
      // A decorator (`@name.setter`) or a class-level statement names the member; inside a method, a bare name is a
      // local or a global.
      for (const ancestor of ancestors(site.node)) {
        if (ancestor.type === 'decorator') return 'resolved';
        if (ancestor.type === 'function_definition') return 'other';
        if (ancestor.type === 'class_definition') return 'resolved';
      }
      return 'other';
    }
  }
}

/** The name nodes of a class's bases: `Base`, `pkg.m.Base`, `Base[T]`; keyword arguments (`metaclass=M`) are none. */
function baseNamesOf(declaration: Node): Node[] {
  if (declaration.type !== 'class_definition') return [];
  const names: Node[] = [];
  for (const base of declaration.childForFieldName('superclasses')?.namedChildren ?? []) {
    let node: Node | null = base;
    if (node?.type === 'subscript') node = node.childForFieldName('value');
    if (node?.type === 'attribute') node = node.childForFieldName('attribute');
    if (node?.type === 'identifier') names.push(node);
  }
  return names;
}

export const pythonReferenceRules: ReferenceRules<PythonScope> = {
  baseNamesOf,
  overridable: new Set(['method', 'property']),
  identifierOf: (element) => (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(element.name) ? element.name : undefined),
  shapeOf,
  scopeOf: (file, root) => scopeOf(file, root),
  resolve(target, targetScope, site, workspace) {
    const container = target.containers.at(-1);
    if (container === undefined) return resolveTopLevel(target, targetScope, site, workspace);
    if (container.kind === 'class') return resolveMember(target, container, site);
    // A function nested in a function: its name is local to the enclosing one.
    return site.file === target.file && site.holders.some((h) => h.path === container.path) && site.shape.via === 'bare'
      ? 'resolved'
      : 'other';
  },
  importedNames(target, targetScope, fileScope, root, workspace) {
    if (target.containers.length > 0) return [];
    const offsets: number[] = [];
    for (const statement of root.descendantsOfType('import_from_statement')) {
      if (statement === null) continue;
      const module = resolveRelative(
        statement.childForFieldName('module_name')?.text.replace(/\s+/g, '') ?? '',
        fileScope,
      );
      if (!names(module, targetScope.module) && reExported(target, module, workspace) !== 'resolved') continue;
      for (const imported of statement.childrenForFieldName('name')) {
        const nameNode = imported.type === 'aliased_import' ? imported.childForFieldName('name') : imported;
        if (nameNode?.text === target.name) offsets.push(nameNode.startIndex);
      }
    }
    return offsets;
  },
  aliasesIn(target, targetScope, fileScope) {
    if (target.containers.length > 0) return [];
    const aliases: string[] = [];
    for (const [local, imported] of fileScope.fromImports)
      if (local !== target.name && imported.name === target.name && names(imported.module, targetScope.module))
        aliases.push(local);
    return aliases;
  },
};

/** For tests and the docs: the module a file is, as Python's imports name it from the workspace root. */
export function pythonModuleOf(file: string): string {
  return moduleOfPath(file).module;
}
