/**
 * Filtering (FLT) of folders and files: Group L `search`, Group P `q`, the timestamp and user filters
 * of Group F, `inherited` in a channel, `recursive`, the file filters of getFiles and GET /file, nice
 * URL regular expressions and the find operations. What the test creates is predicted exactly from the
 * records as the server reports them; the fixture's lists are judged by partitions and subsets.
 */
import fc from 'fast-check';
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureFileFolder, fixtureFileFolders, fixtureTree, hasFeature } from '../../harness/fixture.ts';
import {
  boundFindings,
  described,
  expectIncludes,
  fixtureTops,
  holdsSandbox,
  expectSet,
  expectSubset,
  fetchList,
  idsWhere,
  isListing,
  judged,
  mustList,
  partitionFindings,
  words,
  type Listing,
  type Query,
} from '../../harness/lists.ts';
import { brief, partOf } from '../../harness/oracles.ts';
import { listOf, text } from '../../harness/records.ts';
import {
  channelOf,
  createFolderStep,
  requestingUserStep,
  tryCreateInChannelStep,
  uploadFileStep,
  uploadManyStep,
} from '../../harness/steps.ts';
import { conformance, unseen, type ConformanceContext } from '../../harness/suite.ts';
import type { File, Folder, Page, Template } from '../../schemas/types.ts';
import { termMatches, userTexts } from './terms.ts';

type Listed = File | Folder | Page | Template;

/**
 * A sandbox folder whose files and sub-folders carry names and descriptions of distinct words; the
 * description words are shared by two objects each, so a term matches by name, by description or both.
 */
async function searchWorld(t: ConformanceContext): Promise<number> {
  const folderId = await t.folder();
  const [nameWords, descWords] = [words(t.seed, 10), words(t.seed + 1, 5)];
  const files = await uploadManyStep(t, folderId, 6, (i) => `${nameWords[i]}.txt`);
  // The file's name goes with every save: which members a save needs is not shown (contract 4.1), and a name as it is changes nothing.
  for (const [i, f] of files.entries())
    await t.must('file.save.json', {
      path: { id: f.id! },
      json: { file: { id: f.id!, name: f.name!, description: `about ${descWords[i % 3]}` } },
    });
  for (let i = 6; i < 10; i++) await createFolderStep(t, folderId, nameWords[i]!, { description: `about ${descWords[(i % 2) + 3]}` });
  return folderId;
}

/**
 * Gives files nice and alternate URLs by save (with the name, see searchWorld) and reads them back: the files whose
 * records show what was saved. A server may keep no nice URL a save sets (contract 4.3 shows none written back); then
 * what the URLs would tell is not judged, and the test says so.
 */
async function saveUrls(
  t: ConformanceContext,
  folderId: number,
  urls: { file: File; niceUrl?: string; alternateUrls?: string[] }[],
): Promise<File[]> {
  for (const { file, niceUrl, alternateUrls } of urls)
    await t.must('file.save.json', {
      path: { id: file.id! },
      json: { file: { id: file.id!, name: file.name!, ...(niceUrl ? { niceUrl } : {}), ...(alternateUrls ? { alternateUrls } : {}) } },
    });
  const records = (await mustList(t, 'folder.getFiles', folderId)).records;
  const kept = urls.filter(({ file, niceUrl, alternateUrls }) => {
    const r = records.find((x) => x.id === file.id);
    return (!niceUrl || text(r, 'niceUrl') === niceUrl) && (alternateUrls ?? []).every((u) => listOf(r, 'alternateUrls').includes(u));
  });
  if (kept.length < urls.length)
    t.nothingToJudge(
      `the records of ${brief(urls.filter((u) => !kept.includes(u)).map((u) => u.file.id))} do not show the nice or alternate URLs saved`,
    );
  return kept.map((u) => u.file);
}

/** The words (five letters or more) of a text, so terms come from what the server reports. */
const wordsOf = (text: string | undefined): string[] => (text?.match(/[a-z]{5,}/g) ?? []).filter((w) => w !== 'about');

/** The one-letter search terms: names, descriptions and URLs of the search worlds are lower-case words. */
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];

/** A search term for a property: a word of a name, a word of a description, a part of a name, an id, or a word nobody uses. */
function termArbitrary(
  records: readonly { id?: number; name?: string; description?: string }[],
  extra: readonly string[] = [],
): fc.Arbitrary<string> {
  const names = records.flatMap((r) => wordsOf(r.name));
  const descriptions = records.flatMap((r) => wordsOf(r.description));
  return fc.oneof(
    ...[names, descriptions, extra].filter((ws) => ws.length).map((ws) => ({ weight: 3, arbitrary: fc.constantFrom(...ws) })),
    { weight: 1, arbitrary: fc.constantFrom(...names).map((w) => partOf(w, 1, 3)) },
    { weight: 1, arbitrary: fc.constantFrom(...records.map((r) => String(r.id))) },
    { weight: 1, arbitrary: fc.constant('qqqqqqqqq') },
  );
}

conformance(
  'FLT-01',
  'Group L search lists the items whose id equals the term or whose name or description contains it',
  async (t) => {
    const folderId = await searchWorld(t);
    // Nice and alternate URLs of words of their own on two files: GET /file's q matches them, search must not.
    const urlWords = words(t.seed + 3, 4);
    const urlFiles = await saveUrls(
      t,
      folderId,
      (await mustList(t, 'folder.getFiles', folderId)).records
        .slice(0, 2)
        .map((file, i) => ({ file, niceUrl: `/nice/${urlWords[i]}`, alternateUrls: [`/alt/${urlWords[i + 2]}`] })),
    );
    const all = {
      'folder.getFiles': await mustList(t, 'folder.getFiles', folderId),
      'folder.getFolders': await mustList(t, 'folder.getFolders', folderId),
    };
    const check = (op: keyof typeof all, term: string) => {
      t.judged(op, 'search');
      // "search (string; matches ID, or partial name or description)"
      const expected = idsWhere(all[op].records as Listed[], (r) => termMatches(r as File, term));
      return judged(fetchList(t, op, folderId, { search: term }), (l) =>
        expectSet(
          'FLT-01',
          'search',
          expected,
          l,
          `search=${term} must list the items whose id is ${term} or whose name or description contains it`,
        ),
      );
    };
    // Each way of matching once on each list, then random terms.
    for (const op of Object.keys(all) as (keyof typeof all)[]) {
      const first = all[op].records[0];
      if (!first) continue;
      for (const term of [String(first.id), wordsOf(first.name)[0], wordsOf(first.description)[0]])
        if (term) t.record(await check(op, term));
    }
    // "matches ID, or partial name or description": not a nice or alternate URL (those are q's, GET /file only).
    if (urlFiles.length) for (const term of urlWords) t.record(await check('folder.getFiles', term));
    // Every one-letter term: a part of a name or description however short, and each lists exactly the items holding it.
    for (const op of Object.keys(all) as (keyof typeof all)[]) for (const letter of LETTERS) t.record(await check(op, letter));
    const op = fc.constantFrom('folder.getFiles' as const, 'folder.getFolders' as const);
    await t.property(
      op.chain((o) => fc.record({ op: fc.constant(o), term: termArbitrary(all[o].records as Listed[]) })),
      ({ op, term }) => check(op, term),
      { novel: unseen() },
    );
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'FLT-01',
  "Group L search on getPages and getTemplates lists the fixture's pages and templates whose id, name or description matches",
  async (t) => {
    const lists: { op: 'folder.getPages' | 'folder.getTemplates'; folderId: number; query: Query }[] = [];
    if (hasFeature(t, 'pages') && t.fixture.pagesFolderId !== undefined)
      lists.push({ op: 'folder.getPages', folderId: t.fixture.pagesFolderId, query: { recursive: true } });
    if (hasFeature(t, 'templates') && t.fixture.templatesFolderId !== undefined)
      lists.push({ op: 'folder.getTemplates', folderId: t.fixture.templatesFolderId, query: {} });
    let telling = 0;
    for (const { op, folderId, query } of lists) {
      const records = (await mustList(t, op, folderId, query)).records as Listed[];
      // A term per way of matching, each a run of lower-case letters of a record, so that it matches that record whether or not
      // the server ignores case (the contract does not say); only terms that leave some records out tell a filter from none.
      const first = records.find((r) => wordsOf(r.description).length) ?? records[0];
      const terms = [
        ...(first ? [String(first.id), wordsOf(first.name)[0], wordsOf(first.description)[0]] : []),
        ...records.slice(1, 3).map((r) => wordsOf(r.name)[0]),
      ].filter((term): term is string => term !== undefined);
      for (const term of new Set(terms)) {
        // "search (string; matches ID, or partial name or description)"; without searchcontent, page content is not searched.
        const must = idsWhere(records, (r) => String(r.id) === term || [r.name, r.description].some((x) => x?.includes(term)));
        const may = idsWhere(records, (r) => termMatches(r, term));
        if (may.length < records.length) telling++;
        t.record(
          await judged(fetchList(t, op, folderId, { ...query, search: term }), (l) => [
            ...expectIncludes(
              'FLT-01',
              'search',
              must,
              l,
              `${op} search=${term} must list the items whose id is ${term} or whose name or description contains it`,
            ),
            ...expectSubset(
              'FLT-01',
              'search',
              may,
              l,
              `${op} search=${term} must list only items whose id, name or description matches it`,
            ),
          ]),
        );
      }
      if (terms.length) t.judged(op, 'search');
    }
    if (!telling) t.nothingToJudge('no term of a page or template record matches some of the pages or templates but not all');
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-02',
  'Group P q filters GET /file by id, name, description, niceUrl and alternateUrls, and GET /folder by name',
  async (t) => {
    const folderId = await searchWorld(t);
    const urlWords = words(t.seed + 2, 6);
    const files = (await mustList(t, 'file.list', folderId)).records;
    // Nice and alternate URLs carry words of their own, so a term may match through them only.
    const urlFiles = await saveUrls(
      t,
      folderId,
      files.slice(0, 3).map((file, i) => ({ file, niceUrl: `/nice/${urlWords[i]}`, alternateUrls: [`/alt/${urlWords[i + 3]}`] })),
    );
    const fileRecords = (await mustList(t, 'file.list', folderId)).records;
    const folders = await mustList(t, 'folder.list', folderId);
    const check = (term: string) => {
      // "The list may be filtered by id, name, description, niceUrl, alternateUrls"; an absent member reads as empty (contract 2.1).
      const expected = idsWhere(fileRecords, (f) => termMatches(f, term, [text(f, 'niceUrl'), ...listOf<string>(f, 'alternateUrls')]));
      return judged(fetchList(t, 'file.list', folderId, { q: term }), (l) =>
        expectSet(
          'FLT-02',
          'q',
          expected,
          l,
          `GET /file q=${term} must list the files whose id, name, description, niceUrl or alternateUrls match`,
        ),
      );
    };
    // Each field once, then random terms.
    const first = fileRecords[0]!;
    // The URL words of the files whose records show their URLs: only those can find a file through a URL.
    const shownWords = urlFiles.length ? urlWords.filter((_, i) => urlFiles.includes(files[i % 3]!)) : [];
    for (const term of [
      String(first.id),
      wordsOf(first.name)[0],
      wordsOf(first.description)[0],
      ...shownWords.slice(0, 1),
      ...shownWords.slice(-1),
    ])
      if (term) t.record(await check(term));
    // Every one-letter term, and '/', which only URLs hold: a file without a nice URL has none to match.
    for (const term of [...LETTERS, ...(urlFiles.length ? ['/'] : [])]) t.record(await check(term));
    await t.property(termArbitrary(fileRecords, shownWords), check, { novel: unseen() });
    // GET /folder: "q (string, filter query)": a folder's own name finds it, and the filter only removes folders.
    for (const f of folders.records.slice(0, 2)) {
      const l = await mustList(t, 'folder.list', folderId, { q: f.name });
      t.record([
        ...expectIncludes('FLT-02', 'q', [f.id!], l, `GET /folder q=${f.name} must list the folder of that name`),
        ...expectSubset('FLT-02', 'q', folders.ids, l, 'q must only filter the folder list'),
      ]);
    }
  },
  { operation: 'file.list' },
);

/**
 * The top fixture folder holding no sandbox with the most descendant folders, told by recursive listings (a record may
 * leave `motherId` out: contract 2.1); undefined, said as a part not judged, when none has sub-folders.
 */
async function fixtureFolderTree(t: ConformanceContext): Promise<number | undefined> {
  const best = (await fixtureTops(t, t.fixture.masterRootFolderId)).sort((a, b) => b.below.length - a.below.length)[0];
  if (best?.below.length) return best.id;
  t.notJudged('the folder listings', 'no fixture folder outside the sandbox has sub-folders');
  return undefined;
}

/** A listing with each id once: recursive template listings repeat a template linked into several folders. */
const uniqueIds = <R>(l: Listing<R>): Listing<R> => ({ ...l, ids: [...new Set(l.ids)] });

/** A list FLT-03 and FLT-04 filter: an operation, a folder, fixed parameters, and its unfiltered records. */
interface BaseList {
  op: 'folder.getFiles' | 'folder.getFolders' | 'folder.getPages' | 'folder.getTemplates' | 'file.list' | 'folder.list';
  folderId: number;
  query: Query;
  records: Listed[];
}

/** The fixture lists with varied dates and users: the fixture's deepest folder tree, a file folder, pages, templates (Group L and P). */
async function baseLists(t: ConformanceContext): Promise<BaseList[]> {
  const specs: Omit<BaseList, 'records'>[] = [];
  const tree = await fixtureFolderTree(t);
  if (tree !== undefined)
    specs.push(
      { op: 'folder.getFolders', folderId: tree, query: { recursive: true } },
      { op: 'folder.list', folderId: tree, query: { recursive: true } },
    );
  const files = await fixtureFileFolder(t);
  if (files)
    specs.push({ op: 'folder.getFiles', folderId: files.folderId, query: {} }, { op: 'file.list', folderId: files.folderId, query: {} });
  if (hasFeature(t, 'pages') && t.fixture.pagesFolderId !== undefined)
    specs.push({ op: 'folder.getPages', folderId: t.fixture.pagesFolderId, query: { recursive: true } });
  if (hasFeature(t, 'templates') && t.fixture.templatesFolderId !== undefined)
    specs.push({ op: 'folder.getTemplates', folderId: t.fixture.templatesFolderId, query: {} });
  return Promise.all(specs.map(async (s) => ({ ...s, records: (await mustList(t, s.op, s.folderId, s.query)).records as Listed[] })));
}

const DATE_FILTERS = [
  { param: 'createdsince', key: 'cdate', since: true },
  { param: 'createdbefore', key: 'cdate', since: false },
  { param: 'editedsince', key: 'edate', since: true },
  { param: 'editedbefore', key: 'edate', since: false },
] as const;

conformance(
  'FLT-03',
  'createdbefore/createdsince/editedbefore/editedsince restrict by timestamp; 0 means no restriction',
  async (t) => {
    const lists = await baseLists(t);
    const bound = fc.nat({ max: lists.length - 1 }).chain((which) =>
      fc.record({
        which: fc.constant(which),
        pick: fc.nat({ max: Math.max(0, lists[which]!.records.length - 1) }),
        offset: fc.constantFrom(-1, 0, 1),
        zero: fc.constantFrom(...DATE_FILTERS),
      }),
    );
    await t.property(
      bound,
      async ({ which, pick, offset, zero }) => {
        const { op, folderId, query, records } = lists[which]!;
        // "timestamp filters; 0 means all objects"
        const unrestricted = await fetchList(t, op, folderId, { ...query, [zero.param]: 0 });
        if (!isListing(unrestricted)) return [unrestricted];
        const out = expectSet(
          'FLT-03',
          'zero',
          records.map((r) => r.id!),
          unrestricted,
          `${zero.param}=0 must not restrict`,
        );
        for (const f of DATE_FILTERS) {
          // A page with a custom date may be filtered by either date (contract 2.6 "custom creation date"; open choice
          // custom-dates): judged where the two agree about the bound.
          const custom = f.key === 'cdate' ? 'customCdate' : 'customEdate';
          const stampAt = (bound: number) => (r: Listed) => {
            const real = r[f.key];
            const other = (r as Record<string, unknown>)[custom];
            if (typeof other !== 'number' || other === 0 || typeof real !== 'number') return real;
            return Math.sign(other - bound) === Math.sign(real - bound) ? real : undefined;
          };
          const stamp = (r: Listed) => r[f.key];
          // The pick-th smallest of the filter's own stamps: a bound in the middle of them splits the list for every filter.
          const stamps = records
            .map(stamp)
            .filter((v): v is number => typeof v === 'number')
            .sort((a, b) => a - b);
          const from = stamps[Math.min(pick, stamps.length - 1)];
          if (from === undefined) continue;
          const l = await fetchList(t, op, folderId, { ...query, [f.param]: from + offset });
          if (!isListing(l)) return [l];
          out.push(...boundFindings('FLT-03', f.param, records, stampAt(from + offset), from + offset, f.since, l));
        }
        return out;
      },
      {
        runs: Math.ceil(t.config.runs / 2),
        // In every run, each list bounded in the middle of its stamps: every filter then leaves some items out.
        cover: lists.map((l, which) => ({ which, pick: Math.floor(l.records.length / 2), offset: 0, zero: DATE_FILTERS[0] })),
      },
    );
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'FLT-04',
  'creator/editor patterns and creatorId/editorId restrict by the creating or last editing user',
  async (t) => {
    const lists = (await baseLists(t)).filter(
      (l) => l.records.length && l.records.every((r) => r.creator?.id !== undefined && r.editor?.id !== undefined),
    );
    // The User members of a record are not marked required (contract 2.2): without them there is no user to filter by.
    if (!lists.length) return t.nothingToJudge('no listing gives every record a creator and an editor with an id');
    const users = (l: BaseList, role: 'creator' | 'editor') => [...new Map(l.records.map((r) => [r[role]!.id!, r[role]!])).values()];
    const arb = fc.nat({ max: lists.length - 1 }).chain((which) =>
      fc.record({
        which: fc.constant(which),
        role: fc.constantFrom('creator' as const, 'editor' as const),
        byId: fc.boolean(),
        picks: fc.uniqueArray(fc.nat({ max: 9 }), { minLength: 1, maxLength: 2 }),
      }),
    );
    await t.property(
      arb,
      async ({ which, role, byId, picks }) => {
        const { op, folderId, query, records } = lists[which]!;
        const known = users(lists[which]!, role);
        const chosen = [...new Set(picks.map((p) => known[p % known.length]!))];
        t.judged(op, byId ? `${role}Id` : role);
        if (byId) {
          const ids = chosen.map((u) => u.id!);
          // "creatorId, editorId (int, multivalued): IDs to restrict by creator / editor"
          const expected = idsWhere(records, (r) => ids.includes(r[role]!.id!));
          return judged(fetchList(t, op, folderId, { ...query, [`${role}Id`]: ids }), (l) =>
            expectSet(
              'FLT-04',
              `${role}Id`,
              expected,
              l,
              `${role}Id=${ids.join(',')} must list exactly the items whose ${role} is one of them`,
            ),
          );
        }
        const user = chosen[0]!;
        // "creator, editor (string): pattern to restrict by creator / editor": which texts of a user a pattern is matched
        // against is not shown (open choice user-pattern); the user's login finds them whatever else it is matched against.
        const pattern = text(user, 'login');
        if (!pattern) {
          t.nothingToJudge(`the ${role} records show no login to search for`);
          return [];
        }
        const must = idsWhere(records, (r) => text(r[role], 'login').toLowerCase().includes(pattern.toLowerCase()));
        const may = idsWhere(records, (r) => userTexts(r[role]).some((s) => s.includes(pattern.toLowerCase())));
        return judged(fetchList(t, op, folderId, { ...query, [role]: pattern }), (l) => [
          ...expectIncludes('FLT-04', role, must, l, `${role}=${pattern} must list the items whose ${role}'s login holds ${pattern}`),
          ...expectSubset('FLT-04', role, may, l, `${role}=${pattern} must only list items whose ${role} matches the pattern`),
        ]);
      },
      { cover: tellingCases(lists, users) },
    );
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'FLT-04',
  'iscreator and iseditor restrict to the objects the requesting user created or last edited',
  async (t) => {
    const me = await requestingUserStep(t);
    if (me === undefined) return;
    const lists = (await baseLists(t)).filter(
      (l) => l.records.length && l.records.every((r) => r.creator?.id !== undefined && r.editor?.id !== undefined),
    );
    // Lists every record of which is the requesting user's cannot tell a filter from none.
    const telling = lists.filter((l) => l.records.some((r) => r.creator!.id !== me || r.editor!.id !== me));
    if (!telling.length) return t.nothingToJudge("no listed object of the target's own data is another user's");
    for (const { op, folderId, query, records } of telling) {
      for (const role of ['creator', 'editor'] as const) {
        // Group F: "iscreator, iseditor (boolean, false): only objects created / last edited by the requesting user".
        const flag = role === 'creator' ? 'iscreator' : 'iseditor';
        t.judged(op, flag);
        const expected = idsWhere(records, (r) => r[role]!.id === me);
        t.record(
          await judged(fetchList(t, op, folderId, { ...query, [flag]: true }), (l) =>
            expectSet('FLT-04', flag, expected, l, `${flag}=true must list exactly the items whose ${role} is the requesting user (${me})`),
          ),
        );
      }
    }
  },
  { operation: 'folder.getFiles' },
);

/**
 * The cases every run judges, where the data has them: for each list, role and form (id or pattern), a
 * user whose items in that role are some of the list but not all, so that a filter ignored (everything
 * listed) fails; where there is one, a user whose items as creator are not their items as editor, so
 * that a filter on the other role fails too.
 */
function tellingCases(
  lists: readonly BaseList[],
  users: (l: BaseList, role: 'creator' | 'editor') => { id?: number }[],
): { which: number; role: 'creator' | 'editor'; byId: boolean; picks: number[] }[] {
  return lists.flatMap((l, which) => {
    const as = (role: 'creator' | 'editor', id: number) => idsWhere(l.records, (r) => r[role]!.id === id);
    return (['creator', 'editor'] as const).flatMap((role) => {
      const known = users(l, role);
      const some = known.map((_, i) => i).filter((i) => as(role, known[i]!.id!).length < l.records.length);
      const pick =
        some.find((i) => JSON.stringify(as('creator', known[i]!.id!)) !== JSON.stringify(as('editor', known[i]!.id!))) ?? some[0];
      return pick === undefined ? [] : [true, false].map((byId) => ({ which, role, byId, picks: [pick] }));
    });
  });
}

conformance(
  'FLT-05',
  'inherited=true lists only inherited objects in the channel, false only local and localized ones, unset both',
  async (t) => {
    const channel = channelOf(t);
    const folderId = await t.folder();
    const names = words(t.seed, 8);
    // Master objects are inherited into the channel; those created with the channel's nodeId are local there.
    const master = [...(await uploadManyStep(t, folderId, 2, (i) => `${names[i]}.txt`)), await createFolderStep(t, folderId, names[2]!)];
    // A channel may refuse to create its own objects in a folder it only inherits (open choice
    // channel-create-in-inherited-folder): the split is then judged on the localized copy alone.
    const localFile = await tryCreateInChannelStep(t, 'file', folderId, `${names[3]}.txt`, channel, 'local\n');
    const localFolder = await tryCreateInChannelStep(t, 'folder', folderId, names[4]!, channel);
    if (!localFile || !localFolder)
      t.openChoice(
        'channel-create-in-inherited-folder',
        `the channel did not create its own ${localFile ? 'folder' : 'file'} in folder ${folderId}`,
      );
    // The second master file gets a localized copy in the channel, which the channel lists in its place.
    await t.must('file.localize', { path: { id: master[1]!.id! }, json: { channelId: channel } });
    const copy = (await mustList(t, 'folder.getFiles', folderId, { nodeId: channel })).records.find((f) => f.name === master[1]!.name);
    if (!copy?.id)
      return void t.record([
        finding(
          'FLT-05',
          'step',
          `after localizing file ${master[1]!.id} in channel ${channel}, the channel's listing of folder ${folderId} does not show it`,
        ),
      ]);
    const kinds = [
      { op: 'folder.getFiles' as const, inherited: [master[0]!.id!], local: [...(localFile ? [localFile.id] : []), copy.id] },
      { op: 'file.list' as const, inherited: [master[0]!.id!], local: [...(localFile ? [localFile.id] : []), copy.id] },
      { op: 'folder.getFolders' as const, inherited: [master[2]!.id!], local: localFolder ? [localFolder.id] : [] },
      { op: 'folder.list' as const, inherited: [master[2]!.id!], local: localFolder ? [localFolder.id] : [] },
    ];
    // The channel's own objects are created and localized there: a master view (nodeId ignored) would show none of them.
    t.judged('folder.create', 'nodeId');
    t.judged('file.localize', 'channelId');
    for (const k of kinds) {
      t.judged(k.op, 'nodeId', 'inherited');
      const [unset, yes, no] = await Promise.all(
        [undefined, true, false].map((inherited) => mustList(t, k.op, folderId, { nodeId: channel, inherited })),
      );
      // "inherited (boolean): true: only inherited in the given node; false: only local/localized; unset: both"
      t.record([
        ...expectSet(
          'FLT-05',
          'unset',
          [...k.inherited, ...k.local],
          unset!,
          `${k.op} in the channel without inherited must list inherited, local and localized objects`,
        ),
        ...expectSet(
          'FLT-05',
          'inheritedTrue',
          k.inherited,
          yes!,
          `${k.op} with inherited=true must list only the objects inherited from the master`,
        ),
        ...expectSet(
          'FLT-05',
          'inheritedFalse',
          k.local,
          no!,
          `${k.op} with inherited=false must list only the channel's local and localized objects`,
        ),
      ]);
    }
  },
  { operation: 'folder.getFiles' },
);

/**
 * The fixture folders whose pages (getPages) or templates (getTemplates) the master lists: the pages folder and the
 * folders holding the pages of the master tree, or the templates folder; a bounded look, as vendors' fixtures may be large.
 */
async function pageAndTemplateFolders(
  t: ConformanceContext,
): Promise<{ op: 'folder.getPages' | 'folder.getTemplates'; folderId: number }[]> {
  const out: { op: 'folder.getPages' | 'folder.getTemplates'; folderId: number }[] = [];
  if (hasFeature(t, 'pages')) {
    const scope = (await fixtureTree(t, t.fixture.masterRootFolderId)).ids;
    const pages = await mustList(t, 'folder.getPages', t.fixture.masterRootFolderId, { recursive: true });
    const folders = [...new Set(pages.records.map((p) => p.folderId).filter((id): id is number => id !== undefined && scope.has(id)))];
    out.push(...folders.slice(0, 12).map((folderId) => ({ op: 'folder.getPages' as const, folderId })));
  }
  if (hasFeature(t, 'templates') && t.fixture.templatesFolderId !== undefined)
    out.push({ op: 'folder.getTemplates', folderId: t.fixture.templatesFolderId });
  return out;
}

conformance(
  'FLT-05',
  "getPages and getTemplates with the channel's nodeId list the master's objects as inherited there, and inherited splits them from the channel's own",
  async (t) => {
    const channel = channelOf(t);
    const folders = await pageAndTemplateFolders(t);
    let split = false;
    for (const { op, folderId } of folders) {
      const master = await mustList(t, op, folderId);
      if (!master.records.length) continue;
      const [unset, yes, no] = await Promise.all(
        [undefined, true, false].map((inherited) => mustList(t, op, folderId, { nodeId: channel, inherited })),
      );
      // A master object the channel lists under the master's own id is no localized copy (a copy has an id of its own, contract 2.9
      // LocalizationsResponse): it is inherited there (MCH-01). Objects under other ids are the channel's local and localized ones.
      const masterIds = new Set(master.ids);
      const inherited = [...new Set(unset!.ids.filter((id) => masterIds.has(id)))];
      const local = [...new Set(unset!.ids.filter((id) => !masterIds.has(id)))];
      t.judged(op, 'nodeId');
      if (inherited.length && local.length) {
        split = true;
        t.judged(op, 'inherited');
      }
      // "inherited (boolean): true: only inherited in the given node; false: only local/localized; unset: both"
      t.record([
        ...expectSet(
          'FLT-05',
          'inheritedTrue',
          inherited,
          uniqueIds(yes!),
          `${op} in the channel with inherited=true must list only the master's objects the channel inherits`,
        ),
        ...expectSet(
          'FLT-05',
          'inheritedFalse',
          local,
          uniqueIds(no!),
          `${op} in the channel with inherited=false must list only the channel's local and localized objects`,
        ),
      ]);
    }
    if (!folders.length) return t.nothingToJudge('the fixture names no pages or templates to list in the channel');
    if (!split)
      t.nothingToJudge('no listed folder holds, in the channel, both objects inherited from the master and local or localized ones');
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-06',
  'recursive=true lists the objects of all sub-folders, recursive=false only those of the folder itself',
  async (t) => {
    const top = await t.folder();
    const names = words(t.seed, 9);
    const a = (await createFolderStep(t, top, names[0]!)).id!;
    const b = (await createFolderStep(t, a, names[1]!)).id!;
    const c = (await createFolderStep(t, top, names[2]!)).id!;
    const files: Record<number, number[]> = {};
    for (const [i, folder] of [top, top, a, b, c].entries())
      (files[folder] ??= []).push((await uploadFileStep(t, folder, `${names[3 + i]}.txt`, `file ${i}\n`)).id!);
    const own = files[top]!;
    const everything = Object.values(files).flat();
    // The sandbox folder's own content tells its folderId from any other folder's.
    t.judged('file.list', 'folderId');
    t.judged('folder.list', 'folderId');
    for (const op of ['folder.getFiles', 'file.list', 'folder.getFolders', 'folder.list'] as const) t.judged(op, 'recursive');
    for (const op of ['folder.getFiles', 'file.list'] as const) {
      // "recursive (boolean, false): fetch recursively"
      t.record(
        expectSet(
          'FLT-06',
          'recursive',
          everything,
          await mustList(t, op, top, { recursive: true }),
          `${op} with recursive=true must list the files of the folder and of every sub-folder`,
        ),
      );
      t.record(
        expectSet(
          'FLT-06',
          'notRecursive',
          own,
          await mustList(t, op, top, { recursive: false }),
          `${op} with recursive=false must list only the folder's own files`,
        ),
      );
    }
    for (const op of ['folder.getFolders', 'folder.list'] as const) {
      t.record(
        expectSet(
          'FLT-06',
          'recursive',
          [a, b, c],
          await mustList(t, op, top, { recursive: true }),
          `${op} with recursive=true must list every descendant folder`,
        ),
      );
      t.record(
        expectSet(
          'FLT-06',
          'notRecursive',
          [a, c],
          await mustList(t, op, top),
          `${op} without recursive must list only the direct sub-folders`,
        ),
      );
    }
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'FLT-06',
  'getPages with recursive=true lists the union of the pages of the folder and of each sub-folder',
  async (t) => {
    const pagesFolder = t.fixture.pagesFolderId;
    if (!hasFeature(t, 'pages') || pagesFolder === undefined) return;
    // Read at different moments, the union and the recursive listing differ where tests running beside this one change the sandbox.
    if (await holdsSandbox(t, pagesFolder))
      return t.nothingToJudge("the pages folder holds the run's sandbox, which other tests change while this one reads");
    const subs = (await mustList(t, 'folder.getFolders', pagesFolder, { recursive: true })).ids;
    const union: number[] = [];
    for (const id of [pagesFolder, ...subs]) union.push(...(await mustList(t, 'folder.getPages', id)).ids);
    const recursive = await mustList(t, 'folder.getPages', pagesFolder, { recursive: true });
    if (!union.length && !recursive.ids.length) return t.nothingToJudge('the pages folder and its sub-folders hold no page');
    t.judged('folder.getPages', 'recursive');
    t.record(
      expectSet(
        'FLT-06',
        'union',
        union,
        recursive,
        'getPages with recursive=true must equal the pages of the folder and of all its sub-folders',
      ),
    );
  },
  { feature: 'pages', operation: 'folder.getPages' },
);

/** The boolean file filters of getFiles and GET /file, and the record member each agrees with. */
const FILE_FLAGS: { name: string; member?: (f: File) => boolean | undefined }[] = [
  { name: 'broken', member: (f) => f.broken },
  { name: 'online', member: (f) => f.online },
  { name: 'used' },
];

conformance(
  'FLT-07',
  'getFiles broken, online and used each partition the files (true plus false is unset) and agree with the records',
  async (t) => {
    const folders = await fixtureFileFolders(t);
    // The fixture folder holding a broken file (else an offline one, else the fullest) has something to filter.
    const chosen =
      folders.find((f) => f.files.some((x) => x.broken === true)) ??
      folders.find((f) => f.files.some((x) => x.online === false)) ??
      folders[0];
    if (!chosen) return t.nothingToJudge('no folder of the fixture holds files');
    for (const op of ['folder.getFiles', 'file.list'] as const) {
      const unset = await mustList(t, op, chosen.folderId);
      for (const flag of FILE_FLAGS) {
        t.judged(op, flag.name);
        const yes = await mustList(t, op, chosen.folderId, { [flag.name]: true });
        const no = await mustList(t, op, chosen.folderId, { [flag.name]: false });
        // "broken (boolean; true only broken files, false only non-broken, unset both)", likewise online and used.
        t.record(partitionFindings('FLT-07', `${op} ${flag.name}`, unset, yes, no));
        for (const [value, l] of [
          [true, yes],
          [false, no],
        ] as const) {
          const wrong = l.records.filter((f) => flag.member?.(f) === !value);
          if (wrong.length)
            t.record([
              finding(
                'FLT-07',
                'record',
                `${flag.name}=${value} lists ${brief(wrong.map((f) => f.id))} ` +
                  `whose records say ${flag.name}: ${!value} (${described(l.exchange)})`,
                l.exchange,
              ),
            ]);
        }
      }
    }
    // "used ... false only unused": no file or folder (usage lists) uses a file that used=false lists.
    const unused = (await mustList(t, 'folder.getFiles', chosen.folderId, { used: false })).ids;
    if (unused.length) {
      for (const op of ['file.usage.file', 'file.usage.folder'] as const) {
        const usage = await t.must(op, { query: { id: unused } });
        if ((usage.total ?? 0) > 0)
          t.record([finding('FLT-07', 'used', `used=false lists ${brief(unused)}, but ${op} counts ${usage.total} objects using them`)]);
      }
    }
    const channel = t.fixture.channelNodeId;
    if (!hasFeature(t, 'multichannelling') || channel === undefined) return;
    // "usedIn (int, multivalued; channel IDs extending used)": more channels find at least the same used files.
    const used = await mustList(t, 'folder.getFiles', chosen.folderId, { used: true });
    const usedIn = await mustList(t, 'folder.getFiles', chosen.folderId, { used: true, usedIn: [channel] });
    t.record(
      expectIncludes(
        'FLT-07',
        'usedIn',
        used.ids,
        usedIn,
        `used=true&usedIn=${channel} extends used=true and must keep every file it lists`,
      ),
    );
  },
  { operation: 'folder.getFiles' },
);

/** Anchored regular expressions (so whole-string and find semantics agree) over nice URLs `/<section>/<word>-<n>`. */
function regexArbitrary(sections: string[], names: string[]): fc.Arbitrary<string> {
  const section = fc.constantFrom(...sections);
  const name = fc.constantFrom(...names);
  return fc.oneof(
    section.map((s) => `^/${s}/.*$`),
    name.map((n) => `^.*${n}.*$`),
    name.map((n) => `^/[a-z]+/${n}-[0-9]+$`),
    fc.tuple(name, name).map(([a, b]) => `^(.*${a}.*|.*${b}.*)$`),
    section.map((s) => `^/${s}/[a-z]+-[0-9]{2}$`),
    fc.constant('^.*-[13579]$'),
  );
}

conformance(
  'FLT-08',
  'niceurl is a regular expression matched against the nice URL of getFiles and GET /file',
  async (t) => {
    const folderId = await t.folder();
    const [sections, names] = [words(t.seed, 2, 5), words(t.seed + 1, 4, 6)];
    const files = await uploadManyStep(t, folderId, 8, (i) => `${names[i % 4]}${i}.txt`);
    const kept = await saveUrls(
      t,
      folderId,
      files.map((file, i) => ({ file, niceUrl: `/${sections[i % 2]}/${names[i % 4]}-${i * 7 + (i % 2 ? 1 : 10)}` })),
    );
    if (!kept.length) return;
    const records = (await mustList(t, 'folder.getFiles', folderId)).records;
    await t.property(
      fc.record({ op: fc.constantFrom('folder.getFiles' as const, 'file.list' as const), niceurl: regexArbitrary(sections, names) }),
      async ({ op, niceurl }) => {
        const re = new RegExp(niceurl);
        // "niceurl (string; regular expression)": every pattern is anchored, so finding a match in the nice URL and matching
        // the whole of it agree (open choice niceurl-match); the files have no alternate URLs (open choice niceurl-alternates).
        const expected = idsWhere(records, (f) => text(f, 'niceUrl') !== '' && re.test(text(f, 'niceUrl')));
        return judged(fetchList(t, op, folderId, { niceurl }), (l) =>
          expectSet('FLT-08', 'regex', expected, l, `niceurl=${niceurl} must list the files whose nice URL matches the regular expression`),
        );
      },
      { novel: unseen() },
    );
    // "niceurl (string; regular expression)": one that does not compile, over records that have nice URLs, is refused or
    // answered, never with a server error (ENV-08, which the judge applies to every answer); getPages too, on the pages.
    for (const op of ['folder.getFiles', 'file.list'] as const) await fetchList(t, op, folderId, { niceurl: '(' });
    if (hasFeature(t, 'pages') && t.fixture.pagesFolderId !== undefined)
      await fetchList(t, 'folder.getPages', t.fixture.pagesFolderId, { recursive: true, niceurl: '(' });
  },
  { operation: 'folder.getFiles' },
);

conformance(
  'FLT-10',
  'findFiles query matches names in the folder and, by default, its sub-folders; folderId=0 searches all folders',
  async (t) => {
    const top = await t.folder();
    const sub = (await createFolderStep(t, top, 'sub')).id!;
    const token = words(t.seed, 1, 10)[0]!;
    // The names start with the query: whether a query is found anywhere in a name or at its start is not shown (open choice
    // find-query-match), and such a name holds it either way.
    const inTop = await uploadManyStep(t, top, 3, (i) => `${token}${i}.txt`);
    const inSub = await uploadManyStep(t, sub, 2, (i) => `${token}y${i}.txt`);
    await uploadManyStep(t, top, 2, (i) => `other${i}.txt`);
    const [topIds, subIds] = [inTop.map((f) => f.id!), inSub.map((f) => f.id!)];
    t.judged('folder.findFiles', 'folderId', 'recursive', 'query');
    // "query (string; currently only names are searched)", "recursive (boolean, true)", "folderId (int, 0; 0 searches all folders)"
    t.record(
      expectSet(
        'FLT-10',
        'recursiveDefault',
        [...topIds, ...subIds],
        await mustList(t, 'folder.findFiles', top, { query: token, maxItems: -1 }),
        'findFiles without recursive must search the folder and its sub-folders',
      ),
    );
    t.record(
      expectSet(
        'FLT-10',
        'notRecursive',
        topIds,
        await mustList(t, 'folder.findFiles', top, { query: token, recursive: false, maxItems: -1 }),
        'findFiles with recursive=false must search only the folder',
      ),
    );
    t.record(
      expectSet(
        'FLT-10',
        'partOfName',
        [...topIds, ...subIds],
        await mustList(t, 'folder.findFiles', top, { query: token.slice(0, 5), maxItems: -1 }),
        'findFiles must match a part of the name',
      ),
    );
    // A part from inside the names: a server that finds queries anywhere lists them, one that finds prefixes none; neither
    // lists another file.
    t.record(
      expectSubset(
        'FLT-10',
        'partOfName',
        [...topIds, ...subIds],
        await mustList(t, 'folder.findFiles', top, { query: token.slice(2, 7), maxItems: -1 }),
        'findFiles must find only names that hold the query',
      ),
    );
    t.record(
      expectSet(
        'FLT-10',
        'allFolders',
        [...topIds, ...subIds],
        await mustList(t, 'folder.findFiles', undefined, { folderId: 0, query: token, maxItems: -1 }),
        'findFiles with folderId=0 must search every folder',
      ),
    );
  },
  { operation: 'folder.findFiles' },
);

conformance(
  'FLT-10',
  'findPages query matches page names; sub-folders by default, all folders with folderId=0',
  async (t) => {
    const pagesFolder = t.fixture.pagesFolderId;
    if (!hasFeature(t, 'pages') || pagesFolder === undefined) return;
    const own = (await mustList(t, 'folder.getPages', pagesFolder)).records;
    const deep = (await mustList(t, 'folder.getPages', pagesFolder, { recursive: true })).records;
    // Queries are cut from the start of names, never ending in a space: whether a query is found anywhere in a name or at its
    // start (open choice find-query-match), and whether it is trimmed, is not shown; such a query finds its name either way.
    const queryOf = (name: string, length: number) => partOf(name, 0, length).trimEnd();
    const names = deep.map((p) => text(p, 'name')).filter((n) => !/^\s/.test(n) && queryOf(n, 2).length >= 2);
    if (!names.length) return t.nothingToJudge('the pages folder and its sub-folders hold no page whose name starts with two characters');
    const ownIds = new Set(own.map((p) => p.id));
    const inSubFolders = deep.filter((p) => !ownIds.has(p.id) && names.includes(text(p, 'name'))).map((p) => text(p, 'name'));
    t.judged('folder.findPages', 'folderId', 'recursive', 'query');
    await t.property(
      fc.record({ name: fc.constantFrom(...names), length: fc.integer({ min: 2, max: 5 }) }),
      async ({ name, length }) => {
        const query = queryOf(name, length);
        // Every page whose name starts with the query holds it: found under either reading.
        const starting = (pages: readonly Page[]) => idsWhere(pages, (p) => text(p, 'name').startsWith(query));
        const out: Finding[] = [];
        for (const [recursive, pages] of [
          [undefined, deep],
          [false, own],
        ] as const) {
          const l = await fetchList(t, 'folder.findPages', pagesFolder, { query, recursive, maxItems: -1 });
          if (!isListing(l)) return [l];
          const what = `findPages query=${query}${recursive === false ? ' recursive=false' : ''}`;
          out.push(
            ...expectIncludes(
              'FLT-10',
              'query',
              starting(pages),
              l,
              `${what} must find the pages of the searched folders whose name starts with it`,
            ),
          );
          const stray = l.records.filter(
            (p) =>
              !text(p, 'name').toLowerCase().includes(query.toLowerCase()) ||
              (recursive === false && p.folderId !== undefined && p.folderId !== pagesFolder),
          );
          if (stray.length)
            out.push(
              finding(
                'FLT-10',
                'query',
                `${what} found ${brief(stray.map((p) => ({ id: p.id, name: p.name, folderId: p.folderId })))}, ` +
                  `outside the searched folders or without the query in the name (${described(l.exchange)})`,
                l.exchange,
              ),
            );
        }
        const everywhere = await fetchList(t, 'folder.findPages', undefined, { folderId: 0, query, maxItems: -1 });
        if (!isListing(everywhere)) return [everywhere];
        out.push(
          ...expectIncludes(
            'FLT-10',
            'allFolders',
            starting(deep),
            everywhere,
            `findPages folderId=0 query=${query} must search every folder`,
          ),
        );
        return out;
      },
      // A page of a sub-folder alone, in every run where there is one: the case that tells searching sub-folders by default from not.
      {
        cover: inSubFolders.slice(0, 1).map((name) => ({ name, length: 5 })),
        // Names share their starts: a query already searched for sends the same three requests again.
        novel: unseen(({ name, length }) => queryOf(name, length)),
      },
    );
  },
  { feature: 'pages', operation: 'folder.findPages' },
);
