/**
 * What README.md and docs/ tell a newcomer to type must work. The CI jobs of docs/ci.md (GitHub Actions,
 * GitLab CI) are what vendors copy: every cms-conformance command in them must parse as this CLI's options,
 * and each job must shard, merge, keep JUnit and write a statement. Beyond the jobs, every cms-conformance
 * command in a code block of README.md or docs/ must name a command and options it has; the example target
 * file must be one `run --target` accepts; README stays a front page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../cli/args.ts';
import { commandNamed } from '../../cli/main.ts';
import { loadTargetFile } from '../../harness/target.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const ciPage = read('docs/ci.md');
const jobs = [...ciPage.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

// docs/cli.md is generated from the commands' own option tables and checked by a test of its own.
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md') && f !== 'cli.md')
    .map((f) => join('docs', f)),
];

// The CI systems' variables, as a shard of three sees them.
const VARIABLES: [RegExp, string][] = [
  [/\$\{\{\s*matrix\.shard\s*\}\}/g, '2'],
  [/\$CI_NODE_INDEX/g, '2'],
  [/\$CI_NODE_TOTAL/g, '3'],
];

/** One shell line after `npx cms-conformance`, as the argument list the CLI gets (a trailing comment and simple quotes removed). */
function argv(line: string): string[] {
  let text = line.replace(/\s+#.*$/, '').trim();
  for (const [re, value] of VARIABLES) text = text.replace(re, value);
  return text.split(/\s+/).map((word) => word.replace(/^'(.*)'$/, '$1'));
}

/** Every `npx cms-conformance ...` of a text, as argument lists. */
function commands(text: string): string[][] {
  return [...text.matchAll(/npx cms-conformance ([^\n]+)/g)].map((m) => argv(m[1]!));
}

/** The code of a Markdown page: fenced blocks and indented blocks, without the prose around them. */
function codeOf(page: string): string {
  const fenced = [...page.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const indented = page
    .replace(/```[a-z]*\n[\s\S]*?```/g, '')
    .split('\n')
    .filter((line) => /^ {4}\S/.test(line));
  return [...fenced, ...indented].join('\n');
}

/** Throws when the arguments are not ones the command reads: its own parse where it has one, else its option table. */
async function expectParses(args: string[], where: string): Promise<void> {
  const [name, ...rest] = args;
  const load = commandNamed(name);
  expect(load, `${where}: cms-conformance ${name}`).toBeDefined();
  const { command } = await load!();
  if (command.parse) {
    expect(() => command.parse!(rest), `${where}: cms-conformance ${args.join(' ')}`).not.toThrow();
    return;
  }
  // No parse step of its own: its option table, the one parseArgs reads (cli/args.ts), takes the arguments.
  expect(
    () => parseOptions(rest, command.options, command.positionals !== undefined),
    `${where}: cms-conformance ${args.join(' ')}`,
  ).not.toThrow();
}

describe("docs/ci.md's CI jobs", () => {
  it('has a GitHub Actions job and a GitLab CI job', () => {
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toMatch(/runs-on:/);
    expect(jobs[1]).toMatch(/parallel:/);
  });

  it.each(jobs.map((job, i) => [i === 0 ? 'GitHub Actions' : 'GitLab CI', job] as const))(
    '%s: every command parses as the CLI reads it; the job shards, merges, keeps JUnit and a statement',
    async (name, job) => {
      const all = commands(job);
      expect(all.map((c) => c[0])).toEqual(['run', 'merge', 'statement']);
      for (const args of all) await expectParses(args, name);
      expect(all[0]).toContain('--shard');
      expect(job).toMatch(/junit/i);
      expect(job).toMatch(/reports\/statement/);
    },
  );

  it('says how the expectation file the jobs read is made, before the jobs', () => {
    const made = ciPage.indexOf('update-expectations --from reports/first --out ci/expectations.json');
    expect(made).toBeGreaterThan(-1);
    expect(made).toBeLessThan(ciPage.indexOf('```yaml'));
  });

  it('would catch a command that does not parse', async () => {
    const { command } = await commandNamed('run')!();
    expect(() => command.parse!(['--target', 'x.json', '--shard', '4/3'])).toThrow(/must not exceed/);
    expect(() => command.parse!(['--targets', 'x.json'])).toThrow();
    await expect(expectParses(['serve', '--prot', '8080'], 'a typo')).rejects.toThrow(/--prot/);
  });
});

describe('README.md and docs/', () => {
  it.each(pages)('%s: every cms-conformance command of its code blocks names a command and options it has', async (page) => {
    for (const args of commands(codeOf(read(page)))) await expectParses(args, page);
  });

  it('README shows commands of every quick start in its code blocks', () => {
    const used = new Set(commands(codeOf(read('README.md'))).map((c) => c[0]));
    for (const name of ['init', 'run', 'serve', 'update-expectations', 'statement', 'proxy']) expect(used).toContain(name);
  });

  it('README is a front page: at most 130 lines, the command for your own server within the first 40', () => {
    const lines = read('README.md').split('\n');
    expect(lines.length).toBeLessThanOrEqual(130);
    expect(lines.slice(0, 40).join('\n')).toMatch(/npx cms-conformance run --target /);
  });

  it('every relative link of README.md and docs/ names a file that exists', () => {
    for (const page of pages) {
      for (const [, link] of read(page).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(link!) || link!.endsWith('cli.md')) continue;
        expect(() => readFileSync(resolve(root, dirname(page), link!)), `${page} links ${link}`).not.toThrow();
      }
    }
  });

  it('the example target file is one `run --target` accepts', () => {
    const target = loadTargetFile(join(root, 'docs/examples/target.json'));
    expect(target.features).toContain('multichannelling');
    expect(target.fixture.sandboxParentFolderId).toBeTypeOf('number');
  });
});
