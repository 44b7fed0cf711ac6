import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../test/support/corpus';
import { measureContextCost, renderContextCost, spliceContextCost } from './contextCost';
import { findRepoRootOrThrow } from './workspacePaths';

/**
 * `node out/bench/contextCostRun.js`: issue 18's cost section of the bench (references in the context, the cost rule,
 * instruction tokens, planning-outline notes), written into bench/results.md in place of the previous run of that
 * section. Options: `--per-package N` focused elements per package (default 30), `--files N` files for the cost rule
 * (default 12).
 */
async function main(): Promise<void> {
  const root = findRepoRootOrThrow();
  const args = process.argv.slice(2);
  const option = (name: string): number | undefined => {
    const at = args.indexOf(name);
    const value = at >= 0 ? Number(args[at + 1]) : Number.NaN;
    return Number.isFinite(value) ? value : undefined;
  };
  const perPackage = option('--per-package');
  const files = option('--files');
  const results = await measureContextCost(loadCorpus(), {
    ...(perPackage === undefined ? {} : { referencesPerPackage: perPackage }),
    ...(files === undefined ? {} : { costRuleFiles: files }),
    log: (message) => process.stderr.write(`[bench] ${message}\n`),
  });
  const section = renderContextCost(results);
  const resultsFile = join(root, 'bench', 'results.md');
  const previous = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
  writeFileSync(resultsFile, spliceContextCost(previous, section));
  writeFileSync(join(root, 'bench', 'results-context-cost.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${section}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
