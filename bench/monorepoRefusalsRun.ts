import { loadCorpus } from '../test/support/corpus';
import { runBenchSection } from './benchSection';
import { MONOREPO_SECTION, measureMonorepoRefusals, renderMonorepoRefusals } from './monorepoRefusals';

/**
 * `node out/bench/monorepoRefusalsRun.js [--edits N]` (also part of `npm run bench`): issue 24's monorepo section of
 * bench/results.md, correct edits in a package of a monorepo with project references (default 10 edits).
 */
runBenchSection({
  label: 'bench',
  markers: MONOREPO_SECTION,
  jsonFile: 'results-monorepo.json',
  async measure({ option, log }) {
    const edits = option('--edits');
    const results = await measureMonorepoRefusals(loadCorpus(), { ...(edits === undefined ? {} : { edits }), log });
    return { markdown: renderMonorepoRefusals(results), json: results };
  },
});
