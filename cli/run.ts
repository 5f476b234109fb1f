/** `cms-conformance run`: the main job. Runs the conformance suites against a target and says whether it conforms. */
import { SUITE_VERSION } from '../schemas/version.ts';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { DEFAULT_SEED, RUN_DEFAULTS, type RunConfig } from '../harness/config.ts';
import { SANDBOX_PREFIX, sandboxName } from '../harness/sandbox.ts';
import { requestOf } from '../harness/api.ts';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_WAIT_MS, Transport } from '../harness/transport.ts';
import { loadExpectations, verdictOf } from '../reports/expectations.ts';
import { ReportInputError, finishRun, removeReports } from '../reports/index.ts';
import { exchangeTotals, loadResults, seedText, summarize } from '../reports/results.ts';
import { catalogueDigest, makeStatement, writeStatement } from '../reports/statement.ts';
import type { Results, SeedSource, TestResult } from '../schemas/results.ts';
import { getOperation } from '../schemas/operations.ts';
import { matchRequirements, requirements } from '../schemas/requirements.ts';
import { FEATURES, type Target } from '../schemas/target.ts';
import type { FaultName } from '../server/faults.ts';
import type { VariationName } from '../server/variations.ts';
import {
  MAX_SEED,
  UsageError,
  intOption,
  outDirOption,
  parseOptions,
  replayArgsOf,
  seedValue,
  type Command,
  type ReplayOptionSpec,
} from './args.ts';
import { collectTests, declaredTests, suiteFilesOf } from './collect.ts';
import { DEFAULT_CONCURRENCY_MAX, LOCAL_MS, filesSideBySide, sizeConcurrency, sizingText, type Sizing } from './concurrency.ts';
import { loadEngine } from './load-engine.ts';
import { DISPOSABLE_SUITES, isDisposableSuite, projectRoot as root } from './project.ts';
import type { SuiteEngine } from './engine.ts';
import { profileOption } from './serve.ts';
import { RunInterrupt } from './interrupt.ts';
import { SessionError, SessionStopped, loadTarget, openSession, type Session, type SessionOptions } from './session.ts';

/** The run's seed and where it came from: `--seed N`, `--seed random` (drawn now) or the documented default. */
export function seedOption(value: string | undefined): { seed: number; seedSource: SeedSource } {
  if (value === undefined) return { seed: DEFAULT_SEED, seedSource: 'default' };
  if (value === 'random') return { seed: Math.floor(Math.random() * (MAX_SEED + 1)), seedSource: 'random' };
  if (!/^\d+$/.test(value)) throw new UsageError(`--seed must be an integer from 0 to ${MAX_SEED} or "random", got "${value}"`);
  return { seed: seedValue('seed', value), seedSource: 'given' };
}

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

function printSummary(results: Results, paths: string[], notes: string[]): void {
  const s = results.summary;
  const lines = [
    '',
    `cms-conformance: ${s.total} tests against ${results.target.baseUrl}: ` +
      `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.warnings} warnings${s.notes ? `, ${s.notes} notes` : ''}`,
  ];
  const families = Object.entries(s.byFamily)
    .map(([f, c]) => `${f} ${c.passed}/${c.total - c.skipped}${c.failed ? ` (${c.failed} failed)` : ''}`)
    .join(', ');
  if (families) lines.push(`  by family (passed/run): ${families}`);
  for (const [reason, n] of Object.entries(s.skipReasons)) lines.push(`  skipped ${n}: ${reason}`);
  for (const e of results.runErrors ?? []) lines.push(`  run error: ${e}`);
  for (const note of notes) lines.push(`  ${note}`);
  const totals = exchangeTotals(s);
  if (totals) lines.push(`  ${totals}`);
  lines.push(`  ${seedText(results)} (repeat this run with --seed ${results.seed})`);
  lines.push(`  reports: ${paths.map((p) => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p))).join(', ')}`);
  lines.push(`VERDICT: ${verdictOf(results).text}`);
  console.log(lines.join('\n'));
}

/**
 * The suite files that hold the tests --only selects (from the index of declared tests, cli/collect.ts),
 * so that a narrowed run loads no other: undefined, all of them, when it selects none.
 */
async function onlyFiles(engine: SuiteEngine, pattern: RegExp): Promise<string[] | undefined> {
  const declared = await declaredTests(() => engine.collect());
  const files = suiteFilesOf(declared.filter((t) => pattern.test(t.id)));
  if (!files.length) return undefined;
  const all = suiteFilesOf(declared).length;
  console.log(`cms-conformance: --only selects tests in ${files.length} of ${all} suite files; only those are loaded`);
  return files;
}

/** --dry-run: what the run would do, from the declared tests and the last run's measurements; sends nothing. */
async function dryRun(target: Target | undefined, pattern: RegExp | undefined, outDir: string, runs: number): Promise<number> {
  const tests = (await collectTests()).filter((t) => !pattern || pattern.test(`${t.id}`));
  const features: readonly string[] = target ? target.features : FEATURES;
  const lines = [
    'cms-conformance: dry run, nothing is sent',
    target
      ? `  target ${target.baseUrl} (features: ${features.join(', ') || 'none'})`
      : `  target: the bundled reference server, started on 127.0.0.1 with a random token (features: ${features.join(', ')})`,
  ];
  if (target) {
    const ids = Object.entries(target.fixture)
      // Lists and objects (usedFileUsers, stagingPackage) as the target file writes them, not "[object Object]".
      .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`)
      .join(', ');
    const changing = features.includes('disposable') ? tests.filter((t) => isDisposableSuite(t.file)).length : 0;
    lines.push(
      changing
        ? `  fixture objects it reads: ${ids}; ${changing} tests of ${DISPOSABLE_SUITES} change some (the target declares "disposable"), after every other test`
        : `  fixture objects it reads, never changes: ${ids}`,
    );
    lines.push(
      `  it creates a sandbox folder (${SANDBOX_PREFIX}<UTC time>-<tag>) under folder ${target.fixture.sandboxParentFolderId}, ` +
        `mutates only inside it${changing ? ' (but for those tests)' : ''}, and removes it at the end`,
    );
  }
  const skipped = new Map<string, number>();
  const byFile = new Map<string, string[]>();
  for (const t of tests) {
    byFile.set(t.file, [...(byFile.get(t.file) ?? []), t.requirement]);
    const req = requirements.find((r) => r.id === t.requirement);
    const feature = req?.feature ?? (req?.operation ? getOperation(req.operation).feature : null);
    if (feature && !features.includes(feature)) skipped.set(feature, (skipped.get(feature) ?? 0) + 1);
    else if (isDisposableSuite(t.file) && !features.includes('disposable')) skipped.set('disposable', (skipped.get('disposable') ?? 0) + 1);
  }
  lines.push(`  ${tests.length} tests in ${byFile.size} suites, ${runs} runs per property:`);
  for (const [file, reqs] of byFile) lines.push(`    ${file}: ${reqs.length} tests (${[...new Set(reqs)].join(', ')})`);
  for (const [feature, n] of skipped) lines.push(`  ${n} would be skipped: the target does not declare "${feature}"`);
  let last: Results | undefined;
  try {
    last = loadResults(outDir);
  } catch (err) {
    // No earlier run (or none this version can read): the request count is unknown, and the line says so.
    if (!(err instanceof ReportInputError)) throw err;
  }
  const measured = last ? tests.map((t) => last.tests.find((r) => r.id === t.id)?.requests) : [];
  const known = measured.filter((n): n is number => n !== undefined);
  const estimate = Math.round(known.reduce((a, n) => a + n, 0) * (tests.length / known.length));
  lines.push(
    known.length
      ? `  requests: about ${estimate} (as sent by ${known.length} of these tests in the run of ${last!.startedAt}` +
          `${last!.runs !== runs ? ` with ${last!.runs} runs per property` : ''})`
      : '  requests: unknown until a first run writes results.json into --out (each test records what it sent)',
  );
  console.log(lines.join('\n'));
  return 0;
}

/**
 * run's options. `replay` marks those a replay line repeats (cli/args.ts replayArgsOf), in this order:
 * the ones that change which target answers, which tests run and how they judge. The others only pace the
 * requests, say where reports go and what they are compared with, or are given by the replay line itself.
 */
export const RUN_OPTIONS = {
  target: {
    type: 'string',
    value: 'FILE',
    byDefault: 'the bundled reference server',
    description: 'a target file (as written by `init` or `serve --write-target`): base URL, credentials, features, fixture ids',
    example: '--target target.json',
    replay: true,
  },
  'base-url': {
    type: 'string',
    value: 'URL',
    byDefault: "the target file's",
    description: "overrides the target file's base URL",
    example: '--target target.json --base-url http://localhost:8080/rest',
    replay: true,
  },
  fault: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    byDefault: 'none',
    description: 'switch on a planted fault in the embedded server (names: `serve --list-faults`)',
    example: '--fault post-answers-200',
    replay: true,
  },
  variation: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    byDefault: 'none',
    description:
      'play an answer the contract leaves open otherwise than by default, in the embedded server (names: `serve --list-variations`)',
    example: '--variation usage-files-only',
    replay: true,
  },
  'refusal-style': {
    type: 'string',
    value: 'status|body',
    byDefault: 'status',
    description: 'the embedded server answers refusals with 4xx statuses, or with 200 and the code in the body',
    example: '--refusal-style body',
    replay: true,
  },
  profile: {
    type: 'string',
    value: 'default|field',
    byDefault: 'default',
    description: "the embedded server's behaviour: the contract as written, or the deployed open-source server's (`help serve`)",
    example: '--profile field',
    replay: true,
  },
  fixture: {
    type: 'string',
    value: 'default|varied:SEED|FILE',
    byDefault: 'default',
    description:
      "the embedded server's data set: the built-in one, a varied one of a seed (ids of many digits, deep and wide trees, names in many scripts), or a dataset JSON file",
    example: '--fixture varied:7',
    replay: true,
  },
  runs: {
    type: 'string',
    value: 'N',
    byDefault: String(RUN_DEFAULTS.runs),
    description: 'fast-check runs per property',
    example: '--runs 50',
    replay: true,
  },
  strict: {
    type: 'boolean',
    description: 'members the contract does not name are errors, not warnings',
    example: '--strict',
    replay: true,
  },
  timeout: {
    type: 'string',
    value: 'MS',
    byDefault: String(RUN_DEFAULTS.timeoutMs),
    description: 'milliseconds to wait for each answer',
    example: '--timeout 5000',
    replay: true,
  },
  // Given by the replay line: the one test, its seed and its fast-check path (harness/replay.ts runLine).
  only: {
    type: 'string',
    multiple: true,
    value: 'IDS',
    byDefault: 'every test',
    description:
      'requirement ids or prefixes, comma-separated (PAG, OP-folder.load, DEL-01); only the suite files holding their tests are loaded',
    example: '--only PAG,OP-folder.load',
    replay: false,
  },
  seed: {
    type: 'string',
    value: 'N|random',
    byDefault: String(DEFAULT_SEED),
    description:
      'the seed every generated request derives from: the default is always the same, so two runs against one target agree test by test; `random` draws one to explore. Printed and stored in results.json (seed, seedSource)',
    example: '--seed random',
    replay: false,
  },
  'replay-path': {
    type: 'string',
    value: 'PATH',
    byDefault: 'none',
    description: 'replay one fast-check case (with --only and --seed, as a printed replay line gives them)',
    example: "--only PAG-01 --seed 7 --replay-path '3:1:0'",
    replay: false,
  },
  rate: {
    type: 'string',
    value: 'N',
    byDefault: 'no cap',
    description: "at most N requests per second, --concurrency auto's sizing included",
    example: '--rate 20',
    replay: false,
  },
  concurrency: {
    type: 'string',
    value: 'N|auto',
    byDefault: `auto with --target, ${RUN_DEFAULTS.embeddedConcurrency} for the embedded server`,
    description: `N: at most N requests in flight (1 for a fragile server). auto: find how many requests in flight the target takes (from 1, doubling while answers stay as fast and no 429 or 503 comes), then run that many suite files side by side, each in its own sandbox folder with one request at a time (no more than this machine's cores when answers come within ${LOCAL_MS} ms: the run is then bound by its own work, not by waiting)`,
    example: '--target target.json --concurrency 1',
    replay: false,
  },
  'concurrency-max': {
    type: 'string',
    value: 'N',
    byDefault: String(DEFAULT_CONCURRENCY_MAX),
    description: 'the most requests in flight --concurrency auto tries (with --target)',
    example: '--target target.json --concurrency-max 16',
    replay: false,
  },
  retries: {
    type: 'string',
    value: 'N',
    byDefault: String(DEFAULT_MAX_RETRIES),
    description:
      'repeat a request answered 429 (any method) or 503 with Retry-After (GET only) at most N times, after the wait Retry-After asks for',
    example: '--retries 0',
    replay: false,
  },
  'max-retry-wait': {
    type: 'string',
    value: 'SECONDS',
    byDefault: String(DEFAULT_MAX_RETRY_WAIT_MS / 1000),
    description: "wait at most this long in all for one request's retries; past that its 429 or 503 stands",
    example: '--max-retry-wait 10',
    replay: false,
  },
  'max-body': {
    type: 'string',
    value: 'MIB',
    byDefault: String(DEFAULT_MAX_BODY_BYTES / 2 ** 20),
    description: 'answers over MIB mebibytes are cut and not judged (a warning on the test, never a failure), so that memory stays bounded',
    example: '--max-body 64',
    replay: true,
  },
  out: {
    type: 'string',
    value: 'DIR',
    byDefault: 'reports/out',
    description:
      "where the reports go (results.json, junit.xml, report.html, summary.md); the earlier run's reports there are removed as the run starts",
    example: '--out reports/vendor',
    replay: false,
  },
  'dry-run': {
    type: 'boolean',
    description: 'print what the run would do (suites, requirement ids, requests, fixture objects it reads) without sending anything',
    example: '--target target.json --dry-run',
    replay: false,
  },
  baseline: {
    type: 'string',
    value: 'FILE',
    byDefault: 'none',
    description: 'an earlier results.json: print and write (regression.md) the new, fixed and still failing tests',
    example: '--baseline reports/last/results.json',
    replay: false,
  },
  expectations: {
    type: 'string',
    value: 'FILE',
    byDefault: 'none',
    description: 'a per-target expectation file (`help update-expectations`): expected failures do not fail the run',
    example: '--expectations expectations.json',
    replay: false,
  },
  shard: {
    type: 'string',
    value: 'i/n',
    byDefault: 'the whole suite',
    description: 'run the i-th of n parts (merge the parts with `merge`)',
    example: '--shard 1/3',
    replay: false,
  },
  statement: {
    type: 'string',
    value: 'DIR',
    byDefault: 'none',
    description: 'also write a conformance statement of the run there: conformance.json, conformance.md, badge.svg (`help statement`)',
    example: '--statement reports/statement',
    replay: false,
  },
  label: {
    type: 'string',
    value: 'TEXT',
    byDefault: "the target's base URL without credentials, and the date",
    description: 'the name of the run (a build, a release), stored in results.json; `history` shows it',
    example: '--label build-1234',
    replay: false,
  },
} as const satisfies Record<string, ReplayOptionSpec>;

/** Parses run's arguments by its option table; an unknown option is a usage error. */
export function parseRunOptions(args: string[]) {
  return parseOptions(args, RUN_OPTIONS);
}

/** run's parsed option values. */
type RunValues = ReturnType<typeof parseRunOptions>['values'];

/**
 * Reads the expectation and baseline files now: bad report inputs fail before a long run, not after it.
 * Returns the baseline, which may be the out folder's results.json that the run removes as it starts.
 */
function checkReportInputs(values: RunValues): Results | undefined {
  try {
    if (values.expectations) loadExpectations(values.expectations);
    return values.baseline ? loadResults(values.baseline) : undefined;
  } catch (err) {
    if (err instanceof ReportInputError) throw new UsageError(err.message);
    throw err;
  }
}

/** The --shard option, `i/n` with 1 <= i <= n, or undefined. */
function shardOption(shard: string | undefined): string | undefined {
  if (shard !== undefined && !/^[1-9]\d*\/[1-9]\d*$/.test(shard)) throw new UsageError(`--shard must be i/n (e.g. 1/3), got "${shard}"`);
  if (shard && Number(shard.split('/')[0]) > Number(shard.split('/')[1])) throw new UsageError(`--shard ${shard}: i must not exceed n`);
  return shard;
}

/**
 * Names given with --fault or --variation, checked by their catalogue (loaded only when some are given: the
 * server's modules); an unknown name is a usage error naming the known ones.
 */
async function checkedNames<T>(names: string[] | undefined, checker: () => Promise<(names: readonly string[]) => T[]>): Promise<T[]> {
  if (!names?.length) return [];
  const check = await checker();
  try {
    return check(names);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * Whether the run sizes its target: a live target is sized unless --concurrency gives a number. Sizing
 * makes a default run against a target that answers slowly several times shorter than one request at a time
 * (BENCHMARKS.md), with every test's status the same on the clean server and under every planted fault
 * (npm run concurrency-sweep).
 */
function autoConcurrency(values: RunValues): boolean {
  return values.concurrency === 'auto' || (values.concurrency === undefined && values.target !== undefined);
}

/** How to reach the target and pace the requests, checked; the faults are checked when the session opens. */
function sessionOptionsOf(values: RunValues): Omit<SessionOptions, 'faults'> {
  const timeoutMs = intOption('timeout', values.timeout, RUN_DEFAULTS.timeoutMs, 1);
  const rate = intOption('rate', values.rate, 0, 0);
  // A live server is sized (auto) unless told otherwise; the embedded one can take more. With auto, the session's
  // own requests (sandbox, clean-up) go one at a time, and the suites get what the target was found to take.
  const auto = autoConcurrency(values);
  if (values.concurrency !== undefined && !auto && !/^\d+$/.test(values.concurrency))
    throw new UsageError(`--concurrency must be a number of requests in flight or auto, got "${values.concurrency}"`);
  const concurrency = intOption(
    'concurrency',
    auto ? undefined : values.concurrency,
    values.target ? 1 : RUN_DEFAULTS.embeddedConcurrency,
    1,
  );
  if (values['concurrency-max'] !== undefined && !auto)
    throw new UsageError(
      values.concurrency !== undefined
        ? '--concurrency-max goes with --concurrency auto'
        : '--concurrency-max goes with --target: a live target is sized (--concurrency auto), the embedded server is not',
    );
  const maxRetries = intOption('retries', values.retries, DEFAULT_MAX_RETRIES, 0);
  const maxRetryWaitMs = intOption('max-retry-wait', values['max-retry-wait'], DEFAULT_MAX_RETRY_WAIT_MS / 1000, 0) * 1000;
  const maxBodyBytes = intOption('max-body', values['max-body'], DEFAULT_MAX_BODY_BYTES / 2 ** 20, 1) * 2 ** 20;
  if (values.target && (values.fault || values.variation || values['refusal-style'] || values.profile || values.fixture))
    throw new UsageError(
      '--fault, --variation, --refusal-style, --profile and --fixture configure the embedded server; they do not go with --target',
    );
  const profile = profileOption(values.profile);
  const style = values['refusal-style'];
  if (style !== undefined && style !== 'status' && style !== 'body')
    throw new UsageError(`--refusal-style must be status or body, got "${style}"`);
  return {
    ...(values.target ? { targetFile: values.target } : {}),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    profile,
    ...(style ? { refusalStyle: style } : {}),
    ...(values.fixture ? { fixture: values.fixture } : {}),
    timeoutMs,
    concurrency,
    ...(rate ? { rate } : {}),
    maxRetries,
    maxRetryWaitMs,
    maxBodyBytes,
  };
}

/**
 * Sizes a live target for --concurrency auto with harmless reads of the run's sandbox folder, each sent once,
 * no faster than --rate: a target that asked for a rate gets no burst from the sizing either. A signal
 * abandons the reads in flight and sends no more: against a target that hangs, the sizing would otherwise
 * hold the run's clean-up for up to 17 timeouts.
 */
async function sizeTarget(
  session: Session,
  connection: Pick<SessionOptions, 'timeoutMs' | 'rate'>,
  max: number,
  interrupt: RunInterrupt,
): Promise<Sizing> {
  const { timeoutMs, rate } = connection;
  const probe = new Transport(session.target, { timeoutMs, concurrency: max, maxRetries: 0, ...(rate ? { rate } : {}) });
  const forget = interrupt.onStop(() => probe.interrupt());
  try {
    const load = requestOf('folder.load', { path: { id: session.sandboxFolderId } });
    return await sizeConcurrency(() => probe.send(load), max);
  } finally {
    forget();
    await probe.close();
  }
}

/** Opens the session, or says on stderr why not and gives the exit code, or says that a signal stopped it. */
async function openOrExit(options: SessionOptions): Promise<Session | number | SessionStopped> {
  try {
    return await openSession(options);
  } catch (err) {
    if (err instanceof SessionStopped) return err;
    if (!(err instanceof SessionError)) throw err;
    console.error(`cms-conformance: ${err.message}`);
    return err.exitCode;
  }
}

/**
 * Runs the suites with one engine (--only loading only the suite files it selects) and closes the engine;
 * a signal cancels the run, which then ends with the tests that ended.
 */
async function runSuites(
  config: RunConfig,
  pattern: RegExp | undefined,
  workers: number,
  shard: string | undefined,
  interrupt: RunInterrupt,
) {
  // Loaded with Vitest before the run's clock started (runOpen).
  const { SuiteEngine } = await loadEngine();
  const engine = await SuiteEngine.create({ workers, ...(shard ? { shard } : {}) });
  const forget = interrupt.onStop(() => engine.cancel());
  try {
    const files = pattern && !shard ? await onlyFiles(engine, pattern) : undefined;
    // Stopped while Vitest started: a pattern no test name matches runs none, and the run ends as it would.
    return await engine.run(config, interrupt.stopped ? /^(?!)/ : pattern, files);
  } finally {
    forget();
    await engine.close();
  }
}

/** What a run needs once its session is open. */
interface OpenRun {
  values: RunValues;
  connection: Omit<SessionOptions, 'faults'>;
  seed: number;
  seedSource: SeedSource;
  runs: number;
  workers: number;
  /** With --concurrency auto against a live target: the most requests in flight to try. */
  autoMax: number | undefined;
  shard: string | undefined;
  testNamePattern: RegExp | undefined;
  outDir: string;
  /** Where the conformance statement goes (--statement), if asked for. */
  statementDir: string | undefined;
  baseline: Results | undefined;
  interrupt: RunInterrupt;
}

/** Runs the suites in an open session and writes the reports (of the tests that ended, when a signal stopped it). */
async function runOpen(session: Session, run: OpenRun): Promise<number> {
  const { values, connection, seed, seedSource, runs, interrupt } = run;
  const { target } = session;
  let { workers } = run;
  if (run.autoMax !== undefined) {
    const sizing = await sizeTarget(session, connection, run.autoMax, interrupt);
    const cores = availableParallelism();
    workers = filesSideBySide(sizing, cores);
    const capped = workers < sizing.inFlight ? ` (answers within ${LOCAL_MS} ms: no more than this machine's ${cores} cores)` : '';
    // Stopped while sizing: its figures are of abandoned reads, and no suite runs.
    if (!interrupt.stopped)
      console.log(
        `cms-conformance: --concurrency auto: ${sizingText(sizing)}, so ${workers} suite file(s) side by side${capped}` +
          (values.concurrency === undefined ? '; --concurrency 1 for a fragile server' : ''),
      );
  }
  const config: RunConfig = {
    target,
    replayArgs: replayArgsOf(RUN_OPTIONS, values),
    seed,
    runs,
    strict: values.strict ?? false,
    timeoutMs: connection.timeoutMs,
    // With auto, one request at a time for each file (connection.concurrency is 1 for a live target then).
    concurrency: connection.concurrency,
    ...(connection.rate ? { rate: connection.rate / workers } : {}),
    maxRetries: connection.maxRetries,
    maxRetryWaitMs: connection.maxRetryWaitMs,
    maxBodyBytes: connection.maxBodyBytes,
    ...(values['replay-path'] ? { replayPath: values['replay-path'] } : {}),
    sandboxFolderId: session.sandboxFolderId,
  };
  console.log(
    `cms-conformance: running against ${target.baseUrl} (features: ${target.features.join(', ') || 'none'}), ` +
      `${seedText({ seed, seedSource })}, ${runs} runs per property`,
  );
  // Vitest is loaded once the session is open (a usage error, a bad target file or an unreachable target pays
  // nothing for it) and before the clock starts, which times the suites.
  if (!interrupt.stopped) await loadEngine();
  const startedAt = new Date();
  // Stopped while the session opened: the reports say so, with no test, and Vitest is never started.
  const suiteRun = interrupt.stopped
    ? { tests: [], runErrors: [] }
    : await runSuites(config, run.testNamePattern, workers, run.shard, interrupt);
  return reportRun(run, target, suiteRun, startedAt);
}

/** Writes and prints a run's reports (marked interrupted when a signal stopped it); gives the run's exit code. */
function reportRun(run: OpenRun, target: Target, suiteRun: { tests: TestResult[]; runErrors: string[] }, startedAt: Date): number {
  const { values, seed, seedSource, runs, interrupt } = run;
  const stopped = interrupt.stopped;
  const results: Results = {
    tool: { name: 'cms-conformance', version: SUITE_VERSION, catalogueDigest: catalogueDigest() },
    target: { baseUrl: target.baseUrl, features: target.features, embedded: !values.target },
    seed,
    seedSource,
    ...(values.label !== undefined ? { label: values.label } : {}),
    runs,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    ...(stopped ? { interrupted: { signal: stopped.signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM', at: stopped.at.toISOString() } } : {}),
    summary: summarize(suiteRun.tests),
    ...(suiteRun.runErrors.length ? { runErrors: suiteRun.runErrors } : {}),
    tests: suiteRun.tests,
  };
  const secrets = [...Object.values(target.auth.query), ...Object.values(target.auth.headers)];
  const done = finishRun(results, {
    outDir: run.outDir,
    secrets,
    ...(values.expectations ? { expectationsFile: values.expectations } : {}),
    ...(run.baseline ? { baseline: run.baseline } : {}),
  });
  printSummary(done.results, done.paths, done.lines);
  if (run.statementDir) {
    const written = writeStatement(run.statementDir, makeStatement(readFileSync(join(run.outDir, 'results.json'))));
    console.log(`  statement: ${written.map((p) => relative(process.cwd(), p) || p).join(', ')}`);
  }
  return interrupt.exitCode ?? done.exitCode;
}

export const command: Command = {
  summary: 'run the conformance suites against a target (default: the bundled reference server)',
  options: RUN_OPTIONS,
  about: [
    'Without --target, the run is against the bundled reference server started on 127.0.0.1 (a free port) with a random token, so it declares every feature, auth included; --fault, --variation, --refusal-style, --profile and --fixture configure that embedded server and do not go with --target (see `cms-conformance help serve`).',
    'A failed test prints its requirement, the exchange, the counterexample, a curl line and a replay line (`npx cms-conformance run --only ID --seed N ...`) that runs that case again.',
  ],
  exit: '0 no test failed, 1 a test failed, 2 usage or configuration error, 3 target unreachable, 130/143 stopped by SIGINT/SIGTERM (the reports of the tests that ended are written, marked interrupted, and the sandbox is removed; a second signal stops waiting for that).',
  parse(args) {
    const { values } = parseRunOptions(args);
    shardOption(values.shard);
    seedOption(values.seed);
  },
  async run(args) {
    const { values } = parseRunOptions(args);
    const baseline = checkReportInputs(values);
    const shard = shardOption(values.shard);
    const { seed, seedSource } = seedOption(values.seed);
    const runs = intOption('runs', values.runs, RUN_DEFAULTS.runs, 1);
    const connection = sessionOptionsOf(values);
    const workers = values.target ? 1 : 2;
    // Sizing is for a live target; the embedded server keeps its defaults.
    const concurrencyMax = intOption('concurrency-max', values['concurrency-max'], DEFAULT_CONCURRENCY_MAX, 1);
    const autoMax = autoConcurrency(values) && values.target ? concurrencyMax : undefined;
    // Beside where it is called, not inside the package: an installed suite's own folder is no place for reports.
    const defaultOut = resolve('reports/out');
    const only = (values.only ?? [])
      .flatMap((o) => o.split(','))
      .map((o) => o.trim())
      .filter(Boolean);
    // "--only ," names nothing: running the whole suite instead would surprise.
    if (values.only !== undefined && !only.length)
      throw new UsageError('--only needs at least one requirement id or family, e.g. --only PAG,OP-folder.load');
    const testNamePattern = onlyPattern(only);
    // A dry run only reads the folder (the last run's request counts); it makes nothing.
    if (values['dry-run']) return dryRun(loadTarget(connection), testNamePattern, resolve(values.out ?? defaultOut), runs);
    const outDir = outDirOption(values.out, defaultOut);
    const statementDir = values.statement !== undefined ? outDirOption(values.statement, values.statement) : undefined;
    const faults = await checkedNames<FaultName>(values.fault, async () => (await import('../server/faults.ts')).faultNamesOf);
    const variations = await checkedNames<VariationName>(
      values.variation,
      async () => (await import('../server/variations.ts')).variationNamesOf,
    );
    removeReports(outDir);
    const sandbox = sandboxName();
    // Installed before the session opens: a signal while the sandbox is being made waits for it, then removes it.
    const interrupt = new RunInterrupt(() =>
      values.target
        ? `the sandbox ${sandbox} may be left on the target: \`cms-conformance clean --target ${values.target} --name ${sandbox}\` removes it`
        : undefined,
    );
    const open: OpenRun = {
      values,
      connection,
      seed,
      seedSource,
      runs,
      workers,
      autoMax,
      shard,
      testNamePattern,
      outDir,
      statementDir,
      baseline,
      interrupt,
    };
    try {
      const session = await openOrExit({ ...connection, faults, variations, sandboxName: sandbox, interrupt });
      if (typeof session === 'number') return interrupt.exitCode ?? session;
      if (session instanceof SessionStopped) {
        console.error(`cms-conformance: ${session.message}`);
        return reportRun(open, session.target, { tests: [], runErrors: [] }, new Date());
      }
      try {
        return await runOpen(session, open);
      } finally {
        const removed = await session.close();
        if (interrupt.stopped && removed) console.error(`cms-conformance: the sandbox ${sandbox} is removed`);
      }
    } finally {
      interrupt.dispose();
    }
  },
};
