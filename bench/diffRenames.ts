import { createTokenCounter } from '../src/core/context/tokens';
import { languageFor } from '../src/core/language/languages';
import { diffElementsInDetail } from '../src/core/ops/diff';
import { renamesInFile } from '../src/core/ops/diff/renameDetect';
import { serializeOperations } from '../src/core/ops/format';
import { loadCorpus } from '../test/support/corpus';
import { applyToFile } from '../test/unit/ops/diff/applyToFile';
import { workspacePathOf } from './workspacePaths';

/**
 * How often the element diff's RENAME_ELEMENT fires on the release corpus (issue 27): every changed file pair of
 * .cache/corpus (node scripts/corpus.mjs installs it) diffed with renames on, counting the pairs whose diff has a
 * RENAME_ELEMENT and the renames, each diff checked to give the new text byte for byte with its rename places. Prints
 * the figures and the files where it fired; writes nothing. A candidate is a rename renameDetect.ts would try (the
 * name gone from the new text's code, the new one absent from the old's); it fires when the diff with it is exact and
 * cheaper.
 *
 *   npm run bench:renames
 */
function main(): void {
  const counter = createTokenCounter();
  const pairs = loadCorpus().changedFilePairs();
  let withRename = 0;
  let renames = 0;
  let exact = 0;
  let savedTokens = 0;
  let withCandidate = 0;
  let candidates = 0;
  const started = performance.now();
  const fired: string[] = [];
  for (const pair of pairs) {
    const file = workspacePathOf(pair.pkg, pair.relPath);
    const diff = diffElementsInDetail(file, pair.beforeText, pair.afterText, { counter });
    if (applyToFile(file, pair.beforeText, diff.operations, diff.renames) === pair.afterText) exact += 1;
    const language = languageFor(file);
    const beforeOutline = language?.outline(file, pair.beforeText);
    const afterOutline = language?.outline(file, pair.afterText);
    if (
      language !== undefined &&
      beforeOutline !== undefined &&
      afterOutline !== undefined &&
      beforeOutline.syntaxErrors.length === 0 &&
      afterOutline.syntaxErrors.length === 0
    ) {
      const found = renamesInFile(language, beforeOutline, afterOutline).length;
      candidates += found;
      if (found > 0) withCandidate += 1;
    }
    const count = diff.operations.filter((o) => o.type === 'RENAME_ELEMENT').length;
    if (count === 0) continue;
    withRename += 1;
    renames += count;
    const plain = diffElementsInDetail(file, pair.beforeText, pair.afterText, { counter, renames: false });
    const saved =
      counter.count(serializeOperations(plain.operations)) - counter.count(serializeOperations(diff.operations));
    savedTokens += saved;
    fired.push(`${file}: ${count} RENAME_ELEMENT, ${saved} tokens fewer than without`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  process.stdout.write(
    [
      `${pairs.length} changed pairs of the release corpus, ${seconds} s`,
      `rename candidates (renameDetect.ts) in ${withCandidate} of ${pairs.length} pairs (${candidates} in all)`,
      `RENAME_ELEMENT in ${withRename} of ${pairs.length} diffs (${renames} renames), ${savedTokens} tokens saved in all`,
      `exact round trip: ${exact} of ${pairs.length}`,
      ...fired.map((line) => `  ${line}`),
      '',
    ].join('\n'),
  );
}

main();
