import { ts } from 'ts-morph';
import type { ElementNode, TextRange } from '../../elements/element';
import { indentBefore, indentOfLine, nextLineStartOf } from '../../ops/apply/textStyle';
import type { ContainerFlavor, ContainerLookup } from '../languageSupport';
import { parseSource } from './typescriptOutline';

/**
 * What the element model does not say but an edit needs: which kind of container an element is, where its braces
 * are, whether a variable shares its statement with others, where imports and top-level code begin.
 */

/** A variable declaration that shares its statement with others. */
export interface VariableDeclarator {
  readonly statement: ts.VariableStatement;
  readonly index: number;
  readonly declarations: readonly ts.VariableDeclaration[];
}

/** Comments that address the whole file and must stay at its top: `@ts-nocheck`, `/// <reference>`, licences. */
const FILE_PRAGMA =
  /^\/\/\/\s*<|@ts-(?:no)?check|eslint-disable(?!-next-line|-line)|eslint-env|\bglobals?\b|jshint|@jsx|@license|@preserve|copyright/i;

export class FileSyntax {
  readonly sourceFile: ts.SourceFile;

  constructor(
    readonly file: string,
    readonly text: string,
    /** The parse of `text` when the caller has one already. */
    sourceFile: ts.SourceFile = parseSource(file, text),
  ) {
    this.sourceFile = sourceFile;
  }

  /** Nodes whose range contains [start, end), outermost first. */
  private chainAt(start: number, end: number): ts.Node[] {
    const chain: ts.Node[] = [];
    let current: ts.Node = this.sourceFile;
    for (;;) {
      let next: ts.Node | undefined;
      current.forEachChild((child) => {
        if (next === undefined && child.getStart(this.sourceFile) <= start && end <= child.end) next = child;
      });
      if (next === undefined) return chain;
      chain.push(next);
      current = next;
    }
  }

  /** The node spanning exactly [start, end) (first token to end), outermost first. */
  nodeSpanning(start: number, end: number): ts.Node | undefined {
    return this.chainAt(start, end).find((n) => n.getStart(this.sourceFile) === start && n.end === end);
  }

  private membersBraces(members: ts.NodeArray<ts.Node>): TextRange {
    const open = this.text.lastIndexOf('{', members.pos);
    const close = this.text.indexOf('}', members.end);
    return { start: open, end: close + 1 };
  }

  /** The container an element is, for CREATE_ELEMENT; a reason when it holds no members. */
  containerOf(element: ElementNode): ContainerLookup {
    const body = element.bodyRange;
    const refuse = (reason: string): ContainerLookup => ({ ok: false, reason });
    if (body === undefined) return refuse(`${element.kind} ${element.name} has no body that holds elements`);
    for (const node of this.chainAt(body.start, body.end)) {
      let flavor: ContainerFlavor | undefined;
      let braces: TextRange | undefined;
      if (ts.isClassLike(node)) {
        braces = this.membersBraces(node.members);
        flavor = 'class';
      } else if (ts.isInterfaceDeclaration(node)) {
        braces = this.membersBraces(node.members);
        flavor = 'interface';
      } else if (ts.isEnumDeclaration(node)) {
        braces = this.membersBraces(node.members);
        flavor = 'enum';
      } else if (ts.isObjectLiteralExpression(node)) {
        braces = { start: node.getStart(this.sourceFile), end: node.end };
        flavor = 'object';
      } else if (ts.isTypeLiteralNode(node)) {
        braces = { start: node.getStart(this.sourceFile), end: node.end };
        flavor = 'typeLiteral';
      } else if (ts.isModuleBlock(node)) {
        braces = { start: node.getStart(this.sourceFile), end: node.end };
        flavor = 'namespace';
      } else if (
        ts.isBlock(node) &&
        (element.kind === 'statement' || element.kind === 'call') &&
        (ts.isArrowFunction(node.parent) || ts.isFunctionExpression(node.parent))
      ) {
        braces = { start: node.getStart(this.sourceFile), end: node.end };
        flavor = 'callback';
      }
      if (flavor !== undefined && braces !== undefined && braces.start === body.start && braces.end === body.end) {
        return {
          ok: true,
          container: { flavor, open: body.start, close: body.end - 1, indent: this.indentOfBraces(body) },
        };
      }
    }
    if (element.kind === 'namespace') {
      return refuse(
        `namespace ${element.name} is declared with a dotted name; create inside its innermost namespace instead`,
      );
    }
    return refuse(
      `${element.kind} ${element.name} has a code body, not members; edit it with REPLACE_ELEMENT or PATCH_ELEMENT`,
    );
  }

  private indentOfBraces(body: TextRange): string {
    const close = body.end - 1;
    const beforeClose = indentBefore(this.text, close);
    return beforeClose ?? indentOfLine(this.text, body.start);
  }

  /** The statement a variable element shares with other declarators, when it does. */
  declaratorOf(element: ElementNode): VariableDeclarator | undefined {
    if (element.kind !== 'variable') return undefined;
    const node = this.nodeSpanning(element.declarationRange.start, element.declarationRange.end);
    if (node === undefined || !ts.isVariableDeclaration(node)) return undefined;
    const list = node.parent;
    const statement = list.parent;
    if (!ts.isVariableDeclarationList(list) || !ts.isVariableStatement(statement)) return undefined;
    if (list.declarations.length < 2) return undefined;
    return { statement, index: list.declarations.indexOf(node), declarations: list.declarations };
  }

  /**
   * Where a statement starts with the comments directly above it (no blank line between), as the element model
   * counts an element's range.
   */
  statementRange(statement: ts.Statement): TextRange {
    const tokenStart = statement.getStart(this.sourceFile);
    const comments = ts.getLeadingCommentRanges(this.text, statement.pos) ?? [];
    let start = tokenStart;
    for (let i = comments.length - 1; i >= 0; i--) {
      const comment = comments[i];
      if (comment === undefined || /\n[ \t\f\v]*\r?\n/.test(this.text.slice(comment.end, start))) break;
      start = comment.pos;
    }
    return { start, end: statement.end };
  }

  /** Top-level import declarations (`import ... from`, `import x = require(...)`). */
  imports(): (ts.ImportDeclaration | ts.ImportEqualsDeclaration)[] {
    return this.sourceFile.statements.filter(
      (s): s is ts.ImportDeclaration | ts.ImportEqualsDeclaration =>
        ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s),
    );
  }

  /**
   * The line where code starts: after a shebang, the directive prologue (`'use strict'`) and header comments (a
   * licence, `// @ts-check`), but before a doc comment that belongs to the first statement.
   */
  topInsertionOffset(): number {
    let offset = this.text.startsWith('\uFEFF') ? 1 : 0;
    if (this.text.startsWith('#!', offset)) offset = nextLineStartOf(this.text, offset);
    let first: ts.Statement | undefined;
    for (const statement of this.sourceFile.statements) {
      if (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression)) {
        offset = nextLineStartOf(this.text, statement.end);
        continue;
      }
      first = statement;
      break;
    }
    const fullStart = first === undefined ? this.sourceFile.endOfFileToken.pos : first.pos;
    const tokenStart = first === undefined ? this.text.length : first.getStart(this.sourceFile);
    // From the statement's full start: comments are only "leading" after the line break that precedes them.
    const comments = (ts.getLeadingCommentRanges(this.text, fullStart) ?? []).filter((c) => c.pos >= offset);
    // Comments right above the first statement stay with it, unless they speak to the whole file.
    let keep = comments.length;
    let next = tokenStart;
    while (keep > 0) {
      const comment = comments[keep - 1];
      if (comment === undefined) break;
      const attached = !/\n[ \t\f\v]*\r?\n/.test(this.text.slice(comment.end, next));
      if (!attached || first === undefined || FILE_PRAGMA.test(this.text.slice(comment.pos, comment.end))) break;
      keep -= 1;
      next = comment.pos;
    }
    const lastHeader = comments[keep - 1];
    if (lastHeader !== undefined) offset = Math.max(offset, nextLineStartOf(this.text, lastHeader.end));
    return offset;
  }

  /**
   * Whether most statements and members of the file end with `;`. A file that shows none (only comments, or only
   * declarations with bodies) says nothing: new code keeps the terminators it comes with, none is added.
   */
  usesSemicolons(): boolean {
    let withSemicolon = 0;
    let without = 0;
    const visit = (node: ts.Node): void => {
      if (
        ts.isVariableStatement(node) ||
        ts.isExpressionStatement(node) ||
        ts.isReturnStatement(node) ||
        ts.isImportDeclaration(node) ||
        ts.isExportDeclaration(node) ||
        ts.isTypeAliasDeclaration(node) ||
        ts.isPropertyDeclaration(node)
      ) {
        if (this.text.charCodeAt(node.end - 1) === 59) withSemicolon += 1;
        else without += 1;
      }
      node.forEachChild(visit);
    };
    visit(this.sourceFile);
    return withSemicolon > 0 && withSemicolon >= without;
  }

  /** The quote most import specifiers use. */
  quote(): "'" | '"' {
    let single = 0;
    let double = 0;
    for (const statement of this.sourceFile.statements) {
      const specifier =
        ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
      if (specifier === undefined) continue;
      const first = this.text.charAt(specifier.getStart(this.sourceFile));
      if (first === "'") single += 1;
      else if (first === '"') double += 1;
    }
    return double > single ? '"' : "'";
  }

  /** Indentation of an element when it starts its own line; undefined when it shares the line with code before it. */
  ownLineIndent(offset: number): string | undefined {
    return indentBefore(this.text, offset);
  }
}
