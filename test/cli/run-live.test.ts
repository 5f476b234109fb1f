/** `cms-conformance run` against a served target file: interruption, credentials. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PREFIX } from '../../harness/sandbox.ts';
import { Transport } from '../../harness/transport.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';

// Each test runs the whole CLI (and suites) in a child process: minutes, not seconds, on a busy machine.
vi.setConfig({ testTimeout: 300_000 });

const bin = new URL('../../bin/cms-conformance.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'cms-live-'));
let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function targetFileOf(s: ReferenceServer, name: string): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(s.target));
  return file;
}

/**
 * Runs the CLI, optionally sending a signal once a line of its output matches: to the CLI's process,
 * or (`group`) to its whole process group, as a terminal's Ctrl-C does.
 */
function runCli(
  args: string[],
  signalWhen?: { pattern: RegExp; signal: NodeJS.Signals; group?: boolean },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'run', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: signalWhen?.group ?? false,
    });
    let output = '';
    let sent = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (signalWhen && !sent && signalWhen.pattern.test(output)) {
        sent = true;
        if (signalWhen.group) process.kill(-child.pid!, signalWhen.signal);
        else child.kill(signalWhen.signal);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function sandboxes(s: ReferenceServer): Promise<string[]> {
  const transport = new Transport(s.target);
  const ex = await transport.send({ method: 'GET', path: `/folder/getFolders/${s.target.fixture.sandboxParentFolderId}` });
  await transport.close();
  return ((ex.response?.json as { folders?: { name?: string }[] }).folders ?? [])
    .map((f) => f.name ?? '')
    .filter((n) => n.startsWith(SANDBOX_PREFIX));
}

describe('run against a served target', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('removes its sandbox when stopped by %s', async (signal) => {
    server = await startReferenceServer({ port: 0 });
    const r = await runCli(['--target', targetFileOf(server, `${signal}.json`), '--only', 'OP', '--out', join(dir, signal)], {
      pattern: /✓ OP-/,
      signal,
    });
    expect(r.code).toBe(signal === 'SIGINT' ? 130 : 143);
    expect(r.output).toMatch(new RegExp(`${signal}: removing the sandbox and stopping`));
    expect(await sandboxes(server)).toEqual([]);
  });

  // A terminal's Ctrl-C signals the whole group. The CLI may start itself again (bin/cms-conformance.mjs)
  // in a group of its own: the process started hands the signal on, and the run still stops cleanly.
  it('removes its sandbox when its whole process group gets SIGINT, as from a terminal', async () => {
    server = await startReferenceServer({ port: 0 });
    const r = await runCli(['--target', targetFileOf(server, 'group.json'), '--only', 'OP', '--out', join(dir, 'group')], {
      pattern: /✓ OP-/,
      signal: 'SIGINT',
      group: true,
    });
    expect(r.code).toBe(130);
    expect(r.output).toMatch(/SIGINT: removing the sandbox and stopping/);
    expect(await sandboxes(server)).toEqual([]);
  });

  it('sends the target file credentials to a server that requires them, and keeps them out of every report', async () => {
    server = await startReferenceServer({ port: 0, authToken: 'T0K3N-s3cr3t' });
    expect(server.target.features).toContain('auth');
    const out = join(dir, 'auth');
    const r = await runCli([
      '--target',
      targetFileOf(server, 'auth.json'),
      '--only',
      'OP-folder.load,OP-folder.create',
      '--out',
      out,
      '--seed',
      '2',
    ]);
    expect(r.output).toMatch(/2 passed, 0 failed/);
    expect(r.code).toBe(0);
    for (const report of ['results.json', 'junit.xml', 'report.html', 'summary.md'])
      expect(readFileSync(join(out, report), 'utf8')).not.toContain('T0K3N-s3cr3t');
    expect(r.output).not.toContain('T0K3N-s3cr3t');
    expect(await sandboxes(server)).toEqual([]);
  });
});
