import { ts } from 'ts-morph';
import type { TextRange } from '../../elements/element';
import type { CodeScan } from '../languageSupport';

/**
 * The TypeScript lexical pass behind {@link CodeScan}: the TypeScript scanner does the work; templates and regular
 * expressions are re-scanned the way the parser would.
 */
export interface TypeScriptCodeScan extends CodeScan {
  /** Kind of the last token that is not a comment. */
  readonly lastCodeKind: ts.SyntaxKind | undefined;
}

/** After these a `/` divides; anywhere else it starts a regular expression. */
const ENDS_OPERAND = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.PrivateIdentifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
]);

const LITERAL_KINDS = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
]);

export function scanCode(text: string): TypeScriptCodeScan {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const comments: TextRange[] = [];
  const literals: TextRange[] = [];
  // `true` marks a brace that closes a template substitution, `false` an ordinary brace.
  const braces: boolean[] = [];
  let previous: ts.SyntaxKind | undefined;
  let lastCodeEnd = 0;
  let lastCodeKind: ts.SyntaxKind | undefined;
  let lastCodeStart = 0;
  for (let guard = 0; guard <= text.length + 1; guard++) {
    let token = scanner.scan();
    if (token === ts.SyntaxKind.EndOfFileToken) break;
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push({ start: scanner.getTokenStart(), end: scanner.getTokenEnd() });
      continue;
    }
    if (
      token === ts.SyntaxKind.WhitespaceTrivia ||
      token === ts.SyntaxKind.NewLineTrivia ||
      token === ts.SyntaxKind.ShebangTrivia ||
      token === ts.SyntaxKind.ConflictMarkerTrivia
    ) {
      continue;
    }
    if (token === ts.SyntaxKind.CloseBraceToken && braces.length > 0) {
      const closesSubstitution = braces.pop() === true;
      if (closesSubstitution) {
        token = scanner.reScanTemplateToken(false);
        if (token === ts.SyntaxKind.TemplateMiddle) braces.push(true);
      }
    } else if (token === ts.SyntaxKind.OpenBraceToken) {
      braces.push(false);
    } else if (token === ts.SyntaxKind.TemplateHead) {
      braces.push(true);
    } else if (
      (token === ts.SyntaxKind.SlashToken || token === ts.SyntaxKind.SlashEqualsToken) &&
      (previous === undefined || !ENDS_OPERAND.has(previous))
    ) {
      token = scanner.reScanSlashToken();
    }
    if (LITERAL_KINDS.has(token)) literals.push({ start: scanner.getTokenStart(), end: scanner.getTokenEnd() });
    previous = token;
    lastCodeStart = scanner.getTokenStart();
    lastCodeEnd = scanner.getTokenEnd();
    lastCodeKind = token;
  }
  const lastToken = lastCodeKind === undefined ? undefined : text.slice(lastCodeStart, lastCodeEnd);
  return { comments, literals, lastCodeEnd, lastToken, lastCodeKind };
}
