/** `cms-conformance update-expectations`: writes or updates a target's expectation file from a run. */
import { loadExpectationsIfPresent, todayUtc, writeExpectations, type Expectations } from '../reports/expectations.ts';
import { oneLine } from '../reports/markdown.ts';
import { ReportInputError, loadResults } from '../reports/results.ts';
import { UsageError, parseOptions, type Command } from './args.ts';

const usage = `usage: cms-conformance update-expectations --from RESULTS --out FILE

Writes or updates an expectation file from a run (RESULTS: a results.json, or the folder holding it).
Every failing test becomes an expected FAIL (an existing entry keeps its reason, issue and until);
every passing test leaves the file; skipped tests and ids the run did not have stay as they are.
Edit the reasons it writes: they only quote the first finding.
Exit: 0 written, 2 usage error or unreadable file.`;

export const command: Command = {
  summary: 'write or update an expectation file from a run: failures become expected, passes leave',
  usage,
  async run(args) {
    const { values } = parseOptions(args, { from: { type: 'string' }, out: { type: 'string' } });
    if (!values.from || !values.out) throw new UsageError('update-expectations needs --from RESULTS and --out FILE');
    let next: Expectations;
    const lines: string[] = [];
    try {
      const results = loadResults(values.from);
      const before = loadExpectationsIfPresent(values.out);
      next = { ...before };
      const ids = new Set(results.tests.map((t) => t.id));
      const today = todayUtc();
      for (const t of results.tests) {
        const existing = Object.hasOwn(before, t.id) ? before[t.id] : undefined;
        if (t.status === 'passed' && existing) {
          delete next[t.id];
          lines.push(`removed  ${t.id} (passes now)`);
        } else if (t.status === 'failed' && !existing) {
          const f = t.findings.find((x) => x.severity === 'error');
          const first = f ? `${f.check}: ${f.message}` : (t.reason ?? 'failed');
          next[t.id] = { expected: 'FAIL', reason: oneLine(`failing since ${results.startedAt.slice(0, 10)}: ${first}`, 300) };
          lines.push(`added    ${t.id}`);
        } else if (t.status === 'failed' && existing?.until !== undefined && existing.until < today) {
          lines.push(`expired  ${t.id} (until ${existing.until}): extend "until" or fix the target`);
        }
      }
      for (const id of Object.keys(before).filter((k) => !ids.has(k))) lines.push(`stale    ${id} (not in this run; kept)`);
    } catch (err) {
      if (err instanceof ReportInputError) throw new UsageError(err.message);
      throw err;
    }
    writeExpectations(values.out, next);
    const changed = lines.filter((l) => /^(added|removed)/.test(l)).length;
    console.log([...lines, `${values.out}: ${Object.keys(next).length} entries (${changed ? `${changed} changed` : 'unchanged'})`].join('\n'));
    return 0;
  },
};
