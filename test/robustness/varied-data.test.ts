/**
 * The varied data set (server/varied-dataset.ts): what the default data keeps constant varied from a seed (ids of many
 * digits, a requester in no group, a chain deeper than 200 folders and a folder wider than any page asked for, names in
 * several scripts, times before 1970, a deleted folder whose content carries no mark of its own). A correct server with
 * such data passes: a check that fails there asks more than the contract, or relies on the default data's shape.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Results } from '../../schemas/results.ts';
import { cli } from '../support/cli.ts';

vi.setConfig({ testTimeout: 300_000 });

describe('the reference server on the varied data set', () => {
  it('passes the whole default run, every test that ran', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cms-varied-')), 'out');
    // Not the mutation run's seed (1): another seed's offsets and shuffles.
    const run = await cli('run', '--fixture', 'varied:2', '--out', out);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(results.tests.filter((t) => t.status === 'failed').map((t) => t.id)).toEqual([]);
    expect(results.tests.length).toBeGreaterThan(400);
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
  });
});
