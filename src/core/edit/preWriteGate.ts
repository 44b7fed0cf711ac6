import type { FileChange } from '../ops/apply';

/**
 * The last check before a verified batch becomes a change set: may these files be written at all? Issue 17 plugs in
 * containment (a target that resolves outside the root) and protected paths (`.git/`, `.vscode/*.json`, `.env*`,
 * ...). A gate refuses a file, or asks the user (through the surface's `confirm`) before it may be written.
 */

export interface PreWriteRequest {
  /** The changes the batch would write, verified against the snapshot. */
  readonly changes: readonly FileChange[];
  /** Files the user named (command line, active editor, chat reference): a gate may treat them as allowed. */
  readonly namedFiles: readonly string[];
}

export interface GateFinding {
  readonly path: string;
  /** `refuse`: never written; `ask`: written only if the user confirms. */
  readonly decision: 'refuse' | 'ask';
  readonly reason: string;
}

export interface PreWriteGate {
  /** Findings for the files that may not be written as they are; an empty list lets the batch through. */
  check(request: PreWriteRequest): readonly GateFinding[] | Promise<readonly GateFinding[]>;
}

/** Runs every gate; returns the findings of all of them, in gate order. */
export async function runPreWriteGates(
  gates: readonly PreWriteGate[],
  request: PreWriteRequest,
): Promise<GateFinding[]> {
  const findings: GateFinding[] = [];
  for (const gate of gates) findings.push(...(await gate.check(request)));
  return findings;
}
