/** Lines of a text as an editor counts them: a final line break ends the last line, it does not start another. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines += 1;
  return text.endsWith('\n') ? lines - 1 : lines;
}
