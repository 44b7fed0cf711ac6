import { describeDiffCorpusShard } from './diffCorpusRoundTrip';

describeDiffCorpusShard(1, 2);
