/**
 * report.html: one self-contained page a person opens in a browser. No network (a CSP forbids it),
 * inline CSS, no JavaScript needed to read it: failure details are <details>, the filters are
 * radio buttons styled with :has(). Every text from a run is escaped: findings quote server bodies.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '../schemas/operations.ts';
import { requirements, type Requirement } from '../schemas/requirements.ts';
import { expectationCounts, isExcusedFailure, isUnexpectedFailure, verdictOf } from './expectations.ts';
import { exchangeTotals, hadNothingToJudge, interruptionText } from './results.ts';
import { causesOf, extentOf, touchedTests, type Cause } from './causes.ts';
import { oneLine } from './markdown.ts';
import { parameterSectionHtml } from './parameters.ts';
import { escapeHtml as esc, pageHead } from './escape-html.ts';
import type { Exchange, RecordedBody, ReportedFinding, Results, Severity, TestResult } from '../schemas/results.ts';

/** Bodies longer than this are cut in the page (results.json keeps what was recorded). */
const MAX_BODY_CHARS = 20_000;
const MAX_HEADER_CHARS = 500;

/** The contract's section titles, so a matrix row says where its requirement comes from. */
const sectionTitles: Record<string, string> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '2.1': 'Conventions',
  '2.2': 'Common item fields',
  '2.3': 'Folder record',
  '2.4': 'File record',
  '2.5': 'Node / channel record',
  '2.6': 'Page record',
  '2.7': 'Template record',
  '2.8': 'Tag, construct and property',
  '2.9': 'Other shared shapes',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '4.1': 'Shared parameter groups',
  '4.2': 'Folder operations',
  '4.3': 'File operations',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

/** A family name as it may appear in an id, an attribute selector and a CSS rule. */
function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters not shown)` : text;
}

/** Catalogue statements quote names in backticks; shown as code. */
function statement(text: string): string {
  return esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

type RowStatus = 'passed' | 'failed' | 'unjudged' | 'skipped' | 'not-tested';

/**
 * A requirement's or operation's status over its tests: failed if any failed, passed if any passed
 * having judged something, unjudged if every test that passed had none of the target's data to judge.
 */
function aggregate(tests: readonly TestResult[]): RowStatus {
  if (!tests.length) return 'not-tested';
  if (tests.some((t) => t.status === 'failed')) return 'failed';
  if (tests.some((t) => t.status === 'passed' && !hadNothingToJudge(t))) return 'passed';
  return tests.some((t) => t.status === 'passed') ? 'unjudged' : 'skipped';
}

const badgeText: Record<RowStatus, string> = {
  passed: 'pass',
  failed: 'FAIL',
  unjudged: 'nothing to judge',
  skipped: 'skip',
  'not-tested': 'not tested',
};

function badge(status: RowStatus, tests: readonly TestResult[]): string {
  const failed = tests.filter((t) => t.status === 'failed');
  if (failed.length && failed.every(isExcusedFailure))
    return `<span class="badge xfail">FAIL (${failed.every((t) => t.outcome === 'flaky') ? 'flaky' : 'expected'})</span>`;
  const expired = status === 'failed' && failed.some((t) => t.outcome === 'expired') ? ' (expired)' : '';
  return `<span class="badge ${status}">${badgeText[status]}${expired}</span>`;
}

function testCounts(tests: readonly TestResult[]): string {
  const parts = (['passed', 'failed', 'skipped'] as const)
    .map((s) => [s, tests.filter((t) => t.status === s).length] as const)
    .filter(([, n]) => n);
  return parts.map(([s, n]) => `${n} ${s}`).join(' · ');
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function bodyText(body: RecordedBody): string {
  switch (body.kind) {
    case 'json':
      return prettyJson(body.text);
    case 'text':
      return body.text;
    case 'binary':
      return `(${body.size} bytes of ${body.contentType}, sha256 ${body.sha256})`;
    case 'multipart':
      return [
        ...Object.entries(body.fields).map(([k, v]) => `field ${k} = ${v}`),
        ...body.files.map(
          (f) =>
            `file part ${f.name}${f.filename !== undefined ? ` (filename ${f.filename})` : ''}: ` +
            `${f.size} bytes of ${f.contentType}, sha256 ${f.sha256}`,
        ),
      ].join('\n');
  }
}

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v.length > MAX_HEADER_CHARS ? `${v.slice(0, MAX_HEADER_CHARS)}…` : v}`)
    .join('\n');
}

function exchangeHtml(ex: Exchange): string {
  const req = ex.request;
  const headers = headerLines(req.headers);
  const request =
    `${req.method} ${req.url}${headers ? `\n${headers}` : ''}` + `${req.body ? `\n\n${cut(bodyText(req.body), MAX_BODY_CHARS)}` : ''}`;
  let response: string;
  if (ex.response) {
    const r = ex.response;
    const note = r.truncated ? '\n(the body was cut when it was recorded)' : '';
    response =
      `HTTP ${r.status} (${seconds(ex.durationMs)})\n${headerLines(r.headers)}\n\n` + `${cut(prettyJson(r.text), MAX_BODY_CHARS)}${note}`;
  } else {
    response = `no response: ${ex.error?.code ?? 'error'}: ${ex.error?.message ?? ''} (after ${seconds(ex.durationMs)})`;
  }
  return (
    `<div class="exchange"><div><h5>Request</h5><pre>${esc(request)}</pre></div>` +
    `<div><h5>Response</h5><pre>${esc(response)}</pre></div></div>`
  );
}

function findingHtml(f: ReportedFinding): string {
  const parts = [
    `<div class="finding ${f.severity}">`,
    `<p class="what"><span class="badge ${f.severity === 'error' ? 'failed' : f.severity}">${f.severity}</span> ` +
      `<b>${esc(f.requirement)}</b> <code>${esc(f.check)}</code></p>`,
    `<p class="msg">${esc(f.message)}</p>`,
  ];
  if (f.counterexample)
    parts.push(
      `<p class="label">counterexample${f.path ? ` (fast-check path ${esc(f.path)})` : ''}</p>` +
        `<pre>${esc(cut(f.counterexample, MAX_BODY_CHARS))}</pre>`,
    );
  if (f.exchange) parts.push(exchangeHtml(f.exchange));
  parts.push(`<p class="label">replay</p><pre class="cmd">${esc(f.replay)}</pre>`);
  if (f.curl)
    parts.push(
      `<p class="label">curl (set the CMS_AUTH_… variables to the target's credentials)</p>` + `<pre class="cmd">${esc(f.curl)}</pre>`,
    );
  parts.push('</div>');
  return parts.join('\n');
}

/** Errors first, then warnings, then notes: the order a reader of a test's findings needs them in. */
const severityRank: Record<Severity, number> = { error: 0, warning: 1, note: 2 };

function firstLine(t: TestResult): string {
  const f = [...t.findings].sort((a, b) => severityRank[a.severity] - severityRank[b.severity])[0];
  const text = f ? `${f.check}: ${f.message}` : (t.reason ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

function testBadge(t: TestResult): string {
  if (t.outcome === 'expected-fail') return '<span class="badge xfail">FAIL (expected)</span>';
  if (t.outcome === 'expired') return '<span class="badge failed">FAIL (expired)</span>';
  if (t.outcome === 'unexpected-pass') return '<span class="badge passed">pass (unexpected)</span>';
  if (t.outcome === 'flaky')
    return `<span class="badge ${t.status === 'failed' ? 'xfail' : 'passed'}">${t.status === 'failed' ? 'FAIL' : 'pass'} (flaky)</span>`;
  return badge(t.status, [t]);
}

function detailsHtml(t: TestResult, anchor: string, requirement: Requirement | undefined): string {
  const meta = [
    requirement
      ? `<b>${esc(requirement.id)}</b> (${esc(requirement.level)}, contract §${esc(requirement.section)}): ` +
        `${statement(requirement.statement)}`
      : `<b>${esc(t.requirement)}</b> (not in the requirement catalogue)`,
    `${esc(t.file)} · ${seconds(t.durationMs)}${t.operation ? ` · operation <code>${esc(t.operation)}</code>` : ''}`,
  ];
  const x = t.expectation;
  const expectation = x
    ? `<p class="expectation">${t.expected === 'FLAKY' ? 'Flaky, either outcome allowed' : 'Expected to fail'}: ${esc(x.reason)}` +
      `${x.issue ? ` (${/^https?:\/\//.test(x.issue) ? `<a href="${esc(x.issue)}">${esc(x.issue)}</a>` : esc(x.issue)})` : ''}` +
      `${x.until ? `, until ${esc(x.until)}` : ''}${t.outcome === 'expired' ? ': <b>expired, the failure counts again</b>' : ''}</p>`
    : '';
  const reason = t.reason && t.status !== 'skipped' ? `<p class="msg">${esc(t.reason)}</p>` : '';
  const findings = [...t.findings].sort((a, b) => severityRank[a.severity] - severityRank[b.severity]);
  return `<details class="test" id="${anchor}" data-status="${t.status}" data-family="${slug(t.family)}">
<summary>${testBadge(t)} <span class="tid">${esc(t.id)}</span> <span class="first">${esc(firstLine(t))}</span></summary>
<div class="body">
${meta.map((m) => `<p class="meta">${m}</p>`).join('\n')}
${expectation}${reason}
${findings.map(findingHtml).join('\n')}
</div>
</details>`;
}

/** Failures that count first, then expired ones, then expected and flaky ones; within each, by id. */
function failureRank(t: TestResult): number {
  if (isExcusedFailure(t)) return 2;
  return t.outcome === 'expired' ? 1 : 0;
}

const script =
  `function openTarget(){var e=location.hash&&document.getElementById(location.hash.slice(1));if(e&&e.tagName==='DETAILS')e.open=true}` +
  `addEventListener('hashchange',openTarget);openTarget();`;

const css = [
  '',
  ':root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#5b636e;--line:#d6dae0;--soft:#f3f5f7;--pass:#1a7f37;' +
    '--fail:#c62828;--skip:#6b7280;--xfail:#9a6700;--warn:#b35900;--note:#0969da}',
  '@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--bg:#14171a;--muted:#a0a7b0;--line:#3a4048;--soft:#1f2328;--pass:#4cc46a;' +
    '--fail:#ff6b6b;--skip:#9aa1ab;--xfail:#e0b341;--warn:#ff9f43;--note:#58a6ff}}',
  '*{box-sizing:border-box}',
  'body{margin:0 auto;max-width:1200px;padding:1rem 1.5rem 3rem;' +
    'font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}',
  'h1{font-size:1.5rem;margin:.2rem 0}' +
    'h2{font-size:1.2rem;margin:2rem 0 .6rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}' +
    'h5{margin:.3rem 0;font-size:.85rem;color:var(--muted)}',
  'code,pre,.tid{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}',
  'pre{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:.5rem .7rem;overflow:auto;max-height:28rem;' +
    'white-space:pre-wrap;overflow-wrap:anywhere;margin:.2rem 0 .6rem}',
  '.verdict{padding:.7rem 1rem;border-radius:6px;font-weight:600;font-size:1.1rem;border-left:6px solid}',
  '.verdict.ok{border-color:var(--pass);background:color-mix(in srgb,var(--pass) 12%,transparent)}',
  '.verdict.bad{border-color:var(--fail);background:color-mix(in srgb,var(--fail) 12%,transparent)}',
  '.interrupted{padding:.7rem 1rem;border-radius:6px;font-weight:600;border:2px solid var(--xfail);' +
    'background:color-mix(in srgb,var(--xfail) 15%,transparent)}',
  '.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.8rem 0}.facts dt{color:var(--muted)}' +
    '.facts dd{margin:0}',
  '.counts{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;padding:0;margin:.6rem 0}',
  '.counts li{border:1px solid var(--line);border-radius:6px;padding:.3rem .8rem;min-width:6.5rem}' +
    '.counts b{display:block;font-size:1.3rem}',
  '.badge{display:inline-block;border-radius:3px;padding:0 .4rem;font-size:.8rem;font-weight:600;color:#fff;white-space:nowrap}',
  '.badge.passed{background:var(--pass)}.badge.failed{background:var(--fail)}' +
    '.badge.skipped,.badge.not-tested{background:var(--skip)}.badge.xfail{background:var(--xfail)}' +
    '.badge.warning,.badge.unjudged{background:var(--warn)}.badge.note{background:var(--note)}',
  '.badge.not-tested{opacity:.75}',
  'table{border-collapse:collapse;width:100%;margin:.4rem 0}' +
    'th,td{text-align:left;vertical-align:top;padding:.25rem .5rem;border-bottom:1px solid var(--line)}',
  'tbody th{background:var(--soft);font-weight:600}td.num{text-align:right}.causes td:nth-child(2){white-space:nowrap}',
  '.filters{display:flex;flex-wrap:wrap;gap:1rem;position:sticky;top:0;background:var(--bg);padding:.5rem 0;' +
    'border-bottom:1px solid var(--line);z-index:1}',
  '.filters fieldset{border:0;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.25rem;align-items:center}' +
    '.filters legend{float:left;margin-right:.4rem;color:var(--muted)}',
  '.filters input{position:absolute;opacity:0;width:1px;height:1px}',
  '.filters label{border:1px solid var(--line);border-radius:4px;padding:.05rem .5rem;cursor:pointer;font-size:.85rem}',
  '.filters input:checked+label{background:var(--fg);color:var(--bg)}.filters input:focus-visible+label{outline:2px solid var(--xfail)}',
  'details.test{border:1px solid var(--line);border-radius:6px;margin:.4rem 0}',
  'details.test>summary{cursor:pointer;padding:.45rem .7rem;list-style-position:outside;margin-left:1rem}',
  'details.test[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}',
  'details.test .body{padding:.3rem .9rem .6rem}',
  '.first{color:var(--muted);display:block;font-size:.9rem}',
  '.finding{border-left:4px solid var(--fail);padding:.1rem 0 .1rem .8rem;margin:.8rem 0}.finding.warning{border-color:var(--warn)}' +
    '.finding.note{border-color:var(--note)}',
  '.msg{white-space:pre-wrap;overflow-wrap:anywhere}.label{margin:.4rem 0 0;color:var(--muted);font-size:.85rem}.meta{margin:.3rem 0}',
  '.expectation{border-left:4px solid var(--xfail);padding-left:.7rem}',
  '.exchange{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:.8rem}',
  '.muted{color:var(--muted)}',
  '@media print{.filters{display:none}details.test>.body{display:block}}',
  '',
].join('\n');

function filterCss(families: readonly string[]): string {
  const rules = (['failed', 'passed', 'unjudged', 'skipped', 'not-tested'] as const).map(
    (s) => `body:has(#status-${s}:checked) [data-status]:not([data-status="${s}"]){display:none}`,
  );
  for (const f of families) rules.push(`body:has(#family-${slug(f)}:checked) [data-family]:not([data-family="${slug(f)}"]){display:none}`);
  return rules.join('\n');
}

function filtersHtml(families: readonly string[]): string {
  const radio = (group: string, value: string, label: string, checked = false) =>
    `<input type="radio" name="${group}" id="${group}-${value}" value="${value}"${checked ? ' checked' : ''}>` +
    `<label for="${group}-${value}">${esc(label)}</label>`;
  const statusRadios = [
    radio('status', 'all', 'all', true),
    radio('status', 'failed', 'failed'),
    radio('status', 'passed', 'passed'),
    radio('status', 'unjudged', 'nothing to judge'),
    radio('status', 'skipped', 'skipped'),
    radio('status', 'not-tested', 'not tested'),
  ].join('');
  const familyRadios = families.map((f) => radio('family', slug(f), f)).join('');
  return `<nav class="filters" aria-label="filters">
<fieldset><legend>Status</legend>${statusRadios}</fieldset>
<fieldset><legend>Family</legend>${radio('family', 'all', 'all', true)}${familyRadios}</fieldset>
</nav>`;
}

/** The page's head counts and facts: tests by outcome (and expectations), and what was run against what. */
function headline(results: Results): { counts: [string, number, string][]; facts: [string, string][] } {
  const s = results.summary;
  const x = s.expectations;
  const counts: [string, number, string][] = [
    ['total', s.total, 'tests'],
    ['passed', s.passed, 'passed'],
    ['failed', s.failed, 'failed'],
    ['skipped', s.skipped, 'skipped'],
    ['warnings', s.warnings, 'warnings'],
    ...(s.notes !== undefined ? ([['notes', s.notes, 'notes']] as [string, number, string][]) : []),
    ...(x
      ? ([
          ['expected-failures', x.expectedFailures, 'expected failures'],
          ['unexpected-passes', x.unexpectedPasses, 'unexpected passes'],
          ['expired', x.expired, 'expired expectations'],
          ...(x.flaky ? ([['flaky', x.flaky, 'flaky tests']] as [string, number, string][]) : []),
          ['stale', x.stale.length, 'stale expectations'],
        ] as [string, number, string][])
      : []),
  ];
  const totals = exchangeTotals(s);
  const facts: [string, string][] = [
    ['Target', `${esc(results.target.baseUrl)}${results.target.embedded ? ' <span class="muted">(bundled reference server)</span>' : ''}`],
    ['Features', esc(results.target.features.join(', ') || 'none')],
    ['Started', esc(results.startedAt)],
    ['Duration', seconds(results.durationMs)],
    [
      'Seed',
      `<code>${results.seed}</code>${results.seedSource ? ` ${esc(results.seedSource)}` : ''} ` +
        `<span class="muted">(repeat with <code>--seed ${results.seed}</code>)</span>`,
    ],
    ...(totals ? ([['Answers', esc(totals)]] as [string, string][]) : []),
    ['Runs per property', String(results.runs)],
    ...(x ? ([['Expectations', esc(x.file)]] as [string, string][]) : []),
    ['Tool', `${esc(results.tool.name)} ${esc(results.tool.version)}`],
  ];
  return { counts, facts };
}

/** The requirement table's bodies, one per family: each requirement of the catalogue (and any id only the results name) with its tests' status. */
function requirementRowsHtml(results: Results, families: readonly string[], anchorOf: (t: TestResult) => string): string[] {
  const byRequirement = new Map<string, TestResult[]>();
  for (const t of results.tests) byRequirement.set(t.requirement, [...(byRequirement.get(t.requirement) ?? []), t]);
  const catalogue = new Map(requirements.map((r) => [r.id, r]));
  return families.map((family) => {
    const reqs: { id: string; req?: Requirement }[] = requirements.filter((r) => r.family === family).map((r) => ({ id: r.id, req: r }));
    // Results may name ids the catalogue does not have (an older catalogue, a collector fallback): shown, never dropped.
    for (const id of [...byRequirement.keys()].filter((id) => !catalogue.has(id) && byRequirement.get(id)?.[0]?.family === family).sort())
      reqs.push({ id });
    const all = reqs.flatMap((r) => byRequirement.get(r.id) ?? []);
    const rows = reqs.map(({ id, req }) => {
      const tests = byRequirement.get(id) ?? [];
      const status = aggregate(tests);
      const firstFailed = tests.find((t) => t.status === 'failed');
      const link = firstFailed ? ` · <a href="#${anchorOf(firstFailed)}">details</a>` : '';
      const section = req ? `§${esc(req.section)} <span class="muted">${esc(sectionTitles[req.section] ?? '')}</span>` : '';
      const stmt = req
        ? `${statement(req.statement)}${req.feature ? ` <span class="muted">(feature ${esc(req.feature)})</span>` : ''}`
        : '<span class="muted">not in the requirement catalogue</span>';
      return (
        `<tr data-status="${status}" data-family="${slug(family)}"><td><code>${esc(id)}</code></td><td>${badge(status, tests)}</td>` +
        `<td>${esc(req?.level ?? '')}</td><td>${section}</td><td>${stmt}</td><td>${testCounts(tests)}${link}</td></tr>`
      );
    });
    return (
      `<tbody data-family="${slug(family)}"><tr><th colspan="6">${esc(family)} ` +
      `<span class="muted">· ${reqs.length} requirements${all.length ? ` · ${testCounts(all)}` : ''}</span></th></tr>\n` +
      `${rows.join('\n')}</tbody>`
    );
  });
}

/** The expectations section: the file's counts, and the unexpected passes, expired entries, flaky tests and stale ids. */
function expectationSectionHtml(results: Results, x: NonNullable<Results['summary']['expectations']>): string {
  return `<section id="expectations"><h2>Expectations</h2>
<p>From <code>${esc(x.file)}</code>: ${expectationCounts(x)}.</p>
${list(
  'Unexpected passes (remove them from the file: <code>cms-conformance update-expectations</code>)',
  results.tests.filter((t) => t.outcome === 'unexpected-pass').map((t) => t.id),
)}
${list(
  'Expired entries (the failure counts again)',
  results.tests.filter((t) => t.outcome === 'expired').map((t) => `${t.id} (until ${t.expectation?.until ?? '?'})`),
)}
${list(
  'Flaky tests (either outcome allowed), with what they did in this run',
  results.tests.filter((t) => t.outcome === 'flaky').map((t) => `${t.id} (${t.status})`),
)}
${list('Stale ids (no test of this run has them)', x.stale)}
</section>`;
}

/** One row per cause: its count, requirement and check, its first example and the tests it touched (linked to their details). */
function causesTableHtml(causes: readonly Cause[], anchorOfId: (id: string) => string | undefined): string {
  const link = (id: string) => {
    const anchor = anchorOfId(id);
    return anchor ? `<a class="tid" href="#${anchor}">${esc(id)}</a>` : `<span class="tid">${esc(id)}</span>`;
  };
  const rows = causes.map(
    (c) =>
      `<tr><td class="num">${c.count}</td><td><code>${esc(c.requirement)}</code> <code>${esc(c.check)}</code></td>` +
      `<td class="msg">${esc(oneLine(c.example, 300))}</td><td>${touchedTests(c, link)}</td></tr>`,
  );
  return (
    '<table class="causes"><thead><tr><th>count</th><th>requirement and check</th><th>first example</th><th>tests</th></tr></thead>' +
    `<tbody>\n${rows.join('\n')}\n</tbody></table>`
  );
}

/** The operations table's rows: each operation's tests, their aggregate status and a link to the first failure. */
function operationRowsHtml(results: Results, anchorOf: (t: TestResult) => string): string[] {
  return operations.map((op) => {
    const tests = results.tests.filter((t) => t.operation === op.id);
    const status = aggregate(tests);
    const firstFailed = tests.find((t) => t.status === 'failed');
    const link = firstFailed ? ` · <a href="#${anchorOf(firstFailed)}">details</a>` : '';
    return (
      `<tr data-status="${status}"><td><code>${esc(op.id)}</code></td><td>${badge(status, tests)}</td>` +
      `<td><code>${esc(op.method)} ${esc(op.path)}</code></td><td>§${esc(op.section)}</td><td>${esc(op.feature ?? '')}</td>` +
      `<td>${testCounts(tests)}${link}</td></tr>`
    );
  });
}

/** The all-tests table's rows, failures first; a test with details links to them. */
function testRowsHtml(results: Results, detailed: ReadonlySet<TestResult>, anchorOf: (t: TestResult) => string): string[] {
  return [...results.tests]
    .sort((a, b) => Number(b.status === 'failed') - Number(a.status === 'failed') || a.id.localeCompare(b.id))
    .map((t) => {
      const counted = (['warning', 'note'] as const).map((severity) => {
        const n = t.findings.filter((f) => f.severity === severity).length;
        return n ? `${n} ${severity}${n > 1 ? 's' : ''}` : '';
      });
      const note = t.status === 'skipped' ? esc(t.reason ?? '') : counted.filter(Boolean).join(' · ');
      const name = detailed.has(t) ? `<a href="#${anchorOf(t)}">${esc(t.id)}</a>` : esc(t.id);
      return (
        `<tr data-status="${t.status}" data-family="${slug(t.family)}"><td>${testBadge(t)}</td><td class="tid">${name}</td>` +
        `<td>${esc(t.operation ?? '')}</td><td class="num">${seconds(t.durationMs)}</td><td>${note}</td></tr>`
      );
    });
}

/** Renders the whole report page. */
export function renderHtml(results: Results): string {
  const s = results.summary;
  const verdict = verdictOf(results);
  const anchors = new Map(results.tests.map((t, i) => [t, `t-${i + 1}`]));
  const anchorOf = (t: TestResult) => anchors.get(t) ?? '';
  const catalogue = new Map(requirements.map((r) => [r.id, r]));
  const families = [...new Set([...requirements.map((r) => r.family), ...results.tests.map((t) => t.family)])];

  const x = s.expectations;
  const { counts, facts } = headline(results);
  const failed = results.tests
    .filter((t) => t.status === 'failed')
    .sort((a, b) => failureRank(a) - failureRank(b) || a.id.localeCompare(b.id));
  const unexpected = failed.filter(isUnexpectedFailure).length;
  const warned = results.tests.filter((t) => t.status !== 'failed' && t.findings.some((f) => f.severity === 'warning'));
  // Tests whose only findings are notes get their details in the notes section: every test a cause names has them once.
  const noted = results.tests.filter((t) => t.status !== 'failed' && !warned.includes(t) && t.findings.some((f) => f.severity === 'note'));
  const detailed = new Set([...failed, ...warned, ...noted]);
  const byId = new Map(results.tests.map((t) => [t.id, t]));
  const anchorOfId = (id: string) => {
    const t = byId.get(id);
    return t && detailed.has(t) ? anchorOf(t) : undefined;
  };

  const requirementRows = requirementRowsHtml(results, families, anchorOf);
  const operationRows = operationRowsHtml(results, anchorOf);
  const testRows = testRowsHtml(results, detailed, anchorOf);

  const expectationSection = x ? expectationSectionHtml(results, x) : '';
  const skips = Object.entries(s.skipReasons).sort(([, a], [, b]) => b - a);
  const scriptHash = createHash('sha256').update(script).digest('base64');
  const csp =
    `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; ` +
    `img-src data:; base-uri 'none'; form-action 'none'`;
  const details = (tests: readonly TestResult[]) => tests.map((t) => detailsHtml(t, anchorOf(t), catalogue.get(t.requirement))).join('\n');
  const warningCauses = causesOf(results, 'warning');
  const warningsSection = warningCauses.length
    ? `<section id="warnings"><h2>Warnings (${extentOf(warningCauses)})</h2>\n` +
      `<h3>Warnings by cause (${warningCauses.length})</h3>\n${causesTableHtml(warningCauses, anchorOfId)}\n` +
      `${warned.length ? `<h3>Tests with warnings that did not fail (${warned.length})</h3>\n${details(warned)}\n` : ''}</section>`
    : '';
  const noteCauses = causesOf(results, 'note');
  const notesSection = noteCauses.length
    ? `<section id="notes"><h2>Notes: values the contract allows but does not show (${extentOf(noteCauses)})</h2>\n` +
      '<p class="muted">Not warnings: the contract leaves these sets of values open (their complete enumeration is "not shown"), ' +
      'so every value here conforms; they tell what the target sends beyond what the contract shows.</p>\n' +
      `<h3>Notes by cause (${noteCauses.length})</h3>\n${causesTableHtml(noteCauses, anchorOfId)}\n` +
      `${noted.length ? `<h3>Tests with notes and no failure or warning (${noted.length})</h3>\n${details(noted)}\n` : ''}</section>`
    : '';
  const operationsHead = '<tr><th>operation</th><th>status</th><th>method and path</th><th>section</th><th>feature</th><th>tests</th></tr>';
  const skipsSection = skips.length
    ? `<section id="skips"><h2>Skip reasons</h2><table><tbody>` +
      `${skips.map(([r, n]) => `<tr><td class="num">${n}</td><td>${esc(r)}</td></tr>`).join('')}</tbody></table></section>`
    : '';
  const generatedBy = `Generated by ${esc(results.tool.name)} ${esc(results.tool.version)}.`;
  return `${pageHead(`cms-conformance: ${verdict.exitCode ? 'FAIL' : 'PASS'} · ${results.target.baseUrl}`, csp, css + filterCss(families))}
<header>
<h1>cms-conformance report</h1>
${results.interrupted ? `<p class="interrupted" id="interrupted">${esc(interruptionText(results.interrupted))}</p>\n` : ''}<p class="verdict ${verdict.exitCode ? 'bad' : 'ok'}" id="verdict">${verdict.exitCode ? '✗' : '✓'} ${esc(verdict.text)}</p>
<ul class="counts" id="counts">${counts.map(([key, n, label]) => `<li data-count="${key}"><b>${n}</b>${esc(label)}</li>`).join('')}</ul>
<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>
</header>
${filtersHtml(families)}
<main>
${
  results.runErrors?.length
    ? `<section id="run-errors"><h2>Run errors (${results.runErrors.length}): the tests of these suite files did not run</h2>\n<ul>${results.runErrors.map((e) => `<li><code>${esc(e)}</code></li>`).join('')}</ul></section>`
    : ''
}
<section id="failures"><h2>Failures (${failed.length}${failed.length !== unexpected ? `, ${unexpected} unexpected` : ''})</h2>
${failed.length ? failed.map((t) => detailsHtml(t, anchorOf(t), catalogue.get(t.requirement))).join('\n') : '<p>No test failed.</p>'}
</section>
${warningsSection}
${notesSection}
${expectationSection}
<section id="requirements"><h2>Requirements by family (${requirements.length} in the catalogue)</h2>
<table><thead><tr><th>requirement</th><th>status</th><th>level</th><th>contract section</th><th>statement</th><th>tests</th></tr></thead>
${requirementRows.join('\n')}
</table></section>
<section id="operations"><h2>Operations (${operations.length})</h2>
<table><thead>${operationsHead}</thead><tbody>
${operationRows.join('\n')}
</tbody></table></section>
${parameterSectionHtml(results)}
<section id="tests"><h2>All tests (${results.tests.length})</h2>
<table><thead><tr><th>status</th><th>test</th><th>operation</th><th>time</th><th>note</th></tr></thead><tbody>
${testRows.join('\n')}
</tbody></table></section>
${skipsSection}
</main>
<footer><p class="muted">${generatedBy} Every test id is stable across runs; results.json holds the same data.</p></footer>
<script>${script}</script>
</body>
</html>
`;
}

function list(title: string, items: readonly string[]): string {
  return items.length ? `<h3>${title}</h3><ul>${items.map((i) => `<li><code>${esc(i)}</code></li>`).join('')}</ul>` : '';
}

/** Writes report.html into the output folder and returns its path. */
export function writeHtml(outDir: string, results: Results): string {
  const path = join(outDir, 'report.html');
  writeFileSync(path, renderHtml(results));
  return path;
}
