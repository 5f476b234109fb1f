import { describe, expect, it } from 'vitest';
import { mdText, renderMarkdown } from '../../reports/markdown.ts';
import type { TestResult } from '../../schemas/results.ts';
import { applyExpectations } from '../../reports/expectations.ts';
import { repeatedTests, sampleResults, sampleTests } from './sample.ts';

const md = renderMarkdown(sampleResults());

describe('summary.md', () => {
  it('opens with the verdict and the counts, and ends with the seed', () => {
    const lines = md.split('\n');
    expect(lines[0]).toBe('## ❌ cms-conformance: the target does not conform: 3 unexpected failures');
    expect(md).toContain('| 6 | 2 | 3 | 1 | 1 |');
    expect(md).toContain('seed 42');
    expect(md.trimEnd().split('\n').at(-1)).toContain('--seed 42');
  });

  it('lists each failed test with its requirement and first finding', () => {
    expect(md).toContain('| ❌ | PAG-02 pageSize 0 returns no items | PAG-02 | items: pageSize=0 returned 3 folders |');
    expect(md).toContain(
      '| ❌ | UPL-01 multipart create keeps the bytes | UPL-01 | setup failed: the sandbox folder could not be created |',
    );
  });

  it('has a by-family table and the skip reasons', () => {
    expect(md).toContain('| PAG | 0 | 2 | 0 | 2 |');
    expect(md).toContain('- 1 × the target does not declare the feature "multichannelling"');
  });

  it('keeps server text inert: no HTML, no markup, no mentions', () => {
    expect(md).not.toMatch(/<script|<img/);
    expect(mdText('a | b <b>x</b> @octocat *bold* `code`')).toBe('a \\| b &lt;b&gt;x&lt;/b&gt; &#64;octocat \\*bold\\* \\`code\\`');
    expect(mdText('line\nbreak', 8)).toBe('line br…');
  });

  it('marks expected failures and lists unexpected passes and stale ids', () => {
    const results = applyExpectations(
      sampleResults(),
      {
        'PAG-01 without pageSize every item comes back': { expected: 'FAIL', reason: 'r' },
        'OP-folder.load a valid request gets 200 and a FolderLoadResponse': { expected: 'FAIL', reason: 'r' },
        'PAG-99 gone': { expected: 'FAIL', reason: 'r' },
      },
      { file: 'vendor.json' },
    );
    const text = renderMarkdown(results);
    expect(text).toContain('| ➖ expected | PAG-01 without pageSize every item comes back |');
    expect(text.indexOf('PAG-02 pageSize 0')).toBeLessThan(text.indexOf('| ➖ expected |'));
    expect(text).toContain('### Unexpected passes (1)');
    expect(text).toContain('- PAG-99 gone');
    expect(text).toContain('Expectations (vendor.json): 1 expected failure, 1 unexpected pass, 0 expired entries, 1 stale id.');
  });

  it('stays short when many tests fail', () => {
    const base = sampleTests()[4] as TestResult;
    const many = Array.from({ length: 60 }, (_, i) => ({ ...base, id: `PAG-02 case ${String(i).padStart(2, '0')}` }));
    const text = renderMarkdown(sampleResults(many));
    expect(text.match(/^\| ❌ /gm)).toHaveLength(25);
    expect(text).toContain('…and 35 more: see report.html.');
  });
});

describe('summary.md, findings by cause', () => {
  const text = renderMarkdown(sampleResults(repeatedTests()));
  const section = (title: string) => {
    const start = text.indexOf(`### ${title}`);
    expect(start, title).toBeGreaterThan(-1);
    return text.slice(start, text.indexOf('\n### ', start + 1));
  };

  it('shows 200 warnings of one key as one cause line with its count, first example and tests', () => {
    const warnings = section('Warnings by cause');
    expect(warnings.split('\n')[0]).toBe('### Warnings by cause (201 in 41 tests, 2 causes)');
    expect(warnings.match(/^\| \d+ \|/gm)).toEqual(['| 200 |', '| 1 |']);
    expect(warnings).toContain(
      '| 200 | OP-folder.getFolders | schema | folder.getFolders: /folders/0/extra is not a member the contract names for Folder | ' +
        '40 tests: FLD-01 listing 00, FLD-01 listing 01, FLD-01 listing 02, and 37 more |',
    );
    expect(warnings).toContain(
      '| 1 | PGE-01 | fixture | nothing to judge: the pages folder holds no page | 1 test: PGE-01 every page record |',
    );
  });

  it('groups notes apart from warnings, and counts them apart', () => {
    const notes = section('Notes: values the contract allows but does not show');
    expect(notes.split('\n')[0]).toBe('### Notes: values the contract allows but does not show (3 in 2 tests, 1 cause)');
    expect(notes.match(/^\| \d+ \|/gm)).toEqual(['| 3 |']);
    expect(notes).toContain('| 2 tests: PGE-02 pages with tags, PGE-03 pages with templates |');
    expect(section('Warnings by cause')).not.toContain('FILE');
    expect(text).toContain(
      '| tests | passed | failed | skipped | warnings | notes |\n|---:|---:|---:|---:|---:|---:|\n| 43 | 43 | 0 | 0 | 201 | 3 |',
    );
  });

  it('has no causes section for a severity the run did not have', () => {
    expect(md).not.toContain('### Notes');
  });

  it('shows the interrupted banner at the top only when the run was interrupted', () => {
    expect(md).not.toContain('INTERRUPTED');
    const stopped = renderMarkdown({ ...sampleResults(), interrupted: { signal: 'SIGTERM', at: '2026-03-01T10:01:05.000Z' } });
    // The banner follows the verdict line, whatever the verdict of a partial run says.
    expect(stopped.split('\n').slice(1, 3)).toEqual([
      '',
      '> **INTERRUPTED by SIGTERM at 2026-03-01T10:01:05.000Z: these results are partial; tests that had not run are missing.**',
    ]);
  });
});
