/**
 * Usage queries (USE-01..05) on the target's own fixture, which the suite cannot create usages in (no
 * contract operation sets object tags): every check is metamorphic. The used files come from getFiles
 * `used=true` over the master tree; the usage lists of those files must agree with each other, with
 * their pages and counts, with the `used` filter, and (syncable objects) with the files' own tags.
 *
 * Where tests go (test/suites.test.ts): a test sits in its requirement family's folder, except where it judges by a
 * folder's own reading of the fixture: WST-01's deleted users and FIL-01's copy of a file with tags start from the used
 * files this file discovers (`usedInMaster`), so they sit here.
 */
import fc from 'fast-check';
import { SetupError, stepFinding } from '../../harness/api.ts';
import { finding, isRefusal, type Finding } from '../../harness/checks.ts';
import { fixtureFolders, fixtureTree, hasFeature } from '../../harness/fixture.ts';
import { legacyPage, sliceDisagreement } from '../../harness/lists.ts';
import { brief, duplicates, idsOf, setDifference } from '../../harness/oracles.ts';
import { channelOf, copyIdStep, deleteFolderStep, eitherIdStep, localizeStep, uploadFileStep } from '../../harness/steps.ts';
import { PerRun, conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { File, Item, Page, ResponseOf } from '../../schemas/types.ts';
import { chunks, tagReferences } from './relations.ts';
import { KINDS, type Kind, KIND_NAMES, type UsageAnswer, usage, mustUsage, treeFiles, inFixture, usedInMaster } from './usage-lists.ts';

/** A listed object's id and sort key for a `sortby` value (default name), for the slice relation. */
const keyed = (items: readonly Item[], sortby: string | undefined) =>
  items.map((i) => ({ id: i.id, key: (i as Record<string, unknown>)[sortby ?? 'name'] }));

conformance('USE-01', 'usage lists list every user of the given files once and count them all in total', async (t) => {
  const { used, idsFor, kinds, refusedImages } = await usedInMaster(t);
  if (refusedImages.length)
    t.nothingToJudge(`the usage lists refuse the ids of the images ${brief(refusedImages)}: who uses those is not judged`);
  if (!used.length) return t.nothingToJudge('getFiles used=true lists no file in the master tree');
  const findings: Finding[] = [];
  let users = 0;
  const declared = t.fixture.usedFileId;
  let declaredUsers = 0;
  const exchanges: Exchange[] = [];
  for (const kind of kinds) {
    const full = await mustUsage(t, kind, idsFor[kind], t.fixture.masterNodeId, { maxItems: -1 });
    const list = full.list ?? [];
    users += list.length;
    exchanges.push(full.exchange);
    if (declared !== undefined) {
      const ofDeclared = await mustUsage(t, kind, [declared], t.fixture.masterNodeId, { maxItems: -1 });
      declaredUsers += ofDeclared.list?.length ?? 0;
      // The target file names users of it by kind (fixture.usedFileUsers): "usage/file, usage/folder, usage/page list the
      // objects using the given files", so each is in its kind's list.
      const listed = new Set(idsOf(ofDeclared.list ?? []));
      const named = t.fixture.usedFileUsers?.[KINDS[kind].member] ?? [];
      // Users named by the target are what `id` selects: a query that drops it cannot list them.
      if (named.length) t.judged(KINDS[kind].op, 'id');
      const missing = named.filter((id) => !listed.has(id));
      if (missing.length)
        findings.push(
          finding(
            'USE-01',
            'declared',
            `usage/${kind} of file ${declared} leaves out ${brief(missing)}, which the target file names as its users (fixture.usedFileUsers)`,
            ofDeclared.exchange,
          ),
        );
    }
    // "usage/file, usage/folder, usage/page list the objects using the given files; total counts them before paging"
    const hidden = full.withoutPermission ?? 0;
    if (full.total !== list.length && full.total !== list.length + hidden)
      findings.push(
        finding(
          'USE-01',
          'relation',
          `usage/${kind} lists ${list.length} users (${hidden} without permission) but answers total ${full.total}`,
          full.exchange,
        ),
      );
    const ids = idsOf(list);
    if (new Set(ids).size !== ids.length)
      findings.push(finding('USE-01', 'relation', `usage/${kind} lists a user more than once: ${brief(ids)}`, full.exchange));
  }
  // The target file names a file some folder, file or page uses (fixture.usedFileId): "usage/file, usage/folder,
  // usage/page list the objects using the given files", so one of them lists a user of it.
  if (declared !== undefined && declaredUsers === 0)
    findings.push(
      finding(
        'USE-01',
        'declared',
        `the target file names file ${declared} as used (fixture.usedFileId), yet usage/file, usage/folder and usage/page list no user of it`,
        exchanges[0],
      ),
    );
  else if (!users) t.nothingToJudge(`the ${used.length} used files of the master have no users in usage/file, usage/folder or usage/page`);
  t.record(findings);
});

conformance('USE-01', 'the users of several files are the users of each of them', async (t) => {
  const { used, scope } = await usedInMaster(t);
  if (!used.length) return t.nothingToJudge('getFiles used=true lists no file in the master tree');
  const findings: Finding[] = [];
  for (const kind of KIND_NAMES) {
    const fixtureUsers = (answer: UsageAnswer) => (answer.list ?? []).filter((u) => inFixture(scope, kind, u, t));
    const each = new Set<unknown>();
    for (const id of used) for (const user of fixtureUsers(await mustUsage(t, kind, [id], t.fixture.masterNodeId))) each.add(user.id);
    const all = await mustUsage(t, kind, used, t.fixture.masterNodeId);
    // "list the objects using one of the given files": the union of each file's users, given files among them.
    const { missing, extra } = setDifference([...each], idsOf(fixtureUsers(all)));
    if (missing.length)
      findings.push(
        finding(
          'USE-01',
          'relation',
          `usage/${kind} for all ${used.length} used files leaves out ${brief(missing)}, which use one of them when asked one by one`,
          all.exchange,
        ),
      );
    const strangers = extra.filter((id) => !each.has(id));
    if (strangers.length)
      findings.push(
        finding(
          'USE-01',
          'relation',
          `usage/${kind} for all ${used.length} used files lists ${brief(strangers)}, which use none of them when asked one by one`,
          all.exchange,
        ),
      );
  }
  t.record(findings);
});

conformance('USE-01', 'total counts every user whatever page of the list is asked for', async (t) => {
  const { used, idsFor, kinds } = await usedInMaster(t);
  if (!used.length) return t.nothingToJudge('getFiles used=true lists no file in the master tree');
  const totals: Partial<Record<Kind, number>> = {};
  for (const kind of kinds) totals[kind] = (await mustUsage(t, kind, idsFor[kind], t.fixture.masterNodeId, { maxItems: -1 })).total ?? 0;
  const widest = Math.max(0, ...Object.values(totals));
  if (widest < 2) t.nothingToJudge('no usage list of the fixture has two users: paging cannot change what total counts');
  await t.property(
    fc.record({
      kind: fc.constantFrom(...kinds),
      skip: fc.integer({ min: 0, max: widest + 1 }),
      max: fc.integer({ min: 0, max: widest + 1 }),
    }),
    async ({ kind, skip, max }) => {
      const got = await usage(t, kind, idsFor[kind], t.fixture.masterNodeId, { skipCount: skip, maxItems: max });
      // "total counts them before paging"
      if (got.answer && got.answer.total !== totals[kind]) {
        return [
          finding(
            'USE-01',
            'relation',
            `usage/${kind} with skipCount=${skip}&maxItems=${max} answers total ${got.answer.total}; without paging it is ${totals[kind]}`,
            got.answer.exchange,
          ),
        ];
      }
      return got.findings;
    },
  );
});

conformance('USE-02', 'files=false and folders=false answer the counts without the list', async (t) => {
  const { idsFor, kinds } = await usedInMaster(t);
  const findings: Finding[] = [];
  let judged = false;
  for (const kind of kinds.filter((k): k is 'file' | 'folder' => k !== 'page')) {
    const flag = KINDS[kind].member;
    const full = await mustUsage(t, kind, idsFor[kind], t.fixture.masterNodeId);
    const counted = await mustUsage(t, kind, idsFor[kind], t.fixture.masterNodeId, { [flag]: false });
    judged ||= (full.list ?? []).length > 0;
    t.judged(KINDS[kind].op, flag);
    // "files (boolean, true; false returns counts only)"
    if ((counted.list ?? []).length)
      findings.push(
        finding(
          'USE-02',
          'relation',
          `usage/${kind} with ${flag}=false lists ${counted.list!.length} ${flag}; it returns counts only`,
          counted.exchange,
        ),
      );
    if (counted.total !== full.total)
      findings.push(
        finding(
          'USE-02',
          'relation',
          `usage/${kind} with ${flag}=false answers total ${counted.total}; with the list it is ${full.total}`,
          counted.exchange,
        ),
      );
  }
  if (!judged) t.nothingToJudge('no used file of the master has a file or folder using it: the flags cannot be told apart');
  t.record(findings);
});

conformance('USE-02', 'the counts-only answer for a file nothing uses says no more items exist', async (t) => {
  const folderId = await t.folder();
  // A file of the run's own: no object tag refers to it.
  const unused = (await uploadFileStep(t, folderId, 'use02-unused.txt', 'used by nothing\n')).id!;
  for (const kind of ['file', 'folder'] as const) {
    const flag = KINDS[kind].member;
    const counted = await mustUsage(t, kind, [unused], t.fixture.masterNodeId, { [flag]: false });
    t.judged(KINDS[kind].op, flag);
    // "files (boolean, true; false returns counts only)"; PAG-05: "`hasMoreItems` is true exactly when items exist beyond the
    // returned slice": none exist, the file has no user.
    if (counted.hasMoreItems === true)
      t.record([
        finding(
          'USE-02',
          'relation',
          `usage/${kind} of file ${unused}, which nothing uses, with ${flag}=false answers total ${counted.total} and hasMoreItems true`,
          counted.exchange,
        ),
      ]);
  }
});

conformance('USE-03', 'usage lists obey skipCount, maxItems, sortby and sortorder', async (t) => {
  const { used, idsFor, kinds: allKinds } = await usedInMaster(t);
  if (!used.length) return t.nothingToJudge('getFiles used=true lists no file in the master tree');
  // usage/page: "Parameters: not shown" (open choice usage-page-parameters): its paging and sorting are not judged.
  const kinds = allKinds.filter((kind) => kind !== 'page');
  if (!kinds.length)
    return t.nothingToJudge('no used file of the master has a file or folder using it: usage/file and usage/folder list nothing to page');
  const order = fc.record({
    kind: fc.constantFrom(...kinds),
    sortby: fc.constantFrom(undefined, 'name', 'cdate', 'edate'),
    // "asc or desc, other strings ignored"
    sortorder: fc.constantFrom(undefined, 'asc', 'desc', 'sideways'),
    skip: fc.integer({ min: 0, max: 4 }),
    max: fc.integer({ min: -1, max: 4 }),
  });
  await t.property(
    order,
    async ({ kind, sortby, sortorder, skip, max }) => {
      const sorting = { sortby, sortorder };
      const full = await usage(t, kind, idsFor[kind], t.fixture.masterNodeId, { ...sorting, maxItems: -1 });
      if (!full.answer) return full.findings;
      const all = full.answer.list ?? [];
      const asked = `sortby=${sortby ?? '(default name)'}&sortorder=${sortorder ?? '(default asc)'}`;
      // The order of one answer is the registry's USE-03 rule; here, that a page is a slice of the list in that order.
      const page = await usage(t, kind, idsFor[kind], t.fixture.masterNodeId, { ...sorting, skipCount: skip, maxItems: max });
      if (!page.answer) return page.findings;
      const items = page.answer.list ?? [];
      // Group L: "skipCount=s&maxItems=m returns items s+1 .. s+m of the full ordered list"
      const wrong = sliceDisagreement(keyed(all, sortby), keyed(items, sortby), skip, max);
      if (wrong)
        return [
          finding('USE-03', 'relation', `usage/${kind} with ${asked}&skipCount=${skip}&maxItems=${max}: ${wrong}`, page.answer.exchange),
        ];
      const more = legacyPage(all, skip, max).length + Math.max(0, skip) < all.length;
      if (page.answer.hasMoreItems !== undefined && page.answer.hasMoreItems !== more) {
        return [
          finding(
            'USE-03',
            'relation',
            `usage/${kind} with skipCount=${skip}&maxItems=${max} answers hasMoreItems ${page.answer.hasMoreItems}; ` +
              `${all.length} users in all, so ${more}`,
            page.answer.exchange,
          ),
        ];
      }
      return [];
    },
    {
      // A one-item page of each order by name: a server that cuts the page before it sorts answers the
      // first user of its own order, which is not both the first and the last by name.
      cover: kinds.flatMap((kind) =>
        (['asc', 'desc'] as const).map((sortorder) => ({ kind, sortby: 'name' as const, sortorder, skip: 0, max: 1 })),
      ),
    },
  );
  t.expectRuled('USE-03');
});

conformance('WST-01', 'a deleted file that used another leaves the usage list of the file it used', async (t) => {
  const master = t.fixture.masterNodeId;
  const { used, fileUsers } = await usedInMaster(t);
  const users = new Set(fileUsers);
  for (const id of used.slice(0, 8)) {
    const user = ((await mustUsage(t, 'file', [id], master)).list ?? []).find((u) => users.has(u.id as number));
    if (!user) continue;
    // A copy of a user in a folder of the run's own: a user the run may delete, if the copy keeps the tags that make it one.
    const folderId = await t.folder();
    const copied = await t.try('file.copy', { json: { file: { id: user.id }, targetFolder: { id: folderId } } });
    const copy = copied.body?.file?.id;
    if (typeof copy !== 'number') continue;
    if (!idsOf((await mustUsage(t, 'file', [id], master)).list ?? []).includes(copy)) continue;
    await deleteFolderStep(t, folderId);
    // WST-01: "a deleted item is absent from every listing with wastebin absent or exclude"; a usage list is one,
    // and a file inside a deleted folder is deleted (contract 3: a folderDeleted DeleteInfo marks it).
    const after = await mustUsage(t, 'file', [id], master);
    if (idsOf(after.list ?? []).includes(copy))
      t.record([
        finding(
          'WST-01',
          'absent',
          `usage/file of file ${id} still lists file ${copy}, whose folder ${folderId} was deleted`,
          after.exchange,
        ),
      ]);
    return;
  }
  t.nothingToJudge('no copy of a file that uses another file uses it in turn (copies may leave the tags out)');
});

conformance(
  'WST-01',
  'syncableObjects leaves out a deleted page that a given file links',
  async (t) => {
    if (!hasFeature(t, 'multichannelling')) return t.nothingToJudge('syncableObjects needs a channel to synchronise from');
    // The deleted pages of the master tree, as the wastebin lists them.
    const { body } = await t.call('folder.getPages', {
      path: { id: t.fixture.masterRootFolderId },
      query: { recursive: true, maxItems: -1, wastebin: 'only' },
    });
    const deleted = new Set(idsOf(body?.pages ?? []));
    const { fileUsers } = await usedInMaster(t);
    for (const id of fileUsers.slice(0, 8)) {
      const gone = tagReferences((await t.call('file.load', { path: { id } })).body?.file?.tags).pages.filter((p) => deleted.has(p));
      if (!gone.length) continue;
      const got = await syncable(t, [id]);
      // WST-01: "a deleted item is absent from every listing with `wastebin` absent or `exclude`"; syncableObjects lists pages, files
      // and images and takes no wastebin parameter.
      const listed = idsOf(got.body?.pages ?? []).filter((p) => gone.includes(p));
      if (listed.length)
        t.record([
          finding('WST-01', 'absent', `syncableObjects of file ${id} lists the deleted pages ${brief(listed)} it links`, got.exchange),
        ]);
      return;
    }
    t.nothingToJudge('no file of the master that uses another file links a deleted page');
  },
  // wastebin=only lists the deleted pages only where the target has a wastebin (WST-03); multichannelling is asked above.
  { operation: 'file.usage.syncableObjects', feature: 'wastebin' },
);

conformance('USE-01', 'a copy that keeps the object tags of a file user uses the files they name', async (t) => {
  const master = t.fixture.masterNodeId;
  const { fileUsers } = await usedInMaster(t);
  for (const source of fileUsers.slice(0, 4)) {
    const copied = await t.try('file.copy', { json: { file: { id: source }, targetFolder: { id: await t.folder() } } });
    const copy = copied.body?.file?.id;
    if (typeof copy !== 'number') continue;
    // Whether a copy keeps its source's tags is not said; one that does refers to what they name, as its source does.
    const named = tagReferences((await t.call('file.load', { path: { id: copy } })).body?.file?.tags).files;
    const used = named[0];
    if (used === undefined) continue;
    // USE-01: "usage/file, usage/folder, usage/page list the objects using the given files"; a file whose object tag refers to
    // another uses it (reference notes; open choice used-definition), the copy as much as its source.
    const got = await mustUsage(t, 'file', [used], master);
    if (!idsOf(got.list ?? []).includes(copy))
      t.record([
        finding(
          'USE-01',
          'users',
          `file ${copy}, a copy of file ${source} whose object tags name file ${used}, is not among the users usage/file lists of ` +
            `file ${used}: ${brief(idsOf(got.list ?? []))}`,
          got.exchange,
        ),
      ]);
    return;
  }
  t.nothingToJudge('no copy of a file that uses another keeps an object tag naming a file (copies may leave the tags out)');
});

conformance(
  'USE-01',
  'a file that uses another still uses it after a push2master of its localized copy',
  async (t) => {
    const master = t.fixture.masterNodeId;
    const channel = channelOf(t);
    const { fileUsers } = await usedInMaster(t);
    for (const source of fileUsers.slice(0, 4)) {
      // A user of the run's own: a copy of a fixture file that uses another, where the copy keeps the tags that make it one.
      const folderId = await t.folder();
      const copied = await t.try('file.copy', { json: { file: { id: source }, targetFolder: { id: folderId } } });
      const id = copied.body?.file?.id;
      if (typeof id !== 'number') continue;
      const loaded = (await t.call('file.load', { path: { id } })).body?.file;
      const used = tagReferences(loaded?.tags).files[0];
      if (used === undefined || typeof loaded?.name !== 'string') continue;
      if (!idsOf((await mustUsage(t, 'file', [used], master)).list ?? []).includes(id)) continue;
      await localizeStep(t, 'file', id, channel);
      const localized = await copyIdStep(t, 'file', folderId, { id, name: loaded.name }, channel);
      // "POST /file/push2master/{id}: push a file from a channel into its master" (by the copy's id or the master's: open choice
      // push2master-id). The channel's version carries the same object tags: the master, pushed into, refers to what they name.
      const pushed = await eitherIdStep(t, 'file.push2master', [localized, id], { channelId: channel });
      if (pushed.id === undefined)
        return t.nothingToJudge(`push2master of file ${id} from channel ${channel} was refused: ${pushed.problem}`, pushed.exchange);
      const after = (await t.call('file.load', { path: { id } })).body?.file;
      if (!tagReferences(after?.tags).files.includes(used))
        return t.nothingToJudge(`after the push, file ${id} carries no object tag naming file ${used}`);
      // USE-01: "usage/file ... list the objects using the given files".
      const got = await mustUsage(t, 'file', [used], master);
      if (!idsOf(got.list ?? []).includes(id))
        t.record([
          finding(
            'USE-01',
            'users',
            `after the push2master of its localized copy ${localized}, file ${id}, whose object tags name file ${used}, is not among ` +
              `the users usage/file lists of file ${used}: ${brief(idsOf(got.list ?? []))}`,
            got.exchange,
          ),
        ]);
      return;
    }
    t.nothingToJudge('no copy of a file that uses another keeps an object tag naming a file (copies may leave the tags out)');
  },
  { feature: 'multichannelling', operation: 'file.usage.file' },
);

conformance('FIL-01', 'a copy of a file with object tags is a new file whose tags carry numeric ids', async (t) => {
  // The fixture's files that use another file do so by object tags (reference notes): copied, they are files with tags.
  const { fileUsers } = await usedInMaster(t);
  const source = fileUsers[0];
  if (source === undefined) return t.nothingToJudge('no file of the master uses another file: none carries object tags to copy');
  const copied = await t.must('file.copy', { json: { file: { id: source }, targetFolder: { id: await t.folder() } } });
  const copy = copied.file?.id;
  // FIL-01: "copy creates a new file (new id) in the target folder".
  if (typeof copy !== 'number' || copy === source)
    return void t.record([finding('FIL-01', 'copy', `the copy of file ${source} came back with id ${JSON.stringify(copy)}, not a new id`)]);
  // Whether a copy keeps the tags is not said; those it has are Tags: "`id` (number), `name` (string), ..." (contract 2.8).
  const loaded = await t.call('file.load', { path: { id: copy } });
  const tags = Object.entries(loaded.body?.file?.tags ?? {});
  const wrong = tags
    .filter(([, tag]) => typeof tag.id !== 'number' || !Number.isFinite(tag.id))
    .map(([name, tag]) => `${name}: ${JSON.stringify(tag.id)}`);
  if (wrong.length)
    t.record([
      finding(
        'FIL-01',
        'copy',
        `the copy ${copy} of file ${source} carries tags without a numeric id: ${wrong.join(', ')}`,
        loaded.exchange,
      ),
    ]);
});

conformance('USE-04', 'syncableObjects reports the pages, files and images the given file refers to, with totals', async (t) => {
  // The files that refer to other objects: the fixture's files that use a used file or image.
  const { fileUsers: referrers } = await usedInMaster(t);
  const findings: Finding[] = [];
  let judged = 0;
  const linked = new Map<number, References>();
  for (const id of [...referrers].slice(0, 8)) {
    const loaded = await t.call('file.load', { path: { id } });
    const tagged = tagReferences(loaded.body?.file?.tags);
    // A linked page that is no live page of the master (a deleted one: WST-01's test of syncableObjects) is no object to synchronise.
    const live = await masterPages(t);
    const refs = { ...tagged, pages: tagged.pages.filter((p) => live.has(p)) };
    if (!refs.pages.length && !refs.files.length && !refs.images.length) continue;
    judged++;
    linked.set(id, refs);
    // "objects linked directly or indirectly by the given files ... Direct dependencies are the members pages, files, images."
    const got = await syncable(t, [id]);
    t.judged('file.usage.syncableObjects', 'ids');
    if (!got.body) continue;
    const body = got.body;
    findings.push(...dependencyFlag(body, got.exchange, `file ${id}`));
    const lists: [string, number[], unknown[] | undefined, number | undefined, number | undefined][] = [
      ['pages', refs.pages, body.pages, body.pagesTotal, body.pagesWithoutPermission],
      ['files', refs.files.filter((f) => f !== id), body.files, body.filesTotal, body.filesWithoutPermission],
      ['images', refs.images, body.images, undefined, undefined],
    ];
    for (const [member, expected, listed, total, hidden] of lists) {
      const ids = idsOf((listed ?? []) as { id?: unknown }[]);
      // "pages (array of Page), files (array of File), images (array of image records)": each linked object in
      // the member of its kind, so an item whose own type names another kind is in the wrong list.
      // An image is a file too: `files` may list it beside `images` (open choice syncable-lists).
      const kind = member.slice(0, -1);
      const fits = (type: string) => type === kind || (member === 'files' && type === 'image');
      const strays = ((listed ?? []) as { id?: unknown; type?: unknown }[]).filter((o) => typeof o.type === 'string' && !fits(o.type));
      if (strays.length)
        findings.push(
          finding(
            'USE-04',
            'relation',
            `syncableObjects lists in ${member} objects of another kind: ${strays.map((o) => `${String(o.id)} (${String(o.type)})`).join(', ')}`,
            got.exchange,
          ),
        );
      const { missing } = setDifference(expected, ids);
      if (missing.length)
        findings.push(
          finding(
            'USE-04',
            'relation',
            `file ${id} refers to ${member} ${brief(missing)} in its tags, ` +
              `but syncableObjects does not list them in ${member} (listed: ${brief(ids)})`,
            got.exchange,
          ),
        );
      // "with totals": a total counts at least the listed objects, and exactly them when none is hidden for lack of permission.
      if (total !== undefined && (total < ids.length || ((hidden ?? 0) === 0 && total !== ids.length))) {
        findings.push(
          finding(
            'USE-04',
            'relation',
            `syncableObjects lists ${ids.length} ${member} (${hidden ?? 0} without permission) but answers ${member}Total ${total}`,
            got.exchange,
          ),
        );
      }
    }
    // "objects linked directly or indirectly by the given files", "`dependencies` (map string to map string to object;
    // indirect dependencies)": what the linked pages and files refer to in turn, beyond the file and its direct links, is
    // in one of the inner maps (named by its id, as key or member; what the outer keys are is not shown).
    const direct = new Set([id, ...refs.pages, ...refs.files, ...refs.images]);
    const indirect = new Set<number>();
    const folders = new Set<number>();
    const followed = [
      ...(await Promise.all(
        refs.files.filter((f) => f !== id).map(async (ref) => (await t.call('file.load', { path: { id: ref } })).body?.file?.tags),
      )),
      ...refs.pages.map((ref) => live.get(ref)?.tags),
    ];
    for (const tags of followed) {
      const next = tagReferences(tags);
      for (const x of [...next.pages, ...next.files, ...next.images]) if (!direct.has(x)) indirect.add(x);
      for (const f of next.folders) folders.add(f);
    }
    const named = new Set<number>();
    for (const inner of Object.values((body.dependencies ?? {}) as Record<string, Record<string, unknown>>))
      for (const [key, value] of Object.entries(inner ?? {})) {
        named.add(Number(key));
        const member = (value as { id?: unknown } | null)?.id;
        if (typeof member === 'number') named.add(member);
      }
    // "Linked objects are pages, files and images": a folder that a linked object links is no dependency (unless its id names one too).
    const strays = [...folders].filter((f) => named.has(f) && !direct.has(f) && !indirect.has(f));
    if (strays.length)
      findings.push(
        finding(
          'USE-04',
          'relation',
          `syncableObjects of file ${id} names folders ${brief(strays)}, which its linked objects link, in dependencies: ` +
            'linked objects are pages, files and images',
          got.exchange,
        ),
      );
    const missing = [...indirect].filter((x) => !named.has(x));
    if (missing.length)
      findings.push(
        finding(
          'USE-04',
          'relation',
          `file ${id} links ${brief([...refs.pages, ...refs.files.filter((f) => f !== id)])}, which refer in turn to ${brief(missing)}; ` +
            `syncableObjects names none of them in dependencies (named: ${brief([...named])})`,
          got.exchange,
        ),
      );
  }
  if (!judged)
    t.nothingToJudge(
      'no file of the master that uses another file refers to pages, files or images in its tags: syncableObjects cannot be judged',
    );
  findings.push(...(await sharedLinks(t, linked)), ...(await linkingNothing(t)));
  t.record(findings);
});

type References = ReturnType<typeof tagReferences>;
type Syncable = ResponseOf['file.usage.syncableObjects'];

/**
 * syncableObjects from the channel to the master, as USE-04 asks it. "`dstNodeId` (int; target channel)": the suite reads
 * the master the objects are synchronised to; a server that takes a channel there refuses the master (open choice
 * syncable-dst-node), and is then asked without dstNodeId. Any other failure is a failed step, as t.call records it.
 */
async function syncable(t: ConformanceContext, ids: number[]) {
  const query = { ids: ids.map(String), srcNodeId: t.fixture.channelNodeId };
  const first = await t.try('file.usage.syncableObjects', { query: { ...query, dstNodeId: t.fixture.masterNodeId } });
  if (first.problem && isRefusal(first.exchange) && (first.exchange.response?.status ?? 0) < 500)
    return t.call('file.usage.syncableObjects', { query });
  if (first.problem) t.record([stepFinding(t.requirement, 'file.usage.syncableObjects', first.exchange, first.problem)]);
  return first;
}

/**
 * "`haveDependencies` (boolean), `dependencies` (...; indirect dependencies)": whether the flag speaks of every dependency
 * or of the indirect ones, an answer that names an indirect dependency has dependencies, and one that lists nothing at all
 * (no page, file or image, none left out for lack of permission, no indirect dependency) has none.
 */
function dependencyFlag(body: Syncable, exchange: Exchange, what: string): Finding[] {
  if (typeof body.haveDependencies !== 'boolean') return [];
  const indirect = Object.values(body.dependencies ?? {}).some((inner) => Object.keys(inner ?? {}).length > 0);
  const direct =
    [body.pages, body.files, body.images].some((list) => (list?.length ?? 0) > 0) ||
    [body.pagesTotal, body.filesTotal, body.pagesWithoutPermission, body.filesWithoutPermission].some((n) => (n ?? 0) > 0);
  if (indirect && !body.haveDependencies)
    return [
      finding('USE-04', 'relation', `syncableObjects of ${what} names indirect dependencies, yet haveDependencies is false`, exchange),
    ];
  if (!indirect && !direct && body.haveDependencies)
    return [
      finding(
        'USE-04',
        'relation',
        `syncableObjects of ${what} lists no page, file, image or dependency, yet haveDependencies is true`,
        exchange,
      ),
    ];
  return [];
}

/**
 * Given files that link one object: "objects linked directly or indirectly by the given files" are the objects, each
 * listed once in the member of its kind. Two files sharing a link where the fixture has them, else one file named twice
 * (the given files are the same, and so are the objects they link).
 */
async function sharedLinks(t: ConformanceContext, linked: ReadonlyMap<number, References>): Promise<Finding[]> {
  const kinds = ['pages', 'files', 'images'] as const;
  const entries = [...linked];
  const common = (a: number, refsA: References, b: number, refsB: References) =>
    kinds.flatMap((kind) => refsA[kind].filter((x) => x !== a && x !== b && refsB[kind].includes(x)).map((x) => [kind, x] as const));
  const pairs = entries.flatMap(([a, refsA], i) =>
    entries.slice(i + 1).map(([b, refsB]) => ({ a, b, shared: common(a, refsA, b, refsB) })),
  );
  const pick = pairs.find((p) => p.shared.length) ?? entries.map(([a, refs]) => ({ a, b: a, shared: common(a, refs, a, refs) }))[0];
  if (!pick?.shared.length) return [];
  const { a, b, shared } = pick;
  const what = a === b ? `file ${a} named twice` : `files ${a} and ${b}`;
  const got = await syncable(t, [a, b]);
  if (!got.body) return [];
  const out = dependencyFlag(got.body, got.exchange, what);
  for (const kind of kinds) {
    const ids = idsOf((got.body[kind] ?? []) as { id?: unknown }[]);
    const twice = duplicates(ids);
    if (twice.length)
      out.push(finding('USE-04', 'relation', `syncableObjects of ${what} lists ${kind} ${brief(twice)} more than once`, got.exchange));
    const missing = shared.filter(([k, x]) => k === kind && !ids.includes(x)).map(([, x]) => x);
    if (missing.length)
      out.push(
        finding(
          'USE-04',
          'relation',
          `${what} refer to ${kind} ${brief(missing)}, but syncableObjects of them does not list them (listed: ${brief(ids)})`,
          got.exchange,
        ),
      );
  }
  return out;
}

/** A file of the test's own, which links nothing: syncableObjects lists nothing for it, and it has no dependencies. */
async function linkingNothing(t: ConformanceContext): Promise<Finding[]> {
  const file = await uploadFileStep(t, await t.folder(), 'use04-links-nothing.txt', 'links nothing\n');
  const got = await syncable(t, [file.id!]);
  if (!got.body) return [];
  const listed = idsOf([...(got.body.pages ?? []), ...(got.body.files ?? []), ...(got.body.images ?? [])] as { id?: unknown }[]);
  const out = dependencyFlag(got.body, got.exchange, `file ${file.id}, which links nothing`);
  if (listed.length)
    out.push(finding('USE-04', 'relation', `file ${file.id} links nothing, yet syncableObjects lists ${brief(listed)}`, got.exchange));
  return out;
}

const pagesOfMaster = new PerRun<Promise<Map<number, Page>>>();

/** Every page of the master tree by id, read once per suite file and run (their tags name what they link). */
function masterPages(t: ConformanceContext): Promise<Map<number, Page>> {
  return pagesOfMaster.retrying(async () => {
    // "objecttags (boolean, false): attach object tags": the tags that link other objects.
    const res = await t.call('folder.getPages', {
      path: { id: t.fixture.masterRootFolderId },
      query: { recursive: true, maxItems: -1, objecttags: true },
    });
    return new Map((res.body?.pages ?? []).filter((p) => typeof p.id === 'number').map((p) => [p.id!, p]));
  });
}

/**
 * The master's files that refer to other files or images: the users (usage/file) of the used files and of
 * the images getItems shows in the first 40 fixture folders (getFiles lists no images, and used is for files).
 */
async function referringFiles(t: ConformanceContext): Promise<number[]> {
  const master = t.fixture.masterNodeId;
  const scope = (await fixtureTree(t, t.fixture.masterRootFolderId, master)).ids;
  const { files } = await treeFiles(t, t.fixture.masterRootFolderId, { used: true });
  const referred = idsOf(files.filter((f) => inFixture(scope, 'file', f)));
  for (const folder of (await fixtureFolders(t)).slice(0, 40)) {
    const items = (await t.call('folder.getItems', { path: { folderId: folder.id! } })).body?.items ?? [];
    referred.push(...idsOf(items.filter((i) => i.type === 'image')));
  }
  const users = new Set<number>();
  let refused = 0;
  for (const ids of chunks(referred, 20)) {
    // The usage lists may refuse an image's id (open choice usage-image-ids: `id` is "file IDs"): then each is asked alone,
    // and what is refused is left out, and said.
    const together = await usage(t, 'file', ids, master);
    const answers = together.answer
      ? [together.answer]
      : (await Promise.all(ids.map((id) => usage(t, 'file', [id], master)))).flatMap((u) => u.answer ?? []);
    refused += together.answer ? 0 : ids.length - answers.length;
    for (const answer of answers) for (const user of answer.list ?? []) if (inFixture(scope, 'file', user)) users.add(user.id as number);
  }
  if (refused) t.nothingToJudge(`the usage lists refuse ${refused} of the ids asked about (images): the files using those are not judged`);
  return [...users];
}

conformance(
  'USE-04',
  "syncableObjects with srcNodeId reports the source channel's version of each file and image the given file refers to",
  async (t) => {
    const channel = t.fixture.channelNodeId;
    if (channel === undefined) throw new SetupError('the target declares multichannelling but its fixture names no channelNodeId');
    const findings: Finding[] = [];
    let judged = 0;
    for (const id of (await referringFiles(t)).slice(0, 8)) {
      const refs = tagReferences((await t.call('file.load', { path: { id } })).body?.file?.tags);
      // The channel's own copy of each referenced file and image (MCH-04: "nodeIds maps copy id to node id").
      const copies = new Map<number, number>();
      for (const ref of [...refs.files, ...refs.images].filter((r) => r !== id)) {
        const nodeIds = (await t.call('file.localizations', { path: { id: ref } })).body?.nodeIds ?? {};
        const copy = Object.entries(nodeIds).find(([, node]) => node === channel)?.[0];
        if (copy !== undefined && Number(copy) !== ref) copies.set(ref, Number(copy));
      }
      if (!copies.size) continue;
      judged++;
      // "objects linked ... by the given files that can be synchronised to a master channel with them", "srcNodeId (int; source
      // channel)": what goes from the source channel to the master is the channel's version, a localized copy where it has one.
      const got = await syncable(t, [id]);
      if (!got.body) continue;
      t.judged('file.usage.syncableObjects', 'srcNodeId');
      const listed = idsOf([...(got.body.files ?? []), ...((got.body.images ?? []) as { id?: unknown }[])]);
      const wrong = [...copies].filter(([ref, copy]) => !listed.includes(copy) || listed.includes(ref));
      if (wrong.length)
        findings.push(
          finding(
            'USE-04',
            'relation',
            `file ${id} refers to ${brief(wrong.map(([ref]) => ref))}, localized in channel ${channel} as ` +
              `${brief(wrong.map(([, copy]) => copy))}; syncableObjects with srcNodeId=${channel} must report the channel's copies, ` +
              `not the master's objects (listed: ${brief(listed)})`,
            got.exchange,
          ),
        );
    }
    if (!judged)
      return t.nothingToJudge(`no file of the master that refers to other files or images refers to one localized in channel ${channel}`);
    t.record(findings);
  },
);
