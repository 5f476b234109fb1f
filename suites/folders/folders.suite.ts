/**
 * Folders (FLD): create, duplicates, getFolders recursive/tree/recursiveIds (GET and POST), breadcrumb,
 * count, getItems, getTemplates reduce, getPages add-ons, getExternalLinks and load options. Trees the
 * test creates are judged by the model; the fixture's pages and templates by metamorphic relations.
 */
import fc from 'fast-check';
import { folderName, textClasses } from '../../generators/faker.ts';
import { SetupError, stepFinding } from '../../harness/api.ts';
import { descendantsOf, fixtureTree } from '../../harness/fixture.ts';
import { checkRefused, finding, isRefusal, type Finding } from '../../harness/checks.ts';
import { brief, duplicates, idsOf, sameMultiset, setDifference } from '../../harness/oracles.ts';
import { attempt, createFolderStep, deleteFolderStep, uploadFileStep } from '../../harness/steps.ts';
import { conformance, novelClasses, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { Folder, Item, Page, ResponseOf, Tag } from '../../schemas/types.ts';
import { canonical, closeUnderAncestors, predictFolders, shapesOf, type Shape, type TreeModel } from './tree.ts';
import { isRecord } from '../../harness/rules/answer.ts';
import { flag, listOf } from '../../harness/records.ts';

const features = (t: ConformanceContext) => t.config.target.features;

/** Creates folders by name below their parents (parents first) and returns the model and the ids by name. */
async function buildTree(
  t: ConformanceContext,
  top: number,
  layout: [name: string, parent: string | null][],
): Promise<{ model: Map<number, number[]>; ids: Map<string, number> }> {
  const ids = new Map<string, number>();
  const model = new Map<number, number[]>();
  for (const [name, parent] of layout) {
    const mother = parent === null ? top : ids.get(parent)!;
    const folder = await createFolderStep(t, mother, name);
    ids.set(name, folder.id!);
    model.set(mother, [...(model.get(mother) ?? []), folder.id!]);
  }
  return { model, ids };
}

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

conformance('FLD-01', 'create makes a folder under the mother, listed by it and loadable by id and by globalId', async (t) => {
  t.judged('folder.create', 'name', 'motherId');
  let withoutGlobalId: number | undefined;
  await t.property(
    folderName(),
    async (name) => {
      // A mother of its own per case: no name an earlier case created can meet this one (renamed, or refused as a duplicate).
      const top = await t.folder();
      const created = await attempt(t, 'folder.create', { json: { motherId: String(top), name } });
      const folder = created.body?.folder;
      if (!folder)
        return created.findings.length
          ? created.findings
          : [finding('FLD-01', 'create', 'the FolderLoadResponse carries no folder', created.exchange)];
      const out: Finding[] = [];
      // "create makes a folder under `motherId`, returned in FolderLoadResponse": the members the record carries say so (2.1: which
      // it carries is not shown, but id is what the folder is known by).
      if (
        typeof folder.id !== 'number' ||
        (folder.name !== undefined && folder.name !== name) ||
        (folder.motherId !== undefined && folder.motherId !== top)
      ) {
        out.push(
          finding(
            'FLD-01',
            'create',
            `created ${JSON.stringify({ name })} under ${top}, ` +
              `answered folder ${JSON.stringify({ id: folder.id, name: folder.name, motherId: folder.motherId })}`,
            created.exchange,
          ),
        );
        return out;
      }
      // "listed by the mother"
      const listed = await attempt(t, 'folder.getFolders', { path: { id: top } });
      out.push(...listed.findings);
      const entry = listed.body?.folders?.find((f) => f.id === folder.id);
      if (listed.body && (!entry || (entry.name !== undefined && entry.name !== name)))
        out.push(
          finding(
            'FLD-01',
            'listing',
            `getFolders of the mother ${top} lists ${JSON.stringify(entry ?? null)} for the new folder ${folder.id} "${name}"`,
            listed.exchange,
          ),
        );
      // "loadable by id and globalId"
      const byId = await attempt(t, 'folder.load', { path: { id: folder.id } });
      out.push(...byId.findings);
      const loaded = byId.body?.folder;
      if (byId.body && (loaded?.id !== folder.id || (loaded.name !== undefined && loaded.name !== name)))
        out.push(
          finding(
            'FLD-01',
            'load',
            `load of ${folder.id} answers folder ${JSON.stringify({ id: loaded?.id, name: loaded?.name })}`,
            byId.exchange,
          ),
        );
      const globalId = [folder.globalId, entry?.globalId, loaded?.globalId].find((g) => typeof g === 'string');
      // Whether a folder record carries globalId is not shown (2.1): without one there is no global id to load it by.
      if (globalId === undefined) {
        withoutGlobalId = folder.id;
        return out;
      }
      const byGlobal = await attempt(t, 'folder.load', { path: { id: globalId } });
      out.push(...byGlobal.findings);
      if (byGlobal.body && byGlobal.body.folder?.id !== folder.id)
        out.push(
          finding(
            'FLD-01',
            'load',
            `load by globalId ${globalId} answers folder ${byGlobal.body.folder?.id}, not ${folder.id}`,
            byGlobal.exchange,
          ),
        );
      return out;
    },
    // A name of the same character classes as an earlier one meets the same code: each class once.
    { novel: novelClasses(textClasses) },
  );
  if (withoutGlobalId !== undefined)
    t.nothingToJudge(`folder ${withoutGlobalId}, created, listed and loaded, carries no globalId to load it by`);
});

conformance('FLD-01', 'the created folder, loaded back, has the description, publish directory and translations sent', async (t) => {
  const top = await t.folder();
  // Values the server would not choose itself: a publish directory unlike the one derived from the mother and the name.
  // Sent as the deployed server normalises it (reference notes: it starts and ends with /).
  const sent = {
    description: 'Described by the conformance suite',
    publishDir: `/fld01-${top}/elsewhere/`,
    nameI18n: { en: 'Described', de: 'Beschrieben' },
    descriptionI18n: { en: 'Described in English', de: 'Auf Deutsch beschrieben' },
    publishDirI18n: { en: `/fld01-${top}/en/`, de: `/fld01-${top}/de/` },
  };
  const created = await t.must('folder.create', { json: { motherId: String(top), name: 'Described', ...sent } });
  const id = created.folder?.id;
  if (id === undefined) return void t.record([finding('FLD-01', 'create', 'the FolderLoadResponse carries no folder id')]);
  const loaded = await t.call('folder.load', { path: { id } });
  const folder = loaded.body?.folder;
  if (!folder) return;
  // The I18n maps are not claimed: a folder record may leave them out (2.1), and a member that is not there tells nothing of what
  // was sent (schemas/parameter-effects.json).
  t.judged('folder.create', 'description', 'publishDir');
  // FolderCreateRequest "publishDir (string), description (string), ... nameI18n, descriptionI18n, publishDirI18n (map string to
  // string)" are the Folder record's fields of the same names (contract 2.3): the folder created carries what was sent. Which of
  // them a record carries is not shown (2.1): each one it carries is judged. A publish directory compares by its segments, as
  // servers normalise its slashes (reference notes: "`publishDir` is normalised to start and end with `/`").
  const dir = (value: unknown) => (typeof value === 'string' ? value.split('/').filter(Boolean).join('/') : value);
  const equal = (a: unknown, b: unknown) => a === b;
  const sameDir = (a: unknown, b: unknown) => dir(a) === dir(b);
  const sameMap = (same: (a: unknown, b: unknown) => boolean) => (got: unknown, want: unknown) =>
    isRecord(got) && Object.entries(want as Record<string, string>).every(([language, value]) => same(got[language], value));
  const members: [key: string, got: unknown, want: unknown, same: (a: unknown, b: unknown) => boolean][] = [
    ['description', folder.description, sent.description, equal],
    ['publishDir', folder.publishDir, sent.publishDir, sameDir],
    ['nameI18n', folder.nameI18n, sent.nameI18n, sameMap(equal)],
    ['descriptionI18n', folder.descriptionI18n, sent.descriptionI18n, sameMap(equal)],
    ['publishDirI18n', folder.publishDirI18n, sent.publishDirI18n, sameMap(sameDir)],
  ];
  const carried = members.filter(([, got]) => got !== undefined);
  if (!carried.length)
    return t.nothingToJudge(`folder ${id}, loaded, carries none of description, publishDir and the I18n maps`, loaded.exchange);
  const wrong = carried
    .filter(([, got, want, same]) => !same(got, want))
    .map(([key, got, want]) => `${key} ${JSON.stringify(got)} (sent ${JSON.stringify(want)})`);
  if (wrong.length)
    t.record([finding('FLD-01', 'create', `folder ${id}, created with them, loads with ${wrong.join(', ')}`, loaded.exchange)]);
});

conformance('FLD-02', 'create with failOnDuplicate refuses a name a sibling has and creates nothing', async (t) => {
  await t.property(
    folderName(),
    async (name) => {
      // A mother of its own per case: the first create meets no name of an earlier case.
      const top = await t.folder();
      const first = await attempt(t, 'folder.create', { json: { motherId: String(top), name } });
      if (!first.body?.folder)
        return first.findings.length
          ? first.findings
          : [finding('FLD-02', 'step', 'the FolderLoadResponse carries no folder', first.exchange)];
      // The name the folder got, where the answer says it (2.1: which members a record carries is not shown), else the name sent.
      const taken = typeof first.body.folder.name === 'string' ? first.body.folder.name : name;
      const before = await attempt(t, 'folder.getFolders', { path: { id: top } });
      if (!before.body) return before.findings;
      const { exchange: duplicate } = await t.try('folder.create', { json: { motherId: String(top), name: taken, failOnDuplicate: true } });
      t.judged('folder.create', 'failOnDuplicate');
      // "`failOnDuplicate=true` refuses a name already used by a sibling"
      const out = checkRefused(duplicate, 'FLD-02', `a sibling named ${JSON.stringify(taken)} exists and failOnDuplicate is true`);
      // "... and creates nothing"
      const after = await attempt(t, 'folder.getFolders', { path: { id: top } });
      out.push(...after.findings);
      if (after.body && !sameMultiset(idsOf(before.body.folders), idsOf(after.body.folders))) {
        const { extra } = setDifference(idsOf(before.body.folders), idsOf(after.body.folders));
        out.push(
          finding(
            'FLD-02',
            'unchanged',
            `after the refused duplicate ${JSON.stringify(taken)}, the mother lists new folders ${brief(extra)}`,
            after.exchange,
          ),
        );
      }
      return out;
    },
    { runs: Math.min(t.config.runs, 10), novel: novelClasses(textClasses) },
  );
});

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
    const { model, ids } = await buildTree(t, top, TREE);
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
    const { model, ids } = await buildTree(t, top, TREE);
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
    const { model, ids } = await buildTree(t, top, TREE);
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
  'FLT-01',
  'a tree answer of getFolders, GET and POST, applies search to its top level',
  async (t) => {
    const top = await t.folder();
    // Kept matches the term by its name and Noted by its description; Dropped does not. Below Kept, one child matches and one does
    // not, and the grandchild below the match does not either.
    const { model, ids } = await buildTree(t, top, [
      ['Kept', null],
      ['Dropped', null],
      ['Kept inner', 'Kept'],
      ['Other inner', 'Kept'],
      ['Deepest', 'Kept inner'],
    ]);
    const noted = await createFolderStep(t, top, 'Noted', { description: 'Kept for its description' });
    const names = new Map([...ids, ['Noted', noted.id] as const].map(([n, id]) => [id, n]));
    const matching = [ids.get('Kept')!, noted.id];
    // GET /folder has no `search`, and what its `q` matches in a folder is not said: getFolders alone.
    for (const viaBody of [false, true]) {
      const query = { recursive: true, tree: true, search: 'Kept' };
      const r = viaBody
        ? await t.call('folder.getFolders.post', { json: { id: String(top), ...query } })
        : await t.call('folder.getFolders', { path: { id: top }, query });
      if (!r.body) continue;
      const folders = r.body.folders ?? [];
      const label = `${viaBody ? 'POST getFolders' : 'getFolders'} search=Kept recursive=true tree=true`;
      // Group L "`search` (string; matches ID, or partial name or description)": the top level of the tree holds the folders the term
      // matches, and no other. Whether the sub-folders attached to a match are filtered too is an open choice (tree-search): each
      // must be a sub-folder of the folder it is attached to, filtered or not.
      const { missing, extra } = setDifference(matching, idsOf(folders));
      const misplaced: string[] = [];
      const walk = (parent: number, subs: Folder[]) => {
        for (const f of subs) {
          if (typeof f.id !== 'number' || !(model.get(parent) ?? []).includes(f.id))
            misplaced.push(`${f.id} ${f.name} below ${names.get(parent)}`);
          else walk(f.id, listOf<Folder>(f, 'subfolders'));
        }
      };
      for (const f of folders) if (typeof f.id === 'number' && matching.includes(f.id)) walk(f.id, listOf<Folder>(f, 'subfolders'));
      if (missing.length || extra.length || misplaced.length)
        t.record([
          finding(
            'FLT-01',
            'tree',
            `${label} leaves out ${brief(missing.map((id) => names.get(id)))} and lists ${brief(extra.map((id) => names.get(id) ?? id))} ` +
              `at the top level (the term matches Kept by its name and Noted by its description)` +
              `${misplaced.length ? `; it attaches ${brief(misplaced)}, which are not sub-folders there` : ''}`,
            r.exchange,
          ),
        ]);
    }
  },
  { operation: 'folder.getFolders' },
);

/** A folder record's privilege members as the listing answered them. */
const privilegesOf = (f: Folder) => ({ privileges: f.privileges, privilegeBits: f.privilegeBits, privilegeMap: f.privilegeMap });

/**
 * Whether a folder record carries its privileges in one of the members the Folder record has for them (contract 2.3: `privileges`
 * "array of string (privilege names)", `privilegeBits` "string", `privilegeMap` "object"), or an answer's `perms` ("map string to
 * array of string (permission names)", 2.9) names it. Which of them a flag adds is an open choice (privileges-members), and which
 * privileges the user has is not said: an empty list is a list.
 */
function carriesPrivileges(f: Folder, perms?: unknown): boolean {
  if (Array.isArray(f.privileges) && f.privileges.every((p) => typeof p === 'string')) return true;
  if (typeof f.privilegeBits === 'string') return true;
  if (isRecord(f.privilegeMap)) return true;
  return isRecord(perms) && Array.isArray(perms[String(f.id)]);
}

conformance(
  'FLD-11',
  'the folder listings add privileges and the privilege map to every record when asked',
  async (t) => {
    const top = await t.folder();
    await buildTree(t, top, [
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

conformance(
  'SRT-04',
  'GET /folder sorts by name, alone and as the first of a comma-separated list of attributes',
  async (t) => {
    const top = await t.folder();
    // Created in an order that is not the name order, with descriptions in yet another order. Sibling names are unique (a duplicate
    // is renamed or refused), so no attribute after name has a tie to break.
    for (const [name, description] of [
      ['Delta', 'b second'],
      ['Charlie', 'd fourth'],
      ['Bravo', 'a first'],
      ['Alpha', 'c third'],
    ])
      await createFolderStep(t, top, name!, { description: description! });
    // Group P "`sort` (string, `name`; comma-separated attribute names, each optionally prefixed `+` ascending or `-` descending)":
    // the contract names no other attribute for folders (open choice folder-sort-attributes), so name comes first; the order of each
    // answer is the registry's SRT-04 rule. "later attributes break ties of earlier ones", and only ties: with unique names, a list
    // that starts with name orders the folders as name alone does, whatever the server makes of the attributes after it.
    for (const dir of ['+', '-']) {
      const alone = await t.call('folder.list', { query: { folderId: String(top), sort: `${dir}name` } });
      if (!alone.body) continue;
      for (const rest of ['-description', '+id', '-cdate,+publishDir']) {
        const sort = `${dir}name,${rest}`;
        const listed = await t.call('folder.list', { query: { folderId: String(top), sort } });
        if (!listed.body) continue;
        const [a, b] = [idsOf(alone.body.items), idsOf(listed.body.items)];
        if (JSON.stringify(a) !== JSON.stringify(b))
          t.record([
            finding(
              'SRT-04',
              'ties',
              `GET /folder of folder ${top} with sort=${sort} lists ${brief(b)}, with sort=${dir}name ${brief(a)}: the folders' names ` +
                'are unique, so the attributes after name have no tie to break',
              listed.exchange,
            ),
          ]);
      }
    }
    t.expectRuled('SRT-04');
  },
  { operation: 'folder.list' },
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
  const { model, ids } = await buildTree(t, top, [...TREE, ['Deleted', null], ['Deleted child', 'Deleted']]);
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
  const channel = features(t).includes('multichannelling') ? t.fixture.channelNodeId : undefined;
  const { PLAIN, params } = postQueries(model, top, [...ids.values()], features(t).includes('wastebin'), late);
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
        ...(features(t).includes('wastebin') ? [{ ...PLAIN, wastebin: 'only' }] : []),
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
  if (features(t).includes('wastebin')) {
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

/**
 * The ancestors a breadcrumb names, root side first: its ids read in whichever direction makes `fits` true (open choice
 * breadcrumb-order), the folder itself left out where it ends them. Undefined when neither direction fits.
 */
function ancestorsIn(ids: readonly number[], folder: number, fits: (above: number[]) => boolean): number[] | undefined {
  for (const chain of [[...ids], [...ids].reverse()]) {
    const above = chain.at(-1) === folder ? chain.slice(0, -1) : chain;
    if (!above.includes(folder) && new Set(above).size === above.length && fits(above)) return above;
  }
  return undefined;
}

conformance('FLD-05', "breadcrumb lists the chain of the folder's ancestors, the root's end first or the folder's", async (t) => {
  const top = await t.folder();
  const { ids } = await buildTree(t, top, [
    ['Level one', null],
    ['Level two', 'Level one'],
    ['Level three', 'Level two'],
  ]);
  // The chain the test knows, from the sandbox parent (the target's folder) down to the deepest folder: each the mother of the next.
  const path = [
    t.fixture.sandboxParentFolderId,
    t.config.sandboxFolderId,
    await t.sandbox(),
    top,
    ...['Level one', 'Level two', 'Level three'].map((n) => ids.get(n)!),
  ];
  const crumbs = new Map<number, { ids: number[]; folders: Folder[]; hasMoreItems: unknown; exchange: Exchange }>();
  for (const id of path.slice(-2)) {
    const r = await t.call('folder.breadcrumb', { path: { id } });
    if (r.body)
      crumbs.set(id, {
        ids: idsOf(r.body.folders),
        folders: r.body.folders ?? [],
        hasMoreItems: r.body.hasMoreItems,
        exchange: r.exchange,
      });
  }
  const deepest = crumbs.get(path.at(-1)!);
  if (!deepest) return;
  // The breadcrumb has "the `LegacyFolderListResponse` shape", whose `hasMoreItems` is true exactly when items exist beyond the
  // returned slice (PAG-05); it lists the whole chain, so none follow.
  if (deepest.hasMoreItems === true)
    t.record([
      finding(
        'FLD-05',
        'complete',
        `breadcrumb of folder ${path.at(-1)} lists ${deepest.ids.length} folders and says hasMoreItems true`,
        deepest.exchange,
      ),
    ]);
  // "breadcrumb lists the folders from the root down to the folder" (FLD-05): the chain of the folder's ancestors, unbroken. Its
  // parameters and order are not shown (open choice breadcrumb-order): read either way, with or without the root and the folder.
  const root = t.fixture.masterRootFolderId;
  // Ancestors that end with the known ones; where the sandbox parent is the root, the root may be left out.
  const endsWith = (known: number[]) => (above: number[]) =>
    JSON.stringify(above.slice(-known.length)) === JSON.stringify(known) ||
    (known[0] === root && JSON.stringify(above) === JSON.stringify(known.slice(1)));
  const known = path.slice(0, -1);
  const above = ancestorsIn(deepest.ids, path.at(-1)!, endsWith(known));
  if (!above) {
    t.record([
      finding(
        'FLD-05',
        'chain',
        `breadcrumb of folder ${path.at(-1)} is ${brief(deepest.ids, 12)}; its ancestors, read from either end, end ${brief(known, 12)}`,
        deepest.exchange,
      ),
    ]);
    return;
  }
  // Above the sandbox parent the test knows no mothers but those the records name.
  const byId = new Map(deepest.folders.map((f) => [f.id, f]));
  const broken = above
    .slice(1)
    .map((id, i) => ({ f: byId.get(id), mother: above[i]! }))
    .filter(({ f }) => f?.motherId !== undefined)
    .filter(({ f, mother }) => f!.motherId !== mother);
  if (broken.length)
    t.record([
      finding(
        'FLD-05',
        'chain',
        `breadcrumb of folder ${path.at(-1)}: ${brief(broken.map(({ f, mother }) => `${f!.id} has motherId ${f!.motherId}, not ${mother}`))}`,
        deepest.exchange,
      ),
    ]);
  // The mother's ancestors are the folder's without the mother.
  const mother = crumbs.get(path.at(-2)!);
  const motherAbove = mother && ancestorsIn(mother.ids, path.at(-2)!, endsWith(path.slice(0, -2)));
  if (mother && JSON.stringify(motherAbove) !== JSON.stringify(above.slice(0, -1))) {
    t.record([
      finding(
        'FLD-05',
        'chain',
        `breadcrumb of folder ${path.at(-2)} is ${brief(mother.ids, 12)}, ` +
          `but that of its sub-folder ${path.at(-1)} is ${brief(deepest.ids, 12)}`,
        mother.exchange,
      ),
    ]);
  }
});

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
  const { ids } = await buildTree(t, top, [
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
  if (features(t).includes('pages') && f.pagesFolderId !== undefined)
    folders.set(f.pagesFolderId, { pages: true, templates: features(t).includes('templates') });
  if (features(t).includes('templates') && f.templatesFolderId !== undefined)
    folders.set(f.templatesFolderId, { pages: features(t).includes('pages'), templates: true });
  // Folders holding the run's sandbox change while the suite runs: the root, the sandbox parent and the folders above it.
  const { holdingSandbox } = await fixtureTree(t, f.masterRootFolderId);
  for (const id of [f.masterRootFolderId, f.sandboxParentFolderId, ...holdingSandbox]) folders.delete(id);
  if (!folders.size)
    return t.nothingToJudge('the target names no pages or templates folder (other than the root or the sandbox parent) to count');
  for (const [id, kinds] of folders) for (const recursive of [false, true]) await countAgainstListings(t, id, recursive, kinds);
  // "matching what the listings return" with the same parameters: in a channel, count "`inherited` (boolean; true counts inherited
  // only, false non-inherited only, unset both)" against the listings' Group F `inherited`, for every kind the folders hold.
  const variants =
    features(t).includes('multichannelling') && f.channelNodeId !== undefined
      ? [true, false].map((inherited) => ({ nodeId: f.channelNodeId, inherited }))
      : [];
  for (const [id, kinds] of folders) for (const extra of variants) await countAgainstListings(t, id, false, kinds, undefined, extra);
});

conformance(
  'FLD-06',
  'count in a channel with inherited counts the inherited objects only, without it the local ones only, unset both',
  async (t) => {
    const channel = t.fixture.channelNodeId!;
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
    const channel = f.channelNodeId!;
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

conformance(
  'FLD-08',
  "getTemplates with recursive lists the templates linked into the folder's sub-folders too",
  async (t) => {
    // The sub-folders of each fixture folder as the listings show them (a record's motherId may be left out: 2.1), without the
    // folders holding the sandbox, whose sub-folders other tests create while this one reads.
    const tree = await fixtureTree(t, t.fixture.masterRootFolderId);
    // A bounded look, as in fixtureFileFolders: the first folders, judged only where every sub-folder is among them.
    const looked = tree.folders.slice(0, 40).filter((f) => !tree.holdingSandbox.has(f.id!));
    const own = new Map<number, number[]>();
    for (const f of looked) own.set(f.id!, idsOf((await t.must('folder.getTemplates', { path: { folderId: f.id! } })).templates));
    let telling = 0;
    for (const f of looked) {
      const below = descendantsOf(tree, f.id!);
      if (!below.length || below.some((d) => !own.has(d)) || [f.id!, ...below].some((d) => tree.unread.has(d))) continue;
      const union = [...new Set([...own.get(f.id!)!, ...below.flatMap((d) => own.get(d)!)])];
      if (union.length === own.get(f.id!)!.length) continue;
      telling++;
      const r = await t.call('folder.getTemplates', { path: { folderId: f.id! }, query: { recursive: true } });
      if (!r.body) continue;
      // Group F "recursive (boolean, false): fetch recursively": the templates linked into the folder or any folder below it.
      const { missing, extra } = setDifference(union, [...new Set(idsOf(r.body.templates))]);
      if (missing.length || extra.length)
        t.record([
          finding(
            'FLD-08',
            'recursive',
            `getTemplates of folder ${f.id} with recursive leaves out ${brief(missing)} and adds ${brief(extra)}; the folder and its ` +
              `${below.length} sub-folders have ${brief(union, 20)} linked`,
            r.exchange,
          ),
        ]);
    }
    if (!telling) return t.nothingToJudge('no fixture folder has a template linked into a sub-folder that is not linked into the folder');
    t.judged('folder.getTemplates', 'recursive');
  },
  { operation: 'folder.getTemplates' },
);

/** What is wrong with the common item fields of a getItems record: id, cdate and edate required (2.2), the others typed where carried. */
function itemProblems(item: Item): string[] {
  return [
    ...(typeof item.id === 'number' && Number.isInteger(item.id) ? [] : ['id']),
    ...(Number.isInteger(item.cdate) ? [] : ['cdate']),
    ...(Number.isInteger(item.edate) ? [] : ['edate']),
    ...(['name', 'type', 'globalId'] as const).filter((m) => item[m] !== undefined && typeof item[m] !== 'string'),
  ];
}

conformance('FLD-07', 'getItems returns the common item fields for the content of a folder', async (t) => {
  const top = await t.folder();
  const sub = await createFolderStep(t, top, 'Sub');
  const files = await Promise.all(['items-a.txt', 'items-b.txt'].map((n) => uploadFileStep(t, top, n, `${n}\n`, 'text/plain')));
  // Content of the sub-folder, not of the folder.
  const inner = await uploadFileStep(t, sub.id, 'items-inner.txt', 'inner\n', 'text/plain');
  const r = await t.call('folder.getItems', { path: { folderId: top } });
  if (!r.body) return;
  const items = listOf<Item>(r.body, 'items');
  // "records with the common item fields": the required cdate and edate (2.2) and the id an item is known by; the other fields where
  // carried (2.1: which a record carries is not shown).
  for (const item of items) {
    const wrong = itemProblems(item);
    const fields = { id: item.id, name: item.name, type: item.type, cdate: item.cdate, edate: item.edate, globalId: item.globalId };
    if (wrong.length)
      t.record([finding('FLD-07', 'fields', `getItems item ${JSON.stringify(fields)} lacks or mistypes ${wrong.join(', ')}`, r.exchange)]);
  }
  // "... for the folder's content": nothing from elsewhere, the sub-folder's file included.
  const foreign = idsOf(items).filter((id) => id !== sub.id && !files.some((f) => f.id === id));
  if (foreign.length)
    t.record([
      finding(
        'FLD-07',
        'content',
        `getItems of folder ${top} lists items ${brief(foreign)} that are not in it${foreign.includes(inner.id!) ? ` (${inner.id} is in its sub-folder ${sub.id})` : ''}`,
        r.exchange,
      ),
    ]);
  // Which kinds getItems lists when asked for none is not shown (open choice getitems-kinds): the test's files, where it lists files,
  // named and typed as files where it says so.
  if (!items.some((i) => i.type === 'file' || files.some((f) => f.id === i.id)))
    t.nothingToJudge(`getItems of folder ${top} lists none of its files (open choice getitems-kinds)`, r.exchange);
  else
    for (const file of files) {
      const item = items.find((i) => i.id === file.id);
      if (!item || (item.name !== undefined && item.name !== file.name) || (item.type !== undefined && item.type !== 'file'))
        t.record([
          finding(
            'FLD-07',
            'content',
            `getItems of folder ${top} lists ${JSON.stringify(item ? { id: item.id, name: item.name, type: item.type } : null)} ` +
              `for its file ${file.id} "${file.name}"`,
            r.exchange,
          ),
        ]);
    }
  if (features(t).includes('pages') && t.fixture.pagesFolderId !== undefined) {
    const pages = await t.call('folder.getPages', { path: { id: t.fixture.pagesFolderId } });
    const fixtureItems = await t.call('folder.getItems', { path: { folderId: t.fixture.pagesFolderId } });
    if (pages.body && fixtureItems.body) {
      const listed = listOf<Item>(fixtureItems.body, 'items');
      const pageIds = idsOf(pages.body.pages);
      if (!listed.some((i) => i.type === 'page' || pageIds.includes(i.id!)))
        t.nothingToJudge(`getItems of the pages folder ${t.fixture.pagesFolderId} lists none of its pages (open choice getitems-kinds)`);
      else {
        const missing = listOf<Page>(pages.body, 'pages').filter(
          (p) => !listed.some((i) => i.id === p.id && (i.type === undefined || i.type === 'page')),
        );
        if (missing.length)
          t.record([
            finding(
              'FLD-07',
              'content',
              `getItems of the pages folder ${t.fixture.pagesFolderId} lacks pages (type page) that getPages lists: ` +
                `${brief(missing.map((p) => `${p.id} ${p.name}`))}`,
              fixtureItems.exchange,
            ),
          ]);
      }
    }
  }
});

conformance('FLD-08', "getTemplates of the fixture's templates folder lists templates linked into it", async (t) => {
  const folderId = t.fixture.templatesFolderId;
  if (folderId === undefined) {
    t.record([finding('FLD-08', 'step', 'the target declares templates but its fixture names no templatesFolderId')]);
    throw new SetupError('no templates folder in the fixture');
  }
  // The target names "a folder with templates linked into it" (feature templates: "the target's fixture provides them"),
  // and getTemplates "lists the templates linked into the folder": an empty answer denies either.
  const r = await t.call('folder.getTemplates', { path: { folderId } });
  if (r.body && !(r.body.templates ?? []).length)
    t.record([
      finding(
        'FLD-08',
        'linked',
        `getTemplates of folder ${folderId}, which the target names as its folder with templates linked into it, lists no template`,
        r.exchange,
      ),
    ]);
});

conformance('FLD-08', 'getTemplates with reduce and recursive lists each template of the recursive listing once', async (t) => {
  const top = await t.folder();
  const sub = await createFolderStep(t, top, 'Sub');
  await createFolderStep(t, sub.id!, 'Sub sub');
  // A fixture folder holding the sandbox has sub-folders other tests create while the three listings are read: left out.
  const { holdingSandbox } = await fixtureTree(t, t.fixture.masterRootFolderId);
  const folders = [t.fixture.templatesFolderId, features(t).includes('pages') ? t.fixture.pagesFolderId : undefined, top].filter(
    (id): id is number => id !== undefined && !holdingSandbox.has(id) && id !== t.fixture.sandboxParentFolderId,
  );
  for (const folderId of new Set(folders)) {
    const [flat, recursive, reduced] = await Promise.all([
      t.call('folder.getTemplates', { path: { folderId } }),
      t.call('folder.getTemplates', { path: { folderId }, query: { recursive: true } }),
      t.call('folder.getTemplates', { path: { folderId }, query: { recursive: true, reduce: true } }),
    ]);
    if (!flat.body || !recursive.body || !reduced.body) continue;
    const [n, r, u] = [idsOf(flat.body.templates), idsOf(recursive.body.templates), idsOf(reduced.body.templates)];
    t.judged('folder.getTemplates', 'reduce');
    // "`reduce=true` with `recursive` lists each template once."
    if (duplicates(u).length)
      t.record([
        finding(
          'FLD-08',
          'reduce',
          `getTemplates of folder ${folderId} recursive with reduce lists templates ${brief(duplicates(u))} ` +
            `more than once: ${brief(u, 20)}`,
          reduced.exchange,
        ),
      ]);
    const { missing, extra } = setDifference([...new Set(r)], [...new Set(u)]);
    if (missing.length || extra.length)
      t.record([
        finding(
          'FLD-08',
          'reduce',
          `getTemplates of folder ${folderId}: reduce leaves out ${brief(missing)} and adds ${brief(extra)} ` +
            `compared with the recursive listing ${brief([...new Set(r)], 20)}`,
          reduced.exchange,
        ),
      ]);
    // "lists the templates linked into the folder": the folder's own templates are among the recursive ones.
    const lost = n.filter((id) => !r.includes(id));
    if (lost.length)
      t.record([
        finding(
          'FLD-08',
          'recursive',
          `getTemplates of folder ${folderId} recursive lacks templates ${brief(lost)} linked into the folder itself`,
          recursive.exchange,
        ),
      ]);
  }
});

/** The fixture's pages folder; the pages feature promises one. */
function pagesFolder(t: ConformanceContext): number {
  const id = t.fixture.pagesFolderId;
  if (id !== undefined) return id;
  t.record([finding(t.requirement, 'step', 'the target declares pages but its fixture names no pagesFolderId')]);
  throw new SetupError('no pages folder in the fixture');
}

/** The pages of the fixture's pages folder with some add-ons, or undefined (the step is recorded). */
async function pagesWith(
  t: ConformanceContext,
  query: Record<string, boolean>,
): Promise<{ pages: Page[]; exchange: Exchange } | undefined> {
  const r = await t.call('folder.getPages', { path: { id: pagesFolder(t) }, query });
  return r.body ? { pages: r.body.pages ?? [], exchange: r.exchange } : undefined;
}

conformance(
  'FLD-09',
  'getPages folder and template add each page its folder and template',
  async (t) => {
    const with_ = await pagesWith(t, { recursive: true, folder: true, template: true });
    if (!with_) return;
    if (!with_.pages.length) return t.nothingToJudge('the pages folder and its sub-folders hold no page', with_.exchange);
    t.judged('folder.getPages', 'folder', 'template');
    // "getPages `folder`, `template` ... add the named information to each page."
    for (const p of with_.pages) {
      const wrong: string[] = [];
      if (!isRecord(p.folder) || typeof p.folder.id !== 'number' || (p.folderId !== undefined && p.folder.id !== p.folderId))
        wrong.push(`folder ${JSON.stringify(p.folder && { id: p.folder.id })} (folderId ${p.folderId})`);
      if (!isRecord(p.template) || typeof p.template.id !== 'number' || (p.templateId !== undefined && p.template.id !== p.templateId))
        wrong.push(`template ${JSON.stringify(p.template && { id: p.template.id })} (templateId ${p.templateId})`);
      if (wrong.length)
        t.record([
          finding(
            'FLD-09',
            'addon',
            `getPages folder=true template=true: page ${p.id} "${p.name}" carries ${wrong.join(' and ')}`,
            with_.exchange,
          ),
        ]);
    }
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLD-09',
  'getPages langvars and translationstatus add language variants and translation status',
  async (t) => {
    const with_ = await pagesWith(t, { langvars: true, translationstatus: true });
    const outOfSync = await pagesWith(t, { insync: false });
    if (!with_ || !outOfSync) return;
    // The pages insync=false lists must carry a status out of sync: a listing that ignored it would list pages in sync.
    t.judged('folder.getPages', 'langvars', 'translationstatus', 'insync');
    let evidence = 0;
    // Pages of one content set in several languages are each other's language variants.
    const sets = new Map<number, Page[]>();
    for (const p of with_.pages)
      if (p.language !== undefined && typeof p.contentSetId === 'number')
        sets.set(p.contentSetId, [...(sets.get(p.contentSetId) ?? []), p]);
    for (const p of with_.pages) {
      const variants = p.languageVariants;
      const others = (typeof p.contentSetId === 'number' && p.language !== undefined ? (sets.get(p.contentSetId) ?? []) : []).filter(
        (o) => o !== p,
      );
      if (variants === undefined && !others.length) continue;
      evidence++;
      // "`langvars` ... add[s] the named information": languageVariants, "map string to Page", naming the page's variants. What the
      // keys are is not shown (open choice language-variants-key): the language code, or its id.
      const bad = isRecord(variants) ? Object.entries(variants).filter(([, v]) => !isRecord(v) || typeof v.id !== 'number') : [];
      const listed = isRecord(variants) ? Object.values(variants).map((v) => (isRecord(v) ? v.id : undefined)) : [];
      const missing = others.filter((o) => !listed.includes(o.id));
      if (!isRecord(variants) || bad.length || missing.length) {
        t.record([
          finding(
            'FLD-09',
            'addon',
            `getPages langvars=true: page ${p.id} "${p.name}" (language ${p.language}) ` +
              `carries languageVariants ${JSON.stringify(variants === undefined ? null : Object.keys(variants))}` +
              `${bad.length ? `, entries that are not page records: ${bad.map(([l]) => l).join(', ')}` : ''}` +
              `${missing.length ? `, without its variants ${brief(missing.map((o) => `${o.id} ${o.language}`))}` : ''}`,
            with_.exchange,
          ),
        ]);
      }
    }
    // Pages "not in sync with their translation masters": `translationstatus` adds the status of each, which says so, as insync
    // itself does ("Setting it adds translation status"). Whether a page that is no translation counts as out of sync is not shown:
    // such a page, listed with a status in neither answer, is not judged.
    for (const listed of outOfSync.pages) {
      const id = listed.id;
      const p = with_.pages.find((x) => x.id === id);
      const ts = p?.translationStatus;
      if (p && ts === undefined && listed.translationStatus === undefined) continue;
      evidence++;
      if (!p || !isRecord(ts) || flag(ts, 'inSync'))
        t.record([
          finding(
            'FLD-09',
            'addon',
            `getPages translationstatus=true: page ${id}, listed with insync=false, ` +
              `carries translationStatus ${JSON.stringify(ts ?? null)} (expected inSync false)`,
            with_.exchange,
          ),
        ]);
    }
    if (!evidence) t.nothingToJudge('the pages folder has no page with a language and none out of sync', with_.exchange);
  },
  { operation: 'folder.getPages' },
);

/** The tags of each page of a listing, by page id, keeping those of one type. */
function tagsByPage(pages: Page[], type: Tag['type']): Map<number, string[]> {
  return new Map(
    pages.map((p) => [
      p.id ?? -1,
      Object.entries(p.tags ?? {})
        .filter(([, tag]) => tag.type === type)
        .map(([name]) => name)
        .sort(),
    ]),
  );
}

conformance(
  'FLD-09',
  'getPages contenttags and objecttags add the tags of each page',
  async (t) => {
    const [content, object, both] = await Promise.all([
      pagesWith(t, { contenttags: true }),
      pagesWith(t, { objecttags: true }),
      pagesWith(t, { contenttags: true, objecttags: true }),
    ]);
    if (!content || !object || !both) return;
    if (!both.pages.length) return t.nothingToJudge('the pages folder holds no page', both.exchange);
    t.judged('folder.getPages', 'contenttags', 'objecttags');
    // "`contenttags`, `objecttags` add the named information to each page": the tags of each, the same content tags whether or not
    // object tags are asked for too, and the other way round. A page without tags may leave its empty map out (2.1).
    for (const [label, list, type] of [
      ['contenttags=true', content, 'CONTENTTAG'],
      ['objecttags=true', object, 'OBJECTTAG'],
    ] as const) {
      const alone = tagsByPage(list.pages, type);
      const together = tagsByPage(both.pages, type);
      for (const [id, names] of together) {
        if (JSON.stringify(alone.get(id) ?? []) !== JSON.stringify(names))
          t.record([
            finding(
              'FLD-09',
              'addon',
              `page ${id}: getPages ${label} adds ${type} tags ${brief(alone.get(id) ?? [])}, but with both flags ${brief(names)}`,
              list.exchange,
            ),
          ]);
      }
    }
    // The external links of a page are found in its tags (FLD-10 reads them so): asking for both kinds must bring the tags that
    // hold every link getExternalLinks lists for the page.
    const links = await t.call('folder.getExternalLinks', { path: { folderId: pagesFolder(t) } });
    for (const entry of links.body?.pages ?? []) {
      const page = both.pages.find((p) => p.id === entry.pageId);
      const tagged = stringsIn(page?.tags);
      const untagged = (entry.links ?? []).filter((link) => !tagged.some((value) => value.includes(link)));
      if (page && untagged.length)
        t.record([
          finding(
            'FLD-09',
            'addon',
            `getPages contenttags=true objecttags=true: page ${page.id} "${page.name}" has external links ` +
              `${brief(untagged)} that none of the tags it carries holds`,
            both.exchange,
          ),
        ]);
    }
  },
  { operation: 'folder.getPages' },
);

/** Every string anywhere in a value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isRecord(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}

/**
 * The external links each page's tags hold, by page id: an http(s) address that is the whole value of a
 * property of a URL-type part and refers to no page. The contract names no part type; a type seen holding a
 * page id is a URL-type part ("pages, files and images referenced in URL-type parts", 4.3), so only those count.
 */
function linksHeld(pages: readonly Page[]): Map<number, string[]> {
  const props = (p: Page) => Object.values(p.tags ?? {}).flatMap((tag) => Object.values(tag.properties ?? {}));
  const internal = (pageId: number | undefined) => typeof pageId === 'number' && pageId > 0;
  const urlTypes = new Set(
    pages
      .flatMap(props)
      .filter((q) => internal(q.pageId) && q.type !== undefined)
      .map((q) => q.type),
  );
  const held = new Map<number, string[]>();
  for (const page of pages) {
    const links = props(page)
      .filter((q) => urlTypes.has(q.type) && !internal(q.pageId))
      .map((q) => q.stringValue ?? '')
      .filter((v) => /^https?:\/\/[^/\s]\S*$/i.test(v));
    if (page.id !== undefined && links.length) held.set(page.id, [...new Set(links)]);
  }
  return held;
}

conformance('FLD-10', 'getExternalLinks lists the web links of the folder pages and recursive adds those of sub-folders', async (t) => {
  const folder = pagesFolder(t);
  const [flat, recursive, pagesFlat, pagesDeep, subs] = await Promise.all([
    t.call('folder.getExternalLinks', { path: { folderId: folder } }),
    t.call('folder.getExternalLinks', { path: { folderId: folder }, query: { recursive: true } }),
    t.call('folder.getPages', { path: { id: folder } }),
    t.call('folder.getPages', { path: { id: folder }, query: { recursive: true, contenttags: true, objecttags: true } }),
    t.call('folder.getFolders', { path: { id: folder }, query: { recursive: true } }),
  ]);
  if (!flat.body || !recursive.body || !pagesFlat.body || !pagesDeep.body || !subs.body) return;
  const deepPages = pagesDeep.body.pages ?? [];
  const held = linksHeld(deepPages);
  if (!held.size && !(recursive.body.pages ?? []).some((e) => (e.links ?? []).length))
    return t.nothingToJudge('no page of the pages folder or its sub-folders has an external link', recursive.exchange);
  const key = (links: string[] | undefined) => JSON.stringify([...(links ?? [])].sort());
  const deep = new Map((recursive.body.pages ?? []).map((e) => [e.pageId, key(e.links)]));
  // "external links from all pages in the folder": every link a page's tags hold is listed for that page.
  const flatIds = new Set(idsOf(pagesFlat.body.pages));
  for (const [label, answer, inScope] of [
    ['', flat, (id: number) => flatIds.has(id)],
    [' recursive', recursive, () => true],
  ] as const) {
    for (const [pageId, links] of held) {
      if (!inScope(pageId)) continue;
      const listed = (answer.body!.pages ?? []).filter((e) => e.pageId === pageId).flatMap((e) => e.links ?? []);
      const lost = links.filter((link) => !listed.includes(link));
      if (lost.length)
        t.record([
          finding(
            'FLD-10',
            'held',
            `getExternalLinks${label} of folder ${folder} leaves out ${brief(lost.map((l) => JSON.stringify(l)))} of page ${pageId}, ` +
              `a web address in a URL-type part of its tags that refers to no page; it lists ${key(listed)} for the page`,
            answer.exchange,
          ),
        ]);
    }
  }
  // "lists, per page, the external links of pages in the folder"
  for (const [label, answer, pages] of [
    ['', flat, pagesFlat.body.pages ?? []],
    [' recursive', recursive, deepPages],
  ] as const) {
    for (const entry of answer.body!.pages ?? []) {
      const page = pages.find((p) => p.id === entry.pageId);
      if (!page) {
        t.record([
          finding(
            'FLD-10',
            'page',
            `getExternalLinks${label} of folder ${folder} lists page ${entry.pageId}, which getPages${label} does not list there`,
            answer.exchange,
          ),
        ]);
        continue;
      }
      if (entry.pageName !== undefined && entry.pageName !== page.name)
        t.record([
          finding(
            'FLD-10',
            'page',
            `getExternalLinks${label}: page ${entry.pageId} is named ${JSON.stringify(entry.pageName)}, ` +
              `getPages says ${JSON.stringify(page.name)}`,
            answer.exchange,
          ),
        ]);
      const tagged = stringsIn(deepPages.find((p) => p.id === entry.pageId)?.tags);
      for (const link of entry.links ?? []) {
        // A link is found in the page: a value of its tags, when the server gives tags. Which addresses count as external (web
        // addresses only, or any that refers to no page) is not shown: open choice external-links-schemes.
        if (tagged.length && !tagged.some((s) => s.includes(link)))
          t.record([
            finding(
              'FLD-10',
              'link',
              `getExternalLinks${label}: page ${entry.pageId} lists ${JSON.stringify(link)}, found in none of its tags`,
              answer.exchange,
            ),
          ]);
      }
    }
  }
  // "`recursive` includes sub-folders": the folder's own entries and those of every sub-folder, unchanged.
  t.judged('folder.getExternalLinks', 'recursive');
  const parts: [string, typeof flat][] = [[`folder ${folder}`, flat]];
  for (const sub of idsOf(subs.body.folders).slice(0, 10))
    parts.push([`sub-folder ${sub}`, await t.call('folder.getExternalLinks', { path: { folderId: sub } })]);
  for (const [label, part] of parts) {
    for (const entry of part.body?.pages ?? []) {
      // A page may be listed without links; only its links must reappear.
      if (!(entry.links ?? []).length) continue;
      if (deep.get(entry.pageId) !== key(entry.links))
        t.record([
          finding(
            'FLD-10',
            'recursive',
            `getExternalLinks recursive of folder ${folder} gives page ${entry.pageId} the links ${deep.get(entry.pageId) ?? 'none'}; ` +
              `getExternalLinks of ${label} gives ${key(entry.links)}`,
            recursive.exchange,
          ),
        ]);
    }
  }
});

conformance('FLD-11', 'load with privileges=true adds the privileges', async (t) => {
  const top = await t.folder();
  for (const id of [top, t.fixture.sandboxParentFolderId]) {
    const r = await t.call('folder.load', { path: { id }, query: { privileges: true } });
    t.judged('folder.load', 'privileges');
    const folder = r.body?.folder;
    // "load with `privileges=true` adds `privileges`": load's "`privileges` (boolean, false)" has no stated meaning, so the folder
    // record's privileges in any of its members for them (open choice privileges-members), whichever privileges they are.
    if (r.body && (!folder || !carriesPrivileges(folder))) {
      t.record([
        finding(
          'FLD-11',
          'privileges',
          `load of folder ${id} with privileges=true answers ${JSON.stringify(folder && privilegesOf(folder))}: ` +
            'no privileges, privilegeBits or privilegeMap',
          r.exchange,
        ),
      ]);
    }
  }
});

conformance('FLD-11', 'load with package answers the status in that staging package', async (t) => {
  const pkg = t.fixture.stagingPackage;
  if (!pkg) return t.nothingToJudge('the target file declares no staging package (/fixture/stagingPackage)');
  // The declared folders are in the package; a folder this run made cannot be.
  const cases = [...pkg.folderIds.slice(0, 2).map((id) => ({ id, included: true })), { id: await t.folder(), included: false }];
  // A package the target does not declare: whether it is refused or answered is not shown (a refusal is no step that failed),
  // but never with a server error (the judge's ENV-08).
  await t.try('folder.load', { path: { id: pkg.folderIds[0]! }, query: { package: `${pkg.name} (not declared)` } });
  for (const { id, included } of cases) {
    const r = await t.call('folder.load', { path: { id }, query: { package: pkg.name } });
    if (!r.body) continue;
    t.judged('folder.load', 'package');
    const status = r.body.stagingStatus;
    // Whether a load answer carries stagingStatus is not shown (2.1; FIL-04 as restated).
    if (status === undefined) {
      t.nothingToJudge(`load of folder ${id} with package=${pkg.name} answers no stagingStatus`, r.exchange);
      continue;
    }
    // folder load: "package (string; staging package to check the status in)"; stagingStatus: "{packageName (string), included
    // (boolean)}": the status of the folder in that package, so a package named is that one. An absent included is false (2.1).
    if (flag(status, 'included') !== included || (status.packageName !== undefined && status.packageName !== pkg.name))
      t.record([
        finding(
          'FLD-11',
          'package',
          `load of folder ${id} with package=${pkg.name} answers stagingStatus ${JSON.stringify(status ?? null)}; ` +
            `expected included ${included} in package ${pkg.name} (${included ? 'declared in it by the target file' : 'a folder this run made'})`,
          r.exchange,
        ),
      ]);
  }
});

conformance('FLD-11', 'load with construct=true adds the construct to every tag of the folder', async (t) => {
  const folders = [t.fixture.sandboxParentFolderId, t.fixture.pagesFolderId, t.fixture.templatesFolderId].filter(
    (id): id is number => id !== undefined,
  );
  let tags = 0;
  for (const id of [...new Set(folders)]) {
    const r = await t.call('folder.load', { path: { id }, query: { construct: true } });
    const found = Object.entries(r.body?.folder?.tags ?? {});
    tags += found.length;
    // folder load: "construct (boolean, false; add construct info to tags)"; a tag's construct is the one its constructId names.
    const bare = found.filter(
      ([, tag]) =>
        typeof tag.construct !== 'object' ||
        (tag.constructId !== undefined && tag.construct.id !== undefined && tag.construct.id !== tag.constructId),
    );
    if (bare.length)
      t.record([
        finding(
          'FLD-11',
          'construct',
          `load of folder ${id} with construct=true answers the tags ${brief(bare.map(([name]) => name))} without their construct`,
          r.exchange,
        ),
      ]);
  }
  if (!tags) return t.nothingToJudge('no folder of the fixture that the suite knows carries a tag');
  t.judged('folder.load', 'construct');
});

conformance('FLD-11', 'load with update=true does not lock the folder', async (t) => {
  const top = await t.folder();
  // "`update` ... set true when the folder is fetched for modification; folders are not locked."
  for (let i = 1; i <= 2; i++) {
    const { exchange: r, problem } = await t.try('folder.load', { path: { id: top }, query: { update: true } });
    if (problem) t.record([finding('FLD-11', 'lock', `load number ${i} of folder ${top} with update=true: ${problem}`, r)]);
  }
  const { exchange: created, problem } = await t.try('folder.create', { json: { motherId: String(top), name: 'After update load' } });
  if (problem)
    t.record([finding('FLD-11', 'lock', `creating a sub-folder in folder ${top} after loading it with update=true: ${problem}`, created)]);
});
