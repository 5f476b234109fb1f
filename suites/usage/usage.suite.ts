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
import { attempt, channelOf, copyIdStep, deleteFolderStep, eitherIdStep, localizeStep, uploadFileStep } from '../../harness/steps.ts';
import { PerRun, conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange, RequestSpec } from '../../harness/transport.ts';
import type { File, Item, Page, ResponseOf } from '../../schemas/types.ts';
import { chunks, tagReferences } from './relations.ts';

/** The usage lists of contract 4.3 and the member that holds each list. */
const KINDS = {
  file: { op: 'file.usage.file', member: 'files' },
  folder: { op: 'file.usage.folder', member: 'folders' },
  page: { op: 'file.usage.page', member: 'pages' },
} as const;
type Kind = keyof typeof KINDS;
const KIND_NAMES = Object.keys(KINDS) as Kind[];

/** One usage answer, with the members the relations read. */
interface UsageAnswer {
  exchange: Exchange;
  total?: number;
  hasMoreItems?: boolean;
  withoutPermission?: number;
  /** The listed objects; undefined when the member is absent. */
  list?: Item[];
}

/** Asks who of `kind` uses the files `ids`, in the view of `nodeId`; findings instead of a body when refused. */
async function usage(
  t: ConformanceContext,
  kind: Kind,
  ids: readonly number[],
  nodeId: number,
  query: RequestSpec['query'] = {},
): Promise<{ answer?: UsageAnswer; findings: Finding[] }> {
  const { op, member } = KINDS[kind];
  const got = await attempt(t, op, { query: { id: [...ids], nodeId, ...query } });
  if (!got.body) return { findings: got.findings };
  const body = got.body as Record<string, unknown>;
  const list = body[member];
  return {
    answer: {
      exchange: got.exchange,
      ...(typeof body.total === 'number' ? { total: body.total } : {}),
      ...(typeof body.hasMoreItems === 'boolean' ? { hasMoreItems: body.hasMoreItems } : {}),
      ...(typeof body.withoutPermission === 'number' ? { withoutPermission: body.withoutPermission } : {}),
      ...(Array.isArray(list) ? { list: list as Item[] } : {}),
    },
    findings: [],
  };
}

/** Like usage, for setup the rest of the test relies on: a refusal ends the test with its finding. */
async function mustUsage(
  t: ConformanceContext,
  kind: Kind,
  ids: readonly number[],
  nodeId: number,
  query: RequestSpec['query'] = {},
): Promise<UsageAnswer> {
  const got = await usage(t, kind, ids, nodeId, query);
  if (got.answer) return got.answer;
  t.record(got.findings);
  throw new SetupError(`usage/${kind} failed`);
}

/** The files getFiles lists over a whole tree (recursive, unpaged), filtered by `query`; a refusal ends the test. */
async function treeFiles(
  t: ConformanceContext,
  folderId: number,
  query: RequestSpec['query'] = {},
): Promise<{ files: File[]; exchange: Exchange }> {
  const got = await t.call('folder.getFiles', { path: { folderId }, query: { recursive: true, maxItems: -1, ...query } });
  if (!got.body) throw new SetupError(`folder.getFiles: ${got.problem}`);
  return { files: got.body.files ?? [], exchange: got.exchange };
}

/** The tests that said their usage lists named users without a folderId (once each). */
const saidNoFolder = new WeakSet<ConformanceContext>();

/**
 * Whether a listed object lives in the fixture folders: a folder by its id, a file or page by its folder. A file or page
 * record need not carry folderId (contract 2.1): one without is left out, and the test `t` (where given) says so once.
 */
function inFixture(scope: ReadonlySet<number>, kind: Kind, item: Item & { folderId?: unknown }, t?: ConformanceContext): boolean {
  if (kind !== 'folder' && typeof item.folderId !== 'number' && t && !saidNoFolder.has(t)) {
    saidNoFolder.add(t);
    t.nothingToJudge(`a ${kind} record of a usage list shows no folderId: users whose folder is not shown are not judged`);
  }
  return scope.has((kind === 'folder' ? item.id : item.folderId) as number);
}

/**
 * The files to ask about: the master's used files (getFiles used=true) and the images their folder and
 * file users refer to in their tags (getFiles lists no images, yet an image is a file a user can use:
 * a user of a file and an image is where a server may count a user twice). Every kind asks about all
 * of them: "files using one of the given files" (contract 4.3) makes no exception for a given file that
 * uses another given file. `kinds` are those with ids to ask about.
 */
async function usedInMaster(t: ConformanceContext): Promise<Discovery> {
  // The fixture does not change during a run: the tests of this file share one discovery (only a complete one).
  return discovery.retrying(() => discover(t));
}

/** What usedInMaster finds. */
interface Discovery {
  used: number[];
  idsFor: Record<Kind, number[]>;
  kinds: Kind[];
  scope: Set<number>;
  fileUsers: number[];
  /** Images the usage lists refused to be asked about (open choice usage-image-ids: their `id` is "file IDs"). */
  refusedImages: number[];
}

const discovery = new PerRun<Promise<Discovery>>();

/** The discovery of usedInMaster, sent through the test that asks first. */
async function discover(t: ConformanceContext): Promise<Discovery> {
  const master = t.fixture.masterNodeId;
  const scope = (await fixtureTree(t, t.fixture.masterRootFolderId, master)).ids;
  const { files } = await treeFiles(t, t.fixture.masterRootFolderId, { used: true });
  const declared = t.fixture.usedFileId;
  // The file the target file names as used is asked about whatever used=true lists (FLT-07 judges that filter).
  const usedFiles = [
    ...new Set([...(declared === undefined ? [] : [declared]), ...idsOf(files.filter((f) => inFixture(scope, 'file', f)))]),
  ];
  const images = new Set<number>();
  const fileUsers = new Set<number>();
  for (const id of usedFiles) {
    for (const user of (await mustUsage(t, 'folder', [id], master)).list ?? []) {
      if (!inFixture(scope, 'folder', user)) continue;
      const loaded = await t.call('folder.load', { path: { id: user.id as number } });
      for (const image of tagReferences(loaded.body?.folder?.tags).images) images.add(image);
    }
    for (const user of (await mustUsage(t, 'file', [id], master)).list ?? []) {
      if (!inFixture(scope, 'file', user, t) || fileUsers.has(user.id as number)) continue;
      fileUsers.add(user.id as number);
      const loaded = await t.call('file.load', { path: { id: user.id as number } });
      for (const image of tagReferences(loaded.body?.file?.tags).images) images.add(image);
    }
  }
  // The usage lists take "`id` (int, multivalued; file IDs)": a server may refuse an image's (open choice usage-image-ids),
  // which then is not asked about.
  const refusedImages: number[] = [];
  for (const id of images) {
    const got = await usage(t, 'file', [id], master);
    if (!got.answer) {
      refusedImages.push(id);
      continue;
    }
    for (const user of got.answer.list ?? []) if (inFixture(scope, 'file', user)) fileUsers.add(user.id as number);
  }
  const used = [...usedFiles, ...[...images].filter((id) => !usedFiles.includes(id) && !refusedImages.includes(id))];
  // The files the target file names as users of its used file are users whatever usage/file says (USE-01 judges that).
  for (const id of t.fixture.usedFileUsers?.files ?? []) fileUsers.add(id);
  const idsFor = { file: used, folder: used, page: used };
  return { used, idsFor, kinds: KIND_NAMES.filter((kind) => idsFor[kind].length > 0), scope, fileUsers: [...fileUsers], refusedImages };
}

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

conformance('USE-05', 'used=true and used=false partition the files, and unused files have no users', async (t) => {
  const views: [string, number, number][] = [['master', t.fixture.masterRootFolderId, t.fixture.masterNodeId]];
  if (t.config.target.features.includes('multichannelling') && t.fixture.channelNodeId && t.fixture.channelRootFolderId)
    views.push(['channel', t.fixture.channelRootFolderId, t.fixture.channelNodeId]);
  const findings: Finding[] = [];
  let files = 0;
  for (const [label, root, nodeId] of views) {
    const scope = (await fixtureTree(t, root, nodeId)).ids;
    const listed = async (query: RequestSpec['query']) => {
      const got = await treeFiles(t, root, { nodeId, ...query });
      return { ...got, files: got.files.filter((f) => inFixture(scope, 'file', f)) };
    };
    const [all, yes, no] = [await listed({}), await listed({ used: true }), await listed({ used: false })];
    t.judged('folder.getFiles', 'used');
    files += all.files.length + yes.files.length + no.files.length;
    // "used (boolean; true only used files, false only unused)": the two filters split the unfiltered list.
    const both = idsOf(yes.files).filter((id) => idsOf(no.files).includes(id));
    if (both.length)
      findings.push(
        finding('USE-05', 'relation', `in the ${label} view, files ${brief(both)} are listed by used=true and by used=false`, no.exchange),
      );
    const { missing, extra } = setDifference(idsOf(all.files), [...idsOf(yes.files), ...idsOf(no.files)]);
    if (missing.length)
      findings.push(
        finding(
          'USE-05',
          'relation',
          `in the ${label} view, files ${brief(missing)} are listed without the filter but by neither used=true nor used=false`,
          no.exchange,
        ),
      );
    if (extra.length)
      findings.push(
        finding(
          'USE-05',
          'relation',
          `in the ${label} view, used=true or used=false list files ${brief(extra)} that the unfiltered listing does not hold`,
          yes.exchange,
        ),
      );
    // An unused file has no users: no usage list names a user of any of them.
    for (const ids of chunks(idsOf(no.files), 50)) {
      for (const kind of KIND_NAMES) {
        const got = await usage(t, kind, ids, nodeId, { maxItems: -1 });
        findings.push(...got.findings);
        const users = (got.answer?.list ?? []).filter((u) => inFixture(scope, kind, u, t));
        if (users.length)
          findings.push(
            finding(
              'USE-05',
              'relation',
              `in the ${label} view, usage/${kind} names users ${brief(idsOf(users))} of files that used=false lists as unused`,
              got.answer!.exchange,
            ),
          );
      }
    }
  }
  if (!files) t.nothingToJudge('the master tree holds no files');
  t.record(findings);
});

conformance('USE-05', 'without usedIn only users in the current channel make a file used', async (t) => {
  const channel = t.fixture.channelNodeId;
  const master = t.fixture.masterNodeId;
  const root = t.fixture.masterRootFolderId;
  if (!t.config.target.features.includes('multichannelling') || channel === undefined) {
    return t.nothingToJudge('the target declares no channel, so the channel scope of used cannot be told');
  }
  const findings: Finding[] = [];
  const scope = (await fixtureTree(t, root, master)).ids;
  const listed = async (query: RequestSpec['query']) => {
    const got = await treeFiles(t, root, query);
    return { ...got, files: got.files.filter((f) => inFixture(scope, 'file', f)) };
  };
  const inMaster = new Set(idsOf((await listed({ nodeId: master })).files));
  const usedHere = await listed({ nodeId: master, used: true });
  const usedWithChannel = await listed({ nodeId: master, used: true, usedIn: [channel] });
  t.judged('folder.getFiles', 'usedIn');
  const channelScope = (await fixtureTree(t, t.fixture.channelRootFolderId ?? root, channel)).ids;
  const usedInChannel = (await treeFiles(t, t.fixture.channelRootFolderId ?? root, { nodeId: channel, used: true })).files.filter((f) =>
    inFixture(channelScope, 'file', f),
  );
  if (!usedHere.files.length && !usedInChannel.length) return t.nothingToJudge('no file of the master or of the channel is used');
  // "usedIn (int, multivalued; channel IDs extending used)": a file used in the channel is used once the channel is added.
  const extended = new Set(idsOf(usedWithChannel.files));
  const notExtended = idsOf(usedInChannel).filter((id) => inMaster.has(id) && !extended.has(id));
  if (notExtended.length)
    findings.push(
      finding(
        'USE-05',
        'relation',
        `files ${brief(notExtended)} are used in channel ${channel} but used=true&usedIn=${channel} in the master leaves them out`,
        usedWithChannel.exchange,
      ),
    );
  // GET /file: "used (boolean), usedIn (int, multivalued) with the same meanings as for /folder/getFiles/{folderId}".
  const viaList = await t.call('file.list', {
    query: { folderId: String(root), recursive: true, nodeId: master, used: true, usedIn: [channel] },
  });
  if (viaList.body) {
    t.judged('file.list', 'usedIn');
    const listed = new Set(idsOf(viaList.body.items));
    const left = idsOf(usedInChannel).filter((id) => inMaster.has(id) && !listed.has(id));
    if (left.length)
      findings.push(
        finding(
          'USE-05',
          'relation',
          `files ${brief(left)} are used in channel ${channel} but GET /file used=true&usedIn=${channel} in the master leaves them out`,
          viaList.exchange,
        ),
      );
  }
  // "without usedIn only the current channel is checked": a file used in the master has a user there.
  let templates: Set<number> | undefined;
  for (const id of idsOf(usedHere.files)) {
    const counts = await Promise.all(KIND_NAMES.map(async (kind) => (await mustUsage(t, kind, [id], master)).list?.length ?? 0));
    if (counts.some((n) => n > 0)) continue;
    const elsewhere = await Promise.all(
      KIND_NAMES.map(async (kind) => ({ kind, users: (await mustUsage(t, kind, [id], channel)).list ?? [] })),
    );
    const channelUsers = elsewhere.filter((e) => e.users.length);
    if (!channelUsers.length) continue;
    // Templates also use files (no usage list shows them): a file a master template refers to is used in the master.
    templates ??= await templateReferences(t, root);
    if (!templates) return void t.record(findings);
    if (templates.has(id)) continue;
    const shown = channelUsers.map((e) => `usage/${e.kind} ${brief(idsOf(e.users))}`).join(', ');
    findings.push(
      finding(
        'USE-05',
        'relation',
        `file ${id} is listed by used=true in the master, but no object of the master uses it ` +
          `(no usage list names a user with nodeId=${master}, no template refers to it); only channel ${channel} does (${shown})`,
        usedHere.exchange,
      ),
    );
  }
  t.record(findings);
});

conformance(
  'USE-05',
  "a file a master template's object tag refers to is listed by used=true and left out by used=false",
  async (t) => {
    const refs = await templateReferences(t, t.fixture.masterRootFolderId);
    if (!refs) return;
    for (const id of [...refs].slice(0, 6)) {
      const file = (await t.call('file.load', { path: { id } })).body?.file;
      const folderId = file?.folderId;
      if (typeof folderId !== 'number') continue;
      // "used (boolean; true only used files, false only unused ...)": a file is used when an object tag of another object refers
      // to it (reference notes; open choice used-definition, both of whose answers count a template's object tag).
      const listed = async (used: boolean) =>
        idsOf((await t.must('folder.getFiles', { path: { folderId }, query: { used, maxItems: -1 } })).files ?? []);
      const [yes, no] = [await listed(true), await listed(false)];
      t.judged('folder.getFiles', 'used');
      if (!yes.includes(id) || no.includes(id))
        t.record([
          finding(
            'USE-05',
            'relation',
            `file ${id}, which an object tag of a master template refers to, is ${yes.includes(id) ? '' : 'not '}listed by ` +
              `getFiles used=true and is ${no.includes(id) ? '' : 'not '}listed by used=false in folder ${folderId}`,
          ),
        ]);
      return;
    }
    t.nothingToJudge('no object tag of a master template refers to a file the target loads');
  },
  { feature: 'templates', operation: 'folder.getFiles' },
);

/**
 * The file and image ids the object tags of the master's templates refer to; undefined (a warning recorded) when the templates
 * cannot be listed.
 */
async function templateReferences(t: ConformanceContext, root: number): Promise<Set<number> | undefined> {
  const got = await attempt(t, 'folder.getTemplates', { path: { folderId: root }, query: { recursive: true, maxItems: -1 } });
  if (!got.body) {
    t.record(
      got.findings.map((f) =>
        finding(
          f.requirement,
          f.check,
          `${f.message}; without the templates a file used only by a template cannot be told from a file used only in a channel`,
          f.exchange,
          'warning',
        ),
      ),
    );
    return undefined;
  }
  const out = new Set<number>();
  for (const template of got.body.templates ?? []) {
    const refs = tagReferences(template.objectTags);
    for (const id of [...refs.files, ...refs.images]) out.add(id);
  }
  return out;
}
