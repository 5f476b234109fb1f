/**
 * The prove result file: `prove` keeps the latest result of every case in it, `requirements --coverage`
 * reads it. Apart from cli/prove.ts so that reading it loads no suite engine.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { projectRoot } from './project.ts';

/** One proof case: a fault that must be found, or a variation or clean run that must pass. */
export interface ProofCase {
  /**
   * `baseline`: a profile's clean run, whose failures (its own deviations) the other cases are judged against.
   * `parameter`: a judged query parameter (`name` is `operation:parameter`) that a relay removes, which must fail a test claiming it.
   */
  kind: 'fault' | 'variation' | 'clean' | 'baseline' | 'parameter';
  name: string;
  /** The reference server's profile (server/profiles.ts); absent: default. */
  profile?: string;
  /** A fault the profile removes, and why: it is neither killed nor missed there. */
  removed?: string;
  /** Requirement ids the case is about (a fault's broken ids, a variation's touched ids); empty: all. */
  requirements: string[];
  seed: number;
  /** Faults: a finding on one of the ids was found. Parameters: a test claiming it failed. Others: the run passed. */
  ok: boolean;
  /** Why the case is not ok, or what found the fault. */
  detail: string;
  /**
   * Faults: per id the fault breaks, the first test carrying that id that found it (its own test, not a
   * neighbour's); an id its own tests did not find is absent. The fault is ok when one id is here.
   */
  provedBy?: Record<string, string>;
  /**
   * Faults: every test carrying one of its ids that found it, by test id. A test is proven only when a
   * planted fault of its own requirement makes it fail: `requirements --coverage` counts them per id.
   */
  killed?: string[];
  /**
   * Clean cases: the tests that said the target's own data gave them nothing to judge (a `fixture`
   * warning). The default data set has data for every test, so on it this stays empty.
   */
  unjudged?: string[];
  tests: number;
  /** The time of its own tests (all cases share one run). */
  durationMs: number;
  /** Its own tests' time up to the first that failed. */
  firstFailureMs?: number;
}

/** Where prove keeps the latest result of every case when no --json file is given. */
export const PROVE_FILE = join(projectRoot, 'reports/out/prove.json');

/** What a prove JSON file holds: the seed and runs of the last run, and the cases. */
export interface ProveFile {
  seed: number;
  runs: number;
  cases: ProofCase[];
}

/** Reads a prove JSON file; undefined when there is none (nothing proven yet). */
export function readProveFile(path = PROVE_FILE): ProveFile | undefined {
  if (!existsSync(path)) return undefined;
  const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<ProveFile>;
  if (!Array.isArray(data.cases)) throw new Error(`${path} is not a prove result (no cases)`);
  return { seed: data.seed ?? 0, runs: data.runs ?? 0, cases: data.cases };
}

/** Writes the default prove file: these cases replace earlier results of the same cases, the others stay. */
export function mergeIntoProveFile(result: ProveFile): void {
  let earlier: ProofCase[] = [];
  try {
    earlier = readProveFile()?.cases ?? [];
  } catch {
    // An unreadable earlier file is replaced: it holds nothing a reader could use.
  }
  const key = (c: ProofCase) => `${c.profile ?? 'default'}:${c.kind}:${c.name}`;
  const fresh = new Set(result.cases.map(key));
  mkdirSync(dirname(PROVE_FILE), { recursive: true });
  const cases = [...earlier.filter((c) => !fresh.has(key(c))), ...result.cases];
  writeFileSync(PROVE_FILE, `${JSON.stringify({ ...result, cases }, null, 2)}\n`);
}
