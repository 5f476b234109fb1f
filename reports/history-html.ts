/**
 * history.html: the history of many runs on one self-contained page (no network: a CSP forbids it). It
 * opens on what changed (regressions, newest first; flips; disagreements between targets), then the
 * interop matrix, then every test against the runs, the unchanged ones folded. The filters (family,
 * newest status, changed only) are radio buttons and a checkbox styled with :has(), as report.html's;
 * the grid shows the newest runs' columns, and its one script pages through older runs from the data
 * the page carries. Every text from a run (labels, URLs, ids) is escaped.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml as esc, pageHead } from './escape-html.ts';
import { CELL_NAMES, type Cell, type History, type HistoryRun, type HistoryTest, type InteropMatrix } from './history.ts';

/** Run columns per page of the grid: wide enough to see a trend, small enough for 1,000 runs of 400 tests to stay light. */
export const PAGE_RUNS = 30;

/** The letter each cell shows (its colour says the same; the legend says it in words). */
const SYMBOL: Record<Cell, string> = { P: '✓', F: '✗', X: 'x', S: 's', N: 'n', '-': '' };

const slug = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_');

/** The runs of one page of the grid, newest first: page 0 is the newest PAGE_RUNS. */
function pageRuns(runs: readonly HistoryRun[], page: number, size: number): HistoryRun[] {
  const end = runs.length - page * size;
  return runs.slice(Math.max(0, end - size), Math.max(0, end)).reverse();
}

/** A run's name, linked to its report.html when one lies beside its results. */
function runLink(r: HistoryRun): string {
  const name = esc(r.label);
  return r.report ? `<a href="${esc(r.report)}">${name}</a>` : name;
}

/** A grid column's head: the run's name (linked), date and target; an interrupted run and another suite are marked. */
function columnHead(r: HistoryRun, newestSuite: string): string {
  const marks = [
    r.interrupted ? `<span class="mark" title="interrupted: ${esc(r.interrupted)}">⚠ interrupted</span>` : '',
    r.suite !== newestSuite
      ? `<span class="mark" title="another suite: never compared with the newest runs">suite ${esc(r.suite)}</span>`
      : '',
  ].join('');
  const title = `${r.label} · ${r.startedAt} · ${r.target} · suite ${r.suite}`;
  return `<th class="run${r.interrupted ? ' interrupted' : ''}" data-run="${r.index}" title="${esc(title)}"><div>${runLink(r)}${marks}</div></th>`;
}

function cellsHtml(t: HistoryTest, runs: readonly HistoryRun[]): string {
  return runs
    .map((r) => {
      const c = (t.cells[r.index] ?? '-') as Cell;
      return `<td class="c ${c === '-' ? 'A' : c}">${SYMBOL[c]}</td>`;
    })
    .join('');
}

function rowHtml(t: HistoryTest, row: number, runs: readonly HistoryRun[]): string {
  return (
    `<tr data-t="${row}" data-family="${slug(t.family)}" data-latest="${t.latest === '-' ? 'A' : t.latest}" data-changed="${t.changed ? 1 : 0}">` +
    `<th class="tid">${esc(t.id)}</th><td><code>${esc(t.requirement)}</code></td>${cellsHtml(t, runs)}</tr>`
  );
}

/** One grid table: the tests given, each against the page's runs, grouped under their family. */
function gridHtml(
  tests: readonly { t: HistoryTest; row: number }[],
  runs: readonly HistoryRun[],
  newestSuite: string,
  grouped: boolean,
): string {
  const head = `<thead><tr><th>test</th><th>requirement</th>${runs.map((r) => columnHead(r, newestSuite)).join('')}</tr></thead>`;
  if (!grouped)
    return `<table class="grid">${head}<tbody>\n${tests.map(({ t, row }) => rowHtml(t, row, runs)).join('\n')}\n</tbody></table>`;
  const byFamily = new Map<string, { t: HistoryTest; row: number }[]>();
  for (const x of tests) (byFamily.get(x.t.family) ?? byFamily.set(x.t.family, []).get(x.t.family))!.push(x);
  const bodies = [...byFamily].map(
    ([family, rows]) =>
      `<tbody data-family="${slug(family)}"><tr class="group"><th colspan="${runs.length + 2}">${esc(family)} ` +
      `<span class="muted">· ${rows.length} tests</span></th></tr>\n${rows.map(({ t, row }) => rowHtml(t, row, runs)).join('\n')}</tbody>`,
  );
  return `<table class="grid">${head}\n${bodies.join('\n')}\n</table>`;
}

function runRef(history: History, index: number): string {
  const r = history.runs[index];
  return r ? `${runLink(r)} <span class="muted">${esc(r.startedAt.slice(0, 16).replace('T', ' '))}</span>` : '';
}

/** The tables of what changed: regressions newest first, then flips, then disagreements between targets. */
function changesHtml(history: History, testRow: (id: string) => HistoryTest | undefined): string {
  const attrs = (id: string) => {
    const t = testRow(id);
    return t ? ` data-family="${slug(t.family)}" data-latest="${t.latest === '-' ? 'A' : t.latest}" data-changed="1"` : '';
  };
  const regressions = history.regressions.map(
    (g) =>
      `<tr${attrs(g.id)}><th class="tid">${esc(g.id)}</th><td>${esc(g.target)}</td><td>${runRef(history, g.firstFailed)}</td>` +
      `<td>${runRef(history, g.lastPassed)}</td><td>${g.expected ? 'expected failure' : 'failed'}</td></tr>`,
  );
  const flips = history.flips.map(
    (f) =>
      `<tr${attrs(f.id)}><th class="tid">${esc(f.id)}</th><td>${esc(f.target)}</td><td class="num">${f.flips}</td>` +
      `<td>${f.runs
        .slice(-5)
        .reverse()
        .map((i) => runRef(history, i))
        .join('<br>')}</td></tr>`,
  );
  const disagreements = history.disagreements.map(
    (d) =>
      `<tr${attrs(d.id)}><th class="tid">${esc(d.id)}</th><td>${d.passed.map(esc).join(', ')}</td><td>${d.failed.map(esc).join(', ')}</td>` +
      `<td>${esc(d.suite)}</td></tr>`,
  );
  const table = (id: string, title: string, head: string, rows: string[], none: string) =>
    `<section id="${id}"><h2>${title} (${rows.length})</h2>\n` +
    (rows.length
      ? `<table class="changes"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`
      : `<p>${none}</p>`) +
    '</section>';
  return [
    table(
      'regressions',
      'Regressions: passed, then failed (newest first)',
      '<th>test</th><th>target</th><th>first failed</th><th>last passed</th><th>now</th>',
      regressions,
      'No test fails now that passed in an earlier run of its target and suite.',
    ),
    table(
      'flips',
      'Flips: passed and failed more than once on one target (flaky?)',
      '<th>test</th><th>target</th><th>changes</th><th>runs that changed it (newest first)</th>',
      flips,
      'No test changed its outcome more than once between runs of one target and suite.',
    ),
    table(
      'disagreements',
      'Disagreements between targets (their newest runs)',
      '<th>test</th><th>passed on</th><th>failed on</th><th>suite</th>',
      disagreements,
      'No two targets of one suite judge a test differently.',
    ),
  ].join('\n');
}

function shareHtml(s: { passed: number; judged: number } | null): string {
  if (!s) return '<td class="share none">—</td>';
  const ratio = s.passed / s.judged;
  const cls = ratio === 1 ? 'all' : ratio === 0 ? 'zero' : 'part';
  return `<td class="share ${cls}">${Math.round(ratio * 100)}% <span class="muted">${s.passed}/${s.judged}</span></td>`;
}

/** One interop matrix: a column per target (its newest run, and its statement's verdict), a row per requirement, most disputed first. */
function matrixHtml(history: History, m: InteropMatrix): string {
  const heads = m.targets.map((t) => {
    const r = history.runs[t.run];
    const verdict = t.statement
      ? t.statement.matches
        ? `<span class="verdict ${t.statement.conforms ? 'ok' : 'bad'}">${t.statement.conforms ? 'conforms' : 'does not conform'}</span>`
        : '<span class="verdict bad" title="its results digest is not of this results.json">statement of other results</span>'
      : '<span class="muted">no statement</span>';
    return `<th>${esc(t.target)}<br>${r ? runRef(history, r.index) : ''}<br>${verdict}</th>`;
  });
  const row = (r: InteropMatrix['rows'][number]) =>
    `<tr data-family="${slug(r.family)}" data-spread="${r.spread.toFixed(2)}"><th><code>${esc(r.requirement)}</code></th>` +
    `${r.shares.map(shareHtml).join('')}</tr>`;
  const disputed = m.rows.filter((r) => r.spread > 0);
  const agreed = m.rows.filter((r) => r.spread === 0);
  const head = `<thead><tr><th>requirement</th>${heads.join('')}</tr></thead>`;
  // The requirements every target meets alike are folded: the matrix opens on where the targets differ.
  return `<h3>Suite ${esc(m.suite)}: ${m.targets.length} targets, ${disputed.length} requirements they disagree on</h3>
<table class="matrix">${head}<tbody>
${disputed.map(row).join('\n')}
</tbody></table>
<details class="agreed"><summary>${agreed.length} requirements with the same share on every target</summary>
<table class="matrix">${head}<tbody>
${agreed.map(row).join('\n')}
</tbody></table></details>`;
}

/** The page's one script: pages the grid through older runs from the data block (cells are letters only; names go in as text). */
const script = `(function(){
var d=JSON.parse(document.getElementById('history-data').textContent),size=d.pageSize,page=0,n=d.runs.length;
var pages=Math.max(1,Math.ceil(n/size)),sym={P:'\\u2713',F:'\\u2717',X:'x',S:'s',N:'n'};
function runs(){var out=[];for(var i=n-1-page*size;i>=0&&out.length<size;i--)out.push(i);return out}
function head(i){var r=d.runs[i],th=document.createElement('th'),div=document.createElement('div'),name=document.createElement(r.report?'a':'span');
th.className='run'+(r.interrupted?' interrupted':'');th.dataset.run=i;th.title=r.label+' \\u00b7 '+r.startedAt+' \\u00b7 '+r.target+' \\u00b7 suite '+r.suite;
name.textContent=r.label;if(r.report)name.href=r.report;div.appendChild(name);
[r.interrupted?'\\u26a0 interrupted':'',r.suite!==d.newestSuite?'suite '+r.suite:''].forEach(function(m){if(!m)return;var s=document.createElement('span');s.className='mark';s.textContent=m;div.appendChild(s)});
th.appendChild(div);return th}
function render(){var cols=runs();
document.querySelectorAll('table.grid').forEach(function(table){var tr=table.querySelector('thead tr');
while(tr.children.length>2)tr.removeChild(tr.lastChild);cols.forEach(function(i){tr.appendChild(head(i))});
table.querySelectorAll('tr.group th').forEach(function(th){th.colSpan=cols.length+2});
table.querySelectorAll('tbody tr[data-t]').forEach(function(row){var cells=d.cells[+row.dataset.t],html='';
while(row.children.length>2)row.removeChild(row.lastChild);
cols.forEach(function(i){var c=cells.charAt(i);if(!sym[c])c='A';html+='<td class="c '+c+'">'+(sym[c]||'')+'</td>'});
row.insertAdjacentHTML('beforeend',html)})});
document.getElementById('page-of').textContent='runs '+(n-page*size)+' to '+(n-page*size-cols.length+1)+' of '+n+' (page '+(page+1)+' of '+pages+')';
document.getElementById('newer').disabled=page===0;document.getElementById('older').disabled=page>=pages-1}
document.getElementById('newer').addEventListener('click',function(){if(page>0){page--;render()}});
document.getElementById('older').addEventListener('click',function(){if(page<pages-1){page++;render()}});
document.getElementById('pager').hidden=false;render()})();`;

const css = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#5b636e;--line:#d6dae0;--soft:#f3f5f7;--pass:#1a7f37;--fail:#c62828;--skip:#6b7280;--xfail:#9a6700;--warn:#b35900}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--bg:#14171a;--muted:#a0a7b0;--line:#3a4048;--soft:#1f2328;--pass:#4cc46a;--fail:#ff6b6b;--skip:#9aa1ab;--xfail:#e0b341;--warn:#ff9f43}}
*{box-sizing:border-box}
body{margin:0 auto;padding:1rem 1.5rem 3rem;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;margin:2rem 0 .6rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}h3{font-size:1rem}
code,.tid{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
.muted{color:var(--muted)}.num{text-align:right}
.warn{padding:.6rem 1rem;border-radius:6px;border:2px solid var(--xfail);background:color-mix(in srgb,var(--xfail) 15%,transparent)}
.counts{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;padding:0;margin:.6rem 0}
.counts li{border:1px solid var(--line);border-radius:6px;padding:.3rem .8rem;min-width:6.5rem}.counts b{display:block;font-size:1.3rem}
table{border-collapse:collapse;margin:.4rem 0}th,td{text-align:left;vertical-align:top;padding:.2rem .45rem;border-bottom:1px solid var(--line)}
table.changes,table.matrix,table.runs{width:100%}tbody th{font-weight:normal}tr.group th{background:var(--soft);font-weight:600}
.filters{display:flex;flex-wrap:wrap;gap:1rem;position:sticky;top:0;background:var(--bg);padding:.5rem 0;border-bottom:1px solid var(--line);z-index:2}
.filters fieldset{border:0;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.25rem;align-items:center}.filters legend{float:left;margin-right:.4rem;color:var(--muted)}
.filters input{position:absolute;opacity:0;width:1px;height:1px}
.filters label{border:1px solid var(--line);border-radius:4px;padding:.05rem .5rem;cursor:pointer;font-size:.85rem}
.filters input:checked+label{background:var(--fg);color:var(--bg)}.filters input:focus-visible+label{outline:2px solid var(--xfail)}
.gridwrap{overflow-x:auto}
table.grid th.run{vertical-align:bottom;padding:.2rem .1rem;min-width:1.6rem}
table.grid th.run div{writing-mode:vertical-rl;transform:rotate(180deg);max-height:11rem;overflow:hidden;white-space:nowrap;font-size:.8rem}
table.grid th.run.interrupted{background:color-mix(in srgb,var(--xfail) 20%,transparent)}
.mark{display:block;color:var(--xfail);font-weight:600}
td.c{text-align:center;padding:.1rem;font-weight:700;min-width:1.6rem}
span.c{display:inline-block;min-width:1.4rem;text-align:center;font-weight:700}
.c.P{color:var(--pass)}.c.F{color:#fff;background:var(--fail)}.c.X{color:var(--xfail)}.c.S{color:var(--skip)}.c.N{color:var(--warn)}.c.A{background:repeating-linear-gradient(45deg,transparent 0 3px,var(--soft) 3px 6px)}
td.share.all{color:var(--pass)}td.share.zero{color:var(--fail);font-weight:600}td.share.part{color:var(--xfail);font-weight:600}
.verdict.ok{color:var(--pass);font-weight:600}.verdict.bad{color:var(--fail);font-weight:600}
#pager button{font:inherit}
details.rest>summary,details.agreed>summary{cursor:pointer;font-weight:600;margin:.6rem 0}
@media print{.filters,#pager{display:none}}
`;

/** The statuses the filter offers, keyed by a test's newest outcome ('A' for absent: '-' is no CSS identifier). */
const STATUS_FILTERS: [string, string][] = [
  ['F', 'failed'],
  ['X', 'expected failure'],
  ['P', 'passed'],
  ['N', 'nothing to judge'],
  ['S', 'skipped'],
  ['A', 'absent'],
];

function filterCss(families: readonly string[]): string {
  const rules = STATUS_FILTERS.map(([k]) => `body:has(#status-${k}:checked) tr[data-latest]:not([data-latest="${k}"]){display:none}`);
  for (const f of families) rules.push(`body:has(#family-${slug(f)}:checked) [data-family]:not([data-family="${slug(f)}"]){display:none}`);
  rules.push('body:has(#changed-only:checked) tr[data-changed="0"],body:has(#changed-only:checked) details.rest{display:none}');
  return rules.join('\n');
}

function filtersHtml(families: readonly string[]): string {
  const radio = (group: string, value: string, label: string, checked = false) =>
    `<input type="radio" name="${group}" id="${group}-${value}" value="${value}"${checked ? ' checked' : ''}>` +
    `<label for="${group}-${value}">${esc(label)}</label>`;
  return `<nav class="filters" aria-label="filters">
<fieldset><legend>Newest status</legend>${radio('status', 'all', 'all', true)}${STATUS_FILTERS.map(([k, l]) => radio('status', k, l)).join('')}</fieldset>
<fieldset><legend>Family</legend>${radio('family', 'all', 'all', true)}${families.map((f) => radio('family', slug(f), f)).join('')}</fieldset>
<fieldset><input type="checkbox" id="changed-only"><label for="changed-only">changed only</label></fieldset>
</nav>`;
}

/** The runs, newest first: name, date, target, suite, counts, marks. */
function runsTableHtml(history: History): string {
  const rows = [...history.runs].reverse().map((r) => {
    const c = r.counts;
    const marks = [r.interrupted ? `⚠ interrupted (${esc(r.interrupted)})` : '', r.runErrors ? `${r.runErrors} run errors` : '']
      .filter(Boolean)
      .join(' ');
    return (
      `<tr data-run="${r.index}"><td>${runLink(r)}</td><td>${esc(r.startedAt)}</td><td>${esc(r.target)}</td><td>${esc(r.suite)}</td>` +
      `<td class="num">${c.P}</td><td class="num">${c.F}</td><td class="num">${c.X}</td><td class="num">${c.S}</td><td class="num">${c.N}</td>` +
      `<td>${esc(r.verdict)}${marks ? ` <b class="mark">${marks}</b>` : ''}</td></tr>`
    );
  });
  return `<table class="runs"><thead><tr><th>run</th><th>started</th><th>target</th><th>suite</th><th>passed</th><th>failed</th>
<th>expected failures</th><th>skipped</th><th>nothing to judge</th><th>verdict</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

/** Renders history.html. */
export function renderHistoryHtml(history: History, pageSize = PAGE_RUNS): string {
  const families = [...new Set(history.tests.map((t) => t.family))];
  const rowOf = new Map(history.tests.map((t, i) => [t.id, i]));
  const testOf = (id: string) => history.tests[rowOf.get(id) ?? -1];
  const newestSuite = history.runs.at(-1)?.suite ?? '';
  const shown = pageRuns(history.runs, 0, pageSize);
  // The grid's changed rows in the order of what changed: regressions (newest first), flips, then disagreements.
  const order = [...new Set([...history.regressions, ...history.flips, ...history.disagreements].map((c) => c.id))];
  const changed = order.map((id) => ({ t: testOf(id)!, row: rowOf.get(id)! }));
  const rest = history.tests.map((t, row) => ({ t, row })).filter(({ t }) => !t.changed);
  const data = {
    pageSize,
    newestSuite,
    runs: history.runs.map((r) => ({
      label: r.label,
      startedAt: r.startedAt,
      target: r.target,
      suite: r.suite,
      ...(r.report ? { report: r.report } : {}),
      ...(r.interrupted ? { interrupted: r.interrupted } : {}),
    })),
    cells: history.tests.map((t) => t.cells),
  };
  // Inside <script>, "<" is escaped so that no text of a run can close the block.
  const dataJson = JSON.stringify(data).replace(/</g, '\\u003c');
  const scriptHash = createHash('sha256').update(script).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const targets = new Set(history.runs.map((r) => r.target));
  const interrupted = history.runs.filter((r) => r.interrupted).length;
  const warnings = [
    history.suites.length > 1
      ? `These runs are of ${history.suites.length} suites (${history.suites.map(esc).join('; ')}): runs are compared only with runs of their own suite, ` +
        'and a grid column of another suite than the newest run is marked.'
      : '',
    interrupted
      ? `${interrupted} run${interrupted === 1 ? ' was' : 's were'} interrupted: ${interrupted === 1 ? 'its' : 'their'} missing tests are absent, not passed.`
      : '',
  ].filter(Boolean);
  const counts: [string, number, string][] = [
    ['runs', history.runs.length, 'runs'],
    ['targets', targets.size, 'targets'],
    ['tests', history.tests.length, 'tests'],
    ['regressions', history.regressions.length, 'regressions'],
    ['flips', history.flips.length, 'flaky tests'],
    ['disagreements', history.disagreements.length, 'disagreements'],
  ];
  const legend = (Object.keys(CELL_NAMES) as Cell[])
    .map((c) => `<span class="c ${c === '-' ? 'A' : c}">${SYMBOL[c]}</span> ${esc(CELL_NAMES[c])}`)
    .join(' ');
  return `${pageHead(`cms-conformance history: ${history.runs.length} runs, ${history.regressions.length} regressions`, csp, css + filterCss(families))}
<header>
<h1>cms-conformance history</h1>
${warnings.map((w) => `<p class="warn">${w}</p>`).join('\n')}
<ul class="counts" id="counts">${counts.map(([k, n, l]) => `<li data-count="${k}"><b>${n}</b>${esc(l)}</li>`).join('')}</ul>
</header>
${filtersHtml(families)}
<main>
${changesHtml(history, testOf)}
${
  history.matrices.length
    ? `<section id="interop"><h2>Interop matrix: each target's newest run, each requirement's share of tests passed</h2>\n${history.matrices.map((m) => matrixHtml(history, m)).join('\n')}</section>`
    : ''
}
<section id="grid"><h2>Tests against runs</h2>
<p class="legend-line">${legend}</p>
<p id="pager" hidden><button type="button" id="newer">◀ newer runs</button> <span id="page-of"></span> <button type="button" id="older">older runs ▶</button></p>
<p class="muted">Newest run first. ${history.runs.length > pageSize ? `The ${pageSize} newest runs are shown; the buttons page through the others (history.json and history.md hold them all).` : ''}</p>
<div class="gridwrap">
${changed.length ? `<h3>Changed (${changed.length})</h3>\n${gridHtml(changed, shown, newestSuite, false)}` : '<p>No test changed.</p>'}
<details class="rest"${changed.length ? '' : ' open'}><summary>The other ${rest.length} tests, unchanged</summary>
${gridHtml(rest, shown, newestSuite, true)}
</details>
</div>
</section>
<section id="runs"><h2>Runs (${history.runs.length})</h2>
${runsTableHtml(history)}
</section>
</main>
<footer><p class="muted">Generated ${esc(history.generatedAt)} by cms-conformance history. history.json holds the same data.</p></footer>
<script type="application/json" id="history-data">${dataJson}</script>
<script>${script}</script>
</body>
</html>
`;
}

/** Writes history.html into the output folder and returns its path. */
export function writeHistoryHtml(outDir: string, history: History): string {
  const path = join(outDir, 'history.html');
  writeFileSync(path, renderHistoryHtml(history));
  return path;
}
