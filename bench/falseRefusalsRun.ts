import { loadCorpus } from '../test/support/corpus';
import { runBenchSection } from './benchSection';
import { FALSE_REFUSALS_SECTION, measureFalseRefusals, renderFalseRefusals } from './falseRefusals';

/**
 * `node out/bench/falseRefusalsRun.js` (also part of `npm run bench`): issue 24's section of bench/results.md, false
 * refusals of correct edits with and without installed dependencies and the cold first check against TypeScript's
 * language service. Options: `--max-edits N` release edits per package (default 25), `--new-tests N` (default 30).
 */
runBenchSection({
  label: 'bench',
  markers: FALSE_REFUSALS_SECTION,
  jsonFile: 'results-false-refusals.json',
  async measure({ option, log }) {
    const maxEdits = option('--max-edits');
    const newTests = option('--new-tests');
    const results = await measureFalseRefusals(loadCorpus(), {
      ...(maxEdits === undefined ? {} : { maxReleaseEditsPerPackage: maxEdits }),
      ...(newTests === undefined ? {} : { newTests }),
      log,
    });
    return { markdown: renderFalseRefusals(results), json: results };
  },
});
