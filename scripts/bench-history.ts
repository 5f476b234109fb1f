/**
 * `npm run bench:history`: `cms-conformance history` over 1,000 runs of 400 tests (issue 53: read and
 * rendered in under 10 s). The runs are written first (not timed): a vendor's CI over many builds, two
 * targets, tests breaking, flipping and coming back, every tenth test with a warning and each failure
 * with a finding and its exchange, as a run records them. Then history reads and renders them, timed
 * cold (every results.json parsed) and warm (history-cache.json from the run before, one new run). `--runs N`, `--tests N` change the size; `--template FILE` takes the tests
 * (and their findings) of a real results.json instead, repeated to N tests. Numbers are reported, never asserted.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { writeHistory } from '../cli/history.ts';
import { CACHE_FILE, type History } from '../reports/history.ts';
import { summarize } from '../reports/results.ts';
import type { ReportedFinding, Results, TestResult } from '../schemas/results.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, tests: { type: 'string' }, template: { type: 'string' }, keep: { type: 'boolean' } },
});
const RUNS = Number(values.runs ?? 1000);
const TESTS = Number(values.tests ?? 400);
/** Issue 53's budget for reading and rendering 1,000 runs of 400 tests. */
const BUDGET_SECONDS = 10;

function finding(requirement: string, severity: ReportedFinding['severity']): ReportedFinding {
  return {
    requirement,
    check: 'schema',
    severity,
    message: `/folders/0/name must be string (got 42) at ${requirement}`,
    key: `${requirement}:schema:/folders/0/name`,
    exchange: {
      seq: 7,
      request: { method: 'GET', url: 'http://cms.example/rest/folder/getFolders/7?pageSize=10', headers: { accept: 'application/json' } },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        text: JSON.stringify({ folders: Array.from({ length: 10 }, (_, i) => ({ id: i, name: `folder ${i}` })), messages: [] }),
        truncated: false,
      },
      durationMs: 4,
    },
    replay: `npx cms-conformance run --only ${requirement} --seed 20260101`,
  };
}

/** The tests of every run: a real run's repeated to TESTS (ids made distinct), or made up. */
function baseTests(): TestResult[] {
  if (values.template) {
    const real = (JSON.parse(readFileSync(values.template, 'utf8')) as Results).tests;
    return Array.from({ length: TESTS }, (_, i) => {
      const t = real[i % real.length]!;
      return i < real.length ? t : { ...t, id: `${t.id} #${Math.floor(i / real.length)}` };
    });
  }
  const families = ['ENV', 'PAG', 'SRT', 'FLT', 'NEG', 'DEL', 'UPL', 'OP'];
  return Array.from({ length: TESTS }, (_, i) => {
    const family = families[i % families.length]!;
    const requirement = `${family}-${String(Math.floor(i / families.length / 4) + 1).padStart(2, '0')}`;
    return {
      id: `${requirement} case ${i} of a generated request`,
      title: `case ${i} of a generated request`,
      file: `suites/${family.toLowerCase()}.suite.ts`,
      requirement,
      family,
      status: 'passed',
      durationMs: 20 + (i % 50),
      findings: i % 10 === 0 ? [finding(requirement, 'warning')] : [],
      requests: 12,
      answers: 12,
    };
  });
}

/** Run n's outcome of test i: breaks, flips and fixes spread over the builds, deterministic. */
function statusOf(i: number, n: number): TestResult['status'] {
  if (i % 97 === 5 && n >= (i * 7) % RUNS) return 'failed';
  if (i % 61 === 3 && n % 17 === 0) return 'failed';
  if (i % 13 === 0 && n % 2 === 1) return 'skipped';
  return 'passed';
}

/** Writes runs from..to-1 (results.json and a report.html each); returns the bytes of results.json written. */
function writeRuns(dir: string, from: number, to: number): number {
  const tests = baseTests();
  let bytes = 0;
  for (let n = from; n < to; n++) {
    const target = n % 10 === 9 ? 'b' : 'a';
    const runTests = tests.map((t, i) => {
      const status = statusOf(i, n);
      if (status === t.status) return t;
      return { ...t, status, findings: status === 'failed' ? [finding(t.requirement, 'error')] : t.findings };
    });
    const results: Results = {
      tool: { name: 'cms-conformance', version: '0.1.0' },
      target: { baseUrl: `https://${target}.example/rest`, features: ['upload', 'wastebin'], embedded: false },
      seed: 20260101,
      seedSource: 'default',
      label: `${target}-build-${n + 1}`,
      runs: 20,
      startedAt: new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString(),
      durationMs: 30_000,
      summary: summarize(runTests),
      tests: runTests,
    };
    const runDir = join(dir, `build-${n + 1}`);
    mkdirSync(runDir, { recursive: true });
    const text = `${JSON.stringify(results, null, 2)}\n`;
    writeFileSync(join(runDir, 'results.json'), text);
    writeFileSync(join(runDir, 'report.html'), '<!doctype html><title>report</title>');
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/** One `history` over the runs as the CLI does it (cli/history.ts writeHistory): seconds, CPU seconds, what it found. */
function timed(): { seconds: number; cpu: number; history: History } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { history } = writeHistory([join(dir, 'ci')], out);
  const cpu = process.cpuUsage(cpu0);
  return { seconds: (performance.now() - t0) / 1000, cpu: (cpu.user + cpu.system) / 1e6, history };
}

const dir = mkdtempSync(join(tmpdir(), 'cms-bench-history-'));
const out = join(dir, 'out');
mkdirSync(out);
console.log(`bench:history: writing ${RUNS} runs of ${TESTS} tests${values.template ? ` (tests of ${values.template})` : ''} …`);
const inputBytes = writeRuns(join(dir, 'ci'), 0, RUNS);
// Cold: no cache, every results.json parsed and checked. Warm: a CI's next build, one run more, the others from the cache.
const cold = timed();
writeRuns(join(dir, 'ci'), RUNS, RUNS + 1);
const warm = timed();
const size = (name: string) => statSync(join(out, name)).size.toLocaleString('en-US');
const line = (what: string, t: { seconds: number; cpu: number }, runs: number) =>
  `  ${what}: ${t.seconds.toFixed(2)} s (budget ${BUDGET_SECONDS} s: ${t.seconds <= BUDGET_SECONDS ? 'within' : 'OVER'}), ` +
  `${Math.round(runs / t.seconds).toLocaleString('en-US')} runs/s, CPU ${t.cpu.toFixed(2)} s`;
const lines = [
  `bench:history ${new Date().toISOString()}: ${RUNS} runs of ${TESTS} tests (${(inputBytes / 2 ** 20).toFixed(0)} MiB of results.json)`,
  line('cold (every results.json parsed and checked)', cold, RUNS),
  line('warm (one new run, the others from history-cache.json)', warm, RUNS + 1),
  `  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
  `  history.html ${size('history.html')} bytes, history.json ${size('history.json')} bytes, history.md ${size('history.md')} bytes, ` +
    `history-cache.json ${size(CACHE_FILE)} bytes`,
  `  found ${warm.history.regressions.length} regressions, ${warm.history.flips.length} flaky tests, ` +
    `${warm.history.disagreements.length} disagreements`,
];
console.log(lines.join('\n'));
if (values.keep) console.log(`  kept in ${dir}`);
else rmSync(dir, { recursive: true, force: true });
