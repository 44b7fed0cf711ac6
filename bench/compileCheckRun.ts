import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenCounter } from '../src/core/context/tokens';
import { loadCorpus } from '../test/support/corpus';
import { measureCompileCheck, renderCompileCheck, spliceCompileSection } from './compileCheck';
import { findRepoRootOrThrow } from './workspacePaths';

/**
 * `node out/bench/compileCheckRun.js`: only issue 18's section of the bench (type-aware verification on the corpus,
 * planning-outline tokens), written into bench/results.md in place of the previous run of that section. Options:
 * `--per-kind N` broken edits per package and kind (default 8), `--max-correct N` release edits per package (default 40).
 */
async function main(): Promise<void> {
  const root = findRepoRootOrThrow();
  const args = process.argv.slice(2);
  const option = (name: string): number | undefined => {
    const at = args.indexOf(name);
    const value = at >= 0 ? Number(args[at + 1]) : Number.NaN;
    return Number.isFinite(value) ? value : undefined;
  };
  const corpus = loadCorpus();
  const perKind = option('--per-kind');
  const maxCorrect = option('--max-correct');
  const results = await measureCompileCheck(corpus, createTokenCounter(), {
    ...(perKind === undefined ? {} : { perPackageAndKind: perKind }),
    ...(maxCorrect === undefined ? {} : { maxCorrectPerPackage: maxCorrect }),
    log: (message) => process.stderr.write(`[bench] ${message}\n`),
  });
  const section = renderCompileCheck(results);
  const resultsFile = join(root, 'bench', 'results.md');
  const previous = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
  writeFileSync(resultsFile, spliceCompileSection(previous, section));
  writeFileSync(join(root, 'bench', 'results-compile.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${section}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
