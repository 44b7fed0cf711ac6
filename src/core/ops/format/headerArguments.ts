import type { CreatePosition, OperationType } from '../operation';
import { normalizePath, splitArguments } from './headerLine';
import { clip, ok, problem, readKindToken, readPosition, type Checked } from './operationParts';

export interface HeaderArguments {
  readonly path: string;
  readonly position?: CreatePosition;
  readonly elementKind?: string;
}

/** Reads what follows the keyword: `<path>`, and for CREATE_ELEMENT `<position> [<sibling>] [KIND=<kind>]`. */
export function readHeaderArguments(type: OperationType, args: string): Checked<HeaderArguments> {
  const tokens = splitArguments(args);
  if (tokens[0] !== undefined && /^file:$/i.test(tokens[0])) tokens.shift();
  const path = tokens[0] === undefined ? '' : normalizePath(tokens[0]);
  const usage = type === 'CREATE_ELEMENT' ? `${type} <path> <position> [KIND=<kind>]` : `${type} <path>`;
  if (path === '') return problem(`${type} has no path`, usage);
  const rest = tokens.slice(1);
  if (type !== 'CREATE_ELEMENT') {
    if (rest.length === 0) return ok({ path });
    return problem(
      `unexpected text after the path: "${clip(rest.join(' '))}"`,
      `${usage} (quote a path that holds spaces; code goes in the fenced block)`,
    );
  }
  let elementKind: string | undefined;
  const positional: string[] = [];
  for (const token of rest) {
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
  return ok(
    elementKind === undefined ? { path, position: position.value } : { path, position: position.value, elementKind },
  );
}
