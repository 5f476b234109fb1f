/**
 * Sorting (SRT): Group L `sortby`/`sortorder` and Group P `sort` (with +/- prefixes and tie-breaking
 * attributes). Whether one answer's records are in the order asked for is the registry's rule
 * (harness/rules/ordering.ts), applied to every answer a test receives; the tests here supply answers
 * that can show it (keys that differ, ties to break) and judge what takes more than one answer: sorting
 * changes no membership, desc reverses asc, the objects a test marked come where their marks put them.
 */
import fc from 'fast-check';
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureFileFolder, fixtureFileFolders, hasFeature } from '../../harness/fixture.ts';
import {
  described,
  expectSequence,
  expectSet,
  fetchList,
  fixtureTops,
  isListing,
  judged,
  mixedCaseNames,
  mustList,
  words,
  type Listing,
  type ListOp,
  type Query,
} from '../../harness/lists.ts';
import { brief, idsOf, type Direction } from '../../harness/oracles.ts';
import { listOf, text } from '../../harness/records.ts';
import { LEGACY_KEYS } from '../../harness/rules/ordering.ts';
import {
  attempt,
  createFolderStep,
  deleteFolderStep,
  tryCreateInChannelStep,
  uploadFileStep,
  uploadManyStep,
} from '../../harness/steps.ts';
import { conformance, unseen, type ConformanceContext } from '../../harness/suite.ts';
import type { File, Folder } from '../../schemas/types.ts';

/**
 * Sorting must not change which items are listed (metamorphic: the same ids as without sorting). Whether
 * the records are in order is one answer's rule, the registry's (harness/rules/ordering.ts), which has
 * judged this very answer as it came in.
 */
function sameItems(requirement: string, what: string, baseline: readonly number[], l: Listing<unknown>): Finding[] {
  return expectSet(requirement, 'membership', baseline, l, `sorting (${what}) must not change which items are listed`);
}

/**
 * Where the records do not show the attribute (a live object without `deleted`, an object without
 * `excluded`), the registry cannot judge the order, but the test knows which objects it marked: they
 * must come after the others ascending and before them descending.
 */
function markedLast(requirement: string, what: string, marked: readonly number[], l: Listing<unknown>, dir: Direction): Finding[] {
  const at = l.ids.map((id) => marked.includes(id));
  const expected = [...at].sort((x, y) => (Number(x) - Number(y)) * (dir === 'asc' ? 1 : -1));
  if (at.every((m, i) => m === expected[i])) return [];
  return [
    finding(
      requirement,
      'order',
      `sortby=${what}&sortorder=${dir}: the objects the test marked (${brief([...marked])}) must come ${dir === 'asc' ? 'after' : 'before'} the others, ` +
        `got ${brief(l.ids, 12)} (${described(l.exchange)})`,
      l.exchange,
    ),
  ];
}

/**
 * Objects without a value of the attribute (live ones under `deletedat`) come together at one end of the list, which
 * end not shown (open choice nulls-order: SQL puts NULLs first or last): the objects the test marked must form one
 * block at the start or at the end.
 */
function markedAtAnEnd(requirement: string, what: string, marked: readonly number[], l: Listing<unknown>, dir: Direction): Finding[] {
  const at = l.ids.map((id) => marked.includes(id));
  const n = at.filter(Boolean).length;
  const block = (from: number) => at.every((m, i) => m === (i >= from && i < from + n));
  if (block(0) || block(at.length - n)) return [];
  return [
    finding(
      requirement,
      'order',
      `sortby=${what}&sortorder=${dir}: the objects the test marked (${brief([...marked])}) must come together before or after ` +
        `the others, got ${brief(l.ids, 12)} (${described(l.exchange)})`,
      l.exchange,
    ),
  ];
}

/**
 * Whether records show a `sortby` attribute: two of them carry distinct values of it (as the registry's order rule
 * reads it). Records that do not (a server need not carry the member: contract 2.1) show no order to judge.
 */
function showsAttribute(records: readonly unknown[], attribute: string): boolean {
  return (LEGACY_KEYS[attribute] ?? []).some(
    (key) => new Set(records.map((r) => key(r as Record<string, unknown>)).filter((v) => v !== undefined && v !== null)).size >= 2,
  );
}

/** A fixture list some sortby tests read: an operation, a folder and fixed parameters. */
interface FixtureList {
  op: 'folder.getFiles' | 'folder.getFolders' | 'folder.getPages' | 'folder.getTemplates';
  folderId: number;
  query: Query;
}

/** The fixture's Group L lists: a file folder, the root's sub-folders, the pages and the templates. */
async function fixtureLists(t: ConformanceContext): Promise<FixtureList[]> {
  const lists: FixtureList[] = [{ op: 'folder.getFolders', folderId: t.fixture.masterRootFolderId, query: {} }];
  const files = await fixtureFileFolder(t);
  if (files) lists.push({ op: 'folder.getFiles', folderId: files.folderId, query: {} });
  if (hasFeature(t, 'pages') && t.fixture.pagesFolderId !== undefined)
    lists.push({ op: 'folder.getPages', folderId: t.fixture.pagesFolderId, query: { recursive: true } });
  if (hasFeature(t, 'templates') && t.fixture.templatesFolderId !== undefined)
    lists.push({ op: 'folder.getTemplates', folderId: t.fixture.templatesFolderId, query: {} });
  return lists;
}

/** Uploads files given by name, bytes and media type, in parallel batches, returning their records in order. */
async function uploadAll(t: ConformanceContext, folderId: number, specs: { name: string; data: string; type: string }[]): Promise<File[]> {
  const out: File[] = [];
  for (let i = 0; i < specs.length; i += 8)
    out.push(...(await Promise.all(specs.slice(i, i + 8).map((s) => uploadFileStep(t, folderId, s.name, s.data, s.type)))));
  return out;
}

/**
 * Media types and the extensions that go with them: text types, so that no file becomes an image (open choice
 * upload-image-kind: GET /file may leave images out) and no name says another type than its data part.
 */
const TYPES = [
  { type: 'text/plain', ext: 'txt' },
  { type: 'text/csv', ext: 'csv' },
  { type: 'text/css', ext: 'css' },
];

conformance(
  'SRT-01',
  'Group L lists by name ascending by default',
  async (t) => {
    const folderId = await t.folder();
    const names = mixedCaseNames(t.seed, 10);
    const files = await uploadManyStep(t, folderId, names.length, (i) => `${names[i]}.txt`);
    const folders = [];
    for (const name of names.slice(0, 6)) folders.push(await createFolderStep(t, folderId, name));
    for (const [op, created] of [
      ['folder.getFiles', files],
      ['folder.getFolders', folders],
    ] as const) {
      // "sortby (string, name ...)", "sortorder (string, asc ...)": the registry's SRT-01 rule judges the order of this
      // answer (names differing in case may follow any reasonable collation); here, which items it holds.
      const l = await mustList(t, op, folderId);
      t.record(
        expectSet(
          'SRT-01',
          'membership',
          created.map((r) => r.id!),
          l,
          `${op} must list the folder's items`,
        ),
      );
    }
    t.expectRuled('SRT-01');
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'SRT-02',
  'Group L sortorder=desc reverses the order and any other sortorder string sorts ascending',
  async (t) => {
    const folderId = await t.folder();
    const names = words(t.seed, 14);
    await uploadManyStep(t, folderId, 8, (i) => `${names[i]}.txt`);
    for (const name of names.slice(8)) await createFolderStep(t, folderId, name);
    const asc = {
      'folder.getFiles': (await mustList(t, 'folder.getFiles', folderId, { sortorder: 'asc' })).ids,
      'folder.getFolders': (await mustList(t, 'folder.getFolders', folderId, { sortorder: 'asc' })).ids,
    };
    const other = fc
      .oneof(fc.constantFrom('ASC', 'ascending', 'descending', 'down', 'reverse', '-1', ''), fc.string({ maxLength: 8 }))
      .filter((s) => s.trim().toLowerCase() !== 'desc');
    const order = fc.oneof(fc.constant('desc'), other);
    await t.property(
      fc.record({
        op: fc.constantFrom('folder.getFiles' as const, 'folder.getFolders' as const),
        sortorder: order,
        sortby: fc.constantFrom(undefined, 'name'),
      }),
      async ({ op, sortorder, sortby }) =>
        judged(fetchList(t, op, folderId, { sortby, sortorder }), (l) =>
          sortorder === 'desc'
            ? // "sortorder (string, asc; asc or desc ...)": desc reverses the (unique) name order.
              expectSequence(
                'SRT-02',
                'descending',
                [...asc[op]].reverse(),
                l,
                'sortorder=desc must list in the reverse of the ascending order',
              )
            : // "... other strings ignored": ascending.
              expectSequence(
                'SRT-02',
                'otherIgnored',
                asc[op],
                l,
                `sortorder=${JSON.stringify(sortorder)} is not asc or desc and must be ignored (ascending)`,
              ),
        ),
      // desc and a string that is neither on both lists, in every run.
      {
        novel: unseen(),
        cover: (['folder.getFiles', 'folder.getFolders'] as const).flatMap((op) => [
          { op, sortorder: 'desc', sortby: undefined },
          { op, sortorder: 'descending', sortby: 'name' },
        ]),
      },
    );
  },
  { operation: 'folder.getFiles' },
);

/** The sortby attributes every Group L listing has. */
const COMMON_ATTRIBUTES = ['name', 'cdate', 'edate'] as const;

conformance(
  'SRT-03',
  'sortby name, cdate and edate order every Group L listing by that attribute, in both directions',
  async (t) => {
    const lists = await fixtureLists(t);
    const baselines = await Promise.all(lists.map(async (l) => (await mustList(t, l.op, l.folderId, l.query)).ids));
    // Few combinations: every list, attribute and direction is tried.
    for (const [which, { op, folderId, query }] of lists.entries()) {
      for (const sortby of COMMON_ATTRIBUTES) {
        for (const dir of ['asc', 'desc'] as const) {
          // "sortby (string, name; one of name, cdate, edate, ...)"
          const l = await mustList(t, op, folderId, { ...query, sortby, sortorder: dir });
          t.record(sameItems('SRT-03', `${sortby} in ${op}`, baselines[which]!, l));
        }
      }
    }
    t.expectRuled('SRT-03');
  },
  { operation: 'folder.getFiles' },
);

/** The page attributes of sortby (template and folder may sort by name or by id: the registry accepts either). */
const PAGE_ATTRIBUTES = ['pdate', 'filename', 'template', 'folder', 'priority'] as const;

conformance(
  'SRT-03',
  'sortby pdate, filename, template, folder and priority order pages by that attribute, in both directions',
  async (t) => {
    const pagesFolder = t.fixture.pagesFolderId;
    if (!hasFeature(t, 'pages') || pagesFolder === undefined) return;
    // template=true and folder=true add the records whose names the order may follow.
    const query = { recursive: true, template: true, folder: true };
    const unsorted = await mustList(t, 'folder.getPages', pagesFolder, query);
    const baseline = unsorted.ids;
    // One page has no order to judge.
    if (baseline.length < 2) return t.nothingToJudge('the pages folder and its sub-folders hold fewer than two pages');
    const unshown = PAGE_ATTRIBUTES.filter((sortby) => !showsAttribute(unsorted.records, sortby));
    if (unshown.length) t.nothingToJudge(`no two page records show distinct values of ${unshown.join(', ')}: their orders are not judged`);
    for (const sortby of PAGE_ATTRIBUTES) {
      for (const dir of ['asc', 'desc'] as const) {
        // "sortby (... pdate, filename, template, folder, ... priority ...)"
        const l = await mustList(t, 'folder.getPages', pagesFolder, { ...query, sortby, sortorder: dir });
        t.record(sameItems('SRT-03', `page ${sortby}`, baseline, l));
      }
    }
    t.expectRuled('SRT-03');
  },
  { feature: 'pages', operation: 'folder.getPages' },
);

conformance(
  'SRT-03',
  'sortby masterNode orders a channel listing by the node the objects come from',
  async (t) => {
    const channel = t.fixture.channelNodeId;
    if (!hasFeature(t, 'multichannelling') || channel === undefined) return;
    const folderId = await t.folder();
    const names = words(t.seed, 6).sort();
    // Local files first, named early in the alphabet, then inherited ones named late: the order of names, and that of
    // ids (creation), both differ from the order of master nodes.
    for (const name of names.slice(3))
      if (!(await tryCreateInChannelStep(t, 'file', folderId, `a${name}.txt`, channel, 'local\n')))
        return t.nothingToJudge(
          'the channel creates no file of its own in a folder it inherits (open choice channel-create-in-inherited-folder): ' +
            'its files come from one master node',
        );
    const inherited = await uploadManyStep(t, folderId, 3, (i) => `z${names[i]}.txt`);
    // A localized copy: a new object of the channel whose master node is still the master's.
    await t.must('file.localize', { path: { id: inherited[0]!.id! }, json: { channelId: channel } });
    const unsorted = await mustList(t, 'folder.getFiles', folderId, { nodeId: channel });
    const baseline = unsorted.ids;
    for (const dir of ['asc', 'desc'] as const) {
      const l = await mustList(t, 'folder.getFiles', folderId, { nodeId: channel, sortby: 'masterNode', sortorder: dir });
      // "sortby (... masterNode ...)": by the master node's name (or id), the registry's SRT-03 rule.
      t.record(sameItems('SRT-03', 'masterNode', baseline, l));
    }
    // Files that all come from one master node, or records without masterNode and masterNodeId, show no order to judge.
    if (!showsAttribute(unsorted.records, 'masterNode'))
      return t.nothingToJudge("the channel's files show no two master nodes (masterNode, masterNodeId): the order by them is not judged");
    t.expectRuled('SRT-03');
  },
  { feature: 'multichannelling', operation: 'folder.getFiles' },
);

conformance(
  'SRT-03',
  "sortby values outside the contract's list leave a listing holding a broken file whole",
  async (t) => {
    // A broken file has no binary: an order read from the binary (its size, its type) has nothing to read there.
    const chosen = (await fixtureFileFolders(t)).find((f) => f.files.some((x) => x.broken === true));
    if (!chosen) return t.nothingToJudge('no folder of the fixture holds a broken file');
    const baseline = (await mustList(t, 'folder.getFiles', chosen.folderId)).ids;
    // "sortby (string, `name`; one of `name`, `cdate`, ...)": a value outside the list is ignored or refused (open choice
    // unknown-sort-attribute), and never answered with a 5xx (ENV-08, the judge's). Membership is judged, the order is not.
    for (const sortby of ['size', 'type', 'nosuchattribute']) {
      const l = await fetchList(t, 'folder.getFiles', chosen.folderId, { sortby });
      if (isListing(l)) t.record(sameItems('SRT-03', `sortby=${sortby}`, baseline, l));
      else t.nothingToJudge(`getFiles refuses sortby=${sortby}, which the contract does not list`, l.exchange);
    }
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'SRT-03',
  'sortby excluded separates excluded from inheritable objects',
  async (t) => {
    const folderId = await t.folder();
    const names = words(t.seed, 6).sort();
    const files = await uploadManyStep(t, folderId, names.length, (i) => `${i < 2 ? 'a' : 'z'}${names[i]}.txt`);
    // Exclude the two files named first: by name they come first, by exclusion (false before true) last. /file/disinherit takes
    // "a list of ids (described as page IDs)": a server may refuse file ids there (open choice file-disinherit-ids).
    const excluded = await t.try('file.disinherit.set', { query: { id: files.slice(0, 2).map((f) => f.id!) }, json: { exclude: true } });
    if (excluded.problem)
      return t.nothingToJudge(
        'POST /file/disinherit refuses the ids of files, so the test has no excluded file to sort',
        excluded.exchange,
      );
    const unsorted = await mustList(t, 'folder.getFiles', folderId);
    const baseline = unsorted.ids;
    if (!unsorted.records.some((r) => r.excluded === true))
      return t.nothingToJudge(
        'no file the test excluded shows excluded: true, so the test has no excluded file to sort',
        unsorted.exchange,
      );
    for (const dir of ['asc', 'desc'] as const) {
      const l = await mustList(t, 'folder.getFiles', folderId, { sortby: 'excluded', sortorder: dir });
      // "sortby (... excluded ...)": false before true; where the records show excluded, the registry has judged them.
      t.record([
        ...sameItems('SRT-03', 'excluded', baseline, l),
        ...(l.records.every((r) => typeof r.excluded === 'boolean')
          ? []
          : markedLast(
              'SRT-03',
              'excluded',
              files.slice(0, 2).map((f) => f.id!),
              l,
              dir,
            )),
      ]);
    }
  },
  { feature: 'multichannelling', operation: 'folder.getFiles' },
);

conformance(
  'SRT-03',
  'sortby deletedat orders a wastebin listing by deletion time',
  async (t) => {
    const folderId = await t.folder();
    const names = words(t.seed, 5).sort();
    const subs: Folder[] = [];
    for (const [i, name] of names.entries()) subs.push(await createFolderStep(t, folderId, `${i < 2 ? 'a' : i < 4 ? 'm' : 'z'}${name}`));
    // The folders named in the middle are deleted: by name they come between the live ones, by deletion time at one end
    // (live ones have none), and by id (creation) between them too.
    const deleted = subs.slice(2, 4);
    for (const f of deleted) await deleteFolderStep(t, f.id!);
    const baseline = (await mustList(t, 'folder.getFolders', folderId, { wastebin: 'include' })).ids;
    for (const dir of ['asc', 'desc'] as const) {
      const l = await mustList(t, 'folder.getFolders', folderId, { wastebin: 'include', sortby: 'deletedat', sortorder: dir });
      // "sortby (... deletedat)": live objects have no deletion time (or `deleted: {at: 0}`), so they come together at one end
      // (which, open choice nulls-order). The registry orders the records that show a time; which objects are live, only the test knows.
      t.record([
        ...sameItems('SRT-03', 'deletedat', baseline, l),
        ...markedAtAnEnd(
          'SRT-03',
          'deletedat',
          deleted.map((f) => f.id!),
          l,
          dir,
        ),
      ]);
    }
  },
  { feature: 'wastebin', operation: 'folder.getFolders' },
);

conformance(
  'SRT-03',
  'sortby deletedat orders the deleted pages and files of the whole tree by deletion time',
  async (t) => {
    // Deleted at different times, which only the fixture's own deleted objects can be (a test's deletions share its second).
    // Listed per top folder of the fixture holding no sandbox: the sandboxes' wastebin grows with every run of the suite, and
    // tests running beside this one delete there while it reads. At most LIMIT items each, so a large wastebin stays quick.
    const LIMIT = 200;
    const ops = [
      { op: 'folder.getFiles' as const, query: { recursive: true, wastebin: 'only', maxItems: LIMIT } },
      ...(hasFeature(t, 'pages')
        ? [{ op: 'folder.getPages' as const, query: { recursive: true, wastebin: 'only', maxItems: LIMIT } }]
        : []),
    ];
    const deletedAt = (r: unknown) => (r as { deleted?: { at?: number } }).deleted?.at;
    let telling = 0;
    for (const top of await fixtureTops(t, t.fixture.masterRootFolderId)) {
      for (const { op, query } of ops) {
        const baseline = await mustList(t, op, top.id, query);
        if (new Set(baseline.records.map(deletedAt).filter((at) => at !== undefined && at !== 0)).size < 2) continue;
        telling++;
        for (const dir of ['asc', 'desc'] as const) {
          // "sortby (... deletedat)": the records show `deleted.at`, so the registry's SRT-03 rule judges the order.
          const l = await mustList(t, op, top.id, { ...query, sortby: 'deletedat', sortorder: dir });
          // A cut list holds the first LIMIT of each order: which items, only the whole list tells.
          if (baseline.ids.length < LIMIT) t.record(sameItems('SRT-03', `deletedat in ${op}`, baseline.ids, l));
        }
      }
    }
    if (!telling) t.nothingToJudge('no top folder of the fixture holds two deleted files or pages deleted at different times');
    // The fixture's own may lie in an order that other orders (by name, by id) give too. Two files of the test's own, deleted
    // more than a second apart (timestamps of an unknown unit, at least seconds): the one deleted first is named last and
    // made last, so that neither the name nor the id order is the order of deletion.
    const top = await t.folder();
    const [later, sooner] = [await createFolderStep(t, top, 'a-later'), await createFolderStep(t, top, 'z-sooner')];
    await uploadFileStep(t, later.id, 'a-deleted-later.txt', 'later\n', 'text/plain');
    await uploadFileStep(t, sooner.id, 'z-deleted-sooner.txt', 'sooner\n', 'text/plain');
    await deleteFolderStep(t, sooner.id);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await deleteFolderStep(t, later.id);
    const own = await mustList(t, 'folder.getFiles', top, { recursive: true, wastebin: 'only' });
    for (const dir of ['asc', 'desc'] as const) {
      // "sortby (... deletedat)": the registry's SRT-03 rule judges the order of the times the records show.
      const l = await mustList(t, 'folder.getFiles', top, { recursive: true, wastebin: 'only', sortby: 'deletedat', sortorder: dir });
      t.record(sameItems('SRT-03', 'deletedat in folder.getFiles', own.ids, l));
    }
    if (new Set(own.records.map(deletedAt)).size < 2)
      t.nothingToJudge('two files deleted more than a second apart show the same deletion time: the order by it is not judged');
    t.expectRuled('SRT-03');
  },
  { feature: 'wastebin', operation: 'folder.getPages' },
);

conformance(
  'SRT-03',
  'sortby folder orders a recursive listing by the folder each object is in',
  async (t) => {
    const folderId = await t.folder();
    const [early, late] = [await createFolderStep(t, folderId, 'a-folder'), await createFolderStep(t, folderId, 'z-folder')];
    // In the late folder (by name and by id) the files named early and created first, in the early folder the others:
    // the order of folders differs from the order of names and from the order of ids (creation).
    const names = words(t.seed, 6).sort();
    for (const name of names.slice(0, 3)) await uploadFileStep(t, late.id!, `a${name}.txt`, `${name}\n`, 'text/plain');
    for (const name of names.slice(3)) await uploadFileStep(t, early.id!, `z${name}.txt`, `${name}\n`, 'text/plain');
    const query = { recursive: true, folder: true };
    const unsorted = await mustList(t, 'folder.getFiles', folderId, query);
    const baseline = unsorted.ids;
    for (const dir of ['asc', 'desc'] as const) {
      // "sortby (... folder ...)": by the folder's name or id (the registry's SRT-03 rule accepts either).
      const l = await mustList(t, 'folder.getFiles', folderId, { ...query, sortby: 'folder', sortorder: dir });
      t.record(sameItems('SRT-03', 'folder', baseline, l));
    }
    // Records without folder and folderId show no order to judge.
    if (!showsAttribute(unsorted.records, 'folder'))
      return t.nothingToJudge('the file records show neither the folder nor the folderId: the order by folder is not judged');
    t.expectRuled('SRT-03');
  },
  { operation: 'folder.getFiles' },
);

/** A sandbox folder of files with tied sizes and media types, for multi-key orders. */
async function sortWorld(t: ConformanceContext): Promise<{ folderId: number; files: File[] }> {
  const folderId = await t.folder();
  const names = words(t.seed, 10);
  // Sizes of one, two and three digits: a size compared as text sorts 10 before 2.
  const files = await uploadAll(
    t,
    folderId,
    names.map((name, i) => {
      const { type, ext } = TYPES[(i * 5) % 3]!;
      return { name: `${name}.${ext}`, data: 'x'.repeat([2, 10, 100][(i * 7) % 3]!), type };
    }),
  );
  return { folderId, files };
}

/** The GET /file sort attributes the contract lists (the registry orders alternateUrls by its alphabetically first URL). */
const FILE_ATTRIBUTES = ['id', 'name', 'niceUrl', 'alternateUrls', 'fileSize', 'fileType'] as const;

conformance(
  'SRT-04',
  'Group P sort orders by a comma list of +/- attributes, later attributes breaking ties',
  async (t) => {
    const { folderId, files } = await sortWorld(t);
    const ids = files.map((f) => f.id!);
    const attrs = ['name', 'fileSize', 'fileType', 'id'] as const;
    const spec = fc.uniqueArray(fc.record({ name: fc.constantFrom(...attrs), prefix: fc.constantFrom('', '+', '-') }), {
      minLength: 1,
      maxLength: 3,
      selector: (s) => s.name,
    });
    await t.property<{ name: (typeof attrs)[number]; prefix: '' | '+' | '-' }[]>(
      spec,
      async (parts) => {
        const sort = parts.map((p) => `${p.prefix}${p.name}`).join(',');
        // "sort (string, name; comma-separated attribute names, each optionally prefixed + ascending or - descending)":
        // the order, ties broken by later attributes, is the registry's SRT-04 rule (the first of GET /file's own
        // attributes SRT-05's); the world's tied sizes and types give the later attributes ties to break.
        return judged(fetchList(t, 'file.list', folderId, { sort }), (l) =>
          expectSet('SRT-04', 'membership', ids, l, `sort=${sort} must not change which files are listed`),
        );
      },
      {
        novel: unseen(),
        // By name each way, and a tie on the file type broken by name descending, in every run.
        cover: [
          [{ name: 'name', prefix: '' }],
          [{ name: 'name', prefix: '-' }],
          [
            { name: 'fileType', prefix: '' },
            { name: 'name', prefix: '-' },
          ],
        ],
      },
    );
    // "comma-separated attribute names": one the listing has no such attribute for is ignored (reference notes) or refused (open
    // choice unknown-sort-attribute), never answered with a 5xx (ENV-08, the judge's); what an answer orders by is not stated,
    // so only its membership is judged here.
    for (const sort of ['nosuchattribute', 'nosuchattribute,-name']) {
      const l = await fetchList(t, 'file.list', folderId, { sort });
      if (isListing(l)) t.record(sameItems('SRT-04', `sort=${sort}`, ids, l));
      else t.nothingToJudge(`GET /file refuses sort=${sort}, which names an attribute it does not know`, l.exchange);
    }
    t.expectRuled('SRT-04');
  },
  { operation: 'file.list' },
);

conformance(
  'SRT-04',
  'Group P without sort orders GET /file and GET /folder by name; -name reverses it',
  async (t) => {
    const folderId = await t.folder();
    const names = words(t.seed, 14);
    await uploadManyStep(t, folderId, 8, (i) => `${names[i]}.txt`);
    for (const name of names.slice(8)) await createFolderStep(t, folderId, name);
    for (const op of ['file.list', 'folder.list'] as const satisfies readonly ListOp[]) {
      // "sort (string, name ...)": the default is by name, ascending (the registry's SRT-04 rule on this answer).
      const dflt = await mustList(t, op, folderId);
      t.record(
        expectSequence(
          'SRT-04',
          'defaultName',
          dflt.ids,
          await mustList(t, op, folderId, { sort: '+name' }),
          'sort=+name must equal the default order',
        ),
      );
      t.record(
        expectSequence(
          'SRT-04',
          'descending',
          [...dflt.ids].reverse(),
          await mustList(t, op, folderId, { sort: '-name' }),
          'sort=-name must reverse the name order',
        ),
      );
    }
    t.expectRuled('SRT-04');
  },
  { operation: 'file.list' },
);

conformance(
  'SRT-05',
  'GET /file sorts by id, name, niceUrl, alternateUrls, fileSize and fileType',
  async (t) => {
    const { folderId, files } = await sortWorld(t);
    const urls = words(t.seed + 7, files.length * 2, 6);
    // Nice URLs for all files but every third (where they go is not stated; among the others the order is), alternate
    // URLs (already in alphabetical order, distinct first ones) for every second. The name goes with every save: which
    // members a save needs is not shown (contract 4.1).
    const saved = new Map<number, { niceUrl?: string; alternateUrls?: string[] }>();
    for (const [i, f] of files.entries()) {
      const alternateUrls = i % 2 === 0 ? [`/alt/${urls[2 * i]}`, `/alt/${urls[2 * i]}/${urls[2 * i + 1]}`] : undefined;
      const niceUrl = i % 3 === 2 ? undefined : `/nice/${urls[2 * i + 1]}`;
      if (!niceUrl && !alternateUrls) continue;
      const urlsOf = { ...(niceUrl ? { niceUrl } : {}), ...(alternateUrls ? { alternateUrls } : {}) };
      saved.set(f.id!, urlsOf);
      await t.must('file.save.json', { path: { id: f.id! }, json: { file: { id: f.id!, name: f.name!, ...urlsOf } } });
    }
    // A server may keep no URL a save sets: the URL orders then have nothing to order.
    const shown = (await mustList(t, 'file.list', folderId)).records.filter((r) => {
      const want = saved.get(r.id!);
      return (
        want !== undefined &&
        (!want.niceUrl || text(r, 'niceUrl') === want.niceUrl) &&
        (want.alternateUrls ?? []).every((u) => listOf(r, 'alternateUrls').includes(u))
      );
    });
    if (shown.length < saved.size)
      t.nothingToJudge('the file records do not show the nice and alternate URLs saved: the orders by them judge less');
    const ids = files.map((f) => f.id!);
    const attrs = FILE_ATTRIBUTES;
    await t.property(
      fc.record({ attr: fc.constantFrom(...attrs), prefix: fc.constantFrom('', '+', '-') }),
      async ({ attr, prefix }) =>
        // "The list may be ... sorted by id, name, niceUrl, alternateUrls, fileSize, fileType."
        // The order by the attribute is the registry's SRT-05 rule (by name, SRT-04's); here, which files are listed.
        judged(fetchList(t, 'file.list', folderId, { sort: `${prefix}${attr}` }), (l) => sameItems('SRT-05', attr, ids, l)),
      // Every attribute the sentence names, both ways, in every run.
      {
        novel: unseen(),
        cover: attrs.flatMap((attr) => [
          { attr, prefix: '' as const },
          { attr, prefix: '-' as const },
        ]),
      },
    );
    // The fixture's file folder too: its files with and without nice URLs come in an order of their own, not the test's.
    const fixture = await fixtureFileFolder(t);
    if (fixture)
      for (const sort of ['niceUrl', '-niceUrl']) {
        const l = await mustList(t, 'file.list', fixture.folderId, { sort });
        t.record(sameItems('SRT-05', sort, (await mustList(t, 'file.list', fixture.folderId)).ids, l));
      }
    t.expectRuled('SRT-05');
  },
  { operation: 'file.list' },
);

// A server may keep sorted listings between requests; one kept from before a rename is stale, and no test above can
// see that, since each lists data that does not change between its reads. In this file, not one of its own: prove
// runs a requirement's files side by side, and a change elsewhere in the store may refresh what a server keeps.
conformance('SRT-01', 'a listing after a rename orders the renamed file by its new name', async (t) => {
  const folderId = await t.folder();
  // Lower-case names of one length: every collation orders them alike.
  const files: File[] = [];
  for (const name of ['srt-b.txt', 'srt-c.txt', 'srt-d.txt'])
    files.push(await uploadFileStep(t, folderId, name, `${name}\n`, 'text/plain'));
  const [b, c, d] = files.map((f) => f.id!);
  // A Group L listing (default order: name ascending, SRT-01) and a Group P one (default sort: name, SRT-04).
  const listings: readonly ListOp[] = ['folder.getFiles', 'file.list'];
  // Listed before the change, so that a server that keeps sorted listings has one to keep.
  for (const op of listings) await mustList(t, op, folderId);
  // FIL-03: "save (JSON) updates the given fields (name, description)": d becomes the first by name.
  await t.must('file.save.json', { path: { id: d! }, json: { file: { id: d!, name: 'srt-a.txt' } } });
  for (const op of listings) {
    const after = await mustList(t, op, folderId);
    // SRT-01: "Group L default order is by name ascending"; SRT-04: Group P `sort` "default `name`".
    t.record(
      expectSequence(t.requirement, 'order', [d!, b!, c!], after, `after srt-d.txt was renamed srt-a.txt, ${op} must list it first`),
    );
  }
  t.expectRuled('SRT-01');
});

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

conformance(
  'SRT-05',
  'GET /file sorts a folder holding a broken file by fileSize',
  async (t) => {
    // The fixture's broken files (contract 2.4 "broken | boolean (binary data is missing)"): a size without data to read it from.
    const broken = await t.must('folder.getFiles', {
      path: { folderId: t.fixture.masterRootFolderId },
      query: { recursive: true, broken: true, maxItems: -1 },
    });
    const folderId = (broken.files ?? []).find((f) => f.broken === true && typeof f.folderId === 'number')?.folderId;
    if (folderId === undefined) return t.nothingToJudge('the master tree holds no broken file');
    // SRT-05: "GET /file sorts by id, name, niceUrl, alternateUrls, fileSize, fileType", every file of the folder, the broken
    // one too; the order itself is the registry's SRT-05 rule.
    for (const sort of ['fileSize', '-fileSize']) {
      const listed = await attempt(t, 'file.list', { query: { folderId: String(folderId), sort } });
      t.record(listed.findings);
    }
    t.expectRuled('SRT-05');
  },
  { operation: 'file.list' },
);
