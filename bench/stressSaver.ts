import { closeSync, constants, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { numberOption } from './benchSection';

/**
 * The other program of the stress benchmark (bench/stress.ts): an editor that saves the same files every few
 * milliseconds while Scalpel applies batches to them. Each save bumps the `export const saved = N;` line at the top of a file and
 * keeps the rest; before its next save of that file it reads it back, and a file whose line no longer says its last N
 * lost that save (someone wrote over it from an older read). Saves alternate between writing in place (what most
 * editors do) and writing a temporary file renamed over the target (atomic save), since a writer loses each kind in a
 * different way; with --slow-pause, a third kind writes half the file in place, pauses, and writes the rest (a torn
 * read of it would lose the second half).
 *
 * Usage: node out/bench/stressSaver.js <dir> <file>... --interval <ms> --seconds <s> [--slow-pause <ms>]; prints one JSON line
 * (STRESS_DEBUG=1: each lost save on stderr).
 */

const MARKER = /^export const saved = (\d+);\n/;
/** The last line says the same number: a file that lost the end of a save says an older one, or none. */
const TRAILER = /\/\/ end of save (\d+)\n$/;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function main(): void {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: number): number => numberOption(args, `--${name}`) ?? fallback;
  const interval = flag('interval', 2);
  // With --slow-pause, every third save writes half the file, pauses that long, then writes the rest.
  const slowPause = flag('slow-pause', 0);
  const modes = slowPause > 0 ? ['in place', 'renamed', 'slow in place'] : ['in place', 'renamed'];
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
      if (Number(match[1]) !== expected || Number(TRAILER.exec(text)?.[1] ?? -1) !== expected) {
        lost++;
        if (process.env['STRESS_DEBUG'] === '1')
          process.stderr.write(`lost ${file} #${expected} (${lastMode.get(file)}), found #${match[1]}\n`);
      }
      const next = saves + 1;
      const saved = text
        .replace(MARKER, `export const saved = ${next};\n`)
        .replace(TRAILER, '')
        .concat(`// end of save ${next}\n`);
      const mode = modes[round % modes.length] ?? 'in place';
      if (mode === 'in place') {
        writeFileSync(absolute, saved);
      } else if (mode === 'slow in place') {
        // An editor or a tool that writes in place and stops half-way (a slow disk, a network share, a pipe).
        const fd = openSync(absolute, constants.O_WRONLY | constants.O_TRUNC);
        const bytes = Buffer.from(saved);
        // Cut where the first part still parses (before the last declaration), as the torn save did: a read of
        // it verifies, and the declaration and the end line of the second part are what a torn read loses.
        const cut = saved.lastIndexOf('\nexport const other');
        const half = cut > 0 ? Buffer.byteLength(saved.slice(0, cut + 1)) : Math.floor(bytes.length / 2);
        writeSync(fd, bytes, 0, half);
        sleep(slowPause);
        writeSync(fd, bytes, half, bytes.length - half);
        closeSync(fd);
      } else {
        const temporary = join(dir, `.saver-${process.pid}.tmp`);
        writeFileSync(temporary, saved);
        renameSync(temporary, absolute);
      }
      saves = next;
      last.set(file, next);
      lastMode.set(file, mode);
    }
    sleep(interval);
  }
  // The final state counts too: a save lost after the last round would otherwise go unseen.
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const match = MARKER.exec(text);
    if (
      match === null ||
      Number(match[1]) !== last.get(file) ||
      Number(TRAILER.exec(text)?.[1] ?? -1) !== last.get(file)
    )
      lost++;
  }
  process.stdout.write(`${JSON.stringify({ saves, lost, unreadable })}\n`);
}

main();
