/**
 * README's CI jobs (GitHub Actions, GitLab CI) are what vendors copy: every cms-conformance command in
 * them must parse as this CLI's options, and each job must shard, merge, keep JUnit and write a statement.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandNamed } from '../../cli/main.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf("## In a vendor's CI"), readme.indexOf('## Checking a real client'));
const jobs = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

// The CI systems' variables, as a shard of three sees them.
const VARIABLES: [RegExp, string][] = [
  [/\$\{\{\s*matrix\.shard\s*\}\}/g, '2'],
  [/\$CI_NODE_INDEX/g, '2'],
  [/\$CI_NODE_TOTAL/g, '3'],
];

/** Every `npx cms-conformance ...` of a job, as the argument list the CLI gets. */
function commands(job: string): string[][] {
  return [...job.matchAll(/npx cms-conformance ([^\n]+)/g)].map((m) => {
    let line = m[1]!.trim();
    for (const [re, value] of VARIABLES) line = line.replace(re, value);
    return line.split(/\s+/);
  });
}

describe("README's CI jobs", () => {
  it('has a GitHub Actions job and a GitLab CI job', () => {
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toMatch(/runs-on:/);
    expect(jobs[1]).toMatch(/parallel:/);
  });

  it.each(jobs.map((job, i) => [i === 0 ? 'GitHub Actions' : 'GitLab CI', job] as const))(
    '%s: every command parses as the CLI reads it; the job shards, merges, keeps JUnit and a statement',
    async (_name, job) => {
      const all = commands(job);
      expect(all.map((c) => c[0])).toEqual(['run', 'merge', 'statement']);
      for (const [name, ...args] of all) {
        const load = commandNamed(name);
        expect(load, `cms-conformance ${name}`).toBeDefined();
        const { command } = await load!();
        expect(command.parse, `${name} has no parse`).toBeDefined();
        expect(() => command.parse!(args), `cms-conformance ${name} ${args.join(' ')}`).not.toThrow();
      }
      expect(all[0]).toContain('--shard');
      expect(job).toMatch(/junit/i);
      expect(job).toMatch(/reports\/statement/);
    },
  );

  it('would catch a command that does not parse', async () => {
    const { command } = await commandNamed('run')!();
    expect(() => command.parse!(['--target', 'x.json', '--shard', '4/3'])).toThrow(/must not exceed/);
    expect(() => command.parse!(['--targets', 'x.json'])).toThrow();
  });
});
