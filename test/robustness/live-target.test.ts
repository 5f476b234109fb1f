/**
 * A live target behind a proxy, one full run for two properties (one run instead of two: each costs
 * a whole suite run, and the proxy can watch and throttle at once).
 *
 * Safety: the suite never damages what it did not create. Every mutating request must name only
 * objects the run created (the run's own sandbox is created under the fixture's sandbox parent), every
 * object that existed before the run must be unchanged afterwards, and the sandbox must be gone. The
 * same run shows that every request goes through the one judged path: the tests' counts account for
 * every request the proxy saw.
 *
 * Throttling: the proxy answers some requests, GETs and POSTs alike, with 429 and `Retry-After: 1`
 * without passing them on. The run must wait, send them again, pass with exit 0 and say how many
 * retries it needed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PREFIX } from '../../harness/sandbox.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { loadResults } from '../../reports/results.ts';
import type { Results } from '../../schemas/results.ts';
import type { Target } from '../../schemas/target.ts';
import { cli, type CliResult } from '../support/cli.ts';
import { startProxy } from '../support/proxy.ts';

vi.setConfig({ testTimeout: 900_000, hookTimeout: 900_000 });

interface Recorded {
  method: string;
  url: string;
  body: string;
}

// Counted per method so that POSTs are throttled however the run interleaves its requests; a few of
// each suffice (every one costs the run a second of waiting).
const EVERY = 1000;

let upstream: ReferenceServer;
let proxy: Server;
/** Mutating requests the proxy passed on. */
const recorded: Recorded[] = [];
/** Every request that reached the proxy, GETs and throttled ones included. */
let proxied = 0;
const seen: Record<string, number> = {};
const throttled: Record<string, number> = {};
/** The fixture as it was before the run: every object by id, as JSON, and the global ids. */
let before: Map<number, string>;
let globalIds: Map<string, number>;
let run: CliResult;
let results: Results;

beforeAll(async () => {
  // With a token the target declares every feature, so the run touches every operation.
  upstream = await startReferenceServer({ port: 0, authToken: 'live-token' });
  let targetFile: string;
  ({ server: proxy, targetFile } = await startProxy(upstream, (req, res, body) => {
    proxied++;
    const method = req.method ?? '';
    // The session's removal of its sandbox comes after the results are written: a retry of it would be counted by
    // no test nor by the results, so the proxy never throttles it (the reachability check and the sandbox's
    // creation, the first two requests, never reach EVERY).
    const removed = /^\/rest\/folder\/delete\/(\d+)$/.exec(new URL(req.url ?? '', 'http://x').pathname);
    const removesSandbox = removed !== null && upstream.state.objects.get(Number(removed[1]))?.name?.startsWith(SANDBOX_PREFIX) === true;
    seen[method] = (seen[method] ?? 0) + 1;
    if (seen[method] % EVERY === 0 && !removesSandbox) {
      throttled[method] = (throttled[method] ?? 0) + 1;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"messages":[],"responseInfo":{"responseCode":"FAILURE","responseMessage":"slow down"}}');
      return true;
    }
    if (method !== 'GET') recorded.push({ method, url: req.url ?? '', body: body.subarray(0, 200_000).toString('latin1') });
    return false;
  }));
  // A live target as a vendor's: not a throwaway instance, so no test may change a fixture object.
  const declared = JSON.parse(readFileSync(targetFile, 'utf8')) as Target;
  writeFileSync(targetFile, JSON.stringify({ ...declared, features: declared.features.filter((f) => f !== 'disposable') }));
  before = new Map([...upstream.state.objects].map(([id, o]) => [id, JSON.stringify(o)]));
  globalIds = new Map([...upstream.state.byGlobalId]);
  const out = join(mkdtempSync(join(tmpdir(), 'cms-live-')), 'out');
  run = await cli('run', '--target', targetFile, '--runs', '5', '--concurrency', '4', '--seed', '21', '--out', out);
  try {
    results = loadResults(join(out, 'results.json'));
  } catch (err) {
    // Both tests would fail on the missing file alone: say why the run wrote none.
    throw new Error(
      `the run wrote no results (exit ${run.code}): ${(err as Error).message}\n${run.stdout.slice(-3000)}${run.stderr.slice(-2000)}`,
    );
  }
});

afterAll(async () => {
  proxy.closeAllConnections();
  proxy.close();
  await upstream.close();
});

/** Every id a mutating request names: the path id, id query parameters, and id members of a JSON or multipart body. */
function namedIds(r: Recorded): { where: string; id: string }[] {
  const url = new URL(r.url, 'http://x');
  const out: { where: string; id: string }[] = [];
  const last = url.pathname.split('/').pop() ?? '';
  if (/^\d+$|^[A-Za-z0-9]{4}\.[0-9a-f-]{36}$/.test(last)) out.push({ where: 'path', id: decodeURIComponent(last) });
  for (const name of ['id', 'folderId']) for (const v of url.searchParams.getAll(name)) out.push({ where: `query ${name}`, id: v });
  let json: unknown;
  try {
    json = JSON.parse(r.body);
  } catch {
    for (const m of r.body.matchAll(/name="(folderId)"\r\n\r\n(\d+)/g)) out.push({ where: `part ${m[1]}`, id: m[2]! });
  }
  const body = json as { motherId?: unknown; folderId?: unknown; targetFolder?: { id?: unknown }; file?: { id?: unknown } } | undefined;
  if (body && typeof body === 'object') {
    for (const [where, v] of [
      ['motherId', body.motherId],
      ['folderId', body.folderId],
      ['targetFolder.id', body.targetFolder?.id],
      ['file.id', body.file?.id],
    ] as const) {
      if (typeof v === 'number' || typeof v === 'string') out.push({ where: `body ${where}`, id: String(v) });
    }
  }
  return out;
}

describe('safety on a live target', () => {
  it('mutates only what the run created, leaves every fixture object as it was, removes its sandbox and judges every answer', () => {
    const state = upstream.state;
    expect(run.code, run.stdout.slice(-3000)).toBe(0);

    // Every answer is judged: per test, every answer with a JSON body was validated, and the tests'
    // own counts account for every request the server saw, but for the session's three (reachability
    // check, sandbox creation and removal) and the repeats of throttled ones: no request goes around
    // the counted, judged path.
    const unjudged = results.tests
      .filter((t) => t.status !== 'skipped' && t.validated !== t.jsonAnswers)
      .map((t) => `${t.id}: ${t.validated} of ${t.jsonAnswers}`);
    expect(unjudged).toEqual([]);
    // The tests that change fixture objects are left out, saying why.
    const changing = results.tests.filter((t) => t.file.startsWith('suites/disposable/'));
    expect(changing.length).toBeGreaterThan(0);
    expect(changing.every((t) => t.status === 'skipped' && t.reason?.startsWith('it changes fixture objects ('))).toBe(true);
    const sent = results.tests.reduce((n, t) => n + (t.requests ?? 0), 0);
    expect(sent).toBeGreaterThan(1000);
    expect(proxied - sent - (results.summary.retries ?? 0)).toBe(3);

    const parent = String(upstream.target.fixture.sandboxParentFolderId);
    const violations: string[] = [];
    let named = 0;
    let sandboxes = 0;
    for (const req of recorded) {
      for (const { where, id } of namedIds(req)) {
        named++;
        const local = /^\d+$/.test(id) ? Number(id) : globalIds.get(id);
        if (local === undefined || !before.has(local)) continue;
        // The one mutation outside a sandbox: creating the run's sandbox folder under the sandbox parent.
        const createsSandbox =
          new URL(req.url, 'http://x').pathname.endsWith('/folder/create') &&
          where === 'body motherId' &&
          id === parent &&
          new RegExp(`"name":"${SANDBOX_PREFIX}`).test(req.body);
        // A copy reads its source and changes it not (the fixture's state is compared below): FIL-03 copies a
        // fixture image into the sandbox, the one way the contract gives to put an image beside the run's files.
        const copiesFrom = new URL(req.url, 'http://x').pathname.endsWith('/file/copy') && where === 'body file.id';
        if (createsSandbox) sandboxes++;
        else if (!copiesFrom) violations.push(`${req.method} ${req.url} names fixture object ${id} (${where}): ${req.body.slice(0, 200)}`);
      }
    }
    expect(violations).toEqual([]);
    // The audit saw the requests' ids (it is not vacuous) and exactly one mutation of a fixture folder: the sandbox.
    expect(named).toBeGreaterThan(500);
    expect(sandboxes).toBe(1);

    const changed = [...before].filter(([id, json]) => JSON.stringify(state.objects.get(id)) !== json).map(([id]) => id);
    expect(changed).toEqual([]);
    const left = [...state.objects.values()].filter(
      (o) =>
        typeof (o as { name?: unknown }).name === 'string' &&
        (o as { name: string }).name.startsWith(SANDBOX_PREFIX) &&
        !(o as { deleted?: unknown }).deleted,
    );
    expect(left).toEqual([]);
    expect(recorded.length).toBeGreaterThan(500);
  });
});

describe('a throttling target', () => {
  it('passes a full run that waits for every 429 and retries it, GET and POST alike, and counts the retries', () => {
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(throttled.GET).toBeGreaterThan(0);
    expect(throttled.POST).toBeGreaterThan(0);
    // Nothing skipped but the tests that change fixture objects, which a live target not declared disposable leaves out.
    expect(results.summary.skipped).toBe(results.tests.filter((t) => t.file.startsWith('suites/disposable/')).length);
    // Tests carry their own retries; the session's sandbox requests are the run's but no test's.
    const byTests = results.tests.reduce((sum, t) => sum + (t.retries ?? 0), 0);
    expect(byTests).toBeGreaterThan(0);
    expect(results.summary.retries).toBeGreaterThanOrEqual(byTests);
    expect(results.summary.retries).toBeLessThanOrEqual((throttled.GET ?? 0) + (throttled.POST ?? 0));
  });
});
