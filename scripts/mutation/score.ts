/**
 * The mutation score the project states: Stryker's report (reports/out/mutation/mutation.json) read
 * against the classified survivors (scripts/mutation/survivors/*.json, one file per mutated source). A survivor is equivalent (no
 * server could tell it apart: say why) or beyond the contract (the contract is silent on what it
 * changes: name the section), or it is unexplained: a gap in the suite. The score is killed over killed
 * plus unexplained survivors; each unexplained survivor is listed with its place, for someone to judge.
 * A mutant is keyed by its file, mutator, replacement and the text it replaces (and which occurrence of
 * that text), never by a line number, so a classification survives edits elsewhere in the file.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The environment variable naming the file where a mutant's tests that had nothing to judge are written (in-worker.ts). */
export const SILENT_FILE = 'CMS_MUTATION_SILENT';

/** The environment variable naming the data set the mutants run against (run.ts --fixture; in-worker.ts reads it). */
export const FIXTURE_ENV = 'CMS_MUTATION_FIXTURE';

/** Where run.ts has them written: one JSON line per test and mutant, `{mutant, test}`. */
export const silentPath = fileURLToPath(new URL('../../reports/out/mutation/silent.jsonl', import.meta.url));

/** The tests that had nothing to judge, by the mutant whose run they were in. */
export function silentTests(path = silentPath): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!existsSync(path)) return out;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const { mutant, test } = JSON.parse(line) as { mutant: string; test: string };
    const tests = out.get(mutant) ?? [];
    if (!tests.includes(test)) tests.push(test);
    out.set(mutant, tests);
  }
  return out;
}

/**
 * Whether a finding is a warning by which the suite saw a deviation: a SHOULD requirement's finding ("reported as a
 * warning, never fails a run by itself"), or a rule's finding in a test of another requirement. Not one: nothing to
 * judge (the data's lack, not a deviation), a step that could not be taken, an operation's own (OP-) finding such as an
 * answer too large to read, and unknown members (warnings only, reference notes). A mutation run fails the test on
 * such a warning (in-worker.ts); the sample (sample.ts) names them, since a default run does not fail on them.
 */
export function seenByWarning(f: { severity: string; check: string; requirement: string }): boolean {
  return f.severity === 'warning' && f.check !== 'fixture' && f.check !== 'step' && !f.requirement.startsWith('OP-');
}

/** One mutant as Stryker's JSON report gives it (mutation-testing-report-schema), the members read here. */
export interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'RuntimeError' | 'CompileError' | 'Ignored' | 'Pending';
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  statusReason?: string;
}

/** Stryker's JSON report, the members read here, and when each file's results were made (run.ts keeps them across narrowed runs). */
export interface Report {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
  runAt?: Record<string, string>;
}

/**
 * The report of a run narrowed to some files (`--mutate`), completed with the other files of the report it
 * replaces: each kept file with the date of the run it came from, and its mutant ids made distinct from
 * the new run's (ids are only unique within one run). `from` names the kept files and their dates.
 */
export function mergeReports(
  previous: Report,
  next: Report,
  startedAt: string,
  mutated: (file: string) => boolean = () => true,
  /** Files the run mutated some lines of (`--mutate file:lines`): their other mutants keep the previous results. */
  ranged: ReadonlySet<string> = new Set(),
): { report: Report; from: Record<string, string> } {
  const runAt: Record<string, string> = {};
  const from: Record<string, string> = {};
  // An --incremental run reports every file its incremental file holds, the unmutated ones with results of whenever
  // that file was written: only the files it mutated are news.
  const files = Object.fromEntries(Object.entries(next.files).filter(([file]) => mutated(file) || !(file in previous.files)));
  for (const file of Object.keys(files)) runAt[file] = next.runAt?.[file] ?? startedAt;
  // A file run on some lines only: its mutants there replace the previous ones at their place, the rest are kept (the
  // same source, which run.ts makes sure of before it runs).
  for (const file of ranged) {
    const before = previous.files[file];
    const now = files[file];
    if (!before || !now || before.source !== now.source) continue;
    const at = previous.runAt?.[file] ?? 'an earlier run';
    const place = (m: ReportMutant) => `${JSON.stringify(m.location)}|${m.mutatorName}|${m.replacement ?? ''}`;
    const rerun = new Set(now.mutants.map(place));
    const kept = before.mutants.filter((m) => !rerun.has(place(m))).map((m) => ({ ...m, id: m.id.includes('@') ? m.id : `${m.id}@${at}` }));
    files[file] = { ...now, mutants: [...kept, ...now.mutants] };
    from[file] = `${at} (but for the lines run now)`;
  }
  for (const [file, entry] of Object.entries(previous.files)) {
    if (file in files) continue;
    const at = previous.runAt?.[file] ?? 'an earlier run';
    from[file] = runAt[file] = at;
    files[file] = { ...entry, mutants: entry.mutants.map((m) => ({ ...m, id: m.id.includes('@') ? m.id : `${m.id}@${at}` })) };
  }
  return { report: { ...next, files, runAt }, from };
}

/**
 * What lets a survivor be beyond the contract: the open choice of schemas/open-choices.json it falls under, or the
 * contract's own words that leave the behaviour open (verbatim; ` ... ` joins parts), which test/mutation/grounds.test.ts
 * finds in ../shared.
 */
export type Ground = { choice: string } | { quote: string };

/** A classified survivor. */
export interface Classified {
  key: string;
  /** `gap`: a survivor the contract can tell apart that no check catches yet; it counts against the score. */
  class: 'equivalent' | 'beyond-contract' | 'gap';
  /** Why no correct server and no broken one differ on it (equivalent), what the contract leaves open, or what a check must catch (gap). */
  reason: string;
  /** The contract section that is silent (beyond-contract). */
  section?: string;
  /** Beyond the contract only with a ground: an entry without one counts as a gap. */
  ground?: Ground;
  /** Of a gap: the data that would show it where the default data set cannot. */
  data?: string;
  /** The source line the mutant is on, trimmed: a `#n` key names an occurrence, and an edit above it can move it. */
  line?: string;
}

/** One file's counts: killed, survivors classified and not, ignored, and its score. */
export interface FileScore {
  killed: number;
  classified: number;
  /** Unexplained survivors and gaps. */
  unexplained: number;
  ignored: number;
  score: number;
}

/** Killed over killed plus unexplained, in percent with one decimal (100 when nothing was judged). */
const percent = (killed: number, unexplained: number): number =>
  killed + unexplained ? Math.round((1000 * killed) / (killed + unexplained)) / 10 : 100;

/** The counts a report gives, and the unexplained survivors. */
export interface Score {
  killed: number;
  /** Of the killed, those Stryker ended on its timeout: a mutant that loops, or a run slowed by a busy machine. */
  timedOut: number;
  /** Of the killed, those only the run on the other data set killed (score.ts --with). */
  killedElsewhere: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  /** The ignored mutants by the reason given (an ignorer's of ignorers.mjs, or Stryker's). */
  ignoredBy: Record<string, number>;
  equivalent: number;
  beyondContract: number;
  /** Survivors the contract can tell apart: classified `gap`, or beyond the contract without a ground. Against the score. */
  gaps: string[];
  /** Each with the function (or top-level const) it is in, for triage by place. */
  unexplained: { key: string; place: string; id: string; within: string; line: string }[];
  /** Killed over killed plus unexplained survivors, in percent. */
  score: number;
  /** The same counts per mutated file, for the table the run prints. */
  byFile: Record<string, FileScore>;
  /** Classifications that match no survivor of this report (a mutant now killed, or code that changed). */
  stale: string[];
  /** Classifications whose key now names a mutant on another line than the one they were written for. */
  moved: { key: string; was: string; now: string }[];
}

/** Where a mutant's location (lines and columns from 1) starts and ends in its file's source, as offsets. */
function offsets(source: string, m: ReportMutant): [number, number] {
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const at = ({ line, column }: { line: number; column: number }) => lineStarts[line - 1]! + column - 1;
  return [at(m.location.start), at(m.location.end)];
}

/** The text a mutant replaces, from its file's source and its location. */
function original(source: string, m: ReportMutant): string {
  const [start, end] = offsets(source, m);
  return source.slice(start, end);
}

/** The source with the mutant applied: its replacement in place of the text it replaces. */
export function applied(source: string, m: ReportMutant): string {
  const [start, end] = offsets(source, m);
  return `${source.slice(0, start)}${m.replacement ?? ''}${source.slice(end)}`;
}

const DECLARATION = /^(?:export\s+)?(?:async\s+)?(?:function\*?\s+(\w+)|(?:const|let)\s+(\w+)\s*(?::[^=]+)?=|class\s+(\w+))/;

/** The top-level function, const or class a line of a source is in: the nearest declaration at column 0 at or above it. */
export function enclosing(source: string, line: number): string {
  const lines = source.split('\n');
  for (let i = Math.min(line, lines.length) - 1; i >= 0; i--) {
    const m = DECLARATION.exec(lines[i]!);
    if (m) return m[1] ?? m[2] ?? m[3]!;
  }
  return '(top)';
}

/** Every mutant of a report with its stable key: file, mutator, replacement, replaced text, and that text's occurrence. */
export function keyed(report: Report): { key: string; file: string; place: string; line: string; mutant: ReportMutant }[] {
  const out: { key: string; file: string; place: string; line: string; mutant: ReportMutant }[] = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const seen = new Map<string, number>();
    const lines = source.split('\n');
    const ordered = [...mutants].sort(
      (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
    );
    for (const m of ordered) {
      const text = original(source, m).replace(/\s+/g, ' ');
      const base = `${file}|${m.mutatorName}|${(m.replacement ?? '').replace(/\s+/g, ' ')}|${text}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      out.push({
        key: n === 1 ? base : `${base}#${n}`,
        file,
        place: `${file}:${m.location.start.line}:${m.location.start.column}`,
        line: (lines[m.location.start.line - 1] ?? '').trim(),
        mutant: m,
      });
    }
  }
  return out;
}

/**
 * The keys of `report`'s mutants that `other` (a run on another data set, whole or narrowed to some lines) killed: matched by
 * place, mutator and replacement in a file whose source both reports share, since a narrowed run numbers the occurrences
 * of a text among its own mutants only. A file whose source differs is left out and named in `differing`.
 */
export function killedIn(report: Report, other: Report): { keys: Set<string>; differing: string[] } {
  const at = (file: string, m: ReportMutant) =>
    `${file}|${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column}|${m.mutatorName}|${m.replacement ?? ''}`;
  const differing = Object.keys(other.files).filter((f) => report.files[f] && report.files[f].source !== other.files[f]!.source);
  const killed = new Set(
    Object.entries(other.files)
      .filter(([f]) => !differing.includes(f))
      .flatMap(([f, { mutants }]) => mutants.filter((m) => ['Killed', 'Timeout', 'RuntimeError'].includes(m.status)).map((m) => at(f, m))),
  );
  return { keys: new Set(keyed(report).flatMap((k) => (killed.has(at(k.file, k.mutant)) ? [k.key] : []))), differing };
}

/** Mutant by mutant, per file in both reports: the kills a newer report lost and gained (a timeout counts as a kill). */
export function compareReports(older: Report, newer: Report): { file: string; lost: string[]; gained: string[] }[] {
  const killed = (m: ReportMutant) => m.status === 'Killed' || m.status === 'Timeout';
  const before = new Map(keyed(older).map((k) => [k.key, killed(k.mutant)]));
  const out = new Map<string, { file: string; lost: string[]; gained: string[] }>();
  for (const k of keyed({ ...newer, files: Object.fromEntries(Object.entries(newer.files).filter(([f]) => f in older.files)) })) {
    const entry = out.get(k.file) ?? { file: k.file, lost: [], gained: [] };
    out.set(k.file, entry);
    const was = before.get(k.key);
    if (was === true && !killed(k.mutant)) entry.lost.push(`${k.key} (${k.mutant.status})`);
    if (was === false && killed(k.mutant)) entry.gained.push(k.key);
  }
  return [...out.values()];
}

/** Whether a classification leaves its survivor a gap: so classified, or beyond the contract on no ground. */
export function isGap(c: Classified): boolean {
  return c.class === 'gap' || (c.class === 'beyond-contract' && c.ground === undefined);
}

/**
 * The score of a report under the classified survivors. `killedElsewhere`: keys of mutants a run on another data set
 * (run.ts --fixture) killed; such a survivor of this report counts as killed.
 */
export function score(report: Report, classified: readonly Classified[], killedElsewhere: ReadonlySet<string> = new Set()): Score {
  const byKey = new Map(classified.map((c) => [c.key, c]));
  const used = new Set<string>();
  const s: Score = {
    killed: 0,
    timedOut: 0,
    killedElsewhere: 0,
    survived: 0,
    noCoverage: 0,
    ignored: 0,
    ignoredBy: {},
    equivalent: 0,
    beyondContract: 0,
    gaps: [],
    unexplained: [],
    score: 0,
    byFile: {},
    stale: [],
    moved: [],
  };
  for (const { key, place, line, mutant } of keyed(report)) {
    const fileName = key.slice(0, key.indexOf('|'));
    const file = (s.byFile[key.slice(0, key.indexOf('|'))] ??= { killed: 0, classified: 0, unexplained: 0, ignored: 0, score: 0 });
    switch (mutant.status) {
      case 'Killed':
      case 'Timeout':
      case 'RuntimeError':
        s.killed++;
        if (mutant.status === 'Timeout') s.timedOut++;
        file.killed++;
        continue;
      case 'Ignored':
      case 'CompileError':
      case 'Pending': {
        s.ignored++;
        file.ignored++;
        const why = mutant.statusReason ?? mutant.status;
        s.ignoredBy[why] = (s.ignoredBy[why] ?? 0) + 1;
        continue;
      }
    }
    // Killed on the other data set: the suite tells it apart, where the data shows it.
    if (killedElsewhere.has(key)) {
      s.killed++;
      s.killedElsewhere++;
      file.killed++;
      // Its classification still explains the default data's survivor (a gap marked `data` the other data set shows): not stale.
      if (byKey.has(key)) used.add(key);
      continue;
    }
    // Survived, or reached by no test: the suite did not tell it apart.
    if (mutant.status === 'NoCoverage') s.noCoverage++;
    else s.survived++;
    const c = byKey.get(key);
    if (!c) {
      s.unexplained.push({
        key,
        place,
        id: mutant.id,
        within: `${fileName} ${enclosing(report.files[fileName]!.source, mutant.location.start.line)}`,
        line,
      });
      file.unexplained++;
      continue;
    }
    used.add(key);
    if (c.line !== undefined && c.line !== line) s.moved.push({ key, was: c.line, now: line });
    if (isGap(c)) {
      s.gaps.push(key);
      file.unexplained++;
      continue;
    }
    file.classified++;
    if (c.class === 'equivalent') s.equivalent++;
    else s.beyondContract++;
  }
  // Only a file the report mutated can show a classification stale: a run of one file says nothing of the others.
  const files = new Set(Object.keys(report.files));
  s.stale = classified.map((c) => c.key).filter((k) => files.has(k.slice(0, k.indexOf('|'))) && !used.has(k));
  s.score = percent(s.killed, s.unexplained.length + s.gaps.length);
  for (const f of Object.values(s.byFile)) f.score = percent(f.killed, f.unexplained);
  return s;
}

/**
 * New keys for classifications an edit moved: a `#n` key counts the occurrences of the same text above the mutant, so
 * one more occurrence above shifts every key below it to a neighbour's mutant. Within each group of keys that differ
 * only in `#n`, a classification stays where its key still names a survivor on its own line, and else goes to the
 * survivor of the group, not yet taken, that is on its line. One whose line is on no survivor any more keeps its key,
 * unless another now holds that key: then it is null (its code is gone; the other is the survivor's own). Returns the
 * new key of each classification, in order.
 */
export function rekey(report: Report, classified: readonly Classified[]): (string | null)[] {
  const base = (key: string) => key.replace(/#\d+$/, '');
  const survivors = new Map<string, { key: string; line: string }[]>();
  for (const k of keyed(report))
    if (k.mutant.status === 'Survived' || k.mutant.status === 'NoCoverage')
      survivors.set(base(k.key), [...(survivors.get(base(k.key)) ?? []), k]);
  const out: (string | null)[] = classified.map((c) => c.key);
  const groups = new Map<string, number[]>();
  classified.forEach((c, i) => groups.set(base(c.key), [...(groups.get(base(c.key)) ?? []), i]));
  for (const [group, members] of groups) {
    const candidates = survivors.get(group) ?? [];
    const lineOf = new Map(candidates.map((s) => [s.key, s.line]));
    const inPlace = (i: number) => classified[i]!.line === undefined || lineOf.get(classified[i]!.key) === classified[i]!.line;
    const taken = new Set(members.filter(inPlace).map((i) => classified[i]!.key));
    const unmatched: number[] = [];
    for (const i of members) {
      if (inPlace(i)) continue;
      const to = candidates.find((s) => s.line === classified[i]!.line && !taken.has(s.key));
      if (!to) {
        unmatched.push(i);
        continue;
      }
      taken.add(to.key);
      out[i] = to.key;
    }
    for (const i of unmatched) if (taken.has(classified[i]!.key)) out[i] = null;
  }
  return out;
}

/** Where the classified survivors are committed: one JSON file per mutated source. */
export const survivorsDir = fileURLToPath(new URL('./survivors/', import.meta.url));

/** The classified survivors of every committed file. */
export function loadClassified(dir = survivorsDir): Classified[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { survivors: Classified[] }).survivors);
}

/** The file of survivors/ where a mutated source's classifications go (server/handlers/pages.ts → pages.json). */
export const survivorsFile = (source: string): string =>
  join(survivorsDir, `${source.replace(/^server\/(handlers\/)?/, '').replace(/\.ts$/, '')}.json`);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // score.ts [REPORT] [--file SOURCE] [--stubs] [--rekey] [--prune] [--compare OLDER] [--with OTHER]: --with counts the kills of a
  // run on another data set (run.ts --fixture varied:SEED writes mutation-varied.json) as kills; --file lists one source's unexplained
  // survivors with their lines; --stubs prints them as entries for its survivors file, for someone to judge one by one;
  // --rekey gives the classifications an edit moved the keys of their own survivors again (before --prune);
  // --prune removes the classifications of mutants the report no longer has as survivors (of the files it measured, or the
  // --file given); --compare lists, per file,
  // the kills the report lost and gained against an older one (a suite change that proves less loses kills).
  const args = process.argv.slice(2);
  const compareAt = args.indexOf('--compare');
  const fileAt = args.indexOf('--file');
  const only = fileAt >= 0 ? args[fileAt + 1] : undefined;
  const stubs = args.includes('--stubs');
  const prune = args.includes('--prune');
  const reportPath =
    args.find((a, i) => !a.startsWith('--') && !['--file', '--compare', '--with'].includes(args[i - 1] ?? '')) ??
    fileURLToPath(new URL('../../reports/out/mutation/mutation.json', import.meta.url));
  // A report that is missing or unreadable is the user's to fix: one line, exit 2 (as sample.ts says it).
  const withPath = args.includes('--with') ? [args[args.indexOf('--with') + 1] ?? ''] : [];
  for (const path of [reportPath, ...(compareAt >= 0 ? [args[compareAt + 1] ?? ''] : []), ...withPath])
    if (!existsSync(path)) {
      console.error(`score: no Stryker report at ${path || '(none given)'}: run \`npm run mutation\` first`);
      process.exit(2);
    }
  if (compareAt >= 0) {
    const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Report;
    for (const { file, lost, gained } of compareReports(read(args[compareAt + 1] ?? ''), read(reportPath))) {
      if (only && file !== only) continue;
      console.log(`${file}: ${lost.length} kills lost, ${gained.length} gained`);
      for (const k of lost) console.log(`  lost ${k}`);
    }
    process.exit(0);
  }
  const read = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
  if (args.includes('--rekey')) {
    const files = readdirSync(survivorsDir)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((f) => ({
        f,
        path: join(survivorsDir, f),
        data: JSON.parse(readFileSync(join(survivorsDir, f), 'utf8')) as { survivors: Classified[] },
      }));
    const keys = rekey(
      read,
      files.flatMap((x) => x.data.survivors),
    );
    let at = 0;
    for (const { f, path, data } of files) {
      const mine = keys.slice(at, (at += data.survivors.length));
      const changed = mine.filter((k, i) => k !== data.survivors[i]!.key).length;
      if (!changed) continue;
      const survivors = data.survivors.flatMap((c, i) => (mine[i] === null ? [] : [{ ...c, key: mine[i]! }]));
      writeFileSync(path, `${JSON.stringify({ ...data, survivors }, null, 2)}\n`);
      console.log(`rekeyed ${changed} classifications of ${f} (${data.survivors.length - survivors.length} of them gone with their code)`);
    }
  }
  // --with OTHER.json: the report of a run on another data set (run.ts --fixture): its kills count here.
  const withAt = args.indexOf('--with');
  const other = withAt >= 0 ? (JSON.parse(readFileSync(args[withAt + 1] ?? '', 'utf8')) as Report) : undefined;
  const matched = other ? killedIn(read, other) : { keys: new Set<string>(), differing: [] };
  for (const f of matched.differing)
    console.log(`score: ${f} is not the same source in ${args[withAt + 1]}: its kills there are not counted (run it again)`);
  const elsewhere = matched.keys;
  const s = score(read, loadClassified(), elsewhere);
  const shown = s.unexplained.filter((u) => !only || u.key.startsWith(`${only}|`));
  if (stubs) {
    const entries = shown.map((u) => ({ key: u.key, class: '?', reason: '?', section: '?', line: u.line, within: u.within }));
    console.log(JSON.stringify(entries, null, 2));
    process.exit(0);
  }
  // A survivor whose tests had nothing to judge is a gap of data (or of an oracle), not of a check: say which.
  const silent = silentTests();
  for (const u of shown) {
    const quiet = silent.get(u.id);
    console.log(
      `unexplained survivor ${u.place}  ${u.key}${only ? `\n  in ${u.within}: ${u.line}` : ''}${quiet ? `\n  nothing to judge under it: ${quiet.join('; ')}` : ''}`,
    );
  }
  for (const k of s.stale) console.log(`stale classification (no such survivor now): ${k}`);
  // --prune: a stale classification names a mutant the suite now kills (or code that is gone): it goes. Only for the files
  // the report measured (and with --file, that one): a report that lacks a file says nothing of its survivors.
  const measured = (key: string) => key.split('|')[0]! in read.files && (!only || key.startsWith(`${only}|`));
  if (prune && s.stale.some(measured)) {
    const stale = new Set(s.stale.filter(measured));
    for (const f of readdirSync(survivorsDir).filter((n) => n.endsWith('.json'))) {
      const path = join(survivorsDir, f);
      const file = JSON.parse(readFileSync(path, 'utf8')) as { survivors: Classified[] };
      const kept = file.survivors.filter((c) => !stale.has(c.key));
      if (kept.length === file.survivors.length) continue;
      writeFileSync(path, `${JSON.stringify({ ...file, survivors: kept }, null, 2)}\n`);
      console.log(`pruned ${file.survivors.length - kept.length} stale classifications from ${f}`);
    }
  }
  for (const m of s.moved) console.log(`moved classification (its key now names another line): ${m.key}\n  was: ${m.was}\n  now: ${m.now}`);
  if (only) process.exit(0);
  console.log(
    `mutants: ${s.killed} killed (${s.timedOut} by Stryker's timeout${other ? `, ${s.killedElsewhere} only on the other data set` : ''}), ${s.survived} survived, ${s.noCoverage} reached by no test, ${s.ignored} ignored; ` +
      `survivors classified: ${s.equivalent} equivalent, ${s.beyondContract} beyond the contract (each on its ground), ${s.gaps.length} gaps; ` +
      `${s.unexplained.length} unexplained`,
  );
  for (const [why, n] of Object.entries(s.ignoredBy)) console.log(`  ignored ${n}: ${why}`);
  const places = new Map<string, number>();
  for (const u of s.unexplained) places.set(u.within, (places.get(u.within) ?? 0) + 1);
  console.log('unexplained survivors by where they are (the 30 places with most):');
  for (const [within, n] of [...places].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${String(n).padStart(4)}  ${within}`);
  console.log('file | killed | survivors classified | unexplained | ignored | score');
  for (const [file, f] of Object.entries(s.byFile))
    console.log(`${file} | ${f.killed} | ${f.classified} | ${f.unexplained} | ${f.ignored} | ${f.score}%`);
  for (const k of s.gaps) console.log(`gap: ${k}`);
  console.log(`mutation score: ${s.score}% (killed of killed plus gaps and unexplained survivors)`);
}
