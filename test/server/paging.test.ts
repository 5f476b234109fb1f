/** The listing engine's paging and sorting (PAG, SRT), as units and through the listing operations. */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { pageLegacy, pageNew, sortByAttributes, sortLegacy, type SortKey } from '../../server/handlers/listing.ts';
import type { Obj } from '../../server/state.ts';
import { call, freshState, ids, named, names, type Body } from './helpers.ts';

const none = new Set<string>();
const items = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('Group P paging', () => {
  it('PAG-01: pageSize -1 returns everything without more items', () => {
    expect(pageNew(items(5), 1, -1, none)).toEqual({ items: items(5), numItems: 5, hasMoreItems: false });
  });

  it('PAG-02: pageSize 0 returns no items but the true numItems', () => {
    expect(pageNew(items(5), 1, 0, none)).toEqual({ items: [], numItems: 5, hasMoreItems: true });
  });

  it('PAG-03: page k of size n holds items (k-1)n+1 .. kn; page <= 0 is page 1; past the end is empty', () => {
    expect(pageNew(items(10), 2, 3, none).items).toEqual([4, 5, 6]);
    expect(pageNew(items(10), 0, 3, none).items).toEqual([1, 2, 3]);
    expect(pageNew(items(10), -4, 3, none).items).toEqual([1, 2, 3]);
    expect(pageNew(items(10), 5, 3, none)).toEqual({ items: [], numItems: 10, hasMoreItems: false });
  });

  test.prop([fc.array(fc.integer(), { maxLength: 60 }), fc.integer({ min: 1, max: 12 })])(
    'PAG-04, PAG-05: walking the pages yields the whole list once',
    (list, size) => {
      const walked: number[] = [];
      for (let page = 1; ; page++) {
        const p = pageNew(list, page, size, none);
        expect(p.numItems).toBe(list.length);
        walked.push(...p.items);
        expect(p.hasMoreItems).toBe(walked.length < list.length);
        if (!p.hasMoreItems) break;
      }
      expect(walked).toEqual(list);
    },
  );
});

describe('Group L paging', () => {
  it('PAG-06, PAG-07: skip then truncate; negative skip ignored; maxItems < 0 all, 0 none', () => {
    expect(pageLegacy(items(10), 2, 3, none)).toEqual({ items: [3, 4, 5], numItems: 10, hasMoreItems: true });
    expect(pageLegacy(items(10), -5, 2, none).items).toEqual([1, 2]);
    expect(pageLegacy(items(10), 7, -1, none)).toEqual({ items: [8, 9, 10], numItems: 10, hasMoreItems: false });
    expect(pageLegacy(items(10), 0, 0, none)).toEqual({ items: [], numItems: 10, hasMoreItems: true });
    expect(pageLegacy(items(10), 7, 3, none).hasMoreItems).toBe(false);
  });

  it('PAG-08: findFiles and findPages return 100 items by default and all with -1', async () => {
    const s = freshState();
    const bulk = named(s, 'folder', 'Bulk').id;
    expect((await call(s, 'folder.findFiles', { query: { folderId: bulk, query: 'bulk' } })).files).toHaveLength(100);
    expect((await call(s, 'folder.findFiles', { query: { folderId: bulk, query: 'bulk', maxItems: -1 } })).files).toHaveLength(120);
    expect(
      (await call(s, 'folder.findFiles', { query: { folderId: bulk, query: 'bulk', maxItems: 5, skipCount: 118 } })).files,
    ).toHaveLength(2);
    const pages = await call(s, 'folder.findPages', { query: { query: '', maxItems: 3 } });
    expect([pages.pages.length, pages.hasMoreItems]).toEqual([3, true]);
  });

  it('PAG-09: getPages and getTemplates return everything by default', async () => {
    const s = freshState();
    const pages = await call(s, 'folder.getPages', { path: { id: ids(s).pagesFolderId } });
    expect([pages.pages.length, pages.numItems, pages.hasMoreItems]).toEqual([37, 37, false]);
    const templates = await call(s, 'folder.getTemplates', { path: { folderId: ids(s).templatesFolderId } });
    expect(templates.templates).toHaveLength(templates.numItems);
  });

  it('PAG-05: numItems counts before paging through a listing operation', async () => {
    const s = freshState();
    const res = await call(s, 'folder.getFiles', {
      path: { folderId: named(s, 'folder', 'Bulk').id },
      query: { skipCount: 10, maxItems: 20 },
    });
    expect([res.files.length, res.numItems, res.hasMoreItems]).toEqual([20, 120, true]);
    const list = await call(s, 'file.list', { query: { folderId: String(named(s, 'folder', 'Bulk').id), page: 6, pageSize: 20 } });
    expect([list.items.length, list.numItems, list.hasMoreItems]).toEqual([20, 120, false]);
  });
});

describe('sorting', () => {
  const obj = (id: number, name: string, cdate: number) => ({ id, name, cdate, description: '' }) as Obj;
  const keys: Record<string, SortKey> = { name: (o) => o.name, cdate: (o) => o.cdate };
  const list = [obj(3, 'beta', 1), obj(1, 'Alpha', 2), obj(2, 'alpha', 2), obj(4, 'Gamma', 1)];

  it('SRT-01: by name ascending, ignoring case, ties by id', () => {
    expect(sortLegacy(list, undefined, undefined, keys, none).map((o) => o.id)).toEqual([1, 2, 3, 4]);
  });

  it('the harmless variation name-order-codepoint sorts names by code point', () => {
    expect(sortLegacy(list, 'name', 'asc', keys, new Set(['name-order-codepoint'])).map((o) => o.name)).toEqual([
      'Alpha',
      'Gamma',
      'alpha',
      'beta',
    ]);
  });

  it('SRT-02: desc in any case reverses, ties by id in the same direction; other strings ascend', () => {
    expect(sortLegacy(list, 'NAME', 'DeSc', keys, none).map((o) => o.id)).toEqual([4, 3, 2, 1]);
    expect(sortLegacy(list, 'name', 'backwards', keys, none).map((o) => o.id)).toEqual([1, 2, 3, 4]);
  });

  it('SRT-03: sortby is matched ignoring case and an unknown one falls back to name', () => {
    expect(sortLegacy(list, 'CDate', 'asc', keys, none).map((o) => o.id)).toEqual([3, 4, 1, 2]);
    expect(sortLegacy(list, 'colour', 'asc', keys, none).map((o) => o.id)).toEqual([1, 2, 3, 4]);
  });

  it('SRT-04: a comma list with + and -; later attributes break ties; unknown ones are ignored', () => {
    expect(sortByAttributes(list, '-cdate,+name', keys, none).map((o) => o.id)).toEqual([1, 2, 3, 4]);
    expect(sortByAttributes(list, 'cdate,-name', keys, none).map((o) => o.id)).toEqual([4, 3, 1, 2]);
    expect(sortByAttributes(list, 'bogus,Name,-name', keys, none).map((o) => o.id)).toEqual([4, 3, 1, 2]);
  });

  it('SRT-03: listings sort by the attributes the objects have', async () => {
    const s = freshState();
    const pages = ids(s).pagesFolderId;
    for (const sortby of ['pdate', 'priority', 'filename', 'template', 'edate', 'folder', 'masterNode', 'excluded', 'deletedat']) {
      const res = (await call(s, 'folder.getPages', { path: { id: pages }, query: { sortby } })).pages as Body[];
      expect(res).toHaveLength(37);
    }
    const byPdate = (await call(s, 'folder.getPages', { path: { id: pages }, query: { sortby: 'pdate', sortorder: 'desc' } }))
      .pages as Body[];
    expect(byPdate.map((p) => p.pdate)).toEqual(byPdate.map((p) => p.pdate).sort((a, b) => b - a));
  });

  it('SRT-05: GET /file sorts by fileSize, fileType and the other named attributes', async () => {
    const s = freshState();
    const folderId = String(named(s, 'folder', 'Files').id);
    const bySize = (await call(s, 'file.list', { query: { folderId, sort: '-fileSize' } })).items as Body[];
    expect(bySize.map((f) => f.fileSize)).toEqual(bySize.map((f) => f.fileSize).sort((a, b) => b - a));
    const byType = (await call(s, 'file.list', { query: { folderId, sort: 'fileType,name' } })).items as Body[];
    expect(byType.map((f) => f.fileType)).toEqual(byType.map((f) => f.fileType).sort());
    const byName = (await call(s, 'file.list', { query: { folderId } })).items as Body[];
    expect(names(byName).slice(0, 4)).toEqual(['Alpha.txt', 'annual-report-2023.pdf', 'archive.zip', 'beta.txt']);
  });
});
