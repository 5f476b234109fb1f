import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuiteEngine } from '../../cli/engine.ts';
import type { RunConfig } from '../../harness/config.ts';

// The support suites send nothing: the target is never asked.
const config: RunConfig = {
  target: {
    baseUrl: 'http://127.0.0.1:9/rest',
    auth: { query: {}, headers: {} },
    features: [],
    fixture: {},
  } as unknown as RunConfig['target'],
  replayArgs: [],
  seed: 1,
  runs: 1,
  strict: false,
  timeoutMs: 1000,
  concurrency: 1,
  sandboxFolderId: 1,
};

describe('suite engine', () => {
  const engines: SuiteEngine[] = [];
  const engine = async (include: string): Promise<SuiteEngine> => {
    const e = await SuiteEngine.create({ workers: 1, progress: null, include });
    engines.push(e);
    return e;
  };
  afterAll(() => Promise.all(engines.map((e) => e.close())));

  it('a suite file that throws while it loads is a run error, and the other files still run', async () => {
    const run = await (await engine('test/support/suites/broken/*.suite.ts')).run(config);
    expect(run.runErrors).toEqual(['test/support/suites/broken/broken.suite.ts: this suite file fails to load']);
    expect(run.tests.map((t) => [t.id, t.status])).toEqual([['ENV-01 a test of a suite file that loads', 'passed']]);
  });

  it('collecting the declared tests fails by name on a suite file that does not load', async () => {
    // Coverage, dry runs and prove would otherwise miss its tests without a word.
    await expect((await engine('test/support/suites/broken/*.suite.ts')).collect()).rejects.toThrow(
      'the suites do not load: test/support/suites/broken/broken.suite.ts: this suite file fails to load',
    );
  });

  it('a shared reading is made by the first test of each suite file, though the files share one worker', async () => {
    // Per worker, the second file would see the first file's reading: which test reads (its requests, its
    // findings) would then depend on which files a worker happened to run before.
    const run = await (await engine('test/support/suites/shared/*.suite.ts')).run(config);
    expect(run.runErrors).toEqual([]);
    expect(run.tests.map((t) => [t.id, t.status, t.reason])).toEqual([
      ['ENV-01 file a reads first', 'passed', undefined],
      ['ENV-01 file b reads first', 'passed', undefined],
      ['ENV-02 file a reads again', 'passed', undefined],
      ['ENV-02 file b reads again', 'passed', undefined],
    ]);
  });
});
