/**
 * The commands' option tables are the one source of what the CLI accepts and says: `help`, `NAME --help` and
 * docs/cli.md are rendered from them, and each command parses its arguments by its own table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseOptions, type Command, type OptionSpec, type OptionTable } from '../../cli/args.ts';
import { defaultOf, optionHead, overviewText, usageText } from '../../cli/help.ts';
import { COMMAND_GROUPS, COMMAND_NAMES, commandGroups, commandNamed, main } from '../../cli/main.ts';
import { CLI_DOCS_PATH, renderCliDocs } from '../../scripts/gen-cli-docs.ts';

// Checked by `tsc --noEmit`: an option cannot be added to a table without what help and docs/cli.md say of it.
// @ts-expect-error a string option without description and example
const undocumented: OptionSpec = { type: 'string', value: 'N', byDefault: '1' };
// @ts-expect-error a string option that names no value shape and no default
const shapeless: OptionSpec = { type: 'string', description: 'd', example: '--x 1' };
void [undocumented, shapeless];

const commands = await Promise.all(COMMAND_NAMES.map(async (name) => ({ name, command: (await commandNamed(name)!()).command })));

/** What `cms-conformance ARGS` prints on stdout, and its exit code. */
async function printed(...argv: string[]): Promise<{ code: number; out: string }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const code = await main(argv);
  return { code, out: log.mock.calls.map((c) => String(c[0])).join('\n') };
}

/** An example's arguments as a shell splits them (the examples quote with '...' or "..."). */
const shellWords = (line: string) => [...line.matchAll(/'[^']*'|"[^"]*"|\S+/g)].map((m) => m[0].replace(/^(['"])(.*)\1$/, '$2'));

/** Text with its line breaks and runs of spaces as one space: help wraps long lines anywhere between words. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

afterEach(() => vi.restoreAllMocks());

describe('docs/cli.md', () => {
  it('is exactly what npm run gen:cli-docs renders from the option tables', async () => {
    expect(readFileSync(CLI_DOCS_PATH, 'utf8'), 'docs/cli.md is stale: npm run gen:cli-docs').toBe(await renderCliDocs());
  });

  it('has a section per command with its usage line and a row per argument and option', async () => {
    const sections = new Map(
      readFileSync(CLI_DOCS_PATH, 'utf8')
        .split('\n## ')
        .slice(1)
        .map((s) => [s.slice(0, s.indexOf('\n')), s]),
    );
    for (const { name, command } of commands) {
      const section = sections.get(name) ?? '';
      expect(section, name).toContain(`\ncms-conformance ${name}`);
      for (const option of Object.keys(command.options))
        expect(section, `${name} --${option}`).toMatch(new RegExp(`^\\| \`--${option}\` \\|`, 'm'));
      for (const p of command.positionals ?? []) expect(section, `${name} ${p.name}`).toMatch(new RegExp(`^\\| \`${p.name}\` \\|`, 'm'));
    }
  });
});

describe('cms-conformance help <command>', () => {
  it.each(COMMAND_NAMES)('help %s names every option with its value shape and its default, as %s --help does', async (name) => {
    const { command } = await commandNamed(name)!();
    const help = await printed('help', name);
    expect(help.code).toBe(0);
    expect(help.out).toBe(usageText(name, command));
    for (const [option, spec] of Object.entries(command.options)) {
      expect(help.out, `--${option}`).toMatch(new RegExp(`^  ${optionHead(option, spec).replace(/[|.]/g, '\\$&')}( |$)`, 'm'));
      if (spec.type === 'string')
        expect(flat(help.out), `--${option}`).toContain(spec.required ? '(required)' : `default: ${defaultOf(spec)})`);
    }
    vi.restoreAllMocks();
    expect((await printed(name, '--help')).out).toBe(help.out);
  });

  it.each(COMMAND_NAMES)('%s parses every option of its table, with the type the table gives it', async (name) => {
    const { command } = await commandNamed(name)!();
    // Malformed uses are refused by parseArgs before any work: the message says whether it knows the option, and its type.
    for (const [option, spec] of Object.entries(command.options)) {
      if (spec.type === 'string')
        await expect(command.run([`--${option}`]), option).rejects.toThrow(`Option '--${option} <value>' argument missing`);
      else await expect(command.run([`--${option}=x`]), option).rejects.toThrow(`Option '--${option}' does not take an argument`);
    }
    await expect(command.run(['--not-an-option'])).rejects.toThrow("Unknown option '--not-an-option'");
    if (!command.positionals?.length) await expect(command.run(['stray'])).rejects.toThrow("Unexpected argument 'stray'");
  });

  it.each(COMMAND_NAMES)("%s: every example parses by the command's table and uses its option", async (name) => {
    const { command } = await commandNamed(name)!();
    const examples: [string, string][] = [
      ...Object.entries(command.options).map(([option, spec]): [string, string] => [`--${option}`, spec.example]),
      ...(command.positionals ?? []).map((p): [string, string] => [p.name, p.example]),
    ];
    for (const [what, example] of examples) {
      const args = shellWords(example);
      expect(() => parseOptions(args, command.options, Boolean(command.positionals?.length)), `${what}: ${example}`).not.toThrow();
      expect(() => command.parse?.(args), `${what}: ${example}`).not.toThrow();
      if (what.startsWith('--'))
        expect(
          args.some((a) => a === what || a.startsWith(`${what}=`)),
          `${what}: ${example}`,
        ).toBe(true);
    }
  });

  it.each(COMMAND_NAMES)("%s's prose names only options that exist", async (name) => {
    const { command } = await commandNamed(name)!();
    const texts = [...command.about, command.exit, ...Object.values(command.options).map((o: OptionSpec) => o.description)];
    const known = new Map<string, OptionTable>(commands.map((c) => [c.name, c.command.options]));
    // "--x" is an option of this command, unless a command's name comes first: `serve --list-faults`.
    for (const [, before, option] of texts.join('\n').matchAll(/(?:\b([a-z][a-z-]*) )?--([a-z0-9][a-z0-9-]*)/g)) {
      const table = (before && known.get(before)) || command.options;
      expect(Object.keys(table), `${before ?? name} --${option}`).toContain(option);
    }
  });

  it('keeps every line of every help text within 100 columns, and code in backticks on one line', () => {
    for (const { name, command } of commands) {
      const lines = usageText(name, command).split('\n');
      expect(
        lines.filter((l) => l.length > 100),
        name,
      ).toEqual([]);
      expect(
        lines.filter((l) => (l.match(/`/g) ?? []).length % 2),
        name,
      ).toEqual([]);
    }
  });

  it('a positional given to a command that takes none is a usage error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await main(['requirements', 'extra'])).toBe(2);
  });
});

describe('the option tables', () => {
  // The other way round from the probes above: what parseArgs accepts is what a table documents, because every
  // parseOptions call of a command gives it the command's own table, never a table written inline.
  const sources = readdirSync(new URL('../../cli/', import.meta.url))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [f, readFileSync(new URL(`../../cli/${f}`, import.meta.url), 'utf8')] as const)
    .filter(([, text]) => /^export const command: Command = \{$/m.test(text));

  it('are found in every command file', () => {
    expect(sources.map(([f]) => f.replace(/\.ts$/, '')).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it.each(sources)('%s parses only by its documented table', (_file, text) => {
    const calls = [...text.matchAll(/parseOptions\(([^)]*)/g)].map((m) => m[1]!);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      const table = /^\s*args,\s*([A-Z_]+)\b/.exec(call)?.[1];
      expect(table, call).toBeDefined();
      expect(text).toMatch(new RegExp(`^export const ${table} = \\{$|^const ${table} = \\{$`, 'm'));
      expect(text).toMatch(new RegExp(`^\\} as const satisfies (OptionTable|Record<string, ReplayOptionSpec>);$`, 'm'));
      expect(text).toMatch(new RegExp(`^  options: ${table},$`, 'm'));
    }
  });
});

describe('cms-conformance help', () => {
  it('puts every command in exactly one group, and only commands', () => {
    const grouped = COMMAND_GROUPS.flatMap((g) => g.commands);
    expect([...grouped].sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it.each([[['help']], [['--help']], [['-h']]])('%j lists the commands by task, run first, in aligned columns', async (argv) => {
    const { code, out } = await printed(...argv);
    expect(code).toBe(0);
    expect(out).toBe(overviewText(await commandGroups()));
    const rows = out.split('\n').filter((l) => /^ {2}[a-z]/.test(l));
    expect(rows.map((r) => r.trim().split(/\s+/)[0])).toEqual(COMMAND_GROUPS.flatMap((g) => g.commands));
    expect(rows[0]).toMatch(/^ {2}run /);
    const column = rows.map((r) => r.search(/(?<=\S {2,})\S/));
    expect(new Set(column).size).toBe(1);
    for (const g of COMMAND_GROUPS.filter((g) => g.commands.length)) expect(out).toContain(`\n${g.title}:\n`);
  });

  it('no arguments prints the same list and exits 2', async () => {
    const { code, out } = await printed();
    expect(code).toBe(2);
    expect(out).toBe(overviewText(await commandGroups()));
  });

  it('a group with no commands is not shown; a command in a group is', () => {
    const stray: Command = { ...commands[0]!.command, summary: 'a command added without a group' };
    const text = overviewText([
      { title: 'Test a server', commands: [] },
      { title: 'Other commands', commands: [{ name: 'stray', command: stray }] },
    ]);
    expect(text).not.toContain('Test a server');
    expect(text).toMatch(/^Other commands:\n {2}stray {2}a command added without a group$/m);
  });
});
