/**
 * history.md: what changed across many runs, fit for a pull-request comment or a CI summary: the runs,
 * the regressions (newest first), the flips, the disagreements between targets and the interop
 * matrix, each list cut at a length a comment takes (history.json holds everything). Texts of runs are
 * made inert (reports/markdown.ts mdText).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mdText } from './markdown.ts';
import { changeCounts, runName, type History } from './history.ts';

/** Rows of each list shown in full; the rest are counted. */
const MAX_ROWS = 40;

function capped<T>(items: readonly T[], row: (item: T) => string): string[] {
  const rows = items.slice(0, MAX_ROWS).map(row);
  if (items.length > MAX_ROWS) rows.push(`\n… and ${items.length - MAX_ROWS} more (history.json, history.html)`);
  return rows;
}

/** Renders history.md. */
export function renderHistoryMarkdown(history: History): string {
  const run = (i: number) => {
    const r = history.runs[i];
    return r ? mdText(runName(r), 80) : '?';
  };
  const interrupted = history.runs.filter((r) => r.interrupted).length;
  const lines = [
    '# cms-conformance history',
    '',
    `${history.runs.length} runs of ${new Set(history.runs.map((r) => r.target)).size} targets, ${history.tests.length} tests: ` +
      `${changeCounts(history)}.`,
  ];
  if (history.suites.length > 1)
    lines.push(
      '',
      `**${history.suites.length} suites** (${history.suites.map((s) => mdText(s, 60)).join('; ')}): runs are compared only with runs of their own suite.`,
    );
  if (interrupted)
    lines.push('', `**${interrupted} interrupted run${interrupted === 1 ? '' : 's'}**: missing tests are absent, not passed.`);
  lines.push('', '## Regressions (newest first)', '');
  if (history.regressions.length) {
    lines.push('| test | target | first failed | last passed |', '|---|---|---|---|');
    lines.push(
      ...capped(
        history.regressions,
        (g) =>
          `| ${mdText(g.id, 120)} | ${mdText(g.target, 60)} | ${run(g.firstFailed)}${g.expected ? ' (expected)' : ''} | ${run(g.lastPassed)} |`,
      ),
    );
  } else lines.push('None.');
  lines.push('', '## Flips (flaky?)', '');
  if (history.flips.length) {
    lines.push('| test | target | changes | last change |', '|---|---|---|---|');
    lines.push(
      ...capped(history.flips, (f) => `| ${mdText(f.id, 120)} | ${mdText(f.target, 60)} | ${f.flips} | ${run(f.runs.at(-1) ?? -1)} |`),
    );
  } else lines.push('None.');
  lines.push('', '## Disagreements between targets', '');
  if (history.disagreements.length) {
    lines.push('| test | passed on | failed on |', '|---|---|---|');
    lines.push(
      ...capped(
        history.disagreements,
        (d) =>
          `| ${mdText(d.id, 120)} | ${d.passed.map((t) => mdText(t, 60)).join(', ')} | ${d.failed.map((t) => mdText(t, 60)).join(', ')} |`,
      ),
    );
  } else lines.push('None.');
  for (const m of history.matrices) {
    lines.push('', `## Interop matrix, suite ${mdText(m.suite, 60)}`, '');
    const verdicts = m.targets.map((t) =>
      t.statement
        ? t.statement.matches
          ? t.statement.conforms
            ? 'conforms'
            : 'does not conform'
          : 'statement of other results'
        : 'no statement',
    );
    lines.push(`| requirement | ${m.targets.map((t, i) => `${mdText(t.target, 60)} (${run(t.run)}; ${verdicts[i]})`).join(' | ')} |`);
    lines.push(`|---|${m.targets.map(() => '---').join('|')}|`);
    lines.push(
      ...capped(
        m.rows.filter((r) => r.spread > 0),
        (r) => `| ${mdText(r.requirement, 60)} | ${r.shares.map((s) => (s ? `${s.passed}/${s.judged}` : '—')).join(' | ')} |`,
      ),
    );
    const agreed = m.rows.filter((r) => r.spread === 0).length;
    lines.push('', `${agreed} requirements with the same share on every target are left out.`);
  }
  lines.push(
    '',
    '## Runs (newest first)',
    '',
    '| run | started | target | suite | passed | failed | skipped | verdict |',
    '|---|---|---|---|---|---|---|---|',
  );
  lines.push(
    ...capped([...history.runs].reverse(), (r) => {
      const mark = r.interrupted ? ' **interrupted**' : '';
      return (
        `| ${mdText(r.label, 80)} | ${r.startedAt} | ${mdText(r.target, 60)} | ${mdText(r.suite, 40)} | ${r.counts.P} | ` +
        `${r.counts.F + r.counts.X} | ${r.counts.S} | ${mdText(r.verdict, 120)}${mark} |`
      );
    }),
  );
  return `${lines.join('\n')}\n`;
}

/** Writes history.md into the output folder and returns its path. */
export function writeHistoryMarkdown(outDir: string, history: History): string {
  const path = join(outDir, 'history.md');
  writeFileSync(path, renderHistoryMarkdown(history));
  return path;
}
