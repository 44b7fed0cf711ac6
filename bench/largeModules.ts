import { readFileSync } from 'node:fs';
import { ts } from 'ts-morph';
import { countLines, outlineSource } from '../src/core/elements/outline';
import type { CorpusFile } from '../test/support/corpus';

/**
 * Large modules made of real code, for seeing how the cost grows with the file: the top-level declarations of corpus
 * files concatenated into one module until it reaches the wanted size. Imports and re-exports are left out (they
 * would repeat), and a declaration whose name is already taken is renamed, so that every element keeps its own path.
 * Only parsing must succeed; the module is never type-checked.
 */

export interface LargeModule {
  readonly file: string;
  readonly text: string;
  readonly lines: number;
  readonly sourceFiles: number;
}

export function buildLargeModule(files: readonly CorpusFile[], targetLines: number): LargeModule {
  const taken = new Set<string>();
  const parts: string[] = [];
  let lines = 0;
  let sourceFiles = 0;
  for (const corpusFile of files) {
    if (!/\.ts$/.test(corpusFile.relPath)) continue;
    const text = readFileSync(corpusFile.absPath, 'utf8');
    const sourceFile = ts.createSourceFile(corpusFile.relPath, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    let used = false;
    // Within one file a repeated name is an overload or a merged declaration and keeps one new name.
    const renamedInFile = new Map<string, string>();
    for (const statement of sourceFile.statements) {
      if (!isStandaloneDeclaration(statement)) continue;
      const part = renamedIfTaken(statement, sourceFile, taken, renamedInFile);
      parts.push(part);
      lines += countLines(part) + 1;
      used = true;
      if (lines >= targetLines) break;
    }
    if (used) sourceFiles += 1;
    if (lines >= targetLines) break;
  }
  const file = `bench/large-${targetLines}.ts`;
  const moduleText = `${parts.join('\n\n')}\n`;
  const outline = outlineSource(file, moduleText);
  if (outline.syntaxErrors.length > 0) {
    const first = outline.syntaxErrors[0];
    throw new Error(
      `the ${targetLines}-line module built from the corpus does not parse: ${first?.message ?? ''} at line ${first?.line ?? 0}`,
    );
  }
  return { file, text: moduleText, lines: outline.lineCount, sourceFiles };
}

function isStandaloneDeclaration(statement: ts.Statement): boolean {
  if (
    ts.isImportDeclaration(statement) ||
    ts.isImportEqualsDeclaration(statement) ||
    ts.isExportDeclaration(statement) ||
    ts.isExportAssignment(statement) ||
    ts.isModuleDeclaration(statement)
  ) {
    return false;
  }
  const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
  // `export default` would be declared twice; the module keeps plain named declarations.
  if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return false;
  return (
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isVariableStatement(statement)
  );
}

/** The statement's text (leading comments included), its declared names suffixed where an earlier file took them. */
function renamedIfTaken(
  statement: ts.Statement,
  sourceFile: ts.SourceFile,
  taken: Set<string>,
  renamedInFile: Map<string, string>,
): string {
  const start = statement.getFullStart();
  const text = sourceFile.text.slice(start, statement.end).replace(/^\s*\n/, '');
  const offset = start + (statement.getFullText(sourceFile).length - text.length);
  const renames: Array<{ at: number; length: number; name: string }> = [];
  for (const name of declaredNames(statement)) {
    let unique = renamedInFile.get(name.text);
    if (unique === undefined) {
      unique = name.text;
      for (let n = 2; taken.has(unique); n++) unique = `${name.text}_${n}`;
      taken.add(unique);
      renamedInFile.set(name.text, unique);
    }
    if (unique !== name.text)
      renames.push({ at: name.getStart(sourceFile) - offset, length: name.text.length, name: unique });
  }
  let result = text;
  for (const rename of renames.sort((a, b) => b.at - a.at)) {
    result = result.slice(0, rename.at) + rename.name + result.slice(rename.at + rename.length);
  }
  return result;
}

function declaredNames(statement: ts.Statement): ts.Identifier[] {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name] : []));
  }
  const name = (statement as ts.DeclarationStatement).name;
  return name !== undefined && ts.isIdentifier(name) ? [name] : [];
}
