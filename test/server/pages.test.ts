/** Pages and templates: getPages filters (FLT-09) and add-ons (FLD-09), the page record (PGE), external links, templates. */
import { describe, expect, it } from 'vitest';
import type { State } from '../../server/state.ts';
import { call, freshState, ids, named, names, NOW_MS, refused, type Body } from './helpers.ts';

const getPages = async (s: State, query: Record<string, unknown> = {}, id = ids(s).pagesFolderId) =>
  (await call(s, 'folder.getPages', { path: { id }, query: query as never })).pages as Body[];

describe('getPages filters', () => {
  it('FLT-09: online, modified, planned and queued restrict as stated and partition the list', async () => {
    const s = freshState();
    const all = await getPages(s);
    for (const flag of ['online', 'modified', 'planned', 'queued']) {
      const yes = await getPages(s, { [flag]: true });
      const no = await getPages(s, { [flag]: false });
      expect(yes.every((p) => p[flag] === true) && no.every((p) => p[flag] === false), flag).toBe(true);
      expect(yes.length + no.length, flag).toBe(all.length);
      expect(yes.length, flag).toBeGreaterThan(0);
    }
  });

  it('ENV-06, FLT-09: template_id applies every value given', async () => {
    const s = freshState();
    const [landing, php] = [named(s, 'template', 'Landing page'), named(s, 'template', 'PHP include')];
    const one = await getPages(s, { template_id: [landing.id] });
    const both = await getPages(s, { template_id: [landing.id, php.id] });
    expect(one.every((p) => p.templateId === landing.id)).toBe(true);
    expect(both.length).toBe(one.length + (await getPages(s, { template_id: [php.id] })).length);
  });

  it('includeMlId and excludeMlId restrict by the markup language of the template', async () => {
    const s = freshState();
    expect(names(await getPages(s, { includeMlId: [3] }))).toEqual(['Sitemap']);
    expect(names(await getPages(s, { excludeMlId: [1] })).sort()).toEqual(names(await getPages(s, { includeMlId: [2, 3] })).sort());
  });

  it('FLT-09: language picks a language; langfallback fills in the highest-priority variant', async () => {
    const s = freshState();
    const exact = await getPages(s, { language: 'fr', langfallback: false });
    expect(names(exact)).toEqual(['Aperçu des produits']);
    const fallback = await getPages(s, { language: 'de' });
    expect(fallback.filter((p) => p.contentSetId === named(s, 'page', 'Product overview').id).map((p) => p.language)).toEqual(['de']);
    expect(names(fallback)).toContain('Impressum');
    expect(names(fallback)).toContain('Careers');
    expect(names(await getPages(s, { language: '0' }))).toEqual(['Sitemap']);
    expect(await getPages(s, { language: 'xx', langfallback: false })).toEqual([]);
  });

  it('FLT-09: priority, filename, publishedbefore and publishedsince restrict as stated', async () => {
    const s = freshState();
    expect((await getPages(s, { priority: 3 })).every((p) => p.priority === 3)).toBe(true);
    expect(names(await getPages(s, { filename: 'PRODUCT-OVERVIEW' }))).toEqual(['Product overview']);
    const published = (await getPages(s))
      .filter((p) => p.pdate > 0)
      .map((p) => p.pdate as number)
      .sort((a, b) => a - b);
    const mid = published[Math.floor(published.length / 2)]!;
    const before = await getPages(s, { publishedbefore: mid });
    const since = await getPages(s, { publishedsince: mid });
    expect(before.every((p) => p.pdate > 0 && p.pdate <= mid) && since.every((p) => p.pdate >= mid)).toBe(true);
    expect(before.length + since.length).toBe(published.length + published.filter((d) => d === mid).length);
  });

  it('FLT-09: timedue keeps pages whose time management changes their status within the span', async () => {
    const s = freshState();
    const now = Math.floor(NOW_MS / 1000);
    expect(await getPages(s, { timedue: 60 })).toEqual([]);
    const due = await getPages(s, { timedue: 2_100_000_000 - now });
    expect(due.length).toBeGreaterThan(0);
    expect(due.every((p) => p.planned)).toBe(true);
  });

  it('FLT-09: permission values are accepted (the requesting admin has every permission)', async () => {
    const s = freshState();
    expect(await getPages(s, { permission: ['view', 'publish'] })).toHaveLength((await getPages(s)).length);
  });

  it('publisher, ispublisher, creator, insync, wfown, wfwatch and searchcontent restrict as stated', async () => {
    const s = freshState();
    expect((await getPages(s, { publisher: 'smith' })).every((p) => p.publisher.login === 'asmith')).toBe(true);
    expect((await getPages(s, { publisherId: [5] }, named(s, 'folder', 'Press').id)).map((p) => p.name)).toEqual(['Press release 2023']);
    expect((await getPages(s, { ispublisher: true })).every((p) => p.publisher.id === 1)).toBe(true);
    const outOfSync = await getPages(s, { insync: false });
    expect(names(outOfSync).sort()).toEqual(['Aperçu des produits', 'Kontakt']);
    expect(outOfSync.every((p) => p.translationStatus?.inSync === false)).toBe(true);
    expect(names(await getPages(s, { wfown: true }))).toEqual(['Newsletter']);
    expect(names(await getPages(s, { wfwatch: true }))).toEqual(['Blog']);
    expect(await getPages(s, { search: 'lorem ipsum' })).toEqual([]);
    expect((await getPages(s, { search: 'lorem ipsum', searchcontent: true })).length).toBeGreaterThan(30);
  });

  it('niceurl is a regular expression over the nice URL', async () => {
    const s = freshState();
    expect(names(await getPages(s, { niceurl: '^/(products|contact)$' })).sort()).toEqual(['Contact', 'Products']);
    expect((await refused(s, 'folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { niceurl: '*' } })).property).toBe('niceurl');
  });
});

describe('getPages add-ons and the page record', () => {
  it('FLD-09: folder, template, langvars, translationstatus, contenttags and objecttags add the named information', async () => {
    const s = freshState();
    const plain = (await getPages(s, { search: 'Produktübersicht' }))[0]!;
    expect([plain.folder, plain.template, plain.languageVariants, plain.translationStatus, plain.tags]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const full = (
      await getPages(s, {
        search: 'Produktübersicht',
        folder: true,
        template: true,
        langvars: true,
        translationstatus: true,
        contenttags: true,
      })
    )[0]!;
    expect(full.folder).toMatchObject({ id: ids(s).pagesFolderId, name: 'Pages' });
    expect(full.template).toMatchObject({ id: full.templateId, name: 'Standard page', markupLanguage: { name: 'HTML' } });
    expect(Object.keys(full.languageVariants).sort()).toEqual(['de', 'en', 'fr']);
    expect(full.translationStatus).toMatchObject({ pageId: named(s, 'page', 'Product overview').id, inSync: true, language: 'en' });
    expect(Object.values(full.tags as Record<string, Body>).every((t) => t.type === 'CONTENTTAG')).toBe(true);
    const objects = (await getPages(s, { search: 'Company profile', objecttags: true }))[0]!;
    expect(Object.keys(objects.tags)).toEqual(['object.download']);
  });

  it('PGE-01, PGE-02: required members present; lockedSince is -1 unless locked', async () => {
    const s = freshState();
    for (const p of await getPages(s)) {
      for (const m of [
        'pdate',
        'readOnly',
        'online',
        'modified',
        'queued',
        'planned',
        'inherited',
        'locked',
        'lockedSince',
        'master',
        'cdate',
        'edate',
      ])
        expect(p).toHaveProperty(m);
      expect(p.locked ? p.lockedSince > 0 && p.lockedBy !== undefined : p.lockedSince === -1).toBe(true);
    }
  });

  it('PGE-03: alternateUrls are in alphabetical order', async () => {
    const s = freshState();
    const products = (await getPages(s, { search: 'Products' })).find((p) => p.name === 'Products')!;
    expect(products.alternateUrls).toEqual(['/Alt-products', '/angebot', '/produkte']);
  });

  it('PGE-04: languageVariants values and pageVariants items are page records', async () => {
    const s = freshState();
    const home = (await getPages(s, { search: 'Home', langvars: true })).find((p) => p.name === 'Home')!;
    expect(names(home.pageVariants)).toEqual(['Home print version']);
    expect(home.pageVariants[0]).toMatchObject({ readOnly: true, lockedSince: expect.any(Number) });
    expect(home.languageVariants.en.id).toBe(home.id);
  });

  it('pages in a channel view are inherited, localized or local', async () => {
    const s = freshState();
    const mc = await getPages(s, { nodeId: 2 }, named(s, 'folder', 'Multichannel').id);
    expect(mc.map((p) => [p.name, p.inherited, p.master])).toEqual([
      ['Localized page', false, false],
      ['Multichannel overview', true, true],
    ]);
  });
});

describe('external links, findPages and templates', () => {
  it('FLD-10: lists, per page, the external http(s) links of the folder; recursive includes sub-folders', async () => {
    const s = freshState();
    const links = (await call(s, 'folder.getExternalLinks', { path: { folderId: ids(s).pagesFolderId } })).pages as Body[];
    const resources = links.find((e) => e.pageName === 'Links and resources')!;
    expect(resources.links).toEqual(['https://www.gentics.com/', 'http://example.org/partners', 'https://docs.example.com/related']);
    expect(links.map((e) => e.pageName)).not.toContain('Year in review 2022');
    const deep = (await call(s, 'folder.getExternalLinks', { path: { folderId: ids(s).pagesFolderId }, query: { recursive: true } }))
      .pages as Body[];
    expect(deep.map((e) => e.pageName)).toEqual(expect.arrayContaining(['Year in review 2022', 'Press release 2023']));
  });

  it('findPages searches names from a folder', async () => {
    const s = freshState();
    const res = await call(s, 'folder.findPages', { query: { folderId: named(s, 'folder', 'Archive').id, query: 'review' } });
    expect([names(res.pages), res.numItems, res.hasMoreItems]).toEqual([['Year in review 2022'], 1, false]);
  });

  it('FLD-08: getTemplates lists the linked templates; reduce with recursive lists each once', async () => {
    const s = freshState();
    const pages = ids(s).pagesFolderId;
    const direct = await call(s, 'folder.getTemplates', { path: { folderId: pages } });
    expect(names(direct.templates)).toEqual(['Landing page', 'News article', 'PHP include', 'RSS feed', 'Standard page']);
    expect(direct.templates.every((t: Body) => t.folderId === pages)).toBe(true);
    const all = await call(s, 'folder.getTemplates', { path: { folderId: pages }, query: { recursive: true } });
    const reduced = await call(s, 'folder.getTemplates', { path: { folderId: pages }, query: { recursive: true, reduce: true } });
    expect(all.numItems).toBe(10);
    expect(names(reduced.templates)).toEqual(names(direct.templates));
    const shop = await call(s, 'folder.getTemplates', { path: { folderId: named(s, 'folder', 'Shop specials', 2).id } });
    expect(shop.templates.map((t: Body) => [t.name, t.inherited, t.master])).toEqual([
      ['Shop layout', false, true],
      ['Standard page', false, false],
    ]);
  });
});
