import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { command, writeHistory } from '../../cli/history.ts';
import { UsageError, replayArgsOf } from '../../cli/args.ts';
import { RUN_OPTIONS, parseRunOptions } from '../../cli/run.ts';
import { CACHE_FILE, RunCache, buildHistory, cellOf, findResults, loadHistory, readRun, type History } from '../../reports/history.ts';
import { renderHistoryHtml } from '../../reports/history-html.ts';
import { renderHistoryMarkdown } from '../../reports/history-md.ts';
import { loadResults } from '../../reports/results.ts';
import { fileProblem } from '../../schemas/files.ts';
import { cli } from '../support/cli.ts';
import { syntheticResults, writeRun, type SyntheticRun } from './history-sample.ts';

const PAG01 = 'PAG-01 without pageSize every item comes back';
const PAG02 = 'PAG-02 pageSize 0 returns no items';
const UPL01 = 'UPL-01 multipart create keeps the bytes';
const ENV01 = 'ENV-01 every body has the envelope';

const root = mkdtempSync(join(tmpdir(), 'cms-history-'));
let folders = 0;

/** Writes the runs, each in a folder of its own under a fresh folder, and builds their history. */
function historyOf(runs: SyntheticRun[], beside: { report?: boolean; statement?: boolean } = {}): { history: History; dir: string } {
  const dir = join(root, `case-${++folders}`);
  runs.forEach((r, i) => writeRun(join(dir, `run-${i}`), r, beside));
  return { history: loadHistory(findResults([dir]), join(dir, 'out')), dir };
}

const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;

describe('history: the cells', () => {
  it('gives each outcome its letter, and absent for a test the run does not have', () => {
    const r = syntheticResults({ startedAt: at(1), tests: { [PAG01]: 'P', [PAG02]: 'F', [UPL01]: 'S', [ENV01]: 'N', 'FLT-01 x': 'X' } });
    const byId = new Map(r.tests.map((t) => [t.id, t]));
    expect([PAG01, PAG02, UPL01, ENV01, 'FLT-01 x', 'SRT-01 none'].map((id) => cellOf(byId.get(id)))).toEqual([
      'P',
      'F',
      'S',
      'N',
      'X',
      '-',
    ]);
  });

  it('lays out tests by family and requirement against runs in date order, whatever order the files come in', () => {
    const { history } = historyOf([
      { label: 'build-2', startedAt: at(2), tests: { [PAG01]: 'F', [UPL01]: 'P' } },
      { label: 'build-1', startedAt: at(1), tests: { [PAG01]: 'P', [ENV01]: 'P' } },
    ]);
    expect(history.runs.map((r) => r.label)).toEqual(['build-1', 'build-2']);
    expect(history.tests.map((t) => [t.id, t.cells])).toEqual([
      [ENV01, 'P-'],
      [PAG01, 'PF'],
      [UPL01, '-P'],
    ]);
  });
});

describe('history: what changed', () => {
  it('names the last run a test passed and the first it failed after, newest regression first', () => {
    const { history } = historyOf([
      { label: 'b1', startedAt: at(1), tests: { [PAG01]: 'P', [PAG02]: 'P', [UPL01]: 'P' } },
      { label: 'b2', startedAt: at(2), tests: { [PAG01]: 'F', [PAG02]: 'P', [UPL01]: 'P' } },
      { label: 'b3', startedAt: at(3), tests: { [PAG01]: 'F', [PAG02]: 'S', [UPL01]: 'P' } },
      { label: 'b4', startedAt: at(4), tests: { [PAG01]: 'F', [PAG02]: 'X', [UPL01]: 'P' } },
    ]);
    expect(history.regressions.map((g) => [g.id, g.lastPassed, g.firstFailed, g.expected])).toEqual([
      [PAG02, 1, 3, true],
      [PAG01, 0, 1, false],
    ]);
    expect(history.tests.find((t) => t.id === UPL01)?.changed).toBe(false);
  });

  it('takes a test absent from a run for absent, not passed: no pass in between, no flip', () => {
    const { history } = historyOf([
      { startedAt: at(1), tests: { [PAG01]: 'F', [PAG02]: 'P' } },
      { startedAt: at(2), tests: { [PAG02]: 'P' } },
      { startedAt: at(3), tests: { [PAG01]: 'F', [PAG02]: 'P' } },
    ]);
    expect(history.tests.find((t) => t.id === PAG01)?.cells).toBe('F-F');
    expect(history.regressions).toEqual([]);
    expect(history.flips).toEqual([]);
  });

  it('counts flips between runs of one target and suite', () => {
    const cells = ['P', 'F', 'P', 'F', 'P'] as const;
    const { history } = historyOf(cells.map((c, i) => ({ startedAt: at(i + 1), tests: { [PAG01]: c, [PAG02]: 'P' } })));
    expect(history.flips.map((f) => [f.id, f.flips, f.runs])).toEqual([[PAG01, 4, [1, 2, 3, 4]]]);
    expect(history.regressions).toEqual([]);
  });

  it('never compares runs of different suite versions: marked, each compared within its own', () => {
    const { history } = historyOf([
      { startedAt: at(1), version: '0.1.0', tests: { [PAG01]: 'P' } },
      { startedAt: at(2), version: '0.2.0', tests: { [PAG01]: 'F' } },
    ]);
    expect(history.suites).toEqual(['0.1.0', '0.2.0']);
    expect(history.regressions).toEqual([]);
    expect(renderHistoryHtml(history)).toContain('These runs are of 2 suites');
    expect(renderHistoryMarkdown(history)).toContain('**2 suites**');
  });

  it('tells runs of one version apart by catalogue digest when their statements name different ones', () => {
    const dir = join(root, `case-${++folders}`);
    writeRun(join(dir, 'a'), { startedAt: at(1), tests: { [PAG01]: 'P' } }, { statement: true });
    writeRun(join(dir, 'b'), { startedAt: at(2), tests: { [PAG01]: 'F' } }, { statement: true });
    const statement = join(dir, 'b', 'conformance.json');
    const edited = JSON.parse(readFileSync(statement, 'utf8'));
    writeFileSync(statement, JSON.stringify({ ...edited, catalogueDigest: `sha256:${'0'.repeat(64)}` }));
    const history = loadHistory(findResults([dir]), dir);
    expect(history.suites).toHaveLength(2);
    expect(history.suites.every((s) => s.startsWith('0.1.0 catalogue '))).toBe(true);
    expect(history.regressions).toEqual([]);
  });

  it("tells runs of one version apart by the catalogue digest each run records, and prefers it to a statement's", () => {
    const [one, two] = [`sha256:${'1'.repeat(64)}`, `sha256:${'2'.repeat(64)}`];
    const dir = join(root, `case-${++folders}`);
    writeRun(join(dir, 'a'), { startedAt: at(1), catalogue: one, tests: { [PAG01]: 'P' } }, { statement: true });
    writeRun(join(dir, 'b'), { startedAt: at(2), catalogue: two, tests: { [PAG01]: 'F' } }, { statement: true });
    const history = loadHistory(findResults([dir]), dir);
    expect(history.runs.map((r) => r.catalogueDigest)).toEqual([one, two]);
    expect(history.suites).toHaveLength(2);
    // Both statements name this suite's own catalogue: read from them, a's pass and b's failure would make a regression.
    expect(history.regressions).toEqual([]);
  });

  it('marks an interrupted run', () => {
    const { history } = historyOf([{ startedAt: at(1), interrupted: true, tests: { [PAG01]: 'P' } }]);
    expect(history.runs[0]?.interrupted).toMatch(/^SIGINT at /);
    expect(renderHistoryHtml(history)).toContain('⚠ interrupted');
    expect(renderHistoryMarkdown(history)).toContain('**1 interrupted run**');
  });
});

describe('history: targets', () => {
  const runs: SyntheticRun[] = [
    { label: 'a-1', baseUrl: 'http://a.example/rest', startedAt: at(1), tests: { [PAG01]: 'F', [PAG02]: 'P', [UPL01]: 'P' } },
    { label: 'a-2', baseUrl: 'http://a.example/rest', startedAt: at(3), tests: { [PAG01]: 'P', [PAG02]: 'P', [UPL01]: 'P' } },
    { label: 'b-1', baseUrl: 'http://b.example/rest', startedAt: at(2), tests: { [PAG01]: 'F', [PAG02]: 'P', [UPL01]: 'S' } },
  ];

  it('lists the tests two targets judge differently, each by its newest run', () => {
    const { history } = historyOf(runs);
    expect(history.disagreements).toEqual([
      { id: PAG01, suite: '0.1.0', passed: ['http://a.example/rest'], failed: ['http://b.example/rest'] },
    ]);
  });

  it("builds the interop matrix: a column per target, most disputed requirement first, with each target's statement verdict", () => {
    const { history } = historyOf(runs, { statement: true });
    const [m] = history.matrices;
    // Neither conforms (a run of three requirements is a partial run); their verdicts say how each stands.
    expect(m?.targets.map((t) => [history.runs[t.run]?.label, t.statement?.conforms, t.statement?.matches, t.statement?.verdict])).toEqual([
      ['a-2', false, true, 'the target conforms to every requirement tested'],
      ['b-1', false, true, 'the target does not conform: 1 unexpected failure'],
    ]);
    expect(m?.rows.map((r) => [r.requirement, r.shares, r.spread])).toEqual([
      [
        'PAG-01',
        [
          { passed: 1, judged: 1 },
          { passed: 0, judged: 1 },
        ],
        1,
      ],
      [
        'PAG-02',
        [
          { passed: 1, judged: 1 },
          { passed: 1, judged: 1 },
        ],
        0,
      ],
      ['UPL-01', [{ passed: 1, judged: 1 }, null], 0],
    ]);
  });

  it('says a statement beside the results that was made from other results does not speak for them', () => {
    const dir = join(root, `case-${++folders}`);
    runs.forEach((r, i) => writeRun(join(dir, `run-${i}`), r, { statement: true }));
    writeRun(join(dir, 'run-2'), { ...runs[2]!, tests: { [PAG01]: 'P' } });
    const history = loadHistory(findResults([dir]), dir);
    expect(history.matrices[0]?.targets[1]?.statement?.matches).toBe(false);
    expect(renderHistoryHtml(history)).toContain('statement of other results');
  });

  it('names targets by NAME=PATH, so runs of the embedded server on changing ports stay one target', () => {
    const dir = join(root, `case-${++folders}`);
    writeRun(join(dir, 'default', 'b1'), { embedded: true, baseUrl: 'http://127.0.0.1:40001', startedAt: at(1), tests: { [PAG01]: 'P' } });
    writeRun(join(dir, 'default', 'b2'), { embedded: true, baseUrl: 'http://127.0.0.1:40002', startedAt: at(2), tests: { [PAG01]: 'F' } });
    writeRun(join(dir, 'field', 'f1'), { embedded: true, baseUrl: 'http://127.0.0.1:40003', startedAt: at(3), tests: { [PAG01]: 'P' } });
    const history = loadHistory(findResults([`default=${join(dir, 'default')}`, `field=${join(dir, 'field')}`]), dir);
    expect(history.runs.map((r) => r.target)).toEqual(['default', 'default', 'field']);
    expect(history.regressions.map((g) => [g.target, g.firstFailed])).toEqual([['default', 1]]);
    expect(history.disagreements.map((d) => [d.passed, d.failed])).toEqual([[['field'], ['default']]]);
  });
});

describe('history: labels and the results format', () => {
  it('loads results written before labels: named by the base URL without credentials, and the date', () => {
    const dir = join(root, `case-${++folders}`);
    const r = syntheticResults({
      startedAt: at(5),
      baseUrl: 'https://user:hunter2@cms.example/rest?sid=s3cret#x',
      tests: { [PAG01]: 'P' },
    });
    expect(r).not.toHaveProperty('label');
    expect(fileProblem('results', r)).toBeUndefined();
    writeRun(dir, { startedAt: at(5), baseUrl: 'https://user:hunter2@cms.example/rest?sid=s3cret#x', tests: { [PAG01]: 'P' } });
    const history = loadHistory(findResults([dir]), dir);
    expect(history.runs[0]?.label).toBe('https://cms.example/rest 2026-11-05 10:00');
    const pages = [renderHistoryHtml(history), renderHistoryMarkdown(history), JSON.stringify(history)];
    for (const page of pages) expect(page).not.toMatch(/hunter2|s3cret/);
  });

  it('keeps a label through results.json, checked by the results schema', () => {
    const dir = join(root, `case-${++folders}`);
    writeRun(dir, { label: 'build-7', startedAt: at(1), tests: { [PAG01]: 'P' } });
    expect(loadResults(dir).label).toBe('build-7');
    expect(fileProblem('results', { ...syntheticResults({ startedAt: at(1), tests: {} }), label: 7 })).toMatch(/label/);
  });

  it('takes run --label TEXT, which a replay line does not repeat (it names the run, it changes nothing it does)', () => {
    const { values } = parseRunOptions(['--label', 'build-7', '--seed', '3']);
    expect(values.label).toBe('build-7');
    expect(replayArgsOf(RUN_OPTIONS, values)).toEqual([]);
  });

  it('escapes labels and ids in the page and the Markdown', () => {
    const hostile = '<script>window.__xss=1</script>';
    const { history } = historyOf([
      { label: hostile, startedAt: at(1), tests: { [`PAG-01 ${hostile}`]: 'P' } },
      { label: `${hostile} | *b*`, startedAt: at(2), tests: { [`PAG-01 ${hostile}`]: 'F' } },
    ]);
    const html = renderHistoryHtml(history);
    expect(html).not.toContain(hostile);
    expect(html).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
    const md = renderHistoryMarkdown(history);
    expect(md).not.toContain('<script>');
    expect(md).toContain('\\| \\*b\\*');
  });
});

describe('history: inputs', () => {
  it('finds results.json at any depth, and a file named twice is one run', () => {
    const dir = join(root, `case-${++folders}`);
    writeRun(join(dir, 'ci', '2026', 'build-1'), { startedAt: at(1), tests: { [PAG01]: 'P' } });
    writeRun(join(dir, 'ci', 'build-2'), { startedAt: at(2), tests: { [PAG01]: 'P' } });
    const inputs = findResults([dir, join(dir, 'ci', 'build-2', 'results.json')]);
    expect(inputs.map((i) => i.path.slice(dir.length))).toEqual(['/ci/2026/build-1/results.json', '/ci/build-2/results.json']);
  });

  it('links a run to the report.html beside its results, relative to the output folder', () => {
    const dir = join(root, `case-${++folders}`);
    writeRun(join(dir, 'builds', 'build 1'), { startedAt: at(1), tests: { [PAG01]: 'P' } }, { report: true });
    writeRun(join(dir, 'builds', 'build-2'), { startedAt: at(2), tests: { [PAG01]: 'P' } });
    const out = join(dir, 'pages', 'history');
    const history = loadHistory(findResults([dir]), out);
    expect(history.runs.map((r) => r.report)).toEqual(['../../builds/build%201/report.html', undefined]);
  });

  it('writes the three files, history.json the model itself', () => {
    const dir = join(root, `case-${++folders}`);
    writeRun(join(dir, 'b1'), { label: 'b1', startedAt: at(1), tests: { [PAG01]: 'P' } });
    writeRun(join(dir, 'b2'), { label: 'b2', startedAt: at(2), tests: { [PAG01]: 'F' } });
    const out = join(dir, 'out');
    mkdirSync(out);
    const { paths, history } = writeHistory([dir], out);
    expect(paths.map((p) => p.slice(out.length + 1))).toEqual(['history.html', 'history.json', 'history.md']);
    expect(JSON.parse(readFileSync(join(out, 'history.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(history)));
    expect(readFileSync(join(out, 'history.md'), 'utf8')).toContain(
      `| ${PAG01.replace(/_/g, '\\_')} | http://cms.example/rest | b2 (2026-11-02) | b1 (2026-11-01) |`,
    );
  });

  it('names a file that is not a results.json, and reads nothing more', () => {
    const dir = join(root, `case-${++folders}`);
    writeRun(join(dir, 'b1'), { startedAt: at(1), tests: { [PAG01]: 'P' } });
    mkdirSync(join(dir, 'b2'));
    writeFileSync(join(dir, 'b2', 'results.json'), '{"tool": {"name": "cms-conformance"');
    expect(() => writeHistory([dir], dir)).toThrow(UsageError);
    expect(() => writeHistory([dir], dir)).toThrow(`${join(dir, 'b2', 'results.json')} is not valid JSON`);
    expect(() => readRun({ path: join(dir, 'b2', 'results.json') }, dir)).toThrow(/is not valid JSON/);
  });

  it('builds an empty history from no runs without failing (the CLI refuses none before)', () => {
    const history = buildHistory([]);
    expect([history.runs, history.tests, history.regressions, history.matrices]).toEqual([[], [], [], []]);
    expect(renderHistoryHtml(history)).toContain('No test changed.');
  });
});

describe('history: the cache of what was read', () => {
  it('reads an unchanged results.json from history-cache.json, and a changed one anew', () => {
    const dir = join(root, `case-${++folders}`);
    const file = writeRun(join(dir, 'b1'), { label: 'b1', startedAt: at(1), tests: { [PAG01]: 'P', [PAG02]: 'F' } });
    const cacheFile = join(dir, CACHE_FILE);
    const first = new RunCache(cacheFile);
    expect(first.read(file).cells.get(PAG02)?.cell).toBe('F');
    first.save();
    // Marked in the cache only: seen again, the mark proves the file was not parsed.
    const data = JSON.parse(readFileSync(cacheFile, 'utf8'));
    data.runs[file].facts.verdict = 'from the cache';
    writeFileSync(cacheFile, JSON.stringify(data));
    const again = new RunCache(cacheFile).read(file);
    expect(again.facts.verdict).toBe('from the cache');
    expect([...again.cells].map(([id, c]) => [id, c.cell])).toEqual([
      [PAG01, 'P'],
      [PAG02, 'F'],
    ]);
    writeRun(join(dir, 'b1'), { label: 'b1', startedAt: at(1), tests: { [PAG01]: 'P', [PAG02]: 'P', [UPL01]: 'S' } });
    const changed = new RunCache(cacheFile).read(file);
    expect(changed.facts.verdict).not.toBe('from the cache');
    expect(changed.cells.get(PAG02)?.cell).toBe('P');
  });

  it('ignores a cache another version of the suite wrote, and gives the same history with or without one', () => {
    const dir = join(root, `case-${++folders}`);
    writeRun(join(dir, 'b1'), { label: 'b1', startedAt: at(1), tests: { [PAG01]: 'P' } });
    writeRun(join(dir, 'b2'), { label: 'b2', startedAt: at(2), tests: { [PAG01]: 'F', [UPL01]: 'N' } });
    const cacheFile = join(dir, CACHE_FILE);
    const older = new RunCache(cacheFile, '0.0.1');
    older.read(join(dir, 'b1', 'results.json'));
    older.save();
    const fresh = new RunCache(cacheFile);
    const generatedAt = new Date(0);
    const withCache = loadHistory(findResults([dir]), dir, { cache: fresh, generatedAt });
    fresh.save();
    const cached = loadHistory(findResults([dir]), dir, { cache: new RunCache(cacheFile), generatedAt });
    expect(cached).toEqual(withCache);
    expect(loadHistory(findResults([dir]), dir, { generatedAt })).toEqual(withCache);
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).tool).not.toBe('0.0.1');
  });
});

describe('cms-conformance history (the CLI)', () => {
  it('refuses bad input with a usage error: no argument, a missing path, a folder without results', () => {
    const dir = join(root, `case-${++folders}`);
    mkdirSync(dir);
    expect(() => command.parse?.(['--out', dir])).toThrow(/history needs at least one results\.json/);
    expect(() => writeHistory([join(dir, 'nope')], dir)).toThrow(new UsageError(`${join(dir, 'nope')}: no such file or folder`));
    expect(() => writeHistory([dir], dir)).toThrow(new UsageError(`${dir}: no results.json in this folder or below it`));
  });

  it('says in one line which file is not a results.json, and exits 2', async () => {
    const dir = join(root, `case-${++folders}`);
    writeRun(join(dir, 'b1'), { startedAt: at(1), tests: { [PAG01]: 'P' } });
    const other = join(dir, 'package.json');
    writeFileSync(other, '{"name": "x"}');
    const r = await cli('history', dir, other, '--out', join(dir, 'out'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/package\.json: .*tool/);
  }, 30_000);
});
