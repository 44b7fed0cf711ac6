import { ts } from 'ts-morph';
import type { ImportContent } from '../languageSupport';
import type { ImportShape, NamedBinding } from '../importModel';
import { startsWithKeyword } from './syntaxText';
import { parseSource } from './typescriptOutline';

/**
 * Import declarations as sets of bindings, and the smallest text changes that add or remove bindings. A declaration
 * is re-read from its current text before every change, so several ADD_IMPORT/REMOVE_IMPORT operations of a batch
 * compose on one declaration.
 */

export type { ImportShape, NamedBinding };

export function isSideEffectOnly(shape: ImportShape): boolean {
  return (
    shape.defaultName === undefined &&
    shape.namespaceName === undefined &&
    shape.equalsName === undefined &&
    !shape.hasNamedList
  );
}

export function localNames(shape: ImportShape): string[] {
  return [
    ...(shape.defaultName === undefined ? [] : [shape.defaultName]),
    ...(shape.namespaceName === undefined ? [] : [shape.namespaceName]),
    ...(shape.equalsName === undefined ? [] : [shape.equalsName]),
    ...shape.named.map((n) => n.name),
  ];
}

function parseDeclarations(text: string): ts.SourceFile {
  return ts.createSourceFile('import.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function shapeOf(statement: ts.ImportDeclaration | ts.ImportEqualsDeclaration): ImportShape | undefined {
  if (ts.isImportEqualsDeclaration(statement)) {
    const reference = statement.moduleReference;
    if (!ts.isExternalModuleReference(reference) || !ts.isStringLiteral(reference.expression)) return undefined;
    return {
      module: reference.expression.text,
      typeOnly: statement.isTypeOnly,
      equalsName: statement.name.text,
      named: [],
      hasNamedList: false,
    };
  }
  if (!ts.isStringLiteral(statement.moduleSpecifier)) return undefined;
  const clause = statement.importClause;
  const bindings = clause?.namedBindings;
  const named =
    bindings !== undefined && ts.isNamedImports(bindings)
      ? bindings.elements.map((e) => ({
          name: e.name.text,
          imported: e.propertyName === undefined ? e.name.text : e.propertyName.text,
          typeOnly: e.isTypeOnly,
        }))
      : [];
  return {
    module: statement.moduleSpecifier.text,
    typeOnly: clause?.isTypeOnly === true,
    named,
    hasNamedList: bindings !== undefined && ts.isNamedImports(bindings),
    ...(clause?.name === undefined ? {} : { defaultName: clause.name.text }),
    ...(bindings !== undefined && ts.isNamespaceImport(bindings) ? { namespaceName: bindings.name.text } : {}),
  };
}

/** Reads the import declarations an ADD_IMPORT or REMOVE_IMPORT carries. */
export function readImportContent(content: string): ImportContent {
  const sourceFile = parseDeclarations(content);
  const diagnostics = (sourceFile as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics ?? [];
  const first = diagnostics[0];
  if (first !== undefined) {
    return {
      ok: false,
      message: `the import does not parse: ${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`,
    };
  }
  const imports: ImportShape[] = [];
  const texts: string[] = [];
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isImportEqualsDeclaration(statement)) {
      return {
        ok: false,
        message: `"${statement.getText(sourceFile).split('\n')[0] ?? ''}" is not an import declaration`,
      };
    }
    const shape = shapeOf(statement);
    if (shape === undefined) return { ok: false, message: 'the import names no module as a string' };
    imports.push(shape);
    texts.push(statement.getText(sourceFile));
  }
  if (imports.length === 0) return { ok: false, message: 'no import declaration was given' };
  return { ok: true, imports, texts };
}

/** The shape of one declaration's current text, with its syntax nodes for editing. */
interface ParsedDeclaration {
  readonly sourceFile: ts.SourceFile;
  readonly statement: ts.ImportDeclaration | ts.ImportEqualsDeclaration;
  readonly shape: ImportShape;
}

export function parseDeclaration(text: string): ParsedDeclaration | undefined {
  const sourceFile = parseDeclarations(text);
  const statement = sourceFile.statements[0];
  if (statement === undefined || (!ts.isImportDeclaration(statement) && !ts.isImportEqualsDeclaration(statement))) {
    return undefined;
  }
  const shape = shapeOf(statement);
  return shape === undefined ? undefined : { sourceFile, statement, shape };
}

export interface ImportLayout {
  readonly quote: "'" | '"';
  readonly semicolon: boolean;
  /** `{ a }` rather than `{a}`. */
  readonly braceSpacing: boolean;
  readonly eol: string;
}

function bindingText(binding: NamedBinding): string {
  const head = binding.typeOnly ? 'type ' : '';
  return binding.imported === binding.name ? `${head}${binding.name}` : `${head}${binding.imported} as ${binding.name}`;
}

/** A new declaration in the file's style. */
export function renderDeclaration(shape: ImportShape, layout: ImportLayout): string {
  const module = `${layout.quote}${shape.module}${layout.quote}`;
  const end = layout.semicolon ? ';' : '';
  if (shape.equalsName !== undefined) {
    return `import ${shape.typeOnly ? 'type ' : ''}${shape.equalsName} = require(${module})${end}`;
  }
  const parts: string[] = [];
  if (shape.defaultName !== undefined) parts.push(shape.defaultName);
  if (shape.namespaceName !== undefined) parts.push(`* as ${shape.namespaceName}`);
  if (shape.named.length > 0) {
    const inner = shape.named.map(bindingText).join(', ');
    parts.push(layout.braceSpacing ? `{ ${inner} }` : `{${inner}}`);
  }
  if (parts.length === 0) return `import ${module}${end}`;
  return `import ${shape.typeOnly ? 'type ' : ''}${parts.join(', ')} from ${module}${end}`;
}

/** Whether ADD_IMPORT sorts new bindings into a list with these exported names rather than appending them. */
export function addedBindingsSorted(importedNames: readonly string[]): boolean {
  return isSorted(importedNames);
}

function isSorted(names: readonly string[]): boolean {
  for (let i = 1; i < names.length; i++) {
    if ((names[i - 1] ?? '').localeCompare(names[i] ?? '', 'en', { sensitivity: 'base' }) > 0) return false;
  }
  return true;
}

/** Rewrites the `{ ... }` list of a declaration to hold exactly `wanted`, keeping the texts of kept bindings. */
function rewriteNamedList(
  text: string,
  sourceFile: ts.SourceFile,
  list: ts.NamedImports,
  wanted: readonly NamedBinding[],
  eol: string,
  braceSpacing: boolean,
  order: readonly string[] | undefined,
): string {
  // A kept binding keeps its text (comments, spacing) unless its `type` marker changes.
  const existingText = new Map(
    list.elements.map((e) => [`${e.name.text}\0${String(e.isTypeOnly)}`, e.getText(sourceFile)]),
  );
  const textKey = (b: NamedBinding): string => `${b.name}\0${String(b.typeOnly)}`;
  const originalOrder = list.elements.map((e) => (e.propertyName ?? e.name).text);
  const existingNames = new Set(list.elements.map((e) => e.name.text));
  const kept = wanted.filter((b) => existingNames.has(b.name));
  const added = wanted.filter((b) => !existingNames.has(b.name));
  let ordered: NamedBinding[] = [...kept, ...added];
  const written = order ?? [];
  if (added.length > 0 && ordered.every((b) => written.includes(b.name))) {
    // The request wrote out the whole list: that is the order wanted, sorted or not.
    ordered = [...ordered].sort((a, b) => written.indexOf(a.name) - written.indexOf(b.name));
  } else if (added.length > 0 && isSorted(originalOrder)) {
    ordered = [...ordered].sort((a, b) => a.imported.localeCompare(b.imported, 'en', { sensitivity: 'base' }));
  }
  const texts = ordered.map((b) => existingText.get(textKey(b)) ?? bindingText(b));
  const start = list.getStart(sourceFile);
  const end = list.end;
  const original = text.slice(start, end);
  const trailingComma = list.elements.hasTrailingComma;
  let rendered: string;
  if (original.includes('\n')) {
    const firstElement = list.elements[0];
    const lineStart = firstElement === undefined ? -1 : text.lastIndexOf('\n', firstElement.getStart(sourceFile) - 1);
    const indent =
      firstElement === undefined
        ? '  '
        : (/^[ \t]*/.exec(text.slice(lineStart + 1, firstElement.getStart(sourceFile)))?.[0] ?? '  ');
    const closeLineStart = text.lastIndexOf('\n', end - 1);
    const closeIndent = /^[ \t]*/.exec(text.slice(closeLineStart + 1, end - 1))?.[0] ?? '';
    const lines = texts.map((t, i) => `${indent}${t}${i < texts.length - 1 || trailingComma ? ',' : ''}`);
    rendered = `{${eol}${lines.join(eol)}${eol}${closeIndent}}`;
  } else {
    const spaced = list.elements.length === 0 ? braceSpacing : /^\{\s/.test(original);
    const inner = texts.join(', ') + (trailingComma ? ',' : '');
    rendered = spaced ? `{ ${inner} }` : `{${inner}}`;
  }
  return text.slice(0, start) + rendered + text.slice(end);
}

/**
 * Re-renders a declaration with the given bindings, changing only what differs. Undefined when nothing is left to
 * import (the declaration goes).
 */
export function rewriteDeclaration(
  text: string,
  wanted: {
    defaultName?: string;
    namespaceName?: string;
    named: readonly NamedBinding[];
    /** The local names in the order the operation wrote them; new bindings follow it when it names them all. */
    order?: readonly string[];
  },
  layout: ImportLayout,
): string | undefined {
  const parsed = parseDeclaration(text);
  if (parsed === undefined) return text;
  const { sourceFile, statement, shape } = parsed;
  if (ts.isImportEqualsDeclaration(statement))
    return wanted.defaultName === undefined && wanted.named.length === 0 && wanted.namespaceName === undefined
      ? undefined
      : text;
  const nothingLeft =
    wanted.defaultName === undefined && wanted.namespaceName === undefined && wanted.named.length === 0;
  if (nothingLeft) return isSideEffectOnly(shape) ? text : undefined;
  const clause = statement.importClause;
  const module = statement.moduleSpecifier;
  const moduleText = module.getText(sourceFile);
  const list =
    clause?.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : undefined;
  // Only the named list changes: edit it in place so line layout and comments elsewhere stay.
  if (
    list !== undefined &&
    wanted.defaultName === shape.defaultName &&
    wanted.namespaceName === undefined &&
    wanted.named.length > 0
  ) {
    return rewriteNamedList(text, sourceFile, list, wanted.named, layout.eol, layout.braceSpacing, wanted.order);
  }
  const parts: string[] = [];
  if (wanted.defaultName !== undefined) parts.push(wanted.defaultName);
  if (wanted.namespaceName !== undefined) parts.push(`* as ${wanted.namespaceName}`);
  if (wanted.named.length > 0) {
    if (list !== undefined) {
      const rewritten = rewriteNamedList(
        text,
        sourceFile,
        list,
        wanted.named,
        layout.eol,
        layout.braceSpacing,
        wanted.order,
      );
      const reparsed = parseDeclaration(rewritten);
      const newList =
        reparsed?.statement !== undefined && ts.isImportDeclaration(reparsed.statement)
          ? reparsed.statement.importClause?.namedBindings
          : undefined;
      parts.push(newList === undefined || reparsed === undefined ? '{}' : newList.getText(reparsed.sourceFile));
    } else {
      const inner = wanted.named.map(bindingText).join(', ');
      parts.push(layout.braceSpacing ? `{ ${inner} }` : `{${inner}}`);
    }
  }
  const head = text.slice(0, statement.getStart(sourceFile));
  const tail = text.slice(module.end);
  return `${head}import ${shape.typeOnly ? 'type ' : ''}${parts.join(', ')} from ${moduleText}${tail}`;
}

/** Import declarations at the head of top-level code, split from the code after them (when there is some). */
export function splitLeadingImports(file: string, content: string): { imports: string; code: string } | undefined {
  // Leading imports start with the keyword: content that does not is not parsed (a 6 MB element's parse takes
  // seconds, and the planner parses it for its shape already).
  if (!startsWithKeyword(content, 'import')) return undefined;
  const sourceFile = parseSource(file, content);
  const statements = sourceFile.statements;
  let count = 0;
  while (count < statements.length) {
    const statement = statements[count];
    if (statement === undefined || !(ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement)))
      break;
    count += 1;
  }
  const last = statements[count - 1];
  if (count === 0 || count === statements.length || last === undefined) return undefined;
  return { imports: content.slice(0, last.end), code: content.slice(last.end).replace(/^(?:[ \t]*\r?\n)+/, '') };
}
