/**
 * Many runs, one history (issue 53): the tests of many results.json against their runs, what changed
 * between runs of one target (regressions, flips), where targets disagree, and the interop matrix.
 * Runs are only compared within one suite version and requirement catalogue (their "suite"): a run of
 * another suite is shown, marked, and never joined silently. reports/history-html.ts and
 * reports/history-md.ts render this model; history.json is the model itself.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileProblem } from '../schemas/files.ts';
import type { Results, TestResult } from '../schemas/results.ts';
import { SUITE_VERSION } from '../schemas/version.ts';
import { isExcusedFailure, verdictOf } from './expectations.ts';
import { ReportInputError, hadNothingToJudge, loadResults } from './results.ts';
import { STATEMENT_FILES, digestOf, publicBaseUrl, type Statement } from './statement.ts';

/**
 * A test's outcome in one run, one letter each so that 1,000 runs of a test fit in a 1,000-character
 * string: P passed, F failed, X expected failure (or a failure its expectation file calls flaky),
 * S skipped, N passed with nothing to judge, - absent (the run has no such test).
 */
export type Cell = 'P' | 'F' | 'X' | 'S' | 'N' | '-';

/** The words of each cell, as the pages and history.json's legend say them. */
export const CELL_NAMES: Record<Cell, string> = {
  P: 'passed',
  F: 'failed',
  X: 'expected failure',
  S: 'skipped',
  N: 'nothing to judge',
  '-': 'absent',
};

/** A test's cell: what the run did with it, absent when the run has no such test. */
export function cellOf(t: TestResult | undefined): Cell {
  if (!t) return '-';
  if (t.status === 'failed') return isExcusedFailure(t) ? 'X' : 'F';
  if (t.status === 'skipped') return 'S';
  return hadNothingToJudge(t) ? 'N' : 'P';
}

/** A failure, excused or not: history is about behaviour, an expectation file about gating. */
const failing = (c: Cell): boolean => c === 'F' || c === 'X';

/** One run as the history shows it. */
export interface HistoryRun {
  /** Its column, 0 the oldest. */
  index: number;
  /** `run --label`, or the target's base URL without credentials and the date. */
  label: string;
  /** Whether the label was given by `run --label`. */
  labelled: boolean;
  /** The results.json, relative to the output folder. */
  results: string;
  /** report.html beside the results, relative to the output folder; absent when there is none. */
  report?: string;
  startedAt: string;
  /** Which target: a NAME given as NAME=PATH, else the base URL without credentials ("bundled reference server" for the embedded one). */
  target: string;
  baseUrl: string;
  suiteVersion: string;
  /** The requirement catalogue's digest: the run's own (results.json), else a conformance statement's beside it; absent when neither says. */
  catalogueDigest?: string;
  /** The suite the run is compared within: its version, and its catalogue where runs of one version differ in it. */
  suite: string;
  seed: number;
  interrupted?: string;
  runErrors: number;
  counts: Record<Cell, number>;
  verdict: string;
  /** The conformance statement beside the results: its verdict, or why it does not speak for these results. */
  statement?: { conforms: boolean; verdict: string; matches: boolean };
}

/** One test against every run: `cells[i]` is its outcome in run i. */
export interface HistoryTest {
  id: string;
  requirement: string;
  family: string;
  cells: string;
  /** Its newest outcome in any run, and what changed (the filters' keys). */
  latest: Cell;
  changed: boolean;
}

/** A test that passed and fails now, on one target and suite: the run it last passed and the first failure after it. */
export interface Regression {
  id: string;
  target: string;
  suite: string;
  lastPassed: number;
  firstFailed: number;
  /** Whether the newest failure is excused by an expectation file. */
  expected: boolean;
}

/** A test whose outcome changed more than once between runs of one target and suite. */
export interface Flip {
  id: string;
  target: string;
  suite: string;
  /** Changes between passed and failed, in order of the runs. */
  flips: number;
  runs: number[];
}

/** A test that targets of one suite judge differently, each by its newest run. */
export interface Disagreement {
  id: string;
  suite: string;
  passed: string[];
  failed: string[];
}

/** The interop matrix of one suite: a column per target (its newest run), a row per requirement. */
export interface InteropMatrix {
  suite: string;
  targets: { target: string; run: number; statement?: HistoryRun['statement'] }[];
  rows: { requirement: string; family: string; shares: ({ passed: number; judged: number } | null)[]; spread: number }[];
}

/** The whole history, as history.json holds it. */
export interface History {
  generatedAt: string;
  legend: Record<Cell, string>;
  runs: HistoryRun[];
  /** Suites the runs belong to; more than one means some runs are never compared with the others. */
  suites: string[];
  tests: HistoryTest[];
  regressions: Regression[];
  flips: Flip[];
  disagreements: Disagreement[];
  matrices: InteropMatrix[];
}

/** A results.json to read, with the target name its argument gave (NAME=PATH). */
export interface HistoryInput {
  path: string;
  target?: string;
}

/** Every results.json a folder holds, at any depth (symbolic links to folders are not followed: no loops). */
function resultsUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...resultsUnder(path));
    else if (entry.name === 'results.json' && (entry.isFile() || entry.isSymbolicLink())) found.push(path);
  }
  return found;
}

/**
 * The results.json files the arguments name: a file as given, a folder searched at any depth. An
 * argument NAME=PATH names the target of every run under PATH (the embedded server's port changes
 * with each run, and two profiles of it are one base URL). A missing path, or a folder with none, is an error.
 */
export function findResults(args: readonly string[]): HistoryInput[] {
  const inputs: HistoryInput[] = [];
  for (const arg of args) {
    const named = /^([^=/\\]+)=(.+)$/.exec(arg);
    const [path, target] = named && !exists(arg) ? [named[2] ?? '', named[1]] : [arg, undefined];
    if (!exists(path)) throw new ReportInputError(`${path}: no such file or folder`);
    const files = statSync(path).isDirectory() ? resultsUnder(path) : [path];
    if (!files.length) throw new ReportInputError(`${path}: no results.json in this folder or below it`);
    for (const file of files) inputs.push({ path: resolve(file), ...(target ? { target } : {}) });
  }
  // A file named twice (as itself and by its folder) is one run.
  return [...new Map(inputs.map((i) => [i.path, i])).values()];
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A path relative to the output folder, as a link: forward slashes, each segment URL-encoded. */
function linkFrom(outDir: string, file: string): string {
  return relative(outDir, file).split(sep).map(encodeURIComponent).join('/');
}

/** The statement beside a results.json, if one lies there and reads as a statement; `matches` when it was made from these bytes. */
function statementBeside(resultsFile: string): { statement: Statement; matches: boolean } | undefined {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(join(dirname(resultsFile), STATEMENT_FILES.json), 'utf8'));
  } catch {
    return undefined;
  }
  // A statement that does not read as one is no statement of this run: the run is shown without it.
  if (fileProblem('statement', data)) return undefined;
  const statement = data as Statement;
  // The results are read a second time only beside a statement: most runs have none.
  return { statement, matches: statement.resultsDigest === digestOf(readFileSync(resultsFile)) };
}

/** A test's cell in one run, with the requirement and family it belongs to. */
type TestCell = { cell: Cell; requirement: string; family: string };

/** What a results.json says that the history keeps: the run's facts and its cells by test id (findings and exchanges are let go). */
export interface ParsedRun {
  facts: {
    label?: string;
    startedAt: string;
    /** Without credentials (reports/statement.ts publicBaseUrl). */
    baseUrl: string;
    embedded: boolean;
    suiteVersion: string;
    /** The requirement catalogue's digest, as the run recorded it (results.json tool.catalogueDigest); absent in older runs. */
    catalogueDigest?: string;
    seed: number;
    interrupted?: string;
    runErrors: number;
    counts: Record<Cell, number>;
    verdict: string;
  };
  cells: Map<string, TestCell>;
}

/** What a run keeps once read: its facts as the history shows them, and its cells. */
interface ReadRun {
  run: Omit<HistoryRun, 'index' | 'suite'>;
  cells: Map<string, TestCell>;
}

/** Reads one results.json, checked by its schema (reports/results.ts loadResults), into what the history keeps of it. */
export function parseRun(path: string): ParsedRun {
  const results: Results = loadResults(path);
  const counts: Record<Cell, number> = { P: 0, F: 0, X: 0, S: 0, N: 0, '-': 0 };
  const cells = new Map<string, TestCell>();
  for (const t of results.tests) {
    const cell = cellOf(t);
    counts[cell]++;
    cells.set(t.id, { cell, requirement: t.requirement, family: t.family });
  }
  return {
    facts: {
      ...(results.label !== undefined ? { label: results.label } : {}),
      startedAt: results.startedAt,
      baseUrl: publicBaseUrl(results.target.baseUrl),
      embedded: results.target.embedded,
      suiteVersion: results.tool.version,
      ...(results.tool.catalogueDigest ? { catalogueDigest: results.tool.catalogueDigest } : {}),
      seed: results.seed,
      ...(results.interrupted ? { interrupted: `${results.interrupted.signal} at ${results.interrupted.at}` } : {}),
      runErrors: results.runErrors?.length ?? 0,
      counts,
      verdict: verdictOf(results).text,
    },
    cells,
  };
}

/** The file in the output folder that keeps what earlier histories read of each results.json. */
export const CACHE_FILE = 'history-cache.json';

/** Bumped whenever what a run keeps, or how a test's cell is decided, changes: an older cache is then read as none. */
const CACHE_FORMAT = 2;

interface CacheData {
  format: number;
  tool: string;
  /** Every test id any cached run has, with its requirement and family; a run's cells are a string aligned with it. */
  tests: [string, string, string][];
  runs: Record<string, { size: number; mtimeMs: number; facts: ParsedRun['facts']; cells: string }>;
}

/**
 * What earlier histories read of each results.json, by its path, size and modification time: a
 * vendor's CI adds one run per build, and history then parses that one, not every run again. A
 * changed or new file is read and checked anew; a cache of another format or tool version is ignored.
 */
export class RunCache {
  private data: CacheData;
  private index = new Map<string, number>();
  private used = new Set<string>();

  constructor(
    private readonly file: string,
    private readonly tool = SUITE_VERSION,
  ) {
    let data: CacheData | undefined;
    try {
      data = JSON.parse(readFileSync(file, 'utf8')) as CacheData;
    } catch {
      data = undefined;
    }
    this.data = data && data.format === CACHE_FORMAT && data.tool === tool ? data : { format: CACHE_FORMAT, tool, tests: [], runs: {} };
    this.data.tests.forEach(([id], i) => this.index.set(id, i));
  }

  /** The run as parsed before, if its file is unchanged; else parsed now (and kept). */
  read(path: string): ParsedRun {
    const { size, mtimeMs } = statSync(path);
    this.used.add(path);
    const hit = this.data.runs[path];
    if (hit && hit.size === size && hit.mtimeMs === mtimeMs) {
      const cells = new Map<string, TestCell>();
      for (let i = 0; i < hit.cells.length; i++) {
        const cell = hit.cells[i] as Cell;
        const [id, requirement, family] = this.data.tests[i] ?? [];
        if (cell !== '-' && id !== undefined) cells.set(id, { cell, requirement: requirement ?? '', family: family ?? '' });
      }
      return { facts: hit.facts, cells };
    }
    const parsed = parseRun(path);
    for (const [id, c] of parsed.cells) {
      if (this.index.has(id)) continue;
      this.index.set(id, this.data.tests.length);
      this.data.tests.push([id, c.requirement, c.family]);
    }
    const row = Array<string>(this.data.tests.length).fill('-');
    for (const [id, c] of parsed.cells) row[this.index.get(id)!] = c.cell;
    this.data.runs[path] = { size, mtimeMs, facts: parsed.facts, cells: row.join('') };
    return parsed;
  }

  /** Writes the cache, keeping only the runs this history read (a results.json since removed is forgotten). */
  save(): void {
    const runs = Object.fromEntries(Object.entries(this.data.runs).filter(([path]) => this.used.has(path)));
    writeFileSync(this.file, JSON.stringify({ ...this.data, runs }));
  }
}

/** Reads one run: its results (from the cache when given and unchanged), the report.html and conformance statement beside them. */
export function readRun(input: HistoryInput, outDir: string, cache?: RunCache): ReadRun {
  const { facts, cells } = cache ? cache.read(input.path) : parseRun(input.path);
  const beside = statementBeside(input.path);
  const report = join(dirname(input.path), 'report.html');
  return {
    run: {
      label: facts.label ?? `${facts.baseUrl} ${facts.startedAt.slice(0, 16).replace('T', ' ')}`,
      labelled: facts.label !== undefined,
      results: linkFrom(outDir, input.path),
      ...(exists(report) ? { report: linkFrom(outDir, report) } : {}),
      startedAt: facts.startedAt,
      target: input.target ?? (facts.embedded ? 'bundled reference server' : facts.baseUrl),
      baseUrl: facts.baseUrl,
      suiteVersion: facts.suiteVersion,
      // The run's own record of its catalogue first; an older run's from a statement beside it.
      ...(facts.catalogueDigest
        ? { catalogueDigest: facts.catalogueDigest }
        : beside
          ? { catalogueDigest: beside.statement.catalogueDigest }
          : {}),
      seed: facts.seed,
      ...(facts.interrupted ? { interrupted: facts.interrupted } : {}),
      runErrors: facts.runErrors,
      counts: facts.counts,
      verdict: facts.verdict,
      ...(beside ? { statement: { conforms: beside.statement.conforms, verdict: beside.statement.verdict, matches: beside.matches } } : {}),
    },
    cells,
  };
}

/**
 * The suite of each run: its version, and its catalogue digest where runs of that version name more
 * than one (a run of such a version without a statement is of an unknown catalogue, and compared with none).
 */
function suitesOf(runs: readonly ReadRun['run'][]): string[] {
  const digests = new Map<string, Set<string>>();
  for (const r of runs)
    if (r.catalogueDigest)
      (digests.get(r.suiteVersion) ?? digests.set(r.suiteVersion, new Set()).get(r.suiteVersion))!.add(r.catalogueDigest);
  return runs.map((r) => {
    if ((digests.get(r.suiteVersion)?.size ?? 0) < 2) return r.suiteVersion;
    return `${r.suiteVersion} catalogue ${r.catalogueDigest ? r.catalogueDigest.slice(7, 19) : 'unknown'}`;
  });
}

/** Runs grouped by target and suite, each group in date order: the runs whose outcomes may be compared in time. */
function lineages(runs: readonly HistoryRun[]): HistoryRun[][] {
  const groups = new Map<string, HistoryRun[]>();
  for (const r of runs) {
    const key = `${r.target}\u0000${r.suite}`;
    (groups.get(key) ?? groups.set(key, []).get(key))!.push(r);
  }
  return [...groups.values()];
}

/** The judged outcomes of a test along one lineage: [run index, failing?], skips, absences and nothing-to-judge left out. */
function judged(cells: string, lineage: readonly HistoryRun[]): [number, boolean][] {
  const out: [number, boolean][] = [];
  for (const r of lineage) {
    const c = cells[r.index] as Cell;
    if (c === 'P' || failing(c)) out.push([r.index, failing(c)]);
  }
  return out;
}

/** Builds the history from runs already read, ordered by date (ties by label, then by path). */
export function buildHistory(read: readonly ReadRun[], generatedAt = new Date()): History {
  const ordered = [...read].sort(
    (a, b) =>
      a.run.startedAt.localeCompare(b.run.startedAt) ||
      a.run.label.localeCompare(b.run.label) ||
      a.run.results.localeCompare(b.run.results),
  );
  const suites = suitesOf(ordered.map((r) => r.run));
  const runs: HistoryRun[] = ordered.map((r, index) => ({ index, ...r.run, suite: suites[index] ?? r.run.suiteVersion }));
  const meta = new Map<string, { requirement: string; family: string }>();
  for (const r of ordered) for (const [id, c] of r.cells) if (!meta.has(id)) meta.set(id, c);
  const ids = [...meta.keys()].sort((a, b) => {
    const x = meta.get(a)!;
    const y = meta.get(b)!;
    return x.family.localeCompare(y.family) || x.requirement.localeCompare(y.requirement) || a.localeCompare(b);
  });
  const lines = lineages(runs);
  const regressions: Regression[] = [];
  const flips: Flip[] = [];
  const tests: HistoryTest[] = ids.map((id) => {
    const cells = ordered.map((r) => r.cells.get(id)?.cell ?? '-').join('');
    for (const lineage of lines) {
      const seen = judged(cells, lineage);
      const changes = seen.flatMap(([index, fails], i) => (i > 0 && fails !== seen[i - 1]![1] ? [index] : []));
      const last = seen.at(-1);
      if (last?.[1] && changes.length) {
        const firstFailed = changes.at(-1)!;
        const lastPassed = [...seen].reverse().find(([, fails]) => !fails)![0];
        const { target, suite } = lineage[0]!;
        regressions.push({ id, target, suite, lastPassed, firstFailed, expected: cells[last[0]] === 'X' });
      }
      if (changes.length >= 2)
        flips.push({ id, target: lineage[0]!.target, suite: lineage[0]!.suite, flips: changes.length, runs: changes });
    }
    const latestIndex = [...cells].findLastIndex((c) => c !== '-');
    return { id, ...meta.get(id)!, cells, latest: (cells[latestIndex] ?? '-') as Cell, changed: false };
  });
  // Newest regression first: the build that broke it most recently heads the page.
  regressions.sort((a, b) => b.firstFailed - a.firstFailed || a.id.localeCompare(b.id));
  flips.sort((a, b) => b.flips - a.flips || (b.runs.at(-1) ?? 0) - (a.runs.at(-1) ?? 0) || a.id.localeCompare(b.id));
  const matrices = interop(runs, tests);
  const disagreements = disagreementsOf(runs, tests);
  const changed = new Set([...regressions, ...flips, ...disagreements].map((c) => c.id));
  for (const t of tests) t.changed = changed.has(t.id);
  return {
    generatedAt: generatedAt.toISOString(),
    legend: CELL_NAMES,
    runs,
    suites: [...new Set(runs.map((r) => r.suite))],
    tests,
    regressions,
    flips,
    disagreements,
    matrices,
  };
}

/** The newest run of each target, per suite: the runs that speak for their targets now. */
function newestByTarget(runs: readonly HistoryRun[]): Map<string, HistoryRun[]> {
  const bySuite = new Map<string, Map<string, HistoryRun>>();
  for (const r of runs) {
    const targets = bySuite.get(r.suite) ?? bySuite.set(r.suite, new Map()).get(r.suite)!;
    targets.set(r.target, r);
  }
  return new Map([...bySuite].map(([suite, targets]) => [suite, [...targets.values()]]));
}

/** Tests that the newest runs of two targets of one suite judge differently (one passed, the other failed). */
function disagreementsOf(runs: readonly HistoryRun[], tests: readonly HistoryTest[]): Disagreement[] {
  const out: Disagreement[] = [];
  for (const [suite, newest] of newestByTarget(runs)) {
    if (newest.length < 2) continue;
    for (const t of tests) {
      const passed = newest.filter((r) => t.cells[r.index] === 'P').map((r) => r.target);
      const failed = newest.filter((r) => failing(t.cells[r.index] as Cell)).map((r) => r.target);
      if (passed.length && failed.length) out.push({ id: t.id, suite, passed, failed });
    }
  }
  return out;
}

/** The interop matrices: per suite with two targets or more, each requirement's share of tests passed on each target, most disputed first. */
function interop(runs: readonly HistoryRun[], tests: readonly HistoryTest[]): InteropMatrix[] {
  const byRequirement = new Map<string, HistoryTest[]>();
  for (const t of tests) (byRequirement.get(t.requirement) ?? byRequirement.set(t.requirement, []).get(t.requirement))!.push(t);
  const out: InteropMatrix[] = [];
  for (const [suite, newest] of newestByTarget(runs)) {
    if (newest.length < 2) continue;
    const rows = [...byRequirement].map(([requirement, group]) => {
      const shares = newest.map((r) => {
        const cells = group.map((t) => t.cells[r.index] as Cell);
        const judgedCells = cells.filter((c) => c === 'P' || failing(c));
        return judgedCells.length ? { passed: judgedCells.filter((c) => c === 'P').length, judged: judgedCells.length } : null;
      });
      const ratios = shares.filter((s) => s !== null).map((s) => s.passed / s.judged);
      const spread = ratios.length > 1 ? Math.max(...ratios) - Math.min(...ratios) : 0;
      return { requirement, family: group[0]!.family, shares, spread };
    });
    rows.sort((a, b) => b.spread - a.spread || a.family.localeCompare(b.family) || a.requirement.localeCompare(b.requirement));
    out.push({
      suite,
      targets: newest.map((r) => ({ target: r.target, run: r.index, ...(r.statement ? { statement: r.statement } : {}) })),
      rows,
    });
  }
  return out;
}

/** Reads every input and builds the history; a file that is not a results.json is a ReportInputError naming it. */
export function loadHistory(
  inputs: readonly HistoryInput[],
  outDir: string,
  options: { cache?: RunCache; generatedAt?: Date } = {},
): History {
  return buildHistory(
    inputs.map((i) => readRun(i, outDir, options.cache)),
    options.generatedAt,
  );
}

/** A run's name in a line of text: its label, and its date when the label is the user's. */
export function runName(r: HistoryRun): string {
  return r.labelled ? `${r.label} (${r.startedAt.slice(0, 10)})` : r.label;
}

/** "1 regression, 2 flaky tests, 0 disagreements between targets": what changed, in the CLI's line and history.md. */
export function changeCounts(history: Pick<History, 'regressions' | 'flips' | 'disagreements'>): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return [
    n(history.regressions.length, 'regression', 'regressions'),
    n(history.flips.length, 'flaky test', 'flaky tests'),
    n(history.disagreements.length, 'disagreement', 'disagreements') + ' between targets',
  ].join(', ');
}
