/**
 * The results format: what results.json holds, the one truth of a run from which every report is
 * derived. Its JSON Schema is schemas/results/results.json; reports/results.ts reads and writes it.
 */

/** A body as recorded: JSON and short text verbatim, binary as size and digest. */
export type RecordedBody =
  | { kind: 'json'; text: string }
  | { kind: 'text'; contentType: string; text: string }
  | { kind: 'binary'; contentType: string; size: number; sha256: string }
  | {
      kind: 'multipart';
      fields: Record<string, string>;
      files: { name: string; filename?: string; contentType: string; size: number; sha256: string }[];
    };

/** One request and its answer (or the transport error), as every report shows it. */
export interface Exchange {
  seq: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: RecordedBody };
  response?: { status: number; headers: Record<string, string>; text: string; truncated: boolean; json?: unknown; jsonError?: string };
  /** How often the request was retried after a 429/503 with Retry-After. */
  retries?: number;
  /** Set when no response came: timeout, refused or reset connection. */
  error?: { code: string; message: string };
  durationMs: number;
}

/**
 * How much a finding weighs: an error fails its test; a warning is a deviation worth a look that fails
 * nothing; a note is what the contract allows but does not show (a value of an open enumeration), told
 * to a vendor without counting as a warning, so that a clean run shows no warning at all.
 */
export type Severity = 'error' | 'warning' | 'note';

/** A finding as results.json and the reports carry it: the exchange trimmed, the replay lines added. */
export interface ReportedFinding {
  requirement: string;
  check: string;
  severity: Severity;
  message: string;
  /** What makes two findings one deviation (harness/checks.ts Finding.key); the reports group findings by it. */
  key?: string;
  exchange?: Exchange;
  curl?: string;
  replay: string;
  /** The fast-check counterexample and path, for findings of a property. */
  counterexample?: string;
  path?: string;
}

/** What a test (or a whole run) sent and received; absent in results written before they were counted. */
export interface ExchangeCounts {
  /** Requests sent (a retried request counts once; setup included). */
  requests?: number;
  /** Requests that got an answer, whatever its status. */
  answers?: number;
  /** Answers with a JSON body: the ones the judge can validate. */
  jsonAnswers?: number;
  /** Answers judged against a schema (the operation's, or the envelope for a refusal). */
  validated?: number;
  /** Attempts repeated after a 429, or a 503 with Retry-After. */
  retries?: number;
}

/** The names of the exchange counts, in the order reports show them. */
export const EXCHANGE_COUNTS = ['requests', 'answers', 'jsonAnswers', 'validated', 'retries'] as const;

/**
 * The parameters a test used (issue 31 item 5), each as `operation:parameter` (a query parameter or a
 * top-level member of a JSON request body): how many of its requests sent a value other than the
 * parameter's default, and those whose effect it judged (compared answers that differ by the value).
 */
export interface ParameterUse {
  sent: Record<string, number>;
  judged: string[];
}

/** One test's outcome. `id` is stable across runs: it never contains a seed or a generated value. */
export interface TestResult extends ExchangeCounts {
  id: string;
  title: string;
  /** The suite file, relative to the project (e.g. suites/operations/sweep.suite.ts). */
  file: string;
  requirement: string;
  family: string;
  operation?: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why a test was skipped, or the error of a test that failed without a finding (a setup failure). */
  reason?: string;
  durationMs: number;
  findings: ReportedFinding[];
  /** Parameters it sent with non-default values and those it judged; absent when it sent none and judged none. */
  parameters?: ParameterUse;
  /** Set when the run's expectation file lists the test (reports/expectations.ts): a failure, or either outcome (flaky). */
  expected?: 'FAIL' | 'FLAKY';
  /** The test against its expectation; absent when no expectation file lists it. */
  outcome?: 'expected-fail' | 'unexpected-pass' | 'expired' | 'flaky';
  /** The expectation entry's reason, issue and end date, for the reports. */
  expectation?: { reason: string; issue?: string; until?: string };
}

/** Counts of one group of tests. */
export interface Counts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

/** What an expectation file did to a run: failures it excused, passes and expired entries it did not foresee. */
export interface ExpectationSummary {
  /** The expectation file, as given. */
  file: string;
  expectedFailures: number;
  unexpectedPasses: number;
  expired: number;
  /** Tests of this run the file calls flaky (either outcome allowed), passed or failed; absent in older results. */
  flaky?: number;
  /** Ids of the file that name no test of this run. */
  stale: string[];
}

/** The counts of a run, overall and per requirement family, the exchange totals and the reasons of skips. */
export interface Summary extends Counts, ExchangeCounts {
  warnings: number;
  /** Findings of severity note; absent in results written before notes existed. */
  notes?: number;
  byFamily: Record<string, Counts>;
  skipReasons: Record<string, number>;
  /** Present when an expectation file was applied; `failed` still counts every failure. */
  expectations?: ExpectationSummary;
}

/** Where a run's seed came from: the documented default, `--seed N`, or `--seed random`. */
export type SeedSource = 'default' | 'given' | 'random';

/** A whole run. */
export interface Results {
  /** catalogueDigest: sha256 of the requirement catalogue the run judged against; absent in older results. */
  tool: { name: 'cms-conformance'; version: string; catalogueDigest?: string };
  target: { baseUrl: string; features: string[]; embedded: boolean };
  seed: number;
  /** Absent in results written before runs had a default seed. */
  seedSource?: SeedSource;
  /** The run's name as `run --label` gave it (a build, a release), shown by `history`; absent when none was given. */
  label?: string;
  runs: number;
  startedAt: string;
  durationMs: number;
  summary: Summary;
  /** Errors outside any test (a suite file that did not load): the run is incomplete and fails. Absent when there were none. */
  runErrors?: string[];
  /** Set when a signal stopped the run: the results are partial, tests that had not run are missing. */
  interrupted?: Interruption;
  tests: TestResult[];
}

/** The signal that stopped a run, and when (an ISO date). */
export interface Interruption {
  signal: 'SIGINT' | 'SIGTERM';
  at: string;
}
