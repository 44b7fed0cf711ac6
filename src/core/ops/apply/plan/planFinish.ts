import type { ElementNode } from '../../../elements/element';
import { formatSegment, kindsCompatible } from '../../../elements/elementPath';
import type { DeclaratorFate, DeclaratorInfo } from '../../../language/languageSupport';
import type { Action, Expectation, InsertAction, Slot } from '../actions';
import { describeElement } from '../contentChecks';
import { trimEdit } from '../editBuffer';
import { indentOfLine, toLf, withEol } from '../textStyle';
import type { FilePlan } from '../filePlan';
import { type Creation, COMMA_FLAVORS, isLabelKind, type PlanState, type Target } from './planState';

/** The end of a file's plan: checks that need the whole batch, then the actions for the renderer. */

/** Checks what needs the whole batch (names created), then turns the plan into actions. */
export function finish(state: PlanState, failedElsewhere: ReadonlySet<number> = new Set()): FilePlan {
  checkCreatedNames(state);
  const failed = (ops: readonly number[]): boolean => ops.some((i) => state.failures.has(i) || failedElsewhere.has(i));
  const actions: Action[] = [...importActions(state, failed)];
  const expectations: Expectation[] = [];
  for (const group of state.groups) {
    const items = group.items.filter((item) => !failed(item.ops));
    if (items.length === 0) continue;
    const action: InsertAction = {
      kind: 'insert',
      ops: items.flatMap((i) => i.ops),
      container: group.container,
      ...(group.containerElement === undefined ? {} : { containerRange: group.containerElement.range }),
      slot: group.slot,
      items: items.map((i) => ({
        ops: i.ops,
        text: i.text,
        block: i.block,
        ...(i.sides === undefined ? {} : { sides: i.sides }),
        ...(i.blankLines === undefined ? {} : { blankLines: i.blankLines }),
      })),
      blankLines: group.blankLines,
      neighbourBlock: group.neighbourBlock,
      ...(group.above === undefined ? {} : { above: group.above }),
      ...(group.below === undefined ? {} : { below: group.below }),
      trailingComma: group.trailingComma,
      ...(group.blankAfter === undefined ? {} : { blankAfter: group.blankAfter }),
    };
    actions.push(action);
    for (const item of items) {
      for (const declared of item.creation?.declared ?? []) {
        expectations.push({
          ops: item.ops,
          parentChain: item.creation?.containerChain ?? [],
          kind: declared.kind,
          name: declared.name,
          describe: `${item.creation?.containerPath ?? state.file}/${formatSegment(declared.kind, declared.name)}`,
        });
      }
    }
  }
  actions.push(...placeholdersTaken(state, failed));
  const filled = bodiesLeftEmpty(state, failed);
  const statements = new Map<object, { info: DeclaratorInfo; targets: Target[] }>();
  for (const target of state.targets.values()) {
    if (failed(target.ops)) continue;
    const fill = filled.get(target);
    if (fill !== undefined) {
      actions.push({ kind: 'rewrite', ops: target.ops, range: target.range, newText: fill });
      continue;
    }
    if (target.declarator !== undefined) {
      const entry = statements.get(target.declarator.statement) ?? { info: target.declarator, targets: [] };
      entry.targets.push(target);
      statements.set(target.declarator.statement, entry);
    } else if (target.state === 'deleted') {
      actions.push({
        kind: 'delete',
        ops: target.ops,
        range: target.range,
        ...(COMMA_FLAVORS.has(target.flavor) && target.containerOpen !== undefined
          ? { commaContainerOpen: target.containerOpen }
          : {}),
        ...(target.containerOpen === undefined ? {} : { containerOpen: target.containerOpen }),
      });
    } else {
      actions.push({ kind: 'rewrite', ops: target.ops, range: target.range, newText: target.text });
    }
    if (target.state !== 'deleted') {
      const rename = state.renames.get(state.keyOf(target.range));
      expectations.push({
        ops: target.ops,
        parentChain: target.parentChain,
        kind: target.element.kind,
        name: rename?.name ?? target.element.name,
        describe: rename?.path ?? target.node.path,
      });
    }
  }
  for (const { info, targets } of statements.values()) actions.push(statementAction(state, info, targets));
  const owners = new Map<ElementNode, { ops: number[]; parentChain: readonly string[] }>();
  for (const frame of state.frames.values()) {
    if (failed(frame.ops)) continue;
    // Only the part of the frame that changes: a container's header patched beside an element created before its
    // first member must not rewrite the line break and indentation where that element goes in.
    const { start, end, newText } = trimEdit(state.text, { ...frame.range, newText: frame.text });
    actions.push({ kind: 'rewrite', ops: frame.ops, range: { start, end }, newText, frame: true });
    if (frame.owner === undefined) continue;
    const entry = owners.get(frame.owner) ?? { ops: [], parentChain: frame.parentChain };
    entry.ops.push(...frame.ops.filter((op) => !entry.ops.includes(op)));
    owners.set(frame.owner, entry);
  }
  // A container whose own text was patched must still be there, under its new name when the patch renamed it.
  for (const [owner, { ops, parentChain }] of owners) {
    const rename = state.renames.get(state.keyOf(owner.range));
    expectations.push({
      ops,
      parentChain,
      kind: owner.kind,
      name: rename?.name ?? owner.name,
      describe: rename?.path ?? owner.path,
    });
  }
  for (const [index, path] of state.renamedBy) {
    if (!state.failures.has(index) && !state.notes.has(index)) state.notes.set(index, `renamed to ${path}`);
  }
  return {
    actions,
    expectations,
    failures: state.failures,
    notes: state.notes,
    renames: state.renamedBy,
    readAs: state.readAs,
  };
}

/**
 * In an indented language, a body whose members are all deleted and that keeps no other code would not parse:
 * the last deleted member of each such body is replaced by the language's empty-body statement (`pass`), at its
 * place and indentation. Keyed by that member's target.
 */
function bodiesLeftEmpty(state: PlanState, failed: (ops: readonly number[]) => boolean): Map<Target, string> {
  const filled = new Map<Target, string>();
  const fill = state.language.syntax?.emptyBody;
  if (fill === undefined) return filled;
  const byParent = new Map<ElementNode, Target[]>();
  for (const target of state.targets.values()) {
    if (target.state !== 'deleted' || target.declarator !== undefined || failed(target.ops)) continue;
    const parent = state.parentOf(target.element);
    if (parent?.bodyRange === undefined) continue;
    byParent.set(parent, [...(byParent.get(parent) ?? []), target]);
  }
  for (const [parent, deleted] of byParent) {
    const body = parent.bodyRange;
    if (body === undefined) continue;
    // A member created in the body fills it.
    const createdIn = state.groups.some(
      (group) =>
        group.containerElement?.range.start === parent.range.start &&
        group.containerElement.range.end === parent.range.end &&
        group.items.some((item) => !failed(item.ops)),
    );
    if (createdIn) continue;
    const sorted = [...deleted].sort((a, b) => a.range.start - b.range.start);
    let left = '';
    let at = Math.min(body.start, sorted[0]?.range.start ?? body.start);
    for (const target of sorted) {
      left += state.text.slice(at, Math.max(at, target.range.start));
      at = Math.max(at, target.range.end);
    }
    left += state.text.slice(at, parent.range.end);
    const scan = state.scanCode(left);
    let code = '';
    let from = 0;
    for (const comment of scan.comments) {
      code += left.slice(from, comment.start);
      from = comment.end;
    }
    code += left.slice(from);
    const last = sorted.at(-1);
    if (code.trim() === '' && last !== undefined) filled.set(last, fill);
  }
  return filled;
}

/**
 * A member created into a body that holds only a placeholder (`pass`, a docstring aside) takes its place: the
 * placeholder goes, once per body.
 */
function placeholdersTaken(state: PlanState, failed: (ops: readonly number[]) => boolean): Action[] {
  const actions: Action[] = [];
  const seen = new Set<number>();
  for (const group of state.groups) {
    const placeholder = group.container.block?.placeholder;
    const items = group.items.filter((item) => !failed(item.ops));
    if (placeholder === undefined || items.length === 0 || seen.has(placeholder.start)) continue;
    seen.add(placeholder.start);
    actions.push({ kind: 'delete', ops: items.flatMap((item) => item.ops), range: placeholder });
  }
  return actions;
}

export function checkCreatedNames(state: PlanState): void {
  const createdSoFar = new Map<string, Creation>();
  for (const creation of state.creations) {
    if (state.failures.has(creation.index)) continue;
    for (const declared of creation.declared) {
      // A statement's label (`describe`, `test`, `app.get`) is no name: a test file holds many, numbered #1, #2...
      // A nested call's label (`it 'adds'`) is no name either: a suite may hold two tests with one title.
      if (isLabelKind(declared.kind)) continue;
      const clash = creation.children.find(
        (child) =>
          child.name === declared.name &&
          child.kind !== 'import' &&
          kindsCompatible(child.kind, declared.kind) &&
          !isAccessorPair(child.kind, declared.kind) &&
          !state.isDeleted(child) &&
          !state.isRenamed(child),
      );
      if (clash !== undefined) {
        state.fail(creation.index, {
          message: `CREATE_ELEMENT in ${creation.containerPath}: ${clash.path} already exists`,
          hint: `to change it use REPLACE_ELEMENT ${clash.path}; to have both, give the new element another name`,
          suggestions: [clash.path],
        });
        break;
      }
      const key = `${creation.containerKey}|${declared.kind}|${declared.name}`;
      const earlier = createdSoFar.get(key);
      if (earlier !== undefined) {
        state.fail(creation.index, {
          message: `CREATE_ELEMENT in ${creation.containerPath}: operation #${earlier.index + 1} already creates ${describeElement(declared)} there`,
          hint: 'send each element once',
        });
        break;
      }
      createdSoFar.set(key, creation);
    }
  }
}

export function importActions(state: PlanState, failed: (ops: readonly number[]) => boolean): Action[] {
  const actions: Action[] = [];
  const eol = state.style.eol;
  const newByAnchor = new Map<
    string,
    { anchor: ElementNode | undefined; before: boolean; items: { ops: number[]; text: string; block: boolean }[] }
  >();
  for (const declaration of state.imports?.declarations ?? []) {
    if (declaration.ops.length === 0 || failed(declaration.ops)) continue;
    if (declaration.element !== undefined) {
      const element = declaration.element;
      if (declaration.removed) {
        actions.push({ kind: 'delete', ops: declaration.ops, range: element.range });
      } else {
        const range = { start: element.declarationRange.start, end: element.range.end };
        const newText = withEol(toLf(declaration.text), eol);
        if (newText !== state.text.slice(range.start, range.end))
          actions.push({ kind: 'rewrite', ops: declaration.ops, range, newText });
      }
      continue;
    }
    if (declaration.removed) continue;
    const before = declaration.before?.element ?? declaration.beforeCode;
    const anchor = before ?? declaration.after?.element;
    const key = anchor === undefined ? 'top' : `${before === undefined ? 'after' : 'before'}:${anchor.range.start}`;
    const entry = newByAnchor.get(key) ?? { anchor, before: before !== undefined, items: [] };
    entry.items.push({ ops: declaration.ops, text: toLf(declaration.text), block: false });
    newByAnchor.set(key, entry);
  }
  // The first imports of a file with a header (Go's `package` clause) go after it, a blank line between.
  const afterHeader = state.outline.elements.some((e) => state.editor.headsFile?.(e) === true);
  for (const { anchor, before, items: written } of newByAnchor.values()) {
    // Beside an import inside a container (a C# using in a namespace block), at that import's indentation.
    const indent = anchor === undefined ? '' : indentOfLine(state.text, anchor.declarationRange.start);
    const items = written.map((item) => ({ ...item, text: item.text.replace(/^(?=.)/gm, indent) }));
    const slot: Slot =
      anchor === undefined
        ? { kind: 'line', offset: state.editor.topInsertionOffset() }
        : before
          ? { kind: 'before', anchor: anchor.range }
          : { kind: 'after', anchor: anchor.range };
    actions.push({
      kind: 'insert',
      ops: items.flatMap((i) => i.ops),
      container: { flavor: 'file', indent },
      slot,
      items,
      blankLines: { block: 0, line: 0 },
      neighbourBlock: false,
      trailingComma: false,
      ...(anchor === undefined
        ? { minBlankAfter: 1, ...(afterHeader ? { blankBefore: 1 } : {}) }
        : before
          ? { blankAfter: 0 }
          : { blankBefore: 0 }),
    });
  }
  return actions;
}

/** One statement whose declarators the batch edits: rewritten as a whole, or deleted when none is left. */
export function statementAction(state: PlanState, info: DeclaratorInfo, targets: readonly Target[]): Action {
  const ops = targets.flatMap((t) => t.ops);
  const fates = new Map<number, DeclaratorFate>();
  for (const target of targets) {
    const fate: DeclaratorFate =
      target.state === 'deleted'
        ? { state: 'deleted' }
        : { state: target.split ? 'statement' : 'declarator', text: target.text };
    fates.set(target.declarator?.index ?? -1, fate);
  }
  if (Array.from({ length: info.count }, (_, i) => i).every((i) => fates.get(i)?.state === 'deleted')) {
    return { kind: 'delete', ops, range: info.statementRange };
  }
  const start = info.statementStart;
  const lineBreak = state.style.eol + indentOfLine(state.text, start);
  const newText =
    state.editor.declarators?.rewrite(info, fates, lineBreak) ?? state.text.slice(start, info.statementEnd);
  return { kind: 'rewrite', ops, range: { start, end: info.statementEnd }, newText };
}

function isAccessorPair(a: string, b: string): boolean {
  return (a === 'getter' && b === 'setter') || (a === 'setter' && b === 'getter');
}
