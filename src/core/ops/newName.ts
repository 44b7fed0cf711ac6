/**
 * What a declaration may be renamed to (issue 27): the rename tool and RENAME_ELEMENT take the same names. Rename is
 * TypeScript/JavaScript only, so the rules are ECMAScript's: an identifier, and none of its reserved words.
 */

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;

/** Words no declaration may be named (ECMAScript reserved words, strict mode's included). */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'implements interface let package private protected public static yield await'
  ).split(' '),
);

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

export function isReservedWord(name: string): boolean {
  return RESERVED.has(name);
}

/** Why `name` cannot be a new name, in words, or undefined when it can. */
export function newNameProblem(name: string): string | undefined {
  if (!isIdentifier(name)) return 'is not an identifier (letters, digits, _ or $, not starting with a digit)';
  if (isReservedWord(name)) return 'is a reserved word';
  return undefined;
}
