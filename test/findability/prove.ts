/** Runs `cms-conformance prove` in a child process and returns its cases (the findability tests share it). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ProofCase } from '../../cli/prove-file.ts';
import type { FaultDef } from '../../server/fault-def.ts';

const exec = promisify(execFile);
const bin = new URL('../../bin/cms-conformance.mjs', import.meta.url).pathname;

/** Runs prove with the given arguments; the cases come back whatever the exit code. */
export async function runProve(args: string[]): Promise<{ cases: ProofCase[]; output: string }> {
  const json = join(mkdtempSync(join(tmpdir(), 'cms-prove-')), 'prove.json');
  let output = '';
  try {
    const r = await exec(process.execPath, [bin, 'prove', '--json', json, ...args], { maxBuffer: 64 * 2 ** 20 });
    output = r.stdout + r.stderr;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    output = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
  let cases: ProofCase[] = [];
  try {
    cases = (JSON.parse(readFileSync(json, 'utf8')) as { cases: ProofCase[] }).cases;
  } catch {
    // prove did not get to write its file: the output says why, and every case below fails on it.
  }
  return { cases, output };
}

/** The case of that name, or a failed stand-in carrying prove's output (so the test says what happened). */
export function caseOf(cases: readonly ProofCase[], name: string, output: string): ProofCase {
  return (
    cases.find((c) => c.name === name) ?? {
      kind: 'fault',
      name,
      requirements: [],
      seed: 0,
      ok: false,
      detail: `no result for ${name}; prove said:\n${output.slice(-2000)}`,
      tests: 0,
      durationMs: 0,
    }
  );
}

/**
 * The fault catalogue in two halves of about equal size such that every fault naming a requirement id
 * lies in the same half: each half can then judge by itself whether an id's own tests killed one of its faults.
 */
export function faultHalves(faults: readonly FaultDef[]): [FaultDef[], FaultDef[]] {
  // Faults sharing an id form one group (union-find over the ids they name).
  const parent = new Map<string, string>();
  const root = (id: string): string => {
    const up = parent.get(id) ?? id;
    if (up === id) return id;
    const top = root(up);
    parent.set(id, top);
    return top;
  };
  for (const f of faults) for (const id of f.breaks.slice(1)) parent.set(root(id), root(f.breaks[0]!));
  const groups = new Map<string, FaultDef[]>();
  for (const f of faults) {
    const key = root(f.breaks[0]!);
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  // Largest groups first, each into the smaller half: the halves differ by at most the size of one group.
  const halves: [FaultDef[], FaultDef[]] = [[], []];
  for (const group of [...groups.values()].sort((a, b) => b.length - a.length)) {
    halves[halves[0].length <= halves[1].length ? 0 : 1].push(...group);
  }
  return halves;
}
