/** `cms-conformance statement`: a conformance statement from a run's results, or the check of one. */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { loadResults, ReportInputError, resultsPath } from '../reports/results.ts';
import { makeStatement, verifyStatement, writeStatement, type Statement } from '../reports/statement.ts';
import { fileProblem } from '../schemas/files.ts';
import { UsageError, outDirOption, parseOptions, type Command, type OptionTable } from './args.ts';

const OPTIONS = {
  from: {
    type: 'string',
    value: 'RESULTS',
    required: true,
    description: "the run's results.json, or the report folder holding it",
    example: '--from reports/out --out reports/statement',
  },
  out: {
    type: 'string',
    value: 'DIR',
    byDefault: 'none: --out or --verify is needed',
    description: 'where the statement goes',
    example: '--from reports/out --out reports/statement',
  },
  verify: {
    type: 'string',
    value: 'FILE',
    byDefault: 'none',
    description: 'check a conformance.json against RESULTS instead of writing one: the digests and every count and fact; not with --out',
    example: '--verify reports/statement/conformance.json --from reports/out',
  },
} as const satisfies OptionTable;

/** The bytes of a results.json, named by the file or its folder, once it reads as results. */
export function resultsBytes(fileOrDir: string): Buffer {
  const path = resultsPath(fileOrDir);
  try {
    loadResults(path);
  } catch (err) {
    if (err instanceof ReportInputError) throw new UsageError(err.message);
    throw err;
  }
  return readFileSync(path);
}

/** Reads a conformance.json, refusing a file that is not one. */
function loadStatement(path: string): Statement {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(e.code ? `--verify ${path}: cannot read it: ${e.code}` : `--verify ${path}: not valid JSON: ${e.message}`);
  }
  const problem = fileProblem('statement', data);
  if (problem) throw new UsageError(`--verify ${path}: not a conformance statement: ${problem}`);
  return data as Statement;
}

function parse(args: string[]) {
  const { values } = parseOptions(args, OPTIONS);
  if (!values.from) throw new UsageError('statement needs --from RESULTS (a results.json or its folder)');
  if (values.verify !== undefined && values.out !== undefined) throw new UsageError('--verify checks a statement; it takes no --out');
  if (values.verify === undefined && !values.out) throw new UsageError('statement needs --out DIR (or --verify FILE)');
  return { ...values, from: values.from };
}

export const command: Command = {
  summary: 'write a conformance statement and badge from a run, or verify one',
  options: OPTIONS,
  about: [
    'Writes a conformance statement of a run: conformance.json (suite version, digests of the requirement catalogue and of results.json, the target without credentials, features, seed, counts per family and level, verdict, date), conformance.md for a README, and badge.svg. `run --statement DIR` writes one at the end of a run.',
  ],
  exit: '0 written, or verified; 1 the statement does not match the results; 2 usage error or unusable input.',
  parse,
  async run(args) {
    const values = parse(args);
    if (values.verify !== undefined) {
      const problems = verifyStatement(loadStatement(values.verify), resultsBytes(values.from));
      for (const p of problems) console.log(`statement: ${p}`);
      console.log(
        problems.length
          ? `cms-conformance: the statement does NOT match ${values.from} (${problems.length} difference${problems.length === 1 ? '' : 's'})`
          : `cms-conformance: the statement matches ${values.from}`,
      );
      return problems.length ? 1 : 0;
    }
    const bytes = resultsBytes(values.from);
    const paths = writeStatement(outDirOption(values.out, ''), makeStatement(bytes));
    console.log(`cms-conformance: statement written: ${paths.map((p) => relative(process.cwd(), p) || p).join(', ')}`);
    return 0;
  },
};
