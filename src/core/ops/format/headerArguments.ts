import type { BlankLinesAround, CreatePosition, OperationType } from '../operation';
import { filePartOf } from '../../elements/elementPath';
import { languageInfoOf } from '../../language/languageCatalog';
import { newNameProblem } from '../newName';
import { normalizePath, splitArguments, unquote } from './headerLine';
import { clip, ok, problem, readBlankLinesToken, readKindToken, readPosition, type Checked } from './operationParts';

export interface HeaderArguments {
  readonly path: string;
  readonly position?: CreatePosition;
  readonly elementKind?: string;
  readonly blankLines?: BlankLinesAround;
  /** RENAME_ELEMENT's new name. */
  readonly newName?: string;
}

/**
 * Reads what follows the keyword: `<path>`, and for CREATE_ELEMENT `<position> [<sibling>] [KIND=<kind>]
 * [BLANK_LINES=<above>,<below>]`, and for RENAME_ELEMENT `<newName>`.
 */
export function readHeaderArguments(type: OperationType, args: string): Checked<HeaderArguments> {
  const tokens = splitArguments(args);
  if (tokens[0] !== undefined && /^file:$/i.test(tokens[0])) tokens.shift();
  const path = tokens[0] === undefined ? '' : normalizePath(tokens[0]);
  const usage =
    type === 'CREATE_ELEMENT'
      ? `${type} <path> <position> [KIND=<kind>] [BLANK_LINES=<above>,<below>]`
      : type === 'RENAME_ELEMENT'
        ? `${type} <path> <newName>, e.g. ${type} src/user.ts/class[User]/method[save] persist`
        : `${type} <path>`;
  if (path === '') return problem(`${type} has no path`, usage);
  const rest = tokens.slice(1);
  if (type === 'RENAME_ELEMENT') return readNewName(path, rest, usage);
  if (type !== 'CREATE_ELEMENT') {
    if (rest.length === 0) return ok({ path });
    return problem(
      `unexpected text after the path: "${clip(rest.join(' '))}"`,
      `${usage} (quote a path that holds spaces; code goes in the fenced block)`,
    );
  }
  let elementKind: string | undefined;
  let blankLines: BlankLinesAround | undefined;
  const positional: string[] = [];
  for (const token of rest) {
    const blanks = readBlankLinesToken(token);
    if (blanks !== undefined) {
      if (!blanks.ok) return blanks;
      if (blankLines !== undefined) return problem('BLANK_LINES is given twice', 'one BLANK_LINES=<above>,<below>');
      blankLines = blanks.value;
      continue;
    }
    const kind = readKindToken(token);
    if (kind === undefined) {
      positional.push(token);
    } else if (!kind.ok) {
      return kind;
    } else if (elementKind !== undefined) {
      return problem(`the element kind is given twice ("${elementKind}", "${kind.value}")`, 'one KIND=<kind>');
    } else {
      elementKind = kind.value;
    }
  }
  if (positional.length > 2) {
    return problem(`unexpected text after the position: "${clip(positional.slice(2).join(' '))}"`, usage);
  }
  const position = readPosition(positional[0], positional[1]);
  if (!position.ok) return position;
  return ok({
    path,
    position: position.value,
    ...(elementKind === undefined ? {} : { elementKind }),
    ...(blankLines === undefined ? {} : { blankLines }),
  });
}

function readNewName(path: string, rest: readonly string[], usage: string): Checked<HeaderArguments> {
  const [token, ...extra] = rest;
  if (token === undefined) return problem(`RENAME_ELEMENT ${clip(path)} has no new name`, usage);
  if (extra.length > 0)
    return problem(`unexpected text after the new name: "${clip(extra.join(' '))}"`, `${usage} (no code block)`);
  const newName = checkedNewName(unquote(token), path);
  return newName.ok ? ok({ path, newName: newName.value }) : newName;
}

/**
 * The new name as given, or why it cannot be one in the language of `path`'s file; the text and the JSON reader say
 * it alike.
 */
export function checkedNewName(newName: string, path: string): Checked<string> {
  const language = languageInfoOf(filePartOf(path) ?? path);
  const why = newNameProblem(newName, language?.id);
  if (why !== undefined)
    return problem(
      `the new name "${clip(newName)}" ${why}`,
      `a ${language?.displayName ?? 'TypeScript/JavaScript'} identifier, e.g. persist`,
    );
  return ok(newName);
}
