/** `cms-conformance update-expectations`: writes or updates a target's expectation file from one or more runs. */
import {
  FLAKY,
  isFlaky,
  loadExpectationsIfPresent,
  todayUtc,
  writeExpectations,
  type Expectation,
  type Expectations,
} from '../reports/expectations.ts';
import { oneLine } from '../reports/markdown.ts';
import { ReportInputError, loadResults } from '../reports/results.ts';
import type { Results, TestResult } from '../schemas/results.ts';
import { UsageError, parseOptions, type Command, type OptionTable } from './args.ts';

const OPTIONS = {
  from: {
    type: 'string',
    multiple: true,
    value: 'RESULTS',
    required: true,
    description: 'a run of the target: its results.json, or the report folder holding it',
    example: '--from reports/run-1 --from reports/run-2 --out expectations.json',
  },
  out: {
    type: 'string',
    value: 'FILE',
    required: true,
    description: 'the expectation file to write, or to update when it exists',
    example: '--from reports/out --out expectations.json',
  },
} as const satisfies OptionTable;

/** What the given runs saw of one test: the runs that passed it and those that failed it. */
interface Seen {
  passed: Results[];
  failed: { run: Results; test: TestResult }[];
}

function firstProblem(t: TestResult): string {
  const f = t.findings.find((x) => x.severity === 'error');
  return f ? `${f.check}: ${f.message}` : (t.reason ?? 'failed');
}

const seedList = (seeds: readonly number[] = []) => `seed${seeds.length === 1 ? '' : 's'} ${seeds.join(', ')}`;

const union = (a: readonly number[] | undefined, b: readonly number[]) => [...new Set([...(a ?? []), ...b])].sort((x, y) => x - y);

function flakyEntry(existing: Expectation | undefined, seen: Seen): Expectation {
  const seeds = {
    PASS: union(
      existing?.seeds?.PASS,
      seen.passed.map((r) => r.seed),
    ),
    FAIL: union(
      existing?.seeds?.FAIL,
      seen.failed.map((f) => f.run.seed),
    ),
  };
  const first = seen.failed[0];
  const reason =
    existing?.reason ??
    oneLine(
      `flaky since ${first ? first.run.startedAt.slice(0, 10) : todayUtc()}: ${first ? firstProblem(first.test) : 'passes and fails'}`,
      300,
    );
  return {
    expected: FLAKY,
    reason,
    ...(existing?.issue ? { issue: existing.issue } : {}),
    ...(existing?.until ? { until: existing.until } : {}),
    seeds,
  };
}

export const command: Command = {
  summary: 'write or update an expectation file from runs: failures become expected, flaky tests allowed, passes leave',
  options: OPTIONS,
  about: [
    'Writes or updates an expectation file from one or more runs of one target:',
    '- a test that failed in every run that ran it becomes an expected FAIL (an existing entry keeps its reason, issue and until);',
    '- a test that passed in one run and failed in another is recorded as flaky: both outcomes are allowed ("expected": ["PASS", "FAIL"]), with the seeds that saw each, and never fails a run;',
    '- a test that passed in every run leaves the file, unless the file calls it flaky (remove such an entry by hand once the cause is fixed);',
    '- skipped tests and ids no run had stay as they are.',
    'Edit the reasons it writes: they only quote the first finding.',
  ],
  exit: '0 written, 2 usage error or unreadable file.',
  async run(args) {
    const { values } = parseOptions(args, OPTIONS);
    if (!values.from?.length || !values.out) throw new UsageError('update-expectations needs --from RESULTS and --out FILE');
    let next: Expectations;
    const lines: string[] = [];
    try {
      const runs = values.from.map(loadResults);
      const before = loadExpectationsIfPresent(values.out);
      next = { ...before };
      const seen = new Map<string, Seen>();
      for (const run of runs) {
        for (const test of run.tests) {
          const s = seen.get(test.id) ?? { passed: [], failed: [] };
          if (test.status === 'passed') s.passed.push(run);
          if (test.status === 'failed') s.failed.push({ run, test });
          seen.set(test.id, s);
        }
      }
      const today = todayUtc();
      for (const [id, s] of [...seen].sort(([a], [b]) => a.localeCompare(b))) {
        const existing = Object.hasOwn(before, id) ? before[id] : undefined;
        if (s.passed.length && s.failed.length) {
          next[id] = flakyEntry(existing, s);
          const changed = JSON.stringify(next[id]) !== JSON.stringify(existing);
          if (changed)
            lines.push(`flaky    ${id} (passed with ${seedList(next[id].seeds?.PASS)}; failed with ${seedList(next[id].seeds?.FAIL)})`);
        } else if (existing && isFlaky(existing)) {
          // One outcome in these runs does not make a flaky test steady: only its seeds are added.
          next[id] = flakyEntry(existing, s);
          if (!s.failed.length && s.passed.length)
            lines.push(`kept     ${id} (flaky; passed in every run given: remove it by hand once the cause is fixed)`);
        } else if (s.passed.length && existing) {
          delete next[id];
          lines.push(`removed  ${id} (passes now)`);
        } else if (s.failed.length && !existing) {
          const first = s.failed[0]!;
          next[id] = {
            expected: 'FAIL',
            reason: oneLine(`failing since ${first.run.startedAt.slice(0, 10)}: ${firstProblem(first.test)}`, 300),
          };
          lines.push(`added    ${id}`);
        } else if (s.failed.length && existing?.until !== undefined && existing.until < today) {
          lines.push(`expired  ${id} (until ${existing.until}): extend "until" or fix the target`);
        }
      }
      for (const id of Object.keys(before).filter((k) => !seen.has(k)))
        lines.push(`stale    ${id} (not in ${runs.length > 1 ? 'these runs' : 'this run'}; kept)`);
    } catch (err) {
      if (err instanceof ReportInputError) throw new UsageError(err.message);
      throw err;
    }
    try {
      writeExpectations(values.out, next);
    } catch (err) {
      throw new UsageError(`--out ${values.out}: ${(err as Error).message}`);
    }
    const changed = lines.filter((l) => /^(added|removed|flaky)/.test(l)).length;
    console.log(
      [...lines, `${values.out}: ${Object.keys(next).length} entries (${changed ? `${changed} changed` : 'unchanged'})`].join('\n'),
    );
    return 0;
  },
};
