import { ts } from 'ts-morph';
import type { ElementNode } from '../../elements/element';
import { kindsCompatible } from '../../elements/elementPath';
import { parseSource } from '../../elements/outline';
import type { OpFailure } from './actions';
import type { ContainerFlavor } from './contentShape';
import type { FileSyntax } from './fileSyntax';

/** What content written for an element must be, and the words that tell a model what it got wrong. */

export function describeElement(element: { kind: string; name: string }): string {
  return element.name === '' ? element.kind : `${element.kind}[${element.name}]`;
}

export function memberWords(flavor: ContainerFlavor): string {
  switch (flavor) {
    case 'file':
      return 'top-level code';
    case 'namespace':
      return 'a namespace member';
    case 'class':
      return 'a class member';
    case 'interface':
      return 'an interface member';
    case 'typeLiteral':
      return 'a type literal member';
    case 'object':
      return 'an object literal member';
    case 'enum':
      return 'an enum member';
  }
}

export function parseHint(flavor: ContainerFlavor): string {
  return flavor === 'file' || flavor === 'namespace'
    ? 'write complete, valid code for the element'
    : `write only the member itself, as it appears inside its ${flavor === 'typeLiteral' ? 'type' : flavor} (not the whole container), complete and valid`;
}

/** Why content that replaces `node` does not declare exactly it (same name, a compatible kind), if it does not. */
export function declarationMismatch(declared: readonly ElementNode[], node: ElementNode): OpFailure | undefined {
  if (declared.length === 0) {
    return {
      message: `the content declares no element; it must be the whole new ${describeElement(node)}`,
      hint: 'write the complete element, its declaration line included',
    };
  }
  if (declared.length > 1) {
    return {
      message: `the content declares ${declared.length} elements (${declared.map(describeElement).join(', ')}); REPLACE_ELEMENT takes exactly the element it names`,
      hint: `keep only ${describeElement(node)} here; add the others with CREATE_ELEMENT`,
    };
  }
  const only = declared[0];
  if (only === undefined) return undefined;
  if (only.name !== node.name) {
    return {
      message: `the content declares ${describeElement(only)}, not ${describeElement(node)}`,
      hint: `REPLACE_ELEMENT must keep the element's name; to add ${describeElement(only)} use CREATE_ELEMENT, to rename use DELETE_ELEMENT and CREATE_ELEMENT`,
    };
  }
  if (!kindsCompatible(only.kind, node.kind)) {
    return {
      message: `the content declares a ${only.kind}, but ${node.path} is a ${node.kind}`,
      hint: `write the element as a ${node.kind}, or DELETE_ELEMENT it and CREATE_ELEMENT the ${only.kind}`,
    };
  }
  return undefined;
}

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
