import { describe, expect, it } from 'vitest';
import { mdText, renderMarkdown } from '../../reports/markdown.ts';
import type { TestResult } from '../../schemas/results.ts';
import { applyExpectations } from '../../reports/expectations.ts';
import { sampleResults, sampleTests } from './sample.ts';

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
