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

/** Asks the user about the files a gate wants confirmed; true lets the batch through. */
export type ConfirmWrite = (findings: readonly GateFinding[]) => Promise<boolean>;

export type GatePassage =
  | { readonly ok: true; readonly findings: readonly GateFinding[] }
  | {
      readonly ok: false;
      readonly findings: readonly GateFinding[];
      /** The finding that stopped the batch: the first refusal, else the first unconfirmed question. */
      readonly stoppedBy: GateFinding;
      /** One line, the same on every surface. */
      readonly failure: string;
    };

/**
 * The gates' verdict on a batch: a refusal stops it, questions go to `confirm` (none: they stop it too). Every surface
 * passes a batch through here, so each says the same when it stops one.
 */
export async function passPreWriteGates(
  gates: readonly PreWriteGate[],
  request: PreWriteRequest,
  confirm?: ConfirmWrite,
): Promise<GatePassage> {
  const findings = await runPreWriteGates(gates, request);
  const asked = findings.filter((f) => f.decision === 'ask');
  const refused = findings.some((f) => f.decision === 'refuse');
  if (!refused && (asked.length === 0 || (await confirm?.(asked)) === true)) return { ok: true, findings };
  const stoppedBy = firstStop(findings) ?? { path: '', decision: 'refuse', reason: 'refused' };
  return { ok: false, findings, stoppedBy, failure: gateFailureMessage(stoppedBy) };
}

/** The finding a stopped batch is reported by: the first refusal, else the first question. */
export function firstStop(findings: readonly GateFinding[]): GateFinding | undefined {
  return findings.find((f) => f.decision === 'refuse') ?? findings[0];
}

/** Why a batch was not written, as every surface says it (the disk writer's last-moment check words it alike). */
export function gateFailureMessage(finding: GateFinding): string {
  const why = finding.decision === 'ask' ? `it is protected: ${finding.reason}` : finding.reason;
  return `${finding.path}: ${why}; nothing was written`;
}
