import type { ElementNode } from '../../elements/element';
import type { ImportBook, ImportPlacement } from '../languageSupport';
import type { ImportDeclarationState, ImportShape, ImportStep, NamedBinding } from '../importModel';
import {
  type ImportLayout,
  isSideEffectOnly,
  localNames,
  parseDeclaration,
  renderDeclaration,
  rewriteDeclaration,
} from './imports';

/**
 * The import declarations of one file through a batch: ADD_IMPORT and REMOVE_IMPORT change them one after the
 * other (merging into an existing declaration of the same module, keeping `import type` apart from value imports),
 * and the result is a set of rewritten, removed and new declarations.
 */

export type DeclarationState = ImportDeclarationState;

interface Live {
  readonly state: DeclarationState;
  readonly shape: ImportShape;
}

export type { ImportStep };

export class ImportPlan implements ImportBook {
  readonly declarations: DeclarationState[];

  constructor(
    existing: readonly { element: ElementNode; text: string }[],
    private readonly layout: ImportLayout,
    private readonly file: string,
  ) {
    this.declarations = existing.map((e) => ({
      element: e.element,
      text: e.text,
      removed: false,
      ops: [],
      created: false,
    }));
  }

  private live(): Live[] {
    const found: Live[] = [];
    for (const state of this.declarations) {
      if (state.removed) continue;
      const parsed = parseDeclaration(state.text);
      if (parsed !== undefined) found.push({ state, shape: parsed.shape });
    }
    return found;
  }

  /** Runs one operation's changes; on failure nothing of it stays. */
  transaction(step: () => ImportStep): ImportStep {
    const saved = this.declarations.map((d) => ({ ...d, ops: [...d.ops] }));
    const result = step();
    if (!result.ok) {
      this.declarations.length = 0;
      this.declarations.push(...saved);
    }
    return result;
  }

  private touch(state: DeclarationState, opIndex: number, text: string | undefined): void {
    if (text === undefined) state.removed = true;
    else state.text = text;
    if (!state.ops.includes(opIndex)) state.ops.push(opIndex);
  }

  private addDeclaration(
    shape: ImportShape,
    text: string | undefined,
    opIndex: number,
    placement?: ImportPlacement,
  ): void {
    const rendered = text ?? renderDeclaration(shape, this.layout);
    const existing = this.declarations.filter((d) => !d.created);
    // Where the new declaration goes: beside the import it is placed at, before the code it is placed at, else next
    // to the module's own imports (even one this batch removes), else after the last import.
    const where = ((): Pick<DeclarationState, 'after' | 'before' | 'beforeCode'> => {
      if (placement !== undefined) {
        const after = existing.find((d) => placement.after !== undefined && d.element === placement.after);
        const before = existing.find((d) => placement.before !== undefined && d.element === placement.before);
        if (after !== undefined || before !== undefined)
          return { ...(after === undefined ? {} : { after }), ...(before === undefined ? {} : { before }) };
        if (placement.before !== undefined && placement.before.kind !== 'import')
          return { beforeCode: placement.before };
      }
      const anchor =
        [...existing].reverse().find((d) => d.element?.name === shape.module) ?? existing[existing.length - 1];
      return anchor === undefined ? {} : { after: anchor };
    })();
    this.declarations.push({
      element: undefined,
      text: rendered,
      removed: false,
      ops: [opIndex],
      created: true,
      ...where,
    });
  }

  private rewrite(
    live: Live,
    wanted: { defaultName?: string; namespaceName?: string; named: readonly NamedBinding[]; order?: readonly string[] },
    opIndex: number,
  ): void {
    this.touch(live.state, opIndex, rewriteDeclaration(live.state.text, wanted, this.layout));
  }

  /** ADD_IMPORT of one declaration; `text` is how it was written, used when it is added as a whole. */
  add(request: ImportShape, text: string, opIndex: number, placement?: ImportPlacement): ImportStep {
    const all = this.live();
    const sameModule = all.filter((l) => l.shape.module === request.module);
    for (const name of localNames(request)) {
      const clash = all.find((l) => l.shape.module !== request.module && localNames(l.shape).includes(name));
      if (clash !== undefined) {
        return {
          ok: false,
          message: `"${name}" is already imported from '${clash.shape.module}' in ${this.file}`,
          hint: `import it under another name (\`import { ${name} as other${name.charAt(0).toUpperCase()}${name.slice(1)} } ...\`) or remove the other import first`,
        };
      }
    }
    // A placed import that cannot merge (a value import of a module imported only with `import type`, or the
    // reverse) is a declaration of its own, and goes where it was placed, not next to the module's other import.
    const requestNames = localNames(request);
    const standsAlone =
      placement !== undefined &&
      !sameModule.some((l) => l.shape.typeOnly === request.typeOnly && l.shape.equalsName === undefined) &&
      !sameModule.some((l) => localNames(l.shape).some((name) => requestNames.includes(name)));
    if (sameModule.length === 0 || placement?.separate === true || standsAlone) {
      this.addDeclaration(request, text, opIndex, placement);
      return { ok: true };
    }
    if (isSideEffectOnly(request)) return { ok: true, note: `'${request.module}' is already imported` };
    if (request.equalsName !== undefined) {
      if (sameModule.some((l) => l.shape.equalsName === request.equalsName))
        return { ok: true, note: 'already imported' };
      this.addDeclaration(request, text, opIndex);
      return { ok: true };
    }
    let changed = false;
    if (
      request.namespaceName !== undefined &&
      !sameModule.some((l) => l.shape.namespaceName === request.namespaceName)
    ) {
      const target = sameModule.find(
        (l) =>
          l.shape.typeOnly === request.typeOnly &&
          l.shape.defaultName !== undefined &&
          !l.shape.hasNamedList &&
          l.shape.namespaceName === undefined,
      );
      if (target !== undefined) {
        this.rewrite(
          target,
          { ...withDefault(target.shape.defaultName), namespaceName: request.namespaceName, named: [] },
          opIndex,
        );
      } else {
        this.addDeclaration(
          {
            module: request.module,
            typeOnly: request.typeOnly,
            namespaceName: request.namespaceName,
            named: [],
            hasNamedList: false,
          },
          undefined,
          opIndex,
        );
      }
      changed = true;
    }
    if (request.defaultName !== undefined) {
      const result = this.addDefault(request, opIndex);
      if (!result.ok) return result;
      changed ||= result.changed;
    }
    const missing: NamedBinding[] = [];
    for (const binding of request.named) {
      const result = this.addNamed(request, binding, opIndex);
      if (!result.ok) return result;
      if (result.missing) missing.push(binding);
      changed ||= result.changed;
    }
    if (missing.length > 0) {
      const current = this.live().filter((l) => l.shape.module === request.module);
      const target = current.find(
        (l) =>
          l.shape.typeOnly === request.typeOnly &&
          l.shape.namespaceName === undefined &&
          l.shape.equalsName === undefined &&
          !(request.typeOnly && l.shape.defaultName !== undefined),
      );
      if (target !== undefined) {
        this.rewrite(
          target,
          {
            ...withDefault(target.shape.defaultName),
            named: [...target.shape.named, ...missing],
            order: request.named.map((n) => n.name),
          },
          opIndex,
        );
      } else {
        this.addDeclaration(
          { module: request.module, typeOnly: request.typeOnly, named: missing, hasNamedList: true },
          undefined,
          opIndex,
        );
      }
      changed = true;
    }
    return changed
      ? { ok: true }
      : { ok: true, note: `everything it names is already imported from '${request.module}'` };
  }

  private addDefault(
    request: ImportShape,
    opIndex: number,
  ): { ok: true; changed: boolean } | (ImportStep & { ok: false }) {
    const name = request.defaultName ?? '';
    const sameModule = this.live().filter((l) => l.shape.module === request.module);
    if (sameModule.some((l) => l.shape.defaultName === name)) return { ok: true, changed: false };
    const target = sameModule.find(
      (l) =>
        l.shape.defaultName === undefined &&
        l.shape.typeOnly === request.typeOnly &&
        l.shape.equalsName === undefined &&
        !(request.typeOnly && (l.shape.hasNamedList || l.shape.namespaceName !== undefined)) &&
        !isSideEffectOnly(l.shape),
    );
    if (target !== undefined) {
      this.rewrite(
        target,
        {
          defaultName: name,
          ...(target.shape.namespaceName === undefined ? {} : { namespaceName: target.shape.namespaceName }),
          named: target.shape.named,
        },
        opIndex,
      );
    } else {
      this.addDeclaration(
        { module: request.module, typeOnly: request.typeOnly, defaultName: name, named: [], hasNamedList: false },
        undefined,
        opIndex,
      );
    }
    return { ok: true, changed: true };
  }

  private addNamed(
    request: ImportShape,
    binding: NamedBinding,
    opIndex: number,
  ): { ok: true; changed: boolean; missing: boolean } | (ImportStep & { ok: false }) {
    const sameModule = this.live().filter((l) => l.shape.module === request.module);
    const holder = sameModule.find((l) => l.shape.named.some((n) => n.name === binding.name));
    const existing = holder?.shape.named.find((n) => n.name === binding.name);
    if (holder === undefined || existing === undefined) return { ok: true, changed: false, missing: true };
    if (existing.imported !== binding.imported) {
      return {
        ok: false,
        message: `"${binding.name}" is already imported from '${request.module}' as the export "${existing.imported}"`,
        hint: 'import the other export under a different local name',
      };
    }
    const existingIsType = holder.shape.typeOnly || existing.typeOnly;
    const wantsType = request.typeOnly || binding.typeOnly;
    if (!existingIsType || wantsType) return { ok: true, changed: false, missing: false };
    // A type-only import now needed as a value.
    const onlyBinding =
      holder.shape.named.length === 1 &&
      holder.shape.defaultName === undefined &&
      holder.shape.namespaceName === undefined;
    const valueImport = sameModule.find(
      (l) => !l.shape.typeOnly && l.shape.namespaceName === undefined && l.state !== holder.state,
    );
    if (holder.shape.typeOnly && onlyBinding && valueImport === undefined) {
      this.touch(holder.state, opIndex, holder.state.text.replace(/^(\s*import)\s+type\b/, '$1'));
      return { ok: true, changed: true, missing: false };
    }
    if (!holder.shape.typeOnly) {
      const named = holder.shape.named.map((n) => (n.name === binding.name ? { ...n, typeOnly: false } : n));
      this.rewrite(holder, { ...withDefault(holder.shape.defaultName), named }, opIndex);
      return { ok: true, changed: true, missing: false };
    }
    this.rewrite(
      holder,
      {
        ...withDefault(holder.shape.defaultName),
        ...(holder.shape.namespaceName === undefined ? {} : { namespaceName: holder.shape.namespaceName }),
        named: holder.shape.named.filter((n) => n.name !== binding.name),
      },
      opIndex,
    );
    return { ok: true, changed: true, missing: true };
  }

  /** REMOVE_IMPORT: the bindings the request names, or every declaration of the module. */
  remove(request: ImportShape | { readonly module: string }, opIndex: number): ImportStep {
    const all = this.live();
    const sameModule = all.filter((l) => l.shape.module === request.module);
    if (sameModule.length === 0) {
      const modules = [...new Set(all.map((l) => l.shape.module))];
      return {
        ok: false,
        message: `${this.file} has no import of '${request.module}'`,
        hint:
          modules.length === 0 ? 'the file imports nothing' : `it imports: ${modules.map((m) => `'${m}'`).join(', ')}`,
        suggestions: modules.map((m) => `${this.file}/import[${m}]`),
      };
    }
    if (!('named' in request) || isSideEffectOnly(request)) {
      for (const live of sameModule) this.touch(live.state, opIndex, undefined);
      return { ok: true };
    }
    const imported = sameModule.flatMap((l) => localNames(l.shape));
    for (const name of localNames(request)) {
      const holder = this.live().find((l) => l.shape.module === request.module && localNames(l.shape).includes(name));
      if (holder === undefined) {
        return {
          ok: false,
          message: `"${name}" is not imported from '${request.module}' in ${this.file}`,
          hint: `it imports ${imported.map((n) => `"${n}"`).join(', ') || 'nothing by name'} from there`,
        };
      }
      const shape = holder.shape;
      this.rewrite(
        holder,
        {
          ...(shape.defaultName === undefined || shape.defaultName === name ? {} : { defaultName: shape.defaultName }),
          ...(shape.namespaceName === undefined || shape.namespaceName === name
            ? {}
            : { namespaceName: shape.namespaceName }),
          named: shape.named.filter((n) => n.name !== name),
        },
        opIndex,
      );
      if (shape.equalsName === name) this.touch(holder.state, opIndex, undefined);
    }
    return { ok: true };
  }
}

function withDefault(name: string | undefined): { defaultName?: string } {
  return name === undefined ? {} : { defaultName: name };
}
