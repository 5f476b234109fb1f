/**
 * The prove result file: `prove` keeps the latest result of every case in it, `requirements --coverage`
 * reads it. Apart from cli/prove.ts so that reading it loads no suite engine.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { projectRoot } from './collect.ts';
import type { ProofCase } from './prove.ts';

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
