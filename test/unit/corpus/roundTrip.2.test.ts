import { describeRoundTripShard } from './languageRoundTrip';

describeRoundTripShard(1, 2);
