import type { ts } from 'ts-morph';
import type { RenameAnswer, RenameLocation } from '../../graph/semantics';
import type { TypeScriptModule } from './typescriptRuntime';

/**
 * The rename tool's part of TypeScript's semantics (issue 27): the LanguageService's own rename locations for the
 * declaration's name, and a cheap check of the checker for a declaration of the new name in the same scope.
 */

/** Where the files of a program lie: in the workspace (relative), outside it, or in an installed dependency. */
export interface RenamePlaces {
  relative(absolutePath: string): string | undefined;
  isDependency(absolutePath: string): boolean;
}

export function renameAt(
  ts: TypeScriptModule,
  service: ts.LanguageService,
  program: ts.Program,
  declaring: ts.SourceFile,
  position: number,
  newName: string,
  places: RenamePlaces,
): RenameAnswer {
  const info = service.getRenameInfo(declaring.fileName, position, { allowRenameOfImportPath: false });
  if (!info.canRename) return { locations: [], refused: info.localizedErrorMessage };
  const collision = collisionAt(ts, program, declaring, position, newName, places);
  // Prefix and suffix text keep what other code sees: a shorthand `{ old }` becomes `{ old: newName }`. From the
  // declaration, importers' `import { old }` still becomes `import { newName }` (no alias). (A TypeScript before 5.0
  // takes a boolean here: the object reads as true, the same choice.)
  const found =
    service.findRenameLocations(declaring.fileName, position, false, false, {
      providePrefixAndSuffixTextForRename: true,
    }) ?? [];
  const locations: RenameLocation[] = [];
  const seen = new Set<string>();
  for (const location of found) {
    const key = `${location.fileName}:${location.textSpan.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const file = places.isDependency(location.fileName) ? undefined : places.relative(location.fileName);
    const text = program.getSourceFile(location.fileName)?.text ?? '';
    locations.push({
      file,
      ...(file === undefined ? { outside: location.fileName } : {}),
      start: location.textSpan.start,
      length: location.textSpan.length,
      replacement: `${location.prefixText ?? ''}${newName}${location.suffixText ?? ''}`,
      text,
    });
  }
  return { locations, ...(collision === undefined ? {} : { collision }) };
}

/** A declaration of `newName` where the renamed one is declared: a member of the same type, or a name in its scope. */
function collisionAt(
  ts: TypeScriptModule,
  program: ts.Program,
  sourceFile: ts.SourceFile,
  position: number,
  newName: string,
  places: RenamePlaces,
): string | undefined {
  const node = identifierAt(ts, sourceFile, position);
  if (node === undefined) return undefined;
  const checker = program.getTypeChecker();
  const declaration = checker.getSymbolAtLocation(node)?.declarations?.[0];
  if (declaration === undefined) return undefined;
  const parent = declaration.parent;
  // A property of an object literal or a type literal: its siblings are not in scope, and the type check tells.
  if (ts.isObjectLiteralExpression(parent) || ts.isTypeLiteralNode(parent)) return undefined;
  let other: ts.Symbol | undefined;
  if (ts.isClassLike(parent) || ts.isInterfaceDeclaration(parent) || ts.isEnumDeclaration(parent)) {
    const owner = parent.name === undefined ? undefined : checker.getSymbolAtLocation(parent.name);
    if (owner === undefined) return undefined;
    const isStatic =
      ts.canHaveModifiers(declaration) &&
      (ts.getModifiers(declaration) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
    const type =
      isStatic || ts.isEnumDeclaration(parent)
        ? checker.getTypeOfSymbolAtLocation(owner, parent)
        : checker.getDeclaredTypeOfSymbol(owner);
    other = type.getProperty(newName);
  } else {
    const scope = scopeOf(ts, declaration);
    const flags = ts.SymbolFlags.Value | ts.SymbolFlags.Type | ts.SymbolFlags.Namespace | ts.SymbolFlags.Alias;
    other = checker
      .getSymbolsInScope(declaration, flags)
      .find((s) => s.name === newName && (s.declarations ?? []).some((d) => scopeOf(ts, d) === scope));
  }
  const found = other?.declarations?.[0];
  if (found === undefined) return undefined;
  const file = found.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(found.getStart(file));
  const lineText = file.text.split('\n')[line]?.trim() ?? '';
  return `${places.relative(file.fileName) ?? file.fileName}:${line + 1}: ${lineText.length > 120 ? `${lineText.slice(0, 119)}…` : lineText}`;
}

function scopeOf(ts: TypeScriptModule, node: ts.Node): ts.Node | undefined {
  return ts.findAncestor(
    node.parent,
    (n) => ts.isSourceFile(n) || ts.isBlock(n) || ts.isModuleBlock(n) || ts.isFunctionLike(n) || ts.isCaseBlock(n),
  );
}

function identifierAt(ts: TypeScriptModule, sourceFile: ts.SourceFile, position: number): ts.Node | undefined {
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (found !== undefined || position < node.pos || position >= node.end) return;
    if (
      (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node)) &&
      node.getStart(sourceFile) === position
    ) {
      found = node;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}
