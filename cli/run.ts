/** `cms-conformance run`: the main job. Runs the conformance suites against a target and says whether it conforms. */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { RunConfig } from '../harness/config.ts';
import { SANDBOX_PREFIX } from '../harness/sandbox.ts';
import { loadExpectations, verdictOf } from '../reports/expectations.ts';
import { ReportInputError, finishRun } from '../reports/index.ts';
import { loadResults, summarize, type Results } from '../reports/results.ts';
import { getOperation } from '../schemas/operations.ts';
import { matchRequirements, requirements } from '../schemas/requirements.ts';
import type { Target } from '../schemas/target.ts';
import { UsageError, intOption, parseOptions, type Command } from './args.ts';
import { collectTests, projectRoot as root } from './collect.ts';
import { SuiteEngine } from './engine.ts';
import { SessionError, closeOnSignals, loadTarget, openSession, type Session, type SessionOptions } from './session.ts';


const usage = `usage: cms-conformance run [--target FILE] [--base-url URL] [--out DIR] [--seed N] [--runs N]
                          [--only IDS] [--strict] [--timeout MS] [--replay-path PATH]
                          [--rate N] [--concurrency N] [--dry-run] [--expectations FILE]
                          [--baseline FILE] [--shard i/n]
                          [--fault NAME]... [--refusal-style status|body]

Runs the conformance suites. Without --target, against the bundled reference server started on
127.0.0.1 (a free port); --fault and --refusal-style configure that embedded server.
  --target FILE      a target file (as written by \`serve --write-target\`): base URL, credentials,
                     features, fixture ids
  --base-url URL     overrides the target file's base URL
  --out DIR          where reports go (default reports/out)
  --seed N           the run's seed (default: random, printed)
  --runs N           fast-check runs per property (default 20)
  --only IDS         requirement ids or prefixes, comma-separated (PAG, OP-folder.load, DEL-01)
  --strict           members the contract does not name are errors, not warnings
  --timeout MS       per request (default 10000)
  --rate N           at most N requests per second (default: no cap)
  --concurrency N    at most N requests in flight (default 1 for --target, 8 embedded)
  --expectations F   a per-target expectation file: expected failures do not fail the run
  --baseline F       an earlier results.json: print and write (regression.md) new, fixed and
                     still failing tests
  --shard i/n        run the i-th of n parts (merge the parts with \`cms-conformance merge\`)
  --replay-path P    replay one fast-check case (with --only and --seed, from a replay line)
  --dry-run          print what the run would do (suites, requirement ids, requests, fixture
                     objects it reads) without sending anything
Exit: 0 no test failed, 1 a test failed, 2 usage or configuration error, 3 target unreachable.`;

/** The test-name filter for --only: test names start with their requirement id and a space. */
export function onlyPattern(patterns: string[]): RegExp | undefined {
  if (!patterns.length) return undefined;
  let ids: string[];
  try {
    ids = matchRequirements(patterns).map((r) => r.id);
  } catch (err) {
    throw new UsageError(`--only: ${(err as Error).message}`);
  }
  return new RegExp(`^(?:${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}) `);
}

function printSummary(results: Results, paths: string[], runErrors: string[], notes: string[]): void {
  const s = results.summary;
  const lines = ['', `cms-conformance: ${s.total} tests against ${results.target.baseUrl}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.warnings} warnings`];
  const families = Object.entries(s.byFamily)
    .map(([f, c]) => `${f} ${c.passed}/${c.total - c.skipped}${c.failed ? ` (${c.failed} failed)` : ''}`)
    .join(', ');
  if (families) lines.push(`  by family (passed/run): ${families}`);
  for (const [reason, n] of Object.entries(s.skipReasons)) lines.push(`  skipped ${n}: ${reason}`);
  for (const e of runErrors) lines.push(`  run error: ${e}`);
  for (const note of notes) lines.push(`  ${note}`);
  lines.push(`  seed ${results.seed} (repeat this run with --seed ${results.seed})`);
  lines.push(`  reports: ${paths.map((p) => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p))).join(', ')}`);
  const verdict = verdictOf(results);
  lines.push(runErrors.length ? 'VERDICT: the run is incomplete: a suite did not load (see the run errors above)' : `VERDICT: ${verdict.text}`);
  console.log(lines.join('\n'));
}

/** --dry-run: what the run would do, from the declared tests and the last run's measurements; sends nothing. */
async function dryRun(target: Target | undefined, pattern: RegExp | undefined, outDir: string, runs: number): Promise<number> {
  const tests = (await collectTests()).filter((t) => !pattern || pattern.test(`${t.id}`));
  const features: string[] = target ? target.features : ['multichannelling', 'wastebin', 'pages', 'templates', 'sourceUrl'];
  const lines = ['cms-conformance: dry run, nothing is sent', target ? `  target ${target.baseUrl} (features: ${features.join(', ') || 'none'})` : '  target: the bundled reference server, started on 127.0.0.1 (all features but auth)'];
  if (target) {
    const ids = Object.entries(target.fixture).map(([k, v]) => `${k} ${v}`).join(', ');
    lines.push(`  fixture objects it reads, never changes: ${ids}`);
    lines.push(`  it creates a sandbox folder (${SANDBOX_PREFIX}<UTC time>-<tag>) under folder ${target.fixture.sandboxParentFolderId}, mutates only inside it, and removes it at the end`);
  }
  const skipped = new Map<string, number>();
  const byFile = new Map<string, string[]>();
  for (const t of tests) {
    byFile.set(t.file, [...(byFile.get(t.file) ?? []), t.requirement]);
    const req = requirements.find((r) => r.id === t.requirement);
    const feature = req?.feature ?? (req?.operation ? getOperation(req.operation).feature : null);
    if (feature && !features.includes(feature)) skipped.set(feature, (skipped.get(feature) ?? 0) + 1);
  }
  lines.push(`  ${tests.length} tests in ${byFile.size} suites, ${runs} runs per property:`);
  for (const [file, reqs] of byFile) lines.push(`    ${file}: ${reqs.length} tests (${[...new Set(reqs)].join(', ')})`);
  for (const [feature, n] of skipped) lines.push(`  ${n} would be skipped: the target does not declare "${feature}"`);
  let last: Results | undefined;
  try {
    last = JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8')) as Results;
  } catch {
    // No earlier run: the request count is unknown, and the line says so.
  }
  const measured = last ? tests.map((t) => last.tests.find((r) => r.id === t.id)?.requests) : [];
  const known = measured.filter((n): n is number => n !== undefined);
  lines.push(
    known.length
      ? `  requests: about ${Math.round(known.reduce((a, n) => a + n, 0) * (tests.length / known.length))} (as sent by ${known.length} of these tests in the run of ${last!.startedAt}${last!.runs !== runs ? ` with ${last!.runs} runs per property` : ''})`
      : '  requests: unknown until a first run writes results.json into --out (each test records what it sent)',
  );
  console.log(lines.join('\n'));
  return 0;
}

export const command: Command = {
  summary: 'run the conformance suites against a target (default: the bundled reference server)',
  usage,
  async run(args) {
    const { values } = parseOptions(args, {
      target: { type: 'string' },
      'base-url': { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      only: { type: 'string', multiple: true },
      strict: { type: 'boolean' },
      timeout: { type: 'string' },
      'replay-path': { type: 'string' },
      fault: { type: 'string', multiple: true },
      'refusal-style': { type: 'string' },
      rate: { type: 'string' },
      concurrency: { type: 'string' },
      'dry-run': { type: 'boolean' },
      baseline: { type: 'string' },
      expectations: { type: 'string' },
      shard: { type: 'string' },
    });
    // Bad report inputs fail now, not after a long run.
    try {
      if (values.expectations) loadExpectations(values.expectations);
      if (values.baseline) loadResults(values.baseline);
    } catch (err) {
      if (err instanceof ReportInputError) throw new UsageError(err.message);
      throw err;
    }
    const shard = values.shard;
    if (shard !== undefined && !/^[1-9]\d*\/[1-9]\d*$/.test(shard)) throw new UsageError(`--shard must be i/n (e.g. 1/3), got "${shard}"`);
    if (shard && Number(shard.split('/')[0]) > Number(shard.split('/')[1])) throw new UsageError(`--shard ${shard}: i must not exceed n`);
    const seed = intOption('seed', values.seed, Math.floor(Math.random() * 2 ** 31));
    const runs = intOption('runs', values.runs, 20, 1);
    const timeoutMs = intOption('timeout', values.timeout, 10_000, 1);
    const rate = intOption('rate', values.rate, 0, 0);
    // A live server gets one request at a time unless told otherwise; the embedded one can take more.
    const concurrency = intOption('concurrency', values.concurrency, values.target ? 1 : 8, 1);
    const workers = values.target ? 1 : 2;
    const outDir = resolve(values.out ?? join(root, 'reports/out'));
    const testNamePattern = onlyPattern((values.only ?? []).flatMap((o) => o.split(',')).map((o) => o.trim()).filter(Boolean));
    if (values.target && (values.fault || values['refusal-style'])) throw new UsageError('--fault and --refusal-style configure the embedded server; they do not go with --target');
    const style = values['refusal-style'];
    if (style !== undefined && style !== 'status' && style !== 'body') throw new UsageError(`--refusal-style must be status or body, got "${style}"`);

    const sessionOptions: SessionOptions = {
      ...(values.target ? { targetFile: values.target } : {}),
      ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
      faults: values.fault ?? [],
      ...(style ? { refusalStyle: style } : {}),
      timeoutMs,
      concurrency,
      ...(rate ? { rate } : {}),
    };
    if (values['dry-run']) return dryRun(loadTarget(sessionOptions), testNamePattern, outDir, runs);
    let session: Session;
    try {
      session = await openSession(sessionOptions);
    } catch (err) {
      if (!(err instanceof SessionError)) throw err;
      console.error(`cms-conformance: ${err.message}`);
      return err.exitCode;
    }
    const { target } = session;
    const stopWatching = closeOnSignals(session);
    try {
      const replayArgs = [
        ...(values.target ? ['--target', values.target] : []),
        ...(values['base-url'] ? ['--base-url', values['base-url']] : []),
        ...(values.fault ?? []).flatMap((f) => ['--fault', f]),
        ...(style ? ['--refusal-style', style] : []),
        ...(values.runs ? ['--runs', String(runs)] : []),
        ...(values.strict ? ['--strict'] : []),
        ...(values.timeout ? ['--timeout', String(timeoutMs)] : []),
      ];
      const config: RunConfig = { target, replayArgs, seed, runs, strict: values.strict ?? false, timeoutMs, concurrency, ...(rate ? { rate: rate / workers } : {}), ...(values['replay-path'] ? { replayPath: values['replay-path'] } : {}), sandboxFolderId: session.sandboxFolderId };
      console.log(`cms-conformance: running against ${target.baseUrl} (features: ${target.features.join(', ') || 'none'}), seed ${seed}, ${runs} runs per property`);
      const startedAt = new Date();
      const engine = await SuiteEngine.create({ workers, ...(shard ? { shard } : {}) });
      let run;
      try {
        run = await engine.run(config, testNamePattern);
      } finally {
        await engine.close();
      }
      const results: Results = {
        tool: { name: 'cms-conformance', version: '0.1.0' },
        target: { baseUrl: target.baseUrl, features: target.features, embedded: !values.target },
        seed,
        runs,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary: summarize(run.tests),
        tests: run.tests,
      };
      const secrets = [...Object.values(target.auth.query), ...Object.values(target.auth.headers)];
      const done = finishRun(results, { outDir, secrets, ...(values.expectations ? { expectationsFile: values.expectations } : {}), ...(values.baseline ? { baselineFile: values.baseline } : {}) });
      printSummary(done.results, done.paths, run.runErrors, done.lines);
      return done.exitCode || run.runErrors.length ? 1 : 0;
    } finally {
      stopWatching();
      await session.close();
    }
  },
};
