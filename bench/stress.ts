import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../src/cli/cliError';
import { diskSnapshot, writeChanges } from '../src/cli/writeChanges';
import { applyOperations } from '../src/core/ops/apply';
import { FileBeingSavedError } from '../src/core/workspace/fileFingerprint';
import { DEFAULT_QUIET_MS } from '../src/core/write/readWhole';
import type { Operation } from '../src/core/ops/operation';
import { numberOption, runBenchMain } from './benchSection';
import { renderStressSection, spliceStressSection, type StressResult } from './stressReport';
import { findRepoRootOrThrow } from './workspacePaths';

/**
 * Lost saves under stress: another process (bench/stressSaver.ts) saves the same files every few milliseconds while
 * Scalpel reads them, applies a batch and writes it, in a loop, for a bounded time. A save is lost when a Scalpel
 * write built from an older read replaces it. Reported per 10,000 saves; the goal is under 1.
 *
 * `node out/bench/stress.js [--seconds N --interval MS --slow-pause MS --quiet MS] [--files 3] [--json] [--write]`: without --seconds or --interval
 * the runs of STRESS_RUNS; `--write` puts the section into bench/results.md (npm run bench does that too).
 */

function fileText(marker: number, value: number): string {
  return `export const saved = ${marker};\nexport function target(): number {\n  return ${value};\n}\n\nexport const other = 1;\n// end of save ${marker}\n`;
}

/** One run: how often the saver saves, how long its slow saves pause half-way, and how long Scalpel's reads wait. */
export interface StressRun {
  readonly intervalMs: number;
  readonly seconds: number;
  /** 0: no slow saves. */
  readonly slowPauseMs: number;
  /** undefined: Scalpel's default (src/core/write/readWhole.ts); 0: read at once, the writer's checks alone. */
  readonly quietMs: number | undefined;
}

export async function runStress(run: StressRun, fileCount: number): Promise<StressResult> {
  const { seconds, intervalMs } = run;
  const dir = mkdtempSync(join(tmpdir(), 'scalpel-stress-'));
  try {
    mkdirSync(join(dir, 'src'));
    const files = Array.from({ length: fileCount }, (_, i) => `src/f${i}.ts`);
    for (const file of files) writeFileSync(join(dir, file), fileText(0, 0));
    const saverScript = join(__dirname, 'stressSaver.js');
    if (!existsSync(saverScript)) throw new Error(`${saverScript} is missing: run node scripts/build.mjs --tests`);
    const saver = spawn(
      process.execPath,
      [
        saverScript,
        dir,
        ...files,
        '--interval',
        String(intervalMs),
        '--seconds',
        String(seconds),
        '--slow-pause',
        String(run.slowPauseMs),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    saver.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => saver.on('exit', (code) => resolve(code)));

    let batches = 0;
    let written = 0;
    let conflicts = 0;
    let otherFailures = 0;
    let rescued = 0;
    let beingSaved = 0;
    let applyMs = 0;
    let writeMs = 0;
    // Scalpel stops a little before the saver, whose last look at the files then sees what Scalpel left.
    const deadline = Date.now() + Math.max(0.5, seconds - 0.5) * 1000;
    while (Date.now() < deadline) {
      batches++;
      const snapshot = diskSnapshot(dir, run.quietMs === undefined ? {} : { quietMs: run.quietMs });
      const operations: Operation[] = files.map((file) => ({
        type: 'REPLACE_ELEMENT',
        path: `${file}/function[target]`,
        content: `export function target(): number {\n  return ${batches};\n}`,
      }));
      const t0 = performance.now();
      let result;
      try {
        result = applyOperations(snapshot, operations);
      } catch (error) {
        // Still being saved after the longest wait: refused, nothing read or written.
        if (!(error instanceof FileBeingSavedError)) throw error;
        beingSaved++;
        continue;
      }
      const t1 = performance.now();
      applyMs += t1 - t0;
      if (!result.ok) {
        if (process.env['STRESS_DEBUG'] === '1')
          process.stderr.write(`did not verify: ${result.results.find((r) => r.status === 'failed')?.message}\n`);
        // A read that met a save half-way (an empty file) does not verify: nothing is written, as it should be.
        otherFailures++;
      } else {
        try {
          writeChanges(dir, result.changes, { baselines: snapshot.fingerprints });
          written++;
          writeMs += performance.now() - t1;
        } catch (error) {
          writeMs += performance.now() - t1;
          if (error instanceof CliError && /saved it while/.test(error.message)) rescued++;
          if (error instanceof CliError && /changed|saved|created/.test(error.message)) conflicts++;
          else if (error instanceof CliError) otherFailures++;
          else throw error;
        }
      }
      // Yield now and then so the saver's output is collected.
      if (batches % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const code = await exited;
    if (code !== 0) throw new Error(`the saver exited with ${String(code)}`);
    const saved = JSON.parse(output.trim().split('\n').pop() ?? '{}') as { saves: number; lost: number };
    return {
      seconds,
      files: fileCount,
      intervalMs,
      slowPauseMs: run.slowPauseMs,
      quietMs: run.quietMs ?? DEFAULT_QUIET_MS,
      beingSaved,
      saves: saved.saves,
      lost: saved.lost,
      lostPer10k: saved.saves === 0 ? 0 : (saved.lost / saved.saves) * 10_000,
      batches,
      written,
      conflicts,
      otherFailures,
      rescued,
      applyMsPerBatch: applyMs / Math.max(1, batches - beingSaved),
      writeMsPerBatch: writeMs / Math.max(1, batches - otherFailures - beingSaved),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The measured runs. With reads that do not wait (quiet 0), the writer's own checks alone against a saver fast enough
 * that Scalpel mostly meets conflicts, and one slow enough that it writes: the race in the write window. Then slow
 * in-place saves (half the file, a pause, the rest): with reads that do not wait they are read half and lost, which is
 * what the wait for a quiet file (Scalpel's default) prevents; with it, a saver every 700 ms leaves Scalpel time to
 * write between saves, and one every 60 ms is refused as "being saved".
 */
export const STRESS_RUNS: readonly StressRun[] = [
  { intervalMs: 2, seconds: 40, slowPauseMs: 0, quietMs: 0 },
  { intervalMs: 20, seconds: 30, slowPauseMs: 0, quietMs: 0 },
  { intervalMs: 100, seconds: 20, slowPauseMs: 200, quietMs: 0 },
  { intervalMs: 700, seconds: 40, slowPauseMs: 200, quietMs: undefined },
  { intervalMs: 60, seconds: 20, slowPauseMs: 30, quietMs: undefined },
];

/** Runs the stress configurations (or the one the flags name) and returns their results. */
export async function runStressRuns(args: readonly string[]): Promise<StressResult[]> {
  const flag = (name: string): number | undefined => {
    const value = numberOption(args, `--${name}`);
    return value === undefined || value <= 0 ? undefined : value;
  };
  const files = flag('files') ?? 3;
  const interval = flag('interval');
  const seconds = flag('seconds');
  const quiet = numberOption(args, '--quiet');
  const runs: readonly StressRun[] =
    interval === undefined && seconds === undefined
      ? STRESS_RUNS
      : [{ intervalMs: interval ?? 2, seconds: seconds ?? 20, slowPauseMs: flag('slow-pause') ?? 0, quietMs: quiet }];
  const results: StressResult[] = [];
  for (const run of runs) {
    process.stderr.write(
      `[stress] saver every ${run.intervalMs} ms for ${run.seconds} s, slow saves ${run.slowPauseMs} ms, quiet ${run.quietMs ?? 'default'}\n`,
    );
    results.push(await runStress(run, files));
  }
  return results;
}

/** Writes the section into bench/results.md. */
export function writeStressSection(results: readonly StressResult[]): void {
  const path = join(findRepoRootOrThrow(), 'bench', 'results.md');
  const markdown = existsSync(path) ? readFileSync(path, 'utf8') : '# Scalpel benchmark\n';
  writeFileSync(
    path,
    spliceStressSection(markdown, renderStressSection(results, new Date().toISOString().slice(0, 10))),
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const results = await runStressRuns(args);
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(results)}\n`);
  else process.stdout.write(renderStressSection(results, new Date().toISOString().slice(0, 10)));
  if (args.includes('--write')) writeStressSection(results);
}

if (require.main === module) runBenchMain('stress', main);
