/**
 * `cms-conformance proxy` end to end, as a child process: in front of a server with planted faults it
 * prints each contract break live with its requirement id and, after SIGTERM, writes the reports and
 * the HAR and exits 1; in front of a clean server, realistic traffic gives no error finding, exit 0,
 * and the credentials appear in no file it wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FormData, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { Results } from '../../schemas/results.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { bin, cli } from '../support/cli.ts';

/** A proxy child process: its URL once it listens, what it printed so far, and its exit. */
interface ProxyChild {
  url: string;
  output: () => string;
  /** Resolves once the output matches. */
  printed: (pattern: RegExp) => Promise<void>;
  stop: () => Promise<number | null>;
}

const children: ChildProcess[] = [];
const servers: ReferenceServer[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const s of servers.splice(0)) await s.close();
});

async function startChild(args: string[]): Promise<ProxyChild> {
  const child = spawn(process.execPath, [bin, 'proxy', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const listeners: (() => void)[] = [];
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const l of [...listeners]) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const printed = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(out)) resolve();
        else if (child.exitCode !== null) reject(new Error(`the proxy exited (${child.exitCode}) before printing ${pattern}:\n${out}`));
      };
      listeners.push(check);
      void exited.then(check);
      check();
    });
  await printed(/listening on http:\/\/\S+,/);
  const url = /listening on (http:\/\/\S+),/.exec(out)![1]!;
  return {
    url,
    output: () => out,
    printed,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function get(url: string): Promise<number> {
  const res = await request(url);
  // Read whole, as a client does: dump() drops a connection whose answer is over 128 KiB (a recursive
  // getFiles with the wastebin is over it) at once, and the proxy then saw, when the machine was busy,
  // a client that left before the answer was complete: an exchange without an answer (now and then in
  // runs of npm test: BENCHMARKS.md).
  await res.body.arrayBuffer();
  return res.statusCode;
}

describe('cms-conformance proxy', () => {
  it('reports the contract breaks of a faulty server live with their requirement ids, then writes the reports and exits 1', async () => {
    const server = await startReferenceServer({ faults: ['paging-numitems-after-slice', 'shape-folder-load-response'] });
    servers.push(server);
    const dir = mkdtempSync(join(tmpdir(), 'cms-proxy-'));
    const har = join(dir, 'traffic.har');
    const proxy = await startChild(['--upstream', server.baseUrl, '--out', join(dir, 'out'), '--har', har]);
    const root = server.target.fixture.masterRootFolderId;
    expect(await get(`${proxy.url}/rest/folder/getFiles/${root}?recursive=true&maxItems=2`)).toBe(200);
    expect(await get(`${proxy.url}/rest/folder/load/${root}`)).toBe(200);
    await proxy.printed(/error OP-folder\.load schema/);
    await proxy.printed(/error PAG-05 hasMoreItems/);
    // Each finding is printed with the exchange that showed it.
    expect(proxy.output()).toMatch(
      new RegExp(
        `error PAG-05 hasMoreItems: folder\\.getFiles: hasMoreItems is true, but with numItems 2 .*\\n    GET http://\\S+/rest/folder/getFiles/${root}\\?recursive=true&maxItems=2 -> 200`,
      ),
    );

    expect(await proxy.stop()).toBe(1);
    const out = proxy.output();
    expect(out).toMatch(/VERDICT: the target does not conform/);
    for (const file of ['results.json', 'junit.xml', 'report.html', 'summary.md'])
      expect(existsSync(join(dir, 'out', file)), file).toBe(true);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as Results;
    const byId = Object.fromEntries(results.tests.map((t) => [t.id, t]));
    expect(byId['PAG-05 observed traffic']).toMatchObject({
      status: 'failed',
      requirement: 'PAG-05',
      findings: [expect.objectContaining({ check: 'hasMoreItems', severity: 'error' })],
    });
    expect(byId['OP-folder.load observed traffic']).toMatchObject({
      status: 'failed',
      operation: 'folder.load',
      requests: 1,
      answers: 1,
      validated: 1,
    });
    expect(byId['OP-folder.getFiles observed traffic']).toMatchObject({ status: 'passed' });
    expect(byId['OP-folder.getFiles observed traffic']!.findings.filter((f) => f.severity === 'error')).toEqual([]);
    // No test id carries a generated value: they repeat run after run.
    expect(results.tests.map((t) => t.id)).toEqual(
      expect.arrayContaining([
        'OP-folder.getFiles observed traffic',
        'PAG-07 observed traffic',
        'SRT-01 observed traffic',
        'WST-01 observed traffic',
      ]),
    );

    // The HAR holds both exchanges, and validate --har finds in it what the proxy found, in the same words.
    const log = (JSON.parse(readFileSync(har, 'utf8')) as { log: { version: string; entries: unknown[] } }).log;
    expect([log.version, log.entries.length]).toEqual(['1.2', 2]);
    const validated = await cli('validate', '--har', har);
    expect(validated.code).toBe(1);
    const lines = (text: string) =>
      text
        .split('\n')
        .filter((l) => /^\s*error /.test(l))
        .map((l) => l.trim())
        .sort();
    expect(lines(validated.stdout)).toEqual(lines(out.slice(0, out.indexOf('SIGTERM'))));
  });

  it('finds nothing wrong with realistic traffic to a clean server, exits 0, and leaves the credentials out of every file', async () => {
    const token = 'proxy-test-token-5b1f9c2e';
    const server = await startReferenceServer({ authToken: token });
    servers.push(server);
    const dir = mkdtempSync(join(tmpdir(), 'cms-proxy-'));
    const targetFile = join(dir, 'target.json');
    writeFileSync(targetFile, JSON.stringify(server.target));
    const har = join(dir, 'traffic.har');
    const proxy = await startChild(['--upstream', server.baseUrl, '--target', targetFile, '--out', join(dir, 'out'), '--har', har]);
    const f = server.target.fixture;
    const base = `${proxy.url}/rest`;
    const sid = `sid=${token}`;
    const statuses: number[] = [];
    for (const path of [
      `/folder/load/${f.masterRootFolderId}?${sid}`,
      `/folder/getFolders/${f.masterRootFolderId}?${sid}`,
      `/folder/getFolders/${f.masterRootFolderId}?recursive=true&sortby=edate&sortorder=desc&${sid}`,
      `/folder/getFiles/${f.masterRootFolderId}?recursive=true&skipCount=1&maxItems=3&${sid}`,
      `/folder/getFiles/${f.masterRootFolderId}?recursive=true&wastebin=only&${sid}`,
      `/folder/getFiles/${f.masterRootFolderId}?recursive=true&wastebin=include&sortby=deletedat&${sid}`,
      `/folder/getFiles/${f.masterRootFolderId}?recursive=true&online=true&search=a&${sid}`,
      `/file?folderId=${f.masterRootFolderId}&recursive=true&page=2&pageSize=2&sort=-fileSize,name&${sid}`,
      `/file?folderId=${f.masterRootFolderId}&recursive=true&q=report&${sid}`,
      `/folder?folderId=${f.masterRootFolderId}&pageSize=0&${sid}`,
      `/folder/getPages/${f.pagesFolderId}?recursive=true&sortby=priority&online=false&${sid}`,
      `/folder/getTemplates/${f.templatesFolderId}?maxItems=1&${sid}`,
      `/folder/findFiles?query=a&maxItems=2&${sid}`,
      `/folder/findPages?folderId=${f.pagesFolderId}&query=e&${sid}`,
      `/folder/getFiles/${f.masterRootFolderId}?nodeId=${f.channelNodeId}&inherited=true&${sid}`,
      `/folder/count/${f.masterRootFolderId}?${sid}`,
      `/folder/load/99999?${sid}`,
    ]) {
      statuses.push(await get(`${base}${path}`));
    }
    const created = await request(`${base}/folder/create?${sid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ motherId: String(f.sandboxParentFolderId), name: 'proxied' }),
    });
    statuses.push(created.statusCode);
    const folder = ((await created.body.json()) as { folder: { id: number } }).folder.id;
    const form = new FormData();
    form.append('folderId', String(folder));
    form.append('fileName', 'notes.txt');
    form.append('fileBinaryData', new Blob(['some notes\n'], { type: 'text/plain' }), 'notes.txt');
    const upload = await request(`${base}/file/create`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    statuses.push(upload.statusCode);
    await upload.body.dump();
    const raw = await request(`${base}/file/createSimple?folderId=${folder}&qqfile=data.bin&${sid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(4096, 1),
    });
    statuses.push(raw.statusCode);
    await raw.body.dump();
    statuses.push(await get(`${base}/folder/getFiles/${folder}?sortby=name&${sid}`));
    const deleted = await request(`${base}/folder/delete/${folder}?${sid}`, { method: 'POST' });
    statuses.push(deleted.statusCode);
    await deleted.body.dump();
    statuses.push(await get(`${base}/folder/getFolders/${f.sandboxParentFolderId}?wastebin=include&${sid}`));
    expect(statuses).toEqual([...Array(16).fill(200), 404, 201, 201, 201, 200, 201, 200]);

    expect(await proxy.stop()).toBe(0);
    const out = proxy.output();
    expect(out).not.toMatch(/^error /m);
    expect(out).toMatch(/VERDICT: the target conforms/);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as Results;
    expect(results.tests.flatMap((t) => t.findings).filter((f) => f.severity === 'error')).toEqual([]);
    expect(results.summary).toMatchObject({ failed: 0, answers: 23 });
    expect(results.tests.map((t) => t.requirement)).toEqual(
      expect.arrayContaining([
        'OP-file.create.multipart',
        'OP-file.createSimple.raw',
        'PAG-02',
        'PAG-03',
        'PAG-05',
        'PAG-07',
        'PAG-08',
        'SRT-01',
        'SRT-03',
        'SRT-04',
        'SRT-05',
        'WST-01',
        'WST-02',
        'WST-03',
        'FLT-01',
        'FLT-02',
        'FLT-05',
        'FLT-07',
        'FLT-09',
        'FLT-10',
      ]),
    );
    for (const file of ['results.json', 'junit.xml', 'report.html', 'summary.md'])
      expect(readFileSync(join(dir, 'out', file), 'utf8')).not.toContain(token);
    const harText = readFileSync(har, 'utf8');
    expect(harText).not.toContain(token);
    expect(harText).toContain('<redacted>');
    expect((JSON.parse(harText) as { log: { entries: unknown[] } }).log.entries).toHaveLength(23);
  });

  it('refuses to start without an upstream, with one line and exit 2', async () => {
    const r = await cli('proxy', '--port', '0');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('cms-conformance: --upstream URL is required (the server to forward to)');
  });
});
