import type { ElementNode } from '../../elements/element';
import type { ImportDeclarationState, ImportShape, ImportStep, NamedBinding } from '../importModel';
import type { ImportBook, ImportPlacement } from '../languageSupport';
import { orderedPlace, type PlacedDeclaration, sortsAfter } from './importPlacement';
import type { ImportSpec } from './languageSpec';

/** An existing declaration: its group (see importPlacement.ts), and whether a new import may be placed beside it. */
export interface ExistingImport {
  readonly element: ElementNode;
  readonly text: string;
  readonly group?: number;
  readonly placeable?: boolean;
}

/**
 * The import declarations of one file through a batch, for a language read by a spec: names are merged into a
 * declaration of the same module that lists names, a module import is added once, and removing the last name of a
 * declaration removes it.
 */
export class SpecImportBook implements ImportBook {
  readonly declarations: ImportDeclarationState[];
  /** The group of each existing declaration a new one may be placed beside (ImportSpec.orderOf). */
  private readonly groups = new Map<ElementNode, number>();

  constructor(
    private readonly spec: ImportSpec,
    existing: readonly ExistingImport[],
    private readonly eol: '\n' | '\r\n',
  ) {
    this.declarations = existing.map((e) => {
      if (e.placeable !== false) this.groups.set(e.element, e.group ?? 0);
      return { element: e.element, text: e.text, removed: false, ops: [], created: false };
    });
  }

  transaction(step: () => ImportStep): ImportStep {
    const saved = this.declarations.map((d) => ({ ...d, ops: [...d.ops] }));
    const result = step();
    if (!result.ok) {
      this.declarations.length = 0;
      this.declarations.push(...saved);
    }
    return result;
  }

  private live(): Array<{ state: ImportDeclarationState; shapes: readonly ImportShape[] }> {
    const found = [];
    for (const state of this.declarations) {
      if (state.removed) continue;
      const shapes = this.spec.parse(state.text);
      if (shapes !== undefined) found.push({ state, shapes });
    }
    return found;
  }

  private touch(state: ImportDeclarationState, opIndex: number, shapes: readonly ImportShape[]): void {
    if (shapes.length === 0) state.removed = true;
    else state.text = this.spec.render(shapes, state.text).replace(/\r?\n/g, this.eol);
    if (!state.ops.includes(opIndex)) state.ops.push(opIndex);
  }

  add(request: ImportShape, text: string, opIndex: number, placement?: ImportPlacement): ImportStep {
    const live = this.live();
    if (this.spec.merge !== undefined && !placement?.separate) {
      const merge = this.spec.merge(
        live.map((l) => ({ text: l.state.text, shapes: l.shapes })),
        request,
        text,
      );
      if (merge?.kind === 'present') return { ok: true, note: merge.note };
      if (merge?.kind === 'clash') return { ok: false, message: merge.message, hint: merge.hint };
      if (merge?.kind === 'separate') {
        this.addDeclaration(request, merge.text, opIndex, placement);
        return { ok: true };
      }
      const target = merge === undefined ? undefined : live[merge.index];
      if (merge !== undefined && target !== undefined) {
        target.state.text = merge.text.replace(/\r?\n/g, this.eol);
        if (!target.state.ops.includes(opIndex)) target.state.ops.push(opIndex);
        return { ok: true };
      }
    } else if (request.hasNamedList) {
      const target = placement?.separate
        ? undefined
        : live.find((l) => l.shapes.length === 1 && l.shapes[0]?.hasNamedList && l.shapes[0].module === request.module);
      const shape = target?.shapes[0];
      if (target !== undefined && shape !== undefined) {
        const has = (n: NamedBinding): boolean => shape.named.some((m) => m.name === n.name && m.imported === n.imported);
        const missing = request.named.filter((n) => !has(n));
        if (missing.length === 0) return { ok: true, note: `already imported from ${request.module}` };
        const clash = missing.find((n) => shape.named.some((m) => m.name === n.name));
        if (clash !== undefined)
          return {
            ok: false,
            message: `'${clash.name}' is already imported from ${request.module} under another name`,
            hint: 'import it under another name, or remove the existing import first',
          };
        this.touch(target.state, opIndex, [{ ...shape, named: merged(shape.named, missing) }]);
        return { ok: true };
      }
    } else if (!placement?.separate) {
      const modules = live.flatMap((l) => l.shapes.filter((s) => !s.hasNamedList));
      if (modules.some((s) => s.module === request.module && s.namespaceName === request.namespaceName))
        return { ok: true, note: `${request.module} is already imported` };
      const covering = modules.find((s) => this.spec.covers?.(s, request) === true);
      if (covering !== undefined) return { ok: true, note: `${request.module} is already imported by ${covering.module}` };
      for (const existing of modules) {
        const clash = this.spec.clashOf?.(existing, request);
        if (clash !== undefined) return { ok: false, ...clash };
      }
    }
    this.addDeclaration(request, text, opIndex, placement);
    return { ok: true };
  }

  private addDeclaration(request: ImportShape, text: string, opIndex: number, placement: ImportPlacement | undefined): void {
    const base: ImportDeclarationState = {
      element: undefined,
      text: text.trim().replace(/\r?\n/g, this.eol),
      removed: false,
      ops: [opIndex],
      created: true,
    };
    if (this.spec.heads?.(request) === true) {
      // At the top of the file, before every other import and before the other new ones placed there.
      const firstTop = this.declarations.findIndex((d) => d.created && d.after === undefined && d.before === undefined);
      if (firstTop < 0) this.declarations.push(base);
      else this.declarations.splice(firstTop, 0, base);
      return;
    }
    const existing = this.declarations.filter((d) => !d.created);
    const ordered = placement === undefined ? this.orderedPlace(request) : undefined;
    const before =
      ordered?.before ?? (placement?.before === undefined ? undefined : existing.find((d) => d.element === placement.before));
    const after =
      ordered?.after ??
      (placement?.after === undefined
        ? before === undefined
          ? existing.at(-1)
          : undefined
        : existing.find((d) => d.element === placement.after));
    const created: ImportDeclarationState = {
      ...base,
      ...(after === undefined ? {} : { after }),
      ...(before === undefined ? {} : { before }),
    };
    // Several new ones at one place keep their sorted order among themselves.
    const order = this.spec.orderOf;
    const sibling =
      ordered === undefined || order === undefined
        ? -1
        : this.declarations.findIndex((d) => {
            const samePlace = d.created && d.after?.element === after?.element && d.before?.element === before?.element;
            const shape = samePlace ? this.spec.parse(d.text)?.[0] : undefined;
            return shape !== undefined && sortsAfter(order(shape), order(request));
          });
    if (sibling < 0) this.declarations.push(created);
    else this.declarations.splice(sibling, 0, created);
  }

  /** Where a language that orders its imports puts a new one; undefined: after the last import. */
  private orderedPlace(request: ImportShape): ReturnType<typeof orderedPlace> {
    const order = this.spec.orderOf;
    if (order === undefined) return undefined;
    const placed: PlacedDeclaration[] = [];
    for (const state of this.declarations) {
      const group = state.element === undefined ? undefined : this.groups.get(state.element);
      const shape = state.removed || group === undefined ? undefined : this.spec.parse(state.text)?.[0];
      if (shape !== undefined && group !== undefined) placed.push({ state, order: order(shape), group });
    }
    return orderedPlace(placed, order(request));
  }

  remove(request: ImportShape | { readonly module: string }, opIndex: number): ImportStep {
    const live = this.live().filter((l) => l.shapes.some((s) => s.module === request.module));
    if (live.length === 0 && !('named' in request)) {
      // The name of a declaration's element path (`import[errors,strings]`, a Rust use tree): that declaration.
      const named = this.live().filter((l) => l.state.element?.name === request.module);
      for (const { state } of named) this.touch(state, opIndex, []);
      if (named.length > 0) return { ok: true };
    }
    if (live.length === 0) {
      return {
        ok: false,
        message: `nothing is imported from ${request.module}`,
        hint: 'remove only imports the file has',
        suggestions: this.live().flatMap((l) => l.shapes.map((s) => s.module)),
      };
    }
    const names = 'named' in request && request.hasNamedList ? request.named : undefined;
    if (names === undefined || names.length === 0) {
      // The whole module goes, from every declaration that imports it.
      for (const { state, shapes } of live) this.touch(state, opIndex, shapes.filter((s) => s.module !== request.module));
      return { ok: true };
    }
    let found = 0;
    for (const { state, shapes } of live) {
      const next = shapes.map((s) =>
        s.module !== request.module || !s.hasNamedList
          ? s
          : { ...s, named: s.named.filter((n) => !names.some((r) => r.name === n.name || (r.imported === n.imported && r.name === r.imported))) },
      );
      const before = shapes.reduce((sum, s) => sum + s.named.length, 0);
      const after = next.reduce((sum, s) => sum + s.named.length, 0);
      if (after === before) continue;
      found += before - after;
      this.touch(
        state,
        opIndex,
        next.filter((s) => !s.hasNamedList || s.named.length > 0),
      );
    }
    if (found === 0) {
      return {
        ok: false,
        message: `${names.map((n) => n.name).join(', ')} is not imported from ${request.module}`,
        hint: 'remove only names the file imports',
        suggestions: live.flatMap((l) => l.shapes.flatMap((s) => s.named.map((n) => n.name))),
      };
    }
    return { ok: true };
  }
}

/** Names added to a list: in their sorted places when the list is sorted (case-sensitively or not), else at its end. */
function merged(existing: readonly NamedBinding[], added: readonly NamedBinding[]): NamedBinding[] {
  const orders: Array<(a: string, b: string) => number> = [
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    (a, b) => a.toLowerCase().localeCompare(b.toLowerCase()),
  ];
  const names = existing.map((n) => n.imported);
  const order = orders.find((compare) => names.every((name, i) => i === 0 || compare(names[i - 1] ?? '', name) <= 0));
  if (order === undefined || existing.length < 2) return [...existing, ...added];
  const result = [...existing];
  for (const binding of added) {
    const at = result.findIndex((n) => order(n.imported, binding.imported) > 0);
    result.splice(at < 0 ? result.length : at, 0, binding);
  }
  return result;
}
