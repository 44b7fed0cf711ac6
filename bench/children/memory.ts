import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Engine from '../../src/engine';
import { loadCorpus } from '../../test/support/corpus';

/**
 * Run in a fresh process by the bench (with --expose-gc): the resident memory after loading the shipped engine, then
 * its peak while outlining every corpus file and building a focused context for the element in its middle, one file
 * after another as requests would come, and what is left after a final collection. Prints one JSON line.
 *   node --expose-gc out/bench/children/memory.js <repo root> <bundles folder>
 */

const MB = 1024 * 1024;

function main(): void {
  const [root, dist] = process.argv.slice(2);
  if (root === undefined || dist === undefined) throw new Error('usage: memory.js <repo root> <bundles folder>');
  const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const files = loadCorpus().corpusFiles();
  collect();
  const rssAtStart = process.memoryUsage().rss;

  const load = createRequire(join(root, 'package.json'));
  const engine = load(join(dist, 'engine.js')) as typeof Engine;
  const counter = engine.createTokenCounter();
  counter.count('warm the tokenizer up');
  collect();
  const rssAfterLoad = process.memoryUsage().rss;

  let peakSampled = rssAfterLoad;
  let contextTokens = 0;
  const started = performance.now();
  for (const file of files) {
    const text = readFileSync(file.absPath, 'utf8');
    const outline = engine.outlineSource(`${file.pkg}/${file.relPath}`, text);
    const middle = elementAtLine(outline, Math.ceil(outline.lineCount / 2));
    const context = engine.buildContext([{ outline, focus: middle === undefined ? [] : [middle] }], counter);
    contextTokens += context.tokens;
    peakSampled = Math.max(peakSampled, process.memoryUsage().rss);
  }
  const elapsedMs = performance.now() - started;
  collect();
  const rssAfterGc = process.memoryUsage().rss;
  process.stdout.write(
    `${JSON.stringify({
      files: files.length,
      contextTokens,
      elapsedMs,
      rssAtStartMb: rssAtStart / MB,
      rssAfterLoadMb: rssAfterLoad / MB,
      peakRssSampledMb: peakSampled / MB,
      // maxRSS is in kilobytes: the kernel's own high-water mark, which a sample between files can miss.
      peakRssMb: Math.max(peakSampled, process.resourceUsage().maxRSS * 1024) / MB,
      rssAfterGcMb: rssAfterGc / MB,
    })}\n`,
  );
}

/** The innermost element holding the line, as a cursor there would pick. */
function elementAtLine(outline: ReturnType<typeof Engine.outlineSource>, line: number): string | undefined {
  let found: string | undefined;
  let level = outline.elements;
  for (;;) {
    const hit = level.find((e) => e.startLine <= line && line <= e.endLine);
    if (hit === undefined) return found;
    found = hit.path;
    level = hit.children;
  }
}

main();
