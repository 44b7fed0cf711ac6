import * as vscode from 'vscode';

/** Offsets into a text (the snapshot, which may differ from the editor by now) as VS Code positions. */
export class LineIndex {
  private readonly lineStarts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  positionAt(offset: number): vscode.Position {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return new vscode.Position(low, offset - (this.lineStarts[low] ?? 0));
  }

  offsetAt(position: vscode.Position): number {
    const start = this.lineStarts[Math.min(position.line, this.lineStarts.length - 1)] ?? 0;
    return start + position.character;
  }

  rangeOf(start: number, end: number): vscode.Range {
    return new vscode.Range(this.positionAt(start), this.positionAt(end));
  }
}
