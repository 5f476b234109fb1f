/** `cms-conformance run` against a served target file: interruption, credentials. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PREFIX } from '../../harness/sandbox.ts';
import { Transport } from '../../harness/transport.ts';
import type { Results } from '../../schemas/results.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { startProxy } from '../support/proxy.ts';

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
 * or (`group`) to its whole process group, as a terminal's Ctrl-C does. `started` gets the child at once,
 * for a test that signals it from elsewhere (a relay that sees a request go by).
 */
function runCli(
  args: string[],
  signalWhen?: { pattern: RegExp; signal: NodeJS.Signals; group?: boolean },
  started?: (child: ChildProcess) => void,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'run', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: signalWhen?.group ?? false,
    });
    started?.(child);
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
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The reports of an interrupted run: written, each saying it was interrupted, with only tests that ended. */
function expectInterruptedReports(out: string, signal: NodeJS.Signals): Results {
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
  expect(results.interrupted?.signal).toBe(signal);
  expect(results.tests.every((t) => t.status === 'passed' || t.status === 'failed')).toBe(true);
  expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(`INTERRUPTED by ${signal}`);
  expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(`INTERRUPTED by ${signal}`);
  expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testcase classname="run" name="run interrupted"[^]*type="interrupted"/);
  return results;
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
  it('says in --dry-run which fixture objects it reads, and that it changes some only on a target declaring disposable', async () => {
    server = await startReferenceServer({ port: 0 });
    const kept = { ...server.target, features: server.target.features.filter((f) => f !== 'disposable') };
    writeFileSync(join(dir, 'kept.json'), JSON.stringify(kept));
    const dry = (file: string) => runCli(['--target', file, '--dry-run', '--out', join(dir, 'dry')]);
    const never = await dry(join(dir, 'kept.json'));
    expect(never.code).toBe(0);
    expect(never.output).toMatch(/fixture objects it reads, never changes: masterNodeId \d+, .*usedFileUsers \{"files":\[\d+/);
    expect(never.output).toMatch(/\d+ would be skipped: the target does not declare "disposable"/);
    const may = await dry(targetFileOf(server, 'disposable.json'));
    expect(may.output).toMatch(
      /\d+ tests of suites\/disposable\/ change some \(the target declares "disposable"\), after every other test/,
    );
    expect(may.output).toMatch(/mutates only inside it \(but for those tests\)/);
    expect(may.output).not.toContain('would be skipped: the target does not declare "disposable"');
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('removes its sandbox and reports the tests that ended when stopped by %s', async (signal) => {
    server = await startReferenceServer({ port: 0 });
    const out = join(dir, signal);
    const r = await runCli(['--target', targetFileOf(server, `${signal}.json`), '--only', 'OP', '--out', out], {
      pattern: /✓ OP-/,
      signal,
    });
    expect(r.code).toBe(signal === 'SIGINT' ? 130 : 143);
    expect(r.output).toMatch(new RegExp(`${signal}: stopping; writing the reports`));
    expect(r.output).toMatch(/the sandbox cmsconf-\S+ is removed/);
    expect(r.output).toMatch(new RegExp(`VERDICT: none: the run was interrupted by ${signal} after \\d+ tests`));
    expect(expectInterruptedReports(out, signal).tests.length).toBeGreaterThan(0);
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
    expect(r.output).toMatch(/SIGINT: stopping; writing the reports/);
    expect(await sandboxes(server)).toEqual([]);
  });

  // The CLI started again in a group of its own (bin/cms-conformance.mjs) outlives the process started, if that one is
  // killed outright and so cannot hand a signal on: it notices that process gone and stops as on SIGTERM.
  it('stops and removes its sandbox when the process started is killed outright (SIGKILL)', async () => {
    server = await startReferenceServer({ port: 0 });
    const out = join(dir, 'killed');
    const r = await runCli(['--target', targetFileOf(server, 'killed.json'), '--only', 'OP', '--out', out], {
      pattern: /✓ OP-/,
      signal: 'SIGKILL',
    });
    // The output pipes close once the run started again has ended too: it reported the stop before.
    expect(r.output).toMatch(/SIGTERM: stopping; writing the reports/);
    expect(expectInterruptedReports(out, 'SIGTERM').tests.length).toBeGreaterThan(0);
    expect(await sandboxes(server)).toEqual([]);
  });

  // A target that never answers a read: a signal abandons it at once, where it would otherwise be waited for up to
  // --timeout (here a minute, past the 30 s a stopping run waits), and the run ends with its reports, marked
  // interrupted, and nothing on the target. The session's check that the target answers (a folder/load of a fixture
  // folder) comes before the sandbox is made, so nothing is made; the sizing's reads (a live target is sized by
  // default) come after, and the sandbox is removed.
  it.each([
    ['the check that the target answers', false],
    ['the sizing', true],
  ])('abandons %s when stopped, with nothing left on a target that does not answer it', async (_, afterSandbox) => {
    const upstream = await startReferenceServer({ port: 0 });
    server = upstream;
    let child: ChildProcess | undefined;
    let made = false;
    const relay = await startProxy(upstream, (req) => {
      if (req.method === 'POST' && req.url?.includes('/folder/create')) made = true;
      if (made !== afterSandbox || req.method !== 'GET' || !req.url?.includes('/folder/load/')) return false;
      child?.kill('SIGTERM');
      return true; // never answered
    });
    const out = join(dir, afterSandbox ? 'sizing' : 'check');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'results.json'), '{"an earlier run": true}');
    try {
      const r = await runCli(['--target', relay.targetFile, '--timeout', '60000', '--out', out], undefined, (c) => (child = c));
      expect(r.code).toBe(143);
      // A read waited for would outlast the stop limit, and the run would end saying what "may be left".
      expect(r.output).not.toMatch(/--concurrency auto:|no end after|may be left/);
      if (!afterSandbox) expect(r.output).toMatch(/stopped before the sandbox was made: nothing is left on the target/);
      expect(made).toBe(afterSandbox);
      expect(expectInterruptedReports(out, 'SIGTERM').tests).toEqual([]);
      expect(await sandboxes(upstream)).toEqual([]);
    } finally {
      relay.server.close();
    }
  });

  // Against a target that takes its time, a signal while the sandbox is being made: the run waits for the
  // folder, removes it, and replaces the earlier run's reports with its own (no test, interrupted).
  it('removes a sandbox a signal caught being made on a slow target, and leaves no earlier report', async () => {
    const upstream = await startReferenceServer({ port: 0 });
    server = upstream;
    let child: ChildProcess | undefined;
    const relay = await startProxy(
      upstream,
      (req) => {
        if (req.method === 'POST' && req.url?.includes('/folder/create')) child?.kill('SIGTERM');
        return false;
      },
      300,
    );
    const out = join(dir, 'creating');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'results.json'), '{"an earlier run": true}');
    try {
      const r = await runCli(['--target', relay.targetFile, '--out', out], undefined, (c) => (child = c));
      expect(r.code).toBe(143);
      expect(expectInterruptedReports(out, 'SIGTERM').tests).toEqual([]);
      expect(await sandboxes(upstream)).toEqual([]);
    } finally {
      relay.server.close();
    }
  });

  // A sandbox whose removal the target never answers: a second signal ends the wait at once, and the
  // run names the sandbox and the command that removes it, which then does.
  it('stops waiting at a second signal, naming the sandbox left and the clean command that removes it', async () => {
    const upstream = await startReferenceServer({ port: 0 });
    server = upstream;
    let child: ChildProcess | undefined;
    let stopping = false;
    const relay = await startProxy(upstream, (req) => {
      if (!stopping || !req.url?.includes('/folder/delete/')) return false;
      child?.kill('SIGINT');
      return true; // never answered
    });
    try {
      const r = await runCli(['--target', relay.targetFile, '--only', 'OP', '--out', join(dir, 'second')], undefined, (c) => {
        child = c;
        c.stdout!.on('data', (chunk: Buffer) => {
          if (stopping || !/✓ OP-/.test(chunk.toString())) return;
          stopping = true;
          c.kill('SIGINT');
        });
      });
      expect(r.code).toBe(130);
      const clean = /`cms-conformance clean --target (\S+) --name (cmsconf-\S+)` removes it/.exec(r.output);
      expect(r.output).toMatch(/a second SIGINT: stopped waiting; the sandbox cmsconf-\S+ may be left on the target/);
      expect(clean).not.toBeNull();
      const [left] = await sandboxes(upstream);
      expect(left).toBe(clean![2]);
      // The named leftover goes whatever its age (it is seconds old; without --name, clean waits an hour).
      // Not spawnSync: the target is served by this very process, which must go on answering.
      const cleaned = await new Promise<string>((resolve) => {
        const c = spawn(process.execPath, [bin, 'clean', '--target', targetFileOf(upstream, 'direct.json'), '--name', left!]);
        let text = '';
        c.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        c.on('close', () => resolve(text));
      });
      expect(cleaned).toMatch(new RegExp(`removed \\d+ ${left}`));
      expect(await sandboxes(upstream)).toEqual([]);
    } finally {
      relay.server.close();
    }
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
    // A live target without --concurrency is sized, and the run says how to go back to one request at a time.
    expect(r.output).toMatch(
      /--concurrency auto: 1 in flight [^]*, so \d suite file\(s\) side by side[^]*; --concurrency 1 for a fragile server/,
    );
    for (const report of ['results.json', 'junit.xml', 'report.html', 'summary.md'])
      expect(readFileSync(join(out, report), 'utf8')).not.toContain('T0K3N-s3cr3t');
    expect(r.output).not.toContain('T0K3N-s3cr3t');
    expect(await sandboxes(server)).toEqual([]);
  });

  it.each(['status', 'body'] as const)(
    'says that the target refused its credentials when they are wrong (refusals as %s), and shows none of them',
    async (refusalStyle) => {
      server = await startReferenceServer({ port: 0, authToken: 'T0K3N-s3cr3t', refusalStyle });
      const file = join(dir, `wrong-${refusalStyle}.json`);
      writeFileSync(file, JSON.stringify({ ...server.target, auth: { query: { sid: 'wr0ng-T0K3N' }, headers: {} } }));
      const r = await runCli(['--target', file, '--only', 'OP-folder.load', '--out', join(dir, `wrong-${refusalStyle}`)]);
      expect(r.code).toBe(2);
      expect(r.output).toMatch(
        /cannot create the sandbox .*AUTHREQUIRED.*; the target refused the run's credentials or rights: check `auth`/,
      );
      expect(r.output).not.toMatch(/T0K3N/);
    },
  );
});
