/** Multichannelling (MCH): inheritance into channels, localize/unlocalize, disinherit, push2master, localization info. */
import { describe, expect, it } from 'vitest';
import type { FileObj, State } from '../../server/state.ts';
import { call, freshState, ids, named, names, refused, sandboxFolder, upload, type Body } from './helpers.ts';

const filesIn = async (s: State, folderId: number, nodeId?: number) =>
  (await call(s, 'folder.getFiles', { path: { folderId }, query: nodeId ? { nodeId } : {} })).files as Body[];
const foldersIn = async (s: State, id: number, nodeId?: number) =>
  (await call(s, 'folder.getFolders', { path: { id }, query: nodeId ? { nodeId } : {} })).folders as Body[];
const channelEntry = (info: Body, channelId: number) => (info.channels as Body[]).find((c) => c.channelId === channelId)!;

describe('inheritance', () => {
  it('MCH-01: a master object appears in the channel with inherited true and inheritedFrom naming the master node', async () => {
    const s = freshState();
    const master = named(s, 'file', 'inherited.txt');
    const listed = (await filesIn(s, named(s, 'folder', 'Multichannel').id, 2)).find((f) => f.name === 'inherited.txt')!;
    expect(listed).toMatchObject({
      id: master.id,
      inherited: true,
      inheritedFrom: 'Corporate Website',
      inheritedFromId: 1,
      masterNode: 'Corporate Website',
    });
    const inMaster = (await filesIn(s, named(s, 'folder', 'Multichannel').id)).find((f) => f.name === 'inherited.txt')!;
    expect(inMaster.inherited).toBe(false);
  });

  it('MCH-06: excluded and disinherited objects are not visible in the channel, but in the master', async () => {
    const s = freshState();
    const mc = named(s, 'folder', 'Multichannel').id;
    expect(names(await filesIn(s, mc, 2))).not.toContain('excluded.txt');
    expect(names(await filesIn(s, mc, 2))).not.toContain('shop-excluded.txt');
    expect(names(await filesIn(s, mc, 3))).toContain('shop-excluded.txt');
    expect(names(await filesIn(s, mc))).toEqual(expect.arrayContaining(['excluded.txt', 'shop-excluded.txt']));
    expect(names(await foldersIn(s, mc, 2))).not.toContain('Master only');
    expect(names(await foldersIn(s, mc, 3))).not.toContain('Not for partners');
    expect(names(await foldersIn(s, mc, 2))).toContain('Not for partners');
    expect((await refused(s, 'folder.load', { path: { id: named(s, 'folder', 'Master only').id }, query: { nodeId: 2 } })).code).toBe(
      'NOTFOUND',
    );
  });

  it('channel roots are type channel, the master root type node, and neither has a motherId', async () => {
    const s = freshState();
    const root = (await call(s, 'folder.load', { path: { id: ids(s).masterRootFolderId } })).folder as Body;
    const channelRoot = (await call(s, 'folder.load', { path: { id: ids(s).channelRootFolderId } })).folder as Body;
    expect([root.type, root.motherId, root.path]).toEqual(['node', undefined, '/Corporate Website/']);
    expect([channelRoot.type, channelRoot.motherId, channelRoot.nodeId, channelRoot.inherited]).toEqual(['channel', undefined, 2, false]);
    const viaMasterId = (await call(s, 'folder.load', { path: { id: ids(s).masterRootFolderId }, query: { nodeId: 2 } })).folder as Body;
    expect(viaMasterId.id).toBe(ids(s).channelRootFolderId);
  });

  it('objects created in a channel are local there and invisible in the master', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Shop local', 2);
    expect(folder).toMatchObject({ inherited: false, nodeId: 2, channelId: 2 });
    expect(names(await foldersIn(s, ids(s).sandboxParentFolderId))).not.toContain('Shop local');
    expect(names(await foldersIn(s, ids(s).sandboxParentFolderId, 2))).toContain('Shop local');
  });
});

describe('localize and unlocalize', () => {
  it('MCH-02: localizing a file gives the channel a copy with its own id that is not inherited', async () => {
    const s = freshState();
    const master = named(s, 'file', 'inherited.txt');
    const mc = named(s, 'folder', 'Multichannel').id;
    const infoBefore = channelEntry(
      await call(s, 'folder.localizationinfo', { path: { id: mc }, query: { nodeId: 2, recursive: true } }),
      2,
    );
    await call(s, 'file.localize', { path: { id: master.id }, body: { channelId: 2 } });
    const copy = (await filesIn(s, mc, 2)).find((f) => f.name === 'inherited.txt')!;
    expect(copy.id).not.toBe(master.id);
    expect(copy).toMatchObject({ inherited: false, inheritedFrom: 'Shop Channel', masterNode: 'Corporate Website' });
    expect((await filesIn(s, mc)).find((f) => f.name === 'inherited.txt')!.id).toBe(master.id);
    const infoAfter = channelEntry(
      await call(s, 'folder.localizationinfo', { path: { id: mc }, query: { nodeId: 2, recursive: true } }),
      2,
    );
    expect([infoAfter.localized, infoAfter.inherited]).toEqual([infoBefore.localized + 1, infoBefore.inherited - 1]);
    expect(infoAfter.file.localized).toBe(infoBefore.file.localized + 1);
  });

  it('MCH-02: localizing a folder gives the channel a copy whose masterId names the master', async () => {
    const s = freshState();
    const master = named(s, 'folder', 'Inherited folder');
    await call(s, 'folder.localize', { path: { id: master.id }, body: { channelId: 2 } });
    const copy = (await foldersIn(s, named(s, 'folder', 'Multichannel').id, 2)).find((f) => f.name === 'Inherited folder')!;
    expect(copy).toMatchObject({ inherited: false, masterId: master.id, channelsetId: master.channelSetId, isMaster: false, nodeId: 2 });
    expect(copy.id).not.toBe(master.id);
    // The copy's content is still the master's files, seen from the channel.
    expect(names(await filesIn(s, copy.id, 2)).sort()).toEqual(['inherited-a.txt', 'inherited-b.txt']);
  });

  it('MCH-03, DEL-04: unlocalizing removes the copy and the channel sees the master again', async () => {
    const s = freshState();
    const master = named(s, 'file', 'localized.txt');
    const copy = named(s, 'file', 'localized.txt', 2);
    await call(s, 'file.unlocalize', { path: { id: copy.id }, body: { channelId: 2 } });
    const listed = (await filesIn(s, named(s, 'folder', 'Multichannel').id, 2)).find((f) => f.name === 'localized.txt')!;
    expect([listed.id, listed.inherited]).toEqual([master.id, true]);
    expect((await refused(s, 'file.load', { path: { id: copy.id } })).code).toBe('NOTFOUND');
  });

  it('DEL-04: a localized folder is unlocalized through its id and the channel sees the master folder again', async () => {
    const s = freshState();
    const master = named(s, 'folder', 'Localized folder');
    await call(s, 'file.unlocalize', { path: { id: master.id }, body: { channelId: 2, recursive: true } });
    const listed = (await foldersIn(s, named(s, 'folder', 'Multichannel').id, 2)).find((f) => f.name === 'Localized folder')!;
    expect([listed.id, listed.inherited]).toEqual([master.id, true]);
  });

  it('refuses to localize into a non-channel, twice, or an object the channel does not see', async () => {
    const s = freshState();
    const file = named(s, 'file', 'inherited.txt').id;
    expect((await refused(s, 'file.localize', { path: { id: file }, body: { channelId: 1 } })).property).toBe('channelId');
    expect((await refused(s, 'file.localize', { path: { id: file }, body: {} })).property).toBe('channelId');
    expect((await refused(s, 'file.localize', { path: { id: named(s, 'file', 'localized.txt').id }, body: { channelId: 2 } })).code).toBe(
      'INVALIDDATA',
    );
    expect((await refused(s, 'file.localize', { path: { id: named(s, 'file', 'excluded.txt').id }, body: { channelId: 2 } })).code).toBe(
      'INVALIDDATA',
    );
    expect((await refused(s, 'folder.localize', { path: { id: 987654 }, body: { channelId: 2 } })).code).toBe('NOTFOUND');
    expect((await refused(s, 'file.unlocalize', { path: { id: file }, body: { channelId: 2 } })).code).toBe('INVALIDDATA');
  });

  it('MCH-04: localizations lists the copies of a master with their nodes', async () => {
    const s = freshState();
    const master = named(s, 'file', 'inherited-a.txt');
    await call(s, 'file.localize', { path: { id: master.id }, body: { channelId: 2 } });
    const res = await call(s, 'file.localizations', { path: { id: master.id } });
    const copies = [named(s, 'file', 'inherited-a.txt', 2), named(s, 'file', 'inherited-a.txt', 3)];
    expect(res).toMatchObject({ masterId: master.id, masterNodeId: 1, total: 2, hidden: 0 });
    expect(res.nodeIds).toEqual({ [copies[0]!.id]: 2, [copies[1]!.id]: 3 });
    expect([...res.online, ...res.offline].sort()).toEqual(copies.map((c) => c.id).sort());
    expect((await call(s, 'folder.localizations', { path: { id: named(s, 'folder', 'Files').id } })).total).toBe(0);
  });
});

describe('disinherit', () => {
  it('MCH-05: the single GET form reads back what the single POST form set', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Disinherit me');
    expect(await call(s, 'folder.disinherit.get', { path: { id: folder.id } })).toEqual({
      exclude: false,
      disinheritDefault: false,
      disinherit: [],
      inheritable: [2, 3],
    });
    await call(s, 'folder.disinherit.set', { path: { id: folder.id }, body: { disinherit: [3], disinheritDefault: true } });
    expect(await call(s, 'folder.disinherit.get', { path: { id: folder.id } })).toEqual({
      exclude: false,
      disinheritDefault: true,
      disinherit: [3],
      inheritable: [2, 3],
    });
    await call(s, 'folder.disinherit.set', { path: { id: folder.id }, body: { reinherit: [3], exclude: true } });
    expect(await call(s, 'folder.disinherit.get', { path: { id: folder.id } })).toMatchObject({ exclude: true, disinherit: [] });
    expect(names(await foldersIn(s, ids(s).sandboxParentFolderId, 2))).not.toContain('Disinherit me');
  });

  it('MCH-05: the list forms report shared and partial disinheritance', async () => {
    const s = freshState();
    const [a, b] = [await sandboxFolder(s, 'A'), await sandboxFolder(s, 'B')];
    await call(s, 'folder.disinherit.setMany', { query: { id: [String(a.id), String(b.id)] }, body: { disinherit: [2] } });
    await call(s, 'folder.disinherit.set', { path: { id: b.id }, body: { disinherit: [3] } });
    expect(await call(s, 'folder.disinherit.getMany', { query: { id: [String(a.id), String(b.id)] } })).toEqual({
      exclude: false,
      disinherit: [2],
      partialDisinherit: [3],
      inheritable: [2, 3],
    });
    const file = await upload(s, a.id, 'f.txt', 'x');
    await call(s, 'file.disinherit.set', { query: { id: [String(file.id)] }, body: { exclude: true } });
    expect(await call(s, 'file.disinherit.get', { query: { id: [String(file.id)] } })).toMatchObject({ exclude: true });
  });

  it('MCH-05: recursive applies the setting to the contained objects', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Tree');
    const file = await upload(s, folder.id, 'leaf.txt', 'leaf');
    await call(s, 'folder.disinherit.set', { path: { id: folder.id }, body: { disinherit: [2], recursive: true } });
    expect((await call(s, 'file.disinherit.get', { query: { id: [String(file.id)] } })).disinherit).toEqual([2]);
  });

  it('refuses channels outside the node, contradictions and disinheriting where a localized copy lives', async () => {
    const s = freshState();
    const id = named(s, 'folder', 'Inherited folder').id;
    expect((await refused(s, 'folder.disinherit.set', { path: { id }, body: { disinherit: [1] } })).property).toBe('disinherit');
    expect((await refused(s, 'folder.disinherit.set', { path: { id }, body: { disinherit: [2], reinherit: [2] } })).property).toBe(
      'reinherit',
    );
    const localized = named(s, 'folder', 'Localized folder').id;
    expect((await refused(s, 'folder.disinherit.set', { path: { id: localized }, body: { disinherit: [2] } })).code).toBe('FAILURE');
    expect((await call(s, 'folder.disinherit.get', { path: { id: localized } })).disinherit).toEqual([]);
  });
});

describe('push2master', () => {
  it('MCH-07: pushing a localized file copies its content into the master', async () => {
    const s = freshState();
    const copy = named(s, 'file', 'localized.txt', 2) as FileObj;
    const master = named(s, 'file', 'localized.txt') as FileObj;
    await call(s, 'file.push2master', { path: { id: copy.id }, body: { channelId: 2 } });
    expect(master.data?.toString()).toBe('shop version\n');
    const loaded = (await call(s, 'file.load', { path: { id: master.id } })).file as Body;
    expect([loaded.fileSize, loaded.description]).toEqual([copy.data!.length, 'Localized in the shop']);
  });

  it('MCH-07: pushing a channel-local file makes it a master file inherited by the channel', async () => {
    const s = freshState();
    const local = named(s, 'file', 'shop-only.txt', 2);
    await call(s, 'file.push2master', { path: { id: local.id }, body: { channelId: 2, masterId: 1 } });
    const mc = named(s, 'folder', 'Multichannel').id;
    expect(names(await filesIn(s, mc))).toContain('shop-only.txt');
    expect((await filesIn(s, mc, 2)).find((f) => f.name === 'shop-only.txt')!.inherited).toBe(true);
  });

  it('refuses pushing what the channel does not hold, to a node that is not its master', async () => {
    const s = freshState();
    expect(
      (await refused(s, 'file.push2master', { path: { id: named(s, 'file', 'inherited.txt').id }, body: { channelId: 2 } })).code,
    ).toBe('INVALIDDATA');
    expect(
      (await refused(s, 'file.push2master', { path: { id: named(s, 'file', 'localized.txt', 2).id }, body: { channelId: 2, masterId: 3 } }))
        .property,
    ).toBe('masterId');
    const inLocalFolder = named(s, 'file', 'specials.txt', 2);
    expect((await refused(s, 'file.push2master', { path: { id: inLocalFolder.id }, body: { channelId: 2 } })).message).toMatch(
      /push the folder first/,
    );
  });
});

describe('localization info', () => {
  it('MCH-08: counters per channel and per kind match the objects present', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Counted');
    const [a] = [await upload(s, folder.id, 'a.txt', 'a'), await upload(s, folder.id, 'b.txt', 'b')];
    await call(s, 'file.localize', { path: { id: a.id }, body: { channelId: 2 } });
    await call(s, 'file.create.multipart', {
      multipart: {
        fields: { folderId: String(folder.id), nodeId: '2', fileName: 'c.txt' },
        files: [{ fieldName: 'fileBinaryData', mimeType: 'text/plain', data: Buffer.from('c') }],
      },
    });
    const info = await call(s, 'folder.localizationinfo', { path: { id: folder.id }, query: { nodeId: 2, recursive: true } });
    expect((info.channels as Body[]).map((c) => c.channelId)).toEqual([2, 1]);
    // The linked standard template is localized in the shop channel by the fixture.
    expect(channelEntry(info, 2)).toMatchObject({
      inherited: 2,
      localized: 2,
      local: 1,
      file: { inherited: 1, localized: 1, local: 1 },
      folder: { inherited: 1, localized: 0, local: 0 },
      template: { localized: 1 },
    });
    expect(channelEntry(info, 1)).toMatchObject({ inherited: 0, localized: 0, local: 4, file: { local: 2 } });
    const fileInfo = await call(s, 'file.localizationinfo', { path: { id: a.id } });
    expect((fileInfo.channels as Body[]).map((c) => [c.channelId, c.inherited, c.localized, c.local])).toEqual([
      [1, 0, 0, 1],
      [2, 0, 1, 0],
      [3, 1, 0, 0],
    ]);
  });

  it('MCH-08: without recursive only the folder and its direct content count', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Shallow');
    const sub = (await call(s, 'folder.create', { body: { motherId: String(folder.id), name: 'Deep' } })).folder as Body;
    await upload(s, sub.id, 'deep.txt', 'd');
    const count = async (recursive: boolean) =>
      channelEntry(await call(s, 'folder.localizationinfo', { path: { id: folder.id }, query: { recursive } }), 1).file.local;
    expect([await count(false), await count(true)]).toEqual([0, 1]);
  });
});
