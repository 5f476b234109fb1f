/** The `serve` command as a user runs it: a child process, its output line, its target file, its signals. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { httpFaults } from '../../server/faults-http.ts';
import type { Target } from '../../schemas/target.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(repo, 'bin/cms-conformance.mjs');
const dir = mkdtempSync(join(tmpdir(), 'cms-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { cwd: repo, encoding: 'utf8', timeout: 30_000 });
}

/** Starts `serve` with the arguments, resolves with the child and the base URL of its one output line. */
async function serve(...args: string[]) {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before listening`)));
  });
  const baseUrl = /^cms-conformance reference server listening on (http:\/\/127\.0\.0\.1:\d+\/rest)$/.exec(first)?.[1];
  return { child, exited, first, baseUrl };
}

describe('cms-conformance serve', () => {
  it('prints the base URL, writes the target file, serves it and exits 0 on SIGTERM', async () => {
    const targetFile = join(dir, 'target.json');
    const { child, exited, first, baseUrl } = await serve('--write-target', targetFile);
    try {
      expect(baseUrl, first).toBeDefined();
      const target = JSON.parse(readFileSync(targetFile, 'utf8')) as Target;
      expect(target).toMatchObject({ baseUrl, auth: { query: {}, headers: {} } });
      expect(target.features).toEqual(['multichannelling', 'wastebin', 'pages', 'templates', 'sourceUrl', 'disposable']);
      for (const key of [
        'masterNodeId',
        'masterRootFolderId',
        'channelNodeId',
        'channelRootFolderId',
        'sandboxParentFolderId',
        'pagesFolderId',
        'templatesFolderId',
      ]) {
        expect(Number.isInteger(target.fixture[key as keyof Target['fixture']]), key).toBe(true);
      }
      const res = await fetch(`${baseUrl}/folder/load/${target.fixture.masterRootFolderId}`, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ responseInfo: { responseCode: 'OK' } });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('requires the token given by --auth-token and declares the auth feature', async () => {
    const targetFile = join(dir, 'auth-target.json');
    const { child, exited, baseUrl } = await serve('--auth-token', 'tok123', '--refusal-style', 'body', '--write-target', targetFile);
    try {
      const target = JSON.parse(readFileSync(targetFile, 'utf8')) as Target;
      expect(target.auth.query).toEqual({ sid: 'tok123' });
      expect(target.features).toContain('auth');
      const path = `${baseUrl}/folder/load/${target.fixture.masterRootFolderId}`;
      expect((await fetch(path)).status).toBe(401);
      expect((await fetch(`${path}?sid=tok123`)).status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it('lists the planted faults as name, requirement ids and description separated by tabs', () => {
    const res = cli('serve', '--list-faults');
    expect(res.status).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^[a-z0-9-]+\t[A-Z]+-[\w.-]+(,[A-Z]+-[\w.-]+)*\t\S.*$/);
    const names = lines.map((l) => l.split('\t')[0]);
    for (const fault of httpFaults) expect(names).toContain(fault.name);
  });

  it.each([
    ['an unknown fault', ['--fault', 'no-such-fault'], /unknown fault "no-such-fault" \(known: /],
    ['a port out of range', ['--port', '70000'], /--port must be at most 65535/],
    ['a port that is not a number', ['--port', 'http'], /--port must be an integer/],
    ['an unknown refusal style', ['--refusal-style', 'loud'], /--refusal-style must be status or body/],
    ['an unreadable fixture', ['--fixture', join(dir, 'missing.json')], /cannot read fixture .*missing\.json/],
    ['a varied fixture without a seed', ['--fixture', 'varied:seven'], /--fixture varied:seven: the seed after "varied:" must be a number/],
    ['an unknown option', ['--colour'], /colour/],
  ])('exits 2 with one line for %s', (_what, args, message) => {
    const res = cli('serve', ...args);
    expect(res.status).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(message);
  });
});
