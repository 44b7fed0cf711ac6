import { ts } from 'ts-morph';
import type { SyntaxProblem } from '../../elements/element';
import { scanCode } from './codeScan';
import type { ContainerFlavor, ContentShape } from '../languageSupport';
import { languageOf, outlineParsedSource, parseSource, syntaxErrorsOf } from './typescriptOutline';

const WRAPPER_NAME = '__ScalpelContent__';

/** Opening and closing text that make a member parse as a member of its kind of container. */
const WRAPPERS: Readonly<Record<ContainerFlavor, readonly [string, string]>> = {
  file: ['', ''],
  namespace: [`namespace ${WRAPPER_NAME} {\n`, '\n}'],
  class: [`class ${WRAPPER_NAME} {\n`, '\n}'],
  interface: [`interface ${WRAPPER_NAME} {\n`, '\n}'],
  typeLiteral: [`type ${WRAPPER_NAME} = {\n`, '\n};'],
  object: [`const ${WRAPPER_NAME} = {\n`, '\n};'],
  enum: [`enum ${WRAPPER_NAME} {\n`, '\n}'],
  // async, so that content with `await` parses as it does in an async test.
  callback: [`${WRAPPER_NAME}(async () => {\n`, '\n});'],
};

/** The file name the content is parsed under: same language as the target file. */
function shapeFileName(file: string): string {
  const language = languageOf(file) ?? 'ts';
  return `${WRAPPER_NAME}.${language}`;
}

const STATEMENT_LIKE = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.VariableStatement,
  ts.SyntaxKind.ExpressionStatement,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.ExportAssignment,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.IndexSignature,
  ts.SyntaxKind.CallSignature,
  ts.SyntaxKind.ConstructSignature,
  ts.SyntaxKind.ReturnStatement,
  ts.SyntaxKind.ThrowStatement,
]);

function lastMemberNode(sourceFile: ts.SourceFile, flavor: ContainerFlavor): ts.Node | undefined {
  const statements = sourceFile.statements;
  if (flavor === 'file') return statements[statements.length - 1];
  const wrapper = statements[0];
  if (wrapper === undefined) return undefined;
  if (ts.isModuleDeclaration(wrapper) && wrapper.body !== undefined && ts.isModuleBlock(wrapper.body)) {
    return wrapper.body.statements[wrapper.body.statements.length - 1];
  }
  if (ts.isClassDeclaration(wrapper) || ts.isInterfaceDeclaration(wrapper) || ts.isEnumDeclaration(wrapper)) {
    const members: ts.NodeArray<ts.Node> = wrapper.members;
    return members[members.length - 1];
  }
  if (ts.isTypeAliasDeclaration(wrapper) && ts.isTypeLiteralNode(wrapper.type)) {
    return wrapper.type.members[wrapper.type.members.length - 1];
  }
  if (ts.isExpressionStatement(wrapper) && ts.isCallExpression(wrapper.expression)) {
    const callback = wrapper.expression.arguments[0];
    if (callback !== undefined && ts.isArrowFunction(callback) && ts.isBlock(callback.body)) {
      return callback.body.statements[callback.body.statements.length - 1];
    }
  }
  if (ts.isVariableStatement(wrapper)) {
    const initializer = wrapper.declarationList.declarations[0]?.initializer;
    if (initializer !== undefined && ts.isObjectLiteralExpression(initializer)) {
      return initializer.properties[initializer.properties.length - 1];
    }
  }
  return undefined;
}

/**
 * `{ port = 8080 }` parses (it is a destructuring default) but is an error in an object literal; the parser leaves it
 * to the type checker, which the apply engine does not run.
 */
function objectInitializerProblems(sourceFile: ts.SourceFile, offsetLines: number): SyntaxProblem[] {
  const wrapper = sourceFile.statements[0];
  if (wrapper === undefined || !ts.isVariableStatement(wrapper)) return [];
  const literal = wrapper.declarationList.declarations[0]?.initializer;
  if (literal === undefined || !ts.isObjectLiteralExpression(literal)) return [];
  return literal.properties
    .filter((p) => ts.isShorthandPropertyAssignment(p) && p.objectAssignmentInitializer !== undefined)
    .map((p) => {
      const { line, character } = sourceFile.getLineAndCharacterOfPosition(p.getStart(sourceFile));
      return {
        message: "'=' in an object literal; write ':' between a property's name and its value",
        line: line + 1 - offsetLines,
        column: character + 1,
      };
    });
}

/** Parses content the way it will sit in its container. `content` is normalised (`\n`, no blank edges). */
export function shapeOfContent(content: string, flavor: ContainerFlavor, file: string): ContentShape {
  const [open, close] = WRAPPERS[flavor];
  const text = open + content + close;
  const name = shapeFileName(file);
  const sourceFile = parseSource(name, text);
  const outline = outlineParsedSource(name, sourceFile);
  const offsetLines = open === '' ? 0 : 1;
  const contentLines = content.split('\n').length;
  const syntaxErrors: SyntaxProblem[] = syntaxErrorsOf(sourceFile).map((problem) => ({
    ...problem,
    line: Math.min(Math.max(problem.line - offsetLines, 1), contentLines),
  }));
  if (flavor === 'object') syntaxErrors.push(...objectInitializerProblems(sourceFile, offsetLines));
  const elements = flavor === 'file' ? outline.elements : (outline.elements[0]?.children ?? []);
  const last = lastMemberNode(sourceFile, flavor);
  const { lastCodeKind } = scanCode(content);
  return {
    elements,
    syntaxErrors,
    statementLike: last !== undefined && STATEMENT_LIKE.has(last.kind),
    terminated: lastCodeKind === ts.SyntaxKind.SemicolonToken || lastCodeKind === ts.SyntaxKind.CommaToken,
  };
}
