// The second half of the fault catalogue, and the clean server's seeds, in its own file so the two halves run in parallel.
import { provesHalf } from './half.ts';

provesHalf(1, { cleanSeeds: [11, 12] });
