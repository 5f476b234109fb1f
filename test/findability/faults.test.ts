// The first half of the fault catalogue, and the variations (each alone on the tests of its open choice, all at
// once on the whole suite); faults-b.test.ts runs the second half, and the seeds, in parallel (half.ts says how
// they are split).
import { provesHalf } from './half.ts';

provesHalf(0, { variations: true });
