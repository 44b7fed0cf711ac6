import type { TokenCounter } from '../context/tokens';
import type { EditConversation } from '../edit/conversation';
import { lineDiff } from './lineDiff';
import { renderChanges, type RenderedChanges } from './renderChanges';
import { splitLines, userChangesOf, type FileChanges } from './userChanges';

/**
 * The conversation's baselines meet the current text: what the user changed in each file since the model last saw
 * it, for the next request's context, `scalpel changes`, the chat's `/changes` and the `get_changes` tool.
 */

/** Changed lines between two texts: how the conversation picks the closer of two candidate baselines. */
export function changedLineCount(a: string, b: string): number {
  const diff = lineDiff(splitLines(a), splitLines(b), { context: 0, firstLine: 1 });
  return diff.added + diff.removed;
}

/** The user's changes to `path` since the conversation's baseline; undefined when the model never saw the file. */
export function changesSinceBaseline(
  conversation: EditConversation,
  path: string,
  current: string | undefined,
): FileChanges | undefined {
  const baseline = conversation.baselineFor(path, current, changedLineCount);
  if (baseline === undefined) return undefined;
  return userChangesOf(path, baseline, current);
}

/** The title of the prompt section: the model reads it before the task. */
export const CHANGES_SECTION_TITLE =
  'Changed by the user since you last saw it (the code above is the current text; keep these changes unless the task says otherwise):';

/** Default share of the context budget the section may take, and its ceiling. */
export const CHANGES_SECTION_SHARE = 0.25;
export const CHANGES_SECTION_MAX_TOKENS = 3_000;

export interface ChangesSection extends RenderedChanges {
  readonly files: readonly FileChanges[];
}

/**
 * The section "changed by the user since you last saw it" for the files of a request the model saw before in this
 * conversation and that changed since; undefined when there is nothing to say.
 */
export function changesSection(
  conversation: EditConversation | undefined,
  paths: readonly string[],
  read: (path: string) => string | undefined,
  counter: TokenCounter,
  budget: number,
): ChangesSection | undefined {
  if (conversation === undefined) return undefined;
  const files = paths.flatMap((path) => {
    const changes = changesSinceBaseline(conversation, path, read(path));
    return changes === undefined || changes.status === 'unchanged' ? [] : [changes];
  });
  if (files.length === 0) return undefined;
  const rendered = renderChanges(files, {
    counter,
    budget,
    title: CHANGES_SECTION_TITLE,
    moreHint: 'the elements in focus above show their current text in full',
  });
  return { ...rendered, files };
}
