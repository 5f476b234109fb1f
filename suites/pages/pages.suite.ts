/**
 * The page record (PGE-01..04, contract 2.6) wherever pages come back: getPages with every add-on (and,
 * with multichannelling, through the channel), findPages, usage/page and syncableObjects. The pages are
 * the target's fixture, which the suite did not create: every rule is one that holds for any page.
 */
import { stepFinding, type CallSpec, type OperationId } from '../../harness/api.ts';
import { finding, type Finding } from '../../harness/checks.ts';
import { brief, partOf, stringsOrdered } from '../../harness/oracles.ts';
import { PerRun, conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { Page } from '../../schemas/types.ts';
import { validateBody } from '../../schemas/validate.ts';

/** One page record as it came back: the answer, where in it, and whether it is a variant inside another page. */
interface Seen {
  page: Page;
  pointer: string;
  variant: boolean;
}

/** One answer carrying pages: what was asked, the exchange, and every page record in it (variants included). */
interface Source {
  what: string;
  exchange: Exchange;
  pages: Seen[];
}

/** Every page record in a list, each followed by its variants: `pageVariants` items and `languageVariants` values (PGE-04). */
function walk(pages: readonly Page[] | undefined, base: string): Seen[] {
  const out: Seen[] = [];
  const visit = (page: Page, pointer: string, variant: boolean) => {
    out.push({ page, pointer, variant });
    for (const [i, v] of (Array.isArray(page.pageVariants) ? page.pageVariants : []).entries())
      visit(v, `${pointer}/pageVariants/${i}`, true);
    for (const [lang, v] of Object.entries(page.languageVariants ?? {})) visit(v, `${pointer}/languageVariants/${lang}`, true);
  };
  for (const [i, page] of (pages ?? []).entries()) visit(page, `${base}/${i}`, false);
  return out;
}

/** Ids of the files and images the pages' tags refer to (object tags of getPages objecttags=true). */
function referencedFiles(pages: Seen[]): number[] {
  const ids = new Set<number>();
  for (const { page } of pages) {
    for (const tag of Object.values(page.tags ?? {})) {
      for (const p of Object.values(tag.properties ?? {}))
        for (const id of [p.fileId, p.imageId]) if (typeof id === 'number' && id > 0) ids.add(id);
    }
  }
  return [...ids].slice(0, 20);
}

const ADDONS = ['folder', 'template', 'langvars', 'translationstatus', 'contenttags', 'objecttags'] as const;

/** The page sources and the steps that failed while collecting them (their requirement is filled in by each test). */
interface Collected {
  sources: Source[];
  problems: Finding[];
}

/**
 * Sends the requests that return pages and collects them. getPages and findPages are steps the tests
 * rely on; usage/page ("Parameters: not shown") and syncableObjects are asked about files the pages use
 * and skipped when the target refuses that question.
 */
async function collect(t: ConformanceContext): Promise<Collected> {
  // A target file declaring pages must name the folder (harness/target.ts checks).
  const folder = t.fixture.pagesFolderId!;
  const out: Collected = { sources: [], problems: [] };
  const ask = async (what: string, op: OperationId, spec: CallSpec, optional = false) => {
    const { exchange, body, problem } = await t.try(op, spec);
    if (body) out.sources.push({ what, exchange, pages: walk((body as { pages?: Page[] }).pages, '/pages') });
    else if (!optional) out.problems.push(stepFinding('', what, exchange, problem ?? ''));
  };
  const all = Object.fromEntries(ADDONS.map((a) => [a, true]));
  const channel = t.config.target.features.includes('multichannelling') ? t.fixture.channelNodeId : undefined;
  const queries: Record<string, boolean | number>[] = [
    {},
    ...ADDONS.map((a) => ({ [a]: true })),
    { ...all, recursive: true },
    ...(channel ? [{ ...all, nodeId: channel }] : []),
  ];
  for (const query of queries) {
    const text = Object.entries(query)
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    await ask(`GET /folder/getPages/${folder}${text ? `?${text}` : ''}`, 'folder.getPages', { path: { id: folder }, query });
  }
  const names = out.sources
    .flatMap((s) => s.pages.map((p) => p.page.name))
    .filter((n): n is string => typeof n === 'string' && [...n].length >= 3);
  for (const query of [{}, ...(names[0] ? [{ query: partOf(names[0], 0, 3) }] : [])]) {
    await ask(`GET /folder/findPages?folderId=${folder}${'query' in query ? `&query=${query.query}` : ''}`, 'folder.findPages', {
      query: { folderId: folder, maxItems: -1, ...query },
    });
  }
  const files = referencedFiles(out.sources.flatMap((s) => s.pages));
  if (files.length) {
    await ask(`GET /file/usage/page for files ${files.join(', ')}`, 'file.usage.page', { query: { id: files } }, true);
    if (channel) {
      const query = { ids: files, srcNodeId: channel, dstNodeId: t.fixture.masterNodeId };
      await ask(`GET /file/usage/syncableObjects for files ${files.join(', ')}`, 'file.usage.syncableObjects', { query }, true);
    }
  }
  return out;
}

// The fixture's pages are only read: one collection serves every test of the file.
const collected = new PerRun<Promise<Collected>>();

/** The page sources, collected once; the collection's failed steps are recorded on every test that relies on them. */
async function sources(t: ConformanceContext): Promise<Source[]> {
  const { sources: found, problems } = await collected.get(() => collect(t));
  t.record(problems.map((p) => ({ ...p, requirement: t.requirement })));
  return found;
}

/** Judges every page record (`variants` only: just the variants) of every source; one finding per answer, listing the pages at fault. */
function pageProblems(t: ConformanceContext, all: Source[], problemsOf: (page: Page) => string[], variantsOnly = false): Finding[] {
  const findings: Finding[] = [];
  for (const source of all) {
    const bad = source.pages
      .filter((s) => !variantsOnly || s.variant)
      .map((s) => ({ s, problems: problemsOf(s.page) }))
      .filter((x) => x.problems.length > 0);
    if (bad.length === 0) continue;
    const lines = bad.map(({ s, problems }) => `page ${s.page.id} at ${s.pointer}: ${problems.join(', ')}`);
    findings.push(
      finding(
        t.requirement,
        'page',
        `${source.what}: ${bad.length} of ${source.pages.length} page records: ${brief(lines, 5)}`,
        source.exchange,
      ),
    );
  }
  return findings;
}

// Contract 2.6: "pdate: number, required, int", "readOnly: boolean, required", ... and 2.2 "cdate/edate: number (int), required".
const REQUIRED: readonly [keyof Page, 'integer' | 'boolean'][] = [
  ['pdate', 'integer'],
  ['readOnly', 'boolean'],
  ['online', 'boolean'],
  ['modified', 'boolean'],
  ['queued', 'boolean'],
  ['planned', 'boolean'],
  ['inherited', 'boolean'],
  ['locked', 'boolean'],
  ['lockedSince', 'integer'],
  ['master', 'boolean'],
  ['cdate', 'integer'],
  ['edate', 'integer'],
];

function requiredProblems(page: Page): string[] {
  return REQUIRED.flatMap(([name, type]) => {
    const v = page[name];
    if (v === undefined) return [`${name} missing`];
    const ok = type === 'integer' ? Number.isInteger(v) : typeof v === 'boolean';
    return ok ? [] : [`${name} ${JSON.stringify(v)} is not ${type === 'integer' ? 'an integer' : 'a boolean'}`];
  });
}

// Contract 2.6: "lockedSince: timestamp since when locked, or -1 if not locked".
function lockedSinceProblems(page: Page): string[] {
  return page.locked === false && page.lockedSince !== -1
    ? [`locked false with lockedSince ${JSON.stringify(page.lockedSince)}, expected -1`]
    : [];
}

// Contract 2.6: "alternateUrls: array of string, in alphabetical order" (any reasonable collation).
function alternateUrlsProblems(page: Page): string[] {
  const urls = page.alternateUrls;
  return Array.isArray(urls) && !stringsOrdered(urls, 'asc') ? [`alternateUrls ${JSON.stringify(urls)} not in alphabetical order`] : [];
}

conformance('PGE-01', 'every page record carries the required members with their types', async (t) => {
  const all = await sources(t);
  if (!all.some((s) => s.pages.length)) return t.nothingToJudge('the pages folder holds no page');
  t.record(pageProblems(t, all, requiredProblems));
});

conformance('PGE-02', 'lockedSince is -1 on every page record that is not locked', async (t) => {
  const all = await sources(t);
  const findings = pageProblems(t, all, lockedSinceProblems);
  if (!all.some((s) => s.pages.some((p) => p.page.locked === false))) t.nothingToJudge('no page record of the fixture has locked false');
  t.record(findings);
});

conformance('PGE-03', 'alternateUrls are in alphabetical order on every page record', async (t) => {
  const all = await sources(t);
  const findings = pageProblems(t, all, alternateUrlsProblems);
  if (!all.some((s) => s.pages.some((p) => (p.page.alternateUrls ?? []).length > 1)))
    t.nothingToJudge('no page record of the fixture has two or more alternateUrls');
  t.record(findings);
});

conformance('PGE-04', 'languageVariants values and pageVariants items are page records with every page rule', async (t) => {
  const all = await sources(t);
  // Contract 2.6: "pageVariants: array of Page", "languageVariants: map string to Page": the Page schema and the page rules hold for them.
  const asPage = (page: Page) => [
    ...validateBody('records/Page.json', page, 'PGE-04')
      .filter((f) => f.severity === 'error')
      .map((f) => f.message),
    ...requiredProblems(page),
    ...lockedSinceProblems(page),
    ...alternateUrlsProblems(page),
  ];
  const findings = pageProblems(t, all, (page) => [...new Set(asPage(page))], true);
  if (!all.some((s) => s.pages.some((p) => p.variant)))
    t.nothingToJudge('no page record of the fixture has pageVariants or languageVariants');
  t.record(findings);
});
