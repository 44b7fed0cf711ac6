/**
 * Glob patterns for file and element paths: `*` any run without `/`, `**` any run (slashes included), `?` one
 * character; everything else literal (so the brackets of `class[User]` need no escape). A pattern without a wildcard
 * matches as a substring, case-insensitively, the way a search box does.
 */
export function globMatcher(pattern: string): (text: string) => boolean {
  if (!/[*?]/.test(pattern)) {
    const needle = pattern.toLowerCase();
    return (text) => text.toLowerCase().includes(needle);
  }
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? '';
    if (char === '*' && pattern[i + 1] === '*') {
      source += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`, 'i');
  return (text) => regex.test(text);
}
