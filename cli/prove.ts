/**
 * `cms-conformance prove`: proves the suite on the reference server. Every planted fault must be
 * found (a finding on one of the requirement ids it breaks), every harmless variation and the clean
 * server must pass. One Vitest instance serves all the runs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_DEFAULTS, type RunConfig } from '../harness/config.ts';
import type { Results, TestResult } from '../schemas/results.ts';
import { ReportInputError, hadNothingToJudge, loadResults } from '../reports/results.ts';
import { getOpenChoice } from '../schemas/open-choices.ts';
import { getRequirement } from '../schemas/requirements.ts';
import { faults as faultCatalogue } from '../server/faults.ts';
import { getProfile, type ProfileDef } from '../server/profiles.ts';
import type { FaultDef } from '../server/fault-def.ts';
import type { FaultName } from '../server/faults.ts';
import { combinationOf, variations as variationCatalogue, type VariationDef } from '../server/variations.ts';
import { UsageError, intOption, parseOptions, seedValue, type Command, type OptionTable } from './args.ts';
import { declaredTests, suiteFilesOf } from './collect.ts';
import type { SuiteEngine } from './engine.ts';
import type { DeclaredTest } from './project.ts';
import { mergeIntoProveFile, type ProofCase } from './prove-file.ts';
import { judgedParameters, proveParameters } from './prove-parameters.ts';
import { loadEngine } from './load-engine.ts';
import { projectRoot } from './project.ts';
import { onlyPattern } from './run.ts';
import { profileOption } from './serve.ts';
import { SessionError, openSession, type Session, type SessionOptions } from './session.ts';

const OPTIONS = {
  fault: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    byDefault: 'every fault',
    description: 'prove only this planted fault (names: `serve --list-faults`)',
    example: '--fault post-answers-200 --no-variations',
  },
  variation: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    byDefault: 'every variation',
    description: 'prove only this variation (names: `serve --list-variations`)',
    example: '--variation usage-files-only --no-faults',
  },
  seeds: {
    type: 'string',
    value: 'N|N,N,...',
    byDefault: 'none',
    description: 'also run the clean server and the combined variations under seeds 1 to N, or under the listed seeds: each must pass',
    example: '--no-faults --seeds 5',
  },
  only: {
    type: 'string',
    multiple: true,
    value: 'IDS',
    byDefault: 'every test',
    description: 'requirement ids or prefixes, comma-separated, as for run: every case runs only their tests',
    example: '--only PAG,SRT',
  },
  'choice-tests-only': {
    type: 'boolean',
    description:
      'run each variation alone on the tests its open choice names (schemas/open-choices.json) instead of the whole suite (the combination still runs it all)',
    example: '--no-faults --choice-tests-only',
  },
  'combined-only': {
    type: 'boolean',
    description: 'run the combination of the variations alone, no variation by itself',
    example: '--no-faults --combined-only',
  },
  seed: { type: 'string', value: 'N', byDefault: '1', description: 'the seed of every case', example: '--seed 7' },
  runs: { type: 'string', value: 'N', byDefault: '10', description: 'fast-check runs per property', example: '--runs 20' },
  json: {
    type: 'string',
    value: 'FILE',
    byDefault: 'merged into reports/out/prove.json',
    description:
      'write every case with its timings to FILE; without it they go into reports/out/prove.json, where each replaces the earlier result of the same case and the others stay (`requirements --coverage` reads that file)',
    example: '--fault post-answers-200 --json proof.json',
  },
  'no-faults': { type: 'boolean', description: 'prove no planted fault', example: '--no-faults' },
  'no-variations': { type: 'boolean', description: 'prove no variation', example: '--no-variations' },
  profile: {
    type: 'string',
    value: 'default|field',
    byDefault: 'default',
    description: 'prove the suite on the reference server of that profile (`help serve`)',
    example: '--profile field',
  },
  parameters: {
    type: 'boolean',
    description: 'prove the parameter claims of a run instead of faults and variations; goes only with --parameter, --results and --json',
    example: '--parameters',
  },
  parameter: {
    type: 'string',
    multiple: true,
    value: 'OPERATION:NAME',
    byDefault: 'every parameter the run judged',
    description: 'with --parameters: prove only the claims on this parameter',
    example: '--parameters --parameter folder.getFolders:maxItems',
  },
  results: {
    type: 'string',
    value: 'FILE',
    byDefault: 'reports/out/results.json',
    description: 'with --parameters: the run (of the default suite) whose claims are proven',
    example: '--parameters --results reports/out/results.json',
  },
} as const satisfies OptionTable;

type ReportedFinding = TestResult['findings'][number];

/**
 * What a profile's clean run already fails: a finding of a test in it is no sign of a fault. Keyed by
 * test, requirement, check and message without its numbers.
 */
type Baseline = ReadonlySet<string>;

// Digits go: ids and counts differ between a clean run and a faulty one where the deviation is the same.
const baselineKey = (t: TestResult, f: ReportedFinding) => `${t.id}|${f.requirement}|${f.check}|${f.message.replace(/\d+/g, '#')}`;

/** The errors of a run the baseline does not explain (all of them without a baseline). */
function newErrors(t: TestResult, baseline?: Baseline): ReportedFinding[] {
  return t.findings.filter((f) => f.severity === 'error' && !baseline?.has(baselineKey(t, f)));
}

/** The finding that shows a test found a fault: an error, or a warning of its own SHOULD requirement (a SHOULD never fails a test). */
function ownFinding(t: TestResult, baseline?: Baseline): ReportedFinding | undefined {
  const should = getRequirement(t.requirement).level === 'SHOULD';
  return (
    newErrors(t, baseline)[0] ??
    (should ? t.findings.find((f) => f.requirement === t.requirement && !baseline?.has(baselineKey(t, f))) : undefined)
  );
}

/**
 * What proves a fault (issue 15: its own tests, not a neighbour): per id, the first test carrying it
 * that failed or warned on its own SHOULD requirement, and all such tests (killed); the detail quotes
 * the first of them. Without one, the detail names a finding on one of the ids elsewhere, if any, to
 * show how close it came.
 */
function proofOf(
  tests: readonly TestResult[],
  ids: readonly string[],
  baseline?: Baseline,
): { provedBy: Record<string, string>; killed: string[]; detail?: string } {
  const proof = (t: TestResult, f: ReportedFinding | undefined) =>
    `${t.id}: ${f ? `[${f.requirement}] ${f.check}: ${f.message}` : (t.reason ?? 'failed')}`.slice(0, 300);
  // A test that failed without an error finding threw: that is a kill too, unless a baseline run had failures of its own.
  const threw = (x: TestResult) => !baseline && x.status === 'failed' && !x.findings.some((f) => f.severity === 'error');
  const killers = tests.filter((x) => ids.includes(x.requirement) && (ownFinding(x, baseline) || threw(x)));
  const killed = killers.map((t) => t.id);
  const provedBy: Record<string, string> = {};
  let detail: string | undefined;
  for (const id of ids) {
    const t = killers.find((x) => x.requirement === id);
    if (!t) continue;
    provedBy[id] = t.id;
    detail ??= proof(t, ownFinding(t, baseline));
  }
  if (detail) return { provedBy, killed, detail };
  const should = (id: string) => getRequirement(id).level === 'SHOULD';
  for (const t of tests) {
    const f = t.findings.find(
      (x) => ids.includes(x.requirement) && (x.severity === 'error' || should(x.requirement)) && !baseline?.has(baselineKey(t, x)),
    );
    if (f) return { provedBy, killed, detail: `only a neighbour found it: ${proof(t, f)}` };
  }
  return { provedBy, killed };
}

/** Matches the tests of exactly these requirement ids (no prefix matches, unlike --only). */
function exactPattern(ids: readonly string[]): RegExp {
  return new RegExp(`^(?:${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}) `);
}

/** Why a run that must pass did not (empty: it passed); errors the baseline explains do not count. */
function failures(run: { tests: readonly TestResult[]; runErrors: readonly string[] }, baseline?: Baseline): string {
  if (run.runErrors.length) return `run error: ${run.runErrors[0]}`;
  // A failed test without findings failed in its body (a thrown error): no baseline explains that.
  const failed = run.tests.filter((t) => t.status === 'failed' && (newErrors(t, baseline).length || !t.findings.length));
  const first = failed[0];
  if (!first) return '';
  const f = newErrors(first, baseline)[0];
  return `${failed.length} failed, first ${first.id}: ${f ? `[${f.requirement}] ${f.message}` : (first.reason ?? '')}`.slice(0, 300);
}

/** The tests a variation's open choice names: test ids exactly, requirement ids and prefixes as --only takes them. */
function choiceTests(v: VariationDef): RegExp {
  const named = getOpenChoice(v.choice)?.tests ?? [];
  if (!named.length) throw new UsageError(`variation ${v.name}: its open choice ${v.choice} names no tests`);
  const exact = named.filter((n) => n.includes(' ')).map((n) => `${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const byId = onlyPattern(named.filter((n) => !n.includes(' ')))?.source.replace(/^\^/, '');
  return new RegExp(`^(?:${[...exact, ...(byId ? [byId] : [])].join('|')})`);
}

/** The name of the case that plays every variation that combines (at prove's seed; `... seed N` under the others). */
export const COMBINED = 'combined variations';

/** What to prove: the faults and variations (catalogue entries), the seeds, seed and runs. */
export interface ProveOptions {
  faults: readonly FaultDef<FaultName>[];
  /** Each runs the whole suite alone; with two or more, all that combine run it together too. */
  variations: readonly VariationDef[];
  /** Seeds under which the clean server (and the combined variations, where there are variations) run the whole suite. */
  seeds: readonly number[];
  /** Narrows every case to these requirement ids or prefixes (run's --only); absent: no narrowing. */
  only?: readonly string[];
  /**
   * Each variation alone runs only the tests its open choice names (schemas/open-choices.json), not the whole suite;
   * the combination of all still runs the whole suite. For `npm test`; a proof before a release runs without it.
   */
  choiceTestsOnly?: boolean;
  /** Only the combination of the variations runs (under the seed and every one of `seeds`), no variation alone. */
  combinedOnly?: boolean;
  seed: number;
  runs: number;
  /** The reference server's profile (server/profiles.ts); default: default. */
  profile?: string;
  /** Receives one line per case as it ends. */
  log?: (line: string) => void;
}

/** A proof case before it runs: what to switch on, which tests, in which suite files. */
interface Planned {
  kind: ProofCase['kind'];
  name: string;
  ids: string[];
  seed: number;
  session: Omit<SessionOptions, 'timeoutMs' | 'concurrency'>;
  /** Absent: the whole suite. */
  pattern?: RegExp;
  /** The ids of the tests the pattern selects (all without one), and the suite files that hold them. */
  tests: string[];
  files: string[];
}

/** An opened case: its plan, its session and the run configuration its tests get. */
interface Opened {
  p: Planned;
  session: Session;
  config: RunConfig;
}

/** One proof: the suite engine, the declared tests, the profile, and the cases judged so far. */
class Proof {
  readonly cases: ProofCase[] = [];
  /** What the profile's clean run already fails (a profile's baseline case sets it). */
  private baseline: Baseline | undefined;
  private readonly onProfile: { profile?: string };
  private readonly log: (line: string) => void;

  constructor(
    private readonly options: ProveOptions,
    private readonly engine: SuiteEngine,
    private readonly declared: readonly DeclaredTest[],
    private readonly profile: ProfileDef,
  ) {
    this.onProfile = profile.name === 'default' ? {} : { profile: profile.name };
    this.log = options.log ?? (() => undefined);
  }

  private line(verdict: string, kind: string, name: string, ids: readonly string[], ms: number, said: string): void {
    this.log(
      `${verdict.padEnd(7)} ${kind.padEnd(9)} ${name.padEnd(40)} ${(ids.join(',') || 'all').padEnd(24)} ${String(ms).padStart(6)} ms${said}`,
    );
  }

  /** A case to run: its tests (all when no ids, else those of its ids or, given, of `tests`) and the suite files that hold them. */
  private plan(
    kind: ProofCase['kind'],
    name: string,
    ids: string[],
    caseSeed: number,
    session: Omit<SessionOptions, 'timeoutMs' | 'concurrency'>,
    tests?: RegExp,
  ): Planned {
    // A fault runs exactly the tests of its ids (WST-04 without WST-04a): a neighbour's finding proves nothing about them.
    const own = tests ?? (!ids.length ? undefined : kind === 'fault' ? exactPattern(ids) : onlyPattern(ids));
    const only = this.options.only?.length ? onlyPattern([...this.options.only]) : undefined;
    const pattern = own && only ? new RegExp(`^(?=${only.source})(?:${own.source})`) : (own ?? only);
    const mine = pattern ? this.declared.filter((t) => pattern.test(t.id)) : this.declared;
    return {
      kind,
      name,
      ids,
      seed: caseSeed,
      session,
      ...(pattern ? { pattern } : {}),
      tests: mine.map((t) => t.id),
      files: suiteFilesOf(mine),
    };
  }

  /** Every case to run, a profile's baseline first; a fault the profile removes is recorded as removed, not run. */
  planAll(): Planned[] {
    const { seed, seeds, variations } = this.options;
    // One alternative per open choice plays at once; a single variation is its own combination.
    const combined = variations.length > 1 ? combinationOf(variations) : [];
    const planned: Planned[] = [
      ...(this.profile.name !== 'default' ? [this.plan('baseline', `${this.profile.name} baseline`, [], seed, {})] : []),
      ...seeds.map((s) => this.plan('clean', `clean seed ${s}`, [], s, {})),
      ...(this.options.combinedOnly ? [] : variations).map((v) =>
        this.plan('variation', v.name, [], seed, { variations: [v.name] }, this.options.choiceTestsOnly ? choiceTests(v) : undefined),
      ),
      ...(combined.length
        ? [seed, ...seeds.filter((s) => s !== seed)].map((s) =>
            this.plan('variation', s === seed ? COMBINED : `${COMBINED} seed ${s}`, [], s, { variations: combined }),
          )
        : []),
    ];
    // A fault that only other data shows is proved on that data, and a clean server of the same data must pass there.
    for (const data of new Set(this.options.faults.flatMap((f) => (f.data ? [f.data] : []))))
      if (!this.options.combinedOnly) planned.push(this.plan('clean', `clean ${data}`, [], seed, { fixture: data }));
    for (const f of this.options.faults) {
      const removed = this.profile.deviations.includes(f.name)
        ? 'the profile carries it'
        : f.needs === 'multichannelling' && !this.profile.multichannelling
          ? 'it needs multichannelling, which the profile lacks'
          : this.profile.masks[f.name];
      if (!removed) {
        const p = this.plan('fault', f.name, f.breaks, seed, { faults: [f.name], ...(f.data ? { fixture: f.data } : {}) });
        // --only narrows the proof to some tests: a fault none of them can find is not this proof's.
        if (p.tests.length || !this.options.only?.length) planned.push(p);
        continue;
      }
      this.cases.push({
        kind: 'fault',
        name: f.name,
        ...this.onProfile,
        requirements: f.breaks,
        seed,
        ok: true,
        removed,
        detail: removed,
        tests: 0,
        durationMs: 0,
      });
      this.line('REMOVED', 'fault', f.name, f.breaks, 0, `  ${removed}`);
    }
    return planned;
  }

  /** Opens a session per case; a case without one is recorded as failed. False when the baseline cannot run: nothing can be judged then. */
  private async open(planned: readonly Planned[], open: Opened[]): Promise<boolean> {
    for (const p of planned) {
      try {
        const session = await openSession({
          ...p.session,
          ...this.onProfile,
          timeoutMs: RUN_DEFAULTS.timeoutMs,
          concurrency: RUN_DEFAULTS.embeddedConcurrency,
        });
        const config: RunConfig = {
          target: session.target,
          replayArgs: [],
          seed: p.seed,
          runs: this.options.runs,
          strict: false,
          timeoutMs: RUN_DEFAULTS.timeoutMs,
          concurrency: RUN_DEFAULTS.embeddedConcurrency,
          sandboxFolderId: session.sandboxFolderId,
        };
        open.push({ p, session, config });
      } catch (err) {
        if (!(err instanceof SessionError)) throw err;
        // Not even a session: the run would stop with exit 2 or 3, not with a finding on the fault's ids.
        const { kind, name, ids: requirements, seed: caseSeed } = p;
        this.cases.push({
          kind,
          name,
          ...this.onProfile,
          requirements,
          seed: caseSeed,
          ok: false,
          detail: `session: ${err.message}`,
          tests: 0,
          durationMs: 0,
        });
        // Without the profile's baseline no case can be judged.
        if (kind === 'baseline') return false;
      }
    }
    return true;
  }

  /**
   * Runs all cases in one suite run, each test against the server of every case that needs it, one
   * after the other, and judges them, a profile's baseline first. Vitest's workers do not outlive a
   * run, and a run's start-up (new workers that load every module) is most of a small case, so running
   * the cases in several runs cost far more than it saved.
   */
  async runCases(planned: readonly Planned[]): Promise<void> {
    const open: Opened[] = [];
    /** Sessions closed, or closing, before the run ends. */
    const closing = new Map<Session, Promise<unknown>>();
    try {
      if (!(await this.open(planned, open)) || !open.length) return;
      await this.runOpened(open, closing);
    } finally {
      for (const o of open) await (closing.get(o.session) ?? o.session.close());
    }
  }

  /** The one suite run of the opened cases, each judged as soon as it can be. */
  private async runOpened(open: readonly Opened[], closing: Map<Session, Promise<unknown>>): Promise<void> {
    // A whole-suite case (no pattern) runs every test, and then so does the run.
    const patterns = open.map((o) => o.p.pattern);
    const pattern = patterns.every((x) => x !== undefined) ? new RegExp(patterns.map((x) => `(?:${x.source})`).join('|')) : undefined;
    const files = [...new Set(open.flatMap((o) => o.p.files))];
    const byTest: Record<string, RunConfig[]> = {};
    for (const o of open) for (const t of o.p.tests) (byTest[t] ??= []).push(o.config);
    // Without a baseline to wait for, a case is judged as soon as its tests are done, so its line comes
    // while the run goes on; with one, every verdict waits for the whole suite's baseline.
    const waiting = open.some((o) => o.p.kind === 'baseline');
    if (waiting)
      this.log(`${open.length} cases in one suite run: their verdicts follow the profile's baseline, once the whole suite has run`);
    const judged = new Set<RunConfig>();
    const runErrors: string[] = [];
    // A case's server goes as soon as its tests are done: kept to the end, every case's server, each
    // with what its tests made, would stay on the heap together.
    const done = (config: RunConfig, tests: TestResult[], firstFailureMs: number | undefined) => {
      const o = open.find((x) => x.config === config);
      if (!o) return;
      if (!closing.has(o.session)) {
        const closed = o.session.close();
        // Awaited at the end, where a failure to close is thrown; until then it must not count as unhandled.
        closed.catch(() => undefined);
        closing.set(o.session, closed);
      }
      if (waiting) return;
      judged.add(config);
      this.judgeCase(o.p, runErrors, tests, firstFailureMs);
    };
    const run = await this.engine.run(open[0]!.config, pattern, files, byTest, done);
    runErrors.push(...run.runErrors);
    const own = (config: RunConfig) => run.byConfig.get(config) ?? { tests: [] };
    for (const o of open.filter((x) => x.p.kind === 'baseline')) {
      // What the profile fails on its own, clean: the other cases are judged by what they fail beyond it.
      const { tests } = own(o.config);
      this.baseline = new Set(tests.flatMap((t) => t.findings.filter((f) => f.severity === 'error').map((f) => baselineKey(t, f))));
    }
    for (const o of [...open].sort((x, y) => Number(y.p.kind === 'baseline') - Number(x.p.kind === 'baseline'))) {
      if (judged.has(o.config)) continue;
      const { tests, firstFailureMs } = own(o.config);
      this.judgeCase(o.p, runErrors, tests, firstFailureMs);
    }
  }

  /** Judges one case by its tests' results (and the run's errors so far) and records it. */
  private judgeCase(p: Planned, runErrors: readonly string[], tests: TestResult[], firstFailureMs: number | undefined): void {
    const { kind, name, ids } = p;
    const baseline = this.baseline;
    const mine = { tests, runErrors };
    const durationMs = tests.reduce((sum, t) => sum + t.durationMs, 0);
    const timing = { tests: tests.length, durationMs, ...(firstFailureMs !== undefined ? { firstFailureMs } : {}) };
    const proof = kind === 'fault' ? proofOf(tests, ids, baseline) : undefined;
    const failed = proof ? '' : kind === 'baseline' ? runErrors.map((e) => `run error: ${e}`).join('; ') : failures(mine, baseline);
    const ok = proof ? Object.keys(proof.provedBy).length > 0 : !failed;
    const detail = proof
      ? ok
        ? proof.detail!
        : `not found by ${tests.length} tests of ${ids.join(', ')} (${proof.detail ?? (failures(mine, baseline) || 'all passed')})`
      : kind === 'baseline' && ok
        ? `${tests.filter((t) => t.status === 'failed').length} tests fail on the profile's own deviations`
        : failed;
    this.cases.push({
      kind,
      name,
      ...this.onProfile,
      requirements: ids,
      seed: p.seed,
      ok,
      detail,
      ...(proof ? { provedBy: proof.provedBy, killed: proof.killed } : {}),
      ...(kind === 'clean' ? { unjudged: tests.filter(hadNothingToJudge).map((t) => t.id) } : {}),
      ...timing,
    });
    const verdict = kind === 'fault' ? (ok ? 'KILLED' : 'MISSED') : ok ? 'PASS' : 'FAIL';
    // A killed fault names its proving tests, so a reader sees that each is a test of the fault's own ids.
    this.line(
      verdict,
      kind,
      name,
      ids,
      durationMs,
      proof && ok ? `  by ${Object.values(proof.provedBy).join('; ')}` : detail ? `  ${detail}` : '',
    );
  }
}

/** Runs every proof case with one suite engine and returns the cases in the order they were judged. */
export async function prove(options: ProveOptions): Promise<ProofCase[]> {
  const profile = getProfile(options.profile ?? 'default');
  if (!profile) throw new UsageError(`unknown profile ${options.profile}`);
  // The run loads only the suite files that hold the cases' tests: start-up is most of a small proof.
  // Vitest comes with the engine, imported when the proof starts: help loads none of it.
  const { SuiteEngine } = await loadEngine();
  const engine = await SuiteEngine.create({ workers: 2, progress: null });
  try {
    const proof = new Proof(options, engine, await declaredTests(() => engine.collect()), profile);
    await proof.runCases(proof.planAll());
    return proof.cases;
  } finally {
    await engine.close();
  }
}

/** --seeds: `N` is seeds 1 to N, `A,B,...` the seeds listed; absent: none. */
function seedsOption(value: string | undefined): number[] {
  if (value === undefined) return [];
  if (/^\d+$/.test(value)) {
    const n = intOption('seeds', value, 0, 1);
    return Array.from({ length: n }, (_, i) => i + 1);
  }
  const listed = value.split(',').map((s) => s.trim());
  if (listed.some((s) => !/^\d+$/.test(s))) throw new UsageError(`--seeds must be a count N or a list of seeds A,B,..., got "${value}"`);
  return listed.map((s) => seedValue('seeds', s));
}

/** `prove --parameters`: the claims of a run's results, each proven by a relay that removes its parameter; prints and records the cases. */
async function proveParameterClaims(values: { parameter?: string[]; results?: string; json?: string }): Promise<number> {
  let results: Results;
  try {
    results = loadResults(values.results ?? join(projectRoot, 'reports/out/results.json'));
  } catch (err) {
    if (err instanceof ReportInputError) throw new UsageError(`--results: ${err.message}`);
    throw err;
  }
  const claimed = judgedParameters(results);
  const unknown = (values.parameter ?? []).filter((k) => !claimed.has(k));
  if (unknown.length) throw new UsageError(`no test of the results claims to judge ${unknown.join(', ')} (as operation:name)`);
  const started = performance.now();
  const cases = await proveParameters({
    results,
    ...(values.parameter ? { keys: values.parameter } : {}),
    log: (line) => console.log(line),
  });
  const proven = cases.filter((c) => c.ok).length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `parameter claims proven ${proven}/${cases.length} in ${seconds} s (seed ${results.seed}, ${results.runs} runs per property)`,
  );
  const falseClaims = cases.filter((c) => !c.ok).map((c) => c.name);
  if (falseClaims.length) console.log(`false claims (no test claiming them failed without them): ${falseClaims.join(', ')}`);
  const file = { seed: results.seed, runs: results.runs, cases };
  if (values.json) writeFileSync(values.json, `${JSON.stringify(file, null, 2)}\n`);
  else mergeIntoProveFile(file);
  return falseClaims.length ? 1 : 0;
}

export const command: Command = {
  summary: 'prove the suite: every planted fault found, harmless variations and the clean server pass',
  options: OPTIONS,
  about: [
    'Runs the suite against the reference server with each planted fault switched on (only the tests of the requirements the fault breaks): each must be found. Then the whole suite under each variation alone (an answer the contract leaves open, played otherwise than by default: `serve --list-variations`) and under all variations that combine at once (one per open choice): each must pass. Prints one line per case and "killed K/N" (a killed fault with the tests that found it).',
    '--profile field proves the suite on the field-shaped reference server, whose own deviations fail some tests even when it is clean: a baseline run of the whole suite records them first, and then a fault is found when a test of its ids has an error the baseline did not, and a variation or clean case passes when it has no error the baseline did not. Faults the profile removes (its own deviations, faults of features it lacks, faults its deviations already show) are reported as REMOVED, with the reason.',
    "--parameters proves the parameter claims of a run instead: for every parameter (query parameter or JSON body member) the tests of --results judged, or only those given by --parameter, a relay in front of a reference server of its own removes it from every request of its operation, and the tests that claimed it run through it with that run's seed: one of them must fail (PROVEN); when all pass the claim is FALSE.",
  ],
  exit: '0 every fault found and every clean or harmless case passed (every parameter claim proven), 1 otherwise, 2 usage error.',
  async run(args) {
    const { values } = parseOptions(args, OPTIONS);
    if (values.parameters || values.parameter) {
      // The claims' seed and runs are the results', and the server is the clean default one.
      const others = (
        [
          'fault',
          'variation',
          'seeds',
          'only',
          'choice-tests-only',
          'combined-only',
          'seed',
          'runs',
          'no-faults',
          'no-variations',
          'profile',
        ] as const
      ).filter((o) => values[o] !== undefined);
      if (others.length) throw new UsageError(`--parameters does not go with --${others.join(', --')}`);
      return proveParameterClaims(values);
    }
    if (values.results) throw new UsageError('--results goes with --parameters');
    const profile = profileOption(values.profile);
    const seed = values.seed === undefined ? 1 : seedValue('seed', values.seed);
    const runs = intOption('runs', values.runs, 10, 1);
    const seeds = seedsOption(values.seeds);
    const only = values.only?.flatMap((v) => v.split(',')).filter(Boolean);
    const unknownFault = (values.fault ?? []).filter((n) => !faultCatalogue.some((f) => f.name === n));
    if (unknownFault.length) throw new UsageError(`unknown fault ${unknownFault.join(', ')}`);
    const unknownVariation = (values.variation ?? []).filter((n) => !variationCatalogue.some((v) => v.name === n));
    if (unknownVariation.length) throw new UsageError(`unknown variation ${unknownVariation.join(', ')}`);
    const faults = values['no-faults'] ? [] : faultCatalogue.filter((f) => !values.fault || values.fault.includes(f.name));
    const variations = values['no-variations']
      ? []
      : variationCatalogue.filter((v) => !values.variation || values.variation.includes(v.name));

    const cases = await prove({
      faults,
      variations,
      seeds,
      ...(only?.length ? { only } : {}),
      ...(values['choice-tests-only'] ? { choiceTestsOnly: true } : {}),
      ...(values['combined-only'] ? { combinedOnly: true } : {}),
      seed,
      runs,
      profile,
      log: (line) => console.log(line),
    });
    const faultCases = cases.filter((c) => c.kind === 'fault' && !c.removed);
    const killed = faultCases.filter((c) => c.ok).length;
    const removed = cases.length - faultCases.length - cases.filter((c) => c.kind !== 'fault').length;
    const others = cases.filter((c) => c.kind !== 'fault');
    console.log(
      `killed ${killed}/${faultCases.length}${removed ? ` (${removed} removed by the profile ${profile})` : ''}; ` +
        `harmless and clean cases passed ${others.filter((c) => c.ok).length}/${others.length}`,
    );
    if (values.json) writeFileSync(values.json, `${JSON.stringify({ seed, runs, cases }, null, 2)}\n`);
    else mergeIntoProveFile({ seed, runs, cases });
    return cases.every((c) => c.ok) ? 0 : 1;
  },
};
