import type { ts } from 'ts-morph';
import type { ElementNode, FileOutline } from '../../elements/element';
import { normalizeFilePath } from '../../elements/elementPath';
import { TYPESCRIPT_INFO } from '../languageCatalog';
import type {
  ContainerFlavor,
  ContainerLookup,
  ContentShape,
  DeclaratorContent,
  DeclaratorEditing,
  DeclaratorFate,
  DeclaratorInfo,
  ImportBook,
  ImportContent,
  ImportEditing,
  LanguageSupport,
  SourceEditor,
} from '../languageSupport';
import { scanCode } from './codeScan';
import { shapeOfContent } from './contentShape';
import { declaresVariable, readDeclaratorContent, rewriteDeclarations, variableHead } from './declarators';
import { withExportKept } from './exportKept';
import { importBindingChange } from './importChanges';
import { FileSyntax, type VariableDeclarator } from './fileSyntax';
import { ImportPlan } from './importPlan';
import { readImportContent, splitLeadingImports } from './imports';
import { outlineParsedSource, outlineTypeScript, parseSource } from './typescriptOutline';
import { TypeScriptSemantics } from './typescriptSemantics';

/** TypeScript and JavaScript (with JSX), through the compiler's parser as ts-morph ships it. */
export const typescriptLanguage: LanguageSupport = {
  ...TYPESCRIPT_INFO,
  outline: (file, text) => outlineTypeScript(file, text),
  scanCode: (text) => scanCode(text),
  editor: (file, text) => new TypeScriptEditor(normalizeFilePath(file), text),
  importBindingChange: (beforeText, afterText) => importBindingChange(beforeText, afterText),
  semantics: (fileSystem, options) =>
    new TypeScriptSemantics(fileSystem, options?.toolchain === undefined ? {} : { sdk: options.toolchain }),
};

class TypeScriptEditor implements SourceEditor {
  readonly outline: FileOutline;
  readonly semicolons: boolean;
  readonly declarators: DeclaratorEditing;
  readonly imports: ImportEditing;
  private readonly syntax: FileSyntax;

  constructor(
    private readonly file: string,
    text: string,
  ) {
    // One parse serves the outline and every syntax question of the planner.
    const sourceFile = parseSource(file, text);
    this.outline = outlineParsedSource(file, sourceFile);
    this.syntax = new FileSyntax(file, text, sourceFile);
    this.semicolons = this.syntax.usesSemicolons();
    this.declarators = new TypeScriptDeclarators(file, text, this.syntax);
    this.imports = new TypeScriptImports(file, text, this.outline, this.syntax, this.semicolons);
  }

  containerOf(element: ElementNode): ContainerLookup {
    return this.syntax.containerOf(element);
  }

  shapeOf(content: string, flavor: ContainerFlavor): ContentShape {
    return shapeOfContent(content, flavor, this.file);
  }

  keepModifiers(body: string, node: ElementNode): string {
    return withExportKept(this.file, this.syntax, body, node);
  }

  topInsertionOffset(): number {
    return this.syntax.topInsertionOffset();
  }
}

/** The TypeScript statement behind a {@link DeclaratorInfo}. */
interface TypeScriptDeclaratorInfo extends DeclaratorInfo {
  readonly statement: ts.VariableStatement;
}

class TypeScriptDeclarators implements DeclaratorEditing {
  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly syntax: FileSyntax,
  ) {}

  declaratorOf(element: ElementNode): DeclaratorInfo | undefined {
    const found: VariableDeclarator | undefined = this.syntax.declaratorOf(element);
    if (found === undefined) return undefined;
    const info: TypeScriptDeclaratorInfo = {
      statement: found.statement,
      index: found.index,
      count: found.declarations.length,
      statementStart: found.statement.getStart(this.syntax.sourceFile),
      statementEnd: found.statement.end,
      statementRange: this.syntax.statementRange(found.statement),
    };
    return info;
  }

  readContent(info: DeclaratorInfo, content: string, name: string): DeclaratorContent {
    return readDeclaratorContent(this.file, content, name, variableHead(statementOf(info)));
  }

  declares(info: DeclaratorInfo, code: string, name: string, asStatement: boolean): boolean {
    const { keyword } = variableHead(statementOf(info));
    return declaresVariable(this.file, code, name, keyword, asStatement);
  }

  rewrite(info: DeclaratorInfo, fates: ReadonlyMap<number, DeclaratorFate>, lineBreak: string): string {
    return rewriteDeclarations(this.text, this.syntax.sourceFile, statementOf(info), fates, lineBreak);
  }
}

function statementOf(info: DeclaratorInfo): ts.VariableStatement {
  // Only TypeScriptDeclarators.declaratorOf makes the infos this class is handed.
  return (info as TypeScriptDeclaratorInfo).statement;
}

class TypeScriptImports implements ImportEditing {
  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly outline: FileOutline,
    private readonly syntax: FileSyntax,
    private readonly semicolons: boolean,
  ) {}

  read(content: string): ImportContent {
    return readImportContent(content);
  }

  splitLeading(content: string): { imports: string; code: string } | undefined {
    return splitLeadingImports(this.file, content);
  }

  isDeclaration(content: string): boolean {
    return /^\s*import\b/.test(content);
  }

  book(eol: '\n' | '\r\n'): ImportBook {
    const importElements = this.outline.elements.filter((e) => e.kind === 'import');
    const text = this.text;
    const braceSpacing = !importElements.some((e) => /\{\S/.test(text.slice(e.declarationRange.start, e.range.end)));
    return new ImportPlan(
      importElements.map((element) => ({
        element,
        text: text.slice(element.declarationRange.start, element.range.end),
      })),
      { quote: this.syntax.quote(), semicolon: this.semicolons, braceSpacing, eol },
      this.file,
    );
  }
}
