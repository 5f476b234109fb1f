/** `cms-conformance requirements`: lists the requirement catalogue as a table or as JSON. */
import { UsageError, parseOptions, type Command } from './args.ts';
import { requirements, type Requirement } from '../schemas/requirements.ts';

/** One column of the table: its header and how a requirement fills it. */
interface Column {
  header: string;
  cell(req: Requirement): string;
}

// The table's columns, in order; the statement stays last because it is the only unbounded one.
// A coverage column (which tests exercise each id) belongs here, before the statement.
const columns: Column[] = [
  { header: 'id', cell: (r) => r.id },
  { header: 'level', cell: (r) => r.level },
  { header: 'feature', cell: (r) => r.feature ?? '-' },
  { header: 'section', cell: (r) => r.section },
  { header: 'statement', cell: (r) => r.statement },
];

/** Renders requirements as a plain-text table with padded columns. */
export function renderTable(reqs: readonly Requirement[]): string {
  const rows = [columns.map((c) => c.header), ...reqs.map((r) => columns.map((c) => c.cell(r)))];
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '))
    .join('\n');
}

export const command: Command = {
  summary: 'list the requirement catalogue (id, level, feature, section, statement)',
  usage: [
    'usage: cms-conformance requirements [--family F]... [--json]',
    '',
    '  --family F   only the requirements of family F (OP, ENV, PAG, SRT, FLT, WST, DEL, UPL, FIL,',
    '               FLD, MCH, USE, PGE, NEG); repeatable; case-insensitive',
    '  --json       print the selected requirements as a JSON array',
  ].join('\n'),
  async run(args) {
    const { values } = parseOptions(args, {
      family: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
    });
    const known = [...new Set(requirements.map((r) => r.family))];
    const families = (values.family ?? []).map((f) => f.toUpperCase());
    const unknown = families.filter((f) => !known.includes(f));
    if (unknown.length) throw new UsageError(`unknown family ${unknown.join(', ')} (known: ${known.join(', ')})`);
    const selected = families.length ? requirements.filter((r) => families.includes(r.family)) : requirements;
    console.log(values.json ? JSON.stringify(selected, null, 2) : renderTable(selected));
    return 0;
  },
};
