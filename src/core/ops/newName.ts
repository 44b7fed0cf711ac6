/**
 * What a declaration may be renamed to (issue 27): the rename tool and RENAME_ELEMENT take the same names. Each
 * language has its own identifier syntax and keywords; a language not listed here (TypeScript/JavaScript, the default)
 * follows ECMAScript's: an identifier, and none of its reserved words.
 */

interface NameRules {
  readonly identifier: RegExp;
  /** What the identifier may hold, in words, for the refusal. */
  readonly described: string;
  readonly reserved: ReadonlySet<string>;
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter((w) => w !== ''));

const ECMASCRIPT: NameRules = {
  identifier: /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u,
  described: 'letters, digits, _ or $, not starting with a digit',
  // ECMAScript reserved words, strict mode's included.
  reserved: words(`break case catch class const continue debugger default delete do else enum export extends false
    finally for function if import in instanceof new null return super switch this throw true try typeof var void
    while with implements interface let package private protected public static yield await`),
};

/** Unicode's identifier syntax (Python, Rust and C# follow it, with `_`). */
const UNICODE_IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;
const PLAIN = 'letters, digits or _, not starting with a digit';

const BY_LANGUAGE: Readonly<Record<string, NameRules>> = {
  python: {
    identifier: UNICODE_IDENTIFIER,
    described: PLAIN,
    reserved: words(`False None True and as assert async await break class continue def del elif else except finally
      for from global if import in is lambda nonlocal not or pass raise return try while with yield`),
  },
  go: {
    // The Go spec: a letter or _, then letters, decimal digits or _.
    identifier: /^[\p{L}_][\p{L}\p{Nd}_]*$/u,
    described: PLAIN,
    reserved: words(`break case chan const continue default defer else fallthrough for func go goto if import interface
      map package range return select struct switch type var _`),
  },
  rust: {
    identifier: UNICODE_IDENTIFIER,
    described: PLAIN,
    reserved: words(`as break const continue crate else enum extern false fn for if impl in let loop match mod move mut
      pub ref return self Self static struct super trait true type unsafe use where while async await dyn abstract
      become box do final macro override priv typeof unsized virtual yield try gen _`),
  },
  java: {
    identifier: /^[\p{ID_Start}_$][\p{ID_Continue}$]*$/u,
    described: 'letters, digits, _ or $, not starting with a digit',
    reserved: words(`abstract assert boolean break byte case catch char class const continue default do double else
      enum extends final finally float for goto if implements import instanceof int interface long native new package
      private protected public return short static strictfp super switch synchronized this throw throws transient try
      void volatile while true false null _`),
  },
  csharp: {
    identifier: UNICODE_IDENTIFIER,
    described: PLAIN,
    reserved: words(`abstract as base bool break byte case catch char checked class const continue decimal default
      delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int
      interface internal is lock long namespace new null object operator out override params private protected public
      readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof
      uint ulong unchecked unsafe ushort using virtual void volatile while`),
  },
};

function rulesOf(languageId: string | undefined): NameRules {
  return (languageId === undefined ? undefined : BY_LANGUAGE[languageId]) ?? ECMASCRIPT;
}

/** Whether `name` is an identifier of some language Scalpel renames in (the tool checks it before the language). */
export function isIdentifier(name: string): boolean {
  return ECMASCRIPT.identifier.test(name) || Object.values(BY_LANGUAGE).some((r) => r.identifier.test(name));
}

/** Why `name` cannot be a new name in the language (`typescript` when absent), in words, or undefined when it can. */
export function newNameProblem(name: string, languageId?: string): string | undefined {
  const rules = rulesOf(languageId);
  if (!rules.identifier.test(name)) return `is not an identifier (${rules.described})`;
  if (rules.reserved.has(name)) return 'is a reserved word';
  return undefined;
}
