/**
 * `npm run concurrency-sweep`: whether `--concurrency auto` gives every test the status it gets one request
 * at a time (issue 34 item 2), beyond the sample test/cli/concurrency.test.ts compares: the whole suite on
 * the clean reference server, and under every planted fault the tests of the ids it breaks; a status counts
 * its warnings (a SHOULD finding), so that faults of SHOULD ids are compared too. Each pair of runs goes to
 * two fresh reference servers as live targets, side by side, requiring a token (as the embedded server
 * does, so that the auth tests run) and holding each answer 10 ms (`--latency MS`): well above this
 * machine's jitter of a few ms, so that auto sizes as against a real server (at 2 ms it often stayed at 1
 * and compared nothing side by side). It takes long on a small machine (BENCHMARKS.md); `--fault NAME` (repeatable)
 * narrows it. Writes reports/out/concurrency-sweep.json and prints every difference; exit 1 when there is
 * one, 2 for options it cannot use.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { projectRoot } from '../cli/project.ts';
import type { Results } from '../schemas/results.ts';
import { faults, type FaultName } from '../server/faults.ts';
import { startReferenceServer } from '../server/index.ts';

const exec = promisify(execFile);

/**
 * One run's statuses by test id (with " with warnings" where it has any), and with auto how many requests in
 * flight it found and how many suite files it ran side by side (fewer on a target within LOCAL_MS: the cores).
 */
export interface Statuses {
  byTest: Map<string, string>;
  inFlight?: number;
  files?: number;
}

/** How one run of a comparison is made: where its files go, the server's faults and pace, the run's options. */
export interface StatusRun {
  /** A folder of the caller's: the run's target file and reports go in it, the reports removed after. */
  dir: string;
  /** Unique within `dir`. */
  name: string;
  faults: readonly FaultName[];
  concurrency: '1' | 'auto';
  /** Requirement ids or prefixes (`--only`); all tests when empty. */
  only: readonly string[];
  /** What the server holds each answer for (server/pace.ts). */
  latencyMs: number;
}

/**
 * Runs the suite against a fresh reference server with `faults` as a live target (it requires a token, as the
 * embedded one does), and gives every test's status. A run that exits other than 0 or 1 throws with its output,
 * as does an auto run that does not say how many requests in flight it chose.
 */
export async function statuses(run: StatusRun): Promise<Statuses> {
  const { dir, name, concurrency, only, latencyMs } = run;
  const server = await startReferenceServer({
    faults: [...run.faults],
    pace: { latencyMs },
    authToken: randomBytes(16).toString('hex'),
  });
  const targetFile = join(dir, `${name}.target.json`);
  const out = join(dir, name);
  writeFileSync(targetFile, JSON.stringify(server.target));
  try {
    const args = [
      'run',
      '--target',
      targetFile,
      '--concurrency',
      concurrency,
      '--out',
      out,
      ...(only.length ? ['--only', only.join(',')] : []),
    ];
    const done = await exec(process.execPath, [join(projectRoot, 'bin/cms-conformance.mjs'), ...args], {
      cwd: projectRoot,
      maxBuffer: 64 * 2 ** 20,
    }).catch((err: { code?: number; stdout?: string; stderr?: string }) => {
      // Exit 1 is a run with a failed test, which a fault is for; anything else is a run that did not happen.
      if (err.code === 1) return { stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
      throw new Error(`${name}: run exited ${err.code}: ${(err.stderr ?? '').slice(-1500)}`);
    });
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    const sized = /--concurrency auto: .*: (\d+) in flight, so (\d+) suite file\(s\) side by side/.exec(done.stdout);
    if (concurrency === 'auto' && !sized)
      throw new Error(`${name}: the run did not say what --concurrency auto chose: ${done.stdout.slice(-1500)}`);
    const status = (t: Results['tests'][number]) =>
      `${t.status}${t.findings.some((f) => f.severity === 'warning') ? ' with warnings' : ''}`;
    return {
      byTest: new Map(results.tests.map((t) => [t.id, status(t)])),
      ...(sized ? { inFlight: Number(sized[1]), files: Number(sized[2]) } : {}),
    };
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

/** One case's differences: every test whose status differs, or that only one of the runs has. */
export function differences(one: Statuses, auto: Statuses): { test: string; one: string; auto: string }[] {
  const ids = [...new Set([...one.byTest.keys(), ...auto.byTest.keys()])].sort();
  return ids
    .map((test) => ({ test, one: one.byTest.get(test) ?? 'absent', auto: auto.byTest.get(test) ?? 'absent' }))
    .filter((d) => d.one !== d.auto);
}

// Run as a script (npm run concurrency-sweep); test/cli/concurrency.test.ts imports the comparison above.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const option = (name: string) => process.argv.flatMap((a, i, all) => (all[i - 1] === name ? [a] : []));
  const latencyMs = Number(option('--latency')[0] ?? 10);
  const picked = option('--fault');
  const unknown = picked.filter((name) => !faults.some((f) => f.name === name));
  if (!Number.isFinite(latencyMs) || latencyMs < 0 || unknown.length) {
    console.error(
      unknown.length
        ? `concurrency-sweep: no planted fault is named ${unknown.join(', ')} (cms-conformance serve --list-faults lists them)`
        : `concurrency-sweep: --latency must be a number of milliseconds, got "${option('--latency')[0]}"`,
    );
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cms-concurrency-sweep-'));
  const cases: { name: string; fault?: FaultName; only: string[] }[] = [
    ...(picked.length ? [] : [{ name: 'clean', only: [] }]),
    ...faults.filter((f) => !picked.length || picked.includes(f.name)).map((f) => ({ name: f.name, fault: f.name, only: f.breaks })),
  ];
  const report: {
    case: string;
    tests: number;
    failedAtOne: number;
    warnedAtOne: number;
    inFlight?: number;
    files?: number;
    differences: ReturnType<typeof differences>;
  }[] = [];
  const started = performance.now();
  try {
    for (const [i, c] of cases.entries()) {
      const [one, auto] = await Promise.all([
        statuses({ dir, name: `${c.name}-1`, faults: c.fault ? [c.fault] : [], concurrency: '1', only: c.only, latencyMs }),
        statuses({ dir, name: `${c.name}-auto`, faults: c.fault ? [c.fault] : [], concurrency: 'auto', only: c.only, latencyMs }),
      ]);
      const diff = differences(one, auto);
      const failedAtOne = [...one.byTest.values()].filter((s) => s.startsWith('failed')).length;
      const warnedAtOne = [...one.byTest.values()].filter((s) => s.endsWith(' with warnings')).length;
      report.push({
        case: c.name,
        tests: one.byTest.size,
        failedAtOne,
        warnedAtOne,
        ...(auto.inFlight ? { inFlight: auto.inFlight, files: auto.files } : {}),
        differences: diff,
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      console.log(
        `[${i + 1}/${cases.length}, ${seconds} s] ${c.name}: ${one.byTest.size} tests, ${failedAtOne} failed and ${warnedAtOne} warned at 1, auto at ${auto.inFlight ?? '?'} in flight, ${auto.files ?? '?'} file(s) side by side: ` +
          (diff.length
            ? `${diff.length} DIFFER: ${diff.map((d) => `${d.test} (${d.one} at 1, ${d.auto} with auto)`).join('; ')}`
            : 'the same statuses'),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const out = join(projectRoot, 'reports/out');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'concurrency-sweep.json'), `${JSON.stringify({ at: new Date().toISOString(), cases: report }, null, 2)}\n`);
  const differing = report.filter((r) => r.differences.length);
  // Auto ran one file at a time (sized at 1 in flight, or capped at one core): such a case compares nothing side by side, and says so.
  const alone = report.filter((r) => (r.files ?? 1) < 2).map((r) => r.case);
  console.log(
    `concurrency sweep: ${report.length} cases, ${report.reduce((n, r) => n + r.tests, 0)} test statuses compared, ` +
      `${differing.length} case(s) differ${differing.length ? `: ${differing.map((r) => r.case).join(', ')}` : ''}` +
      `${alone.length ? `; auto ran ${alone.length} one file at a time (nothing side by side): ${alone.join(', ')}` : ''}; reports/out/concurrency-sweep.json`,
  );
  process.exitCode = differing.length ? 1 : 0;
}
