import { ts } from 'ts-morph';
import type { ImportBindingChange } from '../importModel';
import { addedBindingsSorted } from './imports';

/**
 * What changed between two versions of one import declaration, in the terms of ADD_IMPORT and REMOVE_IMPORT: the
 * bindings to add and the bindings to remove. Only plain `import ... from 'm'` declarations with the same module,
 * the same `import type` flag and no attributes qualify; anything else is left to a replace.
 */

interface ImportShape {
  readonly moduleText: string;
  readonly typeOnly: boolean;
  readonly defaultName: string | undefined;
  readonly namespaceName: string | undefined;
  /** Specifier texts as written, whitespace collapsed: `a`, `type B`, `c as d`. */
  readonly named: readonly string[];
  /** The exported name of each specifier (`c` of `c as d`), the key ADD_IMPORT sorts new bindings by. */
  readonly importedNames: readonly string[];
  readonly semicolon: boolean;
}

export function importBindingChange(beforeText: string, afterText: string): ImportBindingChange | undefined {
  const before = readImport(beforeText);
  const after = readImport(afterText);
  if (before === undefined || after === undefined) return undefined;
  if (before.moduleText !== after.moduleText || before.typeOnly !== after.typeOnly) return undefined;
  const added = after.named.filter((n) => !before.named.includes(n));
  const removed = before.named.filter((n) => !after.named.includes(n));
  const defaultAdded = after.defaultName !== undefined && after.defaultName !== before.defaultName;
  const defaultRemoved = before.defaultName !== undefined && before.defaultName !== after.defaultName;
  if (before.namespaceName !== after.namespaceName) return undefined;
  const declaration = (defaultName: string | undefined, named: readonly string[], shape: ImportShape): string => {
    const parts: string[] = [];
    if (defaultName !== undefined) parts.push(defaultName);
    if (named.length > 0) parts.push(`{ ${named.join(', ')} }`);
    return `import ${shape.typeOnly ? 'type ' : ''}${parts.join(', ')} from ${shape.moduleText}${shape.semicolon ? ';' : ''}`;
  };
  // ADD_IMPORT sorts new bindings into a sorted list and appends them to any other; a list that ends up in another
  // order is written out whole, which ADD_IMPORT takes as the order wanted.
  const kept = before.named.filter((n) => after.named.includes(n));
  const importedOf = (text: string): string => after.importedNames[after.named.indexOf(text)] ?? text;
  const merged = [...kept, ...added];
  const predicted = addedBindingsSorted(before.importedNames)
    ? [...merged].sort((a, b) => importedOf(a).localeCompare(importedOf(b), 'en', { sensitivity: 'base' }))
    : merged;
  const inOrder = added.length === 0 || predicted.join('\0') === after.named.join('\0');
  const add =
    added.length > 0 || defaultAdded
      ? declaration(defaultAdded ? after.defaultName : undefined, inOrder ? added : after.named, after)
      : undefined;
  const remove =
    removed.length > 0 || defaultRemoved
      ? declaration(defaultRemoved ? before.defaultName : undefined, removed, before)
      : undefined;
  if (add === undefined && remove === undefined) return undefined;
  return { add, remove };
}

function readImport(text: string): ImportShape | undefined {
  const source = ts.createSourceFile('import.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const statement = source.statements[0];
  if (source.statements.length !== 1 || statement === undefined || !ts.isImportDeclaration(statement)) return undefined;
  if (statement.attributes !== undefined) return undefined;
  const clause = statement.importClause;
  if (clause === undefined || clause.phaseModifier === ts.SyntaxKind.DeferKeyword) return undefined;
  const bindings = clause.namedBindings;
  const elements = bindings !== undefined && ts.isNamedImports(bindings) ? bindings.elements : [];
  const named = elements.map((e) => e.getText(source).replace(/\s+/g, ' '));
  return {
    moduleText: statement.moduleSpecifier.getText(source),
    typeOnly: clause.phaseModifier === ts.SyntaxKind.TypeKeyword,
    defaultName: clause.name?.text,
    namespaceName: bindings !== undefined && ts.isNamespaceImport(bindings) ? bindings.name.text : undefined,
    named,
    importedNames: elements.map((e) => (e.propertyName ?? e.name).text),
    semicolon: text.trimEnd().endsWith(';'),
  };
}
