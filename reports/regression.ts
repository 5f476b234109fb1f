/**
 * Regression against a baseline: what changed between an earlier results.json (a previous release,
 * the main branch) and this run, by test id and by requirement id. A failure is a failed status,
 * expected or not: the comparison is about behaviour, the expectation file about gating.
 */
import { mdText, oneLine } from './markdown.ts';
import type { Results, SeedSource, TestResult } from '../schemas/results.ts';
import { hadNothingToJudge, seedText } from './results.ts';

/** One test or requirement in a regression list. */
export interface RegressionEntry {
  id: string;
  requirement: string;
  /** The first error finding (or reason) of the failing side. */
  message?: string;
  /** Set when the current run's expectation file excuses the failure. */
  expected?: boolean;
}

/** The three lists of a comparison at one level (tests or requirements), plus what cannot be compared. */
export interface RegressionLists {
  newFailures: RegressionEntry[];
  fixed: RegressionEntry[];
  stillFailing: RegressionEntry[];
  /** Failing in the baseline, skipped, absent or with nothing to judge now: nobody knows. */
  notRunNow: RegressionEntry[];
}

/** Which run a side of a comparison is. */
export interface RunHead {
  startedAt: string;
  seed: number;
  seedSource?: SeedSource;
  baseUrl: string;
}

/** A comparison of a run with its baseline. */
export interface Regression {
  baseline: RunHead;
  current: RunHead;
  tests: RegressionLists;
  requirements: RegressionLists;
}

function firstProblem(t: TestResult): string | undefined {
  const f = t.findings.find((x) => x.severity === 'error');
  return f ? `${f.check}: ${f.message}` : t.reason;
}

type Status = TestResult['status'] | undefined;

function entry(id: string, requirement: string, failing: TestResult | undefined, expected: boolean, namesTest = false): RegressionEntry {
  const problem = failing && firstProblem(failing);
  const message = failing && namesTest ? `${failing.id}${problem ? `: ${problem}` : ''}` : problem;
  return { id, requirement, ...(message ? { message } : {}), ...(expected ? { expected } : {}) };
}

function classify(lists: RegressionLists, before: Status, now: Status, make: (failing: 'before' | 'now') => RegressionEntry): void {
  if (now === 'failed') (before === 'failed' ? lists.stillFailing : lists.newFailures).push(make('now'));
  else if (before === 'failed') (now === 'passed' ? lists.fixed : lists.notRunNow).push(make('before'));
}

function emptyLists(): RegressionLists {
  return { newFailures: [], fixed: [], stillFailing: [], notRunNow: [] };
}

/**
 * A test's status as a comparison sees it: a pass that had none of the target's data to judge counts as
 * not run, so a failure of the baseline is not called fixed by a run that could not look.
 */
function judgedStatus(t: TestResult | undefined): Status {
  return t && hadNothingToJudge(t) ? 'skipped' : t?.status;
}

/** The status of a requirement over its tests: failed if any failed, else passed if any passed having judged something, else skipped. */
function requirementStatus(tests: readonly TestResult[]): Status {
  if (!tests.length) return undefined;
  if (tests.some((t) => t.status === 'failed')) return 'failed';
  return tests.some((t) => judgedStatus(t) === 'passed') ? 'passed' : 'skipped';
}

function byKey(tests: readonly TestResult[], key: (t: TestResult) => string): Map<string, TestResult[]> {
  const map = new Map<string, TestResult[]>();
  for (const t of tests) map.set(key(t), [...(map.get(key(t)) ?? []), t]);
  return map;
}

/** Compares a run with its baseline, test by test and requirement by requirement. */
export function compareResults(baseline: Results, current: Results): Regression {
  const tests = emptyLists();
  const before = new Map(baseline.tests.map((t) => [t.id, t]));
  const now = new Map(current.tests.map((t) => [t.id, t]));
  for (const id of [...new Set([...before.keys(), ...now.keys()])].sort()) {
    const b = before.get(id);
    const n = now.get(id);
    const requirement = (n ?? b)?.requirement ?? '';
    classify(tests, judgedStatus(b), judgedStatus(n), (side) =>
      entry(id, requirement, side === 'now' ? n : b, n?.outcome === 'expected-fail'),
    );
  }
  const requirements = emptyLists();
  const reqBefore = byKey(baseline.tests, (t) => t.requirement);
  const reqNow = byKey(current.tests, (t) => t.requirement);
  for (const id of [...new Set([...reqBefore.keys(), ...reqNow.keys()])].sort()) {
    const b = reqBefore.get(id) ?? [];
    const n = reqNow.get(id) ?? [];
    const failing = (side: 'before' | 'now') => (side === 'now' ? n : b).find((t) => t.status === 'failed');
    const expected = n.some((t) => t.status === 'failed') && n.every((t) => t.status !== 'failed' || t.outcome === 'expected-fail');
    classify(requirements, requirementStatus(b), requirementStatus(n), (side) => entry(id, id, failing(side), expected, true));
  }
  const head = (r: Results): RunHead => ({
    startedAt: r.startedAt,
    seed: r.seed,
    ...(r.seedSource ? { seedSource: r.seedSource } : {}),
    baseUrl: r.target.baseUrl,
  });
  return { baseline: head(baseline), current: head(current), tests, requirements };
}

/** Says when the two runs used different seeds: generated requests differ, so a change may come from the seed, not the target. */
export function seedNote(regression: Regression): string | undefined {
  const { baseline: b, current: c } = regression;
  if (b.seed === c.seed) return undefined;
  return (
    `the baseline and this run used different seeds (baseline ${seedText(b)}, this run ${seedText(c)}): ` +
    'a difference may come from the generated requests, not the target'
  );
}

const headings: [keyof RegressionLists, string][] = [
  ['newFailures', 'New failures'],
  ['fixed', 'Fixed'],
  ['stillFailing', 'Still failing'],
  ['notRunNow', 'Failing in the baseline, not run now (skipped, absent, or nothing to judge)'],
];

/** The comparison as printable text: a count line, then one line per test that changed. */
export function renderRegressionText(regression: Regression): string[] {
  const t = regression.tests;
  const r = regression.requirements;
  const lines = [
    `regression against the baseline of ${regression.baseline.startedAt}: ` +
      `${t.newFailures.length} new failures, ${t.fixed.length} fixed, ${t.stillFailing.length} still failing` +
      `${t.notRunNow.length ? `, ${t.notRunNow.length} not run now` : ''} ` +
      `(requirements: ${r.newFailures.length} new, ${r.fixed.length} fixed, ${r.stillFailing.length} still failing)`,
  ];
  const seeds = seedNote(regression);
  if (seeds) lines.push(`  note: ${seeds}`);
  const marks: Record<keyof RegressionLists, string> = { newFailures: 'NEW', fixed: 'FIXED', stillFailing: 'STILL', notRunNow: 'NOT RUN' };
  for (const [key] of headings) {
    if (key === 'stillFailing') continue;
    for (const e of t[key])
      lines.push(
        `  ${marks[key].padEnd(7)} ${e.id}${e.expected ? ' (expected)' : ''}` +
          `${key === 'newFailures' && e.message ? `: ${oneLine(e.message, 160)}` : ''}`,
      );
  }
  return lines;
}

const md = (text: string) => mdText(text, 300);

/** The comparison as regression.md: counts, then a table per list, tests and requirements. */
export function renderRegressionMarkdown(regression: Regression): string {
  const { baseline: b, current: c, tests, requirements } = regression;
  const note = seedNote(regression);
  const out = [
    '# cms-conformance regression report',
    '',
    `Baseline: run of ${md(b.startedAt)} against ${md(b.baseUrl)}, ${seedText(b)}.  `,
    `This run: ${md(c.startedAt)} against ${md(c.baseUrl)}, ${seedText(c)}.`,
    '',
    ...(note ? [`**Note:** ${md(note)}.`, ''] : []),
    '| | tests | requirements |',
    '|---|---:|---:|',
    ...headings.map(([key, title]) => `| ${title} | ${tests[key].length} | ${requirements[key].length} |`),
  ];
  for (const [level, lists] of [
    ['tests', tests],
    ['requirements', requirements],
  ] as const) {
    for (const [key, title] of headings) {
      const list = lists[key];
      if (!list.length) continue;
      out.push(
        '',
        `## ${title} (${level})`,
        '',
        level === 'tests' ? '| test | requirement | finding |' : '| requirement | first failing test |',
        level === 'tests' ? '|---|---|---|' : '|---|---|',
      );
      for (const e of list) {
        const note = `${e.expected ? '(expected) ' : ''}${e.message ?? ''}`;
        out.push(level === 'tests' ? `| ${md(e.id)} | ${md(e.requirement)} | ${md(note)} |` : `| ${md(e.id)} | ${md(note)} |`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}
