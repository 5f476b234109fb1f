/** `cms-conformance merge`: one set of reports from the results of sharded runs. */
import { relative, resolve } from 'node:path';
import { verdictOf } from '../reports/expectations.ts';
import { finishRun, mergeResults, ReportInputError } from '../reports/index.ts';
import { loadResults } from '../reports/results.ts';
import { UsageError, outDirOption, parseOptions, type Command, type OptionTable } from './args.ts';

const OPTIONS = {
  out: {
    type: 'string',
    value: 'DIR',
    byDefault: 'reports/out',
    description: 'where the merged reports go',
    example: 'shard-1 shard-2 shard-3 --out reports/merged',
  },
  expectations: {
    type: 'string',
    value: 'FILE',
    byDefault: 'none',
    description: "apply the target's expectation file to the merged run",
    example: 'shard-1 shard-2 --expectations expectations.json',
  },
  baseline: {
    type: 'string',
    value: 'FILE',
    byDefault: 'none',
    description: 'compare with an earlier results.json (writes regression.md)',
    example: 'shard-1 shard-2 --baseline reports/last/results.json',
  },
} as const satisfies OptionTable;

function parse(args: string[]) {
  const parsed = parseOptions(args, OPTIONS, true);
  if (!parsed.positionals.length) throw new UsageError('merge needs at least one results folder or file');
  return parsed;
}

export const command: Command = {
  summary: 'combine the results of sharded runs into one set of reports',
  options: OPTIONS,
  positionals: [
    {
      name: 'RESULTS',
      multiple: true,
      required: true,
      description: 'the results of one shard: a report folder holding results.json, or the file',
      example: 'reports/shard-1 reports/shard-2/results.json',
    },
  ],
  about: ['Combines the results of sharded runs of one target and seed into one results.json, junit.xml, report.html and summary.md.'],
  exit: '0 no unexpected failure, 1 unexpected failures, 2 usage error or unusable input.',
  parse,
  async run(args) {
    const { values, positionals } = parse(args);
    try {
      const merged = mergeResults(positionals.map(loadResults));
      // Made once the inputs are known good: a refused merge leaves no folder behind.
      const outDir = outDirOption(values.out, resolve('reports/out'));
      const done = finishRun(merged, { outDir, expectationsFile: values.expectations, baselineFile: values.baseline });
      const s = done.results.summary;
      console.log(
        [
          ...done.lines,
          `cms-conformance: merged ${positionals.length} results: ${s.total} tests, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.warnings} warnings${s.notes ? `, ${s.notes} notes` : ''}`,
          `  reports: ${done.paths.map((p) => relative(process.cwd(), p) || p).join(', ')}`,
          `VERDICT: ${verdictOf(done.results).text}`,
        ].join('\n'),
      );
      return done.exitCode;
    } catch (err) {
      if (err instanceof ReportInputError) throw new UsageError(err.message);
      throw err;
    }
  },
};
