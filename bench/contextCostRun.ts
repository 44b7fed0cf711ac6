import { loadCorpus } from '../test/support/corpus';
import { runBenchSection } from './benchSection';
import { CONTEXT_COST_SECTION, measureContextCost, renderContextCost } from './contextCost';

/**
 * `node out/bench/contextCostRun.js`: issue 18's cost section of the bench (references in the context, the cost rule,
 * instruction tokens, planning-outline notes), written into bench/results.md in place of the previous run of that
 * section. Options: `--per-package N` focused elements per package (default 30), `--files N` files for the cost rule
 * (default 12).
 */
runBenchSection({
  label: 'bench',
  markers: CONTEXT_COST_SECTION,
  jsonFile: 'results-context-cost.json',
  async measure({ option, log }) {
    const perPackage = option('--per-package');
    const files = option('--files');
    const results = await measureContextCost(loadCorpus(), {
      ...(perPackage === undefined ? {} : { referencesPerPackage: perPackage }),
      ...(files === undefined ? {} : { costRuleFiles: files }),
      log,
    });
    return { markdown: renderContextCost(results), json: results };
  },
});
