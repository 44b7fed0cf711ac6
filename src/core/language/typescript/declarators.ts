import { ts } from 'ts-morph';
import type { DeclaratorContent, DeclaratorFate } from '../languageSupport';
import { parseSource } from './typescriptOutline';

/**
 * One declarator of `const a = 1, b = 2` is an element of its own. These read code meant for one declarator and
 * write a statement back with some of its declarators replaced, removed or moved out into statements of their own.
 */

export interface VariableHead {
  readonly keyword: string;
  readonly exported: boolean;
  readonly declared: boolean;
}

export function variableHead(statement: ts.VariableStatement): VariableHead {
  const flags = statement.declarationList.flags;
  const keyword =
    (flags & ts.NodeFlags.AwaitUsing) === ts.NodeFlags.AwaitUsing
      ? 'await using'
      : flags & ts.NodeFlags.Using
        ? 'using'
        : flags & ts.NodeFlags.Const
          ? 'const'
          : flags & ts.NodeFlags.Let
            ? 'let'
            : 'var';
  const modifiers = ts.getModifiers(statement) ?? [];
  return {
    keyword,
    exported: modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
    declared: modifiers.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword),
  };
}

export function declaratorName(declaration: ts.VariableDeclaration, sourceFile: ts.SourceFile): string {
  return declaration.name.getText(sourceFile).replace(/\s+/g, ' ');
}

function parseErrors(sourceFile: ts.SourceFile): readonly ts.Diagnostic[] {
  return (sourceFile as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics ?? [];
}

/** The single declarator `code` declares when read as a statement (or after `keyword`), if it is named `name`. */
function onlyDeclarator(
  file: string,
  code: string,
  name: string,
): { declaration: ts.VariableDeclaration; statement: ts.VariableStatement; sourceFile: ts.SourceFile } | undefined {
  const sourceFile = parseSource(file, code);
  const statement = sourceFile.statements.length === 1 ? sourceFile.statements[0] : undefined;
  if (parseErrors(sourceFile).length > 0 || statement === undefined || !ts.isVariableStatement(statement))
    return undefined;
  const declarations = statement.declarationList.declarations;
  const declaration = declarations.length === 1 ? declarations[0] : undefined;
  if (declaration === undefined || declaratorName(declaration, sourceFile) !== name) return undefined;
  return { declaration, statement, sourceFile };
}

/**
 * Reads content that replaces the declarator `name` of a statement with head `original`: `b = 3`, `const b = 3` and
 * `export const b = 3` (in an exported statement) fit the statement; a declaration that does not fit it stands alone.
 */
export function readDeclaratorContent(
  file: string,
  content: string,
  name: string,
  original: VariableHead,
): DeclaratorContent {
  const parsed = parseSource(file, content);
  const only = parsed.statements.length === 1 ? parsed.statements[0] : undefined;
  if (parseErrors(parsed).length === 0 && only !== undefined && ts.isVariableStatement(only)) {
    const declarations = only.declarationList.declarations;
    const declaration = declarations[0];
    if (declarations.length !== 1 || declaration === undefined || declaratorName(declaration, parsed) !== name) {
      return {
        kind: 'invalid',
        message: `the content declares ${declarations.map((d) => declaratorName(d, parsed)).join(', ')}, not just ${name}`,
        hint: `keep only the declaration of ${name}; add others with CREATE_ELEMENT`,
      };
    }
    const head = variableHead(only);
    const fits =
      head.keyword === original.keyword &&
      (head.exported === original.exported || !head.exported) &&
      (head.declared === original.declared || !head.declared) &&
      !/^(?:\/\/|\/\*)/.test(content.trimStart());
    return fits
      ? { kind: 'declarator', code: content.slice(declaration.getStart(parsed), declaration.end) }
      : { kind: 'statement', code: content };
  }
  const bare = content.replace(/;\s*$/, '');
  if (onlyDeclarator(file, `${original.keyword} ${bare}`, name) !== undefined)
    return { kind: 'declarator', code: bare };
  const first = parseErrors(parsed)[0];
  return {
    kind: 'invalid',
    message: `the content is not a declaration of the variable ${name}${first === undefined ? '' : ` (${ts.flattenDiagnosticMessageText(first.messageText, ' ')})`}`,
    hint: `write \`${name} = ...\` or the whole \`${original.exported ? 'export ' : ''}${original.keyword} ${name} = ...;\``,
  };
}

/** Whether patched code still declares exactly the variable `name` (as a declarator after `keyword`, or a statement). */
export function declaresVariable(
  file: string,
  code: string,
  name: string,
  keyword: string,
  asStatement: boolean,
): boolean {
  return onlyDeclarator(file, asStatement ? code : `${keyword} ${code}`, name) !== undefined;
}

export type { DeclaratorContent, DeclaratorFate };

/**
 * The statement's text with its declarators' fates applied (a declarator without a fate is kept as it was):
 * declarators side by side stay one statement with their original separators; one that stands alone splits the
 * statement there, so the order of declarations (and of their initialisers) is kept.
 */
export function rewriteDeclarations(
  text: string,
  sourceFile: ts.SourceFile,
  statement: ts.VariableStatement,
  fates: ReadonlyMap<number, DeclaratorFate>,
  lineBreak: string,
): string {
  const declarations = statement.declarationList.declarations;
  const start = statement.getStart(sourceFile);
  const originalHead = text.slice(start, declarations[0]?.getStart(sourceFile) ?? start);
  const head = variableHead(statement);
  const plainHead = `${head.exported ? 'export ' : ''}${head.declared ? 'declare ' : ''}${head.keyword} `;
  const terminator = text.charAt(statement.end - 1) === ';' ? ';' : '';
  const statements: string[] = [];
  let run: { text: string; index: number }[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    let written = statements.length === 0 ? originalHead : plainHead;
    run.forEach((entry, i) => {
      const previous = run[i - 1];
      if (previous !== undefined) {
        const a = declarations[previous.index];
        const b = declarations[entry.index];
        written +=
          entry.index === previous.index + 1 && a !== undefined && b !== undefined
            ? text.slice(a.end, b.getStart(sourceFile))
            : ', ';
      }
      written += entry.text;
    });
    statements.push(written + terminator);
    run = [];
  };
  declarations.forEach((declaration, i) => {
    const fate = fates.get(i);
    if (fate === undefined) {
      run.push({ text: text.slice(declaration.getStart(sourceFile), declaration.end), index: i });
    } else if (fate.state === 'declarator') {
      run.push({ text: fate.text, index: i });
    } else if (fate.state === 'statement') {
      flush();
      statements.push(fate.text);
    }
  });
  flush();
  return statements.join(lineBreak);
}
