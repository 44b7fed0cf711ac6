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
 * Rust uses, resolved through module paths: a file is a module of its crate (`src/lib.rs` the root, `src/a/b.rs` and
 * `src/a/b/mod.rs` `crate::a::b`; the crate's name read from the nearest Cargo.toml), `mod x { }` blocks nest in it,
 * and `use` declarations bind names to paths (`crate::`, `self::`, `super::` and the crate's own name resolved). An
 * item is used bare in its own file and where a `use` binds its path, and through any path that resolves to it
 * (`crate::a::helper`, `super::helper`); a path or a `use` that resolves elsewhere means something else. A method or
 * field is used on `self` inside an impl of its type and as `Type::name` / `Self::name`; on another value only the
 * name ties them (by name). Macro arguments are read token by token (`x.len()` in `assert_eq!` is a method call).
 */

export interface RustScope {
  /** The crate: its folder (where Cargo.toml is) and file of the crate root, '' when unknown. */
  readonly crate: string;
  /** The crate's name as paths write it (`regex_syntax`), '' when unknown. */
  readonly crateName: string;
  /** Rust 2015 (a Cargo.toml without `edition`): a `use` path starts at the crate root (`use de::Error;`). */
  readonly edition2015: boolean;
  /** The file's module path inside its crate: [] for the crate root. */
  readonly module: readonly string[];
  /** `use` bindings: the local name -> the absolute path it binds (module path and name). */
  readonly uses: ReadonlyMap<string, readonly string[]>;
  /** `use path::*`: the absolute module paths. */
  readonly globs: readonly (readonly string[])[];
  /** Paths that do not start at this crate (another crate's), by their local name: reading them stops there. */
  readonly external: ReadonlySet<string>;
}

const DECLARATION_PARENTS = new Set([
  'function_item',
  'function_signature_item',
  'struct_item',
  'union_item',
  'enum_item',
  'enum_variant',
  'trait_item',
  'type_item',
  'const_item',
  'static_item',
  'mod_item',
  'macro_definition',
  'field_declaration',
  'associated_type',
]);
const PATTERN_PARENTS = new Set([
  'tuple_pattern',
  'slice_pattern',
  'or_pattern',
  'ref_pattern',
  'mut_pattern',
  'captured_pattern',
  'match_pattern',
  'closure_parameters',
  'tuple_struct_pattern',
  'field_pattern',
  'struct_pattern',
  'reference_pattern',
]);
const NAME_TYPES = new Set(['identifier', 'field_identifier', 'type_identifier', 'shorthand_field_identifier']);
const CRATE_ROOTS = new Set(['lib.rs', 'main.rs']);

function exists(workspace: RulesWorkspace, path: string): string | undefined {
  return workspace.readFile(path);
}

/** The crate folder, the crate's name and the file's module path. */
interface FileModule {
  readonly crate: string;
  readonly crateName: string;
  readonly module: string[];
  readonly edition2015: boolean;
}

function moduleOf(file: string, workspace: RulesWorkspace): FileModule {
  const segments = file.split('/');
  for (let length = segments.length - 1; length >= 0; length--) {
    const base = segments.slice(0, length).join('/');
    const manifest = exists(workspace, base === '' ? 'Cargo.toml' : `${base}/Cargo.toml`);
    if (manifest === undefined) continue;
    const packageTable = manifest.split(/^\s*\[(?!package\])/m)[0] ?? '';
    const crateName = (/^\s*name\s*=\s*"([^"]+)"/m.exec(packageTable)?.[1] ?? '').replace(/-/g, '_');
    const edition2015 = !/^\s*edition\s*=\s*"20(1[89]|[2-9]\d)"/m.test(packageTable);
    const rest = segments.slice(length);
    // Only the src/ tree is one crate; tests/, benches/ and examples/ files (and src/bin/ files) are crates of their own.
    if (rest[0] !== 'src' || rest[1] === 'bin') return { crate: file, crateName, module: [], edition2015 };
    return { crate: base, crateName, module: modulePathOf(rest.slice(1)), edition2015 };
  }
  const src = segments.lastIndexOf('src');
  if (src < 0) return { crate: '', crateName: '', module: modulePathOf(segments.slice(-1)), edition2015: false };
  return {
    crate: segments.slice(0, src).join('/'),
    crateName: '',
    module: modulePathOf(segments.slice(src + 1)),
    edition2015: false,
  };
}

function modulePathOf(inSrc: readonly string[]): string[] {
  const parts = [...inSrc];
  const last = parts.pop() ?? '';
  if (parts.length === 0 && CRATE_ROOTS.has(last)) return [];
  if (last === 'mod.rs') return parts;
  return [...parts, last.replace(/\.rs$/, '')];
}

/** The module a node sits in: the file's, then the `mod x { }` blocks around it. */
function moduleAt(node: Node, fileModule: readonly string[]): string[] {
  const inline: string[] = [];
  for (const ancestor of ancestors(node))
    if (ancestor.type === 'mod_item') inline.unshift(ancestor.childForFieldName('name')?.text ?? '');
  return [...fileModule, ...inline];
}

/** A path as written (`crate::a::b`, `super::x`), resolved against the module it is written in; undefined: another crate. */
function absolutePath(
  segments: readonly string[],
  module: readonly string[],
  scope: Pick<RustScope, 'crateName' | 'uses'> | undefined,
  fromCrateRoot = false,
): string[] | undefined {
  const [first, ...rest] = segments;
  if (first === undefined) return [...module];
  // Rust 2015: a `use` path is the crate root's, whatever module the `use` is in.
  if (fromCrateRoot && first !== 'self' && first !== 'super' && first !== 'crate' && first !== '::')
    return [...segments];
  if (first === 'crate' || (scope !== undefined && scope.crateName !== '' && first === scope.crateName)) return rest;
  if (first === 'self') return [...module, ...rest];
  if (first === 'super') {
    let base = module.slice(0, -1);
    let remaining = rest;
    while (remaining[0] === 'super') {
      base = base.slice(0, -1);
      remaining = remaining.slice(1);
    }
    return [...base, ...remaining];
  }
  const bound = scope?.uses.get(first);
  if (bound !== undefined) return [...bound, ...rest];
  return undefined;
}

function pathSegments(text: string): string[] {
  return text
    .replace(/<[^<>]*>/g, '')
    .replace(/\s+/g, '')
    .split('::')
    .filter((s) => s !== '');
}

function scopeOf(file: string, root: Node, workspace: RulesWorkspace): RustScope {
  const { crate, crateName, module, edition2015 } = moduleOf(file, workspace);
  const uses = new Map<string, string[]>();
  const globs: string[][] = [];
  const external = new Set<string>();
  const partial = { crateName, uses };
  // A path that starts with a module of the crate root (`use de::Error;`) is the crate's: Rust 2015 reads every
  // `use` so, and a crate without a Cargo.toml at hand may be 2015.
  const rootModules = new Map<string, boolean>();
  const isRootModule = (name: string): boolean => {
    let known = rootModules.get(name);
    if (known === undefined) {
      const src = crate === '' || crate === file ? 'src' : `${crate}/src`;
      known = [`${src}/${name}.rs`, `${src}/${name}/mod.rs`].some((path) => workspace.readFile(path) !== undefined);
      rootModules.set(name, known);
    }
    return known;
  };
  const absolute = (segments: readonly string[], at: readonly string[]): string[] | undefined =>
    absolutePath(segments, at, partial, edition2015 || isRootModule(segments[0] ?? ''));
  const bind = (node: Node, prefix: readonly string[], at: readonly string[]): void => {
    switch (node.type) {
      case 'scoped_identifier':
      case 'identifier':
      case 'crate':
      case 'self':
      case 'super': {
        const segments = [...prefix, ...pathSegments(node.text)];
        const local = segments.at(-1) ?? '';
        const resolved = absolute(segments, at);
        if (resolved === undefined) external.add(local);
        else if (local === 'self') uses.set(resolved.at(-1) ?? '', resolved);
        else uses.set(local, resolved);
        return;
      }
      case 'use_as_clause': {
        const path = [...prefix, ...pathSegments(node.childForFieldName('path')?.text ?? '')];
        const alias = node.childForFieldName('alias')?.text ?? '';
        const resolved = absolute(path, at);
        if (resolved === undefined) external.add(alias);
        else uses.set(alias, resolved);
        return;
      }
      case 'use_wildcard': {
        const path = [...prefix, ...pathSegments(node.text.replace(/::\*$/, '').replace(/^\*$/, ''))];
        const resolved = absolute(path, at);
        if (resolved !== undefined) globs.push(resolved);
        else globs.push(['?', ...path]);
        return;
      }
      case 'scoped_use_list': {
        const path = [...prefix, ...pathSegments(node.childForFieldName('path')?.text ?? '')];
        const list = node.childForFieldName('list');
        for (const item of list?.namedChildren ?? []) bind(item, path, at);
        return;
      }
      case 'use_list':
        for (const item of node.namedChildren) bind(item, prefix, at);
        return;
      default:
        return;
    }
  };
  for (const declaration of root.descendantsOfType('use_declaration')) {
    if (declaration === null) continue;
    const argument = declaration.childForFieldName('argument');
    if (argument !== null) bind(argument, [], moduleAt(declaration, module));
  }
  return { crate, crateName, edition2015, module, uses, globs, external };
}

/** The qualifier and shape of an identifier inside a macro's token tree, read from the tokens before it. */
function tokenTreeShape(node: Node): SiteShape {
  const previous = node.previousSibling;
  const next = node.nextSibling;
  const isCall = next?.type === 'token_tree' && next.firstChild?.type === '(';
  if (previous?.type === '.') {
    const value = previous.previousSibling;
    const qualifier = value?.text ?? '';
    return useShape(qualifier === 'self' ? 'self' : 'qualified', qualifier, isCall, false, true);
  }
  if (previous?.type === '::') {
    const parts: string[] = [];
    for (let token = previous.previousSibling; token !== null; token = token.previousSibling?.previousSibling ?? null) {
      parts.unshift(token.text);
      if (token.previousSibling?.type !== '::') break;
    }
    return useShape('qualified', parts.join('::'), isCall, false);
  }
  return useShape('bare', undefined, isCall, false);
}

function shapeOf(node: Node): SiteShape | undefined {
  const parent = nameParentOrShape(node, NAME_TYPES, DECLARATION_PARENTS);
  if (parent === undefined || 'role' in parent) return parent;
  for (const ancestor of ancestors(node)) {
    if (ancestor.type === 'use_declaration' || ancestor.type === 'extern_crate_declaration') return SKIP_SHAPE;
    if (ancestor.type === 'block' || ancestor.type === 'source_file' || ancestor.type === 'declaration_list') break;
  }
  // Macro arguments and the bodies of `macro_rules!` (their `$( ... )*` repetitions too) are tokens, not syntax.
  if (parent.type === 'token_tree' || parent.type === 'token_repetition') return tokenTreeShape(node);
  if (PATTERN_PARENTS.has(parent.type) && !isField(node, 'type')) {
    // A struct pattern's field names the field (`Point { x, y: z }`).
    if (parent.type === 'field_pattern' && isField(node, 'name')) return KEYWORD_SHAPE;
    return SKIP_SHAPE;
  }
  if (
    (parent.type === 'let_declaration' || parent.type === 'parameter' || parent.type === 'for_expression') &&
    isField(node, 'pattern')
  )
    return SKIP_SHAPE;
  if (parent.type === 'closure_parameters' || parent.type === 'lifetime' || parent.type === 'label') return SKIP_SHAPE;
  if (parent.type === 'field_initializer' && isField(node, 'field')) return KEYWORD_SHAPE;
  if (parent.type === 'shorthand_field_initializer') return KEYWORD_SHAPE;
  let expression = node;
  let via: SiteShape['via'] = 'bare';
  let qualifier: string | undefined;
  let onValue = false;
  if ((parent.type === 'scoped_identifier' || parent.type === 'scoped_type_identifier') && isField(node, 'name')) {
    expression = parent;
    qualifier = parent.childForFieldName('path')?.text.replace(/\s+/g, '') ?? '';
    via = 'qualified';
  } else if (parent.type === 'field_expression' && isField(node, 'field')) {
    expression = parent;
    qualifier = parent.childForFieldName('value')?.text.replace(/\s+/g, '') ?? '';
    via = qualifier === 'self' ? 'self' : 'qualified';
    onValue = true;
  }
  let callee: Node = expression;
  if (callee.parent?.type === 'generic_function' && isField(callee, 'function')) callee = callee.parent;
  const isCall =
    (callee.parent?.type === 'call_expression' && isField(callee, 'function')) ||
    (parent.type === 'macro_invocation' && isField(node, 'macro'));
  const isWrite =
    (expression.parent?.type === 'assignment_expression' || expression.parent?.type === 'compound_assignment_expr') &&
    isField(expression, 'left');
  return useShape(via, qualifier, isCall, isWrite, onValue);
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** The module path of the target item: its file's, then the `mod` blocks around it. */
function targetModule(target: ReferenceTarget, targetScope: RustScope): string[] {
  return [...targetScope.module, ...target.containers.filter((c) => c.kind === 'namespace').map((c) => c.name)];
}

function isTypeName(segment: string): boolean {
  return /^[A-Z]/.test(segment) && !/^[A-Z0-9_]+$/.test(segment);
}

function resolveItem(target: ReferenceTarget, targetScope: RustScope, site: Site<RustScope>): Verdict {
  const { shape, scope } = site;
  const sameCrate = scope.crate === targetScope.crate;
  const home = targetModule(target, targetScope);
  if (shape.via === 'bare') {
    if (site.file === target.file) return 'resolved';
    const bound = scope.uses.get(target.name);
    if (bound !== undefined) return sameCrate && same(bound, [...home, target.name]) ? 'resolved' : 'other';
    if (scope.external.has(target.name)) return 'other';
    if (sameCrate && scope.globs.some((glob) => same(glob, home))) return 'resolved';
    return scope.globs.some((glob) => glob[0] === '?') ? 'byName' : 'other';
  }
  // `value.name` is a field or a method, never an item.
  if (shape.via !== 'qualified' || shape.onValue === true) return 'other';
  const segments = pathSegments(shape.qualifier ?? '');
  const resolved = absolutePath(segments, moduleAt(site.node, scope.module), scope);
  if (resolved !== undefined) return sameCrate && same(resolved, home) ? 'resolved' : 'other';
  // `Type::name` is an associated item of a type.
  if (isTypeName(segments.at(-1) ?? '')) return 'other';
  return scope.external.has(segments[0] ?? '') ? 'other' : 'byName';
}

/** The type an impl block is for: `impl[Point]` -> Point, `impl[Display for Point]` -> Point. */
function implType(impl: ElementNode): string {
  return impl.name.split(' for ').at(-1)?.trim() ?? impl.name;
}

function insideImplOf(site: Site<RustScope>, type: string): boolean {
  return site.holders.some((h) => h.kind === 'impl' && implType(h) === type);
}

function resolveMember(container: ElementNode, site: Site<RustScope>): Verdict {
  const { shape } = site;
  const type = container.kind === 'impl' ? implType(container) : container.name;
  if (shape.via === 'self') return insideImplOf(site, type) ? 'resolved' : 'byName';
  if (shape.via === 'keyword') {
    if (container.kind !== 'struct') return 'other';
    let literal: Node | undefined;
    for (const ancestor of ancestors(site.node)) {
      if (ancestor.type === 'struct_expression' || ancestor.type === 'struct_pattern') {
        literal = ancestor;
        break;
      }
    }
    const name = (literal?.childForFieldName('name') ?? literal?.childForFieldName('type'))?.text ?? '';
    const written = pathSegments(name).at(-1) ?? '';
    return written === type || (written === 'Self' && insideImplOf(site, type))
      ? 'resolved'
      : written === ''
        ? 'byName'
        : 'other';
  }
  if (shape.via === 'bare') {
    // An enum's variant imported with `use Enum::*`.
    return container.kind === 'enum' ? 'byName' : 'other';
  }
  if (shape.onValue === true) return 'byName';
  const segments = pathSegments(shape.qualifier ?? '');
  const last = segments.at(-1) ?? '';
  if (last === type) return 'resolved';
  if (last === 'Self') return insideImplOf(site, type) ? 'resolved' : 'byName';
  // A type brought in under another name (`use crate::error::Error as ClapError;`).
  const bound = absolutePath(segments, moduleAt(site.node, site.scope.module), site.scope);
  if (bound !== undefined && bound.at(-1) === type) return 'resolved';
  if (container.kind === 'trait' && last === container.name) return 'resolved';
  if (/^<.*>$/.test(shape.qualifier ?? '')) return 'byName';
  if (isTypeName(last)) return 'other';
  // A module path (`crate::util::name`, `super::name`) names an item, not a member.
  return bound !== undefined ? 'other' : 'byName';
}

/** The offsets of the item's name where a `use` of its file's crate names its path (`use crate::m::{item, x}`). */
function importedItemNames(target: ReferenceTarget, targetScope: RustScope, scope: RustScope, root: Node): number[] {
  if (target.containers.some((c) => c.kind !== 'namespace') || scope.crate !== targetScope.crate) return [];
  const wanted = [...targetModule(target, targetScope), target.name];
  const offsets: number[] = [];
  const check = (path: Node | null, prefix: readonly string[], at: readonly string[]): void => {
    if (path === null) return;
    const segments = [...prefix, ...pathSegments(path.text)];
    if (segments.at(-1) !== target.name) return;
    const resolved = absolutePath(segments, at, scope, scope.edition2015);
    const nameNode = path.type === 'scoped_identifier' ? path.childForFieldName('name') : path;
    if (resolved !== undefined && same(resolved, wanted) && nameNode !== null) offsets.push(nameNode.startIndex);
  };
  const visit = (node: Node, prefix: readonly string[], at: readonly string[]): void => {
    switch (node.type) {
      case 'scoped_identifier':
      case 'identifier':
        check(node, prefix, at);
        return;
      case 'use_as_clause':
        check(node.childForFieldName('path'), prefix, at);
        return;
      case 'scoped_use_list': {
        const path = [...prefix, ...pathSegments(node.childForFieldName('path')?.text ?? '')];
        for (const item of node.childForFieldName('list')?.namedChildren ?? []) visit(item, path, at);
        return;
      }
      case 'use_list':
        for (const item of node.namedChildren) visit(item, prefix, at);
        return;
      default:
        return;
    }
  };
  for (const declaration of root.descendantsOfType('use_declaration')) {
    const argument = declaration?.childForFieldName('argument');
    if (declaration !== null && argument !== null && argument !== undefined)
      visit(argument, [], moduleAt(declaration, scope.module));
  }
  return offsets;
}

export const rustReferenceRules: ReferenceRules<RustScope> = {
  identifierOf: (element) => (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(element.name) ? element.name : undefined),
  shapeOf,
  scopeOf,
  importedNames: (target, targetScope, scope, root) => importedItemNames(target, targetScope, scope, root),
  resolve(target, targetScope, site) {
    const container = target.containers.filter((c) => c.kind !== 'namespace').at(-1);
    if (container === undefined) return resolveItem(target, targetScope, site);
    return resolveMember(container, site);
  },
};
