import { ts } from 'ts-morph';

/** Helpers of the TypeScript outline that need no walker state: signature text, expression unwrapping, labels. */

const SIGNATURE_LIMIT = 200;

export function hasBlankLine(text: string, from: number, to: number): boolean {
  return /\n[ \t\f\v]*\r?\n/.test(text.slice(from, to));
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return newline < 0 ? text.trim() : `${text.slice(0, newline).trim()} …`;
}

export function clip(text: string): string {
  return text.length <= SIGNATURE_LIMIT ? text : `${text.slice(0, SIGNATURE_LIMIT - 1)}…`;
}

export function skipParens(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (ts.isParenthesizedExpression(current)) current = current.expression;
  return current;
}

/**
 * The object literal held by an initializer, seen through `as const`, `satisfies T`, parentheses and a call with
 * one object argument (`defineConfig({...})`): these are the config objects and route tables users edit.
 */
export function unwrapObjectLiteral(expression: ts.Expression): ts.ObjectLiteralExpression | undefined {
  let current = skipParens(expression);
  for (;;) {
    if (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isTypeAssertionExpression(current)) {
      current = skipParens(current.expression);
    } else if (ts.isCallExpression(current) && current.arguments.length === 1) {
      const argument = current.arguments[0];
      if (argument === undefined || !ts.isObjectLiteralExpression(skipParens(argument))) return undefined;
      current = skipParens(argument);
    } else {
      break;
    }
  }
  return ts.isObjectLiteralExpression(current) ? current : undefined;
}

/** The function an initializer holds: `() => ...`, `function () {}`, also through `as`/`satisfies`. */
export function functionInitializer(expression: ts.Expression): ts.ArrowFunction | ts.FunctionExpression | undefined {
  let current = skipParens(expression);
  while (ts.isAsExpression(current) || ts.isSatisfiesExpression(current)) current = skipParens(current.expression);
  return ts.isArrowFunction(current) || ts.isFunctionExpression(current) ? current : undefined;
}

export function functionBody(node: ts.Node): ts.Node | undefined {
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node)
  ) {
    return node.body;
  }
  return undefined;
}

/** The name as a path writes it: quotes stripped, computed names with their brackets. */
export function memberName(name: ts.PropertyName, sourceFile: ts.SourceFile): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name))
    return name.text;
  return collapse(name.getText(sourceFile));
}

/** A readable label for a statement that declares nothing: the callee of a call (`describe`, `app.get`), or its keyword. */
export function statementLabel(statement: ts.Statement): string {
  if (ts.isExpressionStatement(statement)) {
    let expression = skipParens(statement.expression);
    if (ts.isAwaitExpression(expression) || ts.isVoidExpression(expression))
      expression = skipParens(expression.expression);
    if (ts.isCallExpression(expression)) {
      let callee: ts.Expression = expression.expression;
      while (ts.isCallExpression(callee)) callee = callee.expression;
      const label = calleeText(callee);
      if (label !== undefined) return label;
      return 'call';
    }
    if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const label = calleeText(expression.left);
      if (label !== undefined) return `${label}=`;
    }
    return 'expression';
  }
  const keyword = ts.SyntaxKind[statement.kind].replace(/Statement$|Declaration$/, '').toLowerCase();
  return keyword.length > 0 ? keyword : 'statement';
}

export function calleeText(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) {
    const left = calleeText(expression.expression);
    return left === undefined ? undefined : `${left}.${expression.name.text}`;
  }
  if (expression.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  return undefined;
}

/** Whether the first token of `text` (comments and blank space skipped) is `keyword`: one token scanned, no parse. */
export function startsWithKeyword(text: string, keyword: 'import' | 'export'): boolean {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const expected = keyword === 'import' ? ts.SyntaxKind.ImportKeyword : ts.SyntaxKind.ExportKeyword;
  return scanner.scan() === expected;
}
