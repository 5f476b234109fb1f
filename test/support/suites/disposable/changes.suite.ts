// A test that changes fixture objects (it says so): it runs only on a target declaring `disposable`, after every other
// suite file (the engine runs suite folders named disposable last). It sends nothing.
import { finding } from '../../../../harness/checks.ts';
import { conformance } from '../../../../harness/suite.ts';

conformance(
  'ENV-03',
  'a test that changes fixture objects',
  async (t) => {
    t.record([finding('ENV-03', 'order', `started ${Date.now()}`, undefined, 'warning')]);
  },
  { changesFixture: 'none really: the engine test reads when it started' },
);
