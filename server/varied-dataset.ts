/**
 * A second data set, made from a seed, that varies what the default one keeps constant: ids of many digits for
 * nodes, objects, users and groups; a requesting user in no group; a chain of folders deeper than 200 levels and a
 * folder wider than any page a test asks for; names in several scripts and cases, files without an extension,
 * pages without a language, times before 1970 and a deleted folder whose content carries no mark of its own. A mutant that only the default data hides ("equivalent on the default data") shows
 * here: `run --fixture varied:SEED`, `serve --fixture varied:SEED`, and the mutation run's second data set.
 */
import type { Dataset, DatasetObject, DatasetTag } from './dataset-format.ts';
import { defaultBuilder } from './default-dataset.ts';

/** The prefix of a --fixture value that names this data set: `varied:SEED`. */
export const VARIED_PREFIX = 'varied:';

/** A small deterministic generator (mulberry32): the same seed gives the same data set. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Names in several scripts and cases, some equal but for case or accents: collation and case are open (name-collation). */
const SCRIPT_NAMES = [
  'Ärger.txt',
  'ärger.txt',
  'Zebra.txt',
  'zebra.TXT',
  'İstanbul.txt',
  'straße.txt',
  'STRASSE.txt',
  'Ωmega.txt',
  'ωmega.txt',
  'Привет.txt',
  'привет.txt',
  'مرحبا.txt',
  'שלום.txt',
  '日本語.txt',
  '한국어.txt',
  'ελληνικά.txt',
  'Ångström.txt',
  'naïve café.txt',
  '😀 smile.txt',
];

/** Files without an extension. */
const BARE_NAMES = ['README', 'Makefile', 'LICENSE', 'CHANGES'];

/**
 * The varied data set of a seed. Every id space is moved to ids of five to nine digits (an offset of its own per
 * space, from the seed): the data's relations are those of the default data set, only their numbers differ.
 */
export function variedDataset(seed: number): Dataset {
  const rnd = random(seed);
  const between = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const b = defaultBuilder();
  const ds0 = b.ds;
  const root = ds0.folders.find((f) => f.id === ds0.nodes.find((n) => n.masterId === undefined)!.rootFolderId)!;
  const pagesFolder = ds0.folders.find((f) => f.id === ds0.roles?.pagesFolderId)!;
  const standard = ds0.templates.find((t) => t.name === 'Standard page')!;
  // A chain deeper than 200 levels: a walk with a depth limit of its own stops inside it.
  let mother = b.folder(root, 'Deep', { description: 'A chain of folders deeper than 200 levels' });
  const depth = between(201, 230);
  for (let level = 1; level <= depth; level++) mother = b.folder(mother, `Level ${level}`);
  b.file(mother, 'bottom.txt', Buffer.from('the deepest file\n'));
  // A folder wider than any page a test asks for (the generators ask at most 1000).
  const wide = b.folder(root, 'Wide', { description: 'More files than any page size a test asks for' });
  const width = between(1001, 1040);
  for (let i = 1; i <= width; i++) b.file(wide, `wide-${String(i).padStart(4, '0')}.txt`, Buffer.from(`${i}\n`));
  const scripts = b.folder(root, 'Scripts', { description: 'Names in several scripts and cases' });
  for (const name of [...SCRIPT_NAMES, ...BARE_NAMES].sort(() => rnd() - 0.5)) b.file(scripts, name, Buffer.from(`${name}\n`));
  // Pages without a language, beside the pages that have one.
  b.page(pagesFolder, 'Sprachlos', standard, { online: true });
  b.page(pagesFolder, 'Без языка', standard);
  // Times before 1970 (timestamps are integers, their epoch not shown): the time filters' "0 means all" keeps them.
  const DAY = 86_400;
  const early = b.folder(root, 'Before 1970', { cdate: -400 * DAY, edate: -10 * DAY });
  b.file(early, 'early.txt', Buffer.from('early\n'), { cdate: -300 * DAY, edate: -5 * DAY });
  b.page(pagesFolder, 'Frühgeschichte', standard, { language: 'de', cdate: -200 * DAY, edate: -100 * DAY, pdate: -50 * DAY, online: true });
  // A deleted folder whose content carries no deletion of its own: deleted through its folder (contract 3: folderDeleted).
  const wastebin = ds0.folders.find((f) => f.name === 'Wastebin' && f.motherId === root.id)!;
  const gone = b.folder(wastebin, 'Gone with its folder', { deleted: { at: wastebin.cdate + DAY, by: 2 } });
  b.file(gone, 'inside-gone.txt', Buffer.from('inside\n'));
  // Two levels below the mark: a folder and a file carrying none of their own (the file is deleted by its grandparent's).
  b.file(b.folder(gone, 'Below gone'), 'below-gone.txt', Buffer.from('below\n'));
  // A deleted master file whose localized copy in the channel carries no mark of its own: deleted through its master
  // (contract 3: masterDeleted).
  const channel = ds0.nodes.find((n) => n.masterId !== undefined);
  if (channel) {
    const master = b.file(wastebin, 'master-gone.txt', Buffer.from('master\n'), { deleted: { at: wastebin.cdate + 2 * DAY, by: 2 } });
    const copy = b.localize(ds0.files, master, channel.id);
    delete copy.deleted;
  }

  // A JSON copy, not structuredClone: the builder shares objects (one deletion mark for a folder and its content), and a
  // shared one would be renumbered once per holder.
  const ds = JSON.parse(JSON.stringify(ds0)) as Dataset;
  // The requesting user in no group: the group filters (wfwatch) have no group to match.
  delete ds.users.find((u) => u.id === ds.requesterId)!.groupIds;
  // A sandbox parent into which no template is linked: the suite's folders inherit none, so a folder created with a start
  // page has no template to take (the default data links one there, and every such create finds it).
  const sandboxParent = ds.folders.find((f) => f.id === ds.roles?.sandboxParentFolderId);
  if (sandboxParent) delete sandboxParent.templateIds;

  // One offset per id space, each at least 10,000 and ids below 2^31 (Java int).
  const offset = () => between(1, 9) * 10 ** between(4, 8);
  const [O, N, U, G] = [offset(), offset(), offset(), offset()];
  const o = (id: number) => id + O;
  const n = (id: number) => id + N;
  const u = (id: number) => id + U;
  const g = (id: number) => id + G;
  const tags = (list: DatasetTag[] | undefined) => {
    for (const tag of list ?? [])
      for (const p of Object.values(tag.properties)) {
        for (const key of ['fileId', 'imageId', 'pageId', 'folderId', 'templateId'] as const) if (p[key] !== undefined) p[key] = o(p[key]!);
        if (p.nodeId !== undefined) p.nodeId = n(p.nodeId);
      }
  };
  const object = (x: DatasetObject) => {
    x.id = o(x.id);
    x.nodeId = n(x.nodeId);
    x.channelSetId = o(x.channelSetId);
    if (x.masterId !== undefined) x.masterId = o(x.masterId);
    x.creatorId = u(x.creatorId);
    x.editorId = u(x.editorId);
    if (x.deleted) x.deleted.by = u(x.deleted.by);
    if (x.disinherit) x.disinherit = x.disinherit.map(n);
    tags(x.tags);
  };
  ds.requesterId = u(ds.requesterId);
  for (const x of ds.users) {
    x.id = u(x.id);
    if (x.groupIds) x.groupIds = x.groupIds.map(g);
  }
  for (const x of ds.groups) x.id = g(x.id);
  for (const x of ds.constructs) [x.creatorId, x.editorId] = [u(x.creatorId), u(x.editorId)];
  for (const x of ds.nodes) {
    x.id = n(x.id);
    if (x.masterId !== undefined) x.masterId = n(x.masterId);
    x.rootFolderId = o(x.rootFolderId);
    [x.creatorId, x.editorId] = [u(x.creatorId), u(x.editorId)];
  }
  for (const x of ds.folders) {
    object(x);
    if (x.motherId !== null) x.motherId = o(x.motherId);
    if (x.templateIds) x.templateIds = x.templateIds.map(o);
  }
  for (const x of [...ds.files, ...ds.images]) {
    object(x);
    x.folderId = o(x.folderId);
  }
  for (const x of ds.templates) {
    object(x);
    x.folderId = o(x.folderId);
    tags(x.templateTags);
  }
  for (const x of ds.pages) {
    object(x);
    x.folderId = o(x.folderId);
    x.templateId = o(x.templateId);
    x.contentId = o(x.contentId);
    if (x.contentSetId !== undefined) x.contentSetId = o(x.contentSetId);
    if (x.publisherId !== undefined) x.publisherId = u(x.publisherId);
    if (x.lockedBy !== undefined) x.lockedBy = u(x.lockedBy);
    if (x.translation) x.translation.masterPageId = o(x.translation.masterPageId);
    if (x.workflow) {
      x.workflow.userId = u(x.workflow.userId);
      x.workflow.groupIds = x.workflow.groupIds.map(g);
    }
    for (const q of [x.timeManagement?.queuedPublish, x.timeManagement?.queuedOffline]) if (q) q.userId = u(q.userId);
  }
  for (const p of ds.stagingPackages ?? []) p.objectIds = p.objectIds.map(o);
  const r = ds.roles;
  if (r) {
    if (r.stagingPackage) r.stagingPackage.folderIds = r.stagingPackage.folderIds.map(o);
    if (r.channelNodeId !== undefined) r.channelNodeId = n(r.channelNodeId);
    for (const key of ['sandboxParentFolderId', 'pagesFolderId', 'templatesFolderId', 'usedFileId'] as const)
      if (r[key] !== undefined) r[key] = o(r[key]!);
    const users = r.usedFileUsers;
    if (users) for (const key of ['files', 'folders', 'pages'] as const) if (users[key]) users[key] = users[key]!.map(o);
  }
  return ds;
}

/** The seed of a `varied:SEED` fixture value, or undefined for any other value; throws on a seed that is not a number. */
export function variedSeed(value: string): number | undefined {
  if (!value.startsWith(VARIED_PREFIX)) return undefined;
  const seed = value.slice(VARIED_PREFIX.length);
  if (!/^\d{1,9}$/.test(seed)) throw new Error(`--fixture ${value}: the seed after "${VARIED_PREFIX}" must be a number`);
  return Number(seed);
}
