/** cms-conformance: the command-line entry point; each subcommand lives in its own module. */
import { UsageError, type Command } from './args.ts';
import { overviewText, usageText, type CommandGroup } from './help.ts';

export { setVitestImport } from './load-engine.ts';

// Loaded on demand so `cms-conformance validate` does not pay for the server or the suites.
const commands = {
  validate: () => import('./validate.ts'),
  requirements: () => import('./requirements.ts'),
  openapi: () => import('./openapi.ts'),
  serve: () => import('./serve.ts'),
  run: () => import('./run.ts'),
  init: () => import('./init.ts'),
  clean: () => import('./clean.ts'),
  prove: () => import('./prove.ts'),
  'update-expectations': () => import('./update-expectations.ts'),
  merge: () => import('./merge.ts'),
  statement: () => import('./statement.ts'),
  proxy: () => import('./proxy.ts'),
  history: () => import('./history.ts'),
} satisfies Record<string, () => Promise<{ command: Command }>>;

/** A command's name, as typed after cms-conformance. */
export type CommandName = keyof typeof commands;

/** Every command's name. */
export const COMMAND_NAMES = Object.keys(commands) as CommandName[];

/**
 * How `help` and docs/cli.md list the commands: by task, the main job first. A command is one line in one
 * group; test/cli/help.test.ts fails when a command is in none. A group with no commands is not shown.
 */
export const COMMAND_GROUPS: readonly { title: string; commands: readonly CommandName[] }[] = [
  { title: 'Test a server', commands: ['run', 'init', 'clean', 'statement', 'merge', 'update-expectations'] },
  { title: 'Track runs', commands: ['history'] },
  { title: 'The reference server', commands: ['serve', 'prove'] },
  { title: 'Check traffic and records', commands: ['proxy', 'validate'] },
  { title: 'The contract', commands: ['requirements', 'openapi'] },
];

/** The loader of a command by name; only the commands' own names (a name like "constructor" is not one). */
export function commandNamed(name: string | undefined): (() => Promise<{ command: Command }>) | undefined {
  return name !== undefined && Object.hasOwn(commands, name) ? commands[name as CommandName] : undefined;
}

/** Every command, loaded, in COMMAND_GROUPS' order; one that no group lists comes last, under "Other commands", so it is never hidden. */
export async function commandGroups(): Promise<CommandGroup[]> {
  const grouped = new Set(COMMAND_GROUPS.flatMap((g) => g.commands));
  const others = COMMAND_NAMES.filter((n) => !grouped.has(n));
  const groups = [...COMMAND_GROUPS, ...(others.length ? [{ title: 'Other commands', commands: others }] : [])];
  return Promise.all(
    groups.map(async (g) => ({
      title: g.title,
      commands: await Promise.all(g.commands.map(async (name) => ({ name, command: (await commands[name]()).command }))),
    })),
  );
}

async function usage(): Promise<string> {
  return overviewText(await commandGroups());
}

/**
 * Lets the process outlive a closed stdout or stderr (`cms-conformance ... | head`): what could be
 * written was, the rest is dropped, and the command still finishes its work (a run removes its
 * sandbox and writes its reports) instead of dying on an EPIPE stack trace.
 */
export function survivePipeClose(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      // Once the reader is gone every later write fails too: EPIPE first, then a destroyed stream.
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
      throw err;
    });
  }
}

/** Runs the CLI with the given arguments and returns the exit code (0 ok, 1 failures, 2 usage, 3 unreachable). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (!name || name === '--help' || name === '-h') {
      console.log(await usage());
      return name ? 0 : 2;
    }
    if (name === 'help') {
      if (rest[0] !== undefined && !commandNamed(rest[0]))
        throw new UsageError(`unknown command "${rest[0]}" (try: cms-conformance --help)`);
      const load = commandNamed(rest[0]);
      console.log(load ? usageText(rest[0]!, (await load()).command) : await usage());
      return 0;
    }
    const load = commandNamed(name);
    if (!load) throw new UsageError(`unknown command "${name}" (try: cms-conformance --help)`);
    const { command } = await load();
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(usageText(name, command));
      return 0;
    }
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`cms-conformance: ${err.message.replace(/\s*\n\s*/g, ' ')}`);
      return 2;
    }
    // Anything else is our bug, not the user's: say so in one line, keep the stack for --debug.
    console.error(`cms-conformance: internal error: ${(err as Error).message}`);
    if (process.env.CMS_CONFORMANCE_DEBUG) console.error((err as Error).stack);
    return 2;
  }
}
