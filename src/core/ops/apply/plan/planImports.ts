import { canonicalKind, parseElementPath } from '../../../elements/elementPath';
import type { ImportStep } from '../../../language/importModel';
import type { AddImportOperation, RemoveImportOperation } from '../../operation';
import { normalizeContent } from '../reindent';
import type { PlanState } from './planState';

/**
 * ADD_IMPORT and REMOVE_IMPORT, and imports at the head of top-level content: bindings merged into or taken out of
 * the file's declarations through the language's import book. A language without imports refuses them.
 */

export function planImport(state: PlanState, index: number, op: AddImportOperation | RemoveImportOperation): void {
  const content = normalizeContent(op.content);
  let pathModule: string | undefined;
  try {
    const segment = parseElementPath(op.path).segments[0];
    if (segment !== undefined && canonicalKind(segment.kind) === 'import') pathModule = segment.name;
  } catch {
    // The file part was checked before; a malformed element part is read as no module.
  }
  const label = `${op.type} ${state.file}`;
  if (content === '' && (op.type === 'ADD_IMPORT' || pathModule === undefined)) {
    state.fail(index, {
      message: `${label} has no import declaration`,
      hint:
        op.type === 'ADD_IMPORT'
          ? "write the import, e.g. import { a } from './a';"
          : "write the import to remove, or just its module ('./a')",
    });
    return;
  }
  const imports = state.editor.imports;
  const book = state.imports;
  if (imports === undefined || book === undefined) {
    state.fail(index, {
      message: `${label}: ${state.file} has no import declarations Scalpel can edit`,
      hint: 'write the change as REPLACE_ELEMENT or CREATE_ELEMENT of the code that needs it',
    });
    return;
  }
  if (op.type === 'REMOVE_IMPORT' && (content === '' || !imports.isDeclaration(content))) {
    const module = content === '' ? (pathModule ?? '') : unquote(content);
    changeImports(state, index, label, () => book.remove({ module }, index));
    return;
  }
  importDeclarations(state, index, label, content, op.type === 'ADD_IMPORT' ? 'add' : 'remove');
}

/** Adds or removes the bindings of import declarations written in `content`; false after a failure. */
export function importDeclarations(
  state: PlanState,
  index: number,
  label: string,
  content: string,
  change: 'add' | 'remove',
): boolean {
  const book = state.imports;
  const read = state.editor.imports?.read(content);
  if (read === undefined || book === undefined) {
    state.fail(index, {
      message: `${label}: ${state.file} has no import declarations Scalpel can edit`,
      hint: 'leave the imports out',
    });
    return false;
  }
  if (!read.ok) {
    state.fail(index, {
      message: `${label}: ${read.message}`,
      hint: read.hint ?? "write one import declaration, e.g. import { a } from './a';",
    });
    return false;
  }
  return changeImports(state, index, label, () => {
    for (let i = 0; i < read.imports.length; i++) {
      const shape = read.imports[i];
      const text = read.texts[i] ?? '';
      if (shape === undefined) continue;
      const normalized = state.semicolons && !text.trimEnd().endsWith(';') ? `${text.trimEnd()};` : text;
      const result = change === 'add' ? book.add(shape, normalized, index) : book.remove(shape, index);
      if (!result.ok) return result;
      if (result.note !== undefined) state.notes.set(index, result.note);
    }
    return { ok: true };
  });
}

/** Runs one operation's import changes as a whole; false after a failure. */
export function changeImports(state: PlanState, index: number, label: string, step: () => ImportStep): boolean {
  const book = state.imports;
  if (book === undefined) return false;
  const beforeOps = new Map(book.declarations.map((d) => [d, d.ops.length]));
  const outcome = book.transaction(step);
  if (!outcome.ok) {
    state.fail(index, {
      message: `${label}: ${outcome.message}`,
      hint: outcome.hint,
      ...(outcome.suggestions === undefined ? {} : { suggestions: outcome.suggestions }),
    });
    return false;
  }
  // A declaration an element operation also edits: this operation is refused (its import changes go with it).
  for (const declaration of book.declarations) {
    const element = declaration.element;
    if (element === undefined || (beforeOps.get(declaration) ?? 0) === declaration.ops.length) continue;
    const range = { start: element.range.start, end: element.range.end };
    const target = [...state.targets.values()].find((t) => t.range.start < range.end && range.start < t.range.end);
    if (target !== undefined) {
      state.fail(index, {
        message: `${label} changes the import of '${element.name}', which operation #${(target.ops[0] ?? 0) + 1} already edits as an element`,
        hint: 'use only ADD_IMPORT/REMOVE_IMPORT for imports',
      });
      return false;
    }
    const key = state.keyOf(range);
    const ops = state.importOps.get(key) ?? [];
    if (!ops.includes(index)) ops.push(index);
    state.importOps.set(key, ops);
  }
  return true;
}

/**
 * Top-level code that starts with the imports it needs (a habit of models): the imports are merged into the
 * file's like ADD_IMPORT and the rest is the element. Undefined after a failure.
 */
export function withoutLeadingImports(
  state: PlanState,
  index: number,
  label: string,
  content: string,
): string | undefined {
  const split = state.editor.imports?.splitLeading(content);
  if (split === undefined) return content;
  if (!importDeclarations(state, index, label, split.imports, 'add')) return undefined;
  state.notes.set(index, 'the imports at the head of its content were merged into the imports of the file');
  return split.code;
}

function unquote(text: string): string {
  const trimmed = text.trim().replace(/;$/, '').trim();
  const match = /^(['"`])(.*)\1$/.exec(trimmed);
  return match?.[2] ?? trimmed;
}
