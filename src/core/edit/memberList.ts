import type { TokenCounter } from '../context/tokens';
import type { ElementNode } from '../elements/element';

/**
 * The members of an element too large to send in full, as the model can NEED them instead: each label relative to
 * the element with its lines (`method[put] 8-10`), as many as fit `maxTokens`, then how many more and where. The NEED
 * answer of an edit round and the planning round say it alike.
 */
export function memberList(element: ElementNode, counter: TokenCounter, maxTokens = MEMBER_LIST_TOKENS): string {
  const labels = element.children.map((child) => `${child.path.slice(element.path.length + 1)} ${linesOf(child)}`);
  let used = 0;
  let shown = 0;
  for (const label of labels) {
    const tokens = counter.count(`${label}, `);
    if (used + tokens > maxTokens) break;
    used += tokens;
    shown += 1;
  }
  const rest = element.children.slice(shown);
  const first = rest[0];
  const last = rest[rest.length - 1];
  const more =
    first === undefined || last === undefined
      ? ''
      : `, … and ${rest.length} more (lines ${first.startLine}-${last.endLine})`;
  return `${labels.slice(0, shown).join(', ')}${more}`;
}

/** How much of a budget a member list may take: 73 members of a C# test class are about 600 tokens. */
export const MEMBER_LIST_TOKENS = 1_500;

function linesOf(element: ElementNode): string {
  return element.startLine === element.endLine ? `${element.startLine}` : `${element.startLine}-${element.endLine}`;
}
