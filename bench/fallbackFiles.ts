// Lists the element diff's fallbacks over a corpus, file by file, grouped by reason: the quick loop for fixing them.
//   node out/bench/fallbackFiles.js [--commits] [--reason <substring>] [--dump <dir>] [--only <substring of path>]
// With --dump, each listed file's old and new text are written to <dir>/<n>.before.ts and <n>.after.ts, with the
// diff's own output beside them, so the texts can be compared by hand.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenCounter } from '../src/core/context/tokens';
import { serializeOperations } from '../src/core/ops/format/serializeOperations';
import { diffElementsInDetail, type DiffFallback } from '../src/core/ops/diff';
import { loadCorpus } from '../test/support/corpus';
import { findRepoRootOrThrow, workspacePathOf } from './workspacePaths';

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

const commits = process.argv.includes('--commits');
const reasonFilter = argument('--reason');
const only = argument('--only');
const dump = argument('--dump');
const root = findRepoRootOrThrow();
const corpus = commits ? loadCorpus({ corpusDir: join(root, '.cache', 'commit-corpus') }) : loadCorpus();
const counter = createTokenCounter();
const byReason = new Map<string, string[]>();
let files = 0;
let replaced = 0;
let n = 0;
if (dump !== undefined) mkdirSync(dump, { recursive: true });
for (const pair of corpus.changedFilePairs()) {
  const file = workspacePathOf(pair.pkg, pair.relPath);
  if (only !== undefined && !file.includes(only)) continue;
  files += 1;
  const diff = diffElementsInDetail(file, pair.beforeText, pair.afterText, { counter });
  const wholeFile = diff.operations.some((o) => o.type === 'REPLACE_FILE');
  if (wholeFile) replaced += 1;
  // REPLACE_FILE with no file fallback: the element operations reproduced the text but cost more.
  const cheapest: DiffFallback[] =
    wholeFile && !diff.fallbacks.some((f) => f.kind === 'file')
      ? [{ kind: 'file', path: file, reason: 'the whole file was the cheapest' }]
      : [];
  for (const fallback of [...cheapest, ...diff.fallbacks]) {
    const reason = `${fallback.kind}: ${fallback.reason}`;
    if (reasonFilter !== undefined && !reason.includes(reasonFilter)) continue;
    const list = byReason.get(reason) ?? [];
    let label = `${fallback.path}`;
    if (dump !== undefined) {
      n += 1;
      writeFileSync(join(dump, `${n}.before.ts`), pair.beforeText);
      writeFileSync(join(dump, `${n}.after.ts`), pair.afterText);
      writeFileSync(join(dump, `${n}.ops.txt`), serializeOperations(diff.operations));
      label = `#${n} ${label}`;
    }
    list.push(label);
    byReason.set(reason, list);
  }
}
console.log(
  `${files} changed files, ${replaced} REPLACE_FILE (${((100 * replaced) / Math.max(files, 1)).toFixed(1)}%)`,
);
for (const [reason, list] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`\n${reason} × ${list.length}`);
  for (const path of list) console.log(`  ${path}`);
}
