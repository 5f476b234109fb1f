/** Runs `cms-conformance prove` in a child process and returns its cases (the findability tests share it). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ProofCase } from '../../cli/prove.ts';

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
