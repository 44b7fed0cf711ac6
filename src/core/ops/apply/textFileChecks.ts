import { parseAllDocuments } from 'yaml';
import { readFenceLine, closes, type FenceLine } from '../format/fences';

/**
 * Checks for the files the element model does not read (JSON, YAML, Markdown, other text), so a whole-file
 * operation on one is verified for what the file is, as code is by its parser. Only a problem the new text brings is
 * reported: a file that was already broken may stay broken.
 */

export interface TextFileProblem {
  readonly message: string;
  readonly hint: string;
}

/** JSON files that tools read as JSON with comments and trailing commas (tsconfig, VS Code's settings, ...). */
const JSONC_NAMES =
  /(?:^|\/)(?:tsconfig(?:\.[^/]*)?\.json|jsconfig(?:\.[^/]*)?\.json|\.vscode\/[^/]+\.json|[^/]+\.code-workspace|\.eslintrc\.json|\.babelrc|devcontainer\.json|\.devcontainer\/[^/]+\.json)$/i;

export function textFileProblem(path: string, before: string | undefined, after: string): TextFileProblem | undefined {
  const check = checkerFor(path);
  if (check === undefined) return undefined;
  const problem = check(after);
  if (problem === undefined) return undefined;
  if (before !== undefined && check(before) !== undefined) return undefined;
  return problem;
}

type Checker = (text: string) => TextFileProblem | undefined;

function checkerFor(path: string): Checker | undefined {
  const lower = path.toLowerCase();
  if (JSONC_NAMES.test(lower) || lower.endsWith('.jsonc') || lower.endsWith('.json5')) return jsoncProblem;
  if (lower.endsWith('.json')) return jsonProblem;
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return yamlProblem;
  if (/\.(?:md|mdx|markdown)$/.test(lower)) return markdownProblem;
  return undefined;
}

function jsonProblem(text: string): TextFileProblem | undefined {
  if (text.trim() === '') return { message: 'the JSON file is empty', hint: 'send the complete JSON' };
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      message: `the new content is not valid JSON (${reason})`,
      hint: 'send the complete file as strict JSON: no comments, no trailing commas, every string and bracket closed',
    };
  }
}

function jsoncProblem(text: string): TextFileProblem | undefined {
  if (text.trim() === '') return { message: 'the JSON file is empty', hint: 'send the complete JSON' };
  try {
    JSON.parse(withoutCommentsAndTrailingCommas(text));
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      message: `the new content is not valid JSON with comments (${reason})`,
      hint: 'send the complete file; comments and trailing commas are fine here, unclosed strings and brackets are not',
    };
  }
}

/**
 * JSON with comments as tsconfig and VS Code read it, turned into strict JSON of the same length and line layout
 * (comments and trailing commas become spaces), so JSON.parse's positions still point into the file. One pass.
 * (jsonc-parser would do this too, but its UMD build cannot be bundled by esbuild.)
 */
export function withoutCommentsAndTrailingCommas(text: string): string {
  const out: string[] = [];
  let pendingComma = -1;
  let index = 0;
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === '"') {
      const start = index;
      index += 1;
      while (index < text.length && text.charAt(index) !== '"' && text.charAt(index) !== '\n') {
        index += text.charAt(index) === '\\' ? 2 : 1;
      }
      index += 1;
      pendingComma = -1;
      out.push(text.slice(start, index));
      continue;
    }
    if (char === '/' && text.charAt(index + 1) === '/') {
      const end = text.indexOf('\n', index);
      const stop = end < 0 ? text.length : end;
      out.push(' '.repeat(stop - index));
      index = stop;
      continue;
    }
    if (char === '/' && text.charAt(index + 1) === '*') {
      const end = text.indexOf('*/', index + 2);
      const stop = end < 0 ? text.length : end + 2;
      out.push(text.slice(index, stop).replace(/[^\n]/g, ' '));
      index = stop;
      continue;
    }
    if (char === ',') {
      pendingComma = out.length;
    } else if ((char === '}' || char === ']') && pendingComma >= 0) {
      out[pendingComma] = ' ';
      pendingComma = -1;
    } else if (!/\s/.test(char)) {
      pendingComma = -1;
    }
    out.push(char);
    index += 1;
  }
  return out.join('');
}

function yamlProblem(text: string): TextFileProblem | undefined {
  const documents = parseAllDocuments(text, { prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(documents) ? documents : [documents];
  for (const document of list) {
    const first = document.errors[0];
    if (first === undefined) continue;
    const line = first.linePos?.[0]?.line ?? lineAt(text, first.pos[0]);
    return {
      message: `the new content is not valid YAML: ${firstLine(first.message)} (line ${line})`,
      hint: 'send the complete file as valid YAML; check the indentation and quoting around that line',
    };
  }
  return undefined;
}

/**
 * A Markdown file that ends inside a code block: CommonMark lets it run to the end of the file, but in an answer it
 * means the content was cut or a fence lost its partner.
 */
function markdownProblem(text: string): TextFileProblem | undefined {
  const open = unclosedFence(text);
  if (open === undefined) return undefined;
  return {
    message: `the new Markdown ends inside the code block opened at line ${open.line} (${open.fence.char.repeat(open.fence.length)}${open.fence.info}): its closing fence is missing or the content was cut`,
    hint: `close every code block in the file, and fence the whole content with more ${open.fence.char === '`' ? 'backticks' : 'tildes'} than any fence inside it`,
  };
}

export function unclosedFence(text: string): { readonly line: number; readonly fence: FenceLine } | undefined {
  let open: { line: number; fence: FenceLine } | undefined;
  let lineNumber = 0;
  for (const line of text.split('\n')) {
    lineNumber += 1;
    // CommonMark: indented four or more columns it is code, not a fence.
    const fence = readFenceLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (fence === undefined || fence.indent > 3) continue;
    if (open === undefined) open = { line: lineNumber, fence };
    else if (closes(fence, open.fence) && fence.info === '') open = undefined;
  }
  return open;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let index = text.indexOf('\n'); index >= 0 && index < end; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}

function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
