import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { diffElementsInDetail, type DiffFallbackKind } from '../../../../src/core/ops/diff';
import { loadCorpus, type Corpus } from '../../../support/corpus';
import { applyToFile } from './applyToFile';

/**
 * The element diff over the 334 real before/after pairs of the corpus: applying the diff to the old release's file
 * must give the new release's file byte for byte, every time. The test also reports how often the diff had to fall
 * back to a bigger operation than the change called for, which is its quality measure.
 *
 * It is the longest unit test, so it runs as shards in separate test files (diffCorpus.<n>.test.ts), which
 * `node --test` runs in parallel; each takes every shards-th pair, and together they cover every pair.
 */

function tryLoadCorpus(): Corpus | undefined {
  try {
    return loadCorpus();
  } catch (error) {
    // In CI the test command installs the corpus first; a missing corpus there is a failure, not a skip.
    if (process.env['CI'] !== undefined) throw error;
    return undefined;
  }
}

const corpus = tryLoadCorpus();

function percent(count: number, total: number): string {
  return `${((100 * count) / Math.max(total, 1)).toFixed(1)}%`;
}

export function describeDiffCorpusShard(shard: number, shards: number): void {
  void describe(
    `element diff over the real-code corpus (shard ${shard + 1} of ${shards})`,
    { skip: corpus === undefined ? 'corpus not installed (node scripts/corpus.mjs)' : false },
    () => {
      void test('apply(before, diff(before, after)) is after, byte for byte, for every changed file of the shard', (t) => {
        const allPairs = corpus?.changedFilePairs() ?? [];
        assert.ok(allPairs.length >= 300, `the corpus has ${allPairs.length} changed files`);
        const pairs = allPairs.filter((_, index) => index % shards === shard);
        const failures: string[] = [];
        const pairsWithFallback = new Map<DiffFallbackKind, number>();
        const reasons = new Map<string, number>();
        const operationTypes = new Map<string, number>();
        let replacedWhole = 0;
        let applyRuns = 0;
        for (const pair of pairs) {
          const name = `${pair.pkg}/${pair.relPath}`;
          let diff;
          try {
            diff = diffElementsInDetail(pair.relPath, pair.beforeText, pair.afterText);
          } catch (error) {
            failures.push(
              `${name}: the diff threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
            );
            continue;
          }
          applyRuns += diff.applyRuns;
          const applied = applyToFile(pair.relPath, pair.beforeText, diff.operations, diff.renames);
          if (applied === undefined) failures.push(`${name}: the apply engine refused the operations`);
          else if (applied !== pair.afterText) failures.push(`${name}: the result differs from the new file`);
          for (const operation of diff.operations) {
            operationTypes.set(operation.type, (operationTypes.get(operation.type) ?? 0) + 1);
          }
          if (diff.operations.some((o) => o.type === 'REPLACE_FILE')) replacedWhole += 1;
          for (const kind of new Set(diff.fallbacks.map((f) => f.kind))) {
            pairsWithFallback.set(kind, (pairsWithFallback.get(kind) ?? 0) + 1);
          }
          for (const fallback of diff.fallbacks) {
            const key = `${fallback.kind}: ${fallback.reason}`;
            reasons.set(key, (reasons.get(key) ?? 0) + 1);
          }
        }
        const total = pairs.length;
        t.diagnostic(`round trip: ${total - failures.length}/${total} (${percent(total - failures.length, total)})`);
        t.diagnostic(
          `REPLACE_FILE in ${replacedWhole}/${total} pairs (${percent(replacedWhole, total)}), fallbacks or cheapest`,
        );
        for (const kind of ['file', 'container', 'element'] as const) {
          const count = pairsWithFallback.get(kind) ?? 0;
          t.diagnostic(`pairs with a ${kind} fallback: ${count}/${total} (${percent(count, total)})`);
        }
        for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) t.diagnostic(`  ${count} × ${reason}`);
        t.diagnostic(`operations: ${[...operationTypes].map(([type, count]) => `${type} ${count}`).join(', ')}`);
        t.diagnostic(`apply runs to check candidates: ${applyRuns}`);
        assert.deepEqual(failures, [], `${failures.length} of ${total} pairs did not round-trip`);
      });
    },
  );
}
