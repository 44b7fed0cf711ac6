import { describeTypeErrors, type ProposedFileChange, type TypeCheckService } from '../src/core/check/typeCheck';

/**
 * What the checker benches (pythonChecks.ts, goChecks.ts) share: deliberate breaks and correct edits checked through
 * the edit service's type check, counted and tabled the same way.
 */

export interface CheckedEdit {
  readonly kind: string;
  readonly deliberate: boolean;
  readonly target: string;
  readonly newErrors: number;
  readonly firstError?: string;
  readonly ms: number;
  readonly warm: boolean;
}

/**
 * One edit checked through the edit service, timed; a check whose checker did not run (a note in its checks) stops
 * the bench, since it would count as nothing found.
 */
export async function timedCheck(
  service: TypeCheckService,
  change: ProposedFileChange,
  checker: string,
): Promise<{ newErrors: number; environmentErrors: number; firstError?: string; ms: number }> {
  const started = performance.now();
  const result = await service.check([change]);
  const ms = performance.now() - started;
  const skipped = result.checks.find((c) => c.note !== undefined);
  if (skipped !== undefined) throw new Error(`${checker} did not check ${change.file}: ${skipped.note ?? ''}`);
  const firstError = describeTypeErrors(result.newErrors).split('\n')[1];
  return {
    newErrors: result.newErrors.length,
    environmentErrors: result.environmentErrors.length,
    ...(firstError === undefined ? {} : { firstError }),
    ms,
  };
}

export interface CheckerTables {
  /** `Deliberate breaks caught: **n of m** (goal 100%); false alarms on correct edits: **k of l** (goal 0).` */
  readonly verdict: string;
  /** The per-kind table, one row per kind of edit. */
  readonly kinds: string[];
  /** The misses and false alarms as a list, or nothing when there are none. */
  readonly misses: string[];
  readonly warmMs: readonly number[];
  readonly coldMs: readonly number[];
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

export function checkerTables(results: readonly CheckedEdit[]): CheckerTables {
  const breaks = results.filter((r) => r.deliberate);
  const probes = results.filter((r) => !r.deliberate);
  const caught = breaks.filter((r) => r.newErrors > 0);
  const alarms = probes.filter((r) => r.newErrors > 0);
  const kinds = [...new Set(results.map((r) => r.kind))];
  return {
    verdict: `Deliberate breaks caught: **${caught.length} of ${breaks.length}** (goal 100%); false alarms on correct edits: **${alarms.length} of ${probes.length}** (goal 0).`,
    kinds: [
      '| edit | deliberate break | checks | with new errors |',
      '|---|---|---|---|',
      ...kinds.map((kind) => {
        const of = results.filter((r) => r.kind === kind);
        return `| ${kind} | ${of[0]?.deliberate === true ? 'yes' : 'no'} | ${of.length} | ${of.filter((r) => r.newErrors > 0).length} |`;
      }),
    ],
    misses:
      alarms.length === 0 && caught.length === breaks.length
        ? []
        : [
            'Misses and false alarms:',
            '',
            ...[...breaks.filter((r) => r.newErrors === 0), ...alarms].map(
              (r) => `- ${r.kind}: ${r.target}${r.firstError === undefined ? '' : `: ${r.firstError}`}`,
            ),
            '',
          ],
    warmMs: results.filter((r) => r.warm).map((r) => r.ms),
    coldMs: results.filter((r) => !r.warm).map((r) => r.ms),
  };
}

/** The baseline table: Scalpel's warm median beside one command-line run, per package. */
export function baselineTable(
  header: string,
  rows: readonly { readonly name: string; readonly scalpelWarmMs: number; readonly cliMs: number }[],
): string[] {
  return [
    header,
    '|---|---|---|---|',
    ...rows.map(
      (b) =>
        `| ${b.name} | ${seconds(b.scalpelWarmMs)} | ${seconds(b.cliMs)} | ${(b.scalpelWarmMs / b.cliMs).toFixed(2)}× |`,
    ),
  ];
}
