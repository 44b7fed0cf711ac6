import { ts } from 'ts-morph';
import { buildContext } from '../src/core/context/buildContext';
import type { TokenCounter } from '../src/core/context/tokens';
import type { FileOutline } from '../src/core/elements/element';
import { outlineSource } from '../src/core/elements/outline';
import { applyOperations } from '../src/core/ops/apply';
import type { Operation } from '../src/core/ops/operation';
import { editBatchFor } from './editBatch';
import type { LargeModule } from './largeModules';
import { medianRatio, medians, timeInterleaved } from './timing';

/**
 * Warm speed on one large module, as ratios to TypeScript's own parse of the same text in the same rounds:
 * `ts.createSourceFile` with parent pointers, as the outline needs them, is the floor no element model can beat.
 * The ratios are of CPU time; wall-clock ratios are kept beside them.
 */

export const SPEED_SUBJECTS = ['parse', 'outline', 'context', 'outlineContext', 'apply'] as const;
export type SpeedSubject = (typeof SPEED_SUBJECTS)[number];

export interface SizeTimings {
  readonly file: string;
  readonly lines: number;
  readonly focus: string;
  readonly runs: number;
  /** Median CPU time of the process per subject, in milliseconds: what the targets are held against. */
  readonly cpuMs: Readonly<Record<SpeedSubject, number>>;
  /** Median wall-clock time per subject, in milliseconds. */
  readonly wallMs: Readonly<Record<SpeedSubject, number>>;
  /** Medians of the per-round ratios of CPU time to the parse's. */
  readonly outlineContextRatio: number;
  readonly applyRatio: number;
  /** The same ratios in wall-clock time, which a busy machine makes noisier. */
  readonly wallOutlineContextRatio: number;
  readonly wallApplyRatio: number;
  readonly batch: readonly string[];
  /** 'ok', or why the apply engine refused the batch (then the apply timing is of a refusal). */
  readonly applyOutcome: string;
  readonly operations: readonly Operation[];
}

export function measureSize(module: LargeModule, counter: TokenCounter, runs: number): SizeTimings {
  const { file, text } = module;
  const outline = outlineSource(file, text);
  const focus = middleElement(outline);
  const operations = editBatchFor(outline);
  const snapshot = { read: (path: string) => (path === file ? text : undefined) };
  const first = applyOperations(snapshot, operations);
  const failed = first.results.find((r) => r.status !== 'ok');
  const applyOutcome = first.ok
    ? 'ok'
    : `refused: ${failed?.operation.type ?? '?'} ${failed?.operation.path ?? ''}: ${failed?.message ?? 'no message'}`;

  const subjects: Record<SpeedSubject, () => unknown> = {
    parse: () => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS),
    outline: () => outlineSource(file, text),
    context: () => buildContext([{ outline, focus: [focus] }], counter),
    outlineContext: () => buildContext([{ outline: outlineSource(file, text), focus: [focus] }], counter),
    apply: () => applyOperations(snapshot, operations),
  };
  const { wall, cpu } = timeInterleaved(subjects, runs);
  const perSubject = (samples: Record<string, number[]>): Record<SpeedSubject, number> => {
    const m = medians(samples);
    return Object.fromEntries(SPEED_SUBJECTS.map((s) => [s, m[s] ?? Number.NaN])) as Record<SpeedSubject, number>;
  };
  const ratio = (samples: Record<string, number[]>, subject: SpeedSubject): number =>
    medianRatio(samples[subject] ?? [], samples['parse'] ?? []);
  return {
    file,
    lines: module.lines,
    focus,
    runs,
    cpuMs: perSubject(cpu),
    wallMs: perSubject(wall),
    outlineContextRatio: ratio(cpu, 'outlineContext'),
    applyRatio: ratio(cpu, 'apply'),
    wallOutlineContextRatio: ratio(wall, 'outlineContext'),
    wallApplyRatio: ratio(wall, 'apply'),
    batch: operations.map((o) => `${o.type} ${o.path}`),
    applyOutcome,
    operations,
  };
}

/**
 * The innermost element at the middle line, or the next one when the line falls between elements: where a cursor in
 * the middle of the file would ask for context.
 */
export function middleElement(outline: FileOutline): string {
  const line = Math.ceil(outline.lineCount / 2);
  let found: string | undefined;
  let level = outline.elements;
  for (;;) {
    const hit = level.find((e) => line <= e.endLine);
    if (hit === undefined) return found ?? outline.elements[outline.elements.length - 1]?.path ?? outline.file;
    found = hit.path;
    if (hit.startLine > line) return found;
    level = hit.children;
  }
}
