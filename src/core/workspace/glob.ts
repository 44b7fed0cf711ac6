/**
 * Globs as VS Code reads them in `files.exclude`, `scalpel.exclude` and `scalpel.allowWrite`, shared by the core's
 * write policy and the extension's exclusions.
 */

/**
 * A VS Code glob (`**`, `*`, `?`, `{a,b}`, `[a-z]`) as a regular expression over a whole workspace-relative path
 * with forward slashes, the way `files.exclude` and `search.exclude` read them.
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${globSource(glob.replace(/^\.\//, '').replace(/\/+$/, ''))}$`);
}

function globSource(glob: string): string {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] ?? '';
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const atSegmentStart = i === 0 || glob[i - 1] === '/';
        const followedBySlash = glob[i + 2] === '/';
        if (atSegmentStart && followedBySlash) {
          source += '(?:[^/]*/)*';
          i += 2;
        } else {
          source += '.*';
          i += 1;
        }
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '{') {
      const close = matchingBrace(glob, i);
      if (close === -1) {
        source += '\\{';
        continue;
      }
      const alternatives = splitAlternatives(glob.slice(i + 1, close));
      source += `(?:${alternatives.map(globSource).join('|')})`;
      i = close;
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      const body = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
      source += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
      i = close;
    } else {
      source += char.replace(/[.+^$()|\\\]]/g, '\\$&');
    }
  }
  return source;
}

function matchingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** The path and each folder above it: a glob that matches a folder covers everything in it. */
export function pathAndParents(path: string): string[] {
  const segments = path.split('/');
  return segments.map((_, i) => segments.slice(0, segments.length - i).join('/'));
}

/** The first of `globs` that matches `path` (workspace-relative, forward slashes) or a folder above it. */
export function firstMatchingGlob(globs: readonly string[], path: string): string | undefined {
  const candidates = pathAndParents(path);
  return globs.find((glob) => {
    const regExp = globToRegExp(glob);
    return candidates.some((candidate) => regExp.test(candidate));
  });
}
