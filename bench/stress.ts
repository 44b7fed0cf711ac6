import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../src/cli/cliError';
import { diskSnapshot, writeChanges } from '../src/cli/writeChanges';
import { applyOperations } from '../src/core/ops/apply';
import type { Operation } from '../src/core/ops/operation';
import { findRepoRootOrThrow } from './workspacePaths';

/**
 * Lost saves under stress: another process (bench/stressSaver.ts) saves the same files every few milliseconds while
 * Scalpel reads them, applies a batch and writes it, in a loop, for a bounded time. A save is lost when a Scalpel
 * write built from an older read replaces it. Reported per 10,000 saves; the goal is under 1.
 *
 * `node out/bench/stress.js [--seconds 20] [--files 3] [--interval 2] [--json] [--write]`; `--write` puts the
 * section into bench/results.md (npm run bench does that too).
 */

export interface StressResult {
  readonly seconds: number;
  readonly files: number;
  readonly intervalMs: number;
  readonly saves: number;
  readonly lost: number;
  readonly lostPer10k: number;
  readonly batches: number;
  readonly written: number;
  readonly conflicts: number;
  readonly otherFailures: number;
  /** Saves that slipped in between the last check and a rename, seen after it and put back. */
  readonly rescued: number;
  readonly applyMsPerBatch: number;
  readonly writeMsPerBatch: number;
}

const SECTION = '## Lost saves under stress';

function fileText(marker: number, value: number): string {
  return `export const saved = ${marker};\nexport function target(): number {\n  return ${value};\n}\n\nexport const other = 1;\n`;
}

export async function runStress(seconds: number, fileCount: number, intervalMs: number): Promise<StressResult> {
  const dir = mkdtempSync(join(tmpdir(), 'scalpel-stress-'));
  try {
    mkdirSync(join(dir, 'src'));
    const files = Array.from({ length: fileCount }, (_, i) => `src/f${i}.ts`);
    for (const file of files) writeFileSync(join(dir, file), fileText(0, 0));
    const saverScript = join(__dirname, 'stressSaver.js');
    if (!existsSync(saverScript)) throw new Error(`${saverScript} is missing: run node scripts/build.mjs --tests`);
    const saver = spawn(
      process.execPath,
      [saverScript, dir, ...files, '--interval', String(intervalMs), '--seconds', String(seconds)],
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
    let applyMs = 0;
    let writeMs = 0;
    // Scalpel stops a little before the saver, whose last look at the files then sees what Scalpel left.
    const deadline = Date.now() + Math.max(0.5, seconds - 0.5) * 1000;
    while (Date.now() < deadline) {
      batches++;
      const snapshot = diskSnapshot(dir);
      const operations: Operation[] = files.map((file) => ({
        type: 'REPLACE_ELEMENT',
        path: `${file}/function[target]`,
        content: `export function target(): number {\n  return ${batches};\n}`,
      }));
      const t0 = performance.now();
      const result = applyOperations(snapshot, operations);
      const t1 = performance.now();
      applyMs += t1 - t0;
      if (!result.ok) {
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
      saves: saved.saves,
      lost: saved.lost,
      lostPer10k: saved.saves === 0 ? 0 : (saved.lost / saved.saves) * 10_000,
      batches,
      written,
      conflicts,
      otherFailures,
      rescued,
      applyMsPerBatch: applyMs / batches,
      writeMsPerBatch: writeMs / Math.max(1, batches - otherFailures),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderStressSection(result: StressResult, when: string): string {
  return [
    SECTION,
    '',
    `Measured by \`node out/bench/stress.js\` (also run by \`npm run bench\`) on ${when}: another process saves ${result.files} files`,
    `every ${result.intervalMs} ms (alternately in place and by renaming a temporary file) while Scalpel reads them, applies a`,
    `batch replacing one function in each and writes it, in a loop, for ${result.seconds} s. A save is lost when a Scalpel write`,
    'built from an older read replaces it. Goal: under 1 per 10,000 saves (about 1,200 before issue 17).',
    '',
    '| Saves | Lost | Lost per 10,000 | Batches | Written | Refused as conflicts | Did not verify (read a half-saved file) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${result.saves} | ${result.lost} | ${result.lostPer10k.toFixed(2)} | ${result.batches} | ${result.written} | ${result.conflicts} | ${result.otherFailures} |`,
    '',
  ].join('\n');
}

/** Puts the section into a results.md, replacing an earlier one. */
export function spliceStressSection(markdown: string, section: string): string {
  const start = markdown.indexOf(SECTION);
  if (start === -1) return `${markdown.trimEnd()}\n\n${section}`;
  const next = markdown.indexOf('\n## ', start + SECTION.length);
  return `${markdown.slice(0, start)}${section}${next === -1 ? '' : `\n${markdown.slice(next + 1)}`}`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: number): number => {
    const at = args.indexOf(`--${name}`);
    const value = at === -1 ? undefined : Number(args[at + 1]);
    return value === undefined || !Number.isFinite(value) || value <= 0 ? fallback : value;
  };
  const result = await runStress(flag('seconds', 20), flag('files', 3), flag('interval', 2));
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`);
  else process.stdout.write(renderStressSection(result, new Date().toISOString().slice(0, 10)));
  if (args.includes('--write')) {
    const path = join(findRepoRootOrThrow(), 'bench', 'results.md');
    const markdown = existsSync(path) ? readFileSync(path, 'utf8') : '# Scalpel benchmark\n';
    writeFileSync(
      path,
      spliceStressSection(markdown, renderStressSection(result, new Date().toISOString().slice(0, 10))),
    );
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`stress: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
