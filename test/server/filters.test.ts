/** Filters of the listings (FLT): search and q, timestamps, users, inherited, recursive, file filters, find. */
import { describe, expect, it } from 'vitest';
import type { State } from '../../server/state.ts';
import { call, freshState, ids, named, names, refused, sandboxFolder, upload, type Body } from './helpers.ts';

const getFiles = async (s: State, folderId: number, query: Record<string, unknown> = {}) =>
  (await call(s, 'folder.getFiles', { path: { folderId }, query: query as never })).files as Body[];
const filesFolder = (s: State) => named(s, 'folder', 'Files').id;

describe('search and q', () => {
  it('FLT-01: search matches the id, or part of the name or description, ignoring case', async () => {
    const s = freshState();
    const notes = named(s, 'file', 'notes.txt');
    expect(names(await getFiles(s, filesFolder(s), { search: 'NOTES' }))).toEqual(['notes.txt']);
    expect(names(await getFiles(s, filesFolder(s), { search: 'scratch' }))).toEqual(['notes.txt']);
    expect(names(await getFiles(s, filesFolder(s), { search: String(notes.id) }))).toEqual(['notes.txt']);
    expect(await getFiles(s, filesFolder(s), { search: 'no such text' })).toEqual([]);
  });

  it('FLT-02: GET /file q matches the nice URL and alternate URLs too', async () => {
    const s = freshState();
    const folderId = String(filesFolder(s));
    const q = async (text: string) => names((await call(s, 'file.list', { query: { folderId, q: text } })).items);
    expect(await q('/downloads/brochure')).toEqual(['brochure.pdf']);
    expect(await q('alt/BROCHURE')).toEqual(['brochure.pdf']);
    expect(await q('export.csv')).toEqual(['data.csv']);
  });
});

describe('Group F filters', () => {
  it('FLT-03: timestamp bounds are inclusive and 0 means no restriction', async () => {
    const s = freshState();
    const all = await getFiles(s, filesFolder(s));
    const cdates = all.map((f) => f.cdate as number).sort((a, b) => a - b);
    const mid = cdates[Math.floor(cdates.length / 2)]!;
    const before = await getFiles(s, filesFolder(s), { createdbefore: mid });
    const since = await getFiles(s, filesFolder(s), { createdsince: mid });
    expect(before.every((f) => f.cdate <= mid) && since.every((f) => f.cdate >= mid)).toBe(true);
    expect(before.length + since.length).toBe(all.length + all.filter((f) => f.cdate === mid).length);
    expect(await getFiles(s, filesFolder(s), { createdbefore: 0, createdsince: 0, editedbefore: 0, editedsince: 0 })).toHaveLength(
      all.length,
    );
    const edited = await getFiles(s, filesFolder(s), { editedsince: mid });
    expect(edited.every((f) => f.edate >= mid)).toBe(true);
  });

  it('FLT-04: creator and editor patterns match logins and names; ids restrict too', async () => {
    const s = freshState();
    const all = await getFiles(s, filesFolder(s));
    const byLogin = await getFiles(s, filesFolder(s), { creator: 'JDO' });
    const byName = await getFiles(s, filesFolder(s), { creator: 'john d' });
    expect(byLogin.length).toBeGreaterThan(0);
    expect(byLogin.every((f) => f.creator.login === 'jdoe')).toBe(true);
    expect(names(byName)).toEqual(names(byLogin));
    const byIds = await getFiles(s, filesFolder(s), { creatorId: [2, 3] });
    expect(byIds.length).toBe(all.filter((f) => [2, 3].includes(f.creator.id)).length);
    const editors = await getFiles(s, filesFolder(s), { editor: 'berger', editorId: [5] });
    expect(editors.every((f) => f.editor.id === 5)).toBe(true);
    const mine = await getFiles(s, filesFolder(s), { iscreator: true });
    expect(mine.every((f) => f.creator.id === 1)).toBe(true);
  });

  it('FLT-05: inherited true gives only inherited objects of the node, false only local and localized ones', async () => {
    const s = freshState();
    const mc = named(s, 'folder', 'Multichannel').id;
    const all = await getFiles(s, mc, { nodeId: 2 });
    const inherited = await getFiles(s, mc, { nodeId: 2, inherited: true });
    const own = await getFiles(s, mc, { nodeId: 2, inherited: false });
    expect(inherited.every((f) => f.inherited) && own.every((f) => !f.inherited)).toBe(true);
    expect(names(own).sort()).toEqual(['localized.txt', 'shop-only.txt']);
    expect(inherited.length + own.length).toBe(all.length);
  });

  it('FLT-06: recursive includes the objects of all sub-folders', async () => {
    const s = freshState();
    const downloads = named(s, 'folder', 'Downloads').id;
    expect(names(await getFiles(s, downloads)).sort()).toEqual(['installer.zip', 'manual-de.pdf', 'manual-en.pdf']);
    expect(names(await getFiles(s, downloads, { recursive: true }))).toEqual(
      expect.arrayContaining(['guide.pdf', 'quickstart.txt', 'installer.zip']),
    );
  });
});

describe('file filters', () => {
  it('FLT-07: broken and online restrict as stated and partition the list', async () => {
    const s = freshState();
    const all = await getFiles(s, filesFolder(s));
    for (const filter of ['broken', 'online']) {
      const yes = await getFiles(s, filesFolder(s), { [filter]: true });
      const no = await getFiles(s, filesFolder(s), { [filter]: false });
      expect(yes.every((f) => f[filter] === true) && no.every((f) => f[filter] === false)).toBe(true);
      expect(yes.length + no.length).toBe(all.length);
    }
    expect(names(await getFiles(s, filesFolder(s), { broken: true }))).toEqual(['missing-binary.pdf']);
  });

  it('USE-05, FLT-07: used counts object tag references in the current channel only; usedIn extends it', async () => {
    const s = freshState();
    const mc = named(s, 'folder', 'Multichannel').id;
    expect(names(await getFiles(s, mc, { used: true }))).toEqual([]);
    expect(names(await getFiles(s, mc, { used: true, nodeId: 2 }))).toEqual(['price-list.pdf']);
    expect(names(await getFiles(s, mc, { used: true, usedIn: [2] }))).toEqual(['price-list.pdf']);
    expect(names(await getFiles(s, mc, { used: false, usedIn: [2] }))).not.toContain('price-list.pdf');
    const files = await getFiles(s, filesFolder(s));
    const used = await getFiles(s, filesFolder(s), { used: true });
    const unused = await getFiles(s, filesFolder(s), { used: false });
    expect(names(used).sort()).toEqual(['annual-report-2023.pdf', 'brochure.pdf', 'product-sheet.pdf', 'stylesheet.css', 'terms.txt']);
    expect(used.length + unused.length).toBe(files.length);
  });

  it('FLT-08: niceurl is a regular expression; an invalid one is refused with INVALIDDATA', async () => {
    const s = freshState();
    expect(names(await getFiles(s, filesFolder(s), { niceurl: '^/(downloads|reports)/' })).sort()).toEqual([
      'annual-report-2023.pdf',
      'brochure.pdf',
    ]);
    expect(names(await getFiles(s, filesFolder(s), { niceurl: 'csv$' }))).toEqual(['data.csv']);
    const r = await refused(s, 'folder.getFiles', { path: { folderId: filesFolder(s) }, query: { niceurl: '([' } });
    expect([r.code, r.property]).toEqual(['INVALIDDATA', 'niceurl']);
  });

  it('GET /file applies the same filters', async () => {
    const s = freshState();
    const res = await call(s, 'file.list', { query: { folderId: String(filesFolder(s)), online: false, broken: false } });
    expect(names(res.items).sort()).toEqual(['archive.zip', 'draft.docx', 'notes.txt']);
  });
});

describe('find', () => {
  it('FLT-10: query matches names in sub-folders by default; folderId 0 searches all folders', async () => {
    const s = freshState();
    const files = filesFolder(s);
    const find = async (query: Record<string, unknown>) => names((await call(s, 'folder.findFiles', { query: query as never })).files);
    expect(await find({ folderId: files, query: 'GUIDE' })).toEqual(['guide.pdf']);
    expect(await find({ folderId: files, query: 'guide', recursive: false })).toEqual([]);
    expect(await find({ query: 'shop-flyer' })).toEqual(['shop-flyer.pdf']);
    expect(await find({ query: 'campaign' })).toEqual([]);
    expect(await find({ query: 'logo' })).toEqual([]);
    const pages = names((await call(s, 'folder.findPages', { query: { folderId: ids(s).pagesFolderId, query: 'press' } })).pages);
    expect(pages).toEqual(['Impressum', 'Press kit', 'Press release 2023']);
  });

  it('links=frontend gives the published URL, backend the backend URL', async () => {
    const s = freshState();
    const find = async (links: string) =>
      ((await call(s, 'folder.findFiles', { query: { query: 'guide.pdf', links } })).files as Body[])[0]!.url;
    expect(await find('frontend')).toBe('https://www.example.com/files/downloads/manuals/guide.pdf');
    expect(await find('backend')).toMatch(/^\/rest\/file\/content\/load\/\d+$/);
  });

  it('finds what was uploaded a moment ago', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Fresh');
    await upload(s, folder.id, 'needle-in-haystack.txt', 'n');
    expect(names((await call(s, 'folder.findFiles', { query: { query: 'needle' } })).files)).toEqual(['needle-in-haystack.txt']);
  });
});
