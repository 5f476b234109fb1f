/**
 * Folders (FLD), the folder listings (getFolders by GET and POST, GET /folder): recursive, tree, recursiveIds and recId on
 * trees the test creates, judged by the model (FLD-03); POST getFolders answering as GET (FLD-04); the privileges the
 * listings add when asked (FLD-11).
 */
import fc from 'fast-check';
import { stepFinding } from '../../harness/api.ts';
import { finding, isRefusal } from '../../harness/checks.ts';
import { hasFeature } from '../../harness/fixture.ts';
import { brief, idsOf, setDifference } from '../../harness/oracles.ts';
import { attempt, createFolderStep, createTreeStep, deleteFolderStep } from '../../harness/steps.ts';
import { conformance } from '../../harness/suite.ts';
import { isRecord } from '../../harness/rules/answer.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { Folder, ResponseOf } from '../../schemas/types.ts';
import { canonical, closeUnderAncestors, predictFolders, shapesOf, type Shape, type TreeModel } from './tree.ts';
import { carriesPrivileges, privilegesOf } from './privileges.ts';

const TREE: [string, string | null][] = [
  ['Alpha', null],
  ['beta', null],
  ['Gamma', null],
  ['Alpha one', 'Alpha'],
  ['Alpha two', 'Alpha'],
  ['beta inner', 'beta'],
  ['Alpha one deep', 'Alpha one'],
  ['Alpha one deeper', 'Alpha one'],
];

/** The getFolders query of the model: recursive, tree, and a recursiveIds list closed under ancestors. */
function folderQuery(model: TreeModel, top: number, all: number[]) {
  return fc
    .record({ recursive: fc.boolean(), tree: fc.boolean(), pick: fc.subarray(all), viaList: fc.boolean() })
    .map(({ recursive, tree, pick, viaList }) => ({
      recursive,
      tree,
      viaList,
      recursiveIds: pick.length ? closeUnderAncestors(model, top, pick) : [],
    }));
}

conformance(
  'FLD-03',
  'getFolders recursive lists all descendants, tree nests them and recursiveIds limits the folders fetched',
  async (t) => {
    const top = await t.folder();
    const { model, ids } = await createTreeStep(t, top, TREE);
    const names = new Map([...ids].map(([n, id]) => [id, n]));
    const named = (shapes: Shape[]) => canonical(shapes).replace(/\d+/g, (id) => names.get(Number(id)) ?? id);
    await t.property(
      folderQuery(model, top, [...ids.values()]),
      async (q) => {
        const query = { recursive: q.recursive, tree: q.tree, recursiveIds: q.recursiveIds.length ? q.recursiveIds : undefined };
        // GET /folder takes the same `recursive`, `tree` and `recursiveIds` as getFolders (contract 4.2).
        const r = q.viaList
          ? await attempt(t, 'folder.list', { query: { folderId: String(top), ...query } })
          : await attempt(t, 'folder.getFolders', { path: { id: top }, query });
        if (!r.body) return r.findings;
        const folders =
          (q.viaList ? (r.body as ResponseOf['folder.list']).items : (r.body as ResponseOf['folder.getFolders']).folders) ?? [];
        const expected = predictFolders(model, top, q);
        const got = shapesOf(folders, q.recursive && q.tree);
        t.judged(q.viaList ? 'folder.list' : 'folder.getFolders', 'recursive', 'tree', 'recursiveIds', ...(q.viaList ? ['folderId'] : []));
        // A flat answer is judged by the folders it lists side by side: whether its records also carry their sub-folders is an open
        // choice (flat-listing-subfolders), so shapesOf reads `subfolders` in tree answers only.
        // "`recursive` lists all descendants; `tree=true` nests them under `subfolders`; `recursiveIds` limits which folders' children
        // are fetched."
        if (canonical(got) === canonical(expected)) return [];
        return [
          finding(
            'FLD-03',
            'model',
            `${q.viaList ? 'GET /folder' : 'getFolders'} recursive=${q.recursive} tree=${q.tree} ` +
              `recursiveIds=${brief(q.recursiveIds.map((id) => names.get(id) ?? 'the test folder'))}: ` +
              `expected ${named(expected)}, got ${named(got)}`,
            r.exchange,
          ),
        ];
      },
      {
        // Each of the three words of the sentence in every run: all descendants, nested, fetched for Alpha alone.
        cover: [
          { recursive: true, tree: false, viaList: false, recursiveIds: [] },
          { recursive: true, tree: true, viaList: false, recursiveIds: [] },
          { recursive: true, tree: true, viaList: true, recursiveIds: [] },
          { recursive: true, tree: true, viaList: false, recursiveIds: closeUnderAncestors(model, top, [ids.get('Alpha')!]) },
        ],
      },
    );
  },
);

conformance('FLD-03', 'tree without recursive answers getFolders and GET /folder as they answer without tree', async (t) => {
  const top = await t.folder();
  await createTreeStep(t, top, TREE);
  // `tree` (boolean, false; returns trees with sub-folders attached to their parents, meaningful only when `recursive` is true):
  // without recursive it changes nothing. Sub-folders are read in both answers, so a server whose records carry them either
  // way answers both alike.
  for (const viaList of [false, true]) {
    const list = async (tree: boolean) => {
      const r = viaList
        ? await attempt(t, 'folder.list', { query: { folderId: String(top), ...(tree ? { tree } : {}) } })
        : await attempt(t, 'folder.getFolders', { path: { id: top }, query: tree ? { tree } : {} });
      const folders = r.body
        ? ((viaList ? (r.body as ResponseOf['folder.list']).items : (r.body as ResponseOf['folder.getFolders']).folders) ?? [])
        : undefined;
      return { ...r, shapes: folders && canonical(shapesOf(folders, true)) };
    };
    const [plain, tree] = [await list(false), await list(true)];
    if (plain.shapes === undefined || tree.shapes === undefined) return void t.record([...plain.findings, ...tree.findings]);
    t.judged(viaList ? 'folder.list' : 'folder.getFolders', 'tree');
    if (plain.shapes !== tree.shapes)
      t.record([
        finding(
          'FLD-03',
          'model',
          `${viaList ? 'GET /folder' : 'getFolders'} of folder ${top} with tree=true and no recursive answers ${tree.shapes}; ` +
            `without tree ${plain.shapes}: tree is meaningful only when recursive is true`,
          tree.exchange,
        ),
      ]);
  }
});

/** Levels of the deep chain: more than 200, where a listing with a depth limit of its own would stop. */
const DEEP = 210;

conformance('FLD-03', 'getFolders and GET /folder recursive list every level of a chain of folders deeper than 200', async (t) => {
  const top = await t.folder();
  const chain: number[] = [];
  for (let level = 1, mother = top; level <= DEEP; level++) chain.push((mother = (await createFolderStep(t, mother, `Level ${level}`)).id));
  // "`recursive` lists all descendants": the contract sets no depth below which they stop.
  for (const viaList of [false, true]) {
    const r = viaList
      ? await t.call('folder.list', { query: { folderId: String(top), recursive: true } })
      : await t.call('folder.getFolders', { path: { id: top }, query: { recursive: true } });
    if (!r.body) continue;
    const listed = idsOf(viaList ? (r.body as ResponseOf['folder.list']).items : (r.body as ResponseOf['folder.getFolders']).folders);
    const { missing } = setDifference(chain, listed);
    if (missing.length)
      t.record([
        finding(
          'FLD-03',
          'model',
          `${viaList ? 'GET /folder' : 'getFolders'} recursive=true lists ${DEEP - missing.length} of the ${DEEP} levels of a chain of ` +
            `folders below the test folder: none from level ${chain.indexOf(missing[0]!) + 1} down`,
          r.exchange,
        ),
      ]);
  }
  t.judged('folder.getFolders', 'recursive');
  // 210 folders are more than other tests' listings of the sandbox should meet: they go as soon as they are judged.
  await deleteFolderStep(t, top);
});

conformance(
  'FLD-03',
  'getFolders recId limits the folders whose children are fetched, as recursiveIds does',
  async (t) => {
    const top = await t.folder();
    const { model, ids } = await createTreeStep(t, top, TREE);
    const names = new Map([...ids].map(([n, id]) => [id, n]));
    const recId = closeUnderAncestors(model, top, [ids.get('Alpha')!]);
    for (const tree of [false, true]) {
      const r = await t.call('folder.getFolders', { path: { id: top }, query: { recursive: true, tree, recId } });
      if (!r.body) continue;
      // getFolders: "recId (string, multivalued; as `recursiveIds`)", which "limits which folders' children are fetched".
      const expected = predictFolders(model, top, { recursive: true, tree, recursiveIds: recId });
      const got = shapesOf(r.body.folders, tree);
      const named = (shapes: Shape[]) => canonical(shapes).replace(/\d+/g, (id) => names.get(Number(id)) ?? id);
      if (canonical(got) !== canonical(expected))
        t.record([
          finding(
            'FLD-03',
            'recId',
            `getFolders recursive=true tree=${tree} recId=${brief(recId.map((id) => names.get(id) ?? 'the test folder'))}: ` +
              `expected ${named(expected)}, got ${named(got)}`,
            r.exchange,
          ),
        ]);
    }
    t.judged('folder.getFolders', 'recId');
  },
  { operation: 'folder.getFolders' },
);

conformance(
  'FLD-03',
  'getFolders and GET /folder take recursiveIds in the form nodeId/folderId',
  async (t) => {
    const top = await t.folder();
    const { model, ids } = await createTreeStep(t, top, TREE);
    const names = new Map([...ids].map(([n, id]) => [id, n]));
    const named = (shapes: Shape[]) => canonical(shapes).replace(/\d+/g, (id) => names.get(Number(id)) ?? id);
    // The node of the test's folders, as their records say (the sandbox lies in the master).
    const node = (await t.must('folder.load', { path: { id: top } })).folder?.nodeId ?? t.fixture.masterNodeId;
    const picked = closeUnderAncestors(model, top, [ids.get('Alpha one')!]);
    const recursiveIds = picked.map((id) => `${node}/${id}`);
    let unread: string | undefined;
    for (const viaList of [false, true])
      for (const tree of [false, true]) {
        const query = { recursive: true, tree, recursiveIds };
        const r = viaList
          ? await t.call('folder.list', { query: { folderId: String(top), ...query } })
          : await t.try('folder.getFolders', { path: { id: top }, query });
        // GET /folder: "`recursiveIds` (string, multivalued; folders whose children are fetched, ignored if `recursive` is false; ids
        // may be `nodeId/folderId`)": the node form names the same folders as the plain ids. getFolders' recursiveIds is
        // "(string, multivalued)" without that clause (open choice recursive-ids-node-form): a refusal of the node form, or an answer
        // that ignores its entries, gives nothing to judge there.
        if (!r.body) {
          if (!viaList && isRefusal(r.exchange))
            unread = `getFolders refuses recursiveIds ${brief(recursiveIds)} in the form nodeId/folderId`;
          else if (!viaList) t.record([stepFinding('FLD-03', 'folder.getFolders', r.exchange, r.problem ?? '')]);
          continue;
        }
        const folders = (viaList ? (r.body as ResponseOf['folder.list']).items : (r.body as ResponseOf['folder.getFolders']).folders) ?? [];
        const expected = predictFolders(model, top, { recursive: true, tree, recursiveIds: picked });
        const got = shapesOf(folders, tree);
        if (canonical(got) === canonical(expected)) continue;
        if (!viaList) {
          // Entries ignored: left out of the list (every folder's children fetched), or naming no folder (none fetched).
          const ignored = [[], [Number.NaN]].map((list) => predictFolders(model, top, { recursive: true, tree, recursiveIds: list }));
          if (ignored.some((shapes) => canonical(got) === canonical(shapes))) {
            unread = `getFolders answers recursiveIds ${brief(recursiveIds)} as if its node-form entries were not there`;
            continue;
          }
        }
        t.record([
          finding(
            'FLD-03',
            'nodeForm',
            `${viaList ? 'GET /folder' : 'getFolders'} recursive=true tree=${tree} recursiveIds=${brief(recursiveIds)} ` +
              `(${brief(picked.map((id) => names.get(id) ?? 'the test folder'))} in node ${node}): expected ${named(expected)}, ` +
              `got ${named(got)}`,
            r.exchange,
          ),
        ]);
      }
    if (unread) t.nothingToJudge(`${unread} (open choice recursive-ids-node-form)`);
  },
  { operation: 'folder.getFolders' },
);

conformance(
  'FLD-11',
  'the folder listings add privileges and the privilege map to every record when asked',
  async (t) => {
    const top = await t.folder();
    await createTreeStep(t, top, [
      ['First', null],
      ['Second', null],
    ]);
    const calls: { label: string; send: () => Promise<{ folders?: Folder[]; perms?: unknown; exchange: Exchange }> }[] = [];
    const get = (query: Record<string, boolean>) => async () => {
      const r = await t.call('folder.getFolders', { path: { id: top }, query });
      return { folders: r.body?.folders, exchange: r.exchange };
    };
    const list = (query: Record<string, boolean>) => async () => {
      const r = await t.call('folder.list', { query: { folderId: String(top), ...query } });
      return { folders: r.body?.items, perms: r.body?.perms, exchange: r.exchange };
    };
    const post = (json: Record<string, boolean>) => async () => {
      const r = await t.call('folder.getFolders.post', { json: { id: String(top), ...json } });
      return { folders: r.body?.folders, exchange: r.exchange };
    };
    calls.push(
      { label: 'getFolders addPrivileges=true', send: get({ addPrivileges: true }) },
      { label: 'getFolders privileges=true', send: get({ privileges: true }) },
      { label: 'getFolders privilegeMap=true', send: get({ privilegeMap: true }) },
      { label: 'GET /folder addPrivileges=true', send: list({ addPrivileges: true }) },
      { label: 'GET /folder privilegeMap=true', send: list({ privilegeMap: true }) },
      { label: 'POST getFolders addPrivileges', send: post({ addPrivileges: true }) },
      { label: 'POST getFolders privilegeMap', send: post({ privilegeMap: true }) },
    );
    for (const call of calls) {
      const { folders, perms, exchange } = await call.send();
      if (!folders) continue;
      // 2.9: "perms (in list responses): map string to array of string (permission names)": an empty string names no permission.
      const unnamed = isRecord(perms)
        ? Object.entries(perms).filter(([, names]) => Array.isArray(names) && names.some((n) => n === ''))
        : [];
      if (unnamed.length)
        t.record([
          finding(
            'FLD-11',
            'perms',
            `${call.label} answers perms naming '' as a permission of ${brief(unnamed.map(([id]) => id))}`,
            exchange,
          ),
        ]);
      // GET /folder and getFolders "`addPrivileges` (boolean, false)", getFolders "`privileges` (boolean, false)", both
      // "`privilegeMap` (boolean, false)", and the body's members of the same names: each adds the privileges to every record, in
      // one of the members the Folder record has for them. Nor is it said that a record asked for nothing carries none.
      const wrong = folders.filter((f) => !carriesPrivileges(f, perms));
      if (wrong.length)
        t.record([
          finding(
            'FLD-11',
            'listing',
            `${call.label} asks for the privileges, but answers ${brief(wrong.map((f) => `${f.id} ${JSON.stringify(privilegesOf(f))}`))}`,
            exchange,
          ),
        ]);
    }
    // GET /folder's flags are not claimed: its answer's perms may name every folder whether or not they are asked for (the
    // reference server's does), and perms is one of the places a server may add the privileges (schemas/parameter-effects.json).
    t.judged('folder.getFolders', 'addPrivileges', 'privileges', 'privilegeMap');
    t.judged('folder.getFolders.post', 'addPrivileges', 'privilegeMap');
  },
  { operation: 'folder.getFolders' },
);

/** Nested ids in answer order, for comparing two answers of one server. */
function ordered(folders: Folder[] | undefined, key?: (f: Folder) => unknown): unknown[] {
  const items = (folders ?? []).map((f) => ({
    key: key?.(f),
    text: JSON.stringify(Array.isArray(f.subfolders) && f.subfolders.length ? [f.id, ordered(f.subfolders, key)] : f.id),
  }));
  if (!key) return items.map((i) => JSON.parse(i.text) as unknown);
  // Equal keys may come in any order (the contract says nothing of ties): each run of them in one order.
  const runs: (typeof items)[] = [];
  for (const item of items) {
    const run = runs.at(-1);
    if (run && item.key !== undefined && run[0]!.key === item.key) run.push(item);
    else runs.push([item]);
  }
  return runs.flatMap((run) => run.map((i) => i.text).sort());
}

/** A user pattern no user matches: a filter nothing passes. */
const NOBODY = 'qqqqqqqqqqqq';

/**
 * The cases of FLD-04's property: every member of the POST body with the values that can tell it from its
 * absence, and PLAIN, the case with none of them, which the covered cases vary one member at a time. `late`
 * is a timestamp later than any of the test's folders: their unit is not shown (2.1), so it is read from them.
 */
function postQueries(model: TreeModel, top: number, folderIds: number[], withWastebin: boolean, late: number) {
  const PLAIN = {
    q: { recursive: true, tree: false, viaList: false, recursiveIds: [] as number[] },
    sortorder: undefined as string | undefined,
    skipCount: undefined as number | undefined,
    maxItems: undefined as number | undefined,
    search: undefined as string | undefined,
    wastebin: undefined as string | undefined,
    inChannel: false,
    inherited: undefined as boolean | undefined,
    createdBefore: undefined as number | undefined,
    dates: {
      createdSince: undefined as number | undefined,
      editedBefore: undefined as number | undefined,
      editedSince: undefined as number | undefined,
    },
    users: { creator: undefined as string | undefined, editor: undefined as string | undefined },
    sortBy: undefined as string | undefined,
    addPrivileges: undefined as boolean | undefined,
  };
  const params = fc.record({
    q: folderQuery(model, top, folderIds),
    sortorder: fc.constantFrom(undefined, 'asc', 'desc'),
    skipCount: fc.option(fc.nat(4), { nil: undefined }),
    maxItems: fc.option(fc.integer({ min: -1, max: 5 }), { nil: undefined }),
    search: fc.constantFrom(undefined, 'a', 'Alpha', 'one', 'ET'),
    wastebin: withWastebin ? fc.constantFrom(undefined, 'exclude', 'include', 'only') : fc.constant(undefined),
    inChannel: fc.boolean(),
    inherited: fc.option(fc.boolean(), { nil: undefined }),
    createdBefore: fc.constantFrom(undefined, 0, 1),
    dates: fc.record({
      createdSince: fc.constantFrom(undefined, 0, late),
      editedBefore: fc.constantFrom(undefined, 0, 1),
      editedSince: fc.constantFrom(undefined, 0, late),
    }),
    users: fc.record({ creator: fc.constantFrom(undefined, NOBODY), editor: fc.constantFrom(undefined, NOBODY) }),
    sortBy: fc.constantFrom(undefined, 'name', 'cdate'),
    addPrivileges: fc.option(fc.boolean(), { nil: undefined }),
  });
  return { PLAIN, params };
}

conformance('FLD-04', 'POST getFolders answers as GET getFolders with the same parameters', async (t) => {
  const top = await t.folder();
  const { model, ids } = await createTreeStep(t, top, [...TREE, ['Deleted', null], ['Deleted child', 'Deleted']]);
  // One folder created a second later, first by name: an order by creation date is then none by name, whatever the dates' unit.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const later = await createFolderStep(t, top, 'Aardvark');
  ids.set('Aardvark', later.id);
  model.set(top, [...(model.get(top) ?? []), later.id]);
  // Later than every folder of the test's tree, in the unit of their own dates.
  const tree = await t.must('folder.getFolders', { path: { id: top }, query: { recursive: true } });
  const dates = [...(tree.folders ?? []), (await t.must('folder.load', { path: { id: top } })).folder].flatMap((f) => [f?.cdate, f?.edate]);
  const late = Math.max(...dates.filter((d): d is number => typeof d === 'number')) + 1;
  await deleteFolderStep(t, ids.get('Deleted')!);
  const channel = hasFeature(t, 'multichannelling') ? t.fixture.channelNodeId : undefined;
  const { PLAIN, params } = postQueries(model, top, [...ids.values()], hasFeature(t, 'wastebin'), late);
  await t.property(
    params,
    async (p) => {
      const nodeId = p.inChannel ? channel : undefined;
      // recursive in both forms: what a body without it means is an open choice (getfolders-post-absent-members).
      const common = {
        recursive: p.q.recursive,
        tree: p.q.tree,
        skipCount: p.skipCount,
        maxItems: p.maxItems,
        search: p.search,
        wastebin: p.wastebin,
        nodeId,
        inherited: p.inherited,
        addPrivileges: p.addPrivileges,
        ...p.users,
      };
      // The body spells some names in camel case: sortBy, sortOrder, createdBefore (contract 4.2 FolderListRequest).
      const get = await attempt(t, 'folder.getFolders', {
        path: { id: top },
        query: {
          ...common,
          sortby: p.sortBy,
          sortorder: p.sortorder,
          createdbefore: p.createdBefore,
          createdsince: p.dates.createdSince,
          editedbefore: p.dates.editedBefore,
          editedsince: p.dates.editedSince,
          recursiveIds: p.q.recursiveIds.length ? p.q.recursiveIds : undefined,
        },
      });
      const body = Object.fromEntries(
        Object.entries({ ...common, ...p.dates, sortBy: p.sortBy, sortOrder: p.sortorder, createdBefore: p.createdBefore }).filter(
          ([, v]) => v !== undefined,
        ),
      );
      const post = await attempt(t, 'folder.getFolders.post', {
        json: { id: String(top), ...body, ...(p.q.recursiveIds.length ? { recursiveIds: p.q.recursiveIds.map(String) } : {}) },
      });
      if (!get.body || !post.body) return [...get.findings, ...post.findings];
      // The body's members must do what the GET form's parameters do, whose effects other tests judge; the cases below tell each
      // member from its absence. Not claimed here: addPrivileges (FLD-11's listing test judges what it adds).
      t.judged(
        'folder.getFolders.post',
        ...['id', 'recursive', 'tree', 'skipCount', 'maxItems', 'search', 'wastebin', 'nodeId', 'inherited', 'createdBefore'],
        ...['createdSince', 'editedBefore', 'editedSince', 'creator', 'editor', 'sortBy', 'sortOrder', 'recursiveIds'],
      );
      // "POST /folder/getFolders with a body answers as GET /folder/getFolders/{id} with the same parameters." The test's folders
      // share their creation dates, and how ties are ordered is not said: by cdate, folders of one date compare in any order, and a
      // page cut from such an order by its length alone.
      const byDate = p.sortBy === 'cdate';
      const cut = byDate && (p.skipCount !== undefined || (p.maxItems !== undefined && p.maxItems >= 0));
      const answer = (b: ResponseOf['folder.getFolders']) =>
        JSON.stringify({
          folders: cut ? (b.folders ?? []).length : ordered(b.folders, byDate ? (f) => f.cdate : undefined),
          numItems: b.numItems,
          hasMoreItems: b.hasMoreItems,
          privileges: (b.folders ?? []).map((f) => Array.isArray(f.privileges)),
        });
      if (answer(get.body) === answer(post.body)) return [];
      return [
        finding(
          'FLD-04',
          'equivalence',
          `POST getFolders answered ${answer(post.body)} where GET getFolders answered ${answer(get.body)}`,
          post.exchange,
        ),
      ];
    },
    {
      // In every run: a page that skips and cuts, of the top level and of every descendant; and each member alone on every
      // descendant, where it changes the answer: a filter nothing or some pass, a tree, creation order backwards, Alpha's children only.
      cover: [
        ...[false, true].map((recursive) => ({ ...PLAIN, q: { ...PLAIN.q, recursive }, skipCount: 1, maxItems: 2 })),
        { ...PLAIN, createdBefore: 1 },
        ...(hasFeature(t, 'wastebin') ? [{ ...PLAIN, wastebin: 'only' }] : []),
        { ...PLAIN, search: 'Alpha' },
        { ...PLAIN, q: { ...PLAIN.q, tree: true } },
        { ...PLAIN, q: { ...PLAIN.q, recursive: false } },
        // The test's folders are the master's, inherited in the channel: only in the channel does inherited=true list them.
        { ...PLAIN, inChannel: true, inherited: true },
        { ...PLAIN, inChannel: true, inherited: false },
        { ...PLAIN, users: { creator: NOBODY, editor: undefined } },
        { ...PLAIN, users: { creator: undefined, editor: NOBODY } },
        { ...PLAIN, dates: { ...PLAIN.dates, createdSince: late } },
        { ...PLAIN, dates: { ...PLAIN.dates, editedBefore: 1 } },
        { ...PLAIN, dates: { ...PLAIN.dates, editedSince: late } },
        { ...PLAIN, sortBy: 'cdate', sortorder: 'desc' },
        { ...PLAIN, sortorder: 'desc' },
        { ...PLAIN, q: { ...PLAIN.q, recursiveIds: closeUnderAncestors(model, top, [ids.get('Alpha')!]) } },
      ],
    },
  );
});

conformance('FLD-04', 'POST getFolders answers as GET getFolders for a deleted folder and for folders other users created', async (t) => {
  // The fixture's top folders, whoever created them (the test's own folders are all the requesting user's).
  const cases: { label: string; id: number }[] = [
    { label: `the root folder ${t.fixture.masterRootFolderId}`, id: t.fixture.masterRootFolderId },
  ];
  if (hasFeature(t, 'wastebin')) {
    const top = await t.folder();
    const gone = await createFolderStep(t, top, 'Deleted');
    await createFolderStep(t, gone.id!, 'Inside');
    await deleteFolderStep(t, gone.id!);
    cases.push({ label: `the deleted folder ${gone.id}`, id: gone.id! });
  }
  for (const c of cases) {
    // recursive given in both forms (what a body without it means is an open choice: getfolders-post-absent-members); wastebin in
    // neither, as the listing filter's default is exclude (contract 3: "`wastebin` = `exclude` (default)").
    const get = await t.try('folder.getFolders', { path: { id: c.id }, query: { recursive: false } });
    const post = await t.try('folder.getFolders.post', { json: { id: String(c.id), recursive: false } });
    const cut = [get, post].find((r) => r.exchange.response?.truncated);
    if (cut) {
      t.nothingToJudge(`for ${c.label}, ${cut.problem ?? 'an answer was cut'}`, cut.exchange);
      continue;
    }
    // "POST /folder/getFolders with a body answers as GET /folder/getFolders/{id} with the same parameters": both refuse, or both
    // list the same folders.
    const answer = (exchange: Exchange, folders: Folder[] | undefined) =>
      isRefusal(exchange) ? 'a refusal' : JSON.stringify((folders ?? []).map((f) => f.id).sort((a, b) => Number(a) - Number(b)));
    const [g, p] = [answer(get.exchange, get.body?.folders), answer(post.exchange, post.body?.folders)];
    if (g !== p)
      t.record([
        finding('FLD-04', 'equivalence', `for ${c.label} POST getFolders answered ${p} where GET getFolders answered ${g}`, post.exchange),
      ]);
  }
});
