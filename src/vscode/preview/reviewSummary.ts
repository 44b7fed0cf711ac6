import type { EditSession, EditSessions } from './editSessions';
import { describeChange } from './editSessions';
import {
  attributeTypeErrors,
  changeTargetOf,
  type ReviewTypeError,
  type TypeErrorAttribution,
} from './typeErrorReview';

/**
 * What the review panel lists for each pending edit: its changed elements, each with its state and the actions that
 * apply to it. Plain data, rendered as HTML by reviewView.ts and read by the integration tests through the API.
 */

export type ReviewState = 'proposed' | 'accepted' | 'conflict';

export interface ReviewAction {
  readonly label: string;
  readonly command: string;
  readonly arguments: readonly unknown[];
  readonly tooltip: string;
}

export interface ReviewItem {
  readonly index: number;
  /** `replace class[User]/method[canEdit]`, relative to its file. */
  readonly label: string;
  readonly file: string;
  readonly state: ReviewState;
  /** Why it conflicts: the user changed the element meanwhile. */
  readonly reason?: string;
  readonly actions: readonly ReviewAction[];
  /** New type errors inside what this change changes (the check ran on the whole batch). */
  readonly typeErrors: readonly ReviewTypeError[];
}

export interface ReviewEdit {
  readonly editId: string;
  readonly title: string;
  readonly files: readonly string[];
  /** What the model said beside its operations (issue 18), when the edit carries it. */
  readonly notes: readonly string[];
  readonly items: readonly ReviewItem[];
  readonly actions: readonly ReviewAction[];
  /**
   * New type errors of the changes still in the edit, and those no single change can be named for (callers), which
   * stay as long as any change does.
   */
  readonly typeErrors: { readonly total: number; readonly elsewhere: readonly ReviewTypeError[] };
}

/** Which change brings which of the edit's new type errors. */
export function typeErrorsOfSession(sessions: EditSessions, session: EditSession): TypeErrorAttribution {
  const files = sessions.filesOf(session);
  return attributeTypeErrors(
    session.edit.typeErrors ?? [],
    session.edit.operations.map((operation, index) => changeTargetOf(index, operation, files)),
  );
}

export function reviewOf(sessions: EditSessions, session: EditSession, canRetry: boolean): ReviewEdit {
  const editId = session.edit.id;
  const conflicts = new Map(session.resolution.conflicts.map((c) => [c.index, c.reason]));
  const fileOf = (index: number): string => {
    const operation = session.edit.operations[index];
    const path = operation?.path.replace(/^file:/i, '') ?? '';
    return sessions.filesOf(session).find((f) => path === f || path.startsWith(`${f}/`)) ?? path;
  };
  const items: ReviewItem[] = [];
  const attribution = typeErrorsOfSession(sessions, session);
  const indices = [...session.accepted, ...session.included].sort((a, b) => a - b);
  for (const index of indices) {
    const file = fileOf(index);
    const label = describeChange(session, index, file);
    const reason = conflicts.get(index);
    const accepted = session.accepted.has(index);
    const state: ReviewState = reason !== undefined ? 'conflict' : accepted ? 'accepted' : 'proposed';
    const actions: ReviewAction[] = [];
    if (reason === undefined)
      actions.push({
        label: 'Show',
        command: 'scalpel.revealChange',
        arguments: [editId, index],
        tooltip: `Show ${label} in the diff`,
      });
    if (!accepted && reason === undefined)
      actions.push({
        label: 'Accept',
        command: 'scalpel.acceptChange',
        arguments: [editId, index],
        tooltip: `Keep ${label}; the batch is written when every change is decided (one Undo)`,
      });
    if (reason !== undefined && canRetry)
      actions.push({
        label: 'Retry',
        command: 'scalpel.retryEdit',
        arguments: [editId],
        tooltip: 'Ask the model again with the same instruction, on your current text (this proposal is discarded)',
      });
    if (!accepted)
      actions.push({
        label: 'Reject',
        command: 'scalpel.rejectChange',
        arguments: [editId, index],
        tooltip: `Leave ${label} out of the edit`,
      });
    const typeErrors = attribution.byChange.get(index) ?? [];
    items.push({ index, label, file, state, ...(reason === undefined ? {} : { reason }), actions, typeErrors });
  }
  const undecided = items.filter((i) => i.state !== 'accepted').length;
  const accepted = items.length - undecided;
  const actions: ReviewAction[] = [
    {
      label: undecided === items.length ? 'Accept All' : `Accept the ${undecided} Left`,
      command: 'scalpel.acceptEdit',
      arguments: [editId],
      tooltip: 'Write every change of this edit as one edit (one Undo reverts it); Ctrl+Alt+Enter',
    },
    {
      label: accepted === 0 ? 'Reject All' : `Reject the Rest, Write the ${accepted} Accepted`,
      command: 'scalpel.rejectEdit',
      arguments: [editId],
      tooltip: 'Discard what is not accepted; Ctrl+Alt+Backspace',
    },
    {
      label: 'Choose…',
      command: 'scalpel.chooseChanges',
      arguments: [editId],
      tooltip: 'Pick which changes to keep',
    },
    {
      label: 'Open Diff',
      command: 'scalpel.previewEdit',
      arguments: [editId],
      tooltip: 'The current file beside the proposal',
    },
  ];
  const notes = (session.edit.notes ?? []).filter((n) => n.trim() !== '');
  const elsewhere = items.length === 0 ? [] : attribution.elsewhere;
  const total = items.reduce((sum, item) => sum + item.typeErrors.length, 0) + elsewhere.length;
  return {
    editId,
    title: session.edit.title,
    files: sessions.filesOf(session),
    notes,
    items,
    actions,
    typeErrors: { total, elsewhere },
  };
}
