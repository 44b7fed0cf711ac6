/**
 * A line diff for small texts (one element, or a file that does not parse), in hunks with a few lines of context.
 * A longest common subsequence after trimming the equal head and tail: elements are short, and a change the table
 * would make too big to compute (over {@link MAX_CELLS}) is shown as all lines removed and added instead.
 */

export interface DiffHunkLine {
  /** `@`: a hunk header, `text` is the line number (in the new text) where the hunk starts. */
  readonly sign: ' ' | '+' | '-' | '@';
  readonly text: string;
}

export interface LineDiff {
  readonly lines: readonly DiffHunkLine[];
  readonly added: number;
  readonly removed: number;
}

export interface LineDiffOptions {
  /** Unchanged lines shown around each change. */
  readonly context: number;
  /** The line number of the new text's first line in its file (for the hunk headers). */
  readonly firstLine: number;
}

const MAX_CELLS = 4_000_000;

type Step = { readonly sign: ' ' | '+' | '-'; readonly text: string; readonly newLine: number };

export function lineDiff(before: readonly string[], after: readonly string[], options: LineDiffOptions): LineDiff {
  const steps = diffSteps(before, after);
  const added = steps.filter((s) => s.sign === '+').length;
  const removed = steps.filter((s) => s.sign === '-').length;
  if (added === 0 && removed === 0) return { lines: [], added, removed };
  const keep = new Array<boolean>(steps.length).fill(false);
  steps.forEach((step, i) => {
    if (step.sign === ' ') return;
    for (let j = Math.max(0, i - options.context); j <= Math.min(steps.length - 1, i + options.context); j++)
      keep[j] = true;
  });
  const lines: DiffHunkLine[] = [];
  let open = false;
  steps.forEach((step, i) => {
    if (!keep[i]) {
      open = false;
      return;
    }
    if (!open) lines.push({ sign: '@', text: String(options.firstLine + step.newLine) });
    open = true;
    lines.push({ sign: step.sign, text: step.text });
  });
  return { lines, added, removed };
}

/** Every line of both texts in order, marked kept, removed or added; `newLine` is the 0-based line in `after`. */
function diffSteps(before: readonly string[], after: readonly string[]): Step[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail += 1;
  const steps: Step[] = [];
  for (let i = 0; i < head; i++) steps.push({ sign: ' ', text: after[i] ?? '', newLine: i });
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    for (const text of a) steps.push({ sign: '-', text, newLine: head });
    b.forEach((text, j) => steps.push({ sign: '+', text, newLine: head + j }));
  } else {
    const table = new Uint32Array((n + 1) * (m + 1));
    const at = (i: number, j: number): number => table[i * (m + 1) + j] ?? 0;
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        table[i * (m + 1) + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) {
        steps.push({ sign: ' ', text: b[j] ?? '', newLine: head + j });
        i += 1;
        j += 1;
      } else if (j >= m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
        steps.push({ sign: '-', text: a[i] ?? '', newLine: head + j });
        i += 1;
      } else {
        steps.push({ sign: '+', text: b[j] ?? '', newLine: head + j });
        j += 1;
      }
    }
  }
  for (let k = after.length - tail; k < after.length; k++) steps.push({ sign: ' ', text: after[k] ?? '', newLine: k });
  return steps;
}
