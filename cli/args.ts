/** Command-line plumbing shared by every subcommand: usage errors and option parsing. */
import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { makeDir } from '../reports/dirs.ts';

/** A mistake in how the CLI was called: printed as one line, exit code 2, never a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** One subcommand of cms-conformance: `run` returns the process exit code. */
export interface Command {
  /** One line: what the command does. */
  summary: string;
  /** The usage text printed by `cms-conformance help NAME` and on a usage error. */
  usage: string;
  run(args: string[]): Promise<number>;
}

/** Parses options strictly (unknown flags are usage errors), turning node's errors into UsageError. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Parses an integer option value, or throws a UsageError naming the option. */
export function intOption(name: string, value: string | undefined, fallback: number, min = Number.MIN_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, got "${value}"`);
  const n = Number(value);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}, got ${n}`);
  return n;
}

/**
 * The folder an --out option names, made and checked writable before any work: a run of an hour must not
 * end in a folder its reports cannot go into.
 */
export function outDirOption(value: string | undefined, fallback: string): string {
  const dir = resolve(value ?? fallback);
  try {
    makeDir(dir);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const why =
      (err as NodeJS.ErrnoException).code === 'EACCES' || (err as NodeJS.ErrnoException).code === 'EROFS'
        ? `${dir} is not writable`
        : (err as Error).message;
    throw new UsageError(`--out ${value ?? fallback}: reports cannot go there: ${why}`);
  }
  return dir;
}
