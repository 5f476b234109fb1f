/**
 * The OpenAPI export in a widely used validating proxy: Prism (@stoplight/prism-cli), fed the export,
 * forwards a conformance run to the reference server and judges every answer. On the clean server it
 * must report no response violation (refusals included); with a planted shape fault it must report
 * one. Where Prism cannot start, the tests skip with the reason.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi, type TestContext } from 'vitest';
import { buildOpenApi } from '../../schemas/openapi.ts';
import type { Results } from '../../schemas/results.ts';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../server/index.ts';
import { cli, type CliResult } from '../support/cli.ts';

// A run goes through two proxies and a child process; a busy machine needs more than the default.
vi.setConfig({ testTimeout: 180_000 });

const PRISM = new URL('../../node_modules/.bin/prism', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'cms-prism-'));
const specFile = join(dir, 'openapi.json');
writeFileSync(specFile, `${JSON.stringify(buildOpenApi(), null, 2)}\n`);

/** One entry of Prism's `sl-violations` header. */
interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

/** What the recording proxy saw of one exchange; the path without its query, which holds the token. */
interface Seen {
  method: string;
  path: string;
  status: number;
  responseCode?: string;
  violations: Violation[];
}

/** Parses an `sl-violations` value; a value Prism cut short counts as one violation at an unknown place of the response. */
function parseViolations(value: string | string[] | undefined): Violation[] {
  if (value === undefined) return [];
  const text = Array.isArray(value) ? value.join(',') : value;
  try {
    return JSON.parse(text) as Violation[];
  } catch {
    return [{ location: ['response'], severity: 'Error', message: `unparsable sl-violations header: ${text.slice(0, 300)}` }];
  }
}

/** A port that was free a moment ago: Prism's CLI takes no port 0. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts `prism proxy` in front of the upstream; resolves with its base URL, or rejects with what Prism printed. */
function startPrism(upstream: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    if (!existsSync(PRISM)) return reject(new Error(`${PRISM} is missing (npm install)`));
    void freePort().then((port) => {
      const child = spawn(PRISM, ['proxy', specFile, upstream, '--errors=false', '--host', '127.0.0.1', '--port', String(port)], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, FORCE_COLOR: '0' },
      });
      let output = '';
      const timer = setTimeout(() => fail(new Error(`Prism did not listen within 30 s: ${output.slice(-2000)}`)), 30_000);
      const fail = (err: Error) => {
        clearTimeout(timer);
        child.kill();
        reject(err);
      };
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /Prism is listening on (http:\/\/\S+)/.exec(output)?.[1];
        if (url) {
          clearTimeout(timer);
          resolve({ child, url, output: () => output });
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('error', fail);
      child.on('exit', (code) => fail(new Error(`Prism exited (${code}) before listening: ${output.slice(-2000)}`)));
    }, reject);
  });
}

/** A proxy in front of Prism that records each exchange with the violations Prism reported in its header. */
async function startRecorder(prismUrl: string): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const upstream = new URL(prismUrl);
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const fwd = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        let responseCode: string | undefined;
        try {
          responseCode = (JSON.parse(body.toString('utf8')) as { responseInfo?: { responseCode?: string } }).responseInfo?.responseCode;
        } catch {
          // Not JSON: the run's own judge reports that; here only Prism's verdict counts.
        }
        const path = (req.url ?? '').split('?')[0]!;
        if (responseCode === undefined || /createdbefore=|nodeId=|overwrite=|inherited=/.test(req.url ?? '')) console.log('DBG', req.method, req.url, req.headers['content-type'], answer.statusCode, body.toString('utf8').slice(0, 300), answer.headers['sl-violations']);
        seen.push({ method: req.method ?? '', path, status: answer.statusCode ?? 0, responseCode, violations: parseViolations(answer.headers['sl-violations']) });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      });
    });
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** What a run through Prism produced. */
interface Passage {
  seen: Seen[];
  run: CliResult;
  results: Results | undefined;
  prismLog: string;
}

/**
 * Runs `cms-conformance run ARGS` against the reference server through the recorder and Prism;
 * skips the test with the reason where Prism cannot start.
 */
async function throughPrism(ctx: TestContext, options: ReferenceServerOptions, args: string[]): Promise<Passage> {
  const server: ReferenceServer = await startReferenceServer({ ...options, authToken: randomBytes(12).toString('hex') });
  let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
  let recorder: Awaited<ReturnType<typeof startRecorder>> | undefined;
  try {
    try {
      // Prism joins the upstream's path (/rest) with each request's path, so the target's base URL has none.
      prism = await startPrism(server.baseUrl);
    } catch (err) {
      return ctx.skip(`Prism cannot start: ${(err as Error).message}`);
    }
    recorder = await startRecorder(prism.url);
    const targetFile = join(mkdtempSync(join(dir, 'run-')), 'target.json');
    writeFileSync(targetFile, JSON.stringify({ ...server.target, baseUrl: recorder.url }));
    const out = join(targetFile, '..', 'out');
    const run = await cli('run', '--target', targetFile, '--out', out, ...args);
    const resultsFile = join(out, 'results.json');
    const results = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Results) : undefined;
    const st: Record<string, number> = {};
    for (const x of recorder.seen) st[`${x.method} ${x.status} ${x.responseCode}`] = (st[`${x.method} ${x.status} ${x.responseCode}`] ?? 0) + 1;
    console.log(args.join(' '), recorder.seen.length, JSON.stringify(st), JSON.stringify(results?.summary ?? Object.keys(results ?? {})));
    const reqv = recorder.seen.flatMap((x) => x.violations.map((v) => `${x.method} ${x.path} ${v.location.join('.')} ${v.message}`));
    console.log([...new Set(reqv)].slice(0, 40).join('\n'), reqv.length);
    return { seen: recorder.seen, run, results, prismLog: prism.output() };
  } finally {
    await new Promise((resolve) => (recorder ? recorder.server.close(resolve) : resolve(undefined)));
    prism?.child.kill();
    await server.close();
  }
}

const responseViolations = (seen: Seen[]) =>
  seen.flatMap((s) => s.violations.filter((v) => v.location[0] === 'response').map((v) => ({ exchange: `${s.method} ${s.path} ${s.status}`, ...v })));

describe('Prism fed the OpenAPI export', () => {
  it('reports no response violation on the clean reference server, successes and refusals alike', async (ctx) => {
    const { seen, run, prismLog } = await throughPrism(ctx, {}, ['--only', 'OP,ENV,NEG-03', '--runs', '3']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(seen.length).toBeGreaterThan(100);
    // A request Prism routes to no operation is forwarded unjudged: every one must have been routed.
    const unrouted = seen.filter((s) => s.violations.some((v) => /route not found/i.test(v.message)));
    expect(unrouted.map((s) => `${s.method} ${s.path}`)).toEqual([]);
    const success = seen.filter((s) => s.status < 300 && s.responseCode === 'OK');
    const refused = seen.filter((s) => s.status >= 400);
    expect(success.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(responseViolations(seen), prismLog.slice(-3000)).toEqual([]);
  });

  it('reports no response violation where refusals come as 200 with a non-OK responseCode', async (ctx) => {
    const { seen, run } = await throughPrism(ctx, { refusalStyle: 'body' }, ['--only', 'OP-folder,OP-file.copy,NEG-03', '--runs', '3']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const refusedIn200 = seen.filter((s) => s.status === 200 && s.responseCode !== undefined && s.responseCode !== 'OK');
    expect(refusedIn200.some((s) => s.method === 'GET')).toBe(true);
    expect(refusedIn200.some((s) => s.method === 'POST')).toBe(true);
    expect(responseViolations(seen)).toEqual([]);
  });

  it('reports the planted shape fault as a response violation', async (ctx) => {
    const { seen, run } = await throughPrism(ctx, { faults: ['shape-folder-load-response'] }, ['--only', 'OP-folder.load,OP-folder.create', '--runs', '3']);
    expect(run.code).toBe(1);
    const found = responseViolations(seen);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => /^(GET \/folder\/load\/|POST \/folder\/create )/.test(v.exchange))).toBe(true);
  });
});
