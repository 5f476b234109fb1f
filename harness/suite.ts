/**
 * How a conformance test is written: `conformance(requirement, title, body)`. The wrapper names the
 * test by its requirement, skips it when the target lacks the feature, hands the body a context
 * (transport, fixture, sandbox folders, seeded properties) and turns error findings into a failure
 * whose message says what is wrong and how to replay it.
 */
import fc from 'fast-check';
import { inject, test } from 'vitest';
import { DISPOSABLE_SUITES, isDisposableSuite } from '../cli/project.ts';
import { getOperation } from '../schemas/operations.ts';
import { getOpenChoice } from '../schemas/open-choices.ts';
import { getRequirement } from '../schemas/requirements.ts';
import { parameterKey, sentParameters } from '../schemas/parameters.ts';
import type { ParameterUse, ReportedFinding } from '../schemas/results.ts';
import type { Feature, TargetFixture } from '../schemas/target.ts';
import type { ResponseOf } from '../schemas/types.ts';
import { SetupError, problemOf, requestOf, stepFinding, type CallResult, type CallSpec, type OperationId } from './api.ts';
import { finding, reportedExchange, type Finding } from './checks.ts';
import { judge, severityIn } from './judge.ts';
import { checkExchange } from './registry.ts';
import { createFolder } from './sandbox.ts';
import type { RunConfig } from './config.ts';
import { curlCommand, runLine } from './replay.ts';
import { Transport, type Exchange, type RequestSpec } from './transport.ts';

/** What a conformance test leaves in vitest's task meta for the reporters. */
export interface TestMeta {
  requirement: string;
  operation?: string;
  findings: ReportedFinding[];
  /** Requests the test sent. */
  requests: number;
  /** Requests that got an answer. */
  answers: number;
  /** Answers with a JSON body. */
  jsonAnswers: number;
  /** Answers the judge validated against a schema (the operation's, or the envelope for a refusal). */
  validated: number;
  /** Attempts repeated after a 429 or 503 with Retry-After. */
  retries: number;
  /** Parameters sent with non-default values and those judged; absent when there were none. */
  parameters?: ParameterUse;
}

/** A test's outcome against one of the configurations it ran against (prove: one case's server each). */
export interface RunOutcome extends TestMeta {
  runId: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped, or why it failed without an error finding (a bug of the suite). */
  reason?: string;
  durationMs: number;
}

declare module 'vitest' {
  interface TaskMeta {
    cms?: TestMeta;
    /** A test run against configurations of its own (cmsRunByTest): its outcome against each, in order. */
    cmsRuns?: RunOutcome[];
  }
}

/** Each configuration this worker serves in the current suite run, with its transport (one keep-alive pool each), by run id. */
const contexts = new Map<string, { config: RunConfig; transport: Transport }>();
/** The run id of the test running now: the tests of a worker run one at a time. */
let currentRun = '';
/** The suite file of the test running now. */
let currentFile = '';
/**
 * The sandbox folder of each suite file, by run id and file (`runId|file`): see ConformanceContext.sandbox. Not a
 * PerRun: a shared value's making counts as reached by every test using it in a mutation run, and no test judges
 * the folder's creation.
 */
const fileSandboxes = new Map<string, Promise<number>>();

/**
 * The run configuration of a run whose target lives in this very worker (the mutation run: Stryker
 * switches mutants on in the worker, so the reference server must run there), set by its setup file.
 */
let inWorker: RunConfig | undefined;

/** Makes the suites of this worker run against a target the worker started itself (scripts/mutation/in-worker.ts). */
export function runInWorker(config: RunConfig | undefined): void {
  inWorker = config;
}

/** The run configuration of the current suite run: the one the engine provides, else the worker's own. */
const currentConfig = (): RunConfig | undefined => inject('cmsRun') ?? inWorker;

/** The run ids the current suite run provides: a context of any other run is done with. */
function liveRuns(): Set<string | undefined> {
  return new Set([currentConfig()?.runId, ...Object.values(inject('cmsRunByTest') ?? {}).flatMap((list) => list.map((c) => c.runId))]);
}

/**
 * The transport of a run configuration, which becomes the current one (whose `PerRun` values tests
 * get). Workers outlive a suite file and a suite run (the suites run unisolated), and `prove` runs
 * all its cases in one run, each test against the server of every case that needs it, so each
 * configuration keeps its transport and its `PerRun` values.
 */
export function runContext(config: RunConfig): { config: RunConfig; transport: Transport } {
  const runId = config.runId ?? '';
  let context = contexts.get(runId);
  if (!context) {
    const live = liveRuns();
    for (const [id, old] of contexts) {
      if (live.has(id)) continue;
      void old.transport.close();
      contexts.delete(id);
    }
    context = {
      config,
      transport: new Transport(config.target, {
        timeoutMs: config.timeoutMs,
        concurrency: config.concurrency,
        ...(config.rate ? { rate: config.rate } : {}),
        maxRetries: config.maxRetries,
        maxRetryWaitMs: config.maxRetryWaitMs,
        ...(config.maxBodyBytes ? { maxBodyBytes: config.maxBodyBytes } : {}),
      }),
    };
    contexts.set(runId, context);
  }
  currentRun = runId;
  return context;
}

/**
 * How values the tests share are made and used. Stryker runs a mutant only against the tests that reached
 * its code, and a test that judges answers an earlier test fetched reaches none of the code that made
 * them: the mutation run's setup (scripts/mutation/in-worker.ts) installs hooks that count that code as
 * reached by every test that uses the value. Elsewhere a value is just made.
 */
export interface Sharing {
  /** Makes a value the current test shares with later ones. */
  make<T>(make: () => T): T;
  /** Notes that the current test uses a shared value (made by it or by an earlier test). */
  use(value: unknown): void;
}

let sharing: Sharing | undefined;

/** Installs the hooks through which shared values are made and used, or removes them (undefined). */
export function shareThrough(hooks: Sharing | undefined): void {
  sharing = hooks;
}

/** Makes a value the current test shares with later tests of its file (see Sharing). */
export function makeShared<T>(make: () => T): T {
  return sharing ? sharing.make(make) : make();
}

/** Notes that the current test uses a shared value; returns it. */
export function useShared<T>(value: T): T {
  sharing?.use(value);
  return value;
}

/**
 * A value the tests of one suite file share within one run configuration (a reading of the fixture, a
 * sample of answers): made on first use, made again for the next. `clear` drops it, so that a
 * failed reading is retried. Per file, not per worker: the tests of a file run in their order in one
 * worker, so the same test makes the reading in every run and its requests and findings are always
 * that test's; which files share a worker changes from run to run.
 */
export class PerRun<T> {
  private readonly values = new Map<string, Map<string, T>>();

  /** The value of the current test's configuration and file, made by `make` if it has none yet (the test's wrapper has set them). */
  get(make: () => T): T {
    let run = this.values.get(currentRun);
    if (run === undefined) {
      for (const id of this.values.keys()) if (!contexts.has(id)) this.values.delete(id);
      run = new Map();
      this.values.set(currentRun, run);
    }
    let value = run.get(currentFile);
    if (value === undefined) {
      value = makeShared(make);
      run.set(currentFile, value);
    } else useShared(value);
    return value;
  }

  /** As `get`, for a value made asynchronously: one whose making fails is dropped, so the next test makes it again. */
  retrying<U>(this: PerRun<Promise<U>>, make: () => Promise<U>): Promise<U> {
    const pending = this.get(make);
    pending.catch(() => this.clear());
    return pending;
  }

  /** Drops the value of the current configuration and file. */
  clear(): void {
    this.values.get(currentRun)?.delete(currentFile);
  }
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * A `novel` for t.property over a read-only world: a value already run, or one whose `key` (what the
 * case sends, when several values send the same) an earlier value had, proves nothing the second time
 * (a small input space, drawn twenty times, repeats itself). Not for properties that carry state from
 * run to run, where the same value meets another state.
 */
export function unseen<T>(key: (value: T) => unknown = (value) => value): (value: T) => boolean {
  return novelClasses((value: T) => [fc.stringify(key(value))]);
}

/**
 * A `novel` for t.property by input classes: a value is sent when one of its classes (what `classesOf` names)
 * is new to the test, so every class is explored once and a value of explored classes only passes unsent.
 */
export function novelClasses<T>(classesOf: (value: T) => Iterable<string>): (value: T) => boolean {
  const seen = new Set<string>();
  return (value) => {
    let fresh = false;
    for (const c of classesOf(value)) {
      if (seen.has(c)) continue;
      seen.add(c);
      fresh = true;
    }
    return fresh;
  };
}

/** The context a conformance test body works with. */
export class ConformanceContext {
  readonly findings: ReportedFinding[] = [];
  /** Answers the judge validated in this test. */
  validated = 0;
  /** The test's own seed, derived from the run seed and the test id, so tests differ yet replay exactly. */
  readonly seed: number;
  private currentPath: string | undefined;
  private currentCounterexample: string | undefined;
  /** While a property runs one case, the judge's findings join that case's (so a failure shrinks). */
  private caseFindings: Finding[] | undefined;
  /** Names handed out by uniqueName. */
  private names = 0;
  /** Keys of the judge's findings recorded so far. */
  private readonly seen = new Set<string>();
  /** Requirements whose registered rules judged at least one answer of this test. */
  readonly ruled = new Set<string>();
  /** Parameters whose effect this test judged, as `operation:parameter` (see `judged`). */
  readonly judgedParameters = new Set<string>();
  /** Requests that sent a parameter with a non-default value, per `operation:parameter`. */
  readonly sentParameters = new Map<string, number>();

  constructor(
    readonly id: string,
    readonly requirement: string,
    readonly config: RunConfig,
    readonly transport: Transport,
  ) {
    this.seed = (config.seed ^ fnv1a(id)) | 0;
  }

  /** Ids of the target's fixture data. */
  get fixture(): TargetFixture {
    return this.config.target.fixture;
  }

  /**
   * Sends one request and has its answer judged: the one path of every request a test sends. The
   * operation is found from the method, path and body form unless the caller names it.
   */
  async send(spec: RequestSpec, operation?: OperationId): Promise<Exchange> {
    const exchange = await this.transport.send(spec);
    const judged = judge(exchange, { ...(operation ? { operation } : {}), strict: this.config.strict });
    if (judged.validated) this.validated++;
    const own: Finding[] = judged.findings.map((f) => ({
      ...f,
      key: f.key ?? `${f.requirement}|${f.check}|${f.message}`,
      severity: severityIn(f, this.requirement, judged.operation?.id),
    }));
    if (judged.operation) {
      const op = judged.operation.id;
      for (const name of sentParameters(exchange, op)) {
        const key = parameterKey(op, name);
        this.sentParameters.set(key, (this.sentParameters.get(key) ?? 0) + 1);
      }
      // The registry's rules, as the proxy applies them: a rule's finding fails the tests of its requirement
      // and is a warning elsewhere, so one deviation fails the tests that name it, not every test that meets it.
      const ruled = checkExchange(exchange, judged.operation.id);
      for (const r of ruled.checked) this.ruled.add(r);
      // A rule that could show a non-default value's effect judged it for the tests of its requirement: elsewhere its
      // finding is a warning, which fails nothing.
      for (const p of ruled.parameters) if (p.requirement === this.requirement) this.judgedParameters.add(p.parameter);
      for (const f of ruled.findings) own.push(f.requirement === this.requirement ? f : { ...f, severity: 'warning' });
    }
    if (own.length) {
      // Inside a property case the findings decide the case (and its shrinking); they are recorded with the case's.
      if (this.caseFindings) this.caseFindings.push(...own);
      else this.record(own);
    }
    return exchange;
  }

  /** Sends an operation's request and returns the outcome without relying on it: the test decides what a refusal means. */
  async try<K extends OperationId>(operationId: K, spec: CallSpec = {}): Promise<CallResult<ResponseOf[K]>> {
    const exchange = await this.send(requestOf(operationId, spec), operationId);
    const problem = problemOf(exchange);
    return problem ? { exchange, body: undefined, problem } : { exchange, body: exchange.response!.json as ResponseOf[K] };
  }

  /**
   * Calls an operation the test relies on, returning the typed body. When the call is refused or
   * unanswered, a `step` finding says the test could not judge, and the body is undefined.
   */
  async call<K extends OperationId>(operationId: K, spec: CallSpec = {}): Promise<CallResult<ResponseOf[K]>> {
    const result = await this.try(operationId, spec);
    if (result.problem) this.record([stepFinding(this.requirement, operationId, result.exchange, result.problem)]);
    return result;
  }

  /** Like call, but a failed step ends the test (for setup the rest of the test cannot do without). */
  async must<K extends OperationId>(operationId: K, spec: CallSpec = {}): Promise<ResponseOf[K]> {
    const result = await this.try(operationId, spec);
    if (!result.body)
      throw new SetupError(stepFinding(this.requirement, operationId, result.exchange, result.problem ?? '').message, result.exchange);
    return result.body;
  }

  /** The finding of a setup error: the step that failed, with its exchange. */
  setupFinding(err: SetupError): Finding {
    if (err.choice) {
      if (!getOpenChoice(err.choice)) throw new Error(`open choice ${err.choice} is not in schemas/open-choices.json`);
      const message = `nothing to judge: ${err.message} (open choice ${err.choice})`;
      return {
        requirement: this.requirement,
        check: 'fixture',
        severity: 'warning',
        message,
        ...(err.exchange ? { exchange: err.exchange } : {}),
      };
    }
    return {
      requirement: this.requirement,
      check: 'step',
      severity: err.unjudged ? 'warning' : 'error',
      message: err.message,
      ...(err.exchange ? { exchange: err.exchange } : {}),
    };
  }

  /**
   * A name no other object of the run's sandbox has: the stem, the test's id hashed and a counter.
   * Derived, not random, so the same run sends the same requests and gets the same verdict.
   */
  uniqueName(stem: string): string {
    return `${stem}-${fnv1a(this.id).toString(36)}${(this.names++).toString(36)}`;
  }

  /**
   * The folder of this test's suite file inside the run's sandbox, made by the file's first test that
   * asks: files that run side by side (`--concurrency auto`) never list one another's objects.
   */
  sandbox(): Promise<number> {
    const key = `${currentRun}|${currentFile}`;
    let folder = fileSandboxes.get(key);
    if (!folder) {
      for (const k of fileSandboxes.keys()) if (!contexts.has(k.slice(0, k.indexOf('|')))) fileSandboxes.delete(k);
      const name = currentFile
        .split(/[\\/]/)
        .slice(-2)
        .join('-')
        .replace(/\.suite\.ts$/, '');
      folder = createFolder((spec) => this.send(spec, 'folder.create'), this.config.sandboxFolderId, name).then((f) => f.id!);
      // A failure ends this test with a step finding; the file's next test tries again.
      folder.catch(() => fileSandboxes.delete(key));
      fileSandboxes.set(key, folder);
    }
    return folder;
  }

  /** Creates a fresh folder of this test inside its file's sandbox and returns its id (a failure ends the test with a step finding). */
  async folder(name = this.requirement.toLowerCase()): Promise<number> {
    const folder = await createFolder((spec) => this.send(spec, 'folder.create'), await this.sandbox(), this.uniqueName(name));
    return folder.id!;
  }

  /**
   * Says that the target took an answer to an open choice (schemas/open-choices.json) that leaves a part of this
   * test nothing to judge: a note, since the contract allows the answer; the rest of the test judges on. An id
   * the catalogue does not hold is a bug of the suite, not of the target.
   */
  openChoice(choice: string, message: string, exchange?: Exchange): void {
    if (!getOpenChoice(choice)) throw new Error(`open choice ${choice} is not in schemas/open-choices.json`);
    this.record([finding(this.requirement, 'open-choice', `${message} (open choice ${choice})`, exchange, 'note')]);
  }

  /**
   * Says that a part of this test judged nothing, and why (the target's data lacks what it needs): a warning, so that
   * no part passes silently; the test's other parts judge on, and the test is not counted as having nothing to judge.
   */
  notJudged(part: string, why: string, exchange?: Exchange): void {
    this.record([finding(this.requirement, 'unjudged', `${part} not judged: ${why}`, exchange, 'warning')]);
  }

  /**
   * Says that the target's own data gave this test nothing to judge, naming what it lacks: a warning
   * (check `fixture`), for the requirement is untested on this target, not broken. Without it a test
   * that found no page or no used file to look at would pass, claiming a check it never made.
   */
  nothingToJudge(lacking: string, exchange?: Exchange): void {
    this.record([
      { requirement: this.requirement, check: 'fixture', severity: 'warning', message: `nothing to judge: ${lacking}`, exchange },
    ]);
  }

  /**
   * Fails the test when the registry's rules of `requirement` judged none of its answers: a test that leaves
   * a rule to the registry must still have sent what the rule can see, or it would pass having judged nothing.
   */
  expectRuled(requirement: string = this.requirement): void {
    if (this.ruled.has(requirement)) return;
    this.record([
      finding(
        this.requirement,
        'registry',
        `no answer this test received could show the registered rules of ${requirement}: the test judged nothing of them`,
      ),
    ]);
  }

  /**
   * Says that this test judged the effect of these parameters of an operation (not only that they were
   * accepted): called where the test compares answers that differ by the parameter's value. A parameter
   * the test never sent with a non-default value is not counted.
   */
  judged(operation: OperationId, ...parameters: string[]): void {
    for (const p of parameters) this.judgedParameters.add(`${operation}:${p}`);
  }

  /** Records findings (errors fail the test at its end, warnings are reported only); returns true when there was no error. */
  record(findings: Finding[]): boolean {
    for (const f of findings) {
      // The judge's findings carry a key: one deviation is reported once per test, with its first exchange.
      if (f.key !== undefined) {
        if (this.seen.has(f.key)) continue;
        this.seen.add(f.key);
      }
      this.findings.push({
        requirement: f.requirement,
        check: f.check,
        severity: f.severity,
        message: f.message,
        // The reports group findings by it, so 200 answers with one unknown member read as one cause.
        ...(f.key !== undefined ? { key: f.key } : {}),
        exchange: f.exchange && reportedExchange(f.exchange),
        curl: f.exchange && curlCommand(f.exchange, this.config.target.auth),
        replay: runLine({ requirement: this.requirement, seed: this.config.seed, path: this.currentPath, args: this.config.replayArgs }),
        ...(this.currentCounterexample ? { counterexample: this.currentCounterexample, path: this.currentPath } : {}),
      });
    }
    return !findings.some((f) => f.severity === 'error');
  }

  /**
   * Runs a property with the test's seed: `check` sends requests for one generated value and returns
   * its findings. A failing case is shrunk; the findings of the smallest failing case are recorded.
   * `cover` lists cases that run first under every seed, before the generated ones (which stay those
   * of the seed): the cases that tell a broken server from a correct one, where a few random draws may
   * miss them (prove under seeds other than 1 found tests that passed a planted fault of their
   * own, SRT-05 among them, which had not drawn niceUrl).
   * `novel` says whether a generated value explores something the earlier ones did not: one that does
   * not passes unsent (its requests would prove nothing more), until a case fails; from then on, and
   * in a replay, every value runs, so that shrinking and the replay line stay those of fast-check.
   */
  async property<T>(
    arbitrary: fc.Arbitrary<T>,
    check: (value: T) => Promise<Finding[]>,
    options: { runs?: number; cover?: readonly T[]; novel?: (value: T) => boolean } = {},
  ): Promise<void> {
    const cover = options.cover ?? [];
    let lastFailure: Finding[] = [];
    const novel = this.config.replayPath ? undefined : options.novel;
    let failing = false;
    const result = await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        if (novel && !failing && !novel(value)) return true;
        this.caseFindings = [];
        let found: Finding[];
        try {
          found = [...(await check(value)), ...this.caseFindings];
        } catch (err) {
          if (!(err instanceof SetupError)) {
            failing = true;
            throw err;
          }
          found = [...this.caseFindings, this.setupFinding(err)];
        } finally {
          this.caseFindings = undefined;
        }
        const failed = found.some((f) => f.severity === 'error');
        failing ||= failed;
        if (failed) lastFailure = found;
        // A passing case's warnings (unknown members) are still the test's.
        else this.record(found);
        return !failed;
      }),
      {
        seed: this.seed,
        // fast-check counts its examples among the runs: they come on top of the runs asked for.
        numRuns: (options.runs ?? this.config.runs) + cover.length,
        examples: cover.map((value): [T] => [value]),
        ...(this.config.replayPath ? { path: this.config.replayPath } : {}),
        // Shrinking re-sends requests; past this budget the smallest case found so far is reported.
        interruptAfterTimeLimit: 60_000,
      },
    );
    if (result.failed) {
      this.currentCounterexample = fc.stringify(result.counterexample?.[0]);
      // Command sequences replay from their own metadata, which a path alone cannot carry: the seed replays them.
      this.currentPath = /replayPath=/.test(this.currentCounterexample) ? undefined : (result.counterexamplePath ?? undefined);
      if (lastFailure.length) this.record(lastFailure);
      else
        this.record([
          {
            requirement: this.requirement,
            check: 'property',
            severity: 'error',
            message: `property failed: ${String(result.errorInstance ?? 'no findings recorded')}`,
          },
        ]);
      this.currentPath = undefined;
      this.currentCounterexample = undefined;
    }
  }
}

function describeFailure(findings: ReportedFinding[]): string {
  return findings
    .filter((f) => f.severity === 'error')
    .slice(0, 5)
    .map((f) => {
      const ex = f.exchange;
      const line = ex ? `\n    ${ex.request.method} ${ex.request.url} -> ${ex.response ? ex.response.status : ex.error?.code}` : '';
      const example = f.counterexample ? `\n    counterexample: ${f.counterexample}` : '';
      const curl = f.curl ? `\n    curl: ${f.curl}` : '';
      return `[${f.requirement}] ${f.check}: ${f.message}${line}${example}${curl}\n    replay: ${f.replay}`;
    })
    .join('\n');
}

/** Why a test that a stopped run cut short has no result. */
const INTERRUPTED = 'the run was interrupted before this test ended';

/** True when a test's signal was aborted because the whole run was cancelled (not by the test's own timeout). */
function runStopped(signal: AbortSignal): boolean {
  return signal.aborted && (signal.reason as Error | undefined)?.name === 'TestRunAbortError';
}

/**
 * A run told to stop (SIGINT, SIGTERM) cancels Vitest's run, which aborts a running test's signal: the
 * test's requests end at once, so the run can remove its sandbox and report without waiting for the test.
 * The signal aborts on a test's own timeout too, which must not stop the transport later tests share.
 */
function stopWithRun(signal: AbortSignal, configs: readonly (RunConfig | undefined)[]): void {
  signal.addEventListener('abort', () => {
    if (!runStopped(signal)) return;
    for (const config of configs) if (config) runContext(config).transport.interrupt();
  });
}

/** Options of one conformance test. */
export interface ConformanceOptions {
  /** The operation the test exercises, for the operation matrix of the reports. */
  operation?: string;
  /** A feature the test needs beyond its requirement's (e.g. pages for the page part of SRT-03): skipped without it. */
  feature?: Feature;
  /**
   * The fixture objects the test changes, where no sandbox object can show what it judges: it runs only on a target
   * declaring `disposable`, and lives in suites/disposable/, which runs after every other suite.
   */
  changesFixture?: string;
  timeout?: number;
}

/**
 * Declares one conformance test. Its title is `<requirement> <title>` and is its stable id: never put
 * seeds or generated values in it. The requirement must be in the catalogue (closed: a typo throws).
 */
export function conformance(
  requirement: string,
  title: string,
  body: (t: ConformanceContext) => Promise<void>,
  options: ConformanceOptions = {},
): void {
  const req = getRequirement(requirement);
  const operation = options.operation ?? req.operation ?? undefined;
  const feature = options.feature ?? req.feature ?? (operation ? getOperation(operation).feature : null);
  const id = `${requirement} ${title}`;

  /** Runs the body against one configuration, filling `meta`; says why it was skipped, or what it threw that is not a finding. */
  const against = async (config: RunConfig, meta: TestMeta): Promise<{ skipped?: string; thrown?: unknown }> => {
    const { transport } = runContext(config);
    if (feature && !config.target.features.includes(feature as never))
      return { skipped: `the target does not declare the feature "${feature}"` };
    if (options.changesFixture !== undefined && !config.target.features.includes('disposable'))
      return {
        skipped: `it changes fixture objects (${options.changesFixture}), which the suite does only on a target that declares the feature "disposable"`,
      };
    const t = new ConformanceContext(id, requirement, config, transport);
    // Tests of one worker run one at a time, so the transport's counts over the test are the test's own.
    const before = { ...transport.counts };
    try {
      await body(t);
      return {};
    } catch (err) {
      // A failed step becomes the test's finding; anything else is a bug of the suite and fails as itself.
      if (!(err instanceof SetupError)) return { thrown: err };
      // A step that failed through t.call is already a finding; the first failed step says why the test stopped.
      if (!t.findings.some((f) => f.check === 'step')) t.record([t.setupFinding(err)]);
      return {};
    } finally {
      const after = transport.counts;
      Object.assign(meta, {
        requests: after.requests - before.requests,
        answers: after.answers - before.answers,
        jsonAnswers: after.json - before.json,
        retries: after.retries - before.retries,
        validated: t.validated,
      });
      // A claim on a parameter the test never sent with a non-default value compared nothing by it: left out.
      const judgedParameters = [...t.judgedParameters].filter((k) => t.sentParameters.has(k)).sort();
      if (t.sentParameters.size)
        meta.parameters = {
          sent: Object.fromEntries([...t.sentParameters].sort(([a], [b]) => a.localeCompare(b))),
          judged: judgedParameters,
        };
      // "A SHOULD failure is reported as a warning, never fails a run by itself": the probe's own findings.
      // What the judge found (a 5xx, ENV-08; a malformed success body) is wrong whatever the probe, and keeps its severity.
      meta.findings =
        req.level === 'SHOULD'
          ? t.findings.map((f) => (f.requirement === requirement ? { ...f, severity: 'warning' as const } : f))
          : t.findings;
    }
  };
  const freshMeta = (): TestMeta => ({
    requirement,
    ...(operation ? { operation } : {}),
    findings: [],
    requests: 0,
    answers: 0,
    jsonAnswers: 0,
    validated: 0,
    retries: 0,
  });

  // Read as the suite file loads, which it does again for every suite run: the configurations of this run.
  const own = inject('cmsRunByTest')?.[id];
  // A test run against several configurations (prove) gets the time of one run against each: sharing one
  // run's time, a test that takes a fifth of it would time out against six cases' servers.
  test(id, { timeout: (options.timeout ?? 120_000) * Math.max(1, own?.length ?? 1) }, async (ctx) => {
    currentFile = ctx.task.file.filepath;
    if (options.changesFixture !== undefined && !isDisposableSuite(currentFile))
      throw new Error(`${id}: a test that changes fixture objects belongs in ${DISPOSABLE_SUITES}, which runs after every other suite`);
    stopWithRun(ctx.signal, own ?? [currentConfig()]);
    if (own) {
      // One outcome per configuration, reported by the collector as a result of its own; the test itself
      // fails when one of them failed, so that Vitest's verdict agrees.
      const runs: RunOutcome[] = [];
      ctx.task.meta.cmsRuns = runs;
      for (const config of own) {
        const meta = freshMeta();
        const started = performance.now();
        const { skipped, thrown } = await against(config, meta);
        const failed = thrown !== undefined || meta.findings.some((f) => f.severity === 'error');
        const reason = skipped ?? (thrown === undefined ? undefined : thrown instanceof Error ? thrown.message : String(thrown));
        runs.push({
          ...meta,
          runId: config.runId ?? '',
          status: skipped ? 'skipped' : failed ? 'failed' : 'passed',
          ...(reason ? { reason } : {}),
          durationMs: Math.round(performance.now() - started),
        });
      }
      const failed = runs.filter((r) => r.status === 'failed').length;
      if (failed) {
        const error = new Error(`failed against ${failed} of ${runs.length} configurations`);
        error.stack = error.message; // as below: the findings, per configuration, are in cmsRuns
        throw error;
      }
      return;
    }
    const config = currentConfig();
    if (!config) throw new Error('conformance suites run through `cms-conformance run`, which provides the target');
    const meta = freshMeta();
    ctx.task.meta.cms = meta;
    const { skipped, thrown } = await against(config, meta);
    // Stopped half-way, the test judged nothing: it is left out of the results as a test that never ran.
    if (runStopped(ctx.signal)) ctx.skip(INTERRUPTED);
    if (skipped) {
      ctx.skip(skipped);
      return;
    }
    if (thrown !== undefined) throw thrown;
    const errors = meta.findings.filter((f) => f.severity === 'error');
    if (errors.length) {
      const error = new Error(`${errors.length} finding${errors.length > 1 ? 's' : ''}:\n${describeFailure(errors)}`);
      error.stack = error.message; // the stack of the suite is noise to a reader of a finding
      throw error;
    }
  });
}
