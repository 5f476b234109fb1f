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
import { afterAll, describe, expect, it, vi, type TestContext } from 'vitest';
import { buildOpenApi } from '../../schemas/openapi.ts';
import type { Results } from '../../schemas/results.ts';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../server/index.ts';
import { cli, type CliResult } from '../support/cli.ts';
import { startProxy } from '../support/proxy.ts';

// A run goes through two proxies and a child process; a busy machine needs more than the default.
vi.setConfig({ testTimeout: 180_000 });

const PRISM = new URL('../../node_modules/.bin/prism', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'cms-prism-'));
const specFile = join(dir, 'openapi.json');
// The flavour for validating proxies: refusals answered with a 2xx status are documented inside the 2xx responses.
writeFileSync(specFile, `${JSON.stringify(buildOpenApi({ refusalsIn2xx: true }), null, 2)}\n`);

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
  /** A JSON request body that does not parse: Prism answers such a request itself, unforwarded. */
  malformedJson: boolean;
  /**
   * A request body that is ENV-08's probe: `null` (no object, which Prism finds missing), a string, a valid body with
   * the member `notInTheContract` (which Prism finds not allowed), a body holding 1e400 and a null member, or no body at all.
   */
  probeJson: boolean;
  status: number;
  /** Whether the answer is an envelope (messages and responseInfo), i.e. came from the server. */
  envelope: boolean;
  responseCode?: string;
  violations: Violation[];
}

/** Parses an `sl-violations` value (JSON, or a list Prism cut short). */
function parseViolations(value: string | string[] | undefined): Violation[] {
  if (value === undefined) return [];
  const text = Array.isArray(value) ? value.join(',') : value;
  try {
    return JSON.parse(text) as Violation[];
  } catch {
    // Prism cuts a long list short; where it holds a response violation, count one.
    const where = text.includes('"location":["response"') ? 'response' : 'request';
    return [{ location: [where], severity: 'Error', message: `unparsable sl-violations header: ${text.slice(0, 300)}` }];
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
      // A test process killed midway must not leave Prism running.
      const orphanGuard = () => child.kill('SIGKILL');
      process.once('exit', orphanGuard);
      child.once('exit', () => process.off('exit', orphanGuard));
      const timer = setTimeout(() => fail(new Error(`Prism did not listen within 30 s: ${output.slice(-2000)}`)), 30_000);
      const fail = (err: Error) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
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

/** Whether a request body declared as JSON fails to parse. */
function isMalformedJson(contentType: string | undefined, body: Buffer): boolean {
  if (!/json/i.test(contentType ?? '') || body.length === 0) return false;
  try {
    JSON.parse(body.toString('utf8'));
    return false;
  } catch {
    return true;
  }
}

/** A proxy in front of Prism that records each exchange with the violations Prism reported in its header. */
async function startRecorder(prismUrl: string): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const upstream = new URL(prismUrl);
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const sent: Buffer[] = [];
    req.on('data', (c: Buffer) => sent.push(c));
    req.on('end', () => {
      const requestBody = Buffer.concat(sent);
      const fwd = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            const body = Buffer.concat(chunks);
            let json: { messages?: unknown; responseInfo?: { responseCode?: string } } | undefined;
            try {
              json = JSON.parse(body.toString('utf8')) as typeof json;
            } catch {
              // Not JSON: the run's own judge reports that; here only Prism's verdict counts.
            }
            seen.push({
              method: req.method ?? '',
              path: (req.url ?? '').split('?')[0]!,
              malformedJson: isMalformedJson(req.headers['content-type'], requestBody),
              probeJson:
                // ENV-08 also sends a POST of an operation that takes a body with none at all (Prism finds it missing).
                (req.method === 'POST' && requestBody.length === 0) ||
                (/json/i.test(req.headers['content-type'] ?? '') &&
                  (['null', '"x"'].includes(requestBody.toString('utf8').trim()) ||
                    requestBody.toString('utf8').includes('"notInTheContract"') ||
                    // and a number beyond a double beside a null member.
                    requestBody.toString('utf8').includes('1e400'))),
              status: answer.statusCode ?? 0,
              envelope: Array.isArray(json?.messages) && typeof json?.responseInfo === 'object',
              responseCode: json?.responseInfo?.responseCode,
              violations: parseViolations(answer.headers['sl-violations']),
            });
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(body);
          });
        },
      );
      fwd.on('error', () => res.destroy());
      fwd.end(requestBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** Stops Prism and waits until it is gone; a Prism that ignores SIGTERM gets SIGKILL. */
async function stopPrism(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** What a run through Prism produced. */
interface Passage {
  seen: Seen[];
  run: CliResult;
  results: Results | undefined;
  prismLog: string;
}

/** The reference server of the test running now: the one Prism forwards to. */
let upstream: ReferenceServer | undefined;

/**
 * One Prism serves both tests (its start is dear: BENCHMARKS.md): it forwards to a proxy that
 * forwards to the running test's server. Started on first use; rejects with what Prism printed.
 */
let shared: Promise<{ prism: Awaited<ReturnType<typeof startPrism>>; relay: Server }> | undefined;

function sharedPrism(): NonNullable<typeof shared> {
  shared ??= (async () => {
    const { server: relay } = await startProxy(
      () => upstream!,
      () => false,
    );
    try {
      // Prism joins the upstream's path (/rest) with each request's path, so the target's base URL has none.
      const upstreamUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/rest`;
      // The port freePort found may be taken before Prism binds it (prove's servers start by the hundred
      // beside this file): a Prism that exits before listening is started again on another port.
      for (let attempt = 1; ; attempt++) {
        try {
          return { prism: await startPrism(upstreamUrl), relay };
        } catch (err) {
          if (attempt >= 3 || !/^Prism exited/.test((err as Error).message)) throw err;
        }
      }
    } catch (err) {
      relay.close();
      throw err;
    }
  })();
  return shared;
}

afterAll(async () => {
  const started = await shared?.catch(() => undefined);
  if (!started) return;
  await stopPrism(started.prism.child);
  await new Promise((resolve) => started.relay.close(resolve));
});

/**
 * Runs `cms-conformance run ARGS` against the reference server through the recorder and Prism;
 * skips the test with the reason where Prism cannot start.
 */
async function throughPrism(ctx: TestContext, options: ReferenceServerOptions, args: string[]): Promise<Passage> {
  const server: ReferenceServer = await startReferenceServer({ ...options, authToken: randomBytes(12).toString('hex') });
  upstream = server;
  let recorder: Awaited<ReturnType<typeof startRecorder>> | undefined;
  try {
    let prism: Awaited<ReturnType<typeof startPrism>>;
    try {
      ({ prism } = await sharedPrism());
    } catch (err) {
      // Said on stderr too: a skip's reason is not in the default reporter's output, and CI should show it.
      console.error(`prism.test: Prism cannot start, its tests skip: ${(err as Error).message}`);
      return ctx.skip(`Prism cannot start: ${(err as Error).message}`);
    }
    const logStart = prism.output().length;
    recorder = await startRecorder(prism.url);
    const targetFile = join(mkdtempSync(join(dir, 'run-')), 'target.json');
    writeFileSync(targetFile, JSON.stringify({ ...server.target, baseUrl: recorder.url }));
    const out = join(targetFile, '..', 'out');
    const run = await cli('run', '--target', targetFile, '--out', out, ...args);
    const resultsFile = join(out, 'results.json');
    const results = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Results) : undefined;
    return { seen: recorder.seen, run, results, prismLog: prism.output().slice(logStart) };
  } finally {
    await new Promise((resolve) => (recorder ? recorder.server.close(resolve) : resolve(undefined)));
    await server.close();
  }
}

/** Prism's response violations, each with the exchange it was found in. */
const responseViolations = (seen: Seen[]) =>
  seen.flatMap((s) =>
    s.violations.filter((v) => v.location[0] === 'response').map((v) => ({ exchange: `${s.method} ${s.path} ${s.status}`, ...v })),
  );

/**
 * Checks that Prism judged what it was sent: every request was routed to an operation of the export
 * (an unrouted one is forwarded unjudged) and reached the server (Prism answers a malformed JSON body
 * itself, unjudged, so only those may come back without the envelope).
 */
function expectJudged(seen: Seen[]): void {
  expect(seen.filter((s) => s.violations.some((v) => /route not found/i.test(v.message))).map((s) => `${s.method} ${s.path}`)).toEqual([]);
  expect(seen.filter((s) => !s.envelope && !s.malformedJson).map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([]);
}

describe('Prism fed the OpenAPI export', () => {
  it('reports no response violation on the clean reference server, successes and refusals alike', async (ctx) => {
    const { seen, run, results, prismLog } = await throughPrism(ctx, {}, ['--only', 'OP,ENV,NEG-03', '--runs', '3']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(results?.summary.failed).toBe(0);
    expect(seen.length).toBeGreaterThan(300);
    expectJudged(seen);
    const judged = seen.filter((s) => s.envelope);
    const success = judged.filter((s) => s.status < 300 && s.responseCode === 'OK');
    const refused = judged.filter((s) => s.status >= 400);
    for (const method of ['GET', 'POST']) {
      expect(success.filter((s) => s.method === method).length, `${method} successes`).toBeGreaterThan(10);
      expect(refused.filter((s) => s.method === method).length, `${method} refusals`).toBeGreaterThan(10);
    }
    expect(responseViolations(seen), prismLog.slice(-3000)).toEqual([]);
    // Request violations come only from the suite's bad-input probes (`nodeId=abc`, a global id for an
    // (int) path id, a `null` or string body, a body with a member the contract does not name); no other JSON, multipart or raw body, content type or credential of the run is refused.
    const requestViolations = seen
      .filter((s) => !s.probeJson)
      .flatMap((s) => s.violations.filter((v) => v.location[0] === 'request').map((v) => ({ exchange: `${s.method} ${s.path}`, ...v })));
    expect(requestViolations.filter((v) => !['query', 'path'].includes(v.location[1] ?? ''))).toEqual([]);
  });

  it('reports a planted shape fault, and only it, where refusals come as 200 with a non-OK responseCode', async (ctx) => {
    const options = { refusalStyle: 'body', faults: ['shape-folder-load-response'] } satisfies ReferenceServerOptions;
    const { seen, run } = await throughPrism(ctx, options, ['--only', 'NEG-03,OP-folder.load', '--runs', '1']);
    expect(run.code, 'the run itself finds the fault').toBe(1);
    expectJudged(seen);
    const refusedIn200 = seen.filter((s) => s.status === 200 && s.responseCode !== undefined && s.responseCode !== 'OK');
    expect(refusedIn200.filter((s) => s.method === 'GET').length).toBeGreaterThan(10);
    expect(refusedIn200.filter((s) => s.method === 'POST').length).toBeGreaterThan(10);
    expect(responseViolations(refusedIn200)).toEqual([]);
    const found = responseViolations(seen);
    expect(found.length).toBeGreaterThan(0);
    // The fault misshapes FolderLoadResponse, the answer of folder.load and of folder.create.
    expect(found.filter((v) => !/^(GET \/folder\/load\/\S+ 200|POST \/folder\/create 201)$/.test(v.exchange))).toEqual([]);
    expect(found.map((v) => v.location.join('.'))).toContain('response.body.stagingStatus');
  });
});
