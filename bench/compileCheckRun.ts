import { createTokenCounter } from '../src/core/context/tokens';
import { loadCorpus } from '../test/support/corpus';
import { runBenchSection } from './benchSection';
import { COMPILE_SECTION, measureCompileCheck, renderCompileCheck } from './compileCheck';

/**
 * `node out/bench/compileCheckRun.js`: only issue 18's section of the bench (type-aware verification on the corpus,
 * planning-outline tokens), written into bench/results.md in place of the previous run of that section. Options:
 * `--per-kind N` broken edits per package and kind (default 8), `--max-correct N` release edits per package (default 40).
 */
runBenchSection({
  label: 'bench',
  markers: COMPILE_SECTION,
  jsonFile: 'results-compile.json',
  async measure({ option, log }) {
    const perKind = option('--per-kind');
    const maxCorrect = option('--max-correct');
    const results = await measureCompileCheck(loadCorpus(), createTokenCounter(), {
      ...(perKind === undefined ? {} : { perPackageAndKind: perKind }),
      ...(maxCorrect === undefined ? {} : { maxCorrectPerPackage: maxCorrect }),
      log,
    });
    return { markdown: renderCompileCheck(results), json: results };
  },
});
