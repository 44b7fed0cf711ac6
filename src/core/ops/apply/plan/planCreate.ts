import type { ElementKind, ElementNode } from '../../../elements/element';
import {
  canonicalKind,
  ElementPathSyntaxError,
  kindsCompatible,
  normalizeFilePath,
  parseElementPath,
} from '../../../elements/elementPath';
import { resolveElementPath } from '../../../elements/resolve';
import type { ContainerInfo, ImportPlacement } from '../../../language/languageSupport';
import type { CreateElementOperation } from '../../operation';
import type { Slot } from '../actions';
import {
  blankLinesOf,
  childIndent,
  isBlock,
  type LayoutSide,
  layoutSideOf,
  memberSeparatorOf,
  trailingCommaOf,
} from '../containerLayout';
import { describeElement } from '../contentChecks';
import { normalizeContent, reindent } from '../reindent';
import { parsedContent } from './parsedContent';
import { changeImports, withoutLeadingImports } from './planImports';
import { type Creation, type PlanState, segmentOf } from './planState';

/**
 * CREATE_ELEMENT: new elements in a container (or the file), at FIRST_CHILD, LAST_CHILD, or BEFORE/AFTER a sibling,
 * which may be an element created earlier in the batch. Several creations at one place form one group.
 */

export function resolveContainer(
  state: PlanState,
  index: number,
  path: string,
):
  | {
      element: ElementNode | undefined;
      info: ContainerInfo;
      path: string;
      children: readonly ElementNode[];
      chain: string[];
    }
  | undefined {
  let parsed;
  try {
    parsed = parseElementPath(path);
  } catch (error) {
    if (!(error instanceof ElementPathSyntaxError)) throw error;
    state.fail(index, {
      message: error.message,
      hint: 'write the container as <file>/<kind>[<name>], or just the file',
    });
    return undefined;
  }
  if (parsed.segments.length === 0) {
    return {
      element: undefined,
      info: { flavor: 'file', indent: '' },
      path: state.file,
      children: state.outline.elements,
      chain: [],
    };
  }
  const resolved = state.resolve(index, path);
  if (resolved === undefined) return undefined;
  const element = resolved.element;
  const lookup = state.editor.containerOf(element);
  if (!lookup.ok) {
    state.fail(index, {
      message: `CREATE_ELEMENT in ${element.path}: ${lookup.reason}`,
      hint: 'create the element in a class, interface, enum, namespace, object literal, type literal or the file',
    });
    return undefined;
  }
  return {
    element,
    info: lookup.container,
    path: element.path,
    children: element.children,
    chain: state.chainOf(element).map(segmentOf),
  };
}

/** Whether an enum's constants end with a `;` (Java), after which other members may follow. */
function constantsEnd(state: PlanState, info: ContainerInfo, children: readonly ElementNode[]): boolean {
  const last = children.at(-1);
  const from = last === undefined ? (info.open ?? 0) + 1 : last.range.end;
  const to = info.close ?? state.text.length;
  let code = state.text.slice(from, to);
  for (const comment of [...state.scanCode(code).comments].reverse())
    code = code.slice(0, comment.start) + code.slice(comment.end);
  return code.includes(';');
}

/** `'use strict'` and kin: FIRST_CHILD goes after them. */
export function isDirective(state: PlanState, element: ElementNode): boolean {
  return element.kind === 'statement' && /^['"]/.test(state.text.slice(element.declarationRange.start));
}

export function planCreate(state: PlanState, index: number, op: CreateElementOperation): void {
  const container = resolveContainer(state, index, op.path);
  if (container === undefined) return;
  const label = `CREATE_ELEMENT in ${container.path}`;
  const content = normalizeContent(op.content);
  if (content === '') {
    state.fail(index, { message: `${label} has no content`, hint: 'write the complete new element' });
    return;
  }
  if (state.refusePlaceholder(index, content, undefined)) return;
  const { info: containerInfo } = container;
  if (containerInfo.flavor === 'file' && placeImport(state, index, op, label, content, container.children)) return;
  const code = containerInfo.flavor === 'file' ? withoutLeadingImports(state, index, label, content) : content;
  if (code === undefined) return;
  const parsed = parsedContent(state, index, label, code, containerInfo.flavor);
  if (parsed === undefined) return;
  const { shape } = parsed;
  // A Java enum's fields, constructors and methods follow its constants (after a `;`): they go in like a class's
  // members, among those members, without the constants' commas.
  const afterConstants = containerInfo.flavor === 'enum' && shape.elements.some((e) => e.kind !== 'member');
  const info: ContainerInfo = afterConstants ? { ...containerInfo, flavor: 'class' } : containerInfo;
  const flavor = info.flavor;
  const isComma = parsed.isComma && !afterConstants;
  const firstMember = afterConstants ? container.children.find((c) => c.kind !== 'member') : undefined;
  if (afterConstants && firstMember === undefined && !constantsEnd(state, containerInfo, container.children)) {
    state.fail(index, {
      message: `${label}: the enum has no ';' after its constants, so it holds no other members yet`,
      hint: 'replace the enum whole, with a ; after its constants and the new member after it',
    });
    return;
  }
  const placed: CreateElementOperation = !afterConstants
    ? op
    : op.position.kind === 'FIRST_CHILD' && firstMember !== undefined
      ? { ...op, position: { kind: 'BEFORE', sibling: firstMember.path } }
      : op.position.kind === 'FIRST_CHILD'
        ? { ...op, position: { kind: 'LAST_CHILD' } }
        : op;
  let { body } = parsed;
  if (shape.elements.length === 0) {
    state.fail(index, {
      message: `${label}: the content declares no element`,
      hint: 'write the complete new element',
    });
    return;
  }
  if (shape.elements.some((e) => e.kind === 'import')) {
    state.fail(index, {
      message: `${label}: the content holds an import declaration`,
      hint: 'add imports with ADD_IMPORT and keep CREATE_ELEMENT for the element itself',
    });
    return;
  }
  if (op.elementKind !== undefined) {
    const wanted = canonicalKind(op.elementKind);
    const mismatch = wanted === undefined ? undefined : shape.elements.find((e) => !kindFits(wanted, e));
    if (mismatch !== undefined && wanted !== undefined) {
      state.fail(index, {
        message: `${label}: KIND=${op.elementKind} was given, but the content declares ${describeElement(mismatch)}`,
        hint: `write a ${wanted}, or correct KIND`,
      });
      return;
    }
  }
  if (!isComma && shape.statementLike && !shape.terminated) {
    const terminator =
      flavor === 'interface' || flavor === 'typeLiteral'
        ? memberSeparatorOf(state.text, container.children, state.semicolons)
        : state.semicolons
          ? ';'
          : '';
    if (terminator !== '') body = state.withTerminator(body, terminator);
  }
  const indent = childIndent(state.text, info, container.children, state.style.indent.unit);
  const itemText = reindent(body, {
    indent,
    style: state.style.indent,
    scanCode: state.scanCode,
    indentBlocks: state.indentBlocks,
  }).join('\n');
  const located = slotFor(state, index, placed, { ...container, info }, label);
  if (located === undefined) return;
  const containerKey = container.element === undefined ? 'file' : state.keyOf(container.element.range);
  if (state.containerBlocked(index, container.element, label)) return;
  const declared = shape.elements.map((e) => ({ kind: e.kind, name: e.name }));
  const groupKey = `${containerKey}|${located.key}`;
  let group = located.joins?.group ?? state.groups.find((g) => g.key === groupKey);
  if (group === undefined) {
    group = {
      key: groupKey,
      container: info,
      containerElement: container.element,
      slot: located.slot,
      items: [],
      neighbourBlock: located.neighbour !== undefined && isBlock(located.neighbour),
      // Constants and the members after them are spaced apart from each other.
      blankLines: blankLinesOf(
        state.text,
        containerInfo.flavor === 'enum'
          ? container.children.filter((c) => (c.kind === 'member') !== afterConstants)
          : container.children,
        flavor,
      ),
      ...siblingsAround(located.slot, container.children),
      trailingComma: trailingCommaOf(state.text, container.children, info),
      // A directive put at FIRST_CHILD ('use client', 'use strict') opens the file's prologue and is set apart from
      // the code after it by one blank line, as frameworks write it; placed BEFORE a sibling it sits flush against
      // it, whatever the file's spacing of one-line statements, so both layouts can be written.
      ...(located.prologue === true
        ? { blankAfter: 1 }
        : op.position.kind === 'BEFORE' && isDirectiveContent(content)
          ? { blankAfter: 0 }
          : {}),
    };
    state.groups.push(group);
  }
  const creation: Creation = {
    index,
    containerKey,
    containerPath: container.path,
    containerChain: container.chain,
    children: container.children,
    declared,
    group,
  };

  const block = shape.elements.some((e) => isBlock(e)) || itemText.includes('\n');
  const first = shape.elements[0];
  const last = shape.elements.at(-1);
  const sides =
    first === undefined || last === undefined ? undefined : { first: layoutSideOf(first), last: layoutSideOf(last) };
  const item = {
    ops: [index],
    text: itemText,
    block,
    ...(sides === undefined ? {} : { sides }),
    ...(op.blankLines === undefined ? {} : { blankLines: op.blankLines }),
    creation,
  };
  if (located.joins !== undefined) {
    const at = group.items.findIndex((i) => i.creation === located.joins);
    group.items.splice(located.before ? Math.max(at, 0) : at + 1, 0, item);
  } else {
    group.items.push(item);
  }
  state.creations.push(creation);
}

/** The members right above and below a slot, whose layout the new elements take on. */
function siblingsAround(slot: Slot, children: readonly ElementNode[]): { above?: LayoutSide; below?: LayoutSide } {
  let above: ElementNode | undefined;
  let below: ElementNode | undefined;
  switch (slot.kind) {
    case 'after':
      above = [...children].reverse().find((c) => c.range.end <= slot.anchor.end);
      below = children.find((c) => c.range.start >= slot.anchor.end);
      break;
    case 'before':
      above = [...children].reverse().find((c) => c.range.end <= slot.anchor.start);
      below = children.find((c) => c.range.start >= slot.anchor.start);
      break;
    case 'first':
      below = children[0];
      break;
    case 'last':
    case 'end':
      above = children.at(-1);
      break;
    case 'line':
      break;
  }
  return {
    ...(above === undefined ? {} : { above: layoutSideOf(above) }),
    ...(below === undefined ? {} : { below: layoutSideOf(below) }),
  };
}

export function slotFor(
  state: PlanState,
  index: number,
  op: CreateElementOperation,
  container: {
    element: ElementNode | undefined;
    info: ContainerInfo;
    path: string;
    children: readonly ElementNode[];
  },
  label: string,
):
  | { slot: Slot; key: string; neighbour: ElementNode | undefined; joins?: Creation; before?: boolean; prologue?: true }
  | undefined {
  const { children } = container;
  const position = op.position;
  if (position.kind === 'FIRST_CHILD') {
    if (container.element !== undefined) return { slot: { kind: 'first' }, key: 'first', neighbour: children[0] };
    if (isDirectiveContent(normalizeContent(op.content))) {
      // A directive works only in the file's prologue: it goes after the directives there, else at the very top
      // (above a header comment; after a `#!` line).
      const directives = children.slice(
        0,
        Math.max(
          0,
          children.findIndex((c) => !isDirective(state, c)),
        ),
      );
      const last = children.every((c) => isDirective(state, c)) ? children.at(-1) : directives.at(-1);
      if (last !== undefined) {
        const anchor = state.anchorRange(last);
        return { slot: { kind: 'after', anchor }, key: 'prologue', neighbour: last, prologue: true };
      }
      const top = state.text.startsWith('#!') ? state.text.indexOf('\n') + 1 || state.text.length : 0;
      return { slot: { kind: 'line', offset: top }, key: 'prologue', neighbour: children[0], prologue: true };
    }
    const firstCode = children.find(
      (c) => c.kind !== 'import' && !isDirective(state, c) && state.editor.headsFile?.(c) !== true,
    );
    if (firstCode !== undefined) {
      const anchor = state.anchorRange(firstCode);
      return { slot: { kind: 'before', anchor }, key: `before:${anchor.start}`, neighbour: firstCode };
    }
    return { slot: { kind: 'end' }, key: 'end', neighbour: children[children.length - 1] };
  }
  if (position.kind === 'LAST_CHILD') {
    if (container.element !== undefined)
      return { slot: { kind: 'last' }, key: 'last', neighbour: children[children.length - 1] };
    return { slot: { kind: 'end' }, key: 'end', neighbour: children[children.length - 1] };
  }
  const sibling = position.sibling.trim();
  let path = `${container.path}/${sibling}`;
  try {
    const parsed = parseElementPath(sibling);
    if (parsed.segments.length > 0 && normalizeFilePath(parsed.file) === state.file) path = sibling;
  } catch {
    // Not a full path: it is a segment relative to the container.
  }
  const resolved = resolveElementPath(state.outline, path);
  const before = position.kind === 'BEFORE';
  const wanted = segmentWanted(sibling);
  // A sibling created earlier in the batch; looked up before a failure, since the path may also resolve (to an
  // element of that name deeper in the file) or not at all.
  const createdSibling = (): Creation | undefined =>
    wanted === undefined
      ? undefined
      : [...state.creations]
          .reverse()
          .find(
            (c) =>
              c.containerPath === container.path &&
              !state.failures.has(c.index) &&
              c.declared.some(
                (d) => d.name === wanted.name && (wanted.kind === undefined || kindsCompatible(d.kind, wanted.kind)),
              ),
          );
  if (resolved.ok) {
    // A created sibling of exactly the kind named wins over an existing one of a compatible kind (`type[X]` names
    // the type alias created in the batch, not an interface X it replaces further down).
    const exact = wanted?.kind !== undefined && resolved.element.kind !== wanted.kind ? createdSibling() : undefined;
    if (exact !== undefined && exact.declared.some((d) => d.kind === wanted?.kind && d.name === wanted.name))
      return { slot: exact.group.slot, key: exact.group.key, neighbour: undefined, joins: exact, before };
    const parent = state.parentOf(resolved.element);
    if (parent?.path !== container.element?.path) {
      const created = createdSibling();
      if (created !== undefined)
        return { slot: created.group.slot, key: created.group.key, neighbour: undefined, joins: created, before };
      state.fail(index, {
        message: `${label} ${position.kind} ${sibling}: ${resolved.element.path} is not a direct child of ${container.path}`,
        hint: "name a sibling inside the container, or create the element in the sibling's own container",
        suggestions: children
          .filter((c) => c.kind !== 'import')
          .slice(0, 8)
          .map((c) => c.path),
      });
      return undefined;
    }
    const anchor = state.anchorRange(resolved.element);
    return {
      slot: before ? { kind: 'before', anchor } : { kind: 'after', anchor },
      key: `${before ? 'before' : 'after'}:${anchor.start}`,
      neighbour: resolved.element,
    };
  }
  const created = createdSibling();
  if (created !== undefined) {
    return { slot: created.group.slot, key: created.group.key, neighbour: undefined, joins: created, before };
  }
  state.fail(index, {
    message: `${label} ${position.kind} ${sibling}: ${resolved.message}`,
    hint: 'name an existing sibling of the new element, or use FIRST_CHILD/LAST_CHILD',
    suggestions: resolved.suggestions,
  });
  return undefined;
}

/**
 * CREATE_ELEMENT of one import declaration BEFORE or AFTER another import: the import goes exactly there (an
 * import added mid-list, or moved), through the import book so that its names are still checked for clashes.
 * True when the operation was handled here (planned or failed).
 */
function placeImport(
  state: PlanState,
  index: number,
  op: CreateElementOperation,
  label: string,
  content: string,
  children: readonly ElementNode[],
): boolean {
  const position = op.position;
  const imports = state.editor.imports;
  const book = state.imports;
  if (position.kind !== 'BEFORE' && position.kind !== 'AFTER') return false;
  if (imports === undefined || book === undefined || !imports.isDeclaration(content)) return false;
  const read = imports.read(content);
  const shape = read.ok && read.imports.length === 1 ? read.imports[0] : undefined;
  if (!read.ok || shape === undefined) return false;
  const wanted = segmentWanted(position.sibling);
  if (wanted === undefined) return false;
  if (wanted.kind !== 'import') {
    // An import placed BEFORE the first code of the file, where the imports would be, goes right there (a file
    // that starts its code flush against its imports); anywhere else it is refused like any import in CREATE content.
    const first = children.find((c) => c.kind !== 'import' && !isDirective(state, c));
    if (position.kind !== 'BEFORE' || first === undefined || canonicalKind(first.kind) !== wanted.kind) return false;
    if (first.name !== wanted.name) return false;
    const text = read.texts[0] ?? content;
    const normalized = state.semicolons && !text.trimEnd().endsWith(';') ? `${text.trimEnd()};` : text;
    changeImports(state, index, label, () => book.add(shape, normalized, index, { before: first, separate: false }));
    return true;
  }
  let placement = state.placedImports.get(wanted.name);
  if (placement === undefined) {
    const sibling = children.find(
      (c) =>
        c.kind === 'import' && c.name === wanted.name && (wanted.ordinal === undefined || c.ordinal === wanted.ordinal),
    );
    if (sibling === undefined) return false;
    const separate = children.some((c) => c.kind === 'import' && c.name === shape.module && state.isDeleted(c));
    placement = position.kind === 'AFTER' ? { after: sibling, separate } : { before: sibling, separate };
  } else {
    placement = {
      ...placement,
      separate: children.some((c) => c.kind === 'import' && c.name === shape.module && state.isDeleted(c)),
    };
  }
  const text = read.texts[0] ?? content;
  const normalized = state.semicolons && !text.trimEnd().endsWith(';') ? `${text.trimEnd()};` : text;
  const chosen: ImportPlacement = placement;
  if (changeImports(state, index, label, () => book.add(shape, normalized, index, chosen)))
    state.placedImports.set(shape.module, chosen);
  return true;
}

function segmentWanted(
  sibling: string,
): { kind: ReturnType<typeof canonicalKind>; name: string; ordinal: number | undefined } | undefined {
  const match = /([A-Za-z][\w-]*=?)(?:\[(.*)\])?(?:#(\d+))?$/.exec(sibling.trim());
  if (match?.[1] === undefined) return undefined;
  return {
    kind: canonicalKind(match[1]),
    name: match[2] ?? '',
    ordinal: match[3] === undefined ? undefined : Number(match[3]),
  };
}

/** A KIND hint fits an element of a compatible kind; a function kind needs a function (an arrow in a property). */
function kindFits(wanted: ElementKind, element: ElementNode): boolean {
  if (!kindsCompatible(wanted, element.kind)) return false;
  const wantsFunction = wanted === 'function' || wanted === 'method';
  const isValue = element.kind === 'property' || element.kind === 'variable';
  return !(wantsFunction && isValue && element.bodyRange === undefined);
}

/** Whether content is a directive of the file's prologue: a lone string literal such as `'use client'`. */
export function isDirectiveContent(content: string): boolean {
  return /^(['"])use [^'"\n]*\1;?$/.test(content.trim());
}
