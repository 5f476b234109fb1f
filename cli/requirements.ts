/** `cms-conformance requirements`: lists the requirement catalogue as a table or as JSON, optionally with coverage. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ReportInputError, loadResults } from '../reports/results.ts';
import type { Results } from '../schemas/results.ts';
import { requirements, type Requirement } from '../schemas/requirements.ts';
import { UsageError, parseOptions, type Command } from './args.ts';
import { collectTests, projectRoot, type DeclaredTest } from './collect.ts';

/** One column of the table: its header and how a requirement fills it. */
interface Column {
  header: string;
  cell(req: Requirement): string;
}

// The table's columns, in order; the statement stays last because it is the only unbounded one.
const baseColumns: Column[] = [
  { header: 'id', cell: (r) => r.id },
  { header: 'level', cell: (r) => r.level },
  { header: 'feature', cell: (r) => r.feature ?? '-' },
  { header: 'section', cell: (r) => r.section },
  { header: 'statement', cell: (r) => r.statement },
];

/** Per requirement: the tests carrying it and, when a results file is known, how they last ended. */
export interface Coverage {
  tests: DeclaredTest[];
  last: Record<string, number>;
}

/** Coverage of every requirement from the declared tests and an optional results.json. */
export function coverageOf(tests: readonly DeclaredTest[], results?: Results): Map<string, Coverage> {
  const byId = new Map<string, Coverage>(requirements.map((r) => [r.id, { tests: [], last: {} }]));
  for (const t of tests) byId.get(t.requirement)?.tests.push(t);
  for (const r of results?.tests ?? []) {
    const c = byId.get(r.requirement);
    if (c) c.last[r.status] = (c.last[r.status] ?? 0) + 1;
  }
  return byId;
}

/** The MUST requirements no test carries: an error of the project's own tests. */
export function untestedMusts(coverage: ReadonlyMap<string, Coverage>): string[] {
  return requirements.filter((r) => r.level === 'MUST' && !coverage.get(r.id)?.tests.length).map((r) => r.id);
}

/** Renders requirements as a plain-text table with padded columns (with coverage columns when given). */
export function renderTable(reqs: readonly Requirement[], coverage?: ReadonlyMap<string, Coverage>): string {
  const columns: Column[] = coverage
    ? [
        ...baseColumns.slice(0, -1),
        { header: 'tests', cell: (r) => String(coverage.get(r.id)?.tests.length ?? 0) },
        {
          header: 'last result',
          cell: (r) =>
            Object.entries(coverage.get(r.id)?.last ?? {})
              .map(([k, n]) => `${n} ${k}`)
              .join(', ') || '-',
        },
        baseColumns[baseColumns.length - 1]!,
      ]
    : baseColumns;
  const rows = [columns.map((c) => c.header), ...reqs.map((r) => columns.map((c) => c.cell(r)))];
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
}

export const command: Command = {
  summary: 'list the requirement catalogue (id, level, feature, section, statement)',
  usage: [
    'usage: cms-conformance requirements [--family F]... [--json] [--coverage [--results FILE]]',
    '',
    '  --family F   only the requirements of family F (OP, ENV, PAG, SRT, FLT, WST, DEL, UPL, FIL,',
    '               FLD, MCH, USE, PGE, NEG); repeatable; case-insensitive',
    '  --json       print the selected requirements as a JSON array',
    '  --coverage   add the tests that carry each requirement and their last result (from',
    '               --results FILE, default reports/out/results.json when present); exits 1 when',
    '               a MUST requirement has no test',
  ].join('\n'),
  async run(args) {
    const { values } = parseOptions(args, {
      family: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      coverage: { type: 'boolean', default: false },
      results: { type: 'string' },
    });
    const known = [...new Set(requirements.map((r) => r.family))];
    const families = (values.family ?? []).map((f) => f.toUpperCase());
    const unknown = families.filter((f) => !known.includes(f));
    if (unknown.length) throw new UsageError(`unknown family ${unknown.join(', ')} (known: ${known.join(', ')})`);
    const selected = families.length ? requirements.filter((r) => families.includes(r.family)) : requirements;
    if (!values.coverage) {
      console.log(values.json ? JSON.stringify(selected, null, 2) : renderTable(selected));
      return 0;
    }
    const resultsFile = values.results ?? join(projectRoot, 'reports/out/results.json');
    let results: Results | undefined;
    if (values.results || existsSync(resultsFile)) {
      try {
        results = loadResults(resultsFile);
      } catch (err) {
        if (err instanceof ReportInputError) throw new UsageError(err.message);
        throw err;
      }
    }
    const coverage = coverageOf(await collectTests(), results);
    if (values.json) {
      console.log(
        JSON.stringify(
          selected.map((r) => ({ ...r, tests: coverage.get(r.id)!.tests.map((t) => t.id), last: coverage.get(r.id)!.last })),
          null,
          2,
        ),
      );
    } else {
      console.log(renderTable(selected, coverage));
    }
    const chosen = new Set(selected.map((r) => r.id));
    const missing = untestedMusts(coverage).filter((id) => chosen.has(id));
    if (missing.length) console.error(`cms-conformance: MUST requirements without a test: ${missing.join(', ')}`);
    return missing.length ? 1 : 0;
  },
};
