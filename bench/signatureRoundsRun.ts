import { loadCorpus } from '../test/support/corpus';
import { runBenchSection } from './benchSection';
import { measureSignatureRounds, renderSignatureRounds, SIGNATURE_SECTION } from './signatureRounds';

/** `node out/bench/signatureRoundsRun.js [--per-package N]`: issue 24's rounds section of bench/results.md. */
runBenchSection({
  label: 'bench',
  markers: SIGNATURE_SECTION,
  jsonFile: 'results-signature-rounds.json',
  async measure({ option, log }) {
    const perPackage = option('--per-package');
    const results = await measureSignatureRounds(loadCorpus(), {
      ...(perPackage === undefined ? {} : { perPackage }),
      log,
    });
    return { markdown: renderSignatureRounds(results), json: results };
  },
});
