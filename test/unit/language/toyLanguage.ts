import type { ElementNode, FileOutline, SyntaxProblem } from '../../../src/core/elements/element';
import { formatElementPath, formatSegment, normalizeFilePath } from '../../../src/core/elements/elementPath';
import { countLines } from '../../../src/core/elements/lines';
import type { ContainerFlavor, LanguageSupport, SourceEditor } from '../../../src/core/language/languageSupport';

/**
 * A toy language that exists only to prove the seam: a second language plugs in through `registerLanguage` with no
 * edit to apply, context, diff or the surfaces. A `.toy` file is a list of top-level definitions:
 *
 *     fn greet          a function: its body lines are indented, `end` closes it
 *       say hello
 *     end
 *     let port = 8080   a variable: one line
 *
 * Anything else at column 0 is a syntax error, as is a function without its `end`.
 */

interface Definition {
  readonly kind: 'function' | 'variable';
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function read(text: string): { definitions: Definition[]; errors: SyntaxProblem[] } {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const definitions: Definition[] = [];
  const errors: SyntaxProblem[] = [];
  let open: { name: string; startLine: number } | undefined;
  lines.forEach((line, i) => {
    const lineNumber = i + 1;
    if (line.trim() === '' || /^\s/.test(line)) {
      if (open === undefined && line.trim() !== '')
        errors.push({ message: 'indented line outside a function', line: lineNumber, column: 1 });
      return;
    }
    const fn = /^fn ([A-Za-z_]\w*)$/.exec(line);
    const variable = /^let ([A-Za-z_]\w*) = .+$/.exec(line);
    if (open !== undefined) {
      if (line === 'end') {
        definitions.push({ kind: 'function', name: open.name, startLine: open.startLine, endLine: lineNumber });
        open = undefined;
      } else {
        errors.push({ message: `'end' expected to close fn ${open.name}`, line: lineNumber, column: 1 });
      }
      return;
    }
    if (fn?.[1] !== undefined) open = { name: fn[1], startLine: lineNumber };
    else if (variable?.[1] !== undefined)
      definitions.push({ kind: 'variable', name: variable[1], startLine: lineNumber, endLine: lineNumber });
    else errors.push({ message: `unexpected "${line}"`, line: lineNumber, column: 1 });
  });
  if (open !== undefined)
    errors.push({ message: `'end' expected to close fn ${open.name}`, line: lines.length, column: 1 });
  return { definitions, errors };
}

function outlineToy(file: string, text: string): FileOutline {
  const path = normalizeFilePath(file);
  const { definitions, errors } = read(text);
  const starts = lineStarts(text);
  const lineEnd = (line: number): number => {
    const next = starts[line];
    const end = next === undefined ? text.length : next - 1;
    return text.charCodeAt(end - 1) === 13 ? end - 1 : end;
  };
  const elements: ElementNode[] = definitions.map((d) => {
    const start = starts[d.startLine - 1] ?? 0;
    const range = { start, end: lineEnd(d.endLine) };
    return {
      kind: d.kind,
      name: d.name,
      path: formatElementPath(path, [formatSegment(d.kind, d.name)]),
      range,
      declarationRange: range,
      startLine: d.startLine,
      endLine: d.endLine,
      signature: text.slice(start, lineEnd(d.startLine)),
      children: [],
    };
  });
  return { file: path, text, language: 'toy', elements, syntaxErrors: errors, lineCount: countLines(text) };
}

function toyEditor(file: string, text: string): SourceEditor {
  return {
    outline: outlineToy(file, text),
    semicolons: false,
    containerOf: (element) => ({ ok: false, reason: `${element.kind} ${element.name} holds no elements` }),
    shapeOf: (content: string, _flavor: ContainerFlavor) => {
      const shape = outlineToy('content.toy', content);
      return { elements: shape.elements, syntaxErrors: shape.syntaxErrors, statementLike: false, terminated: false };
    },
    keepModifiers: (body) => body,
    topInsertionOffset: () => 0,
    declarators: undefined,
    imports: undefined,
  };
}

export const toyLanguage: LanguageSupport = {
  id: 'toy',
  displayName: 'Toy',
  extensions: ['.toy'],
  vscodeLanguageIds: ['toy'],
  outline: outlineToy,
  // No comments and no string literals: the last token is the last word.
  scanCode: (text) => {
    const end = text.trimEnd().length;
    const lastToken = /\S+$/.exec(text.slice(0, end))?.[0];
    return { comments: [], literals: [], lastCodeEnd: end, lastToken };
  },
  editor: toyEditor,
};
