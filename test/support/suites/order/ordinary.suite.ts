// Ordinary tests that take a while: the tests of a disposable suite folder must start only after they end. They send nothing.
import { setTimeout as sleep } from 'node:timers/promises';
import { finding } from '../../../../harness/checks.ts';
import { conformance } from '../../../../harness/suite.ts';

for (const name of ['first', 'second']) {
  conformance('ENV-01', `the ${name} ordinary test`, async (t) => {
    await sleep(300);
    t.record([finding('ENV-01', 'order', `ended ${Date.now()}`, undefined, 'warning')]);
  });
}

conformance('ENV-02', 'a test changing fixture objects outside the disposable folder', async () => {}, {
  changesFixture: 'nothing, placed where it would run beside the others',
});
