import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuiteEngine } from '../../cli/engine.ts';
import type { RunConfig } from '../../harness/config.ts';

describe('suite engine', () => {
  let engine: SuiteEngine;
  beforeAll(async () => {
    engine = await SuiteEngine.create({ workers: 1, progress: null, include: 'test/support/suites/*.suite.ts' });
  });
  afterAll(() => engine.close());

  it('a suite file that throws while it loads is a run error, and the other files still run', async () => {
    // No test of these files reads the run configuration: any one will do.
    const run = await engine.run({} as RunConfig);
    expect(run.runErrors).toEqual(['test/support/suites/broken.suite.ts: this suite file fails to load']);
    expect(run.tests.map((t) => [t.id, t.status])).toEqual([['ENV-01 a test of a suite file that loads', 'passed']]);
  });
});
