/**
 * Paging (PAG): Group P (`page`, `pageSize` on GET /folder and GET /file), Group L (`skipCount`,
 * `maxItems`), the find operations' default of 100 and the page and template listings' default of all.
 * Lists the test creates are judged by the model (the exact ids created); the fixture's lists by
 * relations between answers (a default equals "all", a page is a slice of the whole list).
 */
import fc from 'fast-check';
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureFileFolders, hasFeature } from '../../harness/fixture.ts';
import {
  described,
  expectSequence,
  expectSet,
  fetchList,
  isListing,
  judged,
  legacyPage,
  mustList,
  sliceDisagreement,
  words,
  type Keyed,
  type Listing,
  type Query,
} from '../../harness/lists.ts';
import { text } from '../../harness/records.ts';
import { createFolderStep, deleteFolderStep, uploadManyStep } from '../../harness/steps.ts';
import { conformance, unseen, type ConformanceContext } from '../../harness/suite.ts';

/** A size for sandbox lists: between min and max, from the test's seed. */
function seededSize(seed: number, min: number, max: number): number {
  return fc.sample(fc.integer({ min, max }), { seed, numRuns: 1 })[0]!;
}

/** A sandbox folder holding `files` files and `folders` sub-folders, with their ids. */
interface PagingWorld {
  folderId: number;
  fileIds: number[];
  folderIds: number[];
}

/** Creates a folder with a seeded number of files and sub-folders (names distinct, one alphabet). */
async function pagingWorld(
  t: ConformanceContext,
  files = seededSize(t.seed, 9, 14),
  folders = seededSize(t.seed + 1, 5, 8),
): Promise<PagingWorld> {
  const folderId = await t.folder();
  const names = words(t.seed, files + folders);
  const created = await uploadManyStep(t, folderId, files, (i) => `${names[i]}.txt`);
  const subs = [];
  for (let i = 0; i < folders; i++) subs.push(await createFolderStep(t, folderId, names[files + i]!));
  return { folderId, fileIds: created.map((f) => f.id!), folderIds: subs.map((f) => f.id!) };
}

/** The Group P listings and what each lists of a paging world. */
const GROUP_P = ['file.list', 'folder.list'] as const;
type GroupP = (typeof GROUP_P)[number];
const modelOf = (w: PagingWorld, op: GroupP): number[] => (op === 'file.list' ? w.fileIds : w.folderIds);

/** The Group L listings of a paging world (the sandbox's files and sub-folders). */
const GROUP_L = ['folder.getFiles', 'folder.getFolders'] as const;
type GroupL = (typeof GROUP_L)[number];
const modelOfL = (w: PagingWorld, op: GroupL): number[] => (op === 'folder.getFiles' ? w.fileIds : w.folderIds);

conformance(
  'PAG-01',
  'Group P without pageSize (or pageSize=-1) lists every item, whatever the page, with hasMoreItems false',
  async (t) => {
    const w = await pagingWorld(t);
    for (const op of GROUP_P) {
      const all = await mustList(t, op, w.folderId);
      // "pageSize (int, -1; -1 means no paging ...)": the whole list. Its hasMoreItems (false) is the registry's PAG-01 rule.
      t.record(expectSet('PAG-01', 'noPaging', modelOf(w, op), all, `${op} without pageSize must list every item of the folder`));
    }
    // The fixture's fullest folder may hold more files than a guessed default page size.
    const biggest = (await fixtureFileFolders(t))[0];
    if (biggest) {
      const all = await mustList(t, 'folder.getFiles', biggest.folderId, { maxItems: -1 });
      const unpaged = await mustList(t, 'file.list', biggest.folderId);
      t.record(
        expectSet(
          'PAG-01',
          'noPaging',
          all.ids,
          unpaged,
          'GET /file without pageSize must list every file getFiles lists with maxItems=-1',
        ),
      );
    }
    await t.property(
      fc.record({ op: fc.constantFrom(...GROUP_P), page: fc.integer({ min: 1, max: 6 }), explicit: fc.boolean() }),
      async ({ op, page, explicit }) =>
        judged(fetchList(t, op, w.folderId, { page, pageSize: explicit ? -1 : undefined }), (l) =>
          expectSet('PAG-01', 'noPaging', modelOf(w, op), l, `with no paging, page=${page} must still list every item`),
        ),
      { novel: unseen() },
    );
    t.expectRuled('PAG-01');
  },
  { operation: 'file.list' },
);

conformance(
  'PAG-02',
  'Group P pageSize=0 returns no items on any page',
  async (t) => {
    const w = await pagingWorld(t);
    // "pageSize ... 0 returns no items": one answer shows it, so the rule is the registry's (PAG-02 slice), which
    // judges every answer this test receives; the test supplies the answers, on every page of both listings.
    await t.property(
      fc.record({ op: fc.constantFrom(...GROUP_P), page: fc.integer({ min: 1, max: 4 }) }),
      async ({ op, page }) => judged(fetchList(t, op, w.folderId, { page, pageSize: 0 }), () => []),
      { novel: unseen() },
    );
    t.expectRuled('PAG-02');
  },
  { operation: 'file.list' },
);

conformance(
  'PAG-03',
  'Group P page=k&pageSize=n returns items (k-1)n+1 .. kn of the whole list, pages past the end empty',
  async (t) => {
    const w = await pagingWorld(t);
    const full = {
      'file.list': (await mustList(t, 'file.list', w.folderId)).ids,
      'folder.list': (await mustList(t, 'folder.list', w.folderId)).ids,
    };
    const n = Math.max(w.fileIds.length, w.folderIds.length);
    await t.property(
      fc.record({
        op: fc.constantFrom(...GROUP_P),
        pageSize: fc.integer({ min: 1, max: n + 2 }),
        page: fc.integer({ min: 1, max: n + 2 }),
      }),
      async ({ op, pageSize, page }) =>
        // "page (int, 1; paging starts at 1)": page k holds items (k-1)n+1 .. kn.
        judged(fetchList(t, op, w.folderId, { page, pageSize }), (l) =>
          expectSequence(
            'PAG-03',
            'pageSlice',
            full[op].slice((page - 1) * pageSize, page * pageSize),
            l,
            `page ${page} of size ${pageSize} must hold items ${(page - 1) * pageSize + 1}..${page * pageSize} of the unpaged list`,
          ),
        ),
      // The first two pages of a third of the list, in every run: pages past the end are empty whether paging starts at 1 or not.
      { cover: GROUP_P.flatMap((op) => [1, 2].map((page) => ({ op, pageSize: Math.max(1, Math.floor(n / 3)), page }))), novel: unseen() },
    );
  },
  { operation: 'file.list' },
);

conformance(
  'PAG-04',
  'Group P pages 1..N of a fixed size concatenate to the whole list, no duplicates, no gaps',
  async (t) => {
    const w = await pagingWorld(t);
    const full = {
      'file.list': (await mustList(t, 'file.list', w.folderId)).ids,
      'folder.list': (await mustList(t, 'folder.list', w.folderId)).ids,
    };
    await t.property(
      fc.record({ op: fc.constantFrom(...GROUP_P), pageSize: fc.integer({ min: 1, max: 6 }) }),
      async ({ op, pageSize }) => {
        const walked: number[] = [];
        const last = Math.ceil(full[op].length / pageSize) + 1;
        let lastPage: Listing<unknown> | undefined;
        let page = 1;
        for (; page <= last; page++) {
          const l = await fetchList(t, op, w.folderId, { page, pageSize });
          if (!isListing(l)) return [l];
          walked.push(...l.ids);
          lastPage = l;
          if (!l.ids.length) break;
        }
        // Walking pages 1..N "yields the full list once, no duplicates, no gaps".
        const walk: Listing<unknown> = { ...lastPage!, records: [], ids: walked };
        return expectSequence(
          'PAG-04',
          'pageWalk',
          full[op],
          walk,
          `pages 1..${Math.min(page, last)} of size ${pageSize}, concatenated, must give the unpaged list`,
        );
      },
      { novel: unseen() },
    );
  },
  { operation: 'file.list' },
);

/** A PAG-05 case: a listing, where its slice ends (exactly at the end, one item short of it, or anywhere), and whether it is filtered. */
interface PagingCase {
  op: GroupP | GroupL;
  at: 'exact' | 'oneShort' | 'anywhere';
  a: number;
  b: number;
  filter: boolean;
}

/** The paging parameters of a case, given the number of matching items, and the position after the slice's last item. */
function pagingOf(c: PagingCase, total: number): { query: Query; end: number } {
  if (c.op === 'file.list' || c.op === 'folder.list') {
    const divisors = Array.from({ length: total }, (_, i) => i + 1).filter((d) => total % d === 0);
    const size = c.at === 'anywhere' || !divisors.length ? c.a : divisors[c.a % divisors.length]!;
    // exact: the last page ends at the last item; oneShort: the page before it.
    const page = c.at === 'anywhere' || !divisors.length ? c.b : Math.max(1, total / size - (c.at === 'oneShort' ? 1 : 0));
    return { query: { page, pageSize: size }, end: page * size };
  }
  if (c.at === 'anywhere')
    return { query: { skipCount: c.b, maxItems: c.a - 2 }, end: c.a - 2 < 0 ? Number.POSITIVE_INFINITY : c.b + c.a - 2 };
  const skipCount = c.b % (total + 1);
  const maxItems = Math.max(0, total - skipCount - (c.at === 'oneShort' ? 1 : 0));
  return { query: { skipCount, maxItems }, end: skipCount + maxItems };
}

conformance(
  'PAG-05',
  'numItems counts every matching item before paging and hasMoreItems is true exactly when items lie beyond the slice',
  async (t) => {
    const w = await pagingWorld(t);
    // A filter term shared by some names (a letter of a created word), so numItems differs from the folder's size.
    const term = words(t.seed, 1)[0]!.slice(0, 1);
    const n = Math.max(w.fileIds.length, w.folderIds.length) + 2;
    const cases = fc.record({
      op: fc.constantFrom(...GROUP_P, ...GROUP_L),
      at: fc.constantFrom('exact' as const, 'oneShort' as const, 'anywhere' as const),
      a: fc.integer({ min: 1, max: n }),
      b: fc.integer({ min: 1, max: n }),
      filter: fc.boolean(),
    });
    // The unpaged listings, read once each: the world does not change while the cases run.
    const wholes = new Map<string, Listing<unknown>>();
    await t.property(cases, async (c) => {
      const filter: Query = c.filter ? (c.op === 'file.list' || c.op === 'folder.list' ? { q: term } : { search: term }) : {};
      // "numItems is the number of items matching the filters before paging": the same query unpaged.
      const key = `${c.op} ${c.filter}`;
      const whole = wholes.get(key) ?? (await fetchList(t, c.op, w.folderId, filter));
      if (!isListing(whole)) return [whole];
      wholes.set(key, whole);
      const total = whole.ids.length;
      const { query, end } = pagingOf(c, total);
      return judged(fetchList(t, c.op, w.folderId, { ...filter, ...query }), (l) => {
        const out: Finding[] = [];
        if (l.numItems !== undefined && l.numItems !== total)
          out.push(
            finding(
              'PAG-05',
              'numItems',
              `numItems is ${l.numItems}, but ${total} items match before paging (${described(l.exchange)})`,
              l.exchange,
            ),
          );
        // "hasMoreItems is true exactly when items exist beyond the returned slice". With numItems right, the
        // registry's PAG-05 rule has judged hasMoreItems from this answer alone; here only what takes the unpaged total.
        if (l.hasMoreItems !== undefined && l.numItems !== total && l.hasMoreItems !== end < total)
          out.push(
            finding(
              'PAG-05',
              'hasMoreItems',
              `hasMoreItems is ${l.hasMoreItems}, but the slice ends at item ${Math.min(end, total)} of ${total} ` +
                `(${described(l.exchange)})`,
              l.exchange,
            ),
          );
        return out;
      });
    });
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'PAG-06',
  'Group L without skipCount and maxItems lists every item from the first',
  async (t) => {
    const w = await pagingWorld(t);
    for (const op of GROUP_L) {
      // "skipCount (int, 0), maxItems (int, -1 means all)"
      t.record(
        expectSet(
          'PAG-06',
          'defaults',
          modelOfL(w, op),
          await mustList(t, op, w.folderId),
          `${op} without skipCount and maxItems must list every item of the folder`,
        ),
      );
    }
    // The fixture's fullest folder may hold more items than a guessed default page size.
    const biggest = (await fixtureFileFolders(t))[0];
    if (!biggest) return;
    const dflt = await mustList(t, 'folder.getFiles', biggest.folderId);
    const all = await mustList(t, 'folder.getFiles', biggest.folderId, { skipCount: 0, maxItems: -1 });
    // A default listing saying hasMoreItems is the registry's (PAG-06 hasMoreItems); one holding fewer items than its numItems,
    // PAG-05's (numItems is the count before paging): here, that it holds what skipCount=0&maxItems=-1 holds.
    t.record(expectSequence('PAG-06', 'defaults', all.ids, dflt, 'the default listing must equal skipCount=0&maxItems=-1'));
    t.expectRuled('PAG-06');
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'PAG-07',
  'Group L skipCount=s&maxItems=m returns items s+1 .. s+m of the whole list; maxItems=0 returns none',
  async (t) => {
    const w = await pagingWorld(t);
    const lists: {
      op: 'folder.getFiles' | 'folder.getFolders' | 'folder.getPages' | 'folder.getTemplates';
      folderId: number;
      query: Query;
    }[] = GROUP_L.map((op) => ({ op, folderId: w.folderId, query: {} }));
    if (hasFeature(t, 'pages') && t.fixture.pagesFolderId !== undefined)
      lists.push({ op: 'folder.getPages', folderId: t.fixture.pagesFolderId, query: { recursive: true } });
    if (hasFeature(t, 'templates') && t.fixture.templatesFolderId !== undefined)
      lists.push({ op: 'folder.getTemplates', folderId: t.fixture.templatesFolderId, query: {} });
    // Each list unpaged, as ids with their sort key (the name, the default order): a fixture may hold equal names, whose
    // order the contract leaves open ("sortby (string, name ...)"), so slices are compared by key, equal keys trading places.
    const full = await Promise.all(
      lists.map(async (l) =>
        (await mustList(t, l.op, l.folderId, { ...l.query, maxItems: -1 })).records.map((r) => ({ id: r.id, key: r.name })),
      ),
    );
    const sliceFindings = (l: Listing<{ id?: number; name?: string }>, all: Keyed[], skipCount: number, maxItems: number): Finding[] => {
      const wrong = sliceDisagreement(
        all,
        l.records.map((r) => ({ id: r.id, key: r.name })),
        skipCount,
        maxItems,
      );
      return wrong
        ? [
            finding(
              'PAG-07',
              'skipMax',
              `skipCount=${skipCount}&maxItems=${maxItems} must return items ${skipCount + 1}..${maxItems < 0 ? 'the end' : skipCount + maxItems} ` +
                `of the whole list: ${wrong} (${described(l.exchange)})`,
              l.exchange,
            ),
          ]
        : [];
    };
    // "maxItems=0 returns none", and -1 all, on every list, before random slices.
    for (const [which, { op, folderId, query }] of lists.entries()) {
      for (const [skipCount, maxItems] of [
        [0, 0],
        [2, 0],
        [0, -1],
        [2, -1],
      ] as const)
        t.record(sliceFindings(await mustList(t, op, folderId, { ...query, skipCount, maxItems }), full[which]!, skipCount, maxItems));
    }
    const n = Math.max(...full.map((ids) => ids.length)) + 2;
    await t.property(
      fc.record({
        which: fc.nat({ max: lists.length - 1 }),
        skipCount: fc.integer({ min: 0, max: n }),
        maxItems: fc.integer({ min: -1, max: n }),
      }),
      async ({ which, skipCount, maxItems }) => {
        const { op, folderId, query } = lists[which]!;
        return judged(fetchList(t, op, folderId, { ...query, skipCount, maxItems }), (l) =>
          sliceFindings(l, full[which]!, skipCount, maxItems),
        );
      },
    );
  },
  { operation: 'folder.getFiles' },
);

/**
 * A findPages query that finds several pages of a folder whatever the reading of "currently only names are searched"
 * (open choice find-query-match): the letter most of its pages' names start with. A find is always sent with a query:
 * what one without answers is not shown. Undefined when the folder and its sub-folders hold no named page.
 */
async function pageQuery(t: ConformanceContext, folderId: number): Promise<string | undefined> {
  const initials = (await mustList(t, 'folder.getPages', folderId, { recursive: true })).records
    .map((p) => text(p, 'name').charAt(0).toLowerCase())
    .filter((c) => /\p{L}/u.test(c));
  const counts = new Map<string, number>();
  for (const c of initials) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

conformance(
  'PAG-07',
  'findFiles and findPages skip the first skipCount matches of the list they answer without it',
  async (t) => {
    const folderId = await t.folder();
    const token = words(t.seed + 3, 1, 9)[0]!;
    await uploadManyStep(t, folderId, 9, (i) => `${token}-${i}.txt`);
    // The find query (contract 4.2): "skipCount (int, 0)", the Group L parameter of the same name (section 8): matches s+1 .. s+m.
    const lists: ['folder.findFiles' | 'folder.findPages', number, number][] = [['folder.findFiles', folderId, 4]];
    if (hasFeature(t, 'pages') && t.fixture.pagesFolderId !== undefined) lists.push(['folder.findPages', t.fixture.pagesFolderId, 2]);
    for (const [op, folder, skipCount] of lists) {
      const query = { query: op === 'folder.findFiles' ? token : await pageQuery(t, folder) };
      if (query.query === undefined) {
        t.nothingToJudge(`${op}: the folder holds no page with a name to search for`);
        continue;
      }
      const all = await mustList(t, op, folder, { ...query, maxItems: -1 });
      if (all.ids.length <= skipCount) {
        t.nothingToJudge(`${op} finds no more than ${skipCount} matches to skip`);
        continue;
      }
      t.judged(op, 'skipCount');
      for (const maxItems of [-1, 2]) {
        const l = await mustList(t, op, folder, { ...query, skipCount, maxItems });
        t.record(
          expectSequence(
            'PAG-07',
            'findSkip',
            legacyPage(all.ids, skipCount, maxItems),
            l,
            `${op} skipCount=${skipCount}&maxItems=${maxItems} must return matches ${skipCount + 1}.. of the list without skipCount`,
          ),
        );
      }
    }
  },
  { operation: 'folder.findFiles' },
);

conformance(
  'PAG-07',
  'findPages with maxItems=1 returns the first match alone',
  async (t) => {
    if (!hasFeature(t, 'pages') || t.fixture.pagesFolderId === undefined)
      return t.nothingToJudge('the target declares no pages folder to find pages in');
    const folder = t.fixture.pagesFolderId;
    const query = await pageQuery(t, folder);
    if (query === undefined) return t.nothingToJudge('the pages folder holds no page with a name to search for');
    const all = await mustList(t, 'folder.findPages', folder, { query, maxItems: -1 });
    if (all.ids.length < 2) return t.nothingToJudge('findPages finds fewer than two pages, which maxItems=1 cannot tell apart');
    t.judged('folder.findPages', 'maxItems');
    // "maxItems (int, 100; -1 returns all)", from the first match when skipCount is left at its default 0.
    const one = await mustList(t, 'folder.findPages', folder, { query, maxItems: 1 });
    t.record(
      expectSequence(
        'PAG-07',
        'findMax',
        all.ids.slice(0, 1),
        one,
        `findPages maxItems=1 must return the first of the ${all.ids.length} matches alone`,
      ),
    );
  },
  { operation: 'folder.findPages' },
);

/**
 * A sandbox folder of more files than any page size the contract names or a server may have as a limit of its own
 * (the contract sets none: "maximum page sizes: not shown" is no licence to cut a page short), with the unpaged list.
 */
async function longList(t: ConformanceContext): Promise<{ folderId: number; length: number }> {
  const folderId = await t.folder();
  const length = seededSize(t.seed, 105, 125);
  const names = words(t.seed + 5, length);
  await uploadManyStep(t, folderId, length, (i) => `${names[i]}.txt`);
  return { folderId, length };
}

/** Page sizes below, at and above 20, 50 and 100, and at and around a list's length. */
const bigSizes = (length: number) => [21, 50, 51, 100, 101, length - 1, length, length + 1];

conformance(
  'PAG-03',
  'Group P pages larger than 20, 50 and 100 items of a list longer than 100 hold exactly their slice',
  async (t) => {
    const { folderId, length } = await longList(t);
    const full = (await mustList(t, 'file.list', folderId)).ids;
    if (full.length !== length) t.nothingToJudge(`GET /file lists ${full.length} of the ${length} files the test uploaded, unpaged`);
    for (const pageSize of bigSizes(full.length))
      for (const page of [1, 2]) {
        // "page=k&pageSize=n returns items (k-1)n+1 .. kn of the full ordered list", whatever n.
        const l = await mustList(t, 'file.list', folderId, { page, pageSize });
        t.record(
          expectSequence(
            'PAG-03',
            'pageSlice',
            full.slice((page - 1) * pageSize, page * pageSize),
            l,
            `page ${page} of size ${pageSize} of a list of ${full.length} must hold items ${(page - 1) * pageSize + 1}..${Math.min(page * pageSize, full.length)}`,
          ),
        );
      }
    t.judged('file.list', 'pageSize', 'page');
    await deleteFolderStep(t, folderId);
  },
  { operation: 'file.list' },
);

conformance(
  'PAG-07',
  'Group L maxItems larger than 20, 50 and 100 of a list longer than 100 returns exactly that many items',
  async (t) => {
    const { folderId, length } = await longList(t);
    const full = (await mustList(t, 'folder.getFiles', folderId, { maxItems: -1 })).ids;
    if (full.length !== length) t.nothingToJudge(`getFiles lists ${full.length} of the ${length} files the test uploaded`);
    // skipCount below, at and past the list's end too: a page of a size the server caps reads short anywhere.
    for (const maxItems of bigSizes(full.length))
      for (const skipCount of [0, 7, full.length - 1, full.length, full.length + 1]) {
        // "skipCount=s&maxItems=m returns items s+1 .. s+m of the full ordered list", whatever m.
        const l = await mustList(t, 'folder.getFiles', folderId, { skipCount, maxItems });
        t.record(
          expectSequence(
            'PAG-07',
            'legacySlice',
            legacyPage(full, skipCount, maxItems),
            l,
            `skipCount=${skipCount}&maxItems=${maxItems} of a list of ${full.length} must return items ${skipCount + 1}..${Math.min(skipCount + maxItems, full.length)}`,
          ),
        );
      }
    t.judged('folder.getFiles', 'maxItems', 'skipCount');
    await deleteFolderStep(t, folderId);
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'PAG-08',
  'findFiles returns 100 matches by default and all with maxItems=-1; findPages defaults to 100 as well',
  async (t) => {
    const folderId = await t.folder();
    const token = words(t.seed, 1, 9)[0]!;
    const created = await uploadManyStep(t, folderId, 105, (i) => `${token}-${String(i).padStart(3, '0')}.txt`);
    const all = await mustList(t, 'folder.findFiles', folderId, { query: token, maxItems: -1 });
    // 105 matches: the default's 100 tell maxItems=-1 from no maxItems.
    t.judged('folder.findFiles', 'maxItems');
    // "maxItems (int, 100; -1 returns all)"
    if (
      t.record(
        expectSet(
          'PAG-08',
          'findAll',
          created.map((f) => f.id!),
          all,
          'findFiles with maxItems=-1 must return every match',
        ),
      )
    ) {
      const dflt = await mustList(t, 'folder.findFiles', folderId, { query: token });
      t.record(
        expectSequence(
          'PAG-08',
          'findDefault',
          all.ids.slice(0, 100),
          dflt,
          'findFiles without maxItems must return the first 100 of the 105 matches',
        ),
      );
    }
    // 105 files are more than other tests' listings of the sandbox should meet: they go as soon as they are judged.
    await deleteFolderStep(t, folderId);
    const pagesFolder = hasFeature(t, 'pages') ? t.fixture.pagesFolderId : undefined;
    if (pagesFolder === undefined) return;
    const query = await pageQuery(t, pagesFolder);
    if (query === undefined) return t.nothingToJudge('the pages folder holds no page with a name to search for');
    const pages = await mustList(t, 'folder.findPages', pagesFolder, { query, maxItems: -1 });
    const pagesDefault = await mustList(t, 'folder.findPages', pagesFolder, { query });
    t.record(
      expectSequence(
        'PAG-08',
        'findDefault',
        pages.ids.slice(0, 100),
        pagesDefault,
        `findPages without maxItems must return the first min(100, ${pages.ids.length}) matches`,
      ),
    );
  },
  { operation: 'folder.findFiles' },
);

conformance(
  'PAG-09',
  'getPages and getTemplates list every item by default (maxItems -1)',
  async (t) => {
    const cases: { op: 'folder.getPages' | 'folder.getTemplates'; folderId: number; query: Query }[] = [];
    if (hasFeature(t, 'pages') && t.fixture.pagesFolderId !== undefined) {
      cases.push(
        { op: 'folder.getPages', folderId: t.fixture.pagesFolderId, query: {} },
        { op: 'folder.getPages', folderId: t.fixture.pagesFolderId, query: { recursive: true } },
      );
    }
    if (hasFeature(t, 'templates') && t.fixture.templatesFolderId !== undefined) {
      cases.push(
        { op: 'folder.getTemplates', folderId: t.fixture.templatesFolderId, query: {} },
        { op: 'folder.getTemplates', folderId: t.fixture.templatesFolderId, query: { recursive: true } },
      );
    }
    for (const { op, folderId, query } of cases) {
      const all = await mustList(t, op, folderId, { ...query, maxItems: -1 });
      const dflt = await mustList(t, op, folderId, query);
      // "Group L (maxItems default -1)"
      // hasMoreItems true in one default answer is the registry's PAG-09 hasMoreItems rule (fewer items than numItems, PAG-05's).
      t.record(expectSequence('PAG-09', 'defaultAll', all.ids, dflt, `${op} without maxItems must equal maxItems=-1`));
    }
    if (cases.length) t.expectRuled('PAG-09');
  },
  { operation: 'folder.getPages' },
);
