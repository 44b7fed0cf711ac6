import { describeDiffCorpusShard } from './diffCorpusRoundTrip';

describeDiffCorpusShard(0, 2);
