import type { ElementNode } from '../../elements/element';
import { elementsAtOffset } from '../../elements/resolve';
import type { RenameLocation } from '../../graph/semantics';
import {
  declarationNameOffset,
  wordOffsets,
  type ParsedSource,
  type SiteShape,
  type TypeAt,
} from './treeSitterReferences';
import type { RenameContext } from './treeSitterRename';

/**
 * What refuses a tree-sitter rename before its batch (issue 27): a declaration of the new name beside the target
 * (a C# partial type's other parts included), or a new name that already means something where the rename writes
 * it (a bare use of a top-level name, a bare use of a Java or C# member inside a method with a local of that name).
 */

/** Elements whose declarations share a scope with the code around them (not a class's members). */
const SCOPES: ReadonlySet<string> = new Set(['namespace', 'function', 'method']);

/** Kinds a new name can collide with: declarations, not imports or bare statements. */
const DECLARED = new Set(['import', 'export', 'statement']);

/** Elements whose bodies hold locals. */
const BODIES: ReadonlySet<string> = new Set(['function', 'method', 'constructor', 'property', 'index']);

/** The code of a line, shortened for a message. */
function lineOf(text: string, line: number, fallback = ''): string {
  const code = text.split('\n')[line - 1]?.trim() ?? fallback;
  return code.length > 120 ? `${code.slice(0, 119)}…` : code;
}

/** The 1-based line of an offset. */
function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** How the occurrence of `length` characters at `offset` reads, or undefined when it is no whole name. */
function shapeAt<S>(
  context: RenameContext<S>,
  parsed: ParsedSource<S>,
  offset: number,
  length: number,
): SiteShape | undefined {
  const node = parsed.tree.rootNode.descendantForIndex(offset, offset + length);
  if (node === null || node.startIndex !== offset || node.endIndex !== offset + length) return undefined;
  return context.search.rules.shapeOf(node);
}

/**
 * A declaration of `newName` beside the target, as `file:line: code`: a member of the same class or impl (or of
 * another part of a C# partial class), a name of the same file's top level, or of the same Go package (every file of it).
 */
export function collisionOf<S>(
  context: RenameContext<S>,
  newName: string,
  outline: { readonly elements: readonly ElementNode[] },
): string | undefined {
  const { search, open, target, workspace } = context;
  const { rules, fileSystem } = search;
  const namespace = rules.namespaceOf?.(target.element) ?? '';
  const clash = (elements: readonly ElementNode[]): ElementNode | undefined =>
    elements.find(
      (e) =>
        e !== target.element &&
        !DECLARED.has(e.kind) &&
        rules.identifierOf(e) === newName &&
        (rules.namespaceOf?.(e) ?? '') === namespace,
    );
  const describe = (path: string, found: ElementNode): string =>
    `${path}:${found.startLine}: ${lineOf(open(path)?.text ?? '', found.startLine, found.signature)}`;
  const container = target.containers.at(-1);
  const near = clash(container?.children ?? outline.elements);
  if (near !== undefined) return describe(target.file, near);
  if (container !== undefined) {
    if (rules.partsOf === undefined) return undefined;
    const type: TypeAt = { file: target.file, element: container, containers: target.containers.slice(0, -1) };
    const name = rules.identifierOf(container);
    const files = name === undefined ? [] : context.mentioning(name).filter((f) => f !== target.file);
    for (const part of rules.partsOf(type, open, files)) {
      const found = clash(part.element.children);
      if (found !== undefined) return describe(part.file, found);
    }
    return undefined;
  }
  if (rules.packageFiles === undefined) return undefined;
  for (const path of rules.packageFiles(target.file, fileSystem.listSourceFiles(), workspace)) {
    if (workspace.readFile(path)?.includes(newName) !== true) continue;
    const found = clash(open(path)?.outline.elements ?? []);
    if (found !== undefined) return describe(path, found);
  }
  return undefined;
}

/** The places of a rename per file, offsets in order. */
function placesByFile(places: readonly RenameLocation[]): Map<string, number[]> {
  const byFile = new Map<string, number[]>();
  for (const place of places)
    if (place.file !== undefined) byFile.set(place.file, [...(byFile.get(place.file) ?? []), place.start]);
  return byFile;
}

/**
 * Why the new name would mean something else where the rename puts it, or undefined: for a top-level item, a bare `newName` in the
 * declaring file (a local, an import, a builtin it calls, which would then mean the renamed item) or, where a bare use
 * is renamed, in the function around it or at its file's top level (one would take the other's place). Members are
 * reached through their value (`x.name`) and left to the collision check, and to {@link memberShadowOf}.
 */
export function shadowOf<S>(
  context: RenameContext<S>,
  newName: string,
  own: number,
  places: readonly RenameLocation[],
): string | undefined {
  const { search, open, target } = context;
  const { rules } = search;
  if (target.containers.some((c) => c.kind !== 'namespace') || (rules.namespaceOf?.(target.element) ?? '') !== '')
    return undefined;
  for (const [path, starts] of placesByFile(places)) {
    const parsed = open(path);
    const taken = parsed === undefined ? [] : wordOffsets(parsed.text, newName);
    if (parsed === undefined || taken.length === 0) continue;
    const { text, outline } = parsed;
    const isBare = (offset: number, length: number): boolean =>
      shapeAt(context, parsed, offset, length)?.via === 'bare';
    const isDeclared = (offset: number, name: string): boolean =>
      shapeAt(context, parsed, offset, name.length)?.role === 'declaration';
    // The function whose scope an occurrence is in; a function's own name is in the scope around it.
    const functionAt = (offset: number, name: string): ElementNode | undefined => {
      const functions = elementsAtOffset(outline, offset).filter((e) => e.kind === 'function' || e.kind === 'method');
      const innermost = functions.at(-1);
      const ownName = innermost !== undefined && rules.identifierOf(innermost) === name && isDeclared(offset, name);
      return ownName ? functions.at(-2) : innermost;
    };
    // A member's name (a method of a class, an impl, a Go receiver type) is reached through its value, not bare.
    const isMemberName = (offset: number): boolean => {
      if (!isDeclared(offset, newName)) return false;
      const chain = elementsAtOffset(outline, offset);
      const declared = chain.at(-1);
      if (declared === undefined || rules.identifierOf(declared) !== newName) return false;
      const parent = chain.at(-2);
      const scoped = parent === undefined || SCOPES.has(parent.kind);
      return !scoped || (rules.namespaceOf?.(declared) ?? '') !== '';
    };
    const bound = taken.filter((offset) => isBare(offset, newName.length) && !isMemberName(offset));
    for (const start of starts) {
      if (!isBare(start, target.name.length)) continue;
      const declaration = path === target.file && start === own;
      const holder = functionAt(start, target.name);
      const clash = bound.find((offset) => {
        if (declaration) return true;
        const around = functionAt(offset, newName);
        return around === undefined || around === holder;
      });
      if (clash === undefined) continue;
      const line = lineAt(text, clash);
      return `${newName} already means something else where the rename puts it (${path}:${line}: ${lineOf(text, line)}): the renamed ${target.name} would hide it or be hidden by it; choose another name`;
    }
  }
  return undefined;
}

/**
 * For a member of a Java or C# type, used bare in a method of it (or of a subclass): why a local or parameter of
 * `newName` in that method would take the renamed bare use, or undefined. Any declaration of the name in the method
 * counts, whatever block it is in.
 */
export function memberShadowOf<S>(
  context: RenameContext<S>,
  newName: string,
  own: number,
  places: readonly RenameLocation[],
): string | undefined {
  const { search, open, target } = context;
  if (search.rules.bareMembers !== true || target.containers.every((c) => c.kind === 'namespace')) return undefined;
  for (const [path, starts] of placesByFile(places)) {
    const parsed = open(path);
    const taken = parsed === undefined ? [] : wordOffsets(parsed.text, newName);
    if (parsed === undefined || taken.length === 0) continue;
    for (const start of starts) {
      if (path === target.file && start === own) continue;
      if (shapeAt(context, parsed, start, target.name.length)?.via !== 'bare') continue;
      const body = elementsAtOffset(parsed.outline, start)
        .filter((e) => BODIES.has(e.kind))
        .at(-1);
      if (body === undefined) continue;
      const local = taken.find((offset) => {
        if (offset < body.range.start || offset > body.range.end) return false;
        const role = shapeAt(context, parsed, offset, newName.length)?.role;
        if (role !== 'declaration' && role !== 'skip') return false;
        // The name an element declares itself by (the method's own, a member's) is no local.
        const declared = elementsAtOffset(parsed.outline, offset).at(-1);
        return declared === undefined || !isOwnName(context, parsed, declared, offset);
      });
      if (local === undefined) continue;
      const where = body.name === '' ? body.kind : body.name;
      const line = lineAt(parsed.text, local);
      return `${newName} already means something else where the rename puts it: ${where} declares ${newName} (${path}:${line}: ${lineOf(parsed.text, line)}) and uses ${target.name} bare (line ${lineAt(parsed.text, start)}), which would then mean that ${newName}; choose another name`;
    }
  }
  return undefined;
}

/** Whether the occurrence at `offset` is the name the element declares itself by. */
function isOwnName<S>(
  context: RenameContext<S>,
  parsed: ParsedSource<S>,
  element: ElementNode,
  offset: number,
): boolean {
  const { rules } = context.search;
  const name = rules.identifierOf(element);
  return name !== undefined && declarationNameOffset(parsed, element, name, (node) => rules.shapeOf(node)) === offset;
}
