/** The mutation score (scripts/mutation/score.ts): stable keys, classified survivors left out, the rest listed. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applied,
  compareReports,
  enclosing,
  keyed,
  killedIn,
  loadClassified,
  mergeReports,
  rekey,
  score,
  silentTests,
  survivorsDir,
  survivorsFile,
  type ReportMutant,
} from '../../scripts/mutation/score.ts';

const source = ['export function f(a: number) {', '  return a > 0 ? a : -a;', '}', 'export const g = (a: number) => a > 0;'].join('\n');
const at = (line: number, column: number, length: number) => ({ start: { line, column }, end: { line, column: column + length } });
const report = (shift = 0) => ({
  files: {
    'server/x.ts': {
      source: '\n'.repeat(shift) + source,
      mutants: [
        { id: '1', mutatorName: 'EqualityOperator', replacement: 'a >= 0', status: 'Survived' as const, location: at(2 + shift, 10, 5) },
        { id: '2', mutatorName: 'EqualityOperator', replacement: 'a >= 0', status: 'Survived' as const, location: at(4 + shift, 33, 5) },
        { id: '3', mutatorName: 'UnaryOperator', replacement: '+a', status: 'Killed' as const, location: at(2 + shift, 22, 2) },
        {
          id: '4',
          mutatorName: 'ConditionalExpression',
          replacement: 'true',
          status: 'NoCoverage' as const,
          location: at(2 + shift, 10, 5),
        },
        {
          id: '5',
          mutatorName: 'StringLiteral',
          replacement: '""',
          status: 'Ignored' as const,
          location: at(1 + shift, 1, 6),
          statusReason: 'refusal detail',
        },
      ],
    },
  },
});

describe('the mutation score', () => {
  it('keys a mutant by what it replaces, not where, and tells repeated text apart by occurrence', () => {
    const keys = keyed(report()).map((k) => k.key);
    expect(keys).toContain('server/x.ts|EqualityOperator|a >= 0|a > 0');
    expect(keys).toContain('server/x.ts|EqualityOperator|a >= 0|a > 0#2');
    expect(keyed(report(3)).map((k) => k.key)).toEqual(keys);
  });

  it('applies a mutant where its location says, on one line or across several (sample.ts runs each so)', () => {
    const r = report();
    const [m1, m2, m3] = r.files['server/x.ts'].mutants;
    expect(applied(source, m1!).split('\n')[1]).toBe('  return a >= 0 ? a : -a;');
    expect(applied(source, m2!).split('\n')[3]).toBe('export const g = (a: number) => a >= 0;');
    expect(applied(source, m3!).split('\n')[1]).toBe('  return a > 0 ? a : +a;');
    const block = { ...m1!, replacement: '{}', location: { start: { line: 1, column: 30 }, end: { line: 3, column: 2 } } };
    expect(applied(source, block).split('\n')[0]).toBe('export function f(a: number) {}');
    expect(applied(source, block).split('\n')[1]).toBe('export const g = (a: number) => a > 0;');
  });

  it('scores killed over killed plus unexplained survivors, a survivor reached by no test among them', () => {
    const s = score(report(), [{ key: 'server/x.ts|EqualityOperator|a >= 0|a > 0#2', class: 'equivalent', reason: 'g is never called' }]);
    expect([s.killed, s.survived, s.noCoverage, s.ignored, s.equivalent, s.beyondContract]).toEqual([1, 2, 1, 1, 1, 0]);
    expect(s.ignoredBy).toEqual({ 'refusal detail': 1 });
    expect(s.byFile).toEqual({ 'server/x.ts': { killed: 1, classified: 1, unexplained: 2, ignored: 1, score: 33.3 } });
    expect(s.unexplained.map((u) => u.place)).toEqual(['server/x.ts:2:10', 'server/x.ts:2:10']);
    expect(enclosing('const a = 1;\nexport async function listFolders(req) {\n  if (a > 0) go();\n}', 3)).toBe('listFolders');
    expect(enclosing('  return a > 0;', 1)).toBe('(top)');
    expect(s.score).toBe(33.3);
    expect(score(report(), [{ key: 'server/x.ts|gone|x|y', class: 'beyond-contract', reason: '', section: '4.3' }]).stale).toEqual([
      'server/x.ts|gone|x|y',
    ]);
  });

  it("reads each mutant's tests that had nothing to judge, each once, and nothing when no file was written", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cms-silent-')), 'silent.jsonl');
    expect(silentTests(file)).toEqual(new Map());
    const line = (mutant: string, test: string) => `${JSON.stringify({ mutant, test })}\n`;
    writeFileSync(file, line('7', 'USE-01 a') + line('7', 'USE-02 b') + line('7', 'USE-01 a') + line('9', 'USE-01 a'));
    expect(silentTests(file)).toEqual(
      new Map([
        ['7', ['USE-01 a', 'USE-02 b']],
        ['9', ['USE-01 a']],
      ]),
    );
  });

  it('compares two reports mutant by mutant: the kills lost and gained, whatever lines moved', () => {
    const newer = report(2);
    const [m1, , m3] = newer.files['server/x.ts'].mutants;
    Object.assign(m1!, { status: 'Timeout' });
    Object.assign(m3!, { status: 'Survived' });
    expect(compareReports(report(), newer)).toEqual([
      {
        file: 'server/x.ts',
        lost: ['server/x.ts|UnaryOperator|+a|-a (Survived)'],
        gained: ['server/x.ts|EqualityOperator|a >= 0|a > 0'],
      },
    ]);
  });

  it("counts another data set's kills by place, from a run narrowed to the default run's survivors, and none from another source", () => {
    // The narrowed run has only the second `a > 0` mutant: its key there would be the first occurrence's.
    const whole = report().files['server/x.ts'];
    const file = { source: whole.source, mutants: [{ ...whole.mutants[1]!, id: '1', status: 'Killed' as ReportMutant['status'] }] };
    const narrowed = { files: { 'server/x.ts': file } };
    expect(keyed(narrowed)[0]!.key).toBe('server/x.ts|EqualityOperator|a >= 0|a > 0');
    expect([...killedIn(report(), narrowed).keys]).toEqual(['server/x.ts|EqualityOperator|a >= 0|a > 0#2']);
    const edited = { files: { 'server/x.ts': { ...file, source: `${source}\n` } } };
    expect(killedIn(report(), edited)).toEqual({ keys: new Set(), differing: ['server/x.ts'] });
  });

  it("counts a survivor the other data set killed as killed, and keeps its classification (the default data's survivor)", () => {
    const key = 'server/x.ts|EqualityOperator|a >= 0|a > 0#2';
    const gap = { key, class: 'gap' as const, reason: 'only data with g called shows it', data: 'g called' };
    const alone = score(report(), [gap]);
    const both = score(report(), [gap], new Set([key]));
    expect(both.killed).toBe(alone.killed + 1);
    expect(both.killedElsewhere).toBe(1);
    expect(both.gaps).toEqual([]);
    expect(both.stale).toEqual([]);
  });

  it('warns when a classified key now names a mutant on another line than the one it was written for', () => {
    const key = 'server/x.ts|EqualityOperator|a >= 0|a > 0#2';
    const ok = score(report(), [{ key, class: 'equivalent', reason: 'g is never called', line: 'export const g = (a: number) => a > 0;' }]);
    expect(ok.moved).toEqual([]);
    const moved = score(report(), [{ key, class: 'equivalent', reason: 'g is never called', line: 'return a > 0 ? a : -a;' }]);
    expect(moved.moved).toEqual([{ key, was: 'return a > 0 ? a : -a;', now: 'export const g = (a: number) => a > 0;' }]);
  });

  it('rekeys a classification an edit above moved to its own survivor again, and leaves one still in place', () => {
    // One more `a > 0` above both: each survivor's occurrence number grows by one.
    const edited = report();
    const file = edited.files['server/x.ts'];
    file.source = `const h = (a: number) => a > 0;\n${source}`;
    for (const m of file.mutants)
      m.location = at(m.location.start.line + 1, m.location.start.column, m.location.end.column - m.location.start.column);
    file.mutants.push({ id: '6', mutatorName: 'EqualityOperator', replacement: 'a >= 0', status: 'Killed', location: at(1, 26, 5) });
    const g = {
      key: 'server/x.ts|EqualityOperator|a >= 0|a > 0#2',
      class: 'equivalent' as const,
      reason: 'g',
      line: 'export const g = (a: number) => a > 0;',
    };
    const f = {
      key: 'server/x.ts|EqualityOperator|a >= 0|a > 0',
      class: 'equivalent' as const,
      reason: 'f',
      line: 'return a > 0 ? a : -a;',
    };
    expect(rekey(edited, [g, f])).toEqual(['server/x.ts|EqualityOperator|a >= 0|a > 0#3', 'server/x.ts|EqualityOperator|a >= 0|a > 0#2']);
    const after = score(edited, [
      { ...g, key: 'server/x.ts|EqualityOperator|a >= 0|a > 0#3' },
      { ...f, key: 'server/x.ts|EqualityOperator|a >= 0|a > 0#2' },
    ]);
    // Mutant 4 (reached by no test) was never classified.
    expect(after.unexplained.map((u) => u.id)).toEqual(['4']);
    expect(after.moved).toEqual([]);
    expect(rekey(report(), [g, f])).toEqual([g.key, f.key]);
    // A classification whose line is gone gives its key up to the one whose survivor now holds it.
    const gone = { ...f, key: 'server/x.ts|EqualityOperator|a >= 0|a > 0#3', line: 'return b > 0;' };
    expect(rekey(edited, [gone, g])).toEqual([null, 'server/x.ts|EqualityOperator|a >= 0|a > 0#3']);
  });

  it('reads the classifications of every committed file, each in the file its source names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-survivors-'));
    const entry = (key: string) => ({ key, class: 'equivalent', reason: 'r' });
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ survivors: [entry('server/b.ts|x|y|z')] }));
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ survivors: [entry('server/a.ts|x|y|z')] }));
    writeFileSync(join(dir, 'README.md'), 'not read');
    expect(loadClassified(dir).map((c) => c.key)).toEqual(['server/a.ts|x|y|z', 'server/b.ts|x|y|z']);
    expect(survivorsFile('server/handlers/pages.ts')).toBe(join(survivorsDir, 'pages.json'));
    expect(survivorsFile('server/state.ts')).toBe(join(survivorsDir, 'state.json'));
    // Every committed entry says what it is and why: a class, a reason, and for beyond-contract the silent section.
    for (const c of loadClassified()) {
      expect(['equivalent', 'beyond-contract', 'gap'], c.key).toContain(c.class);
      expect(c.reason.length, c.key).toBeGreaterThan(20);
      if (c.class === 'beyond-contract') expect(c.section, c.key).toBeTruthy();
    }
    // Every committed entry sits in the file of its own source, where the next person looks for it.
    for (const f of readdirSync(survivorsDir).filter((n) => n.endsWith('.json'))) {
      const { survivors } = JSON.parse(readFileSync(join(survivorsDir, f), 'utf8')) as { survivors: { key: string }[] };
      for (const { key } of survivors) expect(survivorsFile(key.slice(0, key.indexOf('|'))), key).toBe(join(survivorsDir, f));
    }
  });

  it('completes a run narrowed to some files with the other files of the report it replaces, each with its date', () => {
    const older = { files: { ...report().files, 'server/y.ts': { source: 'x', mutants: [report().files['server/x.ts'].mutants[0]!] } } };
    const first = mergeReports(older, { files: { 'server/y.ts': { source: 'y', mutants: [] } } }, '2026-11-27T06:00:00Z');
    expect(Object.keys(first.report.files).sort()).toEqual(['server/x.ts', 'server/y.ts']);
    expect(first.report.files['server/y.ts']!.source).toBe('y');
    expect(first.from).toEqual({ 'server/x.ts': 'an earlier run' });
    // Ids are unique only within a run: a kept file's are made distinct, once.
    expect(first.report.files['server/x.ts']!.mutants.map((m) => m.id)).toEqual([
      '1@an earlier run',
      '2@an earlier run',
      '3@an earlier run',
      '4@an earlier run',
      '5@an earlier run',
    ]);
    const second = mergeReports(first.report, { files: { 'server/x.ts': report().files['server/x.ts'] } }, '2026-11-27T07:00:00Z');
    expect(second.from).toEqual({ 'server/y.ts': '2026-11-27T06:00:00Z' });
    expect(second.report.runAt).toEqual({ 'server/x.ts': '2026-11-27T07:00:00Z', 'server/y.ts': '2026-11-27T06:00:00Z' });
    expect(score(second.report, []).killed).toBe(1);
    // An incremental run narrowed to y also reports x, with results of when its incremental file was written: x stays.
    const third = mergeReports(
      second.report,
      { files: { 'server/x.ts': { source: 'old', mutants: [] }, 'server/y.ts': { source: 'y2', mutants: [] } } },
      '2026-11-27T08:00:00Z',
      (file) => file === 'server/y.ts',
    );
    expect(third.report.files['server/x.ts']!.source).toBe(second.report.files['server/x.ts']!.source);
    expect(third.report.runAt).toEqual({ 'server/x.ts': '2026-11-27T07:00:00Z', 'server/y.ts': '2026-11-27T08:00:00Z' });
  });

  it('keeps the other mutants of a file run on some lines only, the rerun ones replaced at their place', () => {
    const whole = report().files['server/x.ts'];
    const rerun = { ...whole.mutants[1]!, id: '1', status: 'Killed' as ReportMutant['status'] };
    const merged = mergeReports(
      report(),
      { files: { 'server/x.ts': { source: whole.source, mutants: [rerun] } } },
      '2026-12-06T20:00:00Z',
      () => true,
      new Set(['server/x.ts']),
    );
    const mutants = merged.report.files['server/x.ts']!.mutants;
    expect(mutants).toHaveLength(whole.mutants.length);
    expect(
      mutants
        .filter((m) => m.status === 'Killed')
        .map((m) => m.id)
        .sort(),
    ).toEqual(['1', '3@an earlier run']);
    expect(merged.from).toEqual({ 'server/x.ts': 'an earlier run (but for the lines run now)' });
    // Another source: the lines run now are all there is of the file (run.ts refuses such a run before it starts).
    const other = mergeReports(
      report(),
      { files: { 'server/x.ts': { source: 'new', mutants: [rerun] } } },
      'now',
      () => true,
      new Set(['server/x.ts']),
    );
    expect(other.report.files['server/x.ts']!.mutants).toHaveLength(1);
  });
});
