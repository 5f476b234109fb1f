/**
 * `--concurrency auto`: the search finds what a target takes (doubling while answers stay as fast as at
 * 1 in flight and no 429 or 503 comes, back to the last level that held on either, never above the
 * ceiling), against simulated targets and against the reference server paced (server/pace.ts); and a
 * run with it, suite files side by side, gives every test the status it gets one request at a time, on
 * the clean server and under planted faults.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONCURRENCY_MAX, LOCAL_MS, asFast, filesSideBySide, sizeConcurrency, type Level } from '../../cli/concurrency.ts';
import { requestOf } from '../../harness/api.ts';
import { Transport, type Exchange } from '../../harness/transport.ts';
import type { FaultName } from '../../server/faults.ts';
import { startReferenceServer } from '../../server/index.ts';
import type { Pace } from '../../server/pace.ts';
import { differences, statuses } from '../../scripts/concurrency-sweep.ts';
import { cli } from '../support/cli.ts';

vi.setConfig({ testTimeout: 300_000 });

const dir = mkdtempSync(join(tmpdir(), 'cms-concurrency-'));

/**
 * A simulated target: `slots` requests served at once, each in `latencyMs`, the rest in line after them; above
 * `pushBackAbove` in flight it answers 429.
 */
function simulated(options: { latencyMs: number; slots?: number; pushBackAbove?: number }): {
  send: () => Promise<Exchange>;
  most: () => number;
} {
  let inFlight = 0;
  let most = 0;
  const send = async (): Promise<Exchange> => {
    inFlight++;
    most = Math.max(most, inFlight);
    // The requests of one round all start before any is measured.
    await Promise.resolve();
    const at = inFlight;
    const status = options.pushBackAbove !== undefined && at > options.pushBackAbove ? 429 : 200;
    const durationMs = options.latencyMs * Math.ceil(at / (options.slots ?? Infinity));
    await new Promise((resolve) => setImmediate(resolve));
    inFlight--;
    return {
      seq: 0,
      request: { method: 'GET', url: 'http://simulated/folder/load/1', headers: {} },
      response: { status, headers: {}, text: '', truncated: false },
      durationMs,
    };
  };
  return { send, most: () => most };
}

describe('filesSideBySide', () => {
  const level = (inFlight: number, medianMs: number): Level => ({ inFlight, medianMs, pushedBack: false, requests: 3 });
  it("a target that answers within LOCAL_MS gets no more files side by side than the machine's cores", () => {
    const local = { inFlight: 8, levels: [level(1, LOCAL_MS), level(8, LOCAL_MS + 1)] };
    expect(filesSideBySide(local, 2)).toBe(2);
    expect(filesSideBySide(local, 16)).toBe(8);
    expect(filesSideBySide({ inFlight: 1, levels: [level(1, 0)] }, 4)).toBe(1);
  });
  it('a target farther away gets as many as it takes in flight, whatever the cores', () => {
    const far = { inFlight: 8, levels: [level(1, 20), level(8, 21)] };
    expect(filesSideBySide(far, 2)).toBe(8);
    expect(filesSideBySide({ ...far, levels: [level(1, LOCAL_MS + 0.5)] }, 1)).toBe(8);
  });
});

describe('sizeConcurrency', () => {
  it('a target that answers every request as fast however many come gets the ceiling, and never more', async () => {
    const target = simulated({ latencyMs: 20 });
    const sizing = await sizeConcurrency(target.send, DEFAULT_CONCURRENCY_MAX);
    expect(sizing.inFlight).toBe(8);
    expect(sizing.levels.map((l) => l.inFlight)).toEqual([1, 2, 4, 8]);
    expect(target.most()).toBe(8);
    const capped = await sizeConcurrency(simulated({ latencyMs: 20 }).send, 3);
    expect(capped.inFlight).toBe(3);
    expect(capped.levels.map((l) => l.inFlight)).toEqual([1, 2, 3]);
  });

  it('answers that come slower than at 1 in flight stop the growth at the last level that held', async () => {
    const sizing = await sizeConcurrency(simulated({ latencyMs: 20, slots: 2 }).send, 8);
    expect(sizing.inFlight).toBe(2);
    expect(sizing.levels.map((l) => l.inFlight)).toEqual([1, 2, 4]);
    expect(sizing.levels[2]!.pushedBack).toBe(false);
  });

  it('a 429 halves: back to the last level that held, or 1', async () => {
    const sizing = await sizeConcurrency(simulated({ latencyMs: 20, pushBackAbove: 3 }).send, 8);
    expect(sizing.inFlight).toBe(2);
    expect(sizing.levels.at(-1)).toMatchObject({ inFlight: 4, pushedBack: true });
    const alone = await sizeConcurrency(simulated({ latencyMs: 20, pushBackAbove: 0 }).send, 8);
    expect(alone.inFlight).toBe(1);
    expect(alone.levels).toHaveLength(1);
  });

  it('asFast: within a quarter of the time at 1 in flight, and 2 ms of jitter', () => {
    expect(asFast({ medianMs: 25 }, { medianMs: 20 })).toBe(true);
    expect(asFast({ medianMs: 28 }, { medianMs: 20 })).toBe(false);
    expect(asFast({ medianMs: 3 }, { medianMs: 1 })).toBe(true);
  });
});

/** Sizes the reference server started with a pace, over HTTP as a run does. */
async function sizeServer(pace: Pace): Promise<number> {
  const server = await startReferenceServer({ pace });
  const transport = new Transport(server.target, { timeoutMs: 10_000, concurrency: 8, maxRetries: 0 });
  try {
    const load = requestOf('folder.load', { path: { id: server.target.fixture.sandboxParentFolderId } });
    return (await sizeConcurrency(() => transport.send(load), 8)).inFlight;
  } finally {
    await transport.close();
    await server.close();
  }
}

describe('sizeConcurrency against the paced reference server', () => {
  it('finds the slots of a server that makes the rest wait, and backs off from one that answers 429', async () => {
    // 100 ms a request: at 4 in flight half the answers take twice as long (a median 1.5 times the time at 1, against
    // the 1.25 allowed), and without a limit none does. A busy machine adds milliseconds to every answer, which at 40 ms
    // a request once made the median at 4 pass as fast as the time at 1; at 100 ms they stay small beside the gap.
    expect(await sizeServer({ latencyMs: 100, capacity: 2 })).toBe(2);
    // The same against a server that answers 429 beyond its slots. At 5 ms a request a busy machine's few ms once made
    // the answers at 2 in flight look slower than at 1 (more than a quarter and 2 ms), and sizing stopped at 1.
    expect(await sizeServer({ latencyMs: 100, capacity: 2, shed: true })).toBe(2);
    expect(await sizeServer({ latencyMs: 100 })).toBeGreaterThanOrEqual(4);
  });
});

describe('the paced reference server', () => {
  it('gives the slot of a client gone while it waited to the next request', async () => {
    const server = await startReferenceServer({ pace: { latencyMs: 100, capacity: 1 } });
    const url = `${server.baseUrl}/folder/load/${server.target.fixture.masterRootFolderId}`;
    try {
      const first = fetch(url);
      const abandoned = new AbortController();
      const gone = fetch(url, { signal: abandoned.signal }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 30));
      abandoned.abort();
      await Promise.all([first, gone]);
      // With the slot lost, this request would wait for ever.
      const next = await fetch(url, { signal: AbortSignal.timeout(5000) });
      expect(next.status).toBeLessThan(500);
    } finally {
      await server.close();
    }
  });
});

describe('run --concurrency auto', () => {
  // Suite files that read, delete and list the whole tree's wastebin beside each other.
  const ONLY = 'SRT-03,WST,DEL,FLD-06';
  for (const faults of [[], ['sortby-deletedat-as-id'], ['wastebin-only-ignored']] as FaultName[][]) {
    it(`gives every test the status it gets one request at a time (${faults.join(', ') || 'the clean server'})`, async () => {
      const name = faults[0] ?? 'clean';
      // Each against a server of its own: side by side, they cost the time of one.
      const run = { dir, faults, only: ONLY.split(','), latencyMs: 2 };
      // statuses() throws for a run that did not happen, or an auto run that does not say what it chose.
      const [one, auto] = await Promise.all([
        statuses({ ...run, name: `${name}-1`, concurrency: '1' }),
        statuses({ ...run, name: `${name}-auto`, concurrency: 'auto' }),
      ]);
      expect(one.byTest.size).toBeGreaterThan(15);
      expect(differences(one, auto)).toEqual([]);
      expect(Object.fromEntries(auto.byTest)).toEqual(Object.fromEntries(one.byTest));
      const failed = [...one.byTest.values()].filter((s) => s.startsWith('failed'));
      if (faults.length) expect(failed).not.toEqual([]);
      else expect(failed).toEqual([]);
    });
  }
});

describe('run against a live target without --concurrency', () => {
  it('is sized, and the sizing keeps to --rate: a target that asked for 10 requests a second stays at 1 in flight', async () => {
    // 20 ms an answer: unpaced, the sizing would find 8 in flight; at 10 a second each request waits for its slot.
    const server = await startReferenceServer({ pace: { latencyMs: 20 } });
    const targetFile = join(dir, 'rate.target.json');
    writeFileSync(targetFile, JSON.stringify(server.target));
    try {
      const r = await cli('run', '--target', targetFile, '--rate', '10', '--only', 'OP-folder.count', '--out', join(dir, 'rate'));
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        /--concurrency auto: 1 in flight \d+\.\d ms, 2 in flight \d+\.\d ms: 1 in flight, so 1 suite file\(s\) side by side/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('usage', () => {
  it.each([
    [['run', '--concurrency', 'fast'], '--concurrency must be a number of requests in flight or auto, got "fast"'],
    [['run', '--target', 'x.json', '--concurrency', '2', '--concurrency-max', '4'], '--concurrency-max goes with --concurrency auto'],
    [
      ['run', '--concurrency-max', '4'],
      '--concurrency-max goes with --target: a live target is sized (--concurrency auto), the embedded server is not',
    ],
    [['serve', '--port', '0', '--shed'], '--shed needs --capacity: with no limit, no request is ever turned away'],
    [['serve', '--port', '0', '--latency', 'slow'], '--latency must be an integer, got "slow"'],
  ])('%j: exit 2 and one line', async (args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`cms-conformance: ${message}\n`);
  });
});
