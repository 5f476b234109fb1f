/**
 * Findings grouped by cause, for report.html and summary.md: one deviation that a target shows in many
 * answers and tests (an unknown member in every listing) reads as one line with its count, not 200.
 */
import type { ReportedFinding, Results, Severity } from '../schemas/results.ts';

/** How many ids of the tests a cause touched a report names; the rest are counted. */
const CAUSE_TESTS_SHOWN = 3;

/** One cause of a run's findings of one severity: how many, its first example, and the tests it touched. */
export interface Cause {
  /** What groups the findings (see `causeOf`). */
  key: string;
  requirement: string;
  check: string;
  /** Findings of this cause over the run. */
  count: number;
  /** The message of its first finding. */
  example: string;
  /** The tests with findings of this cause, in the run's order, each once. */
  tests: string[];
}

/**
 * The cause of a finding: its key when it has one (the judge's: requirement, operation, keyword, schema
 * location and member or value, without array positions), else its requirement and check.
 */
export function causeOf(f: Pick<ReportedFinding, 'key' | 'requirement' | 'check'>): string {
  return f.key ?? `${f.requirement}|${f.check}`;
}

/** The causes of a run's findings of one severity, the most frequent first (ties by key, for a stable order). */
export function causesOf(results: Pick<Results, 'tests'>, severity: Severity): Cause[] {
  const causes = new Map<string, Cause>();
  for (const t of results.tests) {
    for (const f of t.findings) {
      if (f.severity !== severity) continue;
      const key = causeOf(f);
      let cause = causes.get(key);
      if (!cause) {
        cause = { key, requirement: f.requirement, check: f.check, count: 0, example: f.message, tests: [] };
        causes.set(key, cause);
      }
      cause.count++;
      // A test's findings come together, so the last id is the only one that can repeat.
      if (cause.tests.at(-1) !== t.id) cause.tests.push(t.id);
    }
  }
  return [...causes.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** The tests a cause touched, in words: "15 tests: A, B, C, and 12 more", each id shown rendered by `show`. */
export function touchedTests(cause: Cause, show: (id: string) => string): string {
  const n = cause.tests.length;
  const more = n > CAUSE_TESTS_SHOWN ? `, and ${n - CAUSE_TESTS_SHOWN} more` : '';
  return `${n} test${n === 1 ? '' : 's'}: ${cause.tests.slice(0, CAUSE_TESTS_SHOWN).map(show).join(', ')}${more}`;
}

/** How many findings some causes hold and in how many tests: "41 in 23 tests". */
export function extentOf(causes: readonly Cause[]): string {
  const tests = new Set(causes.flatMap((c) => c.tests)).size;
  return `${causes.reduce((n, c) => n + c.count, 0)} in ${tests} test${tests === 1 ? '' : 's'}`;
}
