// The second half of the fault catalogue, and the seeds under which the clean server and all variations at once
// pass the whole suite, in its own file so the two halves run in parallel.
import { provesHalf } from './half.ts';

provesHalf(1, { seeds: [11, 12] });
