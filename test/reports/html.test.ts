import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { applyExpectations } from '../../reports/expectations.ts';
import { escapeHtml } from '../../reports/escape-html.ts';
import { renderHtml } from '../../reports/html.ts';
import { operations } from '../../schemas/operations.ts';
import { requirements } from '../../schemas/requirements.ts';
import type { TestResult } from '../../schemas/results.ts';
import { HOSTILE, nothingToJudge, repeatedTests, sampleResults, sampleTests } from './sample.ts';

const html = renderHtml(sampleResults());

function section(page: string, id: string): string {
  const start = page.indexOf(`<section id="${id}">`);
  expect(start, `section ${id}`).toBeGreaterThan(-1);
  return page.slice(start, page.indexOf('</section>', start));
}

describe('report.html', () => {
  it('states the verdict, the run facts and counts equal to the summary', () => {
    const s = sampleResults().summary;
    expect(html).toContain('the target does not conform: 3 unexpected failures');
    for (const [key, n] of Object.entries({
      total: s.total,
      passed: s.passed,
      failed: s.failed,
      skipped: s.skipped,
      warnings: s.warnings,
    })) {
      expect(html).toContain(`<li data-count="${key}"><b>${n}</b>`);
    }
    for (const fact of ['http://cms.example/rest', '2026-03-01T10:00:00.000Z', '65.4 s', '--seed 42']) expect(html).toContain(fact);
  });

  it('shows where the seed came from and the exchange totals when the run counted them', () => {
    const counted = sampleTests().map((t, i) => (i === 0 ? { ...t, requests: 1_201, answers: 1_200, validated: 1_200, retries: 3 } : t));
    const page = renderHtml({ ...sampleResults(counted), seedSource: 'default' });
    expect(page).toContain('<dt>Seed</dt><dd><code>42</code> default');
    expect(page).toContain('<dt>Answers</dt><dd>1,200 of 1,200 answers validated; 3 retries</dd>');
    expect(html).not.toContain('<dt>Answers</dt>');
  });

  it('lists every requirement of the catalogue with its contract section, untested ones as not tested', () => {
    const matrix = section(html, 'requirements');
    for (const r of requirements) expect(matrix).toContain(`<td><code>${escapeHtml(r.id)}</code></td>`);
    expect(matrix.match(/<tr data-status=/g)).toHaveLength(requirements.length);
    expect(matrix).toMatch(
      /<tr data-status="not-tested" data-family="SRT"><td><code>SRT-01<\/code><\/td><td><span class="badge not-tested">not tested<\/span>/,
    );
    expect(matrix).toContain('§4.1 <span class="muted">Shared parameter groups</span>');
    expect(matrix).toMatch(/<tr data-status="skipped" data-family="MCH"><td><code>MCH-01<\/code>/);
  });

  it('shows a requirement whose passing tests all had nothing to judge as nothing to judge, not as a pass', () => {
    const nothing = nothingToJudge('PGE-01');
    const base = sampleTests().find((t) => t.status === 'passed')!;
    const pge = { ...base, id: 'PGE-01 every page record', requirement: 'PGE-01', family: 'PGE', operation: 'folder.getPages' };
    const page = (tests: TestResult[]) => section(renderHtml(sampleResults(tests)), 'requirements');
    expect(page([...sampleTests(), { ...pge, findings: [nothing] }])).toMatch(
      /<tr data-status="unjudged" data-family="PGE"><td><code>PGE-01<\/code><\/td><td><span class="badge unjudged">nothing to judge<\/span>/,
    );
    // One test of the requirement that judged something makes it a pass.
    expect(page([...sampleTests(), { ...pge, findings: [nothing] }, { ...pge, id: 'PGE-01 another' }])).toMatch(
      /<tr data-status="passed" data-family="PGE"><td><code>PGE-01<\/code>/,
    );
  });

  it('has one row per operation of the catalogue', () => {
    const matrix = section(html, 'operations');
    expect(operations).toHaveLength(43);
    expect(matrix.match(/<tr data-status=/g)).toHaveLength(43);
    expect(matrix).toMatch(/<tr data-status="failed"><td><code>folder.getFolders<\/code>/);
    expect(matrix).toMatch(/<tr data-status="passed"><td><code>folder.load<\/code>/);
  });

  it('escapes what servers say: no markup of a finding or body reaches the page', () => {
    expect(html).not.toContain('<script>window');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain(escapeHtml(HOSTILE));
    // The page's own script is the only one, and the CSP allows exactly it.
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
  });

  it('loads nothing from the network: no external stylesheet, font, image or script', () => {
    expect(html).not.toMatch(/<(link|img|iframe|object|embed|video|audio|source)\b|<script[^>]*\ssrc=|@import|url\(/i);
  });

  it('shows each failure in a details element with findings, exchange, replay and curl, failures first', () => {
    const failures = section(html, 'failures');
    expect(failures.match(/<details class="test"/g)).toHaveLength(3);
    expect(failures).toContain('HTTP 500 (8 ms)');
    expect(failures).toContain('npx cms-conformance run --only PAG-01 --seed 42');
    expect(failures).toContain('curl -sS -X GET &quot;http://cms.example/rest/folder/getFolders/7?sid=$CMS_AUTH_SID&quot;');
    expect(failures).toContain('setup failed: the sandbox folder could not be created');
    // JSON bodies are pretty-printed, request bodies included.
    expect(failures).toContain('{\n  &quot;motherId&quot;: 7,');
    expect(html.indexOf('id="failures"')).toBeLessThan(html.indexOf('id="requirements"'));
  });

  it('shows warnings of passing tests in their own section', () => {
    const warnings = section(html, 'warnings');
    expect(warnings).toContain('ENV-01 every body has the envelope');
    expect(warnings).toContain('member &quot;extra&quot; is not in the contract');
  });

  it('puts failures that count before expected ones and marks each', () => {
    const results = applyExpectations(
      sampleResults(),
      { 'PAG-01 without pageSize every item comes back': { expected: 'FAIL', reason: 'known paging bug' } },
      { file: 'vendor.json', today: '2026-03-01' },
    );
    const page = renderHtml(results);
    const failures = section(page, 'failures');
    expect(failures.indexOf('PAG-02 pageSize 0')).toBeLessThan(failures.indexOf('PAG-01 without pageSize'));
    expect(failures).toContain('FAIL (expected)');
    expect(failures).toContain('Expected to fail: known paging bug');
    expect(page).toContain('<li data-count="expected-failures"><b>1</b>');
  });

  it('cuts very long bodies and says how much is left out', () => {
    const tests = sampleTests();
    const finding = tests[3]?.findings[0];
    if (finding?.exchange?.response) finding.exchange.response.text = 'x'.repeat(50_000);
    const page = renderHtml(sampleResults(tests));
    expect(page).toContain('… (30000 more characters not shown)');
    expect(page).not.toContain('x'.repeat(20_001));
  });

  it('filters by status and family with radio buttons and CSS alone', () => {
    expect(html).toContain('<input type="radio" name="status" id="status-failed" value="failed">');
    expect(html).toContain('<input type="radio" name="family" id="family-PAG" value="PAG">');
    expect(html).toContain('body:has(#status-failed:checked) [data-status]:not([data-status="failed"]){display:none}');
    expect(html).toContain('body:has(#family-PAG:checked) [data-family]:not([data-family="PAG"]){display:none}');
  });
});

describe('report.html, findings by cause', () => {
  const page = renderHtml(sampleResults(repeatedTests()));
  const rows = (part: string) => part.match(/<tr><td class="num">\d+<\/td>/g) ?? [];

  it('shows 200 warnings of one key as one cause line with its count, first example and tests', () => {
    const warnings = section(page, 'warnings');
    expect(warnings).toContain('<h2>Warnings (201 in 41 tests)</h2>');
    expect(rows(warnings)).toEqual(['<tr><td class="num">200</td>', '<tr><td class="num">1</td>']);
    const line = warnings.slice(
      warnings.indexOf('<td class="num">200</td>'),
      warnings.indexOf('</tr>', warnings.indexOf('<td class="num">200</td>')),
    );
    expect(line).toContain('folder.getFolders: /folders/0/extra is not a member the contract names for Folder');
    expect(line).not.toContain('/folders/1/extra');
    expect(line).toMatch(/40 tests: <a class="tid" href="#t-1">FLD-01 listing 00<\/a>, .*FLD-01 listing 02<\/a>, and 37 more<\/td>$/);
    // A finding without a key is grouped by its requirement and check.
    expect(warnings).toContain('<code>PGE-01</code> <code>fixture</code>');
  });

  it('keeps the per-test details after the causes', () => {
    const warnings = section(page, 'warnings');
    expect(warnings.indexOf('Warnings by cause')).toBeLessThan(warnings.indexOf('<details class="test"'));
    expect(warnings.match(/<details class="test"/g)).toHaveLength(41);
  });

  it('groups notes apart from warnings, and counts them apart', () => {
    const notes = section(page, 'notes');
    expect(notes).toContain('<h2>Notes: values the contract allows but does not show (3 in 2 tests)</h2>');
    expect(rows(notes)).toEqual(['<tr><td class="num">3</td>']);
    expect(notes).toContain('2 tests: <a class="tid"');
    expect(notes).toContain('<span class="badge note">note</span>');
    expect(notes).not.toContain('/extra');
    expect(section(page, 'warnings')).not.toContain('FILE');
    expect(page).toContain('<li data-count="warnings"><b>201</b>');
    expect(page).toContain('<li data-count="notes"><b>3</b>');
  });

  it('has no causes section for a severity the run did not have', () => {
    expect(html).not.toContain('<section id="notes">');
  });

  it('shows the interrupted banner at the top only when the run was interrupted', () => {
    expect(html).not.toContain('INTERRUPTED');
    const stopped = renderHtml({ ...sampleResults(), interrupted: { signal: 'SIGINT', at: '2026-03-01T10:01:05.000Z' } });
    const banner =
      '<p class="interrupted" id="interrupted">INTERRUPTED by SIGINT at 2026-03-01T10:01:05.000Z: these results are partial; ' +
      'tests that had not run are missing.</p>';
    expect(stopped).toContain(banner);
    expect(stopped.indexOf(banner)).toBeLessThan(stopped.indexOf('id="verdict"'));
  });
});
