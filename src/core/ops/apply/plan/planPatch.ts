import type { ElementNode, TextRange } from '../../../elements/element';
import { parseElementPath } from '../../../elements/elementPath';
import type { PatchElementOperation } from '../../operation';
import { applyPatches } from '../patchMatch';
import { indentOfLine, toLf } from '../textStyle';
import { frameRanges, patchFrames } from './planFrame';
import type { PlanState, Target } from './planState';

/**
 * PATCH_ELEMENT: SEARCH/REPLACE pairs inside one element; after the patch the element must still parse as itself.
 * A patch of a container that changes only its own text outside its members, and a patch of the file itself (its text
 * between top-level elements), rewrite just that text (planFrame.ts), so operations on the members compose with it.
 */

export function planPatch(state: PlanState, index: number, op: PatchElementOperation): void {
  if (namesFile(op.path)) {
    planFilePatch(state, index, op);
    return;
  }
  const resolved = state.resolve(index, op.path);
  if (resolved === undefined) return;
  const { element, node } = resolved;
  const label = `PATCH_ELEMENT ${node.path}`;
  if (op.patches.length === 0) {
    state.fail(index, {
      message: `${label} has no SEARCH/REPLACE pair`,
      hint: 'give at least one SEARCH/REPLACE pair',
    });
    return;
  }
  const probe = state.newTarget(element, node, index, 'patched', '');
  const key = state.keyOf(probe.range);
  const existing = state.targets.get(key);
  if (existing?.state === 'deleted') {
    state.fail(index, {
      message: `${label} conflicts with operation #${(existing.ops[0] ?? 0) + 1}, which deletes that element`,
      hint: 'either delete the element or patch it, not both',
    });
    return;
  }
  if (
    existing === undefined &&
    node === element &&
    probe.declarator === undefined &&
    element.children.length > 0 &&
    op.patches.length > 0 &&
    planFramePatch(state, index, op, probe, label)
  )
    return;
  if (existing === undefined && state.collides(index, probe.range, label)) return;
  const originalText = state.text.slice(probe.range.start, probe.range.end);
  const current = existing?.text ?? originalText;
  const outcome = applyPatches(
    {
      text: current,
      firstLine: node.startLine,
      describe: node.path,
      indent: state.style.indent,
      scanCode: state.scanCode,
      indentBlocks: state.indentBlocks,
    },
    op.patches,
  );
  if (!outcome.ok) {
    const pair = op.patches[outcome.pair];
    const elsewhere =
      outcome.reason === 'notFound' && pair !== undefined ? whereElse(state, pair.search, probe.range) : undefined;
    state.fail(index, {
      message: outcome.message,
      hint: elsewhere === undefined ? outcome.hint : `that text is in ${elsewhere}: patch that element instead`,
      ...(elsewhere === undefined ? {} : { suggestions: [elsewhere] }),
    });
    return;
  }
  const patched = outcome.text;
  if (state.refusePlaceholder(index, toLf(patched), toLf(originalText))) return;
  if (!checkPatched(state, index, label, probe, element, node, patched, existing?.split ?? false)) return;
  noteTolerance(state, index, outcome.tolerantPairs);
  if (existing !== undefined) {
    existing.text = patched;
    existing.ops.push(index);
    if (existing.state !== 'replaced') existing.state = 'patched';
    return;
  }
  state.targets.set(key, { ...probe, text: patched });
}

/** The operation's result says which SEARCH blocks matched only once whitespace was ignored. */
export function noteTolerance(state: PlanState, index: number, pairs: readonly number[]): void {
  const [only] = pairs;
  if (only === undefined) return;
  const which =
    pairs.length === 1 ? `SEARCH block ${only}` : `SEARCH blocks ${pairs.slice(0, -1).join(', ')} and ${pairs.at(-1)}`;
  const note = `${which} matched only with whitespace ignored (indentation, tabs or spaces, spacing); the replacement follows the file's indentation`;
  const earlier = state.notes.get(index);
  state.notes.set(index, earlier === undefined ? note : `${earlier}; ${note}`);
}

function namesFile(path: string): boolean {
  try {
    return parseElementPath(path).segments.length === 0;
  } catch {
    return false;
  }
}

/**
 * A patch of a container whose every change lies in its own text: the changed frames become the targets. False when
 * some change touches a member: then it is an ordinary patch of the whole element.
 */
function planFramePatch(
  state: PlanState,
  index: number,
  op: PatchElementOperation,
  probe: Target,
  label: string,
): boolean {
  const { element, node } = probe;
  const outcome = patchFrames(state, element, op.patches);
  if (!outcome.ok) return false;
  const ranges = frameRanges(state, element);
  const changed = ranges.filter((range, i) => outcome.frames[i] !== currentFrameText(state, range));
  for (const range of changed) if (state.collides(index, range, label)) return true;
  const originalText = state.text.slice(probe.range.start, probe.range.end);
  const patched = outcome.frames
    .map((frame, i) => {
      const member = element.children[i];
      return member === undefined ? frame : frame + state.text.slice(member.range.start, member.range.end);
    })
    .join('');
  if (state.refusePlaceholder(index, toLf(patched), toLf(originalText))) return true;
  const key = state.keyOf(node.range);
  const renamed = state.renames.has(key);
  if (!checkPatched(state, index, label, probe, element, node, patched, false)) return true;
  if (!renamed && state.renames.has(key)) {
    // A new name changes the paths of the members too: planned as a patch of the whole element instead.
    state.renames.delete(key);
    state.renamedBy.delete(index);
    return false;
  }
  recordFrames(state, index, element, probe.parentChain, ranges, outcome.frames);
  noteTolerance(state, index, outcome.tolerantPairs);
  return true;
}

/** PATCH_ELEMENT of the file: only its text between top-level elements (comments, blank lines) may change. */
function planFilePatch(state: PlanState, index: number, op: PatchElementOperation): void {
  const label = `PATCH_ELEMENT ${state.file}`;
  if (op.patches.length === 0) {
    state.fail(index, {
      message: `${label} has no SEARCH/REPLACE pair`,
      hint: 'give at least one SEARCH/REPLACE pair',
    });
    return;
  }
  const outcome = patchFrames(state, undefined, op.patches);
  if (!outcome.ok) {
    const pair = op.patches[outcome.pair];
    const inside = pair === undefined ? undefined : whereElse(state, pair.search, { start: 0, end: 0 });
    const block = `SEARCH block ${outcome.pair + 1} of ${label}`;
    state.fail(index, {
      message:
        outcome.reason === 'ambiguous'
          ? `${block} matches more than one place in the file`
          : outcome.reason === 'member' || inside !== undefined
            ? `${block} changes the code of ${inside ?? 'an element'}; a patch of the file changes only the text between its top-level elements (comments, blank lines)`
            : `${block} matches nothing in the text between the file's top-level elements`,
      hint:
        inside !== undefined
          ? `patch ${inside} instead`
          : outcome.reason === 'ambiguous'
            ? 'add the lines around the change to SEARCH until it matches only one place'
            : 'copy the SEARCH lines exactly from the file',
      ...(inside === undefined ? {} : { suggestions: [inside] }),
    });
    return;
  }
  const ranges = frameRanges(state, undefined);
  const changed = ranges.filter((range, i) => outcome.frames[i] !== currentFrameText(state, range));
  for (const range of changed) if (state.collides(index, range, label)) return;
  const original = ranges.map((range) => state.text.slice(range.start, range.end)).join('\n');
  if (state.refusePlaceholder(index, toLf(outcome.frames.join('\n')), toLf(original))) return;
  recordFrames(state, index, undefined, [], ranges, outcome.frames);
  noteTolerance(state, index, outcome.tolerantPairs);
}

function currentFrameText(state: PlanState, range: TextRange): string {
  return state.frames.get(state.keyOf(range))?.text ?? state.text.slice(range.start, range.end);
}

function recordFrames(
  state: PlanState,
  index: number,
  owner: ElementNode | undefined,
  parentChain: readonly string[],
  ranges: readonly TextRange[],
  frames: readonly string[],
): void {
  for (const [i, range] of ranges.entries()) {
    const text = frames[i];
    if (text === undefined || text === currentFrameText(state, range)) continue;
    const key = state.keyOf(range);
    const existing = state.frames.get(key);
    if (existing !== undefined) {
      existing.text = text;
      existing.ops.push(index);
    } else {
      state.frames.set(key, { range, text, ops: [index], owner, parentChain });
    }
  }
}

/** The element outside `range` whose text holds `search`, for a hint. */
export function whereElse(state: PlanState, search: string, range: TextRange): string | undefined {
  const wanted = search.replace(/\r\n?/g, '\n').trim();
  if (wanted === '') return undefined;
  const at = toLf(state.text).indexOf(wanted);
  if (at < 0) return undefined;
  const lfOffsetToText = (lfOffset: number): number => {
    let crs = 0;
    for (let i = 0, seen = 0; i < state.text.length && seen < lfOffset; i++) {
      if (state.text.charCodeAt(i) === 13 && state.text.charCodeAt(i + 1) === 10) crs += 1;
      else seen += 1;
    }
    return lfOffset + crs;
  };
  const offset = lfOffsetToText(at);
  if (range.start <= offset && offset < range.end) return undefined;
  let found: ElementNode | undefined;
  let level = state.outline.elements;
  for (;;) {
    const hit = level.find((e) => e.range.start <= offset && offset < e.range.end);
    if (hit === undefined) break;
    found = hit;
    level = hit.children;
  }
  return found?.path;
}

/** After a patch the element must still parse as itself. */
export function checkPatched(
  state: PlanState,
  index: number,
  label: string,
  probe: Target,
  element: ElementNode,
  node: ElementNode,
  patched: string,
  split: boolean,
): boolean {
  const code = toLf(patched);
  if (probe.declarator !== undefined) {
    const name = probe.element.name;
    if (state.editor.declarators?.declares(probe.declarator, code, name, split) !== true) {
      state.fail(index, {
        message: `${label}: after the patch, the declaration of ${name} no longer parses as one variable`,
        hint: 'check the REPLACE text of each pair',
      });
      return false;
    }
    return true;
  }
  // Measured as the element sits: the first line at its column, the rest with their indentation.
  const indent = indentOfLine(state.text, node.range.start);
  const shape = state.editor.shapeOf(indent + code, probe.flavor);
  const problem = shape.syntaxErrors[0];
  if (problem !== undefined) {
    state.fail(index, {
      message: `${label}: after the patch the element does not parse: ${problem.message} (line ${problem.line} of the patched element)`,
      hint: 'check that every SEARCH/REPLACE pair keeps brackets and quotes balanced',
    });
    return false;
  }
  return state.checkDeclaresOrRename(index, label, shape.elements, element, node);
}
