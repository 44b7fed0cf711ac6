import type { ElementNode, FileOutline } from '../src/core/elements/element';
import { walkElements } from '../src/core/elements/resolve';
import type { Operation } from '../src/core/ops/operation';

/**
 * A batch of edits a model could send for a large file, spread over it: a patch inside a function, a replaced
 * function, a patched method, a deleted declaration, a created function and an added import. Every kind of element
 * operation takes part, so that apply + verify of the batch costs what a real answer costs.
 */
export function editBatchFor(outline: FileOutline): Operation[] {
  const topLevel = outline.elements.filter((e) => e.kind !== 'import');
  const functions = topLevel.filter(
    (e) => e.kind === 'function' && e.bodyRange !== undefined && e.overloads === undefined,
  );
  const methods = [...walkElements(topLevel)].filter(
    (e) => e.kind === 'method' && e.bodyRange !== undefined && e.overloads === undefined,
  );
  const at = <T>(list: readonly T[], fraction: number): T | undefined => list[Math.floor(list.length * fraction)];
  const chosen = new Set<string>();
  const pick = (list: readonly ElementNode[], fraction: number): ElementNode | undefined => {
    for (let i = Math.floor(list.length * fraction); i < list.length; i++) {
      const element = list[i];
      if (element !== undefined && !chosen.has(element.path)) {
        chosen.add(element.path);
        return element;
      }
    }
    return undefined;
  };

  const operations: Operation[] = [
    { type: 'ADD_IMPORT', path: outline.file, content: "import { benchHelper } from './bench-helper';" },
  ];
  const patched = pick(functions, 0.15);
  if (patched !== undefined) operations.push(patchOf(outline, patched));
  const replaced = pick(functions, 0.35);
  if (replaced !== undefined) {
    const text = outline.text.slice(replaced.range.start, replaced.range.end);
    operations.push({
      type: 'REPLACE_ELEMENT',
      path: replaced.path,
      content: `/** Replaced by the bench. */\n${text}`,
    });
  }
  const method = pick(methods, 0.5);
  if (method !== undefined) operations.push(patchOf(outline, method));
  const deleted = pick(
    topLevel.filter((e) => e.kind === 'type' || e.kind === 'interface'),
    0.65,
  );
  if (deleted !== undefined) operations.push({ type: 'DELETE_ELEMENT', path: deleted.path });
  const neighbour = at(
    topLevel.filter((e) => !chosen.has(e.path)),
    0.85,
  );
  if (neighbour !== undefined) {
    operations.push({
      type: 'CREATE_ELEMENT',
      path: outline.file,
      position: { kind: 'AFTER', sibling: neighbour.path.slice(outline.file.length + 1) },
      content: 'export function createdByTheBench(input: number): number {\n  return benchHelper(input) * 2;\n}',
      elementKind: 'function',
    });
  }
  return operations;
}

/** Inserts a statement after the first line of the body, found by a search that occurs once in the element. */
function patchOf(outline: FileOutline, element: ElementNode): Operation {
  const text = outline.text.slice(element.range.start, element.range.end);
  const bodyStart = (element.bodyRange?.start ?? element.range.start) - element.range.start;
  const lineEnd = text.indexOf('\n', bodyStart);
  const search = text.slice(text.lastIndexOf('\n', bodyStart) + 1, lineEnd < 0 ? text.length : lineEnd);
  const indent = /^[ \t]*/.exec(text.slice(lineEnd + 1))?.[0] ?? '  ';
  return {
    type: 'PATCH_ELEMENT',
    path: element.path,
    patches: [{ search, replace: `${search}\n${indent}void 'patched by the bench';` }],
  };
}
