/**
 * Folders (FLD), the page listings of a folder: getPages' add-ons (FLD-09) and getExternalLinks (FLD-10), on the fixture's
 * pages, judged by metamorphic relations.
 */
import { SetupError } from '../../harness/api.ts';
import { finding } from '../../harness/checks.ts';
import { brief, idsOf } from '../../harness/oracles.ts';
import { flag } from '../../harness/records.ts';
import { isRecord } from '../../harness/rules/answer.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { Page, Tag } from '../../schemas/types.ts';

/** The fixture's pages folder; the pages feature promises one. */
function pagesFolder(t: ConformanceContext): number {
  const id = t.fixture.pagesFolderId;
  if (id !== undefined) return id;
  t.record([finding(t.requirement, 'step', 'the target declares pages but its fixture names no pagesFolderId')]);
  throw new SetupError('no pages folder in the fixture');
}

/** The pages of the fixture's pages folder with some add-ons, or undefined (the step is recorded). */
async function pagesWith(
  t: ConformanceContext,
  query: Record<string, boolean>,
): Promise<{ pages: Page[]; exchange: Exchange } | undefined> {
  const r = await t.call('folder.getPages', { path: { id: pagesFolder(t) }, query });
  return r.body ? { pages: r.body.pages ?? [], exchange: r.exchange } : undefined;
}

conformance(
  'FLD-09',
  'getPages folder and template add each page its folder and template',
  async (t) => {
    const with_ = await pagesWith(t, { recursive: true, folder: true, template: true });
    if (!with_) return;
    if (!with_.pages.length) return t.nothingToJudge('the pages folder and its sub-folders hold no page', with_.exchange);
    t.judged('folder.getPages', 'folder', 'template');
    // "getPages `folder`, `template` ... add the named information to each page."
    for (const p of with_.pages) {
      const wrong: string[] = [];
      if (!isRecord(p.folder) || typeof p.folder.id !== 'number' || (p.folderId !== undefined && p.folder.id !== p.folderId))
        wrong.push(`folder ${JSON.stringify(p.folder && { id: p.folder.id })} (folderId ${p.folderId})`);
      if (!isRecord(p.template) || typeof p.template.id !== 'number' || (p.templateId !== undefined && p.template.id !== p.templateId))
        wrong.push(`template ${JSON.stringify(p.template && { id: p.template.id })} (templateId ${p.templateId})`);
      if (wrong.length)
        t.record([
          finding(
            'FLD-09',
            'addon',
            `getPages folder=true template=true: page ${p.id} "${p.name}" carries ${wrong.join(' and ')}`,
            with_.exchange,
          ),
        ]);
    }
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLD-09',
  'getPages langvars and translationstatus add language variants and translation status',
  async (t) => {
    const with_ = await pagesWith(t, { langvars: true, translationstatus: true });
    const outOfSync = await pagesWith(t, { insync: false });
    if (!with_ || !outOfSync) return;
    // The pages insync=false lists must carry a status out of sync: a listing that ignored it would list pages in sync.
    t.judged('folder.getPages', 'langvars', 'translationstatus', 'insync');
    let evidence = 0;
    // Pages of one content set in several languages are each other's language variants.
    const sets = new Map<number, Page[]>();
    for (const p of with_.pages)
      if (p.language !== undefined && typeof p.contentSetId === 'number')
        sets.set(p.contentSetId, [...(sets.get(p.contentSetId) ?? []), p]);
    for (const p of with_.pages) {
      const variants = p.languageVariants;
      const others = (typeof p.contentSetId === 'number' && p.language !== undefined ? (sets.get(p.contentSetId) ?? []) : []).filter(
        (o) => o !== p,
      );
      if (variants === undefined && !others.length) continue;
      evidence++;
      // "`langvars` ... add[s] the named information": languageVariants, "map string to Page", naming the page's variants. What the
      // keys are is not shown (open choice language-variants-key): the language code, or its id.
      const bad = isRecord(variants) ? Object.entries(variants).filter(([, v]) => !isRecord(v) || typeof v.id !== 'number') : [];
      const listed = isRecord(variants) ? Object.values(variants).map((v) => (isRecord(v) ? v.id : undefined)) : [];
      const missing = others.filter((o) => !listed.includes(o.id));
      if (!isRecord(variants) || bad.length || missing.length) {
        t.record([
          finding(
            'FLD-09',
            'addon',
            `getPages langvars=true: page ${p.id} "${p.name}" (language ${p.language}) ` +
              `carries languageVariants ${JSON.stringify(variants === undefined ? null : Object.keys(variants))}` +
              `${bad.length ? `, entries that are not page records: ${bad.map(([l]) => l).join(', ')}` : ''}` +
              `${missing.length ? `, without its variants ${brief(missing.map((o) => `${o.id} ${o.language}`))}` : ''}`,
            with_.exchange,
          ),
        ]);
      }
    }
    // Pages "not in sync with their translation masters": `translationstatus` adds the status of each, which says so, as insync
    // itself does ("Setting it adds translation status"). Whether a page that is no translation counts as out of sync is not shown:
    // such a page, listed with a status in neither answer, is not judged.
    for (const listed of outOfSync.pages) {
      const id = listed.id;
      const p = with_.pages.find((x) => x.id === id);
      const ts = p?.translationStatus;
      if (p && ts === undefined && listed.translationStatus === undefined) continue;
      evidence++;
      if (!p || !isRecord(ts) || flag(ts, 'inSync'))
        t.record([
          finding(
            'FLD-09',
            'addon',
            `getPages translationstatus=true: page ${id}, listed with insync=false, ` +
              `carries translationStatus ${JSON.stringify(ts ?? null)} (expected inSync false)`,
            with_.exchange,
          ),
        ]);
    }
    // The pages the target file names as translations (fixture.translationPageIds): a translation has a translation status, and
    // `translationstatus` "add[s] the named information to each page".
    for (const id of t.fixture.translationPageIds ?? []) {
      evidence++;
      const p = with_.pages.find((x) => x.id === id);
      if (!p || !isRecord(p.translationStatus))
        t.record([
          finding(
            'FLD-09',
            'addon',
            `getPages translationstatus=true: page ${id}, which the target file names as a translation (fixture.translationPageIds), ` +
              (!p
                ? 'is not listed'
                : p.translationStatus === undefined
                  ? 'carries no translationStatus'
                  : `carries translationStatus ${JSON.stringify(p.translationStatus)}`),
            with_.exchange,
          ),
        ]);
    }
    if (!evidence) t.nothingToJudge('the pages folder has no page with a language and none out of sync', with_.exchange);
  },
  { operation: 'folder.getPages' },
);

/** The tags of each page of a listing, by page id, keeping those of one type. */
function tagsByPage(pages: Page[], type: Tag['type']): Map<number, string[]> {
  return new Map(
    pages.map((p) => [
      p.id ?? -1,
      Object.entries(p.tags ?? {})
        .filter(([, tag]) => tag.type === type)
        .map(([name]) => name)
        .sort(),
    ]),
  );
}

conformance(
  'FLD-09',
  'getPages contenttags and objecttags add the tags of each page',
  async (t) => {
    const [content, object, both] = await Promise.all([
      pagesWith(t, { contenttags: true }),
      pagesWith(t, { objecttags: true }),
      pagesWith(t, { contenttags: true, objecttags: true }),
    ]);
    if (!content || !object || !both) return;
    if (!both.pages.length) return t.nothingToJudge('the pages folder holds no page', both.exchange);
    t.judged('folder.getPages', 'contenttags', 'objecttags');
    // "`contenttags`, `objecttags` add the named information to each page": the tags of each, the same content tags whether or not
    // object tags are asked for too, and the other way round. A page without tags may leave its empty map out (2.1).
    for (const [label, list, type] of [
      ['contenttags=true', content, 'CONTENTTAG'],
      ['objecttags=true', object, 'OBJECTTAG'],
    ] as const) {
      const alone = tagsByPage(list.pages, type);
      const together = tagsByPage(both.pages, type);
      for (const [id, names] of together) {
        if (JSON.stringify(alone.get(id) ?? []) !== JSON.stringify(names))
          t.record([
            finding(
              'FLD-09',
              'addon',
              `page ${id}: getPages ${label} adds ${type} tags ${brief(alone.get(id) ?? [])}, but with both flags ${brief(names)}`,
              list.exchange,
            ),
          ]);
      }
    }
    // The external links of a page are found in its tags (FLD-10 reads them so): asking for both kinds must bring the tags that
    // hold every link getExternalLinks lists for the page.
    const links = await t.call('folder.getExternalLinks', { path: { folderId: pagesFolder(t) } });
    for (const entry of links.body?.pages ?? []) {
      const page = both.pages.find((p) => p.id === entry.pageId);
      const tagged = stringsIn(page?.tags);
      const untagged = (entry.links ?? []).filter((link) => !tagged.some((value) => value.includes(link)));
      if (page && untagged.length)
        t.record([
          finding(
            'FLD-09',
            'addon',
            `getPages contenttags=true objecttags=true: page ${page.id} "${page.name}" has external links ` +
              `${brief(untagged)} that none of the tags it carries holds`,
            both.exchange,
          ),
        ]);
    }
  },
  { operation: 'folder.getPages' },
);

/** Every string anywhere in a value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isRecord(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}

/**
 * The external links each page's tags hold, by page id: an http(s) address that is the whole value of a
 * property of a URL-type part and refers to no page. The contract names no part type; a type seen holding a
 * page id is a URL-type part ("pages, files and images referenced in URL-type parts", 4.3), so only those count.
 */
function linksHeld(pages: readonly Page[]): Map<number, string[]> {
  const props = (p: Page) => Object.values(p.tags ?? {}).flatMap((tag) => Object.values(tag.properties ?? {}));
  const internal = (pageId: number | undefined) => typeof pageId === 'number' && pageId > 0;
  const urlTypes = new Set(
    pages
      .flatMap(props)
      .filter((q) => internal(q.pageId) && q.type !== undefined)
      .map((q) => q.type),
  );
  const held = new Map<number, string[]>();
  for (const page of pages) {
    const links = props(page)
      .filter((q) => urlTypes.has(q.type) && !internal(q.pageId))
      .map((q) => q.stringValue ?? '')
      .filter((v) => /^https?:\/\/[^/\s]\S*$/i.test(v));
    if (page.id !== undefined && links.length) held.set(page.id, [...new Set(links)]);
  }
  return held;
}

conformance('FLD-10', 'getExternalLinks lists the web links of the folder pages and recursive adds those of sub-folders', async (t) => {
  const folder = pagesFolder(t);
  const [flat, recursive, pagesFlat, pagesDeep, subs] = await Promise.all([
    t.call('folder.getExternalLinks', { path: { folderId: folder } }),
    t.call('folder.getExternalLinks', { path: { folderId: folder }, query: { recursive: true } }),
    t.call('folder.getPages', { path: { id: folder } }),
    t.call('folder.getPages', { path: { id: folder }, query: { recursive: true, contenttags: true, objecttags: true } }),
    t.call('folder.getFolders', { path: { id: folder }, query: { recursive: true } }),
  ]);
  if (!flat.body || !recursive.body || !pagesFlat.body || !pagesDeep.body || !subs.body) return;
  const deepPages = pagesDeep.body.pages ?? [];
  const held = linksHeld(deepPages);
  if (!held.size && !(recursive.body.pages ?? []).some((e) => (e.links ?? []).length))
    return t.nothingToJudge('no page of the pages folder or its sub-folders has an external link', recursive.exchange);
  const key = (links: string[] | undefined) => JSON.stringify([...(links ?? [])].sort());
  const deep = new Map((recursive.body.pages ?? []).map((e) => [e.pageId, key(e.links)]));
  // "external links from all pages in the folder": every link a page's tags hold is listed for that page.
  const flatIds = new Set(idsOf(pagesFlat.body.pages));
  for (const [label, answer, inScope] of [
    ['', flat, (id: number) => flatIds.has(id)],
    [' recursive', recursive, () => true],
  ] as const) {
    for (const [pageId, links] of held) {
      if (!inScope(pageId)) continue;
      const listed = (answer.body!.pages ?? []).filter((e) => e.pageId === pageId).flatMap((e) => e.links ?? []);
      const lost = links.filter((link) => !listed.includes(link));
      if (lost.length)
        t.record([
          finding(
            'FLD-10',
            'held',
            `getExternalLinks${label} of folder ${folder} leaves out ${brief(lost.map((l) => JSON.stringify(l)))} of page ${pageId}, ` +
              `a web address in a URL-type part of its tags that refers to no page; it lists ${key(listed)} for the page`,
            answer.exchange,
          ),
        ]);
    }
  }
  // "lists, per page, the external links of pages in the folder"
  for (const [label, answer, pages] of [
    ['', flat, pagesFlat.body.pages ?? []],
    [' recursive', recursive, deepPages],
  ] as const) {
    for (const entry of answer.body!.pages ?? []) {
      const page = pages.find((p) => p.id === entry.pageId);
      if (!page) {
        t.record([
          finding(
            'FLD-10',
            'page',
            `getExternalLinks${label} of folder ${folder} lists page ${entry.pageId}, which getPages${label} does not list there`,
            answer.exchange,
          ),
        ]);
        continue;
      }
      if (entry.pageName !== undefined && entry.pageName !== page.name)
        t.record([
          finding(
            'FLD-10',
            'page',
            `getExternalLinks${label}: page ${entry.pageId} is named ${JSON.stringify(entry.pageName)}, ` +
              `getPages says ${JSON.stringify(page.name)}`,
            answer.exchange,
          ),
        ]);
      const tagged = stringsIn(deepPages.find((p) => p.id === entry.pageId)?.tags);
      for (const link of entry.links ?? []) {
        // A link is found in the page: a value of its tags, when the server gives tags. Which addresses count as external (web
        // addresses only, or any that refers to no page) is not shown: open choice external-links-schemes.
        if (tagged.length && !tagged.some((s) => s.includes(link)))
          t.record([
            finding(
              'FLD-10',
              'link',
              `getExternalLinks${label}: page ${entry.pageId} lists ${JSON.stringify(link)}, found in none of its tags`,
              answer.exchange,
            ),
          ]);
      }
    }
  }
  // "`recursive` includes sub-folders": the folder's own entries and those of every sub-folder, unchanged.
  t.judged('folder.getExternalLinks', 'recursive');
  const parts: [string, typeof flat][] = [[`folder ${folder}`, flat]];
  for (const sub of idsOf(subs.body.folders).slice(0, 10))
    parts.push([`sub-folder ${sub}`, await t.call('folder.getExternalLinks', { path: { folderId: sub } })]);
  for (const [label, part] of parts) {
    for (const entry of part.body?.pages ?? []) {
      // A page may be listed without links; only its links must reappear.
      if (!(entry.links ?? []).length) continue;
      if (deep.get(entry.pageId) !== key(entry.links))
        t.record([
          finding(
            'FLD-10',
            'recursive',
            `getExternalLinks recursive of folder ${folder} gives page ${entry.pageId} the links ${deep.get(entry.pageId) ?? 'none'}; ` +
              `getExternalLinks of ${label} gives ${key(entry.links)}`,
            recursive.exchange,
          ),
        ]);
    }
  }
});
