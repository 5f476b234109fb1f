/**
 * Parameter coverage (issue 31 item 5) as `requirements --coverage` prints it and report.html shows it:
 * for every parameter of every operation, how many requests of a run sent a non-default value and
 * which tests judged its effect, or the contract's word that it has none (schemas/parameter-effects.json);
 * a parameter that is neither is NOT JUDGED (a known gap when schemas/parameter-gaps.json names it).
 */
import {
  allParameters,
  parameterEffects,
  parameterGaps,
  parameterKey,
  type OperationParameter,
  type ParameterEffect,
  type ParameterGap,
} from '../schemas/parameters.ts';
import type { Results } from '../schemas/results.ts';
import { escapeHtml as esc } from './escape-html.ts';

/** One parameter of one operation in a run. */
export interface ParameterCoverage extends OperationParameter {
  /** Requests of the run that sent a non-default value. */
  sent: number;
  /** The tests that judged its effect, by id. */
  judgedBy: string[];
  /** The no-effect catalogue's entry, when it lists the parameter. */
  effect?: ParameterEffect;
  /** The known gap naming it, when one does. */
  gap?: ParameterGap;
}

/** What coverage says of a parameter: judged by a test, without an effect in the contract, or not judged. */
export type ParameterVerdict = 'judged' | 'no effect' | 'NOT JUDGED';

/** The verdict of one parameter: a test's judgement wins over the catalogue, which would then be wrong to list it. */
export function parameterVerdict(c: ParameterCoverage): ParameterVerdict {
  if (c.judgedBy.length) return 'judged';
  return c.effect ? 'no effect' : 'NOT JUDGED';
}

/** The coverage of every parameter of the catalogue in a run (without results: nothing sent, nothing judged). */
export function parameterCoverage(results?: Results): ParameterCoverage[] {
  const sent = new Map<string, number>();
  const judgedBy = new Map<string, string[]>();
  for (const t of results?.tests ?? []) {
    for (const [key, n] of Object.entries(t.parameters?.sent ?? {})) sent.set(key, (sent.get(key) ?? 0) + n);
    for (const key of t.parameters?.judged ?? []) judgedBy.set(key, [...(judgedBy.get(key) ?? []), t.id]);
  }
  const effects = new Map(parameterEffects.map((e) => [parameterKey(e.operation, e.parameter), e]));
  const gaps = new Map(parameterGaps.map((g) => [parameterKey(g.operation, g.parameter), g]));
  return allParameters().map((p) => {
    const key = parameterKey(p.operation, p.name);
    const effect = effects.get(key);
    const gap = gaps.get(key);
    return { ...p, sent: sent.get(key) ?? 0, judgedBy: judgedBy.get(key) ?? [], ...(effect ? { effect } : {}), ...(gap ? { gap } : {}) };
  });
}

/** Whether a run recorded parameter use at all (results written before it did, or by the proxy, did not). */
export function recordsParameters(results: Results | undefined): boolean {
  return !!results?.tests.some((t) => t.parameters);
}

/** A list of test ids in a few words: the first two and a count of the rest. */
function tests(ids: readonly string[]): string {
  return ids.length > 2 ? `${ids.slice(0, 2).join('; ')} +${ids.length - 2} more` : ids.join('; ');
}

/** What the last column says: the judging tests, the catalogue's section, or why it is not judged. */
function detail(c: ParameterCoverage): string {
  const verdict = parameterVerdict(c);
  if (verdict === 'judged') return tests(c.judgedBy);
  if (verdict === 'no effect') return `${c.effect!.effect} (contract ${c.effect!.section}: ${c.effect!.sentence})`;
  return c.gap ? `known gap: ${c.gap.why}` : 'neither judged by a test nor listed as without effect';
}

/** The coverage as a plain-text table, one row per parameter, operations in catalogue order. */
export function renderParameterTable(coverage: readonly ParameterCoverage[]): string {
  const rows = [
    ['operation', 'parameter', 'in', 'sent', 'verdict', 'judged by, or why not'],
    ...coverage.map((c) => [c.operation, c.name, c.in, String(c.sent), parameterVerdict(c), detail(c)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** The parameters neither judged nor listed as without effect: each is a check missing, or a catalogue entry. */
export function unjudgedParameters(coverage: readonly ParameterCoverage[]): ParameterCoverage[] {
  return coverage.filter((c) => parameterVerdict(c) === 'NOT JUDGED');
}

/** One line counting the verdicts, for the end of `requirements --coverage` and the report's section head. */
export function parameterSummary(coverage: readonly ParameterCoverage[]): string {
  const count = (v: ParameterVerdict) => coverage.filter((c) => parameterVerdict(c) === v).length;
  const open = unjudgedParameters(coverage);
  const known = open.filter((c) => c.gap).length;
  return (
    `${coverage.length} parameters: ${count('judged')} judged, ${count('no effect')} without effect in the contract, ` +
    `${open.length} NOT JUDGED${open.length ? ` (${known} of them known gaps)` : ''}`
  );
}

const badgeClass: Record<ParameterVerdict, string> = { judged: 'passed', 'no effect': 'skipped', 'NOT JUDGED': 'failed' };

/** The report's parameter section: every parameter with its requests, the tests that judged it, or why none did. */
export function parameterSectionHtml(results: Results): string {
  if (!recordsParameters(results))
    return '<section id="parameters"><h2>Parameters</h2><p class="muted">This run recorded no parameter use.</p></section>';
  const coverage = parameterCoverage(results);
  const rows = coverage.map((c) => {
    const verdict = parameterVerdict(c);
    const why =
      verdict === 'judged'
        ? c.judgedBy.map((id) => `<span class="tid">${esc(id)}</span>`).join('<br>')
        : verdict === 'no effect'
          ? `${esc(c.effect!.effect)}: §${esc(c.effect!.section)} <q>${esc(c.effect!.sentence)}</q>${c.effect!.why ? ` <span class="muted">(${esc(c.effect!.why)})</span>` : ''}`
          : esc(c.gap ? `known gap: ${c.gap.why}` : 'neither judged by a test nor listed as without effect');
    return (
      `<tr><td><code>${esc(c.operation)}</code></td><td><code>${esc(c.name)}</code></td><td>${c.in}</td>` +
      `<td class="num">${c.sent}</td><td><span class="badge ${badgeClass[verdict]}">${esc(verdict)}</span></td><td>${why}</td></tr>`
    );
  });
  return `<section id="parameters"><h2>Parameters (${esc(parameterSummary(coverage))})</h2>
<p class="muted">Every query parameter and JSON body member of the operation catalogue: the requests that sent a value other than its default, and the tests that judged its effect (compared answers that differ by it), or the contract's word that it has none.</p>
<table><thead><tr><th>operation</th><th>parameter</th><th>in</th><th>sent</th><th>verdict</th><th>judged by, or why not</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></section>`;
}
