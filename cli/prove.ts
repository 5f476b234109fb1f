/**
 * `cms-conformance prove`: proves the suite on the reference server. Every planted fault must be
 * found (a finding on one of the requirement ids it breaks), every harmless variation and the clean
 * server must pass. One Vitest instance serves all the runs.
 */
import { writeFileSync } from 'node:fs';
import type { RunConfig } from '../harness/config.ts';
import type { TestResult } from '../schemas/results.ts';
import { getRequirement } from '../schemas/requirements.ts';
import { faults as faultCatalogue } from '../server/faults.ts';
import type { FaultDef } from '../server/types.ts';
import { variations as variationCatalogue, type VariationDef } from '../server/variations.ts';
import { UsageError, intOption, parseOptions, type Command } from './args.ts';
import { collectTests } from './collect.ts';
import { SuiteEngine, type SuiteRun } from './engine.ts';
import { mergeIntoProveFile } from './prove-file.ts';
import { onlyPattern } from './run.ts';
import { SessionError, openSession, type SessionOptions } from './session.ts';

const usage = `usage: cms-conformance prove [--fault NAME]... [--variation NAME]... [--clean-seeds N,...]
                              [--seed N] [--runs N] [--json FILE] [--no-faults] [--no-variations]

Runs the suite against the reference server with each planted fault switched on (only the tests of
the requirements the fault breaks): each must be found. Then with each harmless variation (the tests
of the requirements it touches) and clean under the given seeds (the whole suite): each must pass.
Prints one line per case and "killed K/N" (a killed fault with the tests that found it). Every case
with its timings goes to --json FILE, or else into reports/out/prove.json, where it replaces the
earlier result of the same case and the others stay: \`requirements --coverage\` reads that file.
Exit: 0 every fault found and every clean or harmless case passed, 1 otherwise, 2 usage error.`;

/** One proof case: a fault that must be found, or a variation or clean run that must pass. */
export interface ProofCase {
  kind: 'fault' | 'variation' | 'clean';
  name: string;
  /** Requirement ids the case is about (a fault's broken ids, a variation's touched ids); empty: all. */
  requirements: string[];
  seed: number;
  /** Faults: a finding on one of the ids was found. Others: the run passed. */
  ok: boolean;
  /** Why the case is not ok, or what found the fault. */
  detail: string;
  /**
   * Faults: per id the fault breaks, the first test carrying that id that found it (its own test, not a
   * neighbour's); an id its own tests did not find is absent. The fault is ok when one id is here.
   */
  provedBy?: Record<string, string>;
  tests: number;
  durationMs: number;
  firstFailureMs?: number;
}

/** The finding that shows a test found a fault: an error, or a warning of its own SHOULD requirement (a SHOULD never fails a test). */
function ownFinding(t: TestResult): TestResult['findings'][number] | undefined {
  const should = getRequirement(t.requirement).level === 'SHOULD';
  return t.findings.find((f) => f.severity === 'error') ?? (should ? t.findings.find((f) => f.requirement === t.requirement) : undefined);
}

/**
 * What proves a fault (issue 15: its own tests, not a neighbour): per id, the first test carrying it
 * that failed or warned on its own SHOULD requirement; the detail quotes the first of them. Without
 * one, the detail names a finding on one of the ids elsewhere, if any, to show how close it came.
 */
function proofOf(tests: readonly TestResult[], ids: readonly string[]): { provedBy: Record<string, string>; detail?: string } {
  const proof = (t: TestResult, f: TestResult['findings'][number] | undefined) =>
    `${t.id}: ${f ? `[${f.requirement}] ${f.check}: ${f.message}` : (t.reason ?? 'failed')}`.slice(0, 300);
  const provedBy: Record<string, string> = {};
  let detail: string | undefined;
  for (const id of ids) {
    const t = tests.find((x) => x.requirement === id && (x.status === 'failed' || ownFinding(x)));
    if (!t) continue;
    provedBy[id] = t.id;
    detail ??= proof(t, ownFinding(t));
  }
  if (detail) return { provedBy, detail };
  const should = (id: string) => getRequirement(id).level === 'SHOULD';
  for (const t of tests) {
    const f = t.findings.find((x) => ids.includes(x.requirement) && (x.severity === 'error' || should(x.requirement)));
    if (f) return { provedBy, detail: `only a neighbour found it: ${proof(t, f)}` };
  }
  return { provedBy };
}

/** Matches the tests of exactly these requirement ids (no prefix matches, unlike --only). */
function exactPattern(ids: readonly string[]): RegExp {
  return new RegExp(`^(?:${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}) `);
}

function failures(run: SuiteRun): string {
  const failed = run.tests.filter((t) => t.status === 'failed');
  if (run.runErrors.length) return `run error: ${run.runErrors[0]}`;
  const first = failed[0];
  if (!first) return '';
  const f = first.findings.find((x) => x.severity === 'error');
  return `${failed.length} failed, first ${first.id}: ${f ? `[${f.requirement}] ${f.message}` : (first.reason ?? '')}`.slice(0, 300);
}

/** What to prove: the faults and variations (catalogue entries), the clean seeds, seed and runs. */
export interface ProveOptions {
  faults: readonly FaultDef[];
  variations: readonly VariationDef[];
  cleanSeeds: readonly number[];
  seed: number;
  runs: number;
  /** Receives one line per case as it ends. */
  log?: (line: string) => void;
}

/** Runs every proof case with one suite engine and returns the cases in the order they ran. */
export async function prove(options: ProveOptions): Promise<ProofCase[]> {
  const { runs, seed } = options;
  const log = options.log ?? (() => undefined);
  // Each case loads only the suite files that hold its requirements' tests: start-up is most of a small case.
  const declared = await collectTests();
  const engine = await SuiteEngine.create({ workers: 2, progress: null });
  const cases: ProofCase[] = [];
  const attempt = async (
    kind: ProofCase['kind'],
    name: string,
    ids: string[],
    caseSeed: number,
    session: Omit<SessionOptions, 'timeoutMs' | 'concurrency'>,
  ): Promise<void> => {
    let s;
    try {
      s = await openSession({ ...session, timeoutMs: 10_000, concurrency: 8 });
    } catch (err) {
      if (!(err instanceof SessionError)) throw err;
      // Not even a session: the run would stop with exit 2 or 3, not with a finding on the fault's ids.
      cases.push({ kind, name, requirements: ids, seed: caseSeed, ok: false, detail: `session: ${err.message}`, tests: 0, durationMs: 0 });
      return;
    }
    try {
      const config: RunConfig = {
        target: s.target,
        replayArgs: [],
        seed: caseSeed,
        runs,
        strict: false,
        timeoutMs: 10_000,
        concurrency: 8,
        sandboxFolderId: s.sandboxFolderId,
      };
      // A fault runs exactly the tests of its ids (WST-04 without WST-04a): a neighbour's finding proves nothing about them.
      const pattern = !ids.length ? undefined : kind === 'fault' ? exactPattern(ids) : onlyPattern(ids);
      const files = pattern ? [...new Set(declared.filter((t) => pattern.test(t.id)).map((t) => t.file))] : undefined;
      const run = await engine.run(config, pattern, files);
      const proof = kind === 'fault' ? proofOf(run.tests, ids) : undefined;
      const ok = proof ? Object.keys(proof.provedBy).length > 0 : !run.tests.some((t) => t.status === 'failed') && !run.runErrors.length;
      const detail = proof
        ? ok
          ? proof.detail!
          : `not found by ${run.tests.length} tests of ${ids.join(', ')} (${proof.detail ?? (failures(run) || 'all passed')})`
        : failures(run);
      const c: ProofCase = {
        kind,
        name,
        requirements: ids,
        seed: caseSeed,
        ok,
        detail,
        ...(proof ? { provedBy: proof.provedBy } : {}),
        tests: run.tests.length,
        durationMs: run.durationMs,
        ...(run.firstFailureMs !== undefined ? { firstFailureMs: run.firstFailureMs } : {}),
      };
      cases.push(c);
      const verdict = kind === 'fault' ? (ok ? 'KILLED ' : 'MISSED ') : ok ? 'PASS   ' : 'FAIL   ';
      // A killed fault names its proving tests, so a reader sees that each is a test of the fault's own ids.
      const said = proof && ok ? `  by ${Object.values(proof.provedBy).join('; ')}` : detail ? `  ${detail}` : '';
      log(
        `${verdict} ${kind.padEnd(9)} ${name.padEnd(40)} ${(ids.join(',') || 'all').padEnd(24)} ${String(run.durationMs).padStart(6)} ms${said}`,
      );
    } finally {
      await s.close();
    }
  };
  try {
    for (const s of options.cleanSeeds) await attempt('clean', `clean seed ${s}`, [], s, {});
    for (const v of options.variations) await attempt('variation', v.name, v.touches, seed, { variations: [v.name] });
    for (const f of options.faults) await attempt('fault', f.name, f.breaks, seed, { faults: [f.name] });
  } finally {
    await engine.close();
  }
  return cases;
}

export const command: Command = {
  summary: 'prove the suite: every planted fault found, harmless variations and the clean server pass',
  usage,
  async run(args) {
    const { values } = parseOptions(args, {
      fault: { type: 'string', multiple: true },
      variation: { type: 'string', multiple: true },
      'clean-seeds': { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      json: { type: 'string' },
      'no-faults': { type: 'boolean' },
      'no-variations': { type: 'boolean' },
    });
    const seed = intOption('seed', values.seed, 1);
    const runs = intOption('runs', values.runs, 10, 1);
    const cleanSeeds = (values['clean-seeds'] ?? '')
      .split(',')
      .filter(Boolean)
      .map((s) => intOption('clean-seeds', s, 0));
    const unknownFault = (values.fault ?? []).filter((n) => !faultCatalogue.some((f) => f.name === n));
    if (unknownFault.length) throw new UsageError(`unknown fault ${unknownFault.join(', ')}`);
    const unknownVariation = (values.variation ?? []).filter((n) => !variationCatalogue.some((v) => v.name === n));
    if (unknownVariation.length) throw new UsageError(`unknown variation ${unknownVariation.join(', ')}`);
    const faults = values['no-faults'] ? [] : faultCatalogue.filter((f) => !values.fault || values.fault.includes(f.name));
    const variations = values['no-variations']
      ? []
      : variationCatalogue.filter((v) => !values.variation || values.variation.includes(v.name));

    const cases = await prove({ faults, variations, cleanSeeds, seed, runs, log: (line) => console.log(line) });
    const faultCases = cases.filter((c) => c.kind === 'fault');
    const killed = faultCases.filter((c) => c.ok).length;
    const others = cases.filter((c) => c.kind !== 'fault');
    console.log(
      `killed ${killed}/${faultCases.length}; harmless and clean cases passed ${others.filter((c) => c.ok).length}/${others.length}`,
    );
    if (values.json) writeFileSync(values.json, `${JSON.stringify({ seed, runs, cases }, null, 2)}\n`);
    else mergeIntoProveFile({ seed, runs, cases });
    return cases.every((c) => c.ok) ? 0 : 1;
  },
};
