/**
 * A rate-limited target: a proxy in front of the reference server answers some requests, GETs and
 * POSTs alike, with 429 and `Retry-After: 1` without passing them on. The run must wait, send them
 * again, pass with exit 0 and say how many retries it needed.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Results } from '../../schemas/results.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { cli } from '../support/cli.ts';
import { startProxy } from '../support/proxy.ts';

vi.setConfig({ testTimeout: 900_000 });

// Counted per method so that POSTs are throttled however the run interleaves its requests; a few of
// each suffice (every one costs the run a second of waiting).
const EVERY = 1000;

let upstream: ReferenceServer;
let proxy: Server;
let targetFile: string;
const seen: Record<string, number> = {};
const throttled: Record<string, number> = {};

beforeAll(async () => {
  // With a token the target declares every feature, so the run touches every operation.
  upstream = await startReferenceServer({ port: 0, authToken: 'throttled-token' });
  ({ server: proxy, targetFile } = await startProxy(upstream, (req, res) => {
    const method = req.method ?? '';
    seen[method] = (seen[method] ?? 0) + 1;
    if (seen[method] % EVERY !== 0) return false;
    throttled[method] = (throttled[method] ?? 0) + 1;
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end('{"messages":[],"responseInfo":{"responseCode":"FAILURE","responseMessage":"slow down"}}');
    return true;
  }));
});

afterAll(async () => {
  proxy.closeAllConnections();
  proxy.close();
  await upstream.close();
});

describe('a throttling target', () => {
  it('passes a full run that waits for every 429 and retries it, GET and POST alike, and counts the retries', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cms-throttled-')), 'out');
    const r = await cli('run', '--target', targetFile, '--runs', '5', '--concurrency', '4', '--seed', '3', '--out', out);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(throttled.GET).toBeGreaterThan(0);
    expect(throttled.POST).toBeGreaterThan(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(results.summary.skipped).toBe(0);
    // Tests carry their own retries; the session's sandbox requests are the run's but no test's.
    const byTests = results.tests.reduce((sum, t) => sum + (t.retries ?? 0), 0);
    expect(byTests).toBeGreaterThan(0);
    expect(results.summary.retries).toBeGreaterThanOrEqual(byTests);
    expect(results.summary.retries).toBeLessThanOrEqual((throttled.GET ?? 0) + (throttled.POST ?? 0));
  });
});
