import type { ts } from 'ts-morph';
import type { DeclarationsAnswer, DeclarationUse, NavigationTarget } from '../../graph/semantics';
import type { RenamePlaces } from './typescriptRename';
import type { TypeScriptModule } from './typescriptRuntime';

/**
 * The references tool's `declaration` and `implementations` (issue 27): the LanguageService's go to definition from
 * each use of a name, and its go to implementation from a declaration's name.
 */

function targetOf(
  program: ts.Program,
  fileName: string,
  start: number,
  length: number,
  places: RenamePlaces,
): NavigationTarget {
  const text = program.getSourceFile(fileName)?.text ?? '';
  const file = places.isDependency(fileName) ? undefined : places.relative(fileName);
  return {
    file,
    ...(file === undefined ? { outside: fileName } : {}),
    start,
    text,
    name: text.slice(start, start + length),
  };
}

/** The identifiers `name` between `start` and `end` (outside comments and strings), by the syntax tree. */
function identifiersNamed(
  ts: TypeScriptModule,
  sourceFile: ts.SourceFile,
  start: number,
  end: number,
  name: string,
): number[] {
  const found: number[] = [];
  const visit = (node: ts.Node): void => {
    if (node.end < start || node.pos > end) return;
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && node.text === name) {
      const at = node.getStart(sourceFile);
      if (at >= start && node.end <= end) found.push(at);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

export function declarationsAt(
  ts: TypeScriptModule,
  service: ts.LanguageService,
  program: ts.Program,
  sourceFile: ts.SourceFile,
  start: number,
  end: number,
  name: string,
  places: RenamePlaces,
): DeclarationsAnswer {
  const uses: DeclarationUse[] = [];
  for (const at of identifiersNamed(ts, sourceFile, start, end, name)) {
    const definitions = service.getDefinitionAtPosition(sourceFile.fileName, at) ?? [];
    const targets = definitions
      .filter((d) => !(d.fileName === sourceFile.fileName && d.textSpan.start === at))
      .map((d) => targetOf(program, d.fileName, d.textSpan.start, d.textSpan.length, places));
    // The name where it is declared leads to itself: not a use.
    if (targets.length === 0 && definitions.length > 0) continue;
    uses.push({ start: at, targets });
  }
  return { text: sourceFile.text, uses };
}

export function implementationsAt(
  service: ts.LanguageService,
  program: ts.Program,
  sourceFile: ts.SourceFile,
  position: number,
  places: RenamePlaces,
): NavigationTarget[] {
  const seen = new Set<string>();
  const targets: NavigationTarget[] = [];
  for (const location of service.getImplementationAtPosition(sourceFile.fileName, position) ?? []) {
    const key = `${location.fileName}:${location.textSpan.start}`;
    // A class is among its own implementations; the element asked about is not news.
    if (seen.has(key) || (location.fileName === sourceFile.fileName && location.textSpan.start === position)) continue;
    seen.add(key);
    targets.push(targetOf(program, location.fileName, location.textSpan.start, location.textSpan.length, places));
  }
  return targets;
}
