import { runBenchSection } from './benchSection';
import { measurePlayedAgent, PLAYED_AGENT_SECTION, renderPlayedAgent } from './playedAgent';

/**
 * `npm run bench:agent` (`node out/bench/playedAgentRun.js`): issue 27's played-agent section of bench/results.md,
 * written in place of the previous run of that section, with every number in bench/results-played-agent.json.
 */
runBenchSection({
  label: 'bench:agent',
  markers: PLAYED_AGENT_SECTION,
  jsonFile: 'results-played-agent.json',
  async measure({ args, log }) {
    // `--only id,id`: those tasks alone (while working on a task; the section then shows only them).
    const at = args.indexOf('--only');
    const only = at >= 0 ? (args[at + 1] ?? '').split(',') : [];
    const results = await measurePlayedAgent(log, only);
    return { markdown: renderPlayedAgent(results), json: results };
  },
});
