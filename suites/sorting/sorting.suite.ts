/**
 * Sorting (SRT): Group L `sortby`/`sortorder` and Group P `sort` (with +/- prefixes and tie-breaking
 * attributes). Orders of the fixture's lists are judged by relations (the keys the records carry are
 * in order under some reasonable collation, and sorting changes no membership); orders of what the
 * test creates are predicted exactly, with names of one alphabet on which every collation agrees.
 */
import fc from 'fast-check';
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureFileFolder, hasFeature } from '../../harness/fixture.ts';
import {
  described,
  expectSequence,
  expectSet,
  fetchList,
  judged,
  mixedCaseNames,
  mustList,
  orderViolation,
  words,
  type Key,
  type Listing,
  type ListOp,
  type OrderSpec,
  type Query,
} from '../../harness/lists.ts';
import { brief, stringsOrdered, valuesOrdered, type Direction } from '../../harness/oracles.ts';
import { createFolderStep, deleteFolderStep, uploadFileStep, uploadManyStep } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { File, Folder, Page, Template } from '../../schemas/types.ts';

type Sortable = File | Folder | Page | Template;

/**
 * The ids must be the same as without sorting, and the records' keys in the given direction (metamorphic: any reasonable
 * collation, equal keys in any order).
 */
function sortedFindings(
  requirement: string,
  what: string,
  baseline: readonly number[],
  l: Listing<Sortable>,
  keys: Key<Sortable>[],
  dir: Direction,
): Finding[] {
  const out = expectSet(requirement, 'membership', baseline, l, `sorting (${what}) must not change which items are listed`);
  const ordered = keys.some((key) => valuesOrdered(l.records.map(key), dir));
  if (!ordered) {
    const shown = l.records.map(keys[0]!).filter((v) => v !== undefined);
    out.push(
      finding(
        requirement,
        'order',
        `the items are not in ${dir === 'asc' ? 'ascending' : 'descending'} order of ${what}: ` +
          `${brief(shown, 12)} (${described(l.exchange)})`,
        l.exchange,
      ),
    );
  }
  return out;
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

const TYPES = ['text/plain', 'application/pdf', 'image/png'];

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
      const l = await mustList(t, op, folderId);
      const got = l.records.map((r) => r.name ?? '');
      t.record(
        expectSet(
          'SRT-01',
          'membership',
          created.map((r) => r.id!),
          l,
          `${op} must list the folder's items`,
        ),
      );
      // "sortby (string, name ...)", "sortorder (string, asc ...)"; names differing in case may follow any reasonable collation.
      if (!stringsOrdered(got, 'asc'))
        t.record([
          finding(
            'SRT-01',
            'defaultOrder',
            `${op} without sortby must list by name ascending: got ${brief(got, 12)} (${described(l.exchange)})`,
            l.exchange,
          ),
        ]);
    }
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
        cover: (['folder.getFiles', 'folder.getFolders'] as const).flatMap((op) => [
          { op, sortorder: 'desc', sortby: undefined },
          { op, sortorder: 'descending', sortby: 'name' },
        ]),
      },
    );
  },
  { operation: 'folder.getFiles' },
);

/** Keys of the attributes every Group L listing has. */
const COMMON_KEYS: Record<'name' | 'cdate' | 'edate', Key<Sortable>> = {
  name: (r) => r.name,
  cdate: (r) => r.cdate,
  edate: (r) => r.edate,
};

conformance(
  'SRT-03',
  'sortby name, cdate and edate order every Group L listing by that attribute, in both directions',
  async (t) => {
    const lists = await fixtureLists(t);
    const baselines = await Promise.all(lists.map(async (l) => (await mustList(t, l.op, l.folderId, l.query)).ids));
    // Few combinations: every list, attribute and direction is tried.
    for (const [which, { op, folderId, query }] of lists.entries()) {
      for (const sortby of Object.keys(COMMON_KEYS) as (keyof typeof COMMON_KEYS)[]) {
        for (const dir of ['asc', 'desc'] as const) {
          // "sortby (string, name; one of name, cdate, edate, ...)"
          const l = await mustList(t, op, folderId, { ...query, sortby, sortorder: dir });
          t.record(sortedFindings('SRT-03', `${sortby} in ${op}`, baselines[which]!, l as Listing<Sortable>, [COMMON_KEYS[sortby]], dir));
        }
      }
    }
  },
  { operation: 'folder.getFiles' },
);

/** Keys of the page attributes of sortby; template and folder may sort by name or by id. */
const PAGE_KEYS: Record<'pdate' | 'filename' | 'template' | 'folder' | 'priority', Key<Page>[]> = {
  pdate: [(p) => p.pdate],
  filename: [(p) => p.fileName],
  template: [(p) => p.template?.name, (p) => p.templateId],
  folder: [(p) => p.folder?.name, (p) => p.folderId],
  priority: [(p) => p.priority],
};

conformance(
  'SRT-03',
  'sortby pdate, filename, template, folder and priority order pages by that attribute, in both directions',
  async (t) => {
    const pagesFolder = t.fixture.pagesFolderId;
    if (!hasFeature(t, 'pages') || pagesFolder === undefined) return;
    // template=true and folder=true add the records whose names the order may follow.
    const query = { recursive: true, template: true, folder: true };
    const baseline = (await mustList(t, 'folder.getPages', pagesFolder, query)).ids;
    // One page has no order to judge.
    if (baseline.length < 2) return t.nothingToJudge('the pages folder and its sub-folders hold fewer than two pages');
    for (const sortby of Object.keys(PAGE_KEYS) as (keyof typeof PAGE_KEYS)[]) {
      for (const dir of ['asc', 'desc'] as const) {
        // "sortby (... pdate, filename, template, folder, ... priority ...)"
        const l = await mustList(t, 'folder.getPages', pagesFolder, { ...query, sortby, sortorder: dir });
        t.record(sortedFindings('SRT-03', `page ${sortby}`, baseline, l as Listing<Sortable>, PAGE_KEYS[sortby] as Key<Sortable>[], dir));
      }
    }
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
    // Inherited files named late in the alphabet, local ones early: name order and node order differ.
    await uploadManyStep(t, folderId, 3, (i) => `z${names[i]}.txt`);
    for (const name of names.slice(3))
      await uploadFileStep(t, folderId, `a${name}.txt`, 'local\n', 'text/plain', { nodeId: String(channel) });
    const baseline = (await mustList(t, 'folder.getFiles', folderId, { nodeId: channel })).ids;
    for (const dir of ['asc', 'desc'] as const) {
      const l = await mustList(t, 'folder.getFiles', folderId, { nodeId: channel, sortby: 'masterNode', sortorder: dir });
      // "sortby (... masterNode ...)": by the master node's name (or id).
      t.record(
        sortedFindings(
          'SRT-03',
          'masterNode',
          baseline,
          l as Listing<Sortable>,
          [(r) => (r as File).masterNode, (r) => (r as File).masterNodeId],
          dir,
        ),
      );
    }
  },
  { feature: 'multichannelling', operation: 'folder.getFiles' },
);

conformance(
  'SRT-03',
  'sortby excluded separates excluded from inheritable objects',
  async (t) => {
    const folderId = await t.folder();
    const names = words(t.seed, 6).sort();
    const files = await uploadManyStep(t, folderId, names.length, (i) => `${i < 2 ? 'a' : 'z'}${names[i]}.txt`);
    // Exclude the two files named first: by name they come first, by exclusion (false before true) last.
    await t.must('file.disinherit.set', { query: { id: files.slice(0, 2).map((f) => f.id!) }, json: { exclude: true } });
    const baseline = (await mustList(t, 'folder.getFiles', folderId)).ids;
    for (const dir of ['asc', 'desc'] as const) {
      const l = await mustList(t, 'folder.getFiles', folderId, { sortby: 'excluded', sortorder: dir });
      // "sortby (... excluded ...)"
      t.record(sortedFindings('SRT-03', 'excluded', baseline, l as Listing<Sortable>, [(r) => (r as File).excluded ?? false], dir));
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
    for (const [i, name] of names.entries()) subs.push(await createFolderStep(t, folderId, `${i < 2 ? 'a' : 'z'}${name}`));
    // The folders named first are deleted: by name they come first, by deletion time (live ones have none) last.
    for (const f of subs.slice(0, 2)) await deleteFolderStep(t, f.id!);
    const baseline = (await mustList(t, 'folder.getFolders', folderId, { wastebin: 'include' })).ids;
    for (const dir of ['asc', 'desc'] as const) {
      const l = await mustList(t, 'folder.getFolders', folderId, { wastebin: 'include', sortby: 'deletedat', sortorder: dir });
      // "sortby (... deletedat)": live objects have no deletion time (or `deleted: {at: 0}`).
      t.record(sortedFindings('SRT-03', 'deletedat', baseline, l as Listing<Sortable>, [(r) => (r as Folder).deleted?.at ?? 0], dir));
    }
  },
  { feature: 'wastebin', operation: 'folder.getFolders' },
);

/** A sandbox folder of files with tied sizes and media types, for multi-key orders. */
async function sortWorld(t: ConformanceContext): Promise<{ folderId: number; files: File[] }> {
  const folderId = await t.folder();
  const names = words(t.seed, 10);
  // Sizes of one, two and three digits: a size compared as text sorts 10 before 2.
  const files = await uploadAll(
    t,
    folderId,
    names.map((name, i) => ({ name: `${name}.txt`, data: 'x'.repeat([2, 10, 100][(i * 7) % 3]!), type: TYPES[(i * 5) % 3]! })),
  );
  return { folderId, files };
}

/** Keys of the GET /file sort attributes the contract lists; alternateUrls by its alphabetically first URL. */
const FILE_KEYS: Record<'id' | 'name' | 'niceUrl' | 'alternateUrls' | 'fileSize' | 'fileType', Key<File>> = {
  id: (f) => f.id,
  name: (f) => f.name,
  niceUrl: (f) => f.niceUrl,
  alternateUrls: (f) => (f.alternateUrls?.length ? [...f.alternateUrls].sort()[0] : undefined),
  fileSize: (f) => f.fileSize,
  fileType: (f) => f.fileType,
};

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
        const specs: OrderSpec<File>[] = parts.map((p) => ({
          name: p.name,
          key: FILE_KEYS[p.name],
          dir: p.prefix === '-' ? 'desc' : 'asc',
        }));
        // "sort (string, name; comma-separated attribute names, each optionally prefixed + ascending or - descending)"
        return judged(fetchList(t, 'file.list', folderId, { sort }), (l) => {
          const out = expectSet('SRT-04', 'membership', ids, l, `sort=${sort} must not change which files are listed`);
          const at = orderViolation(l.records, specs);
          if (at >= 0) {
            const show = (f: File) => `{${parts.map((p) => `${p.name}: ${JSON.stringify(FILE_KEYS[p.name](f))}`).join(', ')}}`;
            out.push(
              finding(
                'SRT-04',
                'order',
                `sort=${sort}: item ${at + 1} ${show(l.records[at]!)} must not follow ${show(l.records[at - 1]!)} (${described(l.exchange)})`,
                l.exchange,
              ),
            );
          }
          return out;
        });
      },
      {
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
      const dflt = await mustList(t, op, folderId);
      const got = dflt.records.map((r) => r.name ?? '');
      // "sort (string, name ...)": the default is by name, ascending.
      if (!stringsOrdered(got, 'asc'))
        t.record([
          finding(
            'SRT-04',
            'defaultName',
            `${op} without sort must order by name: got ${brief(got, 12)} (${described(dflt.exchange)})`,
            dflt.exchange,
          ),
        ]);
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
  },
  { operation: 'file.list' },
);

conformance(
  'SRT-05',
  'GET /file sorts by id, name, niceUrl, alternateUrls, fileSize and fileType',
  async (t) => {
    const { folderId, files } = await sortWorld(t);
    const urls = words(t.seed + 7, files.length * 2, 6);
    // Nice URLs for all files, alternate URLs (already in alphabetical order, distinct first ones) for every second.
    for (const [i, f] of files.entries()) {
      const alternateUrls = i % 2 === 0 ? [`/alt/${urls[2 * i]}`, `/alt/${urls[2 * i]}/${urls[2 * i + 1]}`] : undefined;
      await t.must('file.save.json', {
        path: { id: f.id! },
        json: { file: { niceUrl: `/nice/${urls[2 * i + 1]}`, ...(alternateUrls ? { alternateUrls } : {}) } },
      });
    }
    const ids = files.map((f) => f.id!);
    const attrs = Object.keys(FILE_KEYS) as (keyof typeof FILE_KEYS)[];
    await t.property(
      fc.record({ attr: fc.constantFrom(...attrs), prefix: fc.constantFrom('', '+', '-') }),
      async ({ attr, prefix }) =>
        // "The list may be ... sorted by id, name, niceUrl, alternateUrls, fileSize, fileType."
        judged(fetchList(t, 'file.list', folderId, { sort: `${prefix}${attr}` }), (l) =>
          sortedFindings('SRT-05', attr, ids, l as Listing<Sortable>, [FILE_KEYS[attr] as Key<Sortable>], prefix === '-' ? 'desc' : 'asc'),
        ),
      // Every attribute the sentence names, both ways, in every run.
      {
        cover: attrs.flatMap((attr) => [
          { attr, prefix: '' as const },
          { attr, prefix: '-' as const },
        ]),
      },
    );
  },
  { operation: 'file.list' },
);
