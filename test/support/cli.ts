/** Runs the cms-conformance CLI in a child process, as a user would; the project's CLI tests share it. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** The CLI's entry point. */
export const bin = new URL('../../bin/cms-conformance.mjs', import.meta.url).pathname;

/** What a CLI run printed and how it exited. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cms-conformance ARGS...` and returns its exit code and output (a non-zero exit is not an error here). */
export async function cli(...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { maxBuffer: 64 * 2 ** 20 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout?: string; stderr?: string };
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
