/**
 * The parameter proof (`cms-conformance prove --parameters`): a test's claim that it judged a
 * parameter's effect is checked by making the reference server ignore that parameter. For each judged
 * parameter of a run's results (a query parameter or a JSON body member), a relay in front of a
 * reference server of its own removes it from every request of its operation (cli/param-relay.ts), and
 * the tests that claimed it run through it with the run's seed: the claim is proven when one of them
 * fails, and false when all pass.
 * All cases share one suite run, each test against the server of every case that claims it, as prove's do.
 */
import { RUN_DEFAULTS, type RunConfig } from '../harness/config.ts';
import { parametersOf } from '../schemas/parameters.ts';
import type { Results, TestResult } from '../schemas/results.ts';
import { declaredTests, suiteFilesOf } from './collect.ts';
import { startParameterRelay, type ParameterRelay } from './param-relay.ts';
import type { ProofCase } from './prove-file.ts';
import { loadEngine } from './load-engine.ts';
import { openSession, type Session } from './session.ts';

/** A judged parameter of a run: where it goes in a request, and the ids of the tests that claim it. */
export interface Claim {
  in: 'query' | 'body';
  tests: string[];
}

/** The judged parameters of a run (`operation:parameter`), in key order. */
export function judgedParameters(results: Results): Map<string, Claim> {
  const claims = new Map<string, Claim>();
  for (const t of results.tests) {
    for (const key of t.parameters?.judged ?? []) {
      const [operation, name] = splitKey(key);
      const where = parametersOf(operation).find((p) => p.name === name)?.in;
      if (!where) continue;
      const claim = claims.get(key) ?? { in: where, tests: [] };
      claim.tests.push(t.id);
      claims.set(key, claim);
    }
  }
  return new Map([...claims].sort(([a], [b]) => a.localeCompare(b)));
}

/** `operation:parameter` split at the first colon (operation ids have none). */
function splitKey(key: string): [string, string] {
  const at = key.indexOf(':');
  return [key.slice(0, at), key.slice(at + 1)];
}

/** Matches exactly these test ids. */
const exactly = (ids: readonly string[]): RegExp =>
  new RegExp(`^(?:${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);

/** What to prove: a run's results (their claims, seed and runs), optionally only some of its parameters. */
export interface ParameterProofOptions {
  results: Results;
  /** `operation:parameter` keys to prove; absent: every judged parameter of the results. */
  keys?: readonly string[];
  /** Receives one line per case as it ends. */
  log?: (line: string) => void;
}

/** One parameter's case while it runs. */
interface Opened {
  key: string;
  tests: string[];
  session: Session;
  relay: ParameterRelay;
  config: RunConfig;
}

/** The case of one parameter from the results of its claimed tests run through its relay. */
function judgeCase(o: Opened, seed: number, tests: readonly TestResult[]): ProofCase {
  const failed = tests.filter((t) => t.status === 'failed');
  const first = failed[0];
  const finding = first?.findings.find((f) => f.severity === 'error');
  const requirements = [...new Set(tests.map((t) => t.requirement))].sort();
  const base = `${o.relay.dropped} requests sent it and had it removed`;
  const detail = first
    ? `${base}; ${first.id}: ${finding ? `[${finding.requirement}] ${finding.check}: ${finding.message}` : (first.reason ?? 'failed')}`.slice(
        0,
        300,
      )
    : o.relay.dropped
      ? `${base}, and all ${tests.length} tests that claim to judge it passed: a false claim`
      : `none of the ${tests.length} tests that claim to judge it sent it through the relay`;
  return {
    kind: 'parameter',
    name: o.key,
    requirements,
    seed,
    ok: failed.length > 0,
    detail,
    killed: failed.map((t) => t.id),
    tests: tests.length,
    durationMs: tests.reduce((sum, t) => sum + t.durationMs, 0),
  };
}

/** Proves the claims of a run's results; returns one case per parameter, in key order. */
export async function proveParameters(options: ParameterProofOptions): Promise<ProofCase[]> {
  const { results } = options;
  const log = options.log ?? (() => undefined);
  const claims = judgedParameters(results);
  const unknown = (options.keys ?? []).filter((k) => !claims.has(k));
  if (unknown.length) throw new Error(`no test of the results claims to judge ${unknown.join(', ')}`);
  const keys = options.keys ?? [...claims.keys()];
  const { SuiteEngine } = await loadEngine();
  const engine = await SuiteEngine.create({ workers: 2, progress: null });
  const open: Opened[] = [];
  const closing = new Map<Opened, Promise<unknown>>();
  const close = (o: Opened): Promise<unknown> => {
    const earlier = closing.get(o);
    if (earlier) return earlier;
    const closed = o.relay.close().then(() => o.session.close());
    // Awaited at the end, where a failure to close is thrown; until then it must not count as unhandled.
    closed.catch(() => undefined);
    closing.set(o, closed);
    return closed;
  };
  try {
    const declared = await declaredTests(() => engine.collect());
    for (const key of keys) {
      const [operation, parameter] = splitKey(key);
      const session = await openSession({ timeoutMs: RUN_DEFAULTS.timeoutMs, concurrency: RUN_DEFAULTS.embeddedConcurrency });
      const claim = claims.get(key)!;
      const relay = await startParameterRelay(session.target.baseUrl, { operation, parameter, in: claim.in });
      open.push({
        key,
        tests: claim.tests,
        session,
        relay,
        config: {
          target: { ...session.target, baseUrl: relay.baseUrl },
          replayArgs: [],
          seed: results.seed,
          runs: results.runs,
          strict: false,
          timeoutMs: RUN_DEFAULTS.timeoutMs,
          concurrency: RUN_DEFAULTS.embeddedConcurrency,
          sandboxFolderId: session.sandboxFolderId,
        },
      });
    }
    if (!open.length) return [];
    const byTest: Record<string, RunConfig[]> = {};
    for (const o of open) for (const t of o.tests) (byTest[t] ??= []).push(o.config);
    const ids = Object.keys(byTest);
    const files = suiteFilesOf(declared.filter((t) => ids.includes(t.id)));
    const cases = new Map<string, ProofCase>();
    const done = (config: RunConfig, tests: TestResult[]) => {
      const o = open.find((x) => x.config === config);
      if (!o) return;
      // The relay has counted every request of the case's tests: its count goes into the case before it closes.
      const c = judgeCase(o, results.seed, tests);
      cases.set(o.key, c);
      log(`${(c.ok ? 'PROVEN' : 'FALSE').padEnd(7)} ${o.key.padEnd(48)} ${String(c.durationMs).padStart(6)} ms  ${c.detail}`);
      void close(o);
    };
    const run = await engine.run(open[0]!.config, exactly(ids), files, byTest, done);
    for (const e of run.runErrors) log(`run error: ${e}`);
    for (const o of open) if (!cases.has(o.key)) done(o.config, run.byConfig.get(o.config)?.tests ?? []);
    return keys.map((k) => cases.get(k)!);
  } finally {
    for (const o of open) await close(o);
    await engine.close();
  }
}
