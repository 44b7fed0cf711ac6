import type { Operation } from '../ops/operation';

/**
 * How one proposed change is named to the user: the preview's CodeLenses and light bulb, the Choose Changes quick
 * pick. Pure and import-free so the extension can use it without loading the engine.
 */

export interface ChangeLabelOptions {
  /** The file the label is shown in: paths inside it are shown relative to it. */
  readonly file?: string;
  /** The element's new path, when the operation renamed it (`OperationResult.renamedTo`). */
  readonly renamedTo?: string;
  /** The path the operation's was read as, when the model misspelled it (`OperationResult.readAs`). */
  readonly readAs?: string;
}

/** `edit method[validate]`, `add import`, `edit method[validate] → method[check] (renamed)`: in a few words. */
export function describeOperation(operation: Operation, options: ChangeLabelOptions = {}): string {
  const path = withoutFileMarker(options.readAs ?? operation.path);
  const { file, renamedTo } = options;
  const target = file !== undefined && path.startsWith(`${file}/`) ? path.slice(file.length + 1) : path;
  const renamed = renamedTo === undefined || renamedTo === path ? '' : ` → ${newPart(path, renamedTo)} (renamed)`;
  switch (operation.type) {
    case 'REPLACE_ELEMENT':
      return `replace ${target}${renamed}`;
    case 'PATCH_ELEMENT':
      return `edit ${target}${renamed}`;
    case 'DELETE_ELEMENT':
      return `delete ${target}`;
    case 'RENAME_ELEMENT':
      return `rename ${target} to ${operation.newName}`;
    case 'CREATE_ELEMENT': {
      // Named, so a list of changes says which method is new (issue 14), not only where it goes.
      const name = declaredName(operation.content);
      if (name === undefined) return `add ${operation.elementKind ?? 'an element'} to ${target}`;
      return `add ${operation.elementKind === undefined ? name : `${operation.elementKind}[${name}]`} to ${target}`;
    }
    case 'ADD_IMPORT':
      return `add import in ${target}`;
    case 'REMOVE_IMPORT':
      return `remove import in ${target}`;
    case 'CREATE_FILE':
      return `create ${path}`;
    case 'REPLACE_FILE':
      return `rewrite ${path}`;
  }
}

const MODIFIERS =
  /^(?:(?:export|default|declare|public|private|protected|static|readonly|abstract|override|async|get|set|accessor)\s+)*/;
const DECLARATION =
  /^(?:function\s*\*?\s*|class\s+|interface\s+|type\s+|enum\s+|namespace\s+|const\s+|let\s+|var\s+)?\*?\s*(#?[A-Za-z_$][\w$]*)/;

/**
 * The name the content declares, read from its first line of code (after JSDoc, comments and decorators): enough for a
 * label, and import-free like the rest of this module. Undefined when the line is not a plain declaration.
 */
function declaredName(content: string): string | undefined {
  for (const raw of content.split('\n')) {
    const line = raw.trim();
    if (line === '' || /^(?:\/\/|\/\*|\*|@)/.test(line)) continue;
    const name = DECLARATION.exec(line.replace(MODIFIERS, ''))?.[1];
    return name === undefined || /^(?:constructor|import|return|if|for|while)$/.test(name) ? undefined : name;
  }
  return undefined;
}

// The `file:` marker some answers put in front (the engine's operationPath; repeated so this module stays import-free).
function withoutFileMarker(path: string): string {
  return path.replace(/^file:/i, '');
}

/** The segments of the new path after those it shares with the old one: `method[check]` for a renamed method. */
function newPart(oldPath: string, newPath: string): string {
  const before = topLevelParts(oldPath);
  const after = topLevelParts(newPath);
  let shared = 0;
  // Keep at least the last segment: a path that only lost segments still names what it became.
  while (shared < after.length - 1 && before[shared] === after[shared]) shared += 1;
  return after.slice(shared).join('/');
}

/** A path cut at its `/` separators, not at slashes inside a bracketed name (`import[node:path/posix]`). */
function topLevelParts(path: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    const char = path.charAt(i);
    if (char === '\\' && depth > 0) i += 1;
    else if (char === '[') depth += 1;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (char === '/' && depth === 0) {
      parts.push(path.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(path.slice(start));
  return parts;
}
