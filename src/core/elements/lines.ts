/** Lines of a text as an editor counts them: a final line break ends the last line, it does not start another. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines += 1;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Line numbers of offsets in one text, by binary search over its line starts. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  /** Offset line `line` (1-based) starts at. */
  startOfLine(line: number): number {
    return this.starts[line - 1] ?? 0;
  }

  /** Line `line` (1-based) of `text` as written, without its line break (nor a CR before it). */
  lineText(text: string, line: number): string {
    const start = this.starts[line - 1] ?? text.length;
    const next = this.starts[line];
    return text.slice(start, next === undefined ? text.length : next - 1).replace(/\r$/, '');
  }
}
