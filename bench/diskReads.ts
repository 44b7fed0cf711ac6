import { cpSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskWorkspace } from '../src/core/tools/diskWorkspace';
import { loadCorpus } from '../test/support/corpus';

/**
 * `node out/bench/diskReads.js` (issue 25's leftover): how many files a second the tools' disk workspace reads
 * (`diskWorkspace.read`: the path checked, the `.gitignore` and exclusion rule asked, the file read) and how many
 * exclusion decisions alone (`excludedBy`), on a copy of rxjs's sources with a root `.gitignore` and one in a
 * subfolder, as a repository has. Prints the figures; bench/results.md records them by hand.
 */

const ROUNDS = 20;

function main(): void {
  const rxjs = loadCorpus().packages.find((p) => p.name === 'rxjs');
  if (rxjs === undefined) throw new Error('the corpus has no rxjs: run node scripts/corpus.mjs');
  const root = mkdtempSync(join(tmpdir(), 'scalpel-bench-reads-'));
  cpSync(join(rxjs.after.packageDir, 'src'), join(root, 'src'), { recursive: true });
  writeFileSync(
    join(root, '.gitignore'),
    ['node_modules/', 'dist/', 'coverage/', '*.log', '.env', 'tmp/', ''].join('\n'),
  );
  writeFileSync(join(root, 'src', 'internal', '.gitignore'), ['*.generated.ts', 'scratch/', ''].join('\n'));
  // A repository's .gitignore files are older than the last seconds (a just-written one is compared by its text).
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const file of ['.gitignore', 'src/internal/.gitignore']) utimesSync(join(root, file), hourAgo, hourAgo);
  const workspace = diskWorkspace(root);
  const files = workspace.listSourceFiles();
  const rate = (label: string, each: (file: string) => unknown): string => {
    for (const file of files) each(file);
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) for (const file of files) each(file);
    const seconds = (performance.now() - started) / 1000;
    return `${label}: ${Math.round((ROUNDS * files.length) / seconds).toLocaleString('en-US')} a second`;
  };
  process.stdout.write(
    [
      `${files.length} files of rxjs ${rxjs.after.version}, ${ROUNDS} rounds`,
      rate('read', (file) => workspace.read(file)),
      rate('excludedBy', (file) => workspace.excludedBy?.(file)),
      '',
    ].join('\n'),
  );
}

main();
