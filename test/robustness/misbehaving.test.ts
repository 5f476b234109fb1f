/**
 * The suite against deliberately misbehaving servers: a proxy in front of the reference server that
 * breaks chosen answers at the HTTP level. Every misbehaviour must become a finding with its exchange,
 * never a crash, a hang or a stack trace; a target that dies mid-run still gets its reports, exit 1.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Results } from '../../schemas/results.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { startProxy } from '../support/proxy.ts';

// Each test runs the whole CLI (and suites) in a child process: minutes, not seconds, on a busy machine.
vi.setConfig({ testTimeout: 300_000 });

const exec = promisify(execFile);
const bin = new URL('../../bin/cms-conformance.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'cms-misbehave-'));

async function run(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, 'run', ...args], { maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

let upstream: ReferenceServer;
const servers: Server[] = [];
beforeAll(async () => {
  upstream = await startReferenceServer({ port: 0 });
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await upstream.close();
});

describe('misbehaving targets', () => {
  it('turns non-JSON bodies, wrong content types, truncated and reset answers, hangs and huge bodies into findings', async () => {
    const broken: Record<string, (res: ServerResponse, req: IncomingMessage) => void> = {
      // JSON claimed, not sent.
      '/rest/folder/getFiles/': (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"messages": [], "responseInfo": ');
      },
      // The right body under the wrong content type.
      '/rest/folder/getTemplates/': (res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('{"messages":[],"responseInfo":{"responseCode":"OK"},"templates":[]}');
      },
      // A body cut short: the promised length never arrives.
      '/rest/folder/count/': (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        res.write('{"messages":[],');
        setTimeout(() => res.destroy(), 20);
      },
      '/rest/folder/breadcrumb/': (_res, req) => req.socket.destroy(),
      // Never answers: the per-request timeout must end it.
      '/rest/folder/getItems/': () => undefined,
      '/rest/folder/getExternalLinks/': (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"pages": [${'"x",'.repeat(3_000_000)}"x"]}`);
      },
    };
    const { server, targetFile } = await startProxy(upstream, (req, res) => {
      const entry = Object.entries(broken).find(([prefix]) => req.url?.startsWith(prefix));
      if (!entry) return false;
      entry[1](res, req);
      return true;
    });
    servers.push(server);
    const out = join(dir, 'misbehaving');
    const ids = ['getFiles', 'getTemplates', 'count', 'breadcrumb', 'getItems', 'getExternalLinks'].map((op) => `OP-folder.${op}`);
    const r = await run('--target', targetFile, '--only', ids.join(','), '--runs', '3', '--timeout', '1500', '--out', out, '--seed', '5');
    expect(r.code).toBe(1);
    expect(r.output).not.toMatch(/\n\s+at .*\.(ts|js):\d+/);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    const checks = Object.fromEntries(
      results.tests.map((t) => [t.requirement, t.findings.filter((f) => f.severity === 'error').map((f) => f.check)]),
    );
    expect(checks).toEqual({
      'OP-folder.getFiles': ['json'],
      'OP-folder.getTemplates': ['contentType'],
      'OP-folder.count': [expect.stringMatching(/^(transport|json)$/)],
      'OP-folder.breadcrumb': ['transport'],
      'OP-folder.getItems': ['transport'],
      // 12 MB, over the default answer size cap: not judged, a warning, never a failure (--max-body raises the cap).
      'OP-folder.getExternalLinks': [],
    });
    const big = results.tests.find((t) => t.requirement === 'OP-folder.getExternalLinks')!;
    expect(big.findings.filter((f) => f.check === 'bodySize').map((f) => [f.severity, f.message])).toEqual([
      ['warning', expect.stringMatching(/not judged: the answer is larger than the run's answer size cap \(--max-body\)/)],
    ]);
    const hung = results.tests.find((t) => t.requirement === 'OP-folder.getItems')!.findings[0]!;
    expect(hung.message).toMatch(/timed out/);
    expect(hung.curl).toMatch(/\/folder\/getItems\//);
  });

  it('fails the remaining tests fast when the target dies mid-run, and still writes the reports', async () => {
    let served = 0;
    const sockets = new Set<import('node:net').Socket>();
    const holder: { server?: Server } = {};
    const { server, targetFile } = await startProxy(upstream, () => {
      // After enough requests for setup and a few tests, the target goes away for good.
      if (++served === 80) {
        holder.server!.close();
        for (const s of sockets) s.destroy();
      }
      return false;
    });
    holder.server = server;
    server.on('connection', (s) => sockets.add(s));
    const out = join(dir, 'dies');
    const r = await run('--target', targetFile, '--only', 'OP-folder', '--runs', '5', '--timeout', '3000', '--out', out, '--seed', '9');
    expect(r.code).toBe(1);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(results.tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(0);
    const unreachable = results.tests.filter((t) => t.status === 'failed' && t.findings.some((f) => /target unreachable/.test(f.message)));
    expect(unreachable.length).toBeGreaterThan(3);
    expect(r.output).toMatch(
      /could not remove the sandbox cmsconf-\S+ \(folder \d+\); `cms-conformance clean --target \S+ --name cmsconf-/,
    );
    for (const report of ['junit.xml', 'report.html', 'summary.md'])
      expect(readFileSync(join(out, report), 'utf8').length).toBeGreaterThan(100);
  });
});
