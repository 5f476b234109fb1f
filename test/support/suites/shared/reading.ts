// One reading shared by the suite files beside this one, as harness/fixture.ts shares the fixture's.
import { PerRun } from '../../../../harness/suite.ts';

/** Which test made the reading its file sees. */
export const reading = new PerRun<string>();
