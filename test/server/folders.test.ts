/** Folder operations (FLD): listings, tree, breadcrumb, count, create, load, getItems. */
import { describe, expect, it } from 'vitest';
import type { State } from '../../server/state.ts';
import { call, freshState, ids, named, names, NOW_MS, refused, sandboxFolder, upload, type Body } from './helpers.ts';

const children = async (s: State, id: number, query: Record<string, unknown> = {}) =>
  (await call(s, 'folder.getFolders', { path: { id }, query: query as never })).folders as Body[];

/** Every folder of a tree, depth first. */
const flatten = (folders: Body[]): Body[] => folders.flatMap((f) => [f, ...flatten(f.subfolders ?? [])]);

describe('listings', () => {
  it('GET /folder lists the folders of a folder with the Group P members', async () => {
    const s = freshState();
    const res = await call(s, 'folder.list', { query: { folderId: String(named(s, 'folder', 'Pages').id) } });
    expect(names(res.items)).toEqual(['Archive', 'Press']);
    expect(res).toMatchObject({ numItems: 2, hasMoreItems: false, deleted: [] });
    expect(Object.keys(res.perms)).toEqual(res.items.map((f: Body) => String(f.id)));
  });

  it('GET /folder without folderId lists the root folder of the node', async () => {
    const s = freshState();
    const master = await call(s, 'folder.list', {});
    const shop = await call(s, 'folder.list', { query: { nodeId: 2 } });
    expect(names(master.items)).not.toContain('Shop specials');
    expect(names(shop.items)).toContain('Shop specials');
  });

  it('FLD-03: recursive lists all descendants; tree nests them under subfolders', async () => {
    const s = freshState();
    const files = named(s, 'folder', 'Files').id;
    const flat = await children(s, files, { recursive: true });
    expect(names(flat).sort()).toEqual(['Bulk', 'Downloads', 'Images', 'Manuals']);
    const tree = await children(s, files, { recursive: true, tree: true });
    expect(names(tree)).toEqual(['Bulk', 'Downloads', 'Images']);
    expect(names(tree.find((f) => f.name === 'Downloads')!.subfolders)).toEqual(['Manuals']);
    expect(names(flatten(tree)).sort()).toEqual(names(flat).sort());
  });

  it('FLD-03: recursiveIds limits which folders have their children fetched', async () => {
    const s = freshState();
    const root = ids(s).masterRootFolderId;
    const pages = named(s, 'folder', 'Pages').id;
    const only = await children(s, root, { recursive: true, recursiveIds: [String(pages)] });
    expect(
      names(only)
        .filter((n) => ['Archive', 'Press', 'Downloads'].includes(n))
        .sort(),
    ).toEqual(['Archive', 'Press']);
    const byNode = await children(s, root, { recursive: true, recId: [`1/${pages}`, '987654'] });
    expect(names(byNode)).toContain('Archive');
    expect((await call(s, 'folder.getFolders', { path: { id: root }, query: { recursive: true, recId: ['987654'] } })).deleted).toEqual([
      '987654',
    ]);
  });

  it('FLD-04: POST /folder/getFolders answers as GET with the same parameters', async () => {
    const s = freshState();
    const root = ids(s).masterRootFolderId;
    const get = await call(s, 'folder.getFolders', {
      path: { id: root },
      query: { recursive: true, tree: true, sortby: 'edate', sortorder: 'desc', maxItems: 3, skipCount: 1, search: 'a', nodeId: 2 },
    });
    const post = await call(s, 'folder.getFolders.post', {
      body: {
        id: String(root),
        recursive: true,
        tree: true,
        sortBy: 'edate',
        sortOrder: 'desc',
        maxItems: 3,
        skipCount: 1,
        search: 'a',
        nodeId: 2,
      },
    });
    expect(post).toEqual(get);
    expect((await refused(s, 'folder.getFolders.post', { body: {} })).property).toBe('id');
  });

  it('FLD-05: breadcrumb lists the folders from the root down to the folder', async () => {
    const s = freshState();
    const res = await call(s, 'folder.breadcrumb', { path: { id: named(s, 'folder', 'Manuals').id } });
    expect(names(res.folders)).toEqual(['Corporate Website', 'Files', 'Downloads', 'Manuals']);
    const inChannel = await call(s, 'folder.breadcrumb', { path: { id: named(s, 'folder', 'Manuals').id }, raw: { nodeId: '2' } });
    expect(inChannel.folders[0]).toMatchObject({ name: 'Shop Channel', type: 'channel' });
  });

  it('folder records carry path and breadcrumbs from the root down to themselves', async () => {
    const s = freshState();
    const { folder } = await call(s, 'folder.load', { path: { id: named(s, 'folder', 'Manuals').id } });
    expect(folder.path).toBe('/Corporate Website/Files/Downloads/Manuals/');
    expect(names(folder.breadcrumbs)).toEqual(['Corporate Website', 'Files', 'Downloads', 'Manuals']);
    expect(folder.motherId).toBe(named(s, 'folder', 'Downloads').id);
  });
});

describe('count', () => {
  it('FLD-06: counts match what the listings return, with and without recursive', async () => {
    const s = freshState();
    for (const folder of ['Pages', 'Files', 'Multichannel']) {
      const id = named(s, 'folder', folder).id;
      for (const recursive of [false, true]) {
        for (const nodeId of [1, 2]) {
          const q = { recursive, nodeId };
          const c = await call(s, 'folder.count', { path: { id }, query: q });
          expect(c.folders).toBe((await call(s, 'folder.getFolders', { path: { id }, query: q })).numItems);
          expect(c.pages).toBe((await call(s, 'folder.getPages', { path: { id }, query: q })).numItems);
          expect(c.files).toBe((await call(s, 'folder.getFiles', { path: { folderId: id }, query: q })).numItems);
          expect(c.templates).toBe((await call(s, 'folder.getTemplates', { path: { folderId: id }, query: q })).numItems);
        }
      }
    }
  });

  it('FLD-06: counts images, inherited only and one language', async () => {
    const s = freshState();
    const images = await call(s, 'folder.count', { path: { id: named(s, 'folder', 'Images').id } });
    expect(images).toMatchObject({ images: 4, files: 0 });
    const mc = named(s, 'folder', 'Multichannel').id;
    const all = await call(s, 'folder.count', { path: { id: mc }, query: { nodeId: 2 } });
    const inherited = await call(s, 'folder.count', { path: { id: mc }, query: { nodeId: 2, inherited: true } });
    const local = await call(s, 'folder.count', { path: { id: mc }, query: { nodeId: 2, inherited: false } });
    expect(inherited.files + local.files).toBe(all.files);
    expect(local.files).toBe(2);
    const de = await call(s, 'folder.count', { path: { id: named(s, 'folder', 'Pages').id }, query: { language: 'de' } });
    expect(de.pages).toBeGreaterThan(0);
  });
});

describe('create', () => {
  it('FLD-01: creates a folder under motherId, listed by the mother, loadable by id and global id', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'News');
    expect(folder).toMatchObject({
      name: 'News',
      motherId: ids(s).sandboxParentFolderId,
      type: 'folder',
      cdate: Math.floor(NOW_MS / 1000),
      creator: { id: 1 },
      publishDir: '/sandbox/news/',
    });
    expect(names(await children(s, ids(s).sandboxParentFolderId))).toContain('News');
    expect((await call(s, 'folder.load', { path: { id: folder.id } })).folder.id).toBe(folder.id);
    expect((await call(s, 'folder.load', { path: { id: folder.globalId } })).folder.id).toBe(folder.id);
  });

  it('appends a number to a sibling name without separator ("News" -> "News1")', async () => {
    const s = freshState();
    await sandboxFolder(s, 'News');
    expect((await sandboxFolder(s, 'news')).name).toBe('news1');
    expect((await sandboxFolder(s, 'News')).name).toBe('News2');
  });

  it('FLD-02: failOnDuplicate refuses a used name with INVALIDDATA on name and creates nothing', async () => {
    const s = freshState();
    await sandboxFolder(s, 'Unique');
    const before = s.objects.size;
    const r = await refused(s, 'folder.create', {
      body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Unique', failOnDuplicate: true },
    });
    expect([r.code, r.property]).toEqual(['INVALIDDATA', 'name']);
    expect(s.objects.size).toBe(before);
  });

  it('normalises publishDir to start and end with a slash, and keeps descriptions and translations', async () => {
    const s = freshState();
    const { folder } = await call(s, 'folder.create', {
      body: {
        motherId: String(ids(s).sandboxParentFolderId),
        name: 'Dir',
        publishDir: 'a//b',
        description: 'desc',
        nameI18n: { de: 'Verzeichnis' },
      },
    });
    expect(folder).toMatchObject({ publishDir: '/a/b/', description: 'desc', nameI18n: { de: 'Verzeichnis' } });
  });

  it('refuses a missing mother with FAILURE, and missing or unusable names with INVALIDDATA', async () => {
    const s = freshState();
    const mother = String(ids(s).sandboxParentFolderId);
    const missing = await refused(s, 'folder.create', { body: { motherId: '987654', name: 'Orphan' } });
    expect([missing.code, missing.property]).toEqual(['FAILURE', 'motherId']);
    expect((await refused(s, 'folder.create', { body: { name: 'No mother' } })).property).toBe('motherId');
    for (const name of [undefined, '', '   ', 'a/b', 'x'.repeat(300)]) {
      expect((await refused(s, 'folder.create', { body: { motherId: mother, name } })).property).toBe('name');
    }
  });

  it("links the mother's templates and creates a start page when asked", async () => {
    const s = freshState();
    const pages = String(named(s, 'folder', 'Pages').id);
    const template = named(s, 'template', 'News article');
    const { folder } = await call(s, 'folder.create', {
      body: { motherId: pages, name: 'With start page', startpage: true, templateId: template.id, language: 'en' },
    });
    const templates = await call(s, 'folder.getTemplates', { path: { folderId: folder.id } });
    expect(names(templates.templates).sort()).toEqual(['Landing page', 'News article', 'PHP include', 'RSS feed', 'Standard page']);
    const start = (await call(s, 'folder.getPages', { path: { id: folder.id } })).pages as Body[];
    expect(start.map((p) => [p.name, p.templateId, p.language])).toEqual([['With start page', template.id, 'en']]);
    // The Images folder has no templates linked: no start page can be made there.
    expect(
      (await refused(s, 'folder.create', { body: { motherId: String(named(s, 'folder', 'Images').id), name: 'X', startpage: true } })).code,
    ).toBe('FAILURE');
  });
});

describe('load and getItems', () => {
  it('FLD-11: privileges=true adds privileges; update=true locks nothing', async () => {
    const s = freshState();
    const id = named(s, 'folder', 'Files').id;
    const plain = await call(s, 'folder.load', { path: { id } });
    expect(plain.folder.privileges).toBeUndefined();
    const withPrivileges = await call(s, 'folder.load', { path: { id }, query: { privileges: true } });
    expect(withPrivileges.folder.privileges).toEqual(expect.arrayContaining(['view', 'createfolder', 'deletefolder', 'wastebin']));
    await call(s, 'folder.load', { path: { id }, query: { update: true } });
    expect(await call(s, 'folder.load', { path: { id } })).toEqual(plain);
    const constructs = await call(s, 'folder.load', { path: { id }, query: { construct: true } });
    expect(constructs.folder.tags['object.teaser'].construct).toMatchObject({ keyword: 'filelink' });
  });

  it('FLD-07: getItems returns the folder content with the common item fields only', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Items');
    await upload(s, folder.id, 'item.txt', 'i');
    const res = await call(s, 'folder.getItems', { path: { folderId: named(s, 'folder', 'Images').id } });
    const common = ['id', 'globalId', 'name', 'creator', 'cdate', 'editor', 'edate', 'type', 'deleted', 'masterDeleted', 'folderDeleted'];
    expect(res.numItems).toBe(4);
    for (const item of res.items as Body[]) expect(Object.keys(item).every((k) => common.includes(k))).toBe(true);
    const mixed = await call(s, 'folder.getItems', { path: { folderId: ids(s).pagesFolderId }, raw: { type: 'page', maxItems: '3' } });
    expect([mixed.items.length, mixed.hasMoreItems, (mixed.items as Body[]).every((i) => i.type === 'page')]).toEqual([3, true, true]);
  });
});
