/** The dataset format, the default fixture and the store built from it. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATASET_FORMAT } from '../../server/dataset-format.ts';
import { loadDataset, validateDataset } from '../../server/dataset-load.ts';
import { defaultDataset } from '../../server/default-dataset.ts';
import { datasetOf } from '../../server/index.ts';
import { createState, fixtureIds, resolveInView, viewOf } from '../../server/state.ts';
import { freshState, named } from './helpers.ts';

const GLOBAL_ID = /^[0-9A-Za-z]{4}\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function writeTemp(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cms-dataset-')), name);
  writeFileSync(path, text);
  return path;
}

describe('default fixture', () => {
  it('is deterministic', () => {
    expect(defaultDataset()).toEqual(defaultDataset());
  });

  it('passes its own validation and survives a JSON round trip through loadDataset', () => {
    const ds = defaultDataset();
    expect(() => validateDataset(ds)).not.toThrow();
    expect(loadDataset(writeTemp('fixture.json', JSON.stringify(ds)))).toEqual(ds);
  });

  it('gives every object a global id of four characters, a dot and a UUID', () => {
    const state = freshState();
    for (const o of state.objects.values()) expect(o.globalId).toMatch(GLOBAL_ID);
  });

  it('names a master, a channel and the folders the suite works in', () => {
    const state = freshState();
    const f = fixtureIds(state);
    expect(state.nodes.get(f.masterNodeId)?.masterId).toBeUndefined();
    expect(state.nodes.get(f.channelNodeId)?.masterId).toBe(f.masterNodeId);
    for (const id of [f.masterRootFolderId, f.channelRootFolderId, f.sandboxParentFolderId, f.pagesFolderId, f.templatesFolderId]) {
      expect(state.objects.get(id)?.kind).toBe('folder');
    }
    expect(state.nodes.size).toBeGreaterThanOrEqual(3);
  });

  it('holds pages with every combination of online, modified, queued, planned and locked', () => {
    const state = freshState();
    const combos = new Set<string>();
    for (const o of state.objects.values()) {
      if (o.kind !== 'page' || o.deleted) continue;
      const tm = o.timeManagement;
      combos.add(
        [o.online, o.modified, !!(tm?.queuedPublish || tm?.queuedOffline), !!(tm?.at || tm?.offlineAt), o.lockedBy !== undefined].join(),
      );
    }
    expect(combos.size).toBe(32);
  });

  it('holds inherited, localized, local, excluded and disinherited objects for the channel', () => {
    const state = freshState();
    const shop = viewOf(state, 2);
    const kinds = new Set<string>();
    for (const o of state.objects.values()) {
      const seen = resolveInView(state, o.channelSetId, shop);
      if (seen === o) kinds.add(o.nodeId !== 2 ? 'inherited' : o.masterId !== undefined ? 'localized' : 'local');
      if (o.excluded) kinds.add('excluded');
      if (o.disinherit?.includes(2)) kinds.add('disinherited');
    }
    expect([...kinds].sort()).toEqual(['disinherited', 'excluded', 'inherited', 'local', 'localized']);
  });

  it('holds broken, offline and deleted files and a deleted folder with content', () => {
    const state = freshState();
    expect((named(state, 'file', 'missing-binary.pdf') as { data: Buffer | null }).data).toBeNull();
    expect((named(state, 'file', 'notes.txt') as { online: boolean }).online).toBe(false);
    expect(named(state, 'folder', 'Old campaign').deleted).toBeDefined();
    expect(named(state, 'file', 'asset.txt').deleted).toBeDefined();
  });
});

describe('loadDataset and validateDataset', () => {
  it('names an unreadable file', () => {
    expect(() => loadDataset('/nonexistent/fixture.json')).toThrow(/cannot read fixture \/nonexistent\/fixture\.json/);
  });

  it('names a file that is not JSON', () => {
    expect(() => loadDataset(writeTemp('bad.json', '{oops'))).toThrow(/is not valid JSON/);
  });

  it('refuses a JSON document without the format marker', () => {
    expect(() => loadDataset(writeTemp('other.json', '{"users": []}'))).toThrow(/other\.json: \/format is missing$/);
  });

  it('names a format marker of another version', () => {
    const ds = { ...defaultDataset(), format: 'cms-conformance-dataset/0' };
    expect(() => validateDataset(ds)).toThrow(`dataset: /format must be "${DATASET_FORMAT}", got "cms-conformance-dataset/0"`);
  });

  it('names the member holding a dangling reference', () => {
    const ds = defaultDataset();
    ds.files[0]!.folderId = 999_999;
    expect(() => validateDataset(ds, 'fixture x.json')).toThrow(
      /^fixture x\.json: \/files\/0\/folderId: 999999 does not name an object of folders$/,
    );
  });

  it('refuses a reference no answer could render: a user, a group or a node that is not there, a lock without its time', () => {
    const cases: [string, (ds: ReturnType<typeof defaultDataset>) => void, RegExp][] = [
      ['publisher', (ds) => void (ds.pages[0]!.publisherId = 999), /\/pages\/0\/publisherId: 999 does not name a user$/],
      ['node creator', (ds) => void (ds.nodes[1]!.creatorId = 999), /\/nodes\/1: creatorId and editorId must name users$/],
      ['channel set 0', (ds) => void (ds.files[0]!.channelSetId = 0), /\/files\/0\/channelSetId: 0 is no positive id$/],
      ['construct editor', (ds) => void (ds.constructs[0]!.editorId = 999), /\/constructs\/0: creatorId and editorId must name users$/],
      ['deleting user', (ds) => void (ds.folders.find((f) => f.deleted)!.deleted!.by = 999), /deleted\/by: 999 does not name a user$/],
      ['disinherited node', (ds) => void (ds.files[0]!.disinherit = [77]), /\/files\/0\/disinherit\/0: 77 does not name a node$/],
      ['user group', (ds) => void (ds.users[1]!.groupIds = [42]), /\/users\/1\/groupIds\/0: 42 does not name a group$/],
      [
        'lock',
        (ds) => {
          const p = ds.pages[0]!;
          p.lockedBy = ds.requesterId;
          delete p.lockedSince;
        },
        /\/pages\/0\/lockedSince: a locked page \(lockedBy\) needs lockedSince$/,
      ],
    ];
    for (const [what, spoil, message] of cases) {
      const ds = defaultDataset();
      spoil(ds);
      expect(() => validateDataset(ds), what).toThrow(message);
    }
  });

  it('refuses duplicate object ids across kinds', () => {
    const ds = defaultDataset();
    ds.pages[0]!.id = ds.files[0]!.id;
    expect(() => validateDataset(ds)).toThrow(/duplicate object id/);
  });

  it('names a member of the wrong type', () => {
    const ds = defaultDataset() as unknown as { folders: Record<string, unknown>[] };
    ds.folders[1]!.name = 5;
    expect(() => validateDataset(ds)).toThrow(/^dataset: \/folders\/1\/name must be string, got 5$/);
  });
});

describe('the varied data set', () => {
  it('passes validation at every seed tried, with ids of many digits, a requester in no group, a deep and a wide folder', () => {
    for (const seed of [1, 2, 3, 7, 99]) {
      const ds = datasetOf(`varied:${seed}`);
      expect(Math.min(...ds.nodes.map((n) => n.id), ...ds.folders.map((f) => f.id), ...ds.users.map((u) => u.id))).toBeGreaterThanOrEqual(
        10_000,
      );
      expect(ds.users.find((u) => u.id === ds.requesterId)!.groupIds).toBeUndefined();
      const depth = (id: number): number => {
        const f = ds.folders.find((x) => x.id === id)!;
        return f.motherId === null ? 0 : 1 + depth(f.motherId);
      };
      expect(Math.max(...ds.folders.map((f) => depth(f.id))), `seed ${seed}`).toBeGreaterThan(200);
      const wide = ds.folders.find((f) => f.name === 'Wide')!;
      expect(ds.files.filter((f) => f.folderId === wide.id).length).toBeGreaterThan(1000);
      expect(ds.files.some((f) => !f.name.includes('.'))).toBe(true);
      expect(ds.pages.some((p) => p.language === undefined)).toBe(true);
    }
    expect(datasetOf('varied:5')).toEqual(datasetOf('varied:5'));
    expect(() => datasetOf('varied:x')).toThrow(/the seed after "varied:" must be a number/);
  });
});

describe('createState', () => {
  it('leaves the dataset it was given unchanged', () => {
    const ds = defaultDataset();
    const copy = structuredClone(ds);
    const state = createState(ds);
    state.objects.clear();
    expect(ds).toEqual(copy);
  });

  it('allocates new ids above every fixture id', () => {
    const state = freshState();
    expect(state.nextId).toBeGreaterThan(Math.max(...state.objects.keys()));
  });

  it('builds from a minimal dataset of one node and its root folder', () => {
    const ds = defaultDataset();
    const minimal = {
      ...ds,
      nodes: [{ ...ds.nodes[0]!, rootFolderId: ds.nodes[0]!.rootFolderId }],
      folders: ds.folders.filter((f) => f.id === ds.nodes[0]!.rootFolderId).map((f) => ({ ...f, templateIds: [] })),
      files: [],
      images: [],
      pages: [],
      templates: [],
      stagingPackages: [],
      roles: {},
    };
    const state = createState(minimal);
    const f = fixtureIds(state);
    expect(f.channelNodeId).toBe(f.masterNodeId);
    expect(f.sandboxParentFolderId).toBe(f.masterRootFolderId);
  });
});

describe('staging packages', () => {
  it('refuses a package object that names no object, and a role that names no package', () => {
    const ds = defaultDataset();
    ds.stagingPackages![0]!.objectIds.push(999_999);
    expect(() => validateDataset(ds)).toThrow(/\/stagingPackages\/0\/objectIds\/2: 999999 does not name an object/);
    const other = defaultDataset();
    other.roles!.stagingPackage = { name: 'Autumn campaign', folderIds: [] };
    expect(() => validateDataset(other)).toThrow(/\/roles\/stagingPackage\/name: "Autumn campaign" names no package/);
    const file = defaultDataset();
    file.roles!.stagingPackage!.folderIds.push(file.files[0]!.id);
    expect(() => validateDataset(file)).toThrow(/\/roles\/stagingPackage\/folderIds\/2: \d+ is no folder the package includes/);
  });

  it('names the folders of the declared package in the target fixture', () => {
    const ds = defaultDataset();
    const f = fixtureIds(createState(ds));
    expect(f.stagingPackage).toEqual(ds.roles!.stagingPackage);
    expect(f.stagingPackage?.folderIds).toContain(f.pagesFolderId);
  });
});

describe('channel set consistency', () => {
  it('refuses two variants of one object in the same node', () => {
    const ds = defaultDataset();
    const copy = ds.files.find((f) => f.masterId !== undefined)!;
    copy.nodeId = 1;
    expect(() => validateDataset(ds)).toThrow(/two variants of channel set \d+ live in node 1/);
  });

  it('refuses a masterId outside the channel set', () => {
    const ds = defaultDataset();
    const copy = ds.files.find((f) => f.masterId !== undefined)!;
    copy.masterId = ds.files[0]!.id;
    expect(() => validateDataset(ds)).toThrow(/masterId: must name a variant of the same channel set/);
  });
});
