import { ts } from 'ts-morph';
import type { ElementNode } from '../../elements/element';
import type { FileSyntax } from './fileSyntax';
import { startsWithKeyword } from './syntaxText';
import { parseSource } from './typescriptOutline';

const EXPORTABLE = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.VariableStatement,
  ts.SyntaxKind.ModuleDeclaration,
]);

/**
 * Puts back the `export` (or `export default`) of a declaration the content left it off: a model rewriting a
 * function seldom means to stop exporting it, and its importers would break.
 */
export function withExportKept(file: string, syntax: FileSyntax, body: string, node: ElementNode): string {
  if (node.overloads !== undefined) return body;
  const old = syntax.nodeSpanning(node.declarationRange.start, node.declarationRange.end);
  if (old === undefined || !ts.canHaveModifiers(old)) return body;
  const oldModifiers = (ts.getModifiers(old) ?? []).map((m) => m.kind);
  if (!oldModifiers.includes(ts.SyntaxKind.ExportKeyword)) return body;
  // Content that starts with `export` keeps it (or is no single declaration): no second parse of a large element.
  if (startsWithKeyword(body, 'export')) return body;
  const parsed = parseSource(file, body);
  const statement = parsed.statements.length === 1 ? parsed.statements[0] : undefined;
  if (statement === undefined || !EXPORTABLE.has(statement.kind) || !ts.canHaveModifiers(statement)) return body;
  const modifiers = ts.getModifiers(statement) ?? [];
  if (modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return body;
  const decorators = ts.canHaveDecorators(statement) ? (ts.getDecorators(statement) ?? []) : [];
  const lastDecorator = decorators[decorators.length - 1];
  const firstModifier = modifiers[0];
  let at = firstModifier !== undefined ? firstModifier.getStart(parsed) : statement.getStart(parsed);
  if (lastDecorator !== undefined && firstModifier === undefined) {
    at = lastDecorator.end + Math.max(0, body.slice(lastDecorator.end).search(/\S/));
  }
  const prefix = oldModifiers.includes(ts.SyntaxKind.DefaultKeyword) ? 'export default ' : 'export ';
  return body.slice(0, at) + prefix + body.slice(at);
}
