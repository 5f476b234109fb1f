// A test that takes most of the time it is given: run against several configurations, it must have that
// time against each. It sends nothing.
import { conformance } from '../../../../harness/suite.ts';

conformance(
  'ENV-03',
  'takes most of its time against each configuration',
  async () => {
    await new Promise((resolve) => setTimeout(resolve, 150));
  },
  { timeout: 250 },
);
