// The first half of the fault catalogue; faults-b.test.ts runs the second in parallel (half.ts says how they are split).
import { provesHalf } from './half.ts';

provesHalf(0);
