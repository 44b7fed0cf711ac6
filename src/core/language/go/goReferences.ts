import type { Node } from 'web-tree-sitter';
import {
  ancestors,
  isField,
  KEYWORD_SHAPE,
  nameParentOrShape,
  SKIP_SHAPE,
  useShape,
  type ReferenceRules,
  type RulesWorkspace,
  type Site,
  type SiteShape,
  type Verdict,
} from '../treeSitter/treeSitterReferences';

/**
 * Go uses, resolved through packages: a package-level function, type, variable or constant is used bare inside its
 * package (the files of its folder with the same `package` clause) and as `pkg.Name` where a file imports its
 * package's path (read from the nearest go.mod, else matched by the folder); a bare name in another package, or a
 * qualifier that is another import, means something else. A method or field is used on the receiver inside a method
 * of its type, as `T.Method`, and as a key of a `T{...}` literal; on any other value only the name ties them (by name).
 */

interface GoImport {
  readonly path: string;
  /** The name written before the path (`f "fmt"`), if any; `.` for a dot import. */
  readonly alias: string | undefined;
}

export interface GoScope {
  readonly folder: string;
  readonly packageName: string;
  readonly imports: readonly GoImport[];
  /** The import path of the file's own package, when a go.mod above it says; undefined otherwise. */
  readonly importPath: string | undefined;
}

const DECLARATION_PARENTS = new Set([
  'function_declaration',
  'method_declaration',
  'type_spec',
  'type_alias',
  'field_declaration',
  'method_elem',
  'method_spec',
  'const_spec',
  'var_spec',
]);
const BINDING_PARENTS = new Set([
  'parameter_declaration',
  'variadic_parameter_declaration',
  'type_parameter_declaration',
]);
const NAME_TYPES = new Set(['identifier', 'field_identifier', 'type_identifier']);

function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '' : file.slice(0, slash);
}

/** The import path of a folder from the nearest go.mod above it. */
function importPathOf(folder: string, workspace: RulesWorkspace): string | undefined {
  const segments = folder === '' ? [] : folder.split('/');
  for (let length = segments.length; length >= 0; length--) {
    const base = segments.slice(0, length).join('/');
    const text = workspace.readFile(base === '' ? 'go.mod' : `${base}/go.mod`);
    if (text === undefined) continue;
    const module = /^\s*module\s+("?)([^\s"]+)\1/m.exec(text)?.[2];
    if (module === undefined) return undefined;
    const rest = segments.slice(length).join('/');
    return rest === '' ? module : `${module}/${rest}`;
  }
  return undefined;
}

function scopeOf(file: string, root: Node, workspace: RulesWorkspace): GoScope {
  const folder = folderOf(file);
  let packageName = '';
  const imports: GoImport[] = [];
  for (const node of root.namedChildren) {
    if (node.type === 'package_clause') packageName = node.namedChildren[0]?.text ?? '';
    if (node.type !== 'import_declaration') continue;
    const specs = node.descendantsOfType('import_spec');
    for (const spec of specs) {
      if (spec === null) continue;
      const path = (spec.childForFieldName('path')?.text ?? '').replace(/^["`]|["`]$/g, '');
      imports.push({ path, alias: spec.childForFieldName('name')?.text });
    }
  }
  return { folder, packageName, imports, importPath: importPathOf(folder, workspace) };
}

function shapeOf(node: Node): SiteShape | undefined {
  const parent = nameParentOrShape(node, NAME_TYPES, DECLARATION_PARENTS);
  if (parent === undefined || 'role' in parent) return parent;
  if (BINDING_PARENTS.has(parent.type) && isField(node, 'name')) return SKIP_SHAPE;
  for (const ancestor of ancestors(node)) {
    if (ancestor.type === 'import_declaration' || ancestor.type === 'package_clause') return SKIP_SHAPE;
    if (ancestor.type === 'block' || ancestor.type === 'source_file') break;
  }
  // `x := ...` and `for k, v := range` bind new names.
  const list = parent.type === 'expression_list' ? parent : undefined;
  if (list !== undefined && isField(list, 'left')) {
    const statement = list.parent;
    if (statement?.type === 'short_var_declaration' || statement?.type === 'range_clause') return SKIP_SHAPE;
  }
  if (parent.type === 'literal_element' && parent.parent?.type === 'keyed_element' && isField(parent, 'key'))
    return KEYWORD_SHAPE;
  let expression = node;
  let via: SiteShape['via'] = 'bare';
  let qualifier: string | undefined;
  if (parent.type === 'selector_expression' && isField(node, 'field')) {
    expression = parent;
    qualifier = parent.childForFieldName('operand')?.text.replace(/\s+/g, '') ?? '';
    via = 'qualified';
  } else if (parent.type === 'qualified_type' && isField(node, 'name')) {
    expression = parent;
    qualifier = parent.childForFieldName('package')?.text ?? '';
    via = 'qualified';
  }
  const isCall = expression.parent?.type === 'call_expression' && isField(expression, 'function');
  const written = expression.parent?.type === 'expression_list' ? expression.parent : expression;
  const isWrite =
    (written.parent?.type === 'assignment_statement' && isField(written, 'left')) ||
    expression.parent?.type === 'inc_statement' ||
    expression.parent?.type === 'dec_statement';
  return useShape(via, qualifier, isCall, isWrite);
}

/**
 * Whether an import path names the target's package: its go.mod path, else its folder (a GOPATH tree holds
 * `src/<import path>`, so the folder ends with the path; a module at the root without go.mod, the other way round).
 */
function importsTarget(path: string, targetScope: GoScope): boolean {
  if (targetScope.importPath !== undefined) return path === targetScope.importPath;
  const folder = targetScope.folder;
  return folder !== '' && (path === folder || path.endsWith(`/${folder}`) || folder.endsWith(`/${path}`));
}

/** The name a file reaches an import by: its alias, else the package's name guessed from the path. */
function localName(spec: GoImport): string {
  if (spec.alias !== undefined) return spec.alias;
  const segments = spec.path.split('/');
  let last = segments.at(-1) ?? '';
  if (/^v\d+$/.test(last) && segments.length > 1) last = segments.at(-2) ?? last;
  return last
    .replace(/\.v\d+$/, '')
    .replace(/^go-/, '')
    .replace(/-go$/, '');
}

/** `(*Server).Start` -> `Server`; `Point.Len` -> `Point`. */
function receiverType(methodName: string): string {
  const dot = methodName.lastIndexOf('.');
  return methodName.slice(0, dot).replace(/^\(\*?|\)$/g, '');
}

/** The receiver variable of the method declaration around a node, with its type, if any. */
function enclosingReceiver(node: Node): { name: string; type: string } | undefined {
  for (const ancestor of ancestors(node)) {
    if (ancestor.type !== 'method_declaration') continue;
    const parameter = ancestor
      .childForFieldName('receiver')
      ?.namedChildren.find((c) => c.type === 'parameter_declaration');
    const name = parameter?.childForFieldName('name')?.text;
    const type = (parameter?.childForFieldName('type')?.text ?? '').replace(/^\*\s*/, '').replace(/\[[\s\S]*\]$/, '');
    return name === undefined ? undefined : { name, type };
  }
  return undefined;
}

/** The type of the composite literal a keyed element belongs to (`T{Name: 1}` -> `T`, `pkg.T` -> `T`). */
function literalType(node: Node): string | undefined {
  for (const ancestor of ancestors(node)) {
    if (ancestor.type !== 'composite_literal') continue;
    const type = ancestor.childForFieldName('type')?.text ?? '';
    return type
      .split('.')
      .at(-1)
      ?.replace(/\[[\s\S]*\]$/, '');
  }
  return undefined;
}

function resolvePackageLevel(targetScope: GoScope, site: Site<GoScope>): Verdict {
  const { shape, scope } = site;
  const samePackage = scope.folder === targetScope.folder && scope.packageName === targetScope.packageName;
  if (shape.via === 'bare') {
    if (samePackage) return 'resolved';
    return scope.imports.some((i) => i.alias === '.' && importsTarget(i.path, targetScope)) ? 'resolved' : 'other';
  }
  if (shape.via !== 'qualified') return 'other';
  const qualifier = shape.qualifier ?? '';
  const spec = scope.imports.find((i) => i.alias === qualifier);
  if (spec !== undefined) return importsTarget(spec.path, targetScope) ? 'resolved' : 'other';
  const unnamed = scope.imports.filter((i) => i.alias === undefined);
  if (unnamed.some((i) => importsTarget(i.path, targetScope) && qualifier === targetScope.packageName))
    return 'resolved';
  // Another package, or a value: a package-level name is neither's field.
  return 'other';
}

function resolveMember(typeName: string, site: Site<GoScope>): Verdict {
  const { shape, scope } = site;
  if (shape.via === 'keyword') {
    const type = literalType(site.node);
    return type === typeName ? 'resolved' : type === undefined ? 'byName' : 'other';
  }
  if (shape.via !== 'qualified') return 'other';
  const qualifier = shape.qualifier ?? '';
  if (qualifier === typeName || qualifier === `(*${typeName})`) return 'resolved';
  if (scope.imports.some((i) => (i.alias ?? localName(i)) === qualifier)) return 'other';
  const receiver = enclosingReceiver(site.node);
  if (receiver !== undefined && receiver.name === qualifier && receiver.type === typeName) return 'resolved';
  return 'byName';
}

export const goReferenceRules: ReferenceRules<GoScope> = {
  identifierOf(element) {
    const name = element.kind === 'method' ? (element.name.split('.').at(-1) ?? '') : element.name;
    return /^[\p{L}_][\p{L}\p{N}_]*$/u.test(name) ? name : undefined;
  },
  shapeOf,
  scopeOf,
  namespaceOf: (element) => (element.kind === 'method' && element.name.includes('.') ? receiverType(element.name) : ''),
  packageFiles(file, files, workspace) {
    const folder = folderOf(file);
    const packageOf = (path: string): string | undefined =>
      /^\s*package\s+(\w+)/m.exec(workspace.readFile(path) ?? '')?.[1];
    const own = packageOf(file);
    return files.filter(
      (f) => f !== file && f.endsWith('.go') && folderOf(f) === folder && own !== undefined && packageOf(f) === own,
    );
  },
  renameProblem(target, newName, files) {
    const exported = (name: string): boolean => /^\p{Lu}/u.test(name);
    if (!exported(target.name) || exported(newName)) return undefined;
    const outside = files.filter((f) => folderOf(f) !== folderOf(target.file));
    if (outside.length === 0) return undefined;
    return `Go exports only names that start with a capital letter, and ${target.name} is used from other packages (${outside.slice(0, 3).join(', ')}${outside.length > 3 ? ', …' : ''}); choose a capitalised name`;
  },
  resolve(target, targetScope, site) {
    const container = target.containers.at(-1);
    if (container === undefined) {
      if (target.element.kind === 'method' && target.element.name.includes('.'))
        return resolveMember(receiverType(target.element.name), site);
      return resolvePackageLevel(targetScope, site);
    }
    if (container.kind === 'struct') return resolveMember(container.name, site);
    // An interface's method: called on values of any type that has it.
    return site.shape.via === 'qualified' ? 'byName' : 'other';
  },
};
