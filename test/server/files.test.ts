/** File operations (FIL): load, copy, move, save, and the file record. */
import { describe, expect, it } from 'vitest';
import type { State } from '../../server/state.ts';
import { call, freshState, named, names, refused, sandboxFolder, upload, type Body } from './helpers.ts';

const listed = async (s: State, folderId: number) => (await call(s, 'folder.getFiles', { path: { folderId } })).files as Body[];

describe('file record and load', () => {
  it('FIL-04: load returns the file with stagingStatus', async () => {
    const s = freshState();
    const res = await call(s, 'file.load', { path: { id: named(s, 'file', 'brochure.pdf').id } });
    expect(res.stagingStatus).toEqual({ included: false });
    const sheet = (await call(s, 'file.load', { path: { id: named(s, 'file', 'product-sheet.pdf').id } })).file;
    expect(Object.keys(sheet.tags).sort()).toEqual(['object.image', 'object.page', 'object.retired', 'object.terms']);
    const withPackage = await call(s, 'file.load', { path: { id: named(s, 'file', 'brochure.pdf').id }, raw: { package: 'release' } });
    expect(withPackage.stagingStatus).toEqual({ packageName: 'release', included: false });
  });

  it('file records carry typeId 10008, text = name, leaf, cls and iconCls', async () => {
    const s = freshState();
    const { file } = await call(s, 'file.load', { path: { id: named(s, 'file', 'brochure.pdf').id } });
    expect(file).toMatchObject({
      typeId: 10008,
      text: 'brochure.pdf',
      leaf: true,
      cls: 'file',
      iconCls: 'gtx_file',
      type: 'file',
      broken: false,
      folderName: 'Files',
    });
    expect(file.path).toBe('/Corporate Website/Files/');
    // "alternateUrls: in alphabetical order" (the fixture stores them unsorted).
    expect(file.alternateUrls).toEqual(['/Brochure-2023', '/alt/brochure', '/brochure.pdf']);
    const broken = (await call(s, 'file.load', { path: { id: named(s, 'file', 'missing-binary.pdf').id } })).file;
    expect([broken.broken, broken.fileSize]).toEqual([true, 0]);
  });

  it('FIL-05: the records of one file agree across load, GET /file, getFiles and findFiles', async () => {
    const s = freshState();
    const f = named(s, 'file', 'manual-de.pdf');
    const folderId = named(s, 'folder', 'Downloads').id;
    const fromLoad = (await call(s, 'file.load', { path: { id: f.id } })).file;
    const fromList = ((await call(s, 'file.list', { query: { folderId: String(folderId) } })).items as Body[]).find((x) => x.id === f.id);
    const fromGetFiles = (await listed(s, folderId)).find((x) => x.id === f.id);
    const fromFind = ((await call(s, 'folder.findFiles', { query: { query: 'manual-de' } })).files as Body[]).find((x) => x.id === f.id);
    const pick = (r: Body | undefined) => [r?.id, r?.name, r?.folderId, r?.fileSize];
    expect(pick(fromList)).toEqual(pick(fromLoad));
    expect(pick(fromGetFiles)).toEqual(pick(fromLoad));
    expect(pick(fromFind)).toEqual(pick(fromLoad));
  });

  it('ENV-05: a global id loads the same file; unknown ids are NOTFOUND', async () => {
    const s = freshState();
    const f = named(s, 'file', 'terms.txt');
    expect((await call(s, 'file.load', { path: { id: f.globalId } })).file.id).toBe(f.id);
    for (const id of ['987654', 'A547.00000000-0000-0000-0000-000000000000', 'abc', '-1']) {
      expect((await refused(s, 'file.load', { path: { id } })).code).toBe('NOTFOUND');
    }
    expect((await refused(s, 'file.load', { path: { id: named(s, 'folder', 'Files').id } })).code).toBe('NOTFOUND');
  });
});

describe('copy', () => {
  it('FIL-01: creates a new file in the target folder named newFilename; the source is unchanged', async () => {
    const s = freshState();
    const source = named(s, 'file', 'terms.txt');
    const target = await sandboxFolder(s, 'Copies');
    const before = JSON.stringify(source);
    const res = await call(s, 'file.copy', {
      body: { file: { id: source.id }, newFilename: 'terms-copy.txt', targetFolder: { id: target.id } },
    });
    expect(res.success).toBe(true);
    expect(res.file).toMatchObject({
      name: 'terms-copy.txt',
      folderId: target.id,
      fileSize: (await call(s, 'file.load', { path: { id: source.id } })).file.fileSize,
    });
    expect(res.file.id).not.toBe(source.id);
    expect(JSON.stringify(source)).toBe(before);
    expect(names(await listed(s, target.id))).toEqual(['terms-copy.txt']);
  });

  it('copies into the same folder with a unique name when no target is given', async () => {
    const s = freshState();
    const source = named(s, 'file', 'terms.txt');
    const res = await call(s, 'file.copy', { body: { file: { globalId: source.globalId } } });
    expect(res.file).toMatchObject({ name: 'terms_1.txt', folderId: named(s, 'folder', 'Files').id });
  });

  it('refuses a missing source, an unknown target and a bad newFilename', async () => {
    const s = freshState();
    const id = named(s, 'file', 'terms.txt').id;
    expect((await refused(s, 'file.copy', { body: {} })).property).toBe('file.id');
    expect((await refused(s, 'file.copy', { body: { file: { id: 'x' } } })).property).toBe('file.id');
    expect((await refused(s, 'file.copy', { body: { file: { id }, targetFolder: { id: 987654 } } })).code).toBe('NOTFOUND');
    expect((await refused(s, 'file.copy', { body: { file: { id }, newFilename: '../x' } })).property).toBe('newFilename');
  });
});

describe('move', () => {
  it('FIL-02: the file leaves the old folder and appears in the new one with the same id', async () => {
    const s = freshState();
    const [from, to] = [await sandboxFolder(s, 'From'), await sandboxFolder(s, 'To')];
    const file = await upload(s, from.id, 'mover.txt', 'm');
    await call(s, 'file.move', { path: { id: file.id }, body: { folderId: to.id } });
    expect(names(await listed(s, from.id))).toEqual([]);
    expect((await listed(s, to.id)).map((f) => [f.id, f.folderId])).toEqual([[file.id, to.id]]);
  });

  it('refuses a missing or unknown target and a name taken in the target', async () => {
    const s = freshState();
    const [from, to] = [await sandboxFolder(s, 'From'), await sandboxFolder(s, 'To')];
    const file = await upload(s, from.id, 'clash.txt', 'a');
    await upload(s, to.id, 'clash.txt', 'b');
    expect((await refused(s, 'file.move', { path: { id: file.id }, body: {} })).property).toBe('folderId');
    expect((await refused(s, 'file.move', { path: { id: file.id }, body: { folderId: 987654 } })).code).toBe('NOTFOUND');
    expect((await refused(s, 'file.move', { path: { id: file.id }, body: { folderId: to.id } })).code).toBe('INVALIDDATA');
    expect(names(await listed(s, from.id))).toEqual(['clash.txt']);
  });

  it('refuses moving a master file into a folder that exists only in a channel', async () => {
    const s = freshState();
    const r = await refused(s, 'file.move', {
      path: { id: named(s, 'file', 'notes.txt').id },
      body: { folderId: named(s, 'folder', 'Shop specials', 2).id, nodeId: 2 },
    });
    expect(r.code).toBe('INVALIDDATA');
  });
});

describe('save (JSON)', () => {
  it('FIL-03: updates name and description, visible on load', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Saving');
    const file = await upload(s, folder.id, 'before.txt', 'x');
    await call(s, 'file.save.json', {
      path: { id: file.id },
      body: { file: { name: 'after.txt', description: 'described', niceUrl: '/after', alternateUrls: ['/b', '/a'] } },
    });
    expect((await call(s, 'file.load', { path: { id: file.id } })).file).toMatchObject({
      name: 'after.txt',
      description: 'described',
      niceUrl: '/after',
      alternateUrls: ['/a', '/b'],
    });
  });

  it('FIL-03: failOnDuplicate refuses a name used in the folder; without it the name is made unique', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Dupes');
    const [a, b] = [await upload(s, folder.id, 'a.txt', 'a'), await upload(s, folder.id, 'b.txt', 'b')];
    const r = await refused(s, 'file.save.json', { path: { id: b.id }, body: { file: { name: 'A.txt' }, failOnDuplicate: true } });
    expect([r.code, r.property]).toEqual(['INVALIDDATA', 'file.name']);
    await call(s, 'file.save.json', { path: { id: b.id }, body: { file: { name: 'a.txt' } } });
    expect(names(await listed(s, folder.id))).toEqual(['a.txt', 'a_1.txt']);
    expect((await call(s, 'file.load', { path: { id: a.id } })).file.name).toBe('a.txt');
  });

  it('NEG-04: a member that cannot be converted to its type is refused naming it and changes nothing', async () => {
    const s = freshState();
    const f = named(s, 'file', 'terms.txt');
    const cases: [Record<string, unknown>, string][] = [
      [{ name: {} }, 'file.name'],
      [{ description: ['x'] }, 'file.description'],
      [{ alternateUrls: ['/ok', {}] }, 'file.alternateUrls.1'],
      [{ alternateUrls: '/ok' }, 'file.alternateUrls'],
      [{ forceOnline: 'yes' }, 'file.forceOnline'],
      [{ forceOnline: 1.5 }, 'file.forceOnline'],
    ];
    for (const [file, property] of cases) {
      const r = await refused(s, 'file.save.json', { path: { id: f.id }, body: { file: { description: 'changed', ...file } } });
      expect([r.code, r.property], property).toEqual(['INVALIDDATA', property]);
      expect(r.message).toContain(property);
    }
    expect(f.description).toBe('');
  });

  it('NEG-04: a scalar that converts is stored converted, as Jackson reads the File record', async () => {
    // Reference notes, "What the server accepts": "A JSON number is accepted for a string member ... and "true"/"false" for a boolean."
    const s = freshState();
    const f = named(s, 'file', 'terms.txt');
    await call(s, 'file.save.json', {
      path: { id: f.id },
      body: { file: { name: 5, description: true, alternateUrls: ['/ok', 3], forceOnline: 'true' }, failOnDuplicate: 'false' },
    });
    expect((await call(s, 'file.load', { path: { id: f.id } })).file).toMatchObject({
      name: '5',
      description: 'true',
      alternateUrls: ['/ok', '3'],
      forceOnline: true,
    });
    await call(s, 'file.save.json', { path: { id: f.id }, body: { file: { name: null, description: null, forceOnline: 0 } } });
    expect((await call(s, 'file.load', { path: { id: f.id } })).file).toMatchObject({ name: '5', description: 'true', forceOnline: false });
  });
});
