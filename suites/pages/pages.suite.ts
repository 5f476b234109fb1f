/**
 * The page record (PGE-01..04, contract 2.6) wherever pages come back: getPages with every add-on (and,
 * with multichannelling, through the channel), findPages, usage/page and syncableObjects. The pages are
 * the target's fixture, which the suite did not create: every rule is one that holds for any page.
 *
 * Where tests go (test/suites.test.ts): a test sits in its requirement family's folder, except where it judges by a
 * folder's own reading of the fixture: FLD-09's folder on the page's path and FLT-09's language without fallback read
 * the page records this file gathers (`sources`), so they sit here.
 */
import { stepFinding, type CallSpec, type OperationId } from '../../harness/api.ts';
import { finding, type Finding } from '../../harness/checks.ts';
import { brief, partOf, stringsOrdered } from '../../harness/oracles.ts';
import { PerRun, conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { Page } from '../../schemas/types.ts';
import { validateBody } from '../../schemas/validate.ts';
import { isRecord } from '../../harness/rules/answer.ts';
import { mapOf, text } from '../../harness/records.ts';

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

// Contract 2.6: "readOnly: true if fetched read-only, false if fetched in edit mode". No operation that answers pages
// (getPages, findPages, the usage queries) fetches them in edit mode: every page they carry is fetched read-only.
function readOnlyProblems(page: Page): string[] {
  return page.readOnly === false ? ['readOnly false, though no operation answering pages fetches them in edit mode'] : [];
}

// Contract 2.6: "modified: the last version is not the currently published one", with "currentVersion, publishedVersion:
// PageVersion" and PageVersion "number (string)". Where a record names both versions by number, modified says whether they
// differ. A record leaving either out (both are optional) is not judged.
function versionProblems(page: Page): string[] {
  const current = page.currentVersion?.number;
  const published = page.publishedVersion?.number;
  if (typeof page.modified !== 'boolean' || typeof current !== 'string' || typeof published !== 'string') return [];
  if (page.modified === (current !== published)) return [];
  return [
    page.modified
      ? `modified true, yet its currentVersion ${current} is its publishedVersion`
      : `modified false, yet its currentVersion ${current} is not its publishedVersion ${published}`,
  ];
}

/** Whether a queued request of a TimeManagement (`queuedPublish`, `queuedOffline`) is one: a time, a user or a version, not `{at: 0}`. */
function queuedRequest(entry: unknown): boolean {
  if (!isRecord(entry)) return false;
  return (typeof entry.at === 'number' && entry.at > 0) || isRecord(entry.user) || isRecord(entry.version);
}

// Contract 2.6: "planned: time management is set", a time to publish (`at`) or take offline (`offlineAt`), and "queued: in
// queue for publishing or taking offline", which TimeManagement shows as "queuedPublish and queuedOffline". Where a record
// carries its timeManagement (optional), the two flags agree with what it shows. A request entry holding nothing is none (as a
// live object's `deleted: {at: 0}` is no deletion: reference notes), and the time of a queued request may be the time set.
function timeManagementProblems(page: Page): string[] {
  const tm = page.timeManagement;
  if (!isRecord(tm)) return [];
  const at = (value: unknown) => typeof value === 'number' && value > 0;
  const timed = at(tm.at) || at(tm.offlineAt);
  const waiting = queuedRequest(tm.queuedPublish) || queuedRequest(tm.queuedOffline);
  const queuedTime = [tm.queuedPublish, tm.queuedOffline].some((q) => isRecord(q) && at(q.at));
  const problems: string[] = [];
  if (typeof page.planned === 'boolean' && page.planned !== timed && !(page.planned && queuedTime))
    problems.push(`planned ${page.planned}, yet its timeManagement shows ${timed ? 'a time' : 'no time'} to publish or take offline`);
  if (typeof page.queued === 'boolean' && page.queued !== waiting)
    problems.push(`queued ${page.queued}, yet its timeManagement shows ${waiting ? 'a' : 'no'} queued publish or take-offline request`);
  return problems;
}

// Contract 2.6: "path: folder path to the page"; getPages `folder` adds "folder info", the record of the page's folder.
// The folder path to a page ends in the folder the page is in: its last segment names that folder, by its name, by one of
// its names in other languages (nameI18n) or by its publish directory, whose segments a path may be made of. Neither the
// path's presence nor the folder record's own `path` (2.3 gives it no meaning) is required.
function folderPathProblems(page: Page): string[] {
  const folder = page.folder;
  if (!isRecord(folder) || typeof page.path !== 'string' || typeof folder.name !== 'string') return [];
  const path = `/${page.path.replace(/^\/+|\/+$/g, '')}`;
  const dir = text(folder, 'publishDir').replace(/^\/+|\/+$/g, '');
  const names = [folder.name, ...Object.values(mapOf(folder, 'nameI18n')).filter((n): n is string => typeof n === 'string')];
  if (names.some((name) => path.endsWith(`/${name}`)) || (dir !== '' && path.endsWith(`/${dir}`))) return [];
  return [`path ${page.path} does not end in the name of its folder "${folder.name}"`];
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

conformance('PGE-01', 'every page record that operations answer is read-only', async (t) => {
  const all = await sources(t);
  if (!all.some((s) => s.pages.length)) return t.nothingToJudge('the pages folder holds no page');
  t.record(pageProblems(t, all, readOnlyProblems));
});

conformance('PGE-01', 'modified says whether the current version of a page is not its published version', async (t) => {
  const all = await sources(t);
  const findings = pageProblems(t, all, versionProblems);
  const both = (p: Page) => typeof p.currentVersion?.number === 'string' && typeof p.publishedVersion?.number === 'string';
  if (!all.some((s) => s.pages.some((p) => both(p.page) && p.page.modified === true)))
    t.nothingToJudge('no modified page record of the fixture names its current and its published version');
  t.record(findings);
});

conformance('PGE-01', 'planned and queued agree with the time management each page record shows', async (t) => {
  const all = await sources(t);
  const findings = pageProblems(t, all, timeManagementProblems);
  if (!all.some((s) => s.pages.some((p) => isRecord(p.page.timeManagement) && (p.page.planned === true || p.page.queued === true))))
    t.nothingToJudge('no planned or queued page record of the fixture carries its timeManagement');
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
    ...readOnlyProblems(page),
    ...versionProblems(page),
    ...timeManagementProblems(page),
  ];
  const findings = pageProblems(t, all, (page) => [...new Set(asPage(page))], true);
  if (!all.some((s) => s.pages.some((p) => p.variant)))
    t.nothingToJudge('no page record of the fixture has pageVariants or languageVariants');
  t.record(findings);
});

conformance(
  'FLD-09',
  "the folder getPages adds to a page is the folder on the page's path",
  async (t) => {
    const all = await sources(t);
    const findings = pageProblems(t, all, folderPathProblems);
    if (!all.some((s) => s.pages.some((p) => isRecord(p.page.folder) && typeof p.page.path === 'string')))
      return t.nothingToJudge('no page record of getPages folder=true carries both its folder and its path');
    t.judged('folder.getPages', 'folder');
    t.record(findings);
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'every page getPages lists for a language without fallback carries that language',
  async (t) => {
    const all = await sources(t);
    const seen = all.flatMap((s) => s.pages);
    // The language codes to ask for: those the pages and their language variants carry (walk() has put the variants among the
    // pages). Only where no record names one, the keys languageVariants has: what they are is an open choice
    // (language-variants-key), so a language asked by a key is tried, and a refusal of it judges nothing.
    const codes = new Set<string>();
    for (const { page } of seen) if (typeof page.language === 'string') codes.add(page.language);
    const byKey = !codes.size;
    if (byKey) for (const { page } of seen) for (const key of Object.keys(mapOf(page, 'languageVariants'))) codes.add(key);
    if (!codes.size) return t.nothingToJudge('no page record of the fixture names a language');
    // Pages that are language variants of others ("languageVariants: map string to Page") have a language, whether or not their
    // records say it.
    const variants = new Set(seen.filter((s) => s.pointer.includes('/languageVariants/')).map((s) => s.page.id));
    const folder = t.fixture.pagesFolderId!;
    const findings: Finding[] = [];
    let listed = 0;
    for (const language of [...codes].slice(0, 5)) {
      const spec = { path: { id: folder }, query: { recursive: true, language, langfallback: false } };
      const r = byKey ? await t.try('folder.getPages', spec) : await t.call('folder.getPages', spec);
      if (!r.body) continue;
      const pages = r.body.pages ?? [];
      listed += pages.length;
      // getPages "language: language code", without fallback: the pages listed are in that language. Contract 2.6: "language:
      // language code, if the page has a language", "languageName: if the page has a language", both optional: a page carrying
      // another language is not in it; one carrying none may be a page valid in every language (open choice
      // language-languageless), unless it is a language variant; a languageName is a string where carried.
      const bad = pages
        .filter(
          (p) =>
            (p.language !== undefined && p.language !== language) ||
            (p.language === undefined && variants.has(p.id)) ||
            (p.languageName !== undefined && typeof p.languageName !== 'string'),
        )
        .map(
          (p) =>
            `page ${JSON.stringify(p.id)}: language ${JSON.stringify(p.language ?? null)}, languageName ${JSON.stringify(p.languageName ?? null)}` +
            `${p.language === undefined ? ' (a language variant of another page)' : ''}`,
        );
      if (bad.length)
        findings.push(
          finding(
            t.requirement,
            'page',
            `getPages of folder ${folder} with language=${language}&langfallback=false: ${bad.length} of ${pages.length} pages, in that language, do not carry it as their language: ${brief(bad, 5)}`,
            r.exchange,
          ),
        );
    }
    if (!listed) t.nothingToJudge('getPages lists no page for any language the fixture names');
    t.judged('folder.getPages', 'language');
    t.record(findings);
  },
  { operation: 'folder.getPages' },
);
