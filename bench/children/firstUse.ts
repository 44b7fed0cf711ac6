import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as TsMorph from 'ts-morph';
import type * as Engine from '../../src/engine';

/**
 * Run in a fresh process by the bench: the first outline + context of a process, loading included (`engine`: the
 * shipped engine.js, ts-morph and the tokenizer inside), or the first parse with TypeScript loaded from ts-morph
 * (`baseline`). Prints the timings as one JSON line; `sinceProcessStart` includes Node's own start.
 *   node out/bench/children/firstUse.js engine|baseline <repo root> <bundles folder> <text file> <workspace path> <focus>
 */

function main(): void {
  const [mode, root, dist, textFile, file, focus] = process.argv.slice(2);
  if (
    (mode !== 'engine' && mode !== 'baseline') ||
    root === undefined ||
    dist === undefined ||
    textFile === undefined
  ) {
    throw new Error(
      'usage: firstUse.js engine|baseline <repo root> <bundles folder> <text file> <workspace path> <focus>',
    );
  }
  if (file === undefined || focus === undefined) throw new Error('the workspace path and the focus path are needed');
  const text = readFileSync(textFile, 'utf8');
  const load = createRequire(join(root, 'package.json'));
  const started = performance.now();
  if (mode === 'engine') {
    const engine = load(join(dist, 'engine.js')) as typeof Engine;
    const loaded = performance.now();
    const outline = engine.outlineSource(file, text);
    const context = engine.buildContext([{ outline, focus: [focus] }], engine.createTokenCounter());
    const done = performance.now();
    print({
      mode,
      loadMs: loaded - started,
      workMs: done - loaded,
      totalMs: done - started,
      sinceProcessStart: done,
      tokens: context.tokens,
    });
  } else {
    const { ts } = load('ts-morph') as typeof TsMorph;
    const loaded = performance.now();
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const done = performance.now();
    print({
      mode,
      loadMs: loaded - started,
      workMs: done - loaded,
      totalMs: done - started,
      sinceProcessStart: done,
      statements: sourceFile.statements.length,
    });
  }
}

/** Adds the process's CPU time since it started, which other load on the machine inflates less than wall time. */
function print(result: Record<string, unknown>): void {
  const cpu = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ ...result, cpuSinceProcessStart: (cpu.user + cpu.system) / 1000 })}\n`);
}

main();
