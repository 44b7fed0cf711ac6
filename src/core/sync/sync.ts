import type { TokenCounter } from '../context/tokens';
import type { EditConversation } from '../edit/conversation';
import { lineDiff } from './lineDiff';
import { renderChanges, type RenderedChanges } from './renderChanges';
import { splitLines, userChangesOf, type FileChanges } from './userChanges';

/**
 * The conversation's baselines meet the current text: what the user changed in each file since the model last saw
 * it, for the next request's context, `scalpel changes`, the chat's `/changes` and the `get_changes` tool.
 */

/**
 * How far apart two texts are, in characters of changed lines: how the conversation picks the closer of two candidate
 * baselines. A removed line and the added line in its place count only their differing middle, so a small edit of a
 * line the model also changed still counts as small.
 */
export function changeDistance(a: string, b: string): number {
  const diff = lineDiff(splitLines(a), splitLines(b), { context: 0, firstLine: 1 });
  let distance = 0;
  let removed: string[] = [];
  let added: string[] = [];
  const flush = (): void => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++)
      distance += middleLength(removed[i] ?? '', added[i] ?? '');
    removed = [];
    added = [];
  };
  for (const line of diff.lines) {
    if (line.sign === '-') removed.push(line.text);
    else if (line.sign === '+') added.push(line.text);
    else flush();
  }
  flush();
  return distance;
}

/** Characters of `a` and `b` outside their common head and tail. */
function middleLength(a: string, b: string): number {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail])
    tail += 1;
  return a.length + b.length - 2 * (head + tail);
}

/** The user's changes to `path` since the conversation's baseline; undefined when the model never saw the file. */
export function changesSinceBaseline(
  conversation: EditConversation,
  path: string,
  current: string | undefined,
): FileChanges | undefined {
  const baseline = conversation.baselineFor(path, current, changeDistance);
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
