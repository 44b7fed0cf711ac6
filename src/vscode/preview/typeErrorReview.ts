import type { NewTypeError } from '../../core/check/typeCheck';

/**
 * Which change of a pending edit brings which new type error, for the review panel and the question Accept asks
 * (issue 29). An error inside the element a change targets belongs to that change (the innermost target wins); one in
 * an element no change targets (a caller in another file, a call in the same file) cannot be pinned on one change
 * without checking each change alone, so it is listed for the batch. No `vscode` import: unit-tested alone.
 */

export interface ReviewTypeError {
  /** Index into the pending edit's `typeErrors`: what `scalpel.showTypeError` opens. */
  readonly index: number;
  readonly file: string;
  readonly line: number;
  /** TypeScript's code as a number (2554), another checker's own code as a string (`reportCallIssue`). */
  readonly code: number | string;
  /** The checker's message, its first line. */
  readonly message: string;
  /** `src/index.ts:17`, for a link's text. */
  readonly where: string;
}

/**
 * What a change targets: an element (and what is inside it), a whole file (REPLACE_FILE, CREATE_FILE), the imports
 * of a file (ADD_IMPORT, REMOVE_IMPORT), or nothing an error can be placed in (an element created at a file's top
 * level, whose new path the operation does not name).
 */
export interface ChangeTarget {
  readonly index: number;
  readonly path: string;
  readonly scope: 'element' | 'file' | 'imports' | 'none';
}

/** The target of an operation, from its type and path (and the files of the batch, to tell a file from an element). */
export function changeTargetOf(
  index: number,
  operation: { readonly type: string; readonly path: string },
  files: readonly string[],
): ChangeTarget {
  const path = operation.path.replace(/^file:/i, '');
  const isFile = files.includes(path);
  if (operation.type === 'REPLACE_FILE' || operation.type === 'CREATE_FILE') return { index, path, scope: 'file' };
  if (operation.type === 'ADD_IMPORT' || operation.type === 'REMOVE_IMPORT') return { index, path, scope: 'imports' };
  return { index, path, scope: isFile ? 'none' : 'element' };
}

export interface TypeErrorAttribution {
  /** Per change (operation index), the errors inside what it changes. */
  readonly byChange: ReadonlyMap<number, readonly ReviewTypeError[]>;
  /** Errors no single change can be named for: in callers, or outside every changed element. */
  readonly elsewhere: readonly ReviewTypeError[];
}

export function reviewTypeErrorOf(error: NewTypeError, index: number): ReviewTypeError {
  return {
    index,
    file: error.file,
    line: error.line,
    code: error.code,
    message: error.message.split('\n')[0]?.trim() ?? '',
    where: `${error.file}:${error.line}`,
  };
}

function contains(target: ChangeTarget, error: NewTypeError): boolean {
  const at = error.elementPath;
  switch (target.scope) {
    case 'file':
      return error.file === target.path;
    case 'imports':
      return at !== undefined && at.startsWith(`${target.path}/import[`);
    case 'element':
      return at !== undefined && (at === target.path || at.startsWith(`${target.path}/`));
    case 'none':
      return false;
  }
}

const SCOPE_ORDER: Readonly<Record<ChangeTarget['scope'], number>> = { element: 0, imports: 1, file: 2, none: 3 };

export function attributeTypeErrors(
  errors: readonly NewTypeError[],
  targets: readonly ChangeTarget[],
): TypeErrorAttribution {
  const byChange = new Map<number, ReviewTypeError[]>();
  const elsewhere: ReviewTypeError[] = [];
  errors.forEach((error, index) => {
    const reviewed = reviewTypeErrorOf(error, index);
    // The most specific target holds it: a method replaced inside a class that also gets a new member.
    const owner = targets
      .filter((t) => contains(t, error))
      .sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] || b.path.length - a.path.length)[0];
    if (owner === undefined) elsewhere.push(reviewed);
    else byChange.set(owner.index, [...(byChange.get(owner.index) ?? []), reviewed]);
  });
  return { byChange, elsewhere };
}

/**
 * The errors accepting these changes may bring that the user was not asked about yet: those inside the changes, and
 * the batch's own (in callers), which any change may be the cause of.
 */
export function errorsToConfirm(
  attribution: TypeErrorAttribution,
  changes: readonly number[],
  confirmed: ReadonlySet<number>,
): { readonly inChanges: ReviewTypeError[]; readonly elsewhere: ReviewTypeError[] } {
  const fresh = (error: ReviewTypeError): boolean => !confirmed.has(error.index);
  return {
    inChanges: changes.flatMap((index) => attribution.byChange.get(index) ?? []).filter(fresh),
    elsewhere: attribution.elsewhere.filter(fresh),
  };
}

/** A code as it is shown (`TS2554`, `reportCallIssue`): the core's one rule, light enough for activation. */
export { errorCodeLabel as codeLabel } from '../../core/graph/semantics';
