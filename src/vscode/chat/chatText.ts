/** Small formatting helpers shared by the chat answers. */

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** "74% fewer" for 312 against 1,204; undefined when there is no saving to speak of. */
export function savingOf(tokens: number, wholeTokens: number): string | undefined {
  if (wholeTokens <= 0 || tokens >= wholeTokens) return undefined;
  return `${Math.round((1 - tokens / wholeTokens) * 100)}% fewer`;
}

/**
 * Tokens sent against the whole files, in words that never contradict themselves: "**312 tokens** instead of 1,204
 * for the whole file (74% fewer)", or, when the file went whole, "**360 tokens**: the whole file (343) and 17 for
 * Scalpel's element labels". `note` goes right after the count (the encoding).
 */
export function tokensAgainstWhole(tokens: number, wholeTokens: number, wholeLabel: string, note = ''): string {
  const count = `**${formatCount(tokens)} tokens**${note === '' ? '' : ` ${note}`}`;
  const saved = savingOf(tokens, wholeTokens);
  if (saved !== undefined) return `${count} instead of ${formatCount(wholeTokens)} for ${wholeLabel} (${saved})`;
  if (tokens === wholeTokens || wholeTokens <= 0) return `${count}, as many as ${wholeLabel}`;
  return `${count}: ${wholeLabel} (${formatCount(wholeTokens)}) and ${formatCount(tokens - wholeTokens)} for Scalpel's element labels`;
}

/** A code fence longer than any backtick run in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

export function inlineCode(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${text}${fence.length > 1 ? ' ' : ''}${fence}`;
}

/** At most `maxLines` lines of `text`, and how many were left out. */
export function firstLines(text: string, maxLines: number): { readonly shown: string; readonly hidden: number } {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length <= maxLines) return { shown: lines.join('\n'), hidden: 0 };
  return { shown: lines.slice(0, maxLines).join('\n'), hidden: lines.length - maxLines };
}

/** Text shown verbatim in a code block (a model's answer): fenced so that no backtick run in it can close the block. */
export function codeBlock(text: string, language = ''): string {
  const fence = fenceFor(text);
  return `${fence}${language}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}\n`;
}

/**
 * The first `maxLines` lines of markdown that holds its own code blocks (Scalpel's context is written that way),
 * with a block cut in the middle closed again.
 */
export function markdownExcerpt(
  markdown: string,
  maxLines: number,
): { readonly shown: string; readonly hidden: number } {
  const { shown, hidden } = firstLines(markdown, maxLines);
  if (hidden === 0) return { shown, hidden };
  let open: string | undefined;
  for (const line of shown.split('\n')) {
    const fence = /^(`{3,})/.exec(line)?.[1];
    if (fence === undefined) continue;
    if (open === undefined) open = fence;
    else if (line.trim() === open) open = undefined;
  }
  return { shown: open === undefined ? shown : `${shown}\n${open}`, hidden };
}
