/**
 * `t.property` with `cover`: the cases that tell a broken server from a correct one run first in every
 * run, whatever the seed, and the generated cases after them are still the seed's own. Prove under seeds
 * other than 1 found tests that a planted fault of their own passed because a few random draws
 * missed its case (SRT-05 never drew niceUrl, FLD-03 never drew recursive with tree).
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../harness/config.ts';
import { ConformanceContext, novelClasses, unseen } from '../../harness/suite.ts';
import { Transport } from '../../harness/transport.ts';
import type { Finding } from '../../harness/checks.ts';

const target: RunConfig['target'] = {
  baseUrl: 'http://127.0.0.1:9/rest',
  auth: { query: {}, headers: {} },
  features: [],
  fixture: { masterNodeId: 1, masterRootFolderId: 1, sandboxParentFolderId: 1 },
};

/** A test context of its own (no request is sent: the checks below only look at the values). */
function context(seed: number, replayPath?: string): ConformanceContext {
  const config: RunConfig = {
    target,
    replayArgs: [],
    seed,
    runs: 5,
    strict: false,
    timeoutMs: 1000,
    concurrency: 1,
    sandboxFolderId: 1,
    ...(replayPath ? { replayPath } : {}),
  };
  return new ConformanceContext('SRT-05 a property test', 'SRT-05', config, new Transport(target));
}

const values = fc.integer({ min: 0, max: 1000 });

/** The values a property test is given, in order, and its recorded findings. */
async function runOf(
  seed: number,
  options: { cover?: number[]; failOn?: number; replayPath?: string; novel?: (v: number) => boolean; space?: fc.Arbitrary<number> },
) {
  const t = context(seed, options.replayPath);
  const seen: number[] = [];
  try {
    await t.property(
      options.space ?? values,
      async (v): Promise<Finding[]> => {
        seen.push(v);
        return v === options.failOn ? [{ requirement: 'SRT-05', check: 'order', severity: 'error', message: `wrong order for ${v}` }] : [];
      },
      { ...(options.cover ? { cover: options.cover } : {}), ...(options.novel ? { novel: options.novel } : {}) },
    );
  } finally {
    await t.transport.close();
  }
  return { seen, findings: t.findings };
}

describe('t.property with cover', () => {
  it('runs the cover cases first under every seed, then as many generated cases as without them, the same ones', async () => {
    for (const seed of [1, 3, 7]) {
      const plain = await runOf(seed, {});
      const covered = await runOf(seed, { cover: [2000, 3000] });
      expect(plain.seen).toHaveLength(5);
      expect(covered.seen).toEqual([2000, 3000, ...plain.seen]);
    }
  });

  it('reports a failing cover case with its counterexample and a replay path that runs that case alone', async () => {
    const failed = await runOf(5, { cover: [2000, 3000], failOn: 3000 });
    const finding = failed.findings.find((f) => f.severity === 'error')!;
    expect(finding.message).toBe('wrong order for 3000');
    expect(finding.counterexample).toBe('3000');
    expect(finding.replay).toContain(`--replay-path '${finding.path}'`);
    const replayed = await runOf(5, { cover: [2000, 3000], failOn: 3000, replayPath: finding.path! });
    expect(replayed.seen).toEqual([3000]);
    expect(replayed.findings.map((f) => f.message)).toEqual(['wrong order for 3000']);
  });
});

describe('t.property with novel', () => {
  const small = fc.integer({ min: 0, max: 2 });

  it('runs only the values that explore something new, in the order drawn', async () => {
    const all = await runOf(3, { space: small });
    const firsts = all.seen.filter((v, i) => all.seen.indexOf(v) === i);
    expect(all.seen.length).toBeGreaterThan(firsts.length);
    expect((await runOf(3, { space: small, novel: unseen() })).seen).toEqual(firsts);
  });

  it('novelClasses runs a value only when one of its classes is new', async () => {
    const classes = (v: number) => [v % 2 ? 'odd' : 'even', v > 50 ? 'large' : 'small'];
    const run = await runOf(20, { novel: novelClasses(classes) });
    const explored = new Set(run.seen.flatMap(classes));
    expect(run.seen.length).toBeLessThanOrEqual(explored.size);
    expect(run.seen.length).toBeGreaterThan(1);
    // Each value sent brought a class no earlier one had.
    run.seen.forEach((v, i) => expect(classes(v).some((c) => !run.seen.slice(0, i).flatMap(classes).includes(c))).toBe(true));
  });

  it('unseen by a key skips the values whose key an earlier one had', async () => {
    const byParity = await runOf(3, { novel: unseen((v: number) => v % 2) });
    expect(byParity.seen.map((v) => v % 2).sort()).toEqual([0, 1]);
  });

  it('runs every value once a case failed, so fast-check shrinks as without novel', async () => {
    const plain = await runOf(5, { failOn: 0, space: small });
    const novel = await runOf(5, { failOn: 0, space: small, novel: unseen() });
    expect(novel.findings.map((f) => [f.message, f.counterexample])).toEqual(plain.findings.map((f) => [f.message, f.counterexample]));
    expect(novel.findings.some((f) => f.severity === 'error')).toBe(true);
  });

  it('runs the replayed case even when novel would skip it', async () => {
    const failed = await runOf(5, { failOn: 1, space: small });
    const path = failed.findings.find((f) => f.severity === 'error')!.path!;
    const replayed = await runOf(5, { failOn: 1, space: small, novel: () => false, replayPath: path });
    // The replayed case runs (then fast-check tries to shrink it further, as in any replay).
    expect(replayed.seen[0]).toBe(1);
  });
});
