/** Wastebin listings (WST) and the delete rules of contract section 3 (DEL). */
import { describe, expect, it } from 'vitest';
import type { State } from '../../server/state.ts';
import { call, freshState, ids, named, names, NOW_MS, refused, sandboxFolder, upload, type Body } from './helpers.ts';

const files = async (s: State, folderId: number, query: Record<string, string | number | boolean> = {}) =>
  (await call(s, 'folder.getFiles', { path: { folderId }, query })).files as Body[];

describe('wastebin listings', () => {
  it('WST-01: deleted items are absent with wastebin absent or exclude', async () => {
    const s = freshState();
    const bin = named(s, 'folder', 'Wastebin').id;
    expect(names(await files(s, bin))).toEqual(['keep-me.txt']);
    expect(names(await files(s, bin, { wastebin: 'exclude', recursive: true }))).toEqual(['keep-me.txt']);
  });

  it('WST-02: include lists deleted and live items, deleted ones with deleted.at and deleted.by', async () => {
    const s = freshState();
    const listed = await files(s, named(s, 'folder', 'Wastebin').id, { wastebin: 'include' });
    expect(names(listed).sort()).toEqual(['keep-me.txt', 'outdated-price-list.pdf']);
    const deleted = listed.find((f) => f.name === 'outdated-price-list.pdf')!;
    expect(deleted.deleted).toMatchObject({ at: expect.any(Number), by: { id: 1, login: 'admin' } });
    expect(listed.find((f) => f.name === 'keep-me.txt')!.deleted).toBeUndefined();
  });

  it('WST-03: only lists exactly the deleted items', async () => {
    const s = freshState();
    const listed = await files(s, named(s, 'folder', 'Wastebin').id, { wastebin: 'only', recursive: true });
    expect(names(listed).sort()).toEqual(['asset.txt', 'campaign-flyer.pdf', 'outdated-price-list.pdf']);
  });

  it('WST-04: folder count honours wastebin', async () => {
    const s = freshState();
    const id = named(s, 'folder', 'Wastebin').id;
    const count = async (wastebin: string) =>
      (await call(s, 'folder.count', { path: { id }, query: { wastebin, recursive: true } })) as Body;
    const [exclude, include, only] = [await count('exclude'), await count('include'), await count('only')];
    for (const k of ['folders', 'pages', 'images', 'files']) expect(include[k]).toBe(exclude[k] + only[k]);
    expect(only).toMatchObject({ folders: 2, pages: 1, images: 1, files: 3 });
  });

  it('WST-05: items inside a deleted folder, listed with include, carry folderDeleted', async () => {
    const s = freshState();
    const campaign = named(s, 'folder', 'Old campaign').id;
    const listed = await files(s, campaign, { wastebin: 'include', recursive: true });
    expect(listed.length).toBeGreaterThan(0);
    for (const f of listed) expect(f.folderDeleted).toMatchObject({ at: expect.any(Number), by: { id: 2 } });
  });

  it('WST-06: an unknown wastebin value is treated as exclude', async () => {
    const s = freshState();
    expect(names(await files(s, named(s, 'folder', 'Wastebin').id, { wastebin: 'everything' }))).toEqual(['keep-me.txt']);
  });

  it('loading a deleted object by id gives NOTFOUND', async () => {
    const s = freshState();
    expect((await refused(s, 'folder.load', { path: { id: named(s, 'folder', 'Old campaign').id } })).code).toBe('NOTFOUND');
    expect((await refused(s, 'file.load', { path: { id: named(s, 'file', 'asset.txt').id } })).code).toBe('NOTFOUND');
  });
});

describe('delete', () => {
  it('DEL-05: deleting a local folder removes it and its content from default listings into the wastebin', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'To delete');
    const sub = (await call(s, 'folder.create', { body: { motherId: String(folder.id), name: 'Sub' } })).folder as Body;
    await upload(s, sub.id, 'inside.txt', 'x');
    await call(s, 'folder.delete', { path: { id: folder.id } });
    const sandbox = ids(s).sandboxParentFolderId;
    const list = async (wastebin: string) =>
      names((await call(s, 'folder.getFolders', { path: { id: sandbox }, query: { wastebin } })).folders);
    expect(await list('exclude')).not.toContain('To delete');
    expect(await list('only')).toEqual(['To delete']);
    const inside = await files(s, sub.id, { wastebin: 'only' });
    expect(inside).toHaveLength(1);
    // "Deleting puts the object (and, for a folder, everything in it, recursively) in the wastebin: deleted: {at, by} with at in seconds."
    expect(inside[0]!.deleted).toMatchObject({ at: Math.floor(NOW_MS / 1000), by: { id: 1 } });
    expect(inside[0]!.folderDeleted.at).toBe(Math.floor(NOW_MS / 1000));
  });

  it('DEL-01: deleting an inherited folder in a channel is refused and the folder stays in channel and master', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Inherited to keep');
    const before = JSON.stringify([...s.objects.values()]);
    const r = await refused(s, 'folder.delete', { path: { id: folder.id }, query: { nodeId: 2 } });
    // "an inherited folder is refused (has to be deleted in the master node) ... FAILURE (status 409)"
    expect([r.code, r.status, r.message]).toEqual(['FAILURE', 409, expect.stringMatching(/has to be deleted in the master node/)]);
    expect(JSON.stringify([...s.objects.values()])).toBe(before);
    for (const nodeId of [1, 2]) {
      const listed = (await call(s, 'folder.getFolders', { path: { id: ids(s).sandboxParentFolderId }, query: { nodeId } })).folders;
      expect(names(listed)).toContain('Inherited to keep');
    }
  });

  it('DEL-02: deleting a localized folder in a channel is refused and the copy stays', async () => {
    const s = freshState();
    const copy = named(s, 'folder', 'Localized folder', 2);
    for (const c of [
      { path: { id: copy.id }, query: { nodeId: 2 } },
      { path: { id: copy.id } },
      { path: { id: named(s, 'folder', 'Localized folder').id }, query: { nodeId: 2 } },
    ]) {
      const r = await refused(s, 'folder.delete', c);
      expect([r.code, r.status, r.message]).toEqual(['FAILURE', 409, expect.stringMatching(/unlocalize it instead/)]);
    }
    expect(copy.deleted).toBeUndefined();
    const channel = (await call(s, 'folder.getFolders', { path: { id: named(s, 'folder', 'Multichannel').id }, query: { nodeId: 2 } }))
      .folders as Body[];
    expect(channel.find((f) => f.name === 'Localized folder')!.id).toBe(copy.id);
  });

  it('DEL-03: deleting an inherited folder in its master removes it from the channel listings too', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Master delete');
    await call(s, 'folder.delete', { path: { id: folder.id }, query: { nodeId: 1 } });
    const channel = (await call(s, 'folder.getFolders', { path: { id: ids(s).sandboxParentFolderId }, query: { nodeId: 2 } })).folders;
    expect(names(channel)).not.toContain('Master delete');
  });

  it('deleting a master folder puts its localized copies in the wastebin with masterDeleted', async () => {
    const s = freshState();
    const master = named(s, 'folder', 'Localized folder');
    await call(s, 'folder.delete', { path: { id: master.id } });
    const only = (
      await call(s, 'folder.getFolders', { path: { id: named(s, 'folder', 'Multichannel').id }, query: { nodeId: 2, wastebin: 'only' } })
    ).folders as Body[];
    const copy = only.find((f) => f.name === 'Localized folder')!;
    expect(copy.masterDeleted).toMatchObject({ at: expect.any(Number) });
  });

  it('deleting a channel-local folder in its channel succeeds', async () => {
    const s = freshState();
    const local = named(s, 'folder', 'Shop specials', 2);
    await call(s, 'folder.delete', { path: { id: local.id }, query: { nodeId: 2 } });
    expect(local.deleted).toBeDefined();
  });

  it('refuses deleting a root folder, an unknown folder and a node the folder is not in', async () => {
    const s = freshState();
    expect((await refused(s, 'folder.delete', { path: { id: ids(s).masterRootFolderId } })).code).toBe('FAILURE');
    expect((await refused(s, 'folder.delete', { path: { id: 987654 } })).code).toBe('NOTFOUND');
    expect(
      (await refused(s, 'folder.delete', { path: { id: named(s, 'folder', 'Shop specials', 2).id }, query: { nodeId: 3 } })).code,
    ).toBe('NOTFOUND');
    expect((await refused(s, 'folder.delete', { path: { id: named(s, 'folder', 'Files').id }, query: { nodeId: 99 } })).code).toBe(
      'NOTFOUND',
    );
  });
});
