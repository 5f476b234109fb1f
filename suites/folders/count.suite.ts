/**
 * Folders (FLD), count: the counters against the listings and the model of the test's folder, flat and recursive, and in a
 * channel with `inherited` (FLD-06); the fixture's pages and templates folders by metamorphic relations.
 */
import { finding } from '../../harness/checks.ts';
import { fixtureTree, hasFeature } from '../../harness/fixture.ts';
import { listOf } from '../../harness/records.ts';
import { channelOf, createFolderStep, createTreeStep, deleteFolderStep, uploadFileStep } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';

/** Counts of one folder next to the lengths of its listings (files: getFiles may or may not list images with them). */
async function countAgainstListings(
  t: ConformanceContext,
  folder: number,
  recursive: boolean,
  kinds: { pages: boolean; templates: boolean },
  model?: { folders: number; files: number },
  extra: { nodeId?: number; inherited?: boolean } = {},
): Promise<void> {
  const query = { recursive, ...extra };
  const count = await t.call('folder.count', { path: { id: folder }, query });
  if (!count.body) return;
  const c = count.body;
  const label = `folder ${folder} ${Object.entries(query)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}`;
  // An absent list of a listing is an empty one (2.1: a server may leave empty members out); an absent counter says nothing.
  const folders = await t.call('folder.getFolders', { path: { id: folder }, query });
  const files = await t.call('folder.getFiles', { path: { folderId: folder }, query });
  const compare: [string, number | undefined, number, Exchange][] = [];
  if (folders.body) compare.push(['folders', c.folders, listOf(folders.body, 'folders').length, folders.exchange]);
  if (files.body) {
    const listed = listOf(files.body, 'files').length;
    // getFiles lists files and images together, or files alone; `files` counts the files alone, or every binary object.
    const images = c.images ?? 0;
    const counted = c.files === undefined ? undefined : [c.files + images, c.files - images].includes(listed) ? listed : c.files;
    compare.push(['files', counted, listed, files.exchange]);
  }
  if (kinds.pages) {
    const pages = await t.call('folder.getPages', { path: { id: folder }, query });
    if (pages.body) compare.push(['pages', c.pages, listOf(pages.body, 'pages').length, pages.exchange]);
  }
  if (kinds.templates && !recursive) {
    const templates = await t.call('folder.getTemplates', { path: { folderId: folder }, query: extra });
    if (templates.body) compare.push(['templates', c.templates, listOf(templates.body, 'templates').length, templates.exchange]);
  }
  if (kinds.templates && recursive) {
    // getTemplates "`reduce` (boolean, false; unique templates only, valid only with `recursive`)": recursive, a template linked
    // into several folders is listed once per link, or once with reduce. Which of the two a recursive count matches is not
    // said: either.
    const [all, unique] = [
      await t.call('folder.getTemplates', { path: { folderId: folder }, query: { ...extra, recursive } }),
      await t.call('folder.getTemplates', { path: { folderId: folder }, query: { ...extra, recursive, reduce: true } }),
    ];
    if (all.body && unique.body) {
      const [n, u] = [listOf(all.body, 'templates').length, listOf(unique.body, 'templates').length];
      compare.push(['templates', c.templates, c.templates === u ? u : n, all.exchange]);
    }
  }
  const uncounted = compare.filter(([, counted]) => counted === undefined).map(([kind]) => kind);
  if (uncounted.length) t.nothingToJudge(`count of ${label} carries no counter of ${uncounted.join(', ')}`, count.exchange);
  // "count reports folders, pages, templates, images, files of the folder, matching what the listings return"
  for (const [kind, counted, listed, exchange] of compare) {
    if (counted !== undefined && counted !== listed)
      t.record([
        finding('FLD-06', 'count', `count of ${label} says ${kind} ${JSON.stringify(counted)}, the listing returns ${listed}`, exchange),
      ]);
  }
  if (model && ((c.folders !== undefined && c.folders !== model.folders) || (c.files !== undefined && c.files !== model.files))) {
    t.record([
      finding(
        'FLD-06',
        'model',
        `count of ${label} says folders ${c.folders}, files ${c.files}; ` +
          `the test created folders ${model.folders}, files ${model.files} there (a deleted sub-folder left out)`,
        count.exchange,
      ),
    ]);
  }
}

conformance('FLD-06', 'count matches the listings and the model of the test folder, flat and recursive', async (t) => {
  const top = await t.folder();
  const { ids } = await createTreeStep(t, top, [
    ['Full', null],
    ['Empty', null],
    ['Deleted', null],
    ['Full inner', 'Full'],
  ]);
  await Promise.all([
    ...['t1.txt', 't2.txt', 't3.txt'].map((n) => uploadFileStep(t, top, n, `${n}\n`, 'text/plain')),
    ...['f1.txt', 'f2.txt'].map((n) => uploadFileStep(t, ids.get('Full')!, n, `${n}\n`, 'text/plain')),
    uploadFileStep(t, ids.get('Full inner')!, 'inner.txt', 'inner\n', 'text/plain'),
    uploadFileStep(t, ids.get('Deleted')!, 'deleted.txt', 'deleted\n', 'text/plain'),
  ]);
  await deleteFolderStep(t, ids.get('Deleted')!);
  await countAgainstListings(t, top, false, { pages: true, templates: false }, { folders: 2, files: 3 });
  // "`recursive` counts sub-folders too": the model's counts differ between the two.
  t.judged('folder.count', 'recursive');
  await countAgainstListings(t, top, true, { pages: true, templates: false }, { folders: 3, files: 6 });
});

conformance('FLD-06', 'count matches the listings of the fixture pages and templates folders', async (t) => {
  const f = t.fixture;
  const folders = new Map<number, { pages: boolean; templates: boolean }>();
  if (hasFeature(t, 'pages') && f.pagesFolderId !== undefined)
    folders.set(f.pagesFolderId, { pages: true, templates: hasFeature(t, 'templates') });
  if (hasFeature(t, 'templates') && f.templatesFolderId !== undefined)
    folders.set(f.templatesFolderId, { pages: hasFeature(t, 'pages'), templates: true });
  // Folders holding the run's sandbox change while the suite runs: the root, the sandbox parent and the folders above it.
  const { holdingSandbox } = await fixtureTree(t, f.masterRootFolderId);
  for (const id of [f.masterRootFolderId, f.sandboxParentFolderId, ...holdingSandbox]) folders.delete(id);
  if (!folders.size)
    return t.nothingToJudge('the target names no pages or templates folder (other than the root or the sandbox parent) to count');
  for (const [id, kinds] of folders) for (const recursive of [false, true]) await countAgainstListings(t, id, recursive, kinds);
  // "matching what the listings return" with the same parameters: in a channel, count "`inherited` (boolean; true counts inherited
  // only, false non-inherited only, unset both)" against the listings' Group F `inherited`, for every kind the folders hold.
  const variants =
    hasFeature(t, 'multichannelling') && f.channelNodeId !== undefined
      ? [true, false].map((inherited) => ({ nodeId: f.channelNodeId, inherited }))
      : [];
  for (const [id, kinds] of folders) for (const extra of variants) await countAgainstListings(t, id, false, kinds, undefined, extra);
});

conformance(
  'FLD-06',
  'count in a channel with inherited counts the inherited objects only, without it the local ones only, unset both',
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    // Created in the master, inherited into the channel.
    await Promise.all([
      ...['m1.txt', 'm2.txt'].map((n) => uploadFileStep(t, top, n, `${n}\n`, 'text/plain')),
      createFolderStep(t, top, 'Master sub'),
    ]);
    // Created with the channel's nodeId (FolderCreateRequest `nodeId`), local there: whether a channel may create its own folder in
    // one it inherits is not shown, so a refusal leaves it out of the counts, said as nothing to judge.
    const local = await t.try('folder.create', { json: { motherId: String(top), name: 'Channel sub', nodeId: channel } });
    const locals = local.body?.folder ? 1 : 0;
    if (!locals) t.nothingToJudge(`channel ${channel} creates no folder of its own in folder ${top}, which it inherits`, local.exchange);
    const expected = [
      { inherited: undefined, folders: 1 + locals, files: 2 },
      { inherited: true, folders: 1, files: 2 },
      { inherited: false, folders: locals, files: 0 },
    ];
    t.judged('folder.count', 'nodeId', 'inherited');
    for (const e of expected) {
      const count = await t.call('folder.count', { path: { id: top }, query: { nodeId: channel, inherited: e.inherited } });
      if (!count.body) continue;
      // count: "`inherited` (boolean; true counts inherited only, false non-inherited only, unset both)"
      const { folders, files } = count.body;
      if (folders !== e.folders || files !== e.files)
        t.record([
          finding(
            'FLD-06',
            'inherited',
            `count of folder ${top} in channel ${channel} with inherited=${String(e.inherited)} says folders ${folders}, files ${files}; ` +
              `the test created, inherited from the master and local to the channel, folders 1 and ${locals}, files 2 and 0`,
            count.exchange,
          ),
        ]);
    }
  },
  { feature: 'multichannelling' },
);

conformance(
  'FLD-06',
  "count in a channel with inherited true and with inherited false splits each of the fixture's counters in two",
  async (t) => {
    const f = t.fixture;
    const channel = channelOf(t);
    // The fixture's top folders, whose content no test changes (the sandbox parent's is the suite's), each counted with
    // its sub-folders: images, pages and templates too, which the test's own folder cannot hold.
    const tree = await fixtureTree(t, f.masterRootFolderId);
    const tops = tree.folders
      .filter((folder) => tree.parentOf.get(folder.id!) === f.masterRootFolderId && !tree.holdingSandbox.has(folder.id!))
      .slice(0, 8);
    if (!tops.length) return t.nothingToJudge('the master root has no folder other than the sandbox parent');
    t.judged('folder.count', 'inherited');
    const kinds = ['folders', 'files', 'images', 'pages', 'templates'] as const;
    for (const folder of tops) {
      const counts = [];
      for (const inherited of [undefined, true, false]) {
        const r = await t.call('folder.count', { path: { id: folder.id! }, query: { nodeId: channel, recursive: true, inherited } });
        if (!r.body) break;
        counts.push(r);
      }
      if (counts.length < 3) continue;
      const [both, only, none] = counts.map((r) => r.body!);
      // count: "`inherited` (boolean; true counts inherited only, false non-inherited only, unset both)"
      const off = kinds.filter((k) => typeof both![k] === 'number' && (only![k] ?? 0) + (none![k] ?? 0) !== both![k]);
      if (off.length)
        t.record([
          finding(
            'FLD-06',
            'inherited',
            `count of fixture folder ${folder.id} (recursive) in channel ${channel}: ` +
              off
                .map((k) => `${k} ${both![k]} unset, yet ${only![k] ?? 0} with inherited=true and ${none![k] ?? 0} with inherited=false`)
                .join('; '),
            counts[2]!.exchange,
          ),
        ]);
    }
  },
  { feature: 'multichannelling', operation: 'folder.count' },
);
