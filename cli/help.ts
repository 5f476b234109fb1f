/**
 * What `help`, `NAME --help` and docs/cli.md say, all rendered from the commands' own tables (Command in
 * cli/args.ts): the options are documented where they are parsed, and written nowhere else.
 */
import type { Command, OptionSpec, Positional } from './args.ts';

/** A command with its name, as the overview and the reference list it. */
export interface NamedCommand {
  name: string;
  command: Command;
}

/** The commands of one task, in the order they are listed. */
export interface CommandGroup {
  title: string;
  commands: readonly NamedCommand[];
}

// Terminals of 100 columns and more are the rule; the texts were written to that width.
const WIDTH = 100;
// An option whose head is longer gets its description on the lines below it.
const HEAD_WIDTH = 24;

/**
 * The words of `text` in lines of at most `width` columns (a longer word has a line of its own). Code in backticks
 * is one word: `serve --list-faults` is typed as one.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const [word] of text.matchAll(/(?:`[^`]*`|[^\s`])+/g)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** A summary or a description as a sentence: capital first, full stop last. */
const sentence = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}${/[.:]$/.test(text) ? '' : '.'}`;

/** `--name VALUE`, or `--name` for a boolean option. */
export function optionHead(name: string, spec: OptionSpec): string {
  return spec.value === undefined ? `--${name}` : `--${name} ${spec.value}`;
}

/** What holds when the option is not given: its default, "required", or "off" for a flag. */
export function defaultOf(spec: OptionSpec): string {
  if (spec.type === 'boolean') return 'off';
  return spec.required ? 'required' : spec.byDefault;
}

/** A positional argument as the usage line shows it: FILE..., [FILE...]. */
function positionalHead(p: Positional): string {
  const head = `${p.name}${p.multiple ? '...' : ''}`;
  return p.required ? head : `[${head}]`;
}

/** The usage line: the options the command needs, then `[options]` for the others, then its positionals. */
export function usageLine(name: string, command: Command): string {
  const options = Object.entries(command.options);
  const needed = options.filter(([, spec]) => spec.required).map(([n, spec]) => optionHead(n, spec));
  const others = options.some(([, spec]) => !spec.required) ? ['[options]'] : [];
  return ['cms-conformance', name, ...needed, ...others, ...(command.positionals ?? []).map(positionalHead)].join(' ');
}

/** The bracket after an option's description in help: its default, or that it is required, and whether it repeats. */
function trailer(spec: OptionSpec): string {
  const parts = [
    ...(spec.multiple ? ['repeatable'] : []),
    ...(spec.type === 'string' ? [spec.required ? 'required' : `default: ${spec.byDefault}`] : []),
  ];
  return parts.length ? ` (${parts.join('; ')})` : '';
}

/** One entry of an options list: the head, then the description wrapped beside it or below it. */
function entry(head: string, text: string): string[] {
  const indent = ' '.repeat(2 + HEAD_WIDTH + 2);
  const lines = wrap(text, WIDTH - indent.length);
  const first = head.length > HEAD_WIDTH ? [`  ${head}`] : [`  ${head.padEnd(HEAD_WIDTH)}  ${lines.shift()}`];
  return [...first, ...lines.map((l) => indent + l)];
}

/** A paragraph of prose wrapped for a terminal; a list item ("- ") hangs under its dash. */
function paragraph(text: string): string[] {
  if (!text.startsWith('- ')) return wrap(text, WIDTH);
  return wrap(text.slice(2), WIDTH - 4).map((l, i) => (i ? `    ${l}` : `  - ${l}`));
}

/** The text of `cms-conformance help NAME` and `NAME --help`. */
export function usageText(name: string, command: Command): string {
  const lines = [`usage: ${usageLine(name, command)}`, '', ...wrap(sentence(command.summary), WIDTH)];
  if (command.positionals?.length) {
    lines.push('', 'arguments:');
    for (const p of command.positionals) lines.push(...entry(positionalHead(p), p.description));
  }
  const options = Object.entries(command.options);
  if (options.length) {
    lines.push('', 'options:');
    for (const [n, spec] of options) lines.push(...entry(optionHead(n, spec), `${spec.description}${trailer(spec)}`));
  }
  for (const p of command.about) lines.push(...(p.startsWith('- ') ? [] : ['']), ...paragraph(p));
  lines.push('', ...wrap(`Exit: ${command.exit}`, WIDTH));
  return lines.join('\n');
}

/** The overview of `help`, `--help` and no arguments: the commands by task, with aligned columns. */
export function overviewText(groups: readonly CommandGroup[]): string {
  const width = Math.max(...groups.flatMap((g) => g.commands.map((c) => c.name.length)));
  const lines = ['usage: cms-conformance <command> [options]'];
  for (const group of groups) {
    if (!group.commands.length) continue;
    lines.push('', `${group.title}:`);
    for (const { name, command } of group.commands) {
      const [first, ...rest] = wrap(command.summary, WIDTH - width - 4);
      lines.push(`  ${name.padEnd(width)}  ${first}`, ...rest.map((l) => `${' '.repeat(width + 4)}${l}`));
    }
  }
  lines.push('', 'cms-conformance help <command> shows the options of one command; docs/cli.md has them all.');
  return lines.join('\n');
}

/** A table cell's text: pipes escaped (GitHub ends a cell at one even inside code). */
const cell = (text: string) => text.replace(/\|/g, '\\|');
const code = (text: string) => cell(`\`${text}\``);

/** An option's type cell: string or boolean, the shape of its value, and whether it repeats. */
function typeOf(spec: OptionSpec): string {
  return [spec.type, ...(spec.value ? [code(spec.value)] : []), ...(spec.multiple ? ['repeatable'] : [])].join(', ');
}

/** docs/cli.md: every command's summary, usage line, arguments, options (type, default, example) and notes. */
export function referenceMarkdown(groups: readonly CommandGroup[]): string {
  const out = [
    '# CLI reference',
    '',
    '<!-- Generated by `npm run gen:cli-docs` from the option tables in cli/*.ts: edit those, not this file.',
    '     test/cli/help.test.ts fails when this file and the tables disagree. -->',
    '',
    'Every command also prints its part of this page: `cms-conformance help <command>` or `cms-conformance <command> --help`.',
    'Exit codes shared by all: 2 is a usage error (said in one line on stderr).',
  ];
  for (const group of groups) {
    if (!group.commands.length) continue;
    out.push('', `**${group.title}:** ${group.commands.map(({ name }) => `[${name}](#${name})`).join(', ')}`);
  }
  for (const group of groups) {
    for (const { name, command } of group.commands) {
      out.push('', `## ${name}`, '', sentence(command.summary), '');
      out.push('```', usageLine(name, command), '```');
      if (command.positionals?.length) {
        out.push('', '| Argument | Repeatable | Required | What it is | Example |', '|---|---|---|---|---|');
        for (const p of command.positionals)
          out.push(
            `| ${code(p.name)} | ${p.multiple ? 'yes' : 'no'} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)} | ${code(`cms-conformance ${name} ${p.example}`)} |`,
          );
      }
      const options = Object.entries(command.options);
      if (options.length) {
        out.push('', '| Option | Type | Default | What it does | Example |', '|---|---|---|---|---|');
        for (const [n, spec] of options)
          out.push(
            `| ${code(`--${n}`)} | ${typeOf(spec)} | ${cell(defaultOf(spec))} | ${cell(spec.description)} | ${code(`cms-conformance ${name} ${spec.example}`)} |`,
          );
      }
      // Markdown joins lines: a blank line between paragraphs, none between the items of one list.
      command.about.forEach((p, i) => out.push(...(i && p.startsWith('- ') && command.about[i - 1]!.startsWith('- ') ? [] : ['']), p));
      out.push('', `Exit codes: ${command.exit}`);
    }
  }
  return `${out.join('\n')}\n`;
}
