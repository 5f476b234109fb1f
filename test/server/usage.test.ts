/** Usage queries (USE): files, folders and pages using files; syncable objects. */
import { describe, expect, it } from 'vitest';
import { setTags } from '../../server/state.ts';
import { call, freshState, named, names, refused, sandboxFolder, upload, type Body } from './helpers.ts';

describe('usage lists', () => {
  it('USE-01: usage/file, usage/folder and usage/page list the objects using the files, total before paging', async () => {
    const s = freshState();
    const files = await call(s, 'file.usage.file', { query: { id: [named(s, 'file', 'terms.txt').id, named(s, 'image', 'logo.png').id] } });
    expect([names(files.files), files.total, files.numItems, files.withoutPermission]).toEqual([['product-sheet.pdf'], 1, 1, 0]);
    const folders = await call(s, 'file.usage.folder', {
      query: { id: [named(s, 'file', 'brochure.pdf').id, named(s, 'file', 'guide.pdf').id, named(s, 'image', 'logo.png').id] },
    });
    expect([names(folders.folders), folders.total]).toEqual([['Files', 'Manuals'], 2]);
    const pages = await call(s, 'file.usage.page', {
      raw: { id: [String(named(s, 'file', 'annual-report-2023.pdf').id), String(named(s, 'file', 'manual-en.pdf').id)] },
    });
    expect([names(pages.pages), pages.total]).toEqual([['Company profile', 'Product overview'], 2]);
  });

  it('USE-02: the files/folders flag set to false answers the counts without the list', async () => {
    const s = freshState();
    const id = [named(s, 'file', 'brochure.pdf').id];
    const folders = await call(s, 'file.usage.folder', { query: { id, folders: false } });
    expect([folders.folders, folders.total]).toEqual([undefined, 1]);
    const files = await call(s, 'file.usage.file', { query: { id: [named(s, 'file', 'terms.txt').id], files: false } });
    expect([files.files, files.total]).toEqual([undefined, 1]);
  });

  it('USE-03: usage lists obey Group L paging and sorting', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Users');
    const target = named(s, 'file', 'stylesheet.css').id;
    for (const n of ['c.txt', 'a.txt', 'b.txt']) {
      const f = await upload(s, folder.id, n, n);
      setTags(s, s.objects.get(f.id)!, [
        {
          id: 90_000 + f.id,
          name: 'object.css',
          constructId: 3,
          active: true,
          type: 'OBJECTTAG',
          properties: { file: { partId: 31, type: 'FILE', fileId: target } },
        },
      ]);
    }
    const page = await call(s, 'file.usage.file', {
      query: { id: [target], sortby: 'name', sortorder: 'desc', skipCount: 1, maxItems: 1 },
    });
    expect([names(page.files), page.total, page.numItems, page.hasMoreItems]).toEqual([['b.txt'], 3, 3, true]);
  });

  it('counts usages in the view of nodeId only', async () => {
    const s = freshState();
    const id = [named(s, 'file', 'price-list.pdf').id];
    expect((await call(s, 'file.usage.page', { raw: { id: id.map(String) } })).total).toBe(0);
    expect(names((await call(s, 'file.usage.page', { raw: { id: id.map(String), nodeId: '2' } })).pages)).toEqual(['Summer sale']);
  });

  it('refuses unknown file ids', async () => {
    const s = freshState();
    expect((await refused(s, 'file.usage.file', { query: { id: [987654] } })).code).toBe('NOTFOUND');
    expect((await call(s, 'file.usage.folder', { query: { id: [] } })).total).toBe(0);
  });
});

describe('syncable objects', () => {
  it('USE-04: reports the pages, files and images the files reference, with totals and indirect dependencies', async () => {
    const s = freshState();
    const res = await call(s, 'file.usage.syncableObjects', {
      query: { ids: [named(s, 'file', 'product-sheet.pdf').id], srcNodeId: 2, dstNodeId: 1 },
    });
    expect([names(res.pages), res.pagesTotal, names(res.files), res.filesTotal]).toEqual([['Product overview'], 1, ['terms.txt'], 1]);
    expect(res.images.map((i: Body) => [i.name, i.iconCls, i.sizeX, i.sizeY, i.typeId])).toEqual([['logo.png', 'gtx_image', 1, 1, 10011]]);
    expect(res.haveDependencies).toBe(true);
    expect(res.dependencies.file[String(named(s, 'file', 'manual-en.pdf').id)]).toMatchObject({ name: 'manual-en.pdf' });
    const none = await call(s, 'file.usage.syncableObjects', { query: { ids: [named(s, 'file', 'notes.txt').id] } });
    expect([none.pagesTotal, none.filesTotal, none.images, none.haveDependencies]).toEqual([0, 0, [], false]);
  });
});
