import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { replayArgsOf, type OptionValues } from '../../cli/args.ts';
import { RUN_OPTIONS, parseRunOptions, seedOption } from '../../cli/run.ts';
import { DEFAULT_SEED } from '../../harness/config.ts';
import { runLine } from '../../harness/replay.ts';
import type { Results } from '../../schemas/results.ts';
import { cli } from '../support/cli.ts';

// Each test runs the whole CLI (and suites) in a child process: minutes, not seconds, on a busy machine.
vi.setConfig({ testTimeout: 300_000 });

const dir = mkdtempSync(join(tmpdir(), 'cms-run-'));

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function results(out: string): Results {
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
}

describe('cms-conformance run: exit codes', () => {
  it.each([
    ['an unknown option', ['--frobnicate'], /Unknown option '--frobnicate'/],
    ['an unknown requirement in --only', ['--only', 'NOPE-01'], /--only: .*NOPE-01/],
    ['an unknown fault', ['--fault', 'no-such-fault'], /unknown fault no-such-fault/],
    ['a missing target file', ['--target', join(dir, 'missing.json')], /cannot read target file .*missing.json: ENOENT/],
    [
      'a target file without a base URL',
      ['--target', (writeFileSync(join(dir, 'bad.json'), '{"fixture": {}}'), join(dir, 'bad.json'))],
      /bad\.json: \/baseUrl is missing$/m,
    ],
    ['a non-integer seed', ['--seed', 'abc'], /--seed must be an integer from 0 to 4294967295 or "random", got "abc"/],
    // fast-check's seeds are 32-bit: a larger one would replay as another run's, or print as 1e+23.
    [
      'a seed past 2^32-1',
      ['--seed', '99999999999999999999999'],
      /--seed must be an integer from 0 to 4294967295, got "99999999999999999999999"/,
    ],
    ['a negative seed', ['--seed=-1'], /--seed must be an integer from 0 to 4294967295 or "random", got "-1"/],
    ['--only that names nothing', ['--only', ','], /--only needs at least one requirement id or family/],
    ['a value starting with a dash', ['--rate', '-1'], /^cms-conformance: Option '--rate' argument is ambiguous\. .*'--rate=-XYZ'\.\n$/],
  ])('exits 2 with one clear line for %s', async (_what, args, message) => {
    const r = await cli('run', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 3 when the target does not answer', async () => {
    const port = await closedPort();
    const file = join(dir, 'unreachable.json');
    writeFileSync(
      file,
      JSON.stringify({
        baseUrl: `http://127.0.0.1:${port}/rest`,
        features: [],
        fixture: { masterNodeId: 1, masterRootFolderId: 1, sandboxParentFolderId: 1 },
      }),
    );
    const r = await cli('run', '--target', file, '--timeout', '2000');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/target unreachable: http:\/\/127\.0\.0\.1:\d+\/rest did not answer \(ECONNREFUSED/);
  });

  it('exits 0 against the reference server and writes results.json and junit.xml with stable ids', async () => {
    const out = join(dir, 'clean');
    const r = await cli('run', '--only', 'OP-folder.load,OP-folder.count', '--seed', '7', '--out', out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/VERDICT: the target conforms/);
    // Both tests are in the operation sweep: the run loads that suite file and no other.
    expect(r.stdout).toMatch(/--only selects tests in 1 of \d+ suite files; only those are loaded/);
    const res = results(out);
    expect(res.seed).toBe(7);
    expect(res.seedSource).toBe('given');
    expect(res.tests.map((t) => [t.requirement, t.status])).toEqual([
      ['OP-folder.count', 'passed'],
      ['OP-folder.load', 'passed'],
    ]);
    for (const t of res.tests) expect(t.id).not.toMatch(/\b7\b/);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testcase classname="OP" name="OP-folder.count [^"]*"/);
  });

  it('exits 1 on a broken server, with a finding whose replay line reproduces it', async () => {
    const out = join(dir, 'broken');
    const r = await cli('run', '--only', 'OP-folder.create', '--seed', '11', '--fault', 'post-answers-200', '--out', out);
    expect(r.code).toBe(1);
    const failed = results(out).tests.filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.requirement)).toEqual(['OP-folder.create']);
    const finding = failed[0]!.findings.find((f) => f.severity === 'error')!;
    expect(finding).toMatchObject({ requirement: 'ENV-03', check: 'status' });
    // The embedded server requires a token: the curl command names it by variable, never by value.
    expect(finding.curl).toMatch(/^curl -sS -X POST "http:\/\/127\.0\.0\.1:\d+\/rest\/folder\/create\?sid=\$CMS_AUTH_SID"/);
    expect(finding.replay).toMatch(
      /^npx cms-conformance run --only OP-folder.create --seed 11 (--replay-path '[\d:]+' )?--fault post-answers-200$/,
    );
    const replay = finding.replay
      .replace(/^npx cms-conformance run /, '')
      .match(/'[^']*'|\S+/g)!
      .map((a) => a.replace(/^'|'$/g, ''));
    const again = await cli('run', ...replay, '--out', join(dir, 'replayed'));
    expect(again.code).toBe(1);
    const replayed = results(join(dir, 'replayed')).tests.find((t) => t.status === 'failed')!;
    expect(replayed.findings.find((f) => f.severity === 'error')).toMatchObject({ requirement: 'ENV-03', check: 'status' });
  });
});

describe('cms-conformance run: replay lines', () => {
  /** The values of the options a replay line must repeat. */
  const repeated = (values: OptionValues) =>
    Object.fromEntries(Object.entries(values).filter(([name]) => RUN_OPTIONS[name as keyof typeof RUN_OPTIONS].replay));
  /** The arguments a printed replay line gives the CLI, split by the shell as a reader's would be. */
  const shellArgs = (line: string) =>
    execFileSync('sh', ['-c', `printf '%s\\0' ${line.replace(/^npx cms-conformance run /, '')}`], { encoding: 'utf8' })
      .split('\0')
      .slice(0, -1);

  it.each([
    [[]],
    [['--target', 'vendor target.json', '--base-url', 'http://cms.example/rest', '--strict', '--runs', '5', '--timeout', '2000']],
    [['--fault', 'post-answers-200', '--fault', 'skipcount-ignored', '--refusal-style', 'body', '--profile', 'field']],
    // Values that need quoting or their option's `=` form, and every option a replay line leaves out or sets itself.
    [['--target=-t.json', '--base-url', "http://it's.example/", '--only', 'PAG', '--seed', '3', '--replay-path', '1:2']],
    [['--out', 'x', '--rate', '5', '--concurrency', '2', '--retries', '1', '--max-retry-wait', '3', '--shard', '1/2', '--dry-run']],
    [['--baseline', 'old.json', '--expectations', 'e.json', '--runs', '007']],
  ])('%j: the replay line, split by the shell and parsed, gives the same options', (args) => {
    const { values } = parseRunOptions(args);
    const line = runLine({ requirement: 'PAG-01', seed: 7, path: '3:1:0', args: replayArgsOf(RUN_OPTIONS, values) });
    expect({ ...parseRunOptions(shellArgs(line)).values }).toEqual({
      ...repeated(values),
      only: ['PAG-01'],
      seed: '7',
      'replay-path': '3:1:0',
    });
  });

  it('repeats what changes the run, in the order the replay lines always had', () => {
    const args = ['--timeout', '9', '--strict', '--runs', '4', '--profile', 'field', '--fault', 'skipcount-ignored', '--out', 'x'];
    expect(replayArgsOf(RUN_OPTIONS, parseRunOptions(args).values)).toEqual([
      '--fault',
      'skipcount-ignored',
      '--profile',
      'field',
      '--runs',
      '4',
      '--strict',
      '--timeout',
      '9',
    ]);
  });
});

describe('cms-conformance run: seeds', () => {
  it('without --seed uses the documented default seed, prints it and stores where it came from', async () => {
    const out = join(dir, 'default-seed');
    const r = await cli('run', '--only', 'OP-folder.load', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`seed ${DEFAULT_SEED} (default)`);
    expect(r.stdout).toMatch(/^ {2}[\d,]+ of [\d,]+ answers validated; [\d,]+ retr(y|ies)$/m);
    const res = results(out);
    expect([res.seed, res.seedSource]).toEqual([DEFAULT_SEED, 'default']);
    expect(res.summary.answers).toBeGreaterThan(0);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(`seed ${DEFAULT_SEED} (default)`);
  });

  it('--seed random draws a seed and --seed N takes N', () => {
    expect(seedOption(undefined)).toEqual({ seed: DEFAULT_SEED, seedSource: 'default' });
    expect(seedOption('12')).toEqual({ seed: 12, seedSource: 'given' });
    const drawn = seedOption('random');
    expect(drawn.seedSource).toBe('random');
    expect(Number.isSafeInteger(drawn.seed)).toBe(true);
  });

  it('help run documents the default seed', async () => {
    const r = await cli('help', 'run');
    expect(r.stdout).toContain(`(default: ${DEFAULT_SEED})`);
    expect(r.stdout).toContain('--seed N|random');
  });
});
