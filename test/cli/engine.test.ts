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
  const engine = async (include: string, workers = 1): Promise<SuiteEngine> => {
    const e = await SuiteEngine.create({ workers, progress: null, include });
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

  it('a test given configurations of its own runs against each in turn, and each has its own results', async () => {
    // prove serves all its cases in one run this way: a fault's verdict must come from its own server's answers only.
    const odd: RunConfig = { ...config, seed: 3 };
    const even: RunConfig = { ...config, seed: 4, target: { ...config.target, features: ['pages'] } };
    const ids = ['ENV-01 fails against an odd seed', 'ENV-02 reads once per configuration', 'PGE-01 needs pages'];
    const done: [number, string[], number | undefined][] = [];
    const run = await (
      await engine('test/support/suites/configs/*.suite.ts')
    ).run(config, undefined, undefined, Object.fromEntries(ids.map((id) => [id, [odd, even]])), (c, tests, firstFailureMs) =>
      done.push([c.seed, tests.map((t) => t.status), firstFailureMs]),
    );
    expect(run.runErrors).toEqual([]);
    expect(run.tests).toEqual([]);
    const verdicts = (c: RunConfig) =>
      run.byConfig.get(c)?.tests.map((t) => [t.id, t.status, t.reason, t.findings.map((f) => `${f.severity} ${f.message}`)]);
    expect(verdicts(odd)).toEqual([
      [ids[0], 'failed', undefined, ['error seed 3']],
      [ids[1], 'passed', undefined, []],
      [ids[2], 'skipped', 'the target does not declare the feature "pages"', []],
    ]);
    expect(verdicts(even)).toEqual([
      [ids[0], 'passed', undefined, ['warning seed 4']],
      [ids[1], 'passed', undefined, []],
      [ids[2], 'passed', undefined, ['warning ran']],
    ]);
    // The odd seed's first test failed: its time to the first failure is its own tests' time up to it.
    expect(run.byConfig.get(odd)?.firstFailureMs).toBeGreaterThanOrEqual(0);
    expect(run.byConfig.get(even)?.firstFailureMs).toBeUndefined();
    // Each configuration is done once its three tests are in, and hears of their results then.
    expect(done.sort((a, b) => a[0] - b[0]).map(([seed, statuses, first]) => [seed, statuses, first !== undefined])).toEqual([
      [3, ['failed', 'passed', 'skipped'], true],
      [4, ['passed', 'passed', 'passed'], false],
    ]);
  });

  it('a test given several configurations has the time of one run against each of them', async () => {
    const id = 'ENV-03 takes most of its time against each configuration';
    const configs: RunConfig[] = [5, 6, 7].map((seed) => ({ ...config, seed }));
    const timing = await engine('test/support/suites/timing/*.suite.ts');
    const run = await timing.run(config, undefined, undefined, { [id]: configs });
    expect(run.runErrors).toEqual([]);
    expect(configs.map((c) => run.byConfig.get(c)?.tests.map((t) => [t.id, t.status]))).toEqual(configs.map(() => [[id, 'passed']]));
    // The next run of the same engine gives the test no configurations of its own: it runs once, against the run's.
    const next = await timing.run(config);
    expect([next.runErrors, next.tests.map((t) => [t.id, t.status]), next.byConfig.size]).toEqual([[], [[id, 'passed']], 0]);
  });

  it('a test that changes fixture objects runs only on a disposable target, after every other test, and only from its folder', async () => {
    const order = async (features: string[]) =>
      // Two workers: the files could run side by side.
      (await engine('test/support/suites/{order,disposable}/*.suite.ts', 2)).run({
        ...config,
        concurrency: 2,
        target: { ...config.target, features } as RunConfig['target'],
      });
    const timeOf = (t: { findings: { message: string }[] }) => Number(/\d+$/.exec(t.findings[0]?.message ?? '')?.[0]);
    const kept = await order([]);
    expect(kept.runErrors).toEqual([]);
    const changes = 'ENV-03 a test that changes fixture objects';
    expect(kept.tests.find((t) => t.id === changes)).toMatchObject({
      status: 'skipped',
      reason:
        'it changes fixture objects (none really: the engine test reads when it started), which the suite does only on a target that declares the feature "disposable"',
    });
    const run = await order(['disposable']);
    const byId = new Map(run.tests.map((t) => [t.id, t]));
    expect(byId.get(changes)?.status).toBe('passed');
    const ended = ['first', 'second'].map((n) => timeOf(byId.get(`ENV-01 the ${n} ordinary test`)!));
    expect(ended.every((e) => e > 0 && e <= timeOf(byId.get(changes)!))).toBe(true);
    // Anywhere else it would run beside the tests whose fixture it changes.
    expect(byId.get('ENV-02 a test changing fixture objects outside the disposable folder')?.reason).toContain(
      'a test that changes fixture objects belongs in suites/disposable/, which runs after every other suite',
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
