/**
 * `npm run mutation [-- STRYKER OPTIONS]`: Stryker over the reference server's contract logic with the
 * conformance suites as the test (stryker.config.mjs), then the score against the classified survivors
 * (score.ts). First a default run says which checks find nothing to judge on the data the mutants run
 * against. Options go to Stryker as given: `--incremental` reuses the last whole (or incremental) run's results for code and
 * tests that did not change, `--mutate server/handlers/usage.ts` narrows the run to one file: its results
 * replace that file's in the last report, and the other files keep theirs (each stamped with its run's date),
 * so that the score stays the whole server's. `--fixture varied:SEED` runs them on another data set; with `--survivors`, only
 * the default report's survivors.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hadNothingToJudge, loadResults } from '../../reports/results.ts';
import { FIXTURE_ENV, keyed, loadClassified, mergeReports, SILENT_FILE, silentPath, type Report } from './score.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Which files `--mutate` (comma-separated globs or paths, each may end in `:lines`) names; every file without it. */
function mutatedBy(args: string[]): (file: string) => boolean {
  const at = args.findIndex((a) => a === '--mutate' || a.startsWith('--mutate='));
  if (at < 0) return () => true;
  const value = args[at]!.startsWith('--mutate=') ? args[at]!.slice('--mutate='.length) : (args[at + 1] ?? '');
  const patterns = value
    .split(',')
    .map((spec) => spec.replace(/:[\d:-]+$/, ''))
    .map(
      (glob) =>
        new RegExp(
          `^${glob
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*\*/g, '\0')
            .replace(/\*/g, '[^/]*')
            .replace(/\0/g, '.*')}$`,
        ),
    );
  return (file) => patterns.some((p) => p.test(file));
}

/** The files `--mutate` narrows to some of their lines (`file:lines`). */
function rangedBy(args: string[]): Set<string> {
  const at = args.findIndex((a) => a === '--mutate' || a.startsWith('--mutate='));
  if (at < 0) return new Set();
  const value = args[at]!.startsWith('--mutate=') ? args[at]!.slice('--mutate='.length) : (args[at + 1] ?? '');
  return new Set(value.split(',').flatMap((spec) => (/:[\d:-]+$/.test(spec) ? [spec.replace(/:[\d:-]+$/, '')] : [])));
}

// --fixture varied:SEED: the mutants run against that data set instead of the default one (in-worker.ts), a whole run
// (an incremental file of one data set says nothing of the other), whose report goes to mutation-varied.json beside the
// default run's; `score.ts --with reports/out/mutation/mutation-varied.json` then counts its kills.
const argv = process.argv.slice(2);
const fixtureAt = argv.indexOf('--fixture');
const fixture = fixtureAt >= 0 ? argv[fixtureAt + 1] : undefined;
if (fixtureAt >= 0 && !fixture) {
  console.error('mutation: --fixture needs a data set: varied:SEED or a dataset file');
  process.exit(2);
}
const given = fixtureAt >= 0 ? [...argv.slice(0, fixtureAt), ...argv.slice(fixtureAt + 2)] : argv;
const reportPath = join(root, 'reports/out/mutation/mutation.json');
// --survivors (with --fixture): only the lines of the mutants the default run's report did not kill. Another data set
// can only add kills (score.ts --with matches them by place), so a mutant the default run killed needs no second run.
// `--survivors=equivalent,gap`: only the survivors of those classes (and the unclassified ones): the other data set exists to
// show what the default one hides, which an `equivalent` (or a gap marked `data`) says it does not; a kill of a survivor
// beyond the contract would be news of another kind, and their lines are most of the run's time.
const survivorsOption = given.find((a) => a === '--survivors' || a.startsWith('--survivors='));
const passed = survivorsOption
  ? survivorLines(
      given.filter((a) => a !== survivorsOption),
      survivorsOption.includes('=') ? new Set(survivorsOption.slice('--survivors='.length).split(',')) : undefined,
    )
  : given;

/**
 * The options with `--mutate` narrowed to the lines of the default report's survivors and mutants no test reached; a
 * `--mutate` given names the files to take them from (one file at a time keeps each file's results as its run ends).
 */
function survivorLines(options: string[], classes?: ReadonlySet<string>): string[] {
  if (!fixture || !existsSync(reportPath)) {
    console.error("mutation: --survivors needs --fixture and the default run's report (npm run mutation first)");
    process.exit(2);
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
  const wanted = mutatedBy(options);
  const unknown = [...(classes ?? [])].filter((c) => !['equivalent', 'beyond-contract', 'gap'].includes(c));
  if (unknown.length) {
    console.error(`mutation: --survivors=CLASSES takes equivalent, beyond-contract and gap, not ${unknown.join(', ')}`);
    process.exit(2);
  }
  const classOf = new Map(loadClassified().map((c) => [c.key, c.class]));
  const chosen = new Set(
    keyed(report).flatMap(({ key, mutant }) => {
      const c = classOf.get(key);
      return !classes || c === undefined || classes.has(c) ? [mutant] : [];
    }),
  );
  const at = options.findIndex((a) => a === '--mutate' || a.startsWith('--mutate='));
  const rest = at < 0 ? options : options.filter((_, i) => i !== at && !(i === at + 1 && options[at] === '--mutate'));
  const ranges = Object.entries(report.files)
    .filter(([file]) => wanted(file))
    .flatMap(([file, { mutants }]) => [
      ...new Set(
        mutants
          .filter((m) => (m.status === 'Survived' || m.status === 'NoCoverage') && chosen.has(m))
          // With classes, each mutant's own place (Stryker's columns count from 0, the report's from 1): the killed
          // mutants of the same lines stay out of a run that can only add kills.
          .map((m) =>
            classes
              ? `${file}:${m.location.start.line}:${m.location.start.column - 1}-${m.location.end.line}:${m.location.end.column - 1}`
              : `${file}:${m.location.start.line}-${m.location.end.line}`,
          ),
      ),
    ]);
  if (!ranges.length) {
    console.error("mutation: --survivors: the default run's report has no survivor in the files named");
    process.exit(2);
  }
  console.log(`mutation: --survivors: ${ranges.length} ${classes ? 'places' : 'line ranges'} of the default run's survivors`);
  return [...rest, '--mutate', ranges.join(',')];
}

// A check that finds nothing of its own to judge on the data the mutants run against lets every mutant of what it
// would judge survive, so the run says first which checks those are.
const suiteOut = join(root, 'reports/out/mutation/suite');
const suite = spawnSync(
  process.execPath,
  [join(root, 'bin/cms-conformance.mjs'), 'run', '--out', suiteOut, ...(fixture ? ['--fixture', fixture] : [])],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
if (suite.status !== 0) {
  console.error(`mutation: the suite does not pass on the clean reference server (exit ${suite.status}); see ${suiteOut}`);
  process.exit(1);
}
const idle = loadResults(suiteOut).tests.filter(hadNothingToJudge);
console.log(
  idle.length
    ? `mutation: ${idle.length} checks had nothing to judge on ${fixture ?? 'the default data'}; their mutants can only survive:\n` +
        idle.map((t) => `  ${t.id}: ${t.findings.find((f) => f.check === 'fixture')?.message}`).join('\n')
    : `mutation: every check had something to judge on ${fixture ?? 'the default data'}`,
);
// A narrowed run reports only its files: the others are taken from the report it replaces.
const previous = existsSync(reportPath) ? readFileSync(reportPath, 'utf8') : undefined;
// A file run on some lines keeps the last report's results for its other lines: only sound while its source is the one
// that report mutated (a default-data run; the other data set's report stands apart).
const ranged = fixture ? new Set<string>() : rangedBy(passed);
if (ranged.size) {
  const before = previous === undefined ? undefined : (JSON.parse(previous) as Report);
  const changed = [...ranged].filter((f) => before?.files[f]?.source !== readFileSync(join(root, f), 'utf8'));
  if (changed.length) {
    console.error(
      `mutation: ${changed.join(', ')} changed since the last report (or it has none): run the whole file (--mutate ${changed[0]}), not some lines`,
    );
    process.exit(2);
  }
}
const started = new Date().toISOString();

/**
 * The `--mutate` value with each `file:a-b` range widened to whole mutants: Stryker runs only the mutants that lie within
 * a range, so a mutant that starts in it and ends below (a block) would keep its old result, from before the tests that
 * kill it now. The last report's mutants of the file say where each one ends.
 */
function wholeMutants(options: string[]): string[] {
  if (!ranged.size || previous === undefined) return options;
  const files = (JSON.parse(previous) as Report).files;
  return options.map((option, i) => {
    const value = option.startsWith('--mutate=') ? option.slice('--mutate='.length) : options[i - 1] === '--mutate' ? option : undefined;
    if (value === undefined) return option;
    const widened = value
      .split(',')
      .map((spec) => {
        const m = /^(.*):(\d+)-(\d+)$/.exec(spec);
        if (!m) return spec;
        let [from, to, wider] = [Number(m[2]), Number(m[3]), true];
        // Until no mutant overlaps the range's edges: a widened range may cut another one.
        while (wider) {
          wider = false;
          for (const { location: l } of files[m[1]!]?.mutants ?? [])
            if (l.start.line <= to && l.end.line >= from && (l.start.line < from || l.end.line > to)) {
              [from, to, wider] = [Math.min(from, l.start.line), Math.max(to, l.end.line), true];
            }
        }
        return `${m[1]}:${from}-${to}`;
      })
      .join(',');
    if (widened !== value) console.log(`mutation: the lines widened to whole mutants: ${widened}`);
    return option.startsWith('--mutate=') ? `--mutate=${widened}` : widened;
  });
}

// Stryker writes its incremental file (what a later --incremental run reuses) only in incremental mode: a whole run
// is run in it with --force (every mutant runs), so that it leaves the file behind. A narrowed run would leave a file
// of its own files alone, so the whole one is put back after it: stale for the narrowed files, which only means
// that an --incremental run reruns more of them.
const args = wholeMutants(passed);
const narrowed = args.some((a) => a === '--mutate' || a.startsWith('--mutate='));
const incrementalPath = join(root, 'reports/out/mutation/incremental.json');
const incrementalBefore = (narrowed || fixture) && existsSync(incrementalPath) ? readFileSync(incrementalPath, 'utf8') : undefined;
const strykerArgs = fixture
  ? args.filter((a) => a !== '--incremental')
  : narrowed || args.includes('--incremental')
    ? args
    : [...args, '--incremental', '--force'];

// Each mutant's tests that had nothing to judge (in-worker.ts writes them; score.ts names them beside its survivors).
rmSync(silentPath, { force: true });
const stryker = spawnSync(
  process.execPath,
  [
    fileURLToPath(new URL('../../node_modules/@stryker-mutator/core/bin/stryker.js', import.meta.url)),
    'run',
    'scripts/mutation/stryker.config.mjs',
    ...strykerArgs,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, [SILENT_FILE]: silentPath, ...(fixture ? { [FIXTURE_ENV]: fixture } : {}) } },
);
if (incrementalBefore !== undefined) writeFileSync(incrementalPath, incrementalBefore);
if (stryker.status !== 0) process.exit(stryker.status ?? 1);
if (fixture) {
  // The other data set's report stands beside the default run's, which is put back. A run of some files replaces theirs
  // in it and keeps the others' (a run of one data set only: another seed's report is not merged into it).
  const variedPath = join(root, 'reports/out/mutation/mutation-varied.json');
  const now = JSON.parse(readFileSync(reportPath, 'utf8')) as Report & { fixture?: string };
  const before = existsSync(variedPath) ? (JSON.parse(readFileSync(variedPath, 'utf8')) as Report & { fixture?: string }) : undefined;
  const merged = before && before.fixture === fixture ? mergeReports(before, now, started, mutatedBy(passed)).report : now;
  writeFileSync(variedPath, JSON.stringify({ ...merged, fixture }));
  if (previous !== undefined) writeFileSync(reportPath, previous);
  console.log(`mutation: the run on ${fixture} is in ${variedPath}; score both with score.ts --with ${variedPath}`);
  process.exit(0);
}
if (previous !== undefined) {
  const kept = mergeReports(
    JSON.parse(previous) as Report,
    JSON.parse(readFileSync(reportPath, 'utf8')) as Report,
    started,
    mutatedBy(passed),
    ranged,
  );
  writeFileSync(reportPath, JSON.stringify(kept.report));
  for (const [file, at] of Object.entries(kept.from))
    console.log(`mutation: ${file}: not mutated this time; its results are those of ${at}`);
}
const scored = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./score.ts', import.meta.url))], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(scored.status ?? 1);
