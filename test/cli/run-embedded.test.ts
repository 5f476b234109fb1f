/** The default run: the embedded reference server declares every feature, auth included, and its token stays secret. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openSession } from '../../cli/session.ts';
import type { Results } from '../../schemas/results.ts';
import { FEATURES } from '../../schemas/target.ts';
import { cli } from '../support/cli.ts';

vi.setConfig({ testTimeout: 300_000 });

// The embedded token is 16 random bytes in hex: a run of exactly 32 hex digits anywhere would be it.
const TOKEN_LIKE = /(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/i;

describe('the embedded reference server', () => {
  it('gets a fresh random token, so the target declares every feature', async () => {
    const sessions = [await openSession({ timeoutMs: 10_000, concurrency: 2 }), await openSession({ timeoutMs: 10_000, concurrency: 2 })];
    try {
      const [a, b] = sessions.map((s) => s.target);
      expect(a!.features).toEqual([...FEATURES]);
      expect(a!.auth.query.sid).toMatch(/^[0-9a-f]{32}$/);
      expect(a!.auth.query.sid).not.toBe(b!.auth.query.sid);
    } finally {
      for (const s of sessions) await s.close();
    }
  });

  it('says nothing of a sandbox that a planted fault keeps it from removing: nothing outlives the server', async () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // response-code-lowercase answers the removal with "ok", which the suite cannot take as success.
      const session = await openSession({ faults: ['response-code-lowercase'], timeoutMs: 10_000, concurrency: 2 });
      await session.close();
      expect(said).not.toHaveBeenCalled();
    } finally {
      said.mockRestore();
    }
  });

  it('runs the tests that need auth instead of skipping them, and its token appears in no output', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cms-embedded-')), 'out');
    const r = await cli('run', '--only', 'NEG-06', '--runs', '2', '--out', out);
    expect(r.code, r.stdout.slice(-2000)).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(results.target.features).toContain('auth');
    expect(results.tests.length).toBeGreaterThan(0);
    expect(results.tests.filter((t) => t.status !== 'passed')).toEqual([]);
    expect(r.stdout + r.stderr).not.toMatch(TOKEN_LIKE);
    for (const report of ['results.json', 'junit.xml', 'report.html', 'summary.md'])
      expect(readFileSync(join(out, report), 'utf8')).not.toMatch(TOKEN_LIKE);
  });

  it('says in --dry-run that it declares every feature and skips nothing', async () => {
    const r = await cli('run', '--dry-run', '--out', join(tmpdir(), 'cms-embedded-dry'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`features: ${FEATURES.join(', ')}`);
    expect(r.stdout).not.toMatch(/would be skipped/);
  });
});
