import type { LineSpan } from '../context/viewPieces';
import type { CreatePosition } from '../ops/operation';

/**
 * What a `NEED` line asks for beyond a path (issue 28), in planning and in edit rounds:
 * - `NEED <container> LAST_CHILD` (`FIRST_CHILD`, `AFTER <member>`, `BEFORE <member>`): the container is to get a
 *   member there; it is shown at the cost of that change (its header and own text, the members at the position in
 *   full, the others by signature or name) instead of with every body.
 * - `NEED <element> LINES 120-180`: those lines of a long element (a window widened).
 * - `NEED <element> USES`: its signature or export will change; its uses across the workspace come with it.
 * The words are read only at the end of the line, so a path holding them elsewhere is left alone.
 */

export interface NeedRequest {
  readonly path: string;
  readonly position?: CreatePosition;
  readonly lines?: LineSpan;
  readonly uses?: boolean;
}

export function readNeed(raw: string): NeedRequest {
  let path = raw.trim();
  let position: CreatePosition | undefined;
  let lines: LineSpan | undefined;
  let uses = false;
  for (;;) {
    const use = /\s+USES$/.exec(path);
    if (use !== null) {
      uses = true;
      path = path.slice(0, use.index);
      continue;
    }
    const span = /\s+LINES?\s+(\d+)(?:\s*(?:-|–|to)\s*(\d+))?$/.exec(path);
    if (span !== null) {
      const from = Number(span[1]);
      const to = span[2] === undefined ? from : Number(span[2]);
      lines = [Math.min(from, to), Math.max(from, to)];
      path = path.slice(0, span.index);
      continue;
    }
    const edge = /\s+(FIRST_CHILD|LAST_CHILD)$/.exec(path);
    if (edge !== null) {
      position = { kind: edge[1] === 'FIRST_CHILD' ? 'FIRST_CHILD' : 'LAST_CHILD' };
      path = path.slice(0, edge.index);
      continue;
    }
    const beside = /^(.+?)\s+(BEFORE|AFTER)\s+(\S.*)$/.exec(path);
    if (beside !== null && position === undefined) {
      const sibling = (beside[3] ?? '').trim();
      position = beside[2] === 'BEFORE' ? { kind: 'BEFORE', sibling } : { kind: 'AFTER', sibling };
      path = beside[1] ?? path;
      continue;
    }
    break;
  }
  return {
    path,
    ...(position === undefined ? {} : { position }),
    ...(lines === undefined ? {} : { lines }),
    ...(uses ? { uses } : {}),
  };
}
