// The first half of the fault catalogue, and the harmless variations; faults-b.test.ts runs the second
// half, and the clean server's seeds, in parallel (half.ts says how they are split).
import { provesHalf } from './half.ts';

provesHalf(0, { variations: true });
