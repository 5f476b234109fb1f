/** `cms-conformance history`: many runs' results.json on one page: regressions, flips, disagreements and the interop matrix. */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CACHE_FILE, RunCache, changeCounts, findResults, loadHistory, type History } from '../reports/history.ts';
import { writeHistoryHtml } from '../reports/history-html.ts';
import { writeHistoryMarkdown } from '../reports/history-md.ts';
import { ReportInputError } from '../reports/results.ts';
import { UsageError, outDirOption, parseOptions, type Command, type OptionTable } from './args.ts';

/** history's options. */
export const HISTORY_OPTIONS = {
  out: {
    type: 'string',
    value: 'DIR',
    byDefault: 'reports/history',
    description:
      'where the pages go; history-cache.json there keeps what was read of each results.json, so that the next history parses only new or changed files',
    example: 'builds --out reports/history',
  },
} as const satisfies OptionTable;

/** The arguments read and checked: the results files to read, and the output folder made. */
function parse(args: string[]) {
  const { values, positionals } = parseOptions(args, HISTORY_OPTIONS, true);
  if (!positionals.length)
    throw new UsageError(
      'history needs at least one results.json or folder holding some (usage: cms-conformance history RESULTS... --out DIR)',
    );
  return { values, positionals };
}

/** Reads the runs and writes the three files; returns their paths and the history. */
export function writeHistory(args: readonly string[], outDir: string): { paths: string[]; history: History } {
  let history: History;
  const cache = new RunCache(join(outDir, CACHE_FILE));
  try {
    history = loadHistory(findResults(args), outDir, { cache });
  } catch (err) {
    // A file that is not a results.json among many: named, and nothing written (no page that silently lacks a run).
    if (err instanceof ReportInputError) throw new UsageError(err.message);
    throw err;
  }
  cache.save();
  const json = join(outDir, 'history.json');
  writeFileSync(json, `${JSON.stringify(history)}\n`);
  return { paths: [writeHistoryHtml(outDir, history), json, writeHistoryMarkdown(outDir, history)], history };
}

export const command: Command = {
  summary: "many runs' results on one page: regressions, flaky tests, differences between targets",
  options: HISTORY_OPTIONS,
  positionals: [
    {
      name: 'RESULTS',
      multiple: true,
      required: true,
      description:
        "a results.json, or a folder holding some at any depth (a vendor's CI keeps one per build); NAME=PATH names the target of the runs under PATH (the embedded server's port changes with each run: name its runs to keep them one target, or two profiles apart)",
      example: 'ci-results/1041 ci-results/1042',
    },
  ],
  about: [
    'Reads the results.json of many runs and writes history.html, history.json and history.md: every test against every run (passed, failed, expected failure, skipped, nothing to judge, absent), runs in date order named by `run --label` (else the target and the date).',
    "What changed comes first: regressions (the last run a test passed and the first it failed after, newest first), flips between runs of one target, disagreements between targets; then an interop matrix of each target's newest run, with its conformance statement's verdict where conformance.json lies beside.",
    'Runs are compared only within one suite version and requirement catalogue; an interrupted run is marked.',
  ],
  exit: '0 written, 2 usage error or a file that is not a results.json (named).',
  parse(args) {
    parse(args);
  },
  async run(args) {
    const { values, positionals } = parse(args);
    const outDir = outDirOption(values.out, 'reports/history');
    const started = Date.now();
    const { paths, history } = writeHistory(positionals, outDir);
    const show = (p: string) => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p));
    console.log(
      `cms-conformance: history of ${history.runs.length} runs, ${history.tests.length} tests: ${changeCounts(history)}` +
        `${history.suites.length > 1 ? ` (${history.suites.length} suites, each compared only within itself)` : ''} ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s\n  reports: ${paths.map(show).join(', ')}`,
    );
    return 0;
  },
};
