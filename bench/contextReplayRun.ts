import { runBenchSection } from './benchSection';
import { CONTEXT_REPLAY_SECTION, measureContextReplay, renderContextReplay } from './contextReplay';

/**
 * `npm run bench:context` (`node out/bench/contextReplayRun.js`): issue 28's section of bench/results.md, the
 * operation-target contexts on both corpora and the 20-edit replay through the scripted model against the older
 * versions, written in place of the previous run of that section.
 */
runBenchSection({
  label: 'bench:context',
  markers: CONTEXT_REPLAY_SECTION,
  jsonFile: 'results-context-replay.json',
  async measure({ root, log }) {
    const results = await measureContextReplay({ root, log });
    return { markdown: renderContextReplay(results), json: results };
  },
});
