/**
 * What bench/contextReplay.ts sends each version's replay driver (bench/replay/driver.ts) and gets back. Plain JSON:
 * the driver of an older commit is bundled from that commit's tree with this file copied beside it.
 */

export interface ReplayJob {
  readonly id: string;
  /** The package folder the edit's file lives in: the workspace its references are found in. */
  readonly root: string;
  /** The file's path inside `root`. */
  readonly file: string;
  readonly before: string;
  readonly after: string;
  readonly instruction: string;
  /** The edit as Scalpel's operations (the element diff of before and after). */
  readonly operations: string;
  /** What the planning answer NEEDs, with positions, LINES and USES where the version reads them. */
  readonly needs: readonly string[];
  /** The same as plain paths, for a version that reads only paths. */
  readonly plainNeeds: readonly string[];
}

export interface ContextJob {
  readonly id: string;
  readonly root: string;
  readonly file: string;
  readonly text: string;
  /** Element paths in full (containers included: what the version shows for a change to them). */
  readonly focus: readonly string[];
}

export interface ReplayInput {
  /** Edits whose operations this version must reproduce without a model. */
  readonly checks?: readonly Pick<ReplayJob, 'id' | 'file' | 'before' | 'after' | 'operations'>[];
  readonly replays?: readonly ReplayJob[];
  /** The same edits with every file sent whole (no planning, no references). */
  readonly wholeReplays?: readonly ReplayJob[];
  readonly contexts?: readonly ContextJob[];
}

export interface ReplayJobResult {
  readonly id: string;
  readonly whole: boolean;
  /** Input tokens of each request, as sent. */
  readonly inputs: readonly number[];
  /** The phase of each request (plan, code, repair). */
  readonly phases: readonly string[];
  readonly ok: boolean;
  /** The edit applied and gave the new text. */
  readonly matches: boolean;
  readonly failure?: string;
}

export interface ReplayOutput {
  readonly version: string;
  readonly checks: Record<string, boolean>;
  readonly replays: ReplayJobResult[];
  readonly contexts: Array<{ readonly id: string; readonly tokens: number }>;
}
