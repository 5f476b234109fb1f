/**
 * A conformance statement: what a vendor shows for a run, and what anyone can check against the
 * run's results.json. conformance.json holds the facts (suite version, digests of the requirement
 * catalogue and of results.json, the target without credentials, features, seed, counts per family
 * and level, verdict, date); conformance.md says them for a README; badge.svg shows the verdict.
 * `statement --verify` recomputes the digests and the facts, so an edited results.json or an edited
 * statement shows.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requirements } from '../schemas/requirements.ts';
import type { Counts, Results } from '../schemas/results.ts';
import { makeDir } from './dirs.ts';
import { verdictOf } from './expectations.ts';

/** The files a statement folder holds. */
export const STATEMENT_FILES = { json: 'conformance.json', markdown: 'conformance.md', badge: 'badge.svg' } as const;

const CATALOGUE = fileURLToPath(new URL('../schemas/requirements.json', import.meta.url));

/** A conformance statement (conformance.json). */
export interface Statement {
  statement: 'cms-conformance conformance statement';
  suite: { name: 'cms-conformance'; version: string };
  /** sha256 of the requirement catalogue the suite judged against (schemas/requirements.json). */
  catalogueDigest: string;
  /** sha256 of the results.json the statement is made from, as its bytes were. */
  resultsDigest: string;
  target: { baseUrl: string; embedded: boolean; features: string[] };
  seed: number;
  runs: number;
  /** When the run started (results.json's startedAt) and when the statement was made. */
  runAt: string;
  issuedAt: string;
  counts: Counts & { byFamily: Record<string, Counts>; byLevel: Record<string, Counts> };
  /** The catalogue's requirements that apply to the declared features, and those the run has tests of (--only, --shard leave some out). */
  requirements: { applicable: number; tested: number };
  /** True only for a complete run of every applicable requirement with no failed test (an expected failure is still a failure here). */
  conforms: boolean;
  /** The run's verdict, as the run printed it. */
  verdict: string;
}

/** sha256 of bytes, as `sha256:<hex>`. */
export function digestOf(bytes: Buffer | string): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The digest of this suite's requirement catalogue, as a statement and results.json record it. */
export function catalogueDigest(): string {
  return digestOf(readFileSync(CATALOGUE));
}

/** A base URL as a statement shows it: no user, password, query or fragment, whatever the run was given. */
export function publicBaseUrl(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.href.replace(/\/+$/, '');
  } catch {
    return '<not a URL>';
  }
}

const zero = (): Counts => ({ total: 0, passed: 0, failed: 0, skipped: 0 });

function add(c: Counts, status: 'passed' | 'failed' | 'skipped'): void {
  c.total++;
  c[status]++;
}

/** The statement of a run, from its results.json bytes (the digest is of those bytes, parsed here). */
export function makeStatement(resultsBytes: Buffer, issuedAt = new Date()): Statement {
  const results = JSON.parse(resultsBytes.toString('utf8')) as Results;
  const level = new Map(requirements.map((r) => [r.id, r.level]));
  const byFamily: Record<string, Counts> = {};
  const byLevel: Record<string, Counts> = {};
  const all = zero();
  for (const t of results.tests) {
    add(all, t.status);
    add((byFamily[t.family] ??= zero()), t.status);
    add((byLevel[level.get(t.requirement) ?? 'unknown'] ??= zero()), t.status);
  }
  const features = new Set(results.target.features);
  const applicable = requirements.filter((r) => r.feature === null || features.has(r.feature));
  const tested = new Set(results.tests.map((t) => t.requirement));
  const coverage = { applicable: applicable.length, tested: applicable.filter((r) => tested.has(r.id)).length };
  const complete = !results.interrupted && !results.runErrors?.length && coverage.tested === coverage.applicable;
  return {
    statement: 'cms-conformance conformance statement',
    suite: { name: 'cms-conformance', version: results.tool.version },
    catalogueDigest: catalogueDigest(),
    resultsDigest: digestOf(resultsBytes),
    target: {
      baseUrl: publicBaseUrl(results.target.baseUrl),
      embedded: results.target.embedded,
      features: [...results.target.features].sort(),
    },
    seed: results.seed,
    runs: results.runs,
    runAt: results.startedAt,
    issuedAt: issuedAt.toISOString(),
    counts: { ...all, byFamily, byLevel },
    requirements: coverage,
    conforms: complete && all.failed === 0 && all.passed > 0,
    verdict: verdictOf(results).text,
  };
}

/** The badge's right-hand text: "conforms, 316/316" or "3 failures". */
export function badgeText(s: Statement): string {
  const judged = s.counts.passed + s.counts.failed;
  if (s.conforms) return `conforms, ${s.counts.passed}/${judged}`;
  if (s.counts.failed) return `${s.counts.failed} failure${s.counts.failed === 1 ? '' : 's'}`;
  if (s.requirements.tested < s.requirements.applicable)
    return `partial run, ${s.requirements.tested}/${s.requirements.applicable} requirements`;
  return 'no verdict';
}

const escXml = (s: string): string => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Widths from Verdana 11px's average advance, as the common badge services do: text never overflows its box.
const textWidth = (s: string): number => Math.ceil(s.length * 7) + 10;

/** The SVG badge: "CMS contract" and the verdict, green when it conforms, red otherwise. */
export function badgeSvg(s: Statement): string {
  const left = 'CMS contract';
  const right = badgeText(s);
  const lw = textWidth(left);
  const rw = textWidth(right);
  const colour = s.conforms ? '#2e7d32' : '#c62828';
  const label = `${left}: ${right}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img" aria-label="${escXml(label)}">
<title>${escXml(label)}</title>
<rect width="${lw}" height="20" fill="#555"/>
<rect x="${lw}" width="${rw}" height="20" fill="${colour}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="14">${escXml(left)}</text>
<text x="${lw + rw / 2}" y="14">${escXml(right)}</text>
</g>
</svg>
`;
}

/** The statement in Markdown, for a vendor's README. */
export function statementMarkdown(s: Statement): string {
  const rows = (by: Record<string, Counts>) =>
    Object.entries(by)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, c]) => `| ${k} | ${c.passed} | ${c.failed} | ${c.skipped} |`)
      .join('\n');
  return `# CMS contract conformance

![${badgeText(s)}](${STATEMENT_FILES.badge})

**${s.conforms ? 'Conforms' : s.counts.failed ? 'Does not conform' : 'No statement of conformance'}**: ${s.verdict}${
    s.requirements.tested < s.requirements.applicable ? ' (a partial run: it conforms only with every requirement tested)' : ''
  }.

- Target: ${s.target.baseUrl}${s.target.embedded ? ' (the bundled reference server)' : ''}
- Features declared: ${s.target.features.join(', ') || 'none'}
- Suite: ${s.suite.name} ${s.suite.version}, requirement catalogue ${s.catalogueDigest}
- Run: seed ${s.seed}, ${s.runs} property runs, started ${s.runAt}
- Results: results.json ${s.resultsDigest}
- Requirements: ${s.requirements.tested} of the ${s.requirements.applicable} that apply to the declared features have tests in this run
- Tests: ${s.counts.passed} passed, ${s.counts.failed} failed, ${s.counts.skipped} skipped (features not declared) of ${s.counts.total}

| level | passed | failed | skipped |
|---|---|---|---|
${rows(s.counts.byLevel)}

| family | passed | failed | skipped |
|---|---|---|---|
${rows(s.counts.byFamily)}

Check it: \`npx cms-conformance statement --verify ${STATEMENT_FILES.json} --from results.json\` recomputes the
digests and the counts from the run's results.json and exits 1 on any difference.
`;
}

/** Writes conformance.json, conformance.md and badge.svg into a folder; returns their paths. */
export function writeStatement(dir: string, s: Statement): string[] {
  makeDir(dir);
  const files: [string, string][] = [
    [STATEMENT_FILES.json, `${JSON.stringify(s, null, 2)}\n`],
    [STATEMENT_FILES.markdown, statementMarkdown(s)],
    [STATEMENT_FILES.badge, badgeSvg(s)],
  ];
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
}

/**
 * What differs between a statement and the results it names: each a line, none when it holds. The
 * digests are recomputed, and every fact the statement draws from the results is drawn again, so a
 * statement edited by hand shows even where its digest was left alone.
 */
export function verifyStatement(statement: Statement, resultsBytes: Buffer): string[] {
  const again = makeStatement(resultsBytes, new Date(statement.issuedAt));
  const out: string[] = [];
  if (statement.resultsDigest !== again.resultsDigest)
    out.push(`results digest: the statement says ${statement.resultsDigest}, results.json is ${again.resultsDigest}`);
  if (statement.catalogueDigest !== again.catalogueDigest)
    out.push(
      `catalogue digest: the statement says ${statement.catalogueDigest}, this suite's catalogue is ${again.catalogueDigest} ` +
        '(verify with the suite version the statement names)',
    );
  for (const key of ['suite', 'target', 'seed', 'runs', 'runAt', 'counts', 'requirements', 'conforms', 'verdict'] as const) {
    if (JSON.stringify(statement[key]) !== JSON.stringify(again[key]))
      out.push(`${key}: the statement says ${JSON.stringify(statement[key])}, results.json gives ${JSON.stringify(again[key])}`);
  }
  return out;
}
