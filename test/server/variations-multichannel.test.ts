/**
 * The multichannel variations (server/variations.ts; asked in the plans of server/handlers/planted/, multichannel.ts
 * most of them): each is off by default and changes the answer it claims when switched on.
 */
import type { State } from '../../server/state.ts';
import type { VariationName } from '../../server/variations.ts';
import { type Body, named, describeVariations, type Probe, type Run } from './helpers.ts';

/** The variations this file probes: the other variation test files probe the rest. */
const AREA = [
  'push2master-removes-copy',
  'push2master-nothing-succeeds',
  'unlocalize-nothing-succeeds',
  'localize-again-succeeds',
  'excluded-reports-no-disinherit',
  'excluded-reports-every-channel',
  'exclude-clears-disinherit',
  'file-disinherit-pages-only',
  'file-disinherit-files-only',
  'unlocalize-files-only',
  'unlocalize-copy-id-only',
  'unlocalize-master-id-only',
  'push2master-copy-id-only',
  'push2master-master-id-only',
  'push2master-content-only',
  'push2master-local-refused',
  'localized-copy-inherited-true',
  'disinherit-noop-refused',
  'disinherit-effective-status',
  'localizationinfo-every-node',
  'localizationinfo-without-self',
  'delete-localized-master-refused',
  'copy-marked-deleted',
  'deleted-folder-not-found',
  'unlocalize-takes-content',
  'channel-create-refused',
  'duplicates-own-node-only',
] as const satisfies readonly VariationName[];

const SHOP = 2;
const mc = (s: State) => named(s, 'folder', 'Multichannel').id;
const idOf = (s: State, name: string, nodeId?: number) => named(s, 'file', name, nodeId).id;
const idList = (...list: number[]) => list.map(String);
/** A file of the Multichannel folder as the shop channel lists it. */
const inShop = async (run: Run, s: State, name: string) =>
  ((await run('folder.getFiles', { path: { folderId: mc(s) }, query: { nodeId: SHOP } })).files as Body[]).find((f) => f.name === name)!;
const disinheritOf = async (run: Run, id: number) => (await run('file.disinherit.get', { query: { id: idList(id) } })).disinherit;

/** A probe per variation: a request, or a few steps, whose answer the variation changes. */
const probes: Record<(typeof AREA)[number], Probe> = {
  'push2master-removes-copy': async (run, s) => {
    await run('file.push2master', { path: { id: idOf(s, 'localized.txt', SHOP) }, body: { channelId: SHOP } });
    const listed = await inShop(run, s, 'localized.txt');
    return [listed.id, listed.inherited];
  },
  // inherited.txt: the shop holds no copy of it, so there is nothing to push or unlocalize.
  'push2master-nothing-succeeds': (run, s) =>
    run('file.push2master', { path: { id: idOf(s, 'inherited.txt') }, body: { channelId: SHOP } }),
  'unlocalize-nothing-succeeds': (run, s) => run('file.unlocalize', { path: { id: idOf(s, 'inherited.txt') }, body: { channelId: SHOP } }),
  'localize-again-succeeds': (run, s) => run('file.localize', { path: { id: idOf(s, 'localized.txt') }, body: { channelId: SHOP } }),
  'excluded-reports-no-disinherit': async (run, s) => {
    // The fixture has no excluded object with a disinherit list: partner-excluded.txt (disinherited for 3) is excluded here.
    const id = idOf(s, 'partner-excluded.txt');
    await run('file.disinherit.set', { query: { id: idList(id) }, body: { exclude: true } });
    return disinheritOf(run, id);
  },
  'excluded-reports-every-channel': (run, s) => disinheritOf(run, idOf(s, 'excluded.txt')),
  'exclude-clears-disinherit': async (run, s) => {
    // Included again, the object shows whether the exclusion kept its list or cleared it.
    const id = idOf(s, 'partner-excluded.txt');
    await run('file.disinherit.set', { query: { id: idList(id) }, body: { exclude: true } });
    await run('file.disinherit.set', { query: { id: idList(id) }, body: { exclude: false } });
    return disinheritOf(run, id);
  },
  'file-disinherit-pages-only': (run, s) => disinheritOf(run, idOf(s, 'inherited.txt')),
  'file-disinherit-files-only': (run, s) => disinheritOf(run, named(s, 'page', 'Multichannel overview').id),
  'unlocalize-files-only': (run, s) =>
    run('file.unlocalize', { path: { id: named(s, 'folder', 'Localized folder').id }, body: { channelId: SHOP } }),
  'unlocalize-copy-id-only': (run, s) => run('file.unlocalize', { path: { id: idOf(s, 'localized.txt') }, body: { channelId: SHOP } }),
  'unlocalize-master-id-only': (run, s) =>
    run('file.unlocalize', { path: { id: idOf(s, 'localized.txt', SHOP) }, body: { channelId: SHOP } }),
  'push2master-copy-id-only': (run, s) => run('file.push2master', { path: { id: idOf(s, 'localized.txt') }, body: { channelId: SHOP } }),
  'push2master-master-id-only': (run, s) =>
    run('file.push2master', { path: { id: idOf(s, 'localized.txt', SHOP) }, body: { channelId: SHOP } }),
  'push2master-content-only': async (run, s) => {
    // The shop's copy differs from the master in its data and in its description.
    await run('file.push2master', { path: { id: idOf(s, 'localized.txt', SHOP) }, body: { channelId: SHOP } });
    const { file } = await run('file.load', { path: { id: idOf(s, 'localized.txt') } });
    return [file.fileSize, file.description];
  },
  'push2master-local-refused': (run, s) =>
    run('file.push2master', { path: { id: idOf(s, 'shop-only.txt', SHOP) }, body: { channelId: SHOP, masterId: 1 } }),
  'localized-copy-inherited-true': async (run, s) => (await inShop(run, s, 'localized.txt')).inherited,
  // shop-excluded.txt is disinherited for the shop already.
  'disinherit-noop-refused': (run, s) =>
    run('file.disinherit.set', { query: { id: idList(idOf(s, 'shop-excluded.txt')) }, body: { disinherit: [SHOP] } }),
  // shop-and-master.txt lies in "Not for partners", disinherited for the partner channel.
  'disinherit-effective-status': (run, s) => disinheritOf(run, idOf(s, 'shop-and-master.txt')),
  'localizationinfo-every-node': async (run, s) =>
    ((await run('folder.localizationinfo', { path: { id: mc(s) }, query: { nodeId: SHOP } })).channels as Body[]).map((c) => c.channelId),
  'localizationinfo-without-self': async (run, s) =>
    ((await run('folder.localizationinfo', { path: { id: named(s, 'folder', 'Inherited folder').id } })).channels as Body[]).map((c) => [
      c.channelId,
      c.folder,
    ]),
  'delete-localized-master-refused': (run, s) => run('folder.delete', { path: { id: named(s, 'folder', 'Localized folder').id } }),
  'copy-marked-deleted': async (run, s) => {
    await run('folder.delete', { path: { id: named(s, 'folder', 'Localized folder').id } });
    const query = { nodeId: SHOP, wastebin: 'only' };
    return ((await run('folder.getFolders', { path: { id: mc(s) }, query })).folders as Body[]).map((f) => [
      f.name,
      f.deleted !== undefined,
      f.masterDeleted !== undefined,
    ]);
  },
  'deleted-folder-not-found': async (run, s) =>
    (
      (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Old campaign').id }, query: { wastebin: 'include' } }))
        .files as Body[]
    ).map((f) => f.name),
  'unlocalize-takes-content': async (run, s) => {
    // The fixture localizes "Localized folder" in the shop but nothing in it: its file is localized too, then the folder alone unlocalized.
    const folder = named(s, 'folder', 'Localized folder').id;
    await run('file.localize', { path: { id: idOf(s, 'in-localized-folder.txt') }, body: { channelId: SHOP } });
    await run('file.unlocalize', { path: { id: folder }, body: { channelId: SHOP } });
    const { files } = await run('folder.getFiles', { path: { folderId: folder }, query: { nodeId: SHOP } });
    return (files as Body[]).map((f) => [f.name, f.inherited]);
  },
  // The shop inherits the Multichannel folder: it holds none of its own there.
  'channel-create-refused': async (run, s) =>
    (await run('folder.create', { body: { motherId: String(mc(s)), nodeId: SHOP, name: 'Shop folder' } })).folder.name,
  'duplicates-own-node-only': async (run, s) =>
    (await run('folder.create', { body: { motherId: String(mc(s)), nodeId: SHOP, name: 'Inherited folder' } })).folder.name,
};

describeVariations('the multichannel variations', AREA, probes);
