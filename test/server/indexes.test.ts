/**
 * The store's derived structures stay consistent through every change: the per-folder name index
 * (unique names `base_1.ext`, failOnDuplicate, move conflicts) and the kept sorted listings answer what
 * a naive computation over the whole store gives, through random sequences of create, overwrite,
 * rename (save), move, copy, localize, unlocalize, push to master, folder create and folder delete
 * (the wastebin).
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { handlers } from '../../server/handlers/index.ts';
import { compareValues, isEmptyFilter, legacySortKeys, objectPredicate, type ObjectFilter } from '../../server/handlers/listing.ts';
import { uniqueFileName } from '../../server/handlers/mutations.ts';
import { faults as plantedFaults } from '../../server/faults.ts';
import {
  masterDeleted,
  nameKey,
  nameTaken,
  resolveInView,
  viewOf,
  type ChildKind,
  type FileObj,
  type FolderObj,
  type Obj,
  type State,
  type View,
} from '../../server/state.ts';
import { Refusal } from '../../server/types.ts';
import { freshState, ids, part, request, sandboxFolder, type Call } from './helpers.ts';

const none = new Set<string>();
/** Names that collide: ignoring case, with the suffixes the unique-name rule picks, with and without an extension. */
const FILE_NAMES = ['a.txt', 'A.TXT', 'a_1.txt', 'a_2.txt', 'b.txt', 'B.txt', 'notes.md', 'Notes.md'];
const FOLDER_NAMES = ['News', 'news', 'News1', 'Archive'];
const NODES = [1, 2, 3];

/** Calls a handler directly; a refusal is returned, not thrown. */
async function attempt(state: State, operationId: string, c: Call): Promise<Record<string, unknown> | Refusal> {
  try {
    return await handlers[operationId]!(state, request(operationId, c), { faults: none });
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Naive computations: scans of the whole store, no index.

/** Channel sets of a kind whose variants live in a folder set, found by scanning every object. */
function setsIn(state: State, folderSet: number, kinds: readonly ChildKind[]): number[] {
  const sets = new Set<number>();
  for (const o of state.objects.values())
    if (o.kind !== 'template' && kinds.includes(o.kind) && o.parentSet === folderSet) sets.add(o.channelSetId);
  return [...sets];
}

/** Whether a node sees the other's objects as conflicting: one is in the other's master chain. */
function related(state: State, a: number, b: number): boolean {
  return state.nodes.get(a)!.chain.includes(b) || state.nodes.get(b)!.chain.includes(a);
}

/** The lower-cased names taken in a folder set for a node, by the naming rule (live variants of related nodes). */
function naiveTaken(state: State, folderSet: number, kinds: readonly ChildKind[], nodeId: number, exceptSet?: number): Set<string> {
  const names = new Set<string>();
  for (const set of setsIn(state, folderSet, kinds)) {
    if (set === exceptSet) continue;
    for (const v of state.sets.get(set) ?? []) if (!v.deleted && related(state, v.nodeId, nodeId)) names.add(nameKey(v));
  }
  return names;
}

type Wastebin = 'exclude' | 'include' | 'only';

/** The files a folder listing holds in a view, from scans of the whole store (collectChildren's rules). */
function naiveFiles(state: State, folder: FolderObj, view: View, recursive: boolean, wastebin: Wastebin): FileObj[] {
  const out: FileObj[] = [];
  const visit = (f: FolderObj, above: boolean, depth: number) => {
    const own = above || f.deleted !== undefined;
    for (const set of setsIn(state, f.channelSetId, ['file'])) {
      const v = resolveInView(state, set, view);
      if (!v) continue;
      const deleted = own || v.deleted !== undefined || masterDeleted(state, v) !== undefined;
      if (wastebin === 'include' || (wastebin === 'only') === deleted) out.push(v as FileObj);
    }
    if (!recursive || depth > 200) return;
    for (const set of setsIn(state, f.channelSetId, ['folder'])) {
      const sub = resolveInView(state, set, view) as FolderObj | undefined;
      if (!sub || (wastebin === 'exclude' && (own || sub.deleted !== undefined))) continue;
      visit(sub, own, depth + 1);
    }
  };
  visit(folder, false, 0);
  return out;
}

/** Sorts by keys in order (a direction each), ties by id in `tieDir`. */
function naiveSort<T extends Obj>(items: T[], specs: { key: (o: Obj) => unknown; dir: number }[], tieDir: number): T[] {
  return [...items].sort((a, b) => {
    for (const { key, dir } of specs) {
      const c = compareValues(key(a) as string | number | undefined, key(b) as string | number | undefined, none);
      if (c !== 0) return dir * c;
    }
    return tieDir * (a.id - b.id);
  });
}

/** Group P file attributes the checks sort by. */
const ATTRIBUTES: Record<string, (o: Obj) => unknown> = {
  id: (o) => o.id,
  name: (o) => o.name,
  fileSize: (o) => (o as FileObj).data?.length ?? 0,
  fileType: (o) => (o as FileObj).fileType,
  cdate: (o) => o.cdate,
};

// ---------------------------------------------------------------------------------------------
// Operations and checks

type Op =
  | { op: 'create'; folder: number; name: number; node: 0 | 2 | 3; dup: boolean; overwrite: boolean }
  | { op: 'rename'; file: number; name: number; dup: boolean; copy: boolean }
  | { op: 'move'; file: number; folder: number }
  | { op: 'copy'; file: number; folder: number; name: number | null }
  | { op: 'localize'; file: number; channel: 2 | 3 }
  | { op: 'unlocalize'; file: number }
  | { op: 'push'; file: number }
  | { op: 'folder'; parent: number; name: number }
  | { op: 'delete'; folder: number };

/** One listing the checks compare: which folder, how it is asked. */
interface Listing {
  folder: number;
  legacy: boolean;
  sort: number;
  desc: boolean;
  node: 1 | 2;
  wastebin: Wastebin;
  recursive: boolean;
  search: boolean;
  skip: number;
  max: number;
}

const LEGACY_KEYS = ['name', 'size', 'type', 'cdate', 'edate', 'folder', 'filename'];
const PAGED_SORTS = ['name', '-name', 'fileSize', '-cdate,name', 'fileType,-id'];

const index = fc.nat({ max: 1000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('create' as const),
      folder: index,
      name: index,
      node: fc.constantFrom(0 as const, 2 as const, 3 as const),
      dup: fc.boolean(),
      overwrite: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('rename' as const), file: index, name: index, dup: fc.boolean(), copy: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('move' as const), file: index, folder: index }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('copy' as const), file: index, folder: index, name: fc.option(index) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('localize' as const), file: index, channel: fc.constantFrom(2 as const, 3 as const) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('unlocalize' as const), file: index }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('push' as const), file: index }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('folder' as const), parent: index, name: index }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), folder: index }) },
);
const listingArb: fc.Arbitrary<Listing> = fc.record({
  folder: index,
  legacy: fc.boolean(),
  sort: index,
  desc: fc.boolean(),
  node: fc.constantFrom(1 as const, 2 as const),
  wastebin: fc.constantFrom<Wastebin>('exclude', 'include', 'only'),
  recursive: fc.boolean(),
  search: fc.boolean(),
  skip: fc.nat({ max: 6 }),
  max: fc.integer({ min: -1, max: 5 }),
});

/** The sandbox the operations work in: folders created by the test (the first never deleted). */
interface World {
  state: State;
  folders: number[];
}

const pick = <T>(list: readonly T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);
const folderObj = (w: World, id: number) => w.state.objects.get(id) as FolderObj;

/** Every file variant in the sandbox's folders. */
function sandboxFiles(w: World): FileObj[] {
  const sets = new Set(w.folders.map((id) => folderObj(w, id).channelSetId));
  return [...w.state.objects.values()].filter((o): o is FileObj => o.kind === 'file' && sets.has(o.parentSet));
}

/** Carries out one operation, checking the names it gives against the naive rule. */
async function apply(w: World, o: Op): Promise<void> {
  const s = w.state;
  const files = sandboxFiles(w);
  switch (o.op) {
    case 'create': {
      const folder = folderObj(w, pick(w.folders, o.folder)!);
      const name = pick(FILE_NAMES, o.name)!;
      const node = o.node === 0 ? folder.nodeId : o.node;
      const taken = naiveTaken(s, folder.channelSetId, ['file', 'image'], node);
      // Files overwrite would replace (several only after push2master moved a channel's file into the master).
      const same = files.filter((f) => f.parentSet === folder.channelSetId && f.nodeId === node && f.name === name && !f.deleted);
      const fields: Record<string, string> = { folderId: String(folder.id), fileName: name };
      if (o.node !== 0) fields.nodeId = String(o.node);
      if (o.dup) fields.failOnDuplicate = 'true';
      if (o.overwrite) fields.overwrite = 'true';
      const before = s.objects.size;
      const res = await attempt(s, 'file.create.multipart', {
        multipart: { fields, files: [part('fileBinaryData', `data ${s.nextId}`, name, 'text/plain')] },
      });
      if (res instanceof Refusal) {
        // Only the duplicate rule refuses a name; other refusals (a folder in the wastebin or not in the channel) name the folder.
        if (res.property === 'fileName') expect(o.dup && taken.has(name.toLowerCase()) && !(o.overwrite && same.length > 0)).toBe(true);
        return;
      }
      const created = res.file as { id: number; name: string };
      if (o.overwrite && same.length > 0) {
        expect(same.map((f) => f.id)).toContain(created.id);
        expect([created.name, s.objects.size]).toEqual([name, before]);
      } else {
        expect(o.dup && taken.has(name.toLowerCase())).toBe(false);
        expect(created.name).toBe(uniqueFileName(name, taken));
      }
      return;
    }
    case 'rename': {
      // Renaming localized copies too: push2master then renames their master.
      const copies = files.filter((f) => f.masterId !== undefined);
      const file = pick(o.copy && copies.length > 0 ? copies : files, o.file);
      if (!file) return;
      const name = pick(FILE_NAMES, o.name)!;
      const taken = naiveTaken(s, file.parentSet, ['file', 'image'], file.nodeId, file.channelSetId);
      const old = file.name;
      const res = await attempt(s, 'file.save.json', { path: { id: file.id }, body: { file: { name }, failOnDuplicate: o.dup } });
      if (res instanceof Refusal) {
        if (res.property === 'file.name') expect(o.dup && name !== old && taken.has(name.toLowerCase())).toBe(true);
        return;
      }
      expect(file.name).toBe(name === old ? old : uniqueFileName(name, taken));
      return;
    }
    case 'move': {
      const file = pick(files, o.file);
      const target = folderObj(w, pick(w.folders, o.folder)!);
      if (!file) return;
      const conflict = naiveTaken(s, target.channelSetId, ['file', 'image'], file.nodeId).has(file.name.toLowerCase());
      const from = file.parentSet;
      const res = await attempt(s, 'file.move', { path: { id: file.id }, body: { folderId: target.id } });
      if (res instanceof Refusal) {
        if (res.message.includes('already holds')) expect(conflict).toBe(true);
        return;
      }
      if (from !== target.channelSetId) expect([conflict, file.parentSet]).toEqual([false, target.channelSetId]);
      return;
    }
    case 'copy': {
      const file = pick(files, o.file);
      const target = folderObj(w, pick(w.folders, o.folder)!);
      if (!file) return;
      const wanted = o.name === null ? file.name : pick(FILE_NAMES, o.name)!;
      const taken = naiveTaken(s, target.channelSetId, ['file', 'image'], target.nodeId);
      const res = await attempt(s, 'file.copy', {
        body: { file: { id: file.id }, targetFolder: { id: target.id }, ...(o.name === null ? {} : { newFilename: wanted }) },
      });
      if (!(res instanceof Refusal)) expect((res.file as { name: string }).name).toBe(uniqueFileName(wanted, taken));
      return;
    }
    case 'localize': {
      const file = pick(files, o.file);
      if (file) await attempt(s, 'file.localize', { path: { id: file.id }, body: { channelId: o.channel } });
      return;
    }
    case 'unlocalize': {
      const file = pick(
        files.filter((f) => f.masterId !== undefined),
        o.file,
      );
      if (file) await attempt(s, 'file.unlocalize', { path: { id: file.id }, body: { channelId: file.nodeId } });
      return;
    }
    case 'push': {
      const file = pick(
        files.filter((f) => f.nodeId !== 1),
        o.file,
      );
      if (file) await attempt(s, 'file.push2master', { path: { id: file.id }, body: { channelId: file.nodeId } });
      return;
    }
    case 'folder': {
      const mother = folderObj(w, pick(w.folders, o.parent)!);
      const name = pick(FOLDER_NAMES, o.name)!;
      const taken = naiveTaken(s, mother.channelSetId, ['folder'], mother.nodeId);
      const res = await attempt(s, 'folder.create', { body: { motherId: String(mother.id), name } });
      if (res instanceof Refusal) return;
      const folder = res.folder as { id: number; name: string };
      let expected = name;
      for (let i = 1; taken.has(expected.toLowerCase()); i++) expected = `${name}${i}`;
      expect(folder.name).toBe(expected);
      w.folders.push(folder.id);
      return;
    }
    case 'delete': {
      const folder = pick(w.folders.slice(1), o.folder);
      if (folder !== undefined) await attempt(s, 'folder.delete', { path: { id: folder } });
      return;
    }
  }
}

/** Every name question the index answers for the sandbox, compared with the naive rule. */
function checkNames(w: World): void {
  const s = w.state;
  const folderSets = [
    ...new Set([...w.folders.map((id) => folderObj(w, id).channelSetId), folderObj(w, ids(s).sandboxParentFolderId).channelSetId]),
  ];
  const candidates = new Set([...FILE_NAMES, ...FOLDER_NAMES, 'a_3.txt', 'unused.txt'].map((n) => n.toLowerCase()));
  for (const o of s.objects.values()) if (o.kind !== 'template' && folderSets.includes(o.parentSet)) candidates.add(nameKey(o));
  for (const folderSet of folderSets) {
    for (const kinds of [['file', 'image'], ['folder']] as ChildKind[][]) {
      const excepts = [undefined, ...setsIn(s, folderSet, kinds).slice(0, 3)];
      for (const node of NODES) {
        for (const except of excepts) {
          const naive = naiveTaken(s, folderSet, kinds, node, except);
          for (const name of candidates) {
            if (nameTaken(s, folderSet, kinds, node, name, except) !== naive.has(name))
              expect({ folderSet, kinds, node, except, name, indexed: !naive.has(name) }).toBe('the naive answer');
          }
        }
      }
    }
  }
}

/** One listing through its handler (getFiles or GET /file) compared with the naive computation. */
async function checkListing(w: World, l: Listing): Promise<void> {
  const s = w.state;
  const folderId = pick(w.folders, l.folder)!;
  const view = viewOf(s, l.node);
  const common: Record<string, string | number | boolean> = { nodeId: l.node, wastebin: l.wastebin, recursive: l.recursive };
  if (l.search) common.search = 'a';
  const legacyKey = pick(LEGACY_KEYS, l.sort)!;
  const pagedSort = pick(PAGED_SORTS, l.sort)!;
  const res = l.legacy
    ? await attempt(s, 'folder.getFiles', {
        path: { folderId },
        query: { ...common, sortby: legacyKey, sortorder: l.desc ? 'desc' : 'asc', skipCount: l.skip, maxItems: l.max },
      })
    : await attempt(s, 'file.list', {
        query: { ...common, folderId: String(folderId), sort: pagedSort, page: l.skip + 1, pageSize: l.max },
      });
  const folder = resolveInView(s, folderObj(w, folderId).channelSetId, view) as FolderObj | undefined;
  if (res instanceof Refusal) {
    expect(res.code).toBe('NOTFOUND');
    return;
  }
  const filter: ObjectFilter = {
    createdbefore: 0,
    createdsince: 0,
    editedbefore: 0,
    editedsince: 0,
    creatorIds: [],
    editorIds: [],
    iscreator: false,
    iseditor: false,
    ...(l.search ? { search: 'a' } : {}),
  };
  const keep = objectPredicate(s, view, filter, none);
  const items = naiveFiles(s, folder!, view, l.recursive, l.wastebin).filter((o) => keep(o));
  let sorted: FileObj[];
  if (l.legacy) {
    const dir = l.desc ? -1 : 1;
    sorted = naiveSort(items, [{ key: legacySortKeys(s, view)[legacyKey]!, dir }], dir);
  } else {
    const specs = pagedSort.split(',').map((p) => ({ key: ATTRIBUTES[p.replace(/^-/, '')]!, dir: p.startsWith('-') ? -1 : 1 }));
    sorted = naiveSort(items, specs, 1);
  }
  const start = l.legacy ? l.skip : l.skip * Math.max(l.max, 0);
  const page = l.max < 0 ? sorted.slice(start) : sorted.slice(start, start + l.max);
  const listed = (l.legacy ? res.files : res.items) as { id: number }[];
  const expected = l.max < 0 && !l.legacy ? sorted : page;
  const more = l.legacy ? l.max >= 0 && sorted.length > l.skip + l.max : l.max >= 0 && start + l.max < sorted.length;
  expect({ ids: listed.map((r) => r.id), numItems: res.numItems, more: res.hasMoreItems }).toEqual({
    ids: expected.map((o) => o.id),
    numItems: sorted.length,
    more,
  });
}

async function freshWorld(): Promise<World> {
  const state = freshState();
  const a = await sandboxFolder(state, 'Index A');
  const b = await sandboxFolder(state, 'Index B');
  return { state, folders: [a.id as number, b.id as number] };
}

describe('name index and kept listings', () => {
  test.prop(
    [fc.array(fc.record({ op: opArb, checks: fc.array(listingArb, { minLength: 1, maxLength: 3 }) }), { minLength: 10, maxLength: 40 })],
    {
      numRuns: 25,
    },
  )(
    'agree with naive computations through random changes',
    async (steps) => {
      const w = await freshWorld();
      for (const { op, checks } of steps) {
        await apply(w, op);
        checkNames(w);
        for (const l of checks) await checkListing(w, l);
      }
    },
    120_000,
  );

  it('a page read twice between changes is the same; a change shows on the next read', async () => {
    const w = await freshWorld();
    const s = w.state;
    for (const name of ['notes.md', 'a.txt', 'b.txt'])
      await apply(w, { op: 'create', folder: 0, name: FILE_NAMES.indexOf(name), node: 0, dup: false, overwrite: false });
    const page = async () => (await attempt(s, 'folder.getFiles', { path: { folderId: w.folders[0]! } })) as { files: { name: string }[] };
    const first = await page();
    expect((await page()).files.map((f) => f.name)).toEqual(['a.txt', 'b.txt', 'notes.md']);
    expect(first.files.map((f) => f.name)).toEqual(['a.txt', 'b.txt', 'notes.md']);
    const c = sandboxFiles(w).find((f) => f.name === 'notes.md')!;
    await attempt(s, 'file.save.json', { path: { id: c.id }, body: { file: { name: 'A_1.txt' } } });
    expect((await page()).files.map((f) => f.name)).toEqual(['a.txt', 'A_1.txt', 'b.txt']);
  });

  it('push2master renames the master to the name of its copy: the old name is free, the new one taken', async () => {
    const w = await freshWorld();
    const s = w.state;
    await apply(w, { op: 'create', folder: 0, name: FILE_NAMES.indexOf('b.txt'), node: 0, dup: false, overwrite: false });
    const master = sandboxFiles(w)[0]!;
    await attempt(s, 'file.localize', { path: { id: master.id }, body: { channelId: 2 } });
    const copy = sandboxFiles(w).find((f) => f.masterId === master.id)!;
    await attempt(s, 'file.save.json', { path: { id: copy.id }, body: { file: { name: 'notes.md' } } });
    await attempt(s, 'file.push2master', { path: { id: copy.id }, body: { channelId: 2 } });
    expect(master.name).toBe('notes.md');
    const set = folderObj(w, w.folders[0]!).channelSetId;
    expect([nameTaken(s, set, ['file'], 1, 'notes.md'), nameTaken(s, set, ['file'], 1, 'b.txt')]).toEqual([true, false]);
    checkNames(w);
  });

  it('base_i.ext: a suffix freed by a rename or a move is given again (a channel copy about too); many uploads of one name count on', async () => {
    const w = await freshWorld();
    const s = w.state;
    const create = async (name: string, folder = 0) => {
      const folderId = w.folders[folder]!;
      const res = await attempt(s, 'file.createSimple.raw', {
        query: { folderId, qqfile: name, nodeId: 0, overwrite: false },
        rawBody: { contentType: 'text/plain', data: Buffer.from('x') },
      });
      return (res as { file: { id: number; name: string } }).file;
    };
    const made = [];
    for (let i = 0; i < 30; i++) made.push((await create('same.txt')).name);
    expect(made).toEqual(['same.txt', ...Array.from({ length: 29 }, (_, i) => `same_${i + 1}.txt`)]);
    const byName = (name: string) => sandboxFiles(w).find((f) => f.name === name)!;
    await attempt(s, 'file.save.json', { path: { id: byName('same_3.txt').id }, body: { file: { name: 'other.txt' } } });
    expect((await create('SAME.txt')).name).toBe('SAME_3.txt');
    await attempt(s, 'file.move', { path: { id: byName('same_7.txt').id }, body: { folderId: w.folders[1] } });
    expect((await create('same.txt')).name).toBe('same_7.txt');
    expect((await create('same.txt')).name).toBe('same_30.txt');
    const localized = byName('same_12.txt');
    await attempt(s, 'file.localize', { path: { id: localized.id }, body: { channelId: 2 } });
    const copy = sandboxFiles(w).find((f) => f.masterId === localized.id)!;
    await attempt(s, 'file.save.json', { path: { id: copy.id }, body: { file: { name: 'elsewhere.txt' } } });
    await attempt(s, 'file.save.json', { path: { id: localized.id }, body: { file: { name: 'away.txt' } } });
    // The channel's copy still bears no name of the family; the master's old name is free again.
    expect((await create('same.txt')).name).toBe('same_12.txt');
    checkNames(w);
  });

  it('an empty filter keeps every object whatever the planted faults (listings skip it)', () => {
    const s = freshState();
    const filter: ObjectFilter = {
      createdbefore: 0,
      createdsince: 0,
      editedbefore: 0,
      editedsince: 0,
      creatorIds: [],
      editorIds: [],
      iscreator: false,
      iseditor: false,
    };
    expect(isEmptyFilter(filter)).toBe(true);
    for (const fault of plantedFaults) {
      for (const node of NODES) {
        const keep = objectPredicate(s, viewOf(s, node), filter, new Set([fault.name]));
        const dropped = [...s.objects.values()].filter((o) => !keep(o)).map((o) => o.id);
        expect({ fault: fault.name, node, dropped }).toEqual({ fault: fault.name, node, dropped: [] });
      }
    }
  });
});
