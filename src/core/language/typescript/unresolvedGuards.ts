import type { TypeScriptModule } from './typescriptRuntime';
import type { ts as tsTypes } from 'ts-morph';

/**
 * A property error that only a missing package causes (issue 24): `if (isNotFound(error)) error.routeId` reads
 * `routeId` on the type `isNotFound` narrows `error` to; when the module `isNotFound` is imported from is not
 * installed, the guard is `any` and narrows nothing, so TypeScript reports `Property 'routeId' does not exist on type
 * 'Error'` where the installed package has none. The rule is the narrow one: the property access's object is a plain
 * name, and an enclosing condition (an `if`, a `?:`, the left of `&&`) calls an import of a module that did not
 * resolve with that name as an argument.
 */

/** Property 'x' does not exist on type 'Y' (2339), with a suggestion (2551). */
export const MISSING_PROPERTY_CODES: ReadonlySet<number> = new Set([2339, 2551]);

/**
 * Why the error at `start` (a missing property) comes from a guard that is not installed, or undefined.
 * `unresolved` holds the module specifiers of the file that did not resolve because their package is missing.
 */
export function unresolvedGuardReason(
  ts: TypeScriptModule,
  sourceFile: tsTypes.SourceFile,
  start: number,
  unresolved: ReadonlySet<string>,
): string | undefined {
  if (unresolved.size === 0) return undefined;
  const guards = importedNames(ts, sourceFile, unresolved);
  if (guards.size === 0) return undefined;
  const at = innermostAt(ts, sourceFile, start);
  const access = at?.parent;
  if (access === undefined || !ts.isPropertyAccessExpression(access) || access.name !== at) return undefined;
  if (!ts.isIdentifier(access.expression)) return undefined;
  const narrowed = access.expression.text;
  for (let node: tsTypes.Node = access; node.parent !== undefined; node = node.parent) {
    const parent = node.parent;
    const condition =
      ts.isIfStatement(parent) && parent.thenStatement === node
        ? parent.expression
        : ts.isConditionalExpression(parent) && parent.whenTrue === node
          ? parent.condition
          : ts.isBinaryExpression(parent) &&
              parent.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken &&
              parent.right === node
            ? parent.left
            : undefined;
    if (condition === undefined) continue;
    const guard = guardCall(ts, condition, narrowed, guards);
    if (guard !== undefined) return `\`${guard.name}\` comes from ${guard.module}, not installed: it narrows nothing`;
  }
  return undefined;
}

/** Local names bound by the file's imports of the given modules, with their module. */
function importedNames(
  ts: TypeScriptModule,
  sourceFile: tsTypes.SourceFile,
  modules: ReadonlySet<string>,
): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const module = statement.moduleSpecifier.text;
    const clause = statement.importClause;
    if (!modules.has(module) || clause === undefined) continue;
    if (clause.name !== undefined) names.set(clause.name.text, module);
    const bindings = clause.namedBindings;
    if (bindings === undefined) continue;
    if (ts.isNamespaceImport(bindings)) names.set(bindings.name.text, module);
    else for (const element of bindings.elements) names.set(element.name.text, module);
  }
  return names;
}

/** A call in the condition of an imported guard (`g(x)` or `ns.g(x)`) with `name` among its arguments. */
function guardCall(
  ts: TypeScriptModule,
  condition: tsTypes.Node,
  name: string,
  guards: ReadonlyMap<string, string>,
): { name: string; module: string } | undefined {
  let found: { name: string; module: string } | undefined;
  const visit = (node: tsTypes.Node): void => {
    if (found !== undefined) return;
    if (ts.isCallExpression(node) && node.arguments.some((a) => ts.isIdentifier(a) && a.text === name)) {
      const callee = node.expression;
      const head = ts.isPropertyAccessExpression(callee) ? callee.expression : callee;
      const module = ts.isIdentifier(head) ? guards.get(head.text) : undefined;
      if (module !== undefined) {
        found = { name: callee.getText(), module };
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(condition);
  return found;
}

/** The innermost node whose text starts at or spans `start`. */
function innermostAt(ts: TypeScriptModule, sourceFile: tsTypes.SourceFile, start: number): tsTypes.Node | undefined {
  let found: tsTypes.Node | undefined;
  const visit = (node: tsTypes.Node): void => {
    if (start < node.getStart(sourceFile) || start >= node.end) return;
    found = node;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return found;
}
