/**
 * What the proxy saw, as the tests of a run: one per operation and one per requirement seen, with
 * every finding once per deviation, for the reports `run` writes too.
 */
import { SUITE_VERSION } from '../schemas/version.ts';
import { catalogueDigest } from '../reports/statement.ts';
import { reportedExchange, type Finding } from '../harness/checks.ts';
import { DEFAULT_SEED } from '../harness/config.ts';
import { severityIn } from '../harness/judge.ts';
import { curlCommand } from '../harness/replay.ts';
import { familyOf, summarize } from '../reports/results.ts';
import type { ReportedFinding, Results, TestResult } from '../schemas/results.ts';
import type { SeenExchange } from './proxy-relay.ts';

/** One test of the observed traffic, while it is being gathered. */
interface Tally {
  requirement: string;
  operation?: string;
  findings: ReportedFinding[];
  keys: Set<string>;
  requests: number;
  answers: number;
  jsonAnswers: number;
  validated: number;
  durationMs: number;
}

/** The id of the test gathering the traffic of an operation or the findings of a requirement: stable, no generated value. */
export const observedTestId = (requirement: string): string => `${requirement} observed traffic`;

/**
 * What the proxy saw, as the tests of a run: one per operation (every judge finding of its answers,
 * the counts of requests and validated answers) and one per requirement seen (every finding naming
 * it, and the exchanges a check of it applied to).
 */
export class TrafficReport {
  private readonly tallies = new Map<string, Tally>();
  /** How often each deviation was seen, by its key. */
  private readonly occurrences = new Map<string, { finding: Finding; count: number }>();
  readonly secrets = new Set<string>();
  exchanges = 0;
  judged = 0;
  failedUpstream = 0;

  constructor(private readonly replay: (requirement: string) => string) {}

  private tally(requirement: string, operation?: string): Tally {
    const id = observedTestId(requirement);
    let t = this.tallies.get(id);
    if (!t) {
      t = {
        requirement,
        ...(operation ? { operation } : {}),
        findings: [],
        keys: new Set(),
        requests: 0,
        answers: 0,
        jsonAnswers: 0,
        validated: 0,
        durationMs: 0,
      };
      this.tallies.set(id, t);
    }
    return t;
  }

  private count(t: Tally, seen: SeenExchange, validated: boolean): void {
    const res = seen.exchange.response;
    t.requests++;
    if (res) t.answers++;
    if (res && res.jsonError === undefined) t.jsonAnswers++;
    if (validated) t.validated++;
    t.durationMs += seen.exchange.durationMs;
  }

  private add(t: Tally, f: Finding, seen: SeenExchange): void {
    const key = f.key ?? `${f.requirement}|${f.check}|${f.message}`;
    if (t.keys.has(key)) return;
    t.keys.add(key);
    const auth = {
      query: Object.fromEntries(seen.credentials.query.map((n) => [n, ''])),
      headers: Object.fromEntries(seen.credentials.headers.map((n) => [n, ''])),
    };
    t.findings.push({
      requirement: f.requirement,
      check: f.check,
      severity: f.severity,
      message: f.message,
      // The reports group findings by their key: one deviation met in many exchanges reads as one cause.
      ...(f.key !== undefined ? { key: f.key } : {}),
      exchange: reportedExchange(seen.exchange),
      curl: curlCommand(seen.exchange, auth),
      replay: this.replay(t.requirement),
    });
  }

  /** Adds one judged exchange; returns the findings not seen before (one per deviation), for printing. */
  addExchange(seen: SeenExchange): Finding[] {
    this.exchanges++;
    for (const s of seen.secrets) this.secrets.add(s);
    if (seen.exchange.error) this.failedUpstream++;
    const o = seen.observation;
    if (!o) return [];
    this.judged++;
    const op = o.operation.id;
    const own = `OP-${op}`;
    const opTest = this.tally(own, op);
    this.count(opTest, seen, o.validated);
    const touched = new Set<Tally>();
    for (const f of o.judged) {
      this.add(opTest, { ...f, severity: severityIn(f, own, op) }, seen);
      if (f.requirement === own) continue;
      // A convention's finding is an error in the convention's own test, as in the suite (severityIn).
      const t = this.tally(f.requirement);
      touched.add(t);
      this.add(t, { ...f, severity: severityIn(f, f.requirement, op) }, seen);
    }
    for (const requirement of o.checked) touched.add(this.tally(requirement));
    for (const f of o.checks) {
      const t = this.tally(f.requirement);
      touched.add(t);
      this.add(t, f, seen);
    }
    for (const t of touched) t.requests++;
    const fresh: Finding[] = [];
    for (const f of o.findings) {
      const key = f.key ?? `${f.requirement}|${f.check}|${f.message}`;
      const seenBefore = this.occurrences.get(key);
      if (seenBefore) seenBefore.count++;
      else {
        this.occurrences.set(key, { finding: f, count: 1 });
        fresh.push(f);
      }
    }
    return fresh;
  }

  /** Deviations seen more than once, with their counts, for the closing summary. */
  repeated(): { finding: Finding; count: number }[] {
    return [...this.occurrences.values()].filter((o) => o.count > 1);
  }

  /** The tests of the traffic seen, sorted by id. */
  tests(): TestResult[] {
    return [...this.tallies.entries()]
      .map(([id, t]): TestResult => ({
        id,
        title: 'observed traffic',
        file: 'proxy',
        requirement: t.requirement,
        family: familyOf(t.requirement),
        ...(t.operation ? { operation: t.operation } : {}),
        status: t.findings.some((f) => f.severity === 'error') ? 'failed' : 'passed',
        durationMs: Math.round(t.durationMs),
        // Exchanges are counted in the operation's test only, so that the run's totals count each answer once.
        ...(t.operation
          ? { requests: t.requests, answers: t.answers, jsonAnswers: t.jsonAnswers, validated: t.validated, retries: 0 }
          : {}),
        findings: t.findings,
      }))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  /** The requirements seen beyond the operations', with the number of answers each was judged on. */
  requirementsSeen(): { requirement: string; answers: number }[] {
    return [...this.tallies.values()]
      .filter((t) => !t.operation)
      .map((t) => ({ requirement: t.requirement, answers: t.requests }))
      .sort((a, b) => a.requirement.localeCompare(b.requirement));
  }

  /** The run's results: the upstream as the target, the tests of the traffic seen. */
  results(upstream: string, features: readonly string[], startedAt: Date): Results {
    const tests = this.tests();
    return {
      tool: { name: 'cms-conformance', version: SUITE_VERSION, catalogueDigest: catalogueDigest() },
      target: { baseUrl: upstream, features: [...features], embedded: false },
      seed: DEFAULT_SEED,
      runs: 1,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      summary: summarize(tests),
      tests,
    };
  }
}
