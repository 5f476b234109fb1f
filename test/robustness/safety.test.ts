/**
 * The suite never damages what it did not create: a full run against a served reference server goes
 * through a recording proxy; every mutating request must name only objects the run created (the run's
 * own sandbox is created under the fixture's sandbox parent), every object that existed before the
 * run must be unchanged afterwards, and the sandbox must be gone. The same run shows that every
 * request goes through the one judged path: the tests' counts account for every request the proxy saw.
 */
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PREFIX } from '../../harness/sandbox.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { loadResults } from '../../reports/results.ts';
import { cli } from '../support/cli.ts';
import { startProxy } from '../support/proxy.ts';

vi.setConfig({ testTimeout: 900_000 });

interface Recorded {
  method: string;
  url: string;
  body: string;
}

let upstream: ReferenceServer;
let proxy: Server;
let targetFile: string;
const recorded: Recorded[] = [];
/** Every request that reached the proxy, GETs included. */
let proxied = 0;

beforeAll(async () => {
  upstream = await startReferenceServer({ port: 0 });
  ({ server: proxy, targetFile } = await startProxy(upstream, (req, _res, body) => {
    proxied++;
    if (req.method !== 'GET')
      recorded.push({ method: req.method ?? '', url: req.url ?? '', body: body.subarray(0, 200_000).toString('latin1') });
    return false;
  }));
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
  it('mutates only what the run created, leaves every fixture object as it was, removes its sandbox and judges every answer', async () => {
    const state = upstream.state;
    const before = new Map([...state.objects].map(([id, o]) => [id, JSON.stringify(o)]));
    const globalIds = new Map([...state.byGlobalId]);
    const out = join(tmpdir(), `cms-safety-out-${process.pid}`);
    const r = await cli('run', '--target', targetFile, '--runs', '5', '--concurrency', '4', '--seed', '21', '--out', out);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);

    // Every answer is judged: per test, every answer with a JSON body was validated, and the tests'
    // own counts account for every request the server saw, but for the session's three (reachability
    // check, sandbox creation and removal): no request goes around the counted, judged path.
    const results = loadResults(join(out, 'results.json'));
    const unjudged = results.tests
      .filter((t) => t.status !== 'skipped' && t.validated !== t.jsonAnswers)
      .map((t) => `${t.id}: ${t.validated} of ${t.jsonAnswers}`);
    expect(unjudged).toEqual([]);
    const sent = results.tests.reduce((n, t) => n + (t.requests ?? 0), 0);
    expect(sent).toBeGreaterThan(1000);
    expect(proxied - sent).toBe(3);

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
          req.url.endsWith('/folder/create') &&
          where === 'body motherId' &&
          id === parent &&
          new RegExp(`"name":"${SANDBOX_PREFIX}`).test(req.body);
        if (createsSandbox) sandboxes++;
        else violations.push(`${req.method} ${req.url} names fixture object ${id} (${where})`);
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
