/** Command-line plumbing shared by every subcommand: usage errors and option parsing. */
import { accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
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
  /**
   * Its options: the one table that parseArgs reads and that `help NAME`, `NAME --help` and docs/cli.md describe
   * (cli/help.ts), so that what is parsed and what is documented cannot drift apart.
   */
  options: OptionTable;
  /** The arguments that are not options (merge's RESULTS..., validate's FILE...); none when absent. */
  positionals?: readonly Positional[];
  /** What the command does beyond each option: paragraphs of one line each (help wraps them); one starting "- " is a list item. */
  about: readonly string[];
  /** The exit codes, one line: "0 ..., 1 ..., 2 usage error". */
  exit: string;
  run(args: string[]): Promise<number>;
  /** Reads the arguments as `run` would and does nothing else: a UsageError says what is wrong (README's CI jobs are checked so). */
  parse?(args: string[]): void;
}

/** An argument of a command that is not an option. */
export interface Positional {
  /** Its shape in the usage line, e.g. FILE. */
  name: string;
  /** Whether several may be given (FILE...). */
  multiple: boolean;
  /** Whether the command needs at least one. */
  required: boolean;
  /** What it is. */
  description: string;
  /** The arguments of an example use, after the command's name. */
  example: string;
}

/**
 * Parses options strictly (unknown flags are usage errors), turning node's errors into UsageError. A command gives its
 * own `options` table (test/cli/help.test.ts checks it does), so that it accepts exactly what it documents.
 */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    // Node's messages can run over several lines ("--rate -1" is taken for a missing value): the CLI says one.
    throw new UsageError((err as Error).message.replace(/\s*\n\s*/g, ' '));
  }
}

/** What help and docs/cli.md say of every option; required, so that an option cannot be added undocumented. */
interface OptionDoc {
  /** What the option does: one line (help wraps it), no default (byDefault says it). */
  description: string;
  /** The arguments of an example use, after the command's name (`--seed 7`); help's tests parse it by the table. */
  example: string;
}

/**
 * One option of a command's table: how parseArgs reads it (type, multiple) and how it is documented. A string option
 * names its value's shape (FILE, N, URL) and says what holds when it is not given, unless the command needs it.
 */
export type OptionSpec = OptionDoc &
  (
    | { type: 'string'; multiple?: boolean; value: string; required: true; byDefault?: never }
    | { type: 'string'; multiple?: boolean; value: string; required?: never; byDefault: string }
    | { type: 'boolean'; multiple?: never; value?: never; required?: never; byDefault?: never; default?: boolean }
  );

/** A command's options by name, as parseArgs reads them (node's parseArgs ignores the documentation members). */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** An option of run's table: whether a replay line repeats it as well. */
export type ReplayOptionSpec = OptionSpec & {
  /**
   * True for an option that changes what a run does, which a replay line must repeat; false for one that
   * does not, or that the replay line gives itself. Required, so that a new option cannot be forgotten.
   */
  replay: boolean;
};

/** Parsed option values as parseArgs returns them. */
export type OptionValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** The arguments that give the options a table marks `replay` these parsed values again, in the table's order. */
export function replayArgsOf(table: Readonly<Record<string, ReplayOptionSpec>>, values: OptionValues): string[] {
  const args: string[] = [];
  for (const [name, spec] of Object.entries(table)) {
    const value = values[name];
    if (!spec.replay || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === true) args.push(`--${name}`);
      // A value starting with a dash goes with its option in one argument: parseArgs refuses `--target -t.json`.
      else if (typeof one === 'string') args.push(...(one.startsWith('-') ? [`--${name}=${one}`] : [`--${name}`, one]));
    }
  }
  return args;
}

/** Parses an integer option value, or throws a UsageError naming the option. */
export function intOption(name: string, value: string | undefined, fallback: number, min = Number.MIN_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, got "${value}"`);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new UsageError(`--${name} must be an integer a double holds exactly, got "${value}"`);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}, got ${n}`);
  return n;
}

/** The largest seed: fast-check's seeds are 32-bit, so N and N + 2^32 would be one run under two names. */
export const MAX_SEED = 2 ** 32 - 1;

/** Parses a seed option value: an integer from 0 to 2^32-1, so a printed replay line is accepted as printed. */
export function seedValue(name: string, value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n <= MAX_SEED)) throw new UsageError(`--${name} must be an integer from 0 to ${MAX_SEED}, got "${value}"`);
  return n;
}

/** The file an option names (`init --out`, `serve --write-target`), its folder made before any work; a folder that cannot be made is a usage error. */
export function outFileOption(option: string, value: string): string {
  const file = resolve(value);
  try {
    makeDir(dirname(file));
  } catch (err) {
    throw new UsageError(`--${option} ${value}: the file cannot go there: ${(err as Error).message}`);
  }
  return file;
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
