import * as vscode from 'vscode';

/** Small formatting helpers shared by the chat answers. */

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** "74% fewer" for 312 against 1,204; "no fewer" when the whole file was sent. */
export function savingOf(tokens: number, wholeTokens: number): string {
  if (wholeTokens <= 0 || tokens >= wholeTokens) return 'no fewer: the whole file was sent';
  return `${Math.round((1 - tokens / wholeTokens) * 100)}% fewer`;
}

/** A code fence longer than any backtick run in the text, so the text cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Escapes text for inline markdown (a model's or a user's words must not turn into links or emphasis). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);
}

export function inlineCode(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${text}${fence.length > 1 ? ' ' : ''}${fence}`;
}

/**
 * A code block, folded behind a summary line when it is longer than `foldAfterLines` so a long context does not
 * push the answer out of view.
 */
export function codeBlock(text: string, summary: string, foldAfterLines: number, language = ''): vscode.MarkdownString {
  const fence = fenceFor(text);
  return folded(
    `${fence}${language}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}\n`,
    text.split('\n').length,
    summary,
    foldAfterLines,
  );
}

/** Markdown that already holds its own code blocks (Scalpel's context is written that way), folded when long. */
export function foldedMarkdown(body: string, summary: string, foldAfterLines: number): vscode.MarkdownString {
  return folded(body.endsWith('\n') ? body : `${body}\n`, body.split('\n').length, summary, foldAfterLines);
}

function folded(body: string, lineCount: number, summary: string, foldAfterLines: number): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  if (lineCount <= foldAfterLines) {
    markdown.appendMarkdown(`${escapeMarkdown(summary)}\n\n${body}`);
    return markdown;
  }
  markdown.supportHtml = true;
  markdown.appendMarkdown(
    `<details><summary>${escapeHtml(summary)} (${plural(lineCount, 'line')}, click to expand)</summary>\n\n${body}\n</details>\n`,
  );
  return markdown;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}
