/** Input files a person writes by hand (target, expectation, fixture, baseline): a bad one is one line naming the member, and exit 2. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataset } from '../../server/default-dataset.ts';
import { sampleResults } from '../reports/sample.ts';
import { cli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cms-inputs-'));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

const fixture = { masterNodeId: 1, masterRootFolderId: 10, sandboxParentFolderId: 10 };
const target = (over: Record<string, unknown>) => ({ baseUrl: 'http://127.0.0.1:9/rest', features: [], fixture, ...over });
const wrongTypeTarget = file('target.json', target({ fixture: { ...fixture, masterNodeId: '1' } }));
const unknownFeature = file('feature.json', target({ features: ['wastebin', 'teleport'] }));
const missingChannel = file('channel.json', target({ features: ['multichannelling'] }));
const wrongTypeExpectations = file('expectations.json', {
  'PAG-01 without pageSize every item comes back': { expected: 'FAIL', reason: 'r', until: 20270101 },
});
const wrongTypeFixture = file('fixture.json', { ...defaultDataset(), requesterId: 'admin' });
const wrongTypeBaseline = file('baseline.json', {
  tool: { name: 'cms-conformance', version: '0.1.0' },
  target: { baseUrl: 'http://x', features: [], embedded: true },
  seed: 1,
  runs: 1,
  startedAt: '2026-03-01T10:00:00.000Z',
  durationMs: 1,
  summary: { total: 0, passed: 0, failed: 0, skipped: 0, warnings: 0, byFamily: {}, skipReasons: {} },
  tests: 'none',
});

describe('bad input files', () => {
  it.each([
    [
      'a target file with a member of the wrong type',
      ['run', '--target', wrongTypeTarget],
      `${wrongTypeTarget}: /fixture/masterNodeId must be integer, got "1"`,
    ],
    [
      'a target file with an unknown feature',
      ['run', '--target', unknownFeature, '--dry-run'],
      `${unknownFeature}: /features/1 must be one of multichannelling, wastebin, pages, templates, sourceUrl, auth, disposable, got "teleport"`,
    ],
    [
      'a target file lacking the fixture ids of a feature',
      ['clean', '--target', missingChannel],
      `${missingChannel}: /fixture/channelNodeId is missing: feature "multichannelling" needs it`,
    ],
    [
      'an expectation file with a member of the wrong type',
      ['run', '--expectations', wrongTypeExpectations],
      `${wrongTypeExpectations}: /PAG-01 without pageSize every item comes back/until must be a date YYYY-MM-DD, got 20270101`,
    ],
    [
      'a fixture file with a member of the wrong type',
      ['serve', '--port', '0', '--fixture', wrongTypeFixture],
      `fixture ${wrongTypeFixture}: /requesterId must be integer, got "admin"`,
    ],
    [
      'a baseline with a member of the wrong type',
      ['run', '--baseline', wrongTypeBaseline],
      `${wrongTypeBaseline}: /tests must be array, got "none"`,
    ],
  ])('%s: exit 2 and one line naming the member', async (_what, args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cms-conformance: ${message}\n`);
  });
});

describe('an --out folder reports cannot go into', () => {
  const through = join(file('results.json', {}), 'reports');
  const why = `--out ${through}: reports cannot go there: ${join(dir, 'results.json')} is a file, not a folder`;
  it.each([
    ['run', ['run', '--out', through]],
    ['merge', ['merge', file('shard.json', sampleResults()), '--out', through]],
    ['proxy', ['proxy', '--upstream', 'http://127.0.0.1:9/rest', '--port', '0', '--out', through]],
  ])('%s: exit 2 and one line before anything runs or is written', async (_command, args) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cms-conformance: ${why}\n`);
    expect(r.stdout).toBe('');
  });
});

describe('an output file that cannot be written', () => {
  const through = join(file('taken.json', {}), 'out.json');
  it.each([
    ['openapi', ['openapi', '--out', through], `ENOTDIR: not a directory, open '${through}'`],
    [
      'update-expectations',
      ['update-expectations', '--from', file('sample-results.json', sampleResults()), '--out', through],
      `${join(dir, 'taken.json')} is a file, not a folder`,
    ],
  ])('%s: exit 2 and one line naming the file, not an internal error', async (_command, args, why) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cms-conformance: --out ${through}: ${why}\n`);
  });
});
