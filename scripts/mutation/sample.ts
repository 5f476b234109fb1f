/**
 * `npx tsx scripts/mutation/sample.ts [--seed N] [--count K] [--report PATH] [--fixture varied:SEED]`: issue 31's independent check,
 * repeatable. A seeded sample of the report's mutants (planted-fault code left out, as the score leaves it out),
 * each applied alone to a copy of the project and run through the default suite (`cms-conformance run` against
 * the embedded reference server), the way someone without Stryker checks the score: does the run fail? Each is
 * printed beside what Stryker found and how the survivor is classified, so that a disagreement shows: a mutant
 * Stryker counts killed that the default run passes (a warning fails a test in a mutation run, never a run), or a
 * classified survivor that the default run fails (a wrong classification). Results go to
 * reports/out/mutation/sample-SEED.json. --fixture runs each on another data set (the embedded server's `run --fixture`).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { UsageError, intOption, parseOptions, seedValue } from '../../cli/args.ts';
import { loadResults } from '../../reports/results.ts';
import { applied, isGap, keyed, loadClassified, seenByWarning, type Report } from './score.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What the default run said of one mutant: it failed (exit code not 0, or it never ended), or passed with or without warnings. */
type Verdict = 'fails' | 'hangs' | 'warns' | 'passes';

/** One sampled mutant and the default run's verdict on it. */
interface Sampled {
  key: string;
  place: string;
  stryker: string;
  /** equivalent, beyond-contract or unexplained (survivors only). */
  classified?: string;
  verdict: Verdict;
  exitCode: number | null;
  /** The failed tests, or the warnings' requirement and check, as the run reported them. */
  seen: string[];
  seconds: number;
}

/** The options as the CLI reads its own (cli/args.ts); a mistake in them ends the script with one line, exit 2. */
function readOptions(): { seed: number; count: number; reportPath: string; fixture?: string } {
  try {
    const { values } = parseOptions(process.argv.slice(2), {
      seed: { type: 'string' },
      count: { type: 'string' },
      report: { type: 'string' },
      fixture: { type: 'string' },
    });
    return {
      seed: values.seed === undefined ? 31 : seedValue('seed', values.seed),
      count: intOption('count', values.count, 60, 1),
      reportPath: values.report ?? join(root, 'reports/out/mutation/mutation.json'),
      ...(values.fixture ? { fixture: values.fixture } : {}),
    };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`sample: ${err.message}`);
    process.exit(2);
  }
}

const { seed, count, reportPath, fixture } = readOptions();
// A default run takes seconds, even on a busy machine (BENCHMARKS.md); a mutant that keeps a request or a loop from
// ending gets several times that long, then counts as failing, as Stryker counts its timeout.
const HANG_MS = 90_000;
if (!existsSync(reportPath)) {
  console.error(`sample: no Stryker report at ${reportPath}: run \`npm run mutation\` first`);
  process.exit(2);
}

const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
// The report's locations name its sources' text: applied to other text they would make other mutants. A file changed
// since its run is left out, and named.
const changed = new Set(
  Object.entries(report.files)
    .filter(([file, { source }]) => readFileSync(join(root, file), 'utf8') !== source)
    .map(([file]) => file),
);
if (changed.size === Object.keys(report.files).length) {
  console.error('sample: every file of the report changed since its run: run `npm run mutation` again');
  process.exit(2);
}
if (changed.size) console.log(`sample: left out, changed since the report's run of them: ${[...changed].join(', ')}`);
// A gap (so classified, or beyond the contract on no ground) is a survivor the contract can tell apart: as unexplained.
const classified = new Map(loadClassified().map((c) => [c.key, isGap(c) ? 'gap' : c.class]));
const candidates = keyed(report).filter((k) => k.mutant.status !== 'Ignored' && k.mutant.status !== 'Pending' && !changed.has(k.file));
const picked = fc.sample(fc.shuffledSubarray(candidates, { minLength: Math.min(count, candidates.length), maxLength: count }), {
  seed,
  numRuns: 1,
})[0]!;

// The copy the mutants are applied to: the project without its dependencies (linked), history and outputs.
const copy = mkdtempSync(join(tmpdir(), 'cms-mutant-'));
const SKIP = new Set(['node_modules', '.git', '.stryker-tmp', 'reports/out']);
cpSync(root, copy, { recursive: true, filter: (src) => !SKIP.has(relative(root, src)) });
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
let stopping = false;
process.on('SIGINT', () => {
  stopping = true;
});

/** Runs the default suite in the copy; resolves with its exit code (null when it had to be stopped). */
function defaultRun(out: string): Promise<{ exitCode: number | null; hung: boolean }> {
  return new Promise((resolve) => {
    // A V8 pool size given keeps the CLI from starting itself again in a process group of its own (bin/cms-conformance.mjs),
    // which killing this child would leave running, a hung mutant's loop and all.
    const data = fixture ? ['--fixture', fixture] : [];
    const child = spawn(process.execPath, ['--v8-pool-size=1', join(copy, 'bin/cms-conformance.mjs'), 'run', '--out', out, ...data], {
      cwd: copy,
      stdio: 'ignore',
    });
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, HANG_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, hung });
    });
  });
}

const sampled: Sampled[] = [];
try {
  for (const [i, k] of picked.entries()) {
    if (stopping) break;
    const source = report.files[k.file]!.source;
    const target = join(copy, k.file);
    writeFileSync(target, applied(source, k.mutant));
    const out = join(copy, 'out', String(i));
    const started = performance.now();
    const { exitCode, hung } = await defaultRun(out);
    writeFileSync(target, source);
    const results = existsSync(join(out, 'results.json')) ? loadResults(out) : undefined;
    const failed = results?.tests.filter((t) => t.status === 'failed').map((t) => t.id) ?? [];
    const warnings = results?.tests.flatMap((t) => t.findings.filter(seenByWarning).map((f) => `${f.requirement} ${f.check}`)) ?? [];
    const verdict: Verdict = hung ? 'hangs' : exitCode !== 0 ? 'fails' : warnings.length ? 'warns' : 'passes';
    const survived = k.mutant.status === 'Survived' || k.mutant.status === 'NoCoverage';
    const entry: Sampled = {
      key: k.key,
      place: k.place,
      stryker: k.mutant.status,
      ...(survived ? { classified: classified.get(k.key) ?? 'unexplained' } : {}),
      verdict,
      exitCode,
      seen: verdict === 'warns' ? [...new Set(warnings)] : failed.slice(0, 5),
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    sampled.push(entry);
    console.log(
      `[${i + 1}/${picked.length}] ${entry.place} ${entry.stryker}${entry.classified ? ` (${entry.classified})` : ''}: the default run ${verdict}` +
        `${entry.seen.length ? `: ${entry.seen[0]}${entry.seen.length > 1 ? ` and ${entry.seen.length - 1} more` : ''}` : ''} (${entry.seconds} s)`,
    );
  }
} finally {
  rmSync(copy, { recursive: true, force: true });
}

// What the issue asks of the sample: of the mutants that change what the contract states (all but the classified
// survivors), the share whose default run fails.
const failing = (s: Sampled) => s.verdict === 'fails' || s.verdict === 'hangs';
const contractual = sampled.filter((s) => s.classified === undefined || s.classified === 'unexplained' || s.classified === 'gap');
const classifiedRuns = sampled.filter((s) => s.classified === 'equivalent' || s.classified === 'beyond-contract');
const disagreements = [
  ...sampled.filter((s) => s.classified === undefined && !failing(s)).map((s) => `Stryker killed, the default run ${s.verdict}: ${s.key}`),
  ...classifiedRuns.filter(failing).map((s) => `classified ${s.classified}, the default run fails: ${s.key}`),
];
const share = contractual.length ? Math.round((1000 * contractual.filter(failing).length) / contractual.length) / 10 : 100;
console.log(
  `\nsample of ${sampled.length} (seed ${seed}): ${contractual.length} change what the contract states (killed, or unexplained survivors), ` +
    `the default run fails for ${contractual.filter(failing).length}: ${share}%; ${classifiedRuns.length} classified survivors, ` +
    `the default run passes ${classifiedRuns.filter((s) => !failing(s)).length}`,
);
for (const d of disagreements) console.log(`  ${d}`);
const outPath = join(root, `reports/out/mutation/sample-${seed}.json`);
writeFileSync(outPath, `${JSON.stringify({ seed, count, report: relative(root, reportPath), share, sampled }, null, 2)}\n`);
console.log(`written: ${relative(root, outPath)}`);
