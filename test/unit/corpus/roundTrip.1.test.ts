import { describeRoundTripShard } from './languageRoundTrip';

describeRoundTripShard(0, 2);
