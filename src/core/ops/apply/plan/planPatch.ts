import type { ElementNode, TextRange } from '../../../elements/element';
import type { PatchElementOperation } from '../../operation';
import { applyPatches } from '../patchMatch';
import { indentOfLine, toLf } from '../textStyle';
import type { PlanState, Target } from './planState';

/** PATCH_ELEMENT: SEARCH/REPLACE pairs inside one element; after the patch the element must still parse as itself. */

export function planPatch(state: PlanState, index: number, op: PatchElementOperation): void {
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
  if (existing !== undefined) {
    existing.text = patched;
    existing.ops.push(index);
    if (existing.state !== 'replaced') existing.state = 'patched';
    return;
  }
  state.targets.set(key, { ...probe, text: patched });
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
