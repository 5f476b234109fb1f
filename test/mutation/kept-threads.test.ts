/**
 * The mutation run's pool (scripts/mutation/kept-threads.ts): a mutant switched on at run time runs in the
 * thread the last such run left, its modules still loaded; a statically switched mutant and the dry run
 * each get a fresh thread that no later run takes.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createVitest, type Vitest } from 'vitest/node';
import { keptThreadsPlugin } from '../../scripts/mutation/kept-threads.ts';

let vitest: Vitest;
beforeAll(async () => {
  vitest = await createVitest(
    'test',
    {
      config: false,
      root: fileURLToPath(new URL('./kept', import.meta.url)),
      include: ['probe.check.ts'],
      isolate: false,
      // What Stryker's runner asks for; the plugin puts the project on its own pool over it.
      pool: 'threads',
      maxWorkers: 1,
      watch: false,
      reporters: [{}],
    },
    { plugins: [keptThreadsPlugin()] },
  );
});
afterAll(() => vitest?.close());

/** One run as Stryker's runner starts it: which thread ran the probe, and how often its module was evaluated there. */
async function run(mode: 'dry-run' | 'mutant', mutantActivation?: 'static' | 'runtime') {
  vitest.provide('mode', mode);
  vitest.provide('mutantActivation', mutantActivation);
  vitest.state.filesMap.clear();
  await vitest.start();
  const probe = vitest.state.getFiles()[0]?.tasks[0]?.meta.probe;
  if (!probe) throw new Error('the probe did not run');
  return probe;
}

it('keeps the thread and its modules from one run-time mutant run to the next, never across a dry run or a static mutant', async () => {
  const dry = await run('dry-run');
  const first = await run('mutant', 'runtime');
  const second = await run('mutant', 'runtime');
  expect(first.threadId).not.toBe(dry.threadId);
  expect(second).toEqual(first);
  expect(first.evaluations).toBe(1);

  const statically = await run('mutant', 'static');
  expect(statically.threadId).not.toBe(first.threadId);
  expect(statically.evaluations).toBe(1);
  // The static mutant's thread holds modules evaluated with it switched on: no later run takes it.
  const after = await run('mutant', 'runtime');
  expect([first.threadId, statically.threadId]).not.toContain(after.threadId);
  expect(after.evaluations).toBe(1);
  expect(await run('mutant', 'runtime')).toEqual(after);
});
