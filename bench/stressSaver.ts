import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { numberOption } from './benchSection';

/**
 * The other program of the stress benchmark (bench/stress.ts): an editor that saves the same files every few
 * milliseconds while Scalpel applies batches to them. Each save bumps the `export const saved = N;` line at the top of a file and
 * keeps the rest; before its next save of that file it reads it back, and a file whose line no longer says its last N
 * lost that save (someone wrote over it from an older read). Saves alternate between writing in place (what most
 * editors do) and writing a temporary file renamed over the target (atomic save), since a writer loses each kind in a
 * different way.
 *
 * Usage: node out/bench/stressSaver.js <dir> <file>... --interval <ms> --seconds <s>; prints one JSON line
 * (STRESS_DEBUG=1: each lost save on stderr).
 */

const MARKER = /^export const saved = (\d+);\n/;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function main(): void {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: number): number => numberOption(args, `--${name}`) ?? fallback;
  const interval = flag('interval', 2);
  const seconds = flag('seconds', 10);
  const positionals = args.filter((arg, i) => !arg.startsWith('--') && !(args[i - 1] ?? '').startsWith('--'));
  const [dir, ...files] = positionals;
  if (dir === undefined || files.length === 0) throw new Error('usage: stressSaver <dir> <file>...');
  const last = new Map<string, number>(files.map((file) => [file, 0]));
  const lastMode = new Map<string, string>();
  let saves = 0;
  let lost = 0;
  let unreadable = 0;
  const deadline = Date.now() + seconds * 1000;
  for (let round = 0; Date.now() < deadline; round++) {
    for (const file of files) {
      const absolute = join(dir, file);
      let text: string;
      try {
        text = readFileSync(absolute, 'utf8');
      } catch {
        // Between a writer's rename steps a file may be briefly unreadable; that is not a lost save.
        unreadable++;
        continue;
      }
      const match = MARKER.exec(text);
      const expected = last.get(file) ?? 0;
      if (match === null) {
        unreadable++;
        continue;
      }
      if (Number(match[1]) !== expected) {
        lost++;
        if (process.env['STRESS_DEBUG'] === '1')
          process.stderr.write(`lost ${file} #${expected} (${lastMode.get(file)}), found #${match[1]}\n`);
      }
      const next = saves + 1;
      const saved = text.replace(MARKER, `export const saved = ${next};\n`);
      if (round % 2 === 0) {
        writeFileSync(absolute, saved);
      } else {
        const temporary = join(dir, `.saver-${process.pid}.tmp`);
        writeFileSync(temporary, saved);
        renameSync(temporary, absolute);
      }
      saves = next;
      last.set(file, next);
      lastMode.set(file, round % 2 === 0 ? 'in place' : 'renamed');
    }
    sleep(interval);
  }
  // The final state counts too: a save lost after the last round would otherwise go unseen.
  for (const file of files) {
    const match = MARKER.exec(readFileSync(join(dir, file), 'utf8'));
    if (match === null || Number(match[1]) !== last.get(file)) lost++;
  }
  process.stdout.write(`${JSON.stringify({ saves, lost, unreadable })}\n`);
}

main();
