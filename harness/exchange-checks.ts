/**
 * What one exchange shows without state. The proxy and `validate --har` judge traffic they did not
 * send: they cannot compare two answers or predict a model, but one answer of a listing can refute its
 * own request: the returned slice against skipCount/maxItems or page/pageSize and numItems,
 * hasMoreItems against numItems and the slice, the order against sortby/sortorder or sort, deletion
 * marks against wastebin, and the filters whose values the records carry. Every check here is sound:
 * where a record does not show a value, or a parameter has a value the contract gives no meaning to,
 * nothing is judged; where the contract leaves a detail open (name collation, equal keys), every
 * reasonable answer passes, as in the suites.
 */
import type { Operation } from '../schemas/operations.ts';
import { finding, isRefusal, type Finding } from './checks.ts';
import { judge, operationOfExchange, type Judgement } from './judge.ts';
import { deletionMarked, legacySlice, pageSlice, type Slice } from './model.ts';
import { brief, numbersOrdered, stringsOrdered, type Direction } from './oracles.ts';
import type { Exchange } from './transport.ts';

/** A listed record as it came: only the members a check reads are looked at, each by its JSON type. */
type Rec = Record<string, unknown>;

/** How a listing pages: Group L, Group P, the find operations (Group L members, maxItems 100), the usage lists (USE-03). */
type Paging = 'L' | 'P' | 'find' | 'usage';

/** A listing operation: the response member holding the list, how it pages, and whether it takes Group F (wastebin, inherited, timestamps). */
interface ListingSpec {
  member: string;
  paging: Paging;
  groupF: boolean;
}

// The set of operations is wider than harness/lists.ts's (the usage lists and the POST form of getFolders page too).
const LISTINGS: Record<string, ListingSpec> = {
  'folder.list': { member: 'items', paging: 'P', groupF: true },
  'file.list': { member: 'items', paging: 'P', groupF: true },
  'folder.getFiles': { member: 'files', paging: 'L', groupF: true },
  'folder.getFolders': { member: 'folders', paging: 'L', groupF: true },
  'folder.getFolders.post': { member: 'folders', paging: 'L', groupF: true },
  'folder.getPages': { member: 'pages', paging: 'L', groupF: true },
  'folder.getTemplates': { member: 'templates', paging: 'L', groupF: true },
  'folder.findFiles': { member: 'files', paging: 'find', groupF: false },
  'folder.findPages': { member: 'pages', paging: 'find', groupF: false },
  'file.usage.file': { member: 'files', paging: 'usage', groupF: false },
  'file.usage.folder': { member: 'folders', paging: 'usage', groupF: false },
};

/** FolderListRequest members (the body of POST /folder/getFolders) under the query parameter names they stand for. */
const BODY_NAMES: Record<string, string> = {
  skipCount: 'skipCount',
  maxItems: 'maxItems',
  sortBy: 'sortby',
  sortOrder: 'sortorder',
  search: 'search',
  wastebin: 'wastebin',
  inherited: 'inherited',
  tree: 'tree',
  createdBefore: 'createdbefore',
  createdSince: 'createdsince',
  editedBefore: 'editedbefore',
  editedSince: 'editedsince',
};

/**
 * The parameters of a listing request, from its query or (POST /folder/getFolders) its JSON body. A
 * parameter given twice, or with a value of the wrong form, reads as `null`: not judged, since what a
 * server makes of it is robustness (NEG-02), not the rule a check enforces.
 */
export class ListParams {
  private constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  /** The parameters of an exchange's request; undefined when its body cannot be read. */
  static of(exchange: Exchange, operation: string): ListParams | undefined {
    const values = new Map<string, string[]>();
    const add = (name: string, value: string) => values.set(name, [...(values.get(name) ?? []), value]);
    if (operation === 'folder.getFolders.post') {
      const body = exchange.request.body;
      if (body?.kind !== 'json') return undefined;
      let json: unknown;
      try {
        json = JSON.parse(body.text);
      } catch {
        return undefined;
      }
      if (!isRecord(json)) return undefined;
      for (const [member, name] of Object.entries(BODY_NAMES)) {
        const v = json[member];
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') add(name, String(v));
      }
      return new ListParams(values);
    }
    let url: URL;
    try {
      url = new URL(exchange.request.url);
    } catch {
      return undefined;
    }
    for (const [name, value] of url.searchParams) add(name, value);
    return new ListParams(values);
  }

  /** Parameters from a plain map (tests). */
  static from(query: Record<string, string | readonly string[]>): ListParams {
    return new ListParams(new Map(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? [v] : [...v]])));
  }

  /** The one value of a parameter; undefined when absent, null when given more than once. */
  text(name: string): string | undefined | null {
    const v = this.values.get(name);
    if (!v) return undefined;
    return v.length === 1 ? v[0]! : null;
  }

  /** An integer parameter; null when repeated or not an integer. */
  int(name: string): number | undefined | null {
    const v = this.text(name);
    if (v === undefined || v === null) return v;
    return /^-?\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : null;
  }

  /** A boolean parameter (`true` or `false`); null for any other spelling. */
  bool(name: string): boolean | undefined | null {
    const v = this.text(name);
    if (v === undefined || v === null) return v;
    return v === 'true' ? true : v === 'false' ? false : null;
  }

  /** A multivalued integer parameter (contract 2.1: "may be given several times"); null when a value is not an integer. */
  ints(name: string): number[] | undefined | null {
    const v = this.values.get(name);
    if (!v) return undefined;
    return v.every((x) => /^-?\d+$/.test(x)) ? v.map(Number) : null;
  }
}

const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A member of a nested record, e.g. `template.name`, when both levels are there. */
const nested = (v: unknown, member: string): unknown => (isRecord(v) ? v[member] : undefined);

/** What the stateless checks found in one exchange, and which requirements they judged (found or not). */
export interface ExchangeCheckResult {
  findings: Finding[];
  checked: string[];
}

/** One listing answer under judgement. */
interface Listed {
  op: string;
  spec: ListingSpec;
  exchange: Exchange;
  params: ListParams;
  /** The list member as sent, and its elements that are records. */
  length: number;
  records: Rec[];
  numItems?: number;
  hasMoreItems?: boolean;
  out: Finding[];
  checked: Set<string>;
}

function fail(l: Listed, requirement: string, check: string, message: string): void {
  // One deviation per operation and check: the key leaves out the values that vary from answer to answer.
  l.out.push({ ...finding(requirement, check, `${l.op}: ${message}`, l.exchange), key: `${requirement}|${l.op}|${check}` });
}

const idsOf = (records: readonly Rec[]): string => brief(records.map((r) => r.id ?? r.name ?? '?'));

/** The positions a slice covers, for messages: "items 3..5 (3 items)", "no items". */
function positions(slice: Slice): string {
  const n = slice.end - slice.start;
  if (n === 0) return 'no items';
  return n === 1 ? `item ${slice.end} (1 item)` : `items ${slice.start + 1}..${slice.end} (${n} items)`;
}

// ---------------------------------------------------------------------------------------------
// Paging

/** Group L, the find operations and the usage lists: skipCount and maxItems. */
function legacyPaging(l: Listed): void {
  const skip = l.params.int('skipCount');
  const max = l.params.int('maxItems');
  // Negative skipCount and maxItems below -1 have no meaning in the contract: robustness, not judged here.
  if (skip === null || max === null || (skip ?? 0) < 0 || (max ?? -1) < -1) return;
  const find = l.spec.paging === 'find';
  const s = skip ?? 0;
  // Contract 8: maxItems "default -1 (all items)" for Group L, "default 100; -1 returns all" for findFiles/findPages.
  const m = max ?? (find ? 100 : -1);
  // The defaults have requirements of their own (PAG-06, PAG-08, PAG-09); a skipCount or maxItems given is PAG-07's rule.
  let requirement = 'PAG-07';
  if (l.spec.paging === 'usage') requirement = 'USE-03';
  else if (find && skip === undefined && (max === undefined || max < 0)) requirement = 'PAG-08';
  else if (!find && skip === undefined && max === undefined)
    requirement = l.op === 'folder.getPages' || l.op === 'folder.getTemplates' ? 'PAG-09' : 'PAG-06';
  const asked = `skipCount=${s}${skip === undefined ? ' (default)' : ''}&maxItems=${m}${max === undefined ? ' (default)' : ''}`;
  l.checked.add(requirement);
  // PAG-07: "skipCount=s&maxItems=m returns items s+1 .. s+m of the full ordered list; maxItems=0 returns none."
  if (m >= 0 && l.length > m) {
    fail(
      l,
      requirement,
      'slice',
      m === 0
        ? `maxItems=0 returns none, but ${l.length} items were returned (${asked})`
        : `${l.length} items were returned, more than maxItems=${m} (${asked})`,
    );
  } else if (l.numItems !== undefined) {
    // PAG-05: "numItems is the number of items matching the filters before paging", so the slice is fixed by it.
    const slice = legacySlice(l.numItems, s, m);
    if (l.length !== slice.end - slice.start) {
      fail(
        l,
        requirement,
        'slice',
        `${l.length} items were returned, but with numItems ${l.numItems} (the items matching before paging) ${asked} selects ${positions(slice)}; either the slice or numItems is wrong`,
      );
    }
  }
  hasMoreItems(l, (total) => legacySlice(total, s, m), m, asked, m < 0);
}

/** Group P: page and pageSize. */
function pagePaging(l: Listed): void {
  const page = l.params.int('page');
  const size = l.params.int('pageSize');
  if (page === null || size === null || (page ?? 1) < 1 || (size ?? -1) < -1) return;
  const k = page ?? 1;
  const z = size ?? -1;
  // Contract 4.1 Group P: "page (int, 1; paging starts at 1), pageSize (int, -1; -1 means no paging, 0 returns no items)".
  const requirement = z < 0 ? 'PAG-01' : z === 0 ? 'PAG-02' : 'PAG-03';
  const asked = `page=${k}${page === undefined ? ' (default)' : ''}&pageSize=${z}${size === undefined ? ' (default)' : ''}`;
  l.checked.add(requirement);
  if (z >= 0 && l.length > z) {
    fail(
      l,
      requirement,
      'slice',
      z === 0
        ? `pageSize=0 returns no items, but ${l.length} items were returned (${asked})`
        : `${l.length} items were returned, more than pageSize=${z} (${asked})`,
    );
  } else if (l.numItems !== undefined) {
    // PAG-03: "page=k&pageSize=n returns items (k-1)n+1 .. kn of the full ordered list"; PAG-01: pageSize absent, all items.
    const slice = pageSlice(l.numItems, k, z);
    if (l.length !== slice.end - slice.start) {
      fail(
        l,
        requirement,
        'slice',
        `${l.length} items were returned, but with numItems ${l.numItems} (the items matching before paging) ${asked} selects ${positions(slice)}; either the slice or numItems is wrong`,
      );
    }
  }
  if (z < 0 && l.hasMoreItems !== undefined) {
    // PAG-01: "pageSize absent (= -1): all items, no paging; hasMoreItems false."
    if (l.hasMoreItems)
      fail(
        l,
        'PAG-01',
        'hasMoreItems',
        `hasMoreItems is true on an unpaged list (${asked}): without paging no items lie beyond the answer`,
      );
    return;
  }
  hasMoreItems(l, (total) => pageSlice(total, k, z), z, asked, false);
}

/**
 * PAG-05: "hasMoreItems is true exactly when items exist beyond the returned slice." With numItems the
 * slice's end is known; without it, a true hasMoreItems still needs a full slice and a limit.
 */
function hasMoreItems(l: Listed, sliceOf: (total: number) => Slice, limit: number, asked: string, unlimited: boolean): void {
  if (l.hasMoreItems === undefined) return;
  l.checked.add('PAG-05');
  if (l.numItems !== undefined) {
    const slice = sliceOf(l.numItems);
    if (l.hasMoreItems !== slice.hasMoreItems) {
      const beyond = slice.hasMoreItems ? `items ${slice.end + 1}..${l.numItems} lie beyond it` : 'no item lies beyond it';
      fail(
        l,
        'PAG-05',
        'hasMoreItems',
        `hasMoreItems is ${l.hasMoreItems}, but with numItems ${l.numItems} the slice ${asked} ends at item ${slice.end}, so ${beyond}`,
      );
    }
  } else if (l.hasMoreItems && unlimited) {
    fail(
      l,
      'PAG-05',
      'hasMoreItems',
      `hasMoreItems is true, but ${asked} sets no limit: every item from the first one asked for was returned`,
    );
  } else if (l.hasMoreItems && limit >= 0 && l.length < limit) {
    fail(
      l,
      'PAG-05',
      'hasMoreItems',
      `hasMoreItems is true, but only ${l.length} items were returned of the ${limit} asked for (${asked}): a slice with items beyond it is full`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Ordering

/** A sort key of a record; a record whose key is undefined is left out of the order check. */
type Key = (r: Rec) => unknown;

/**
 * Group L `sortby` values (contract 4.1: "one of name, cdate, edate, pdate, filename, template,
 * folder, masterNode, priority, excluded, deletedat") and the record members that show them; where
 * the contract does not say whether the order follows a name or an id, either one passes.
 */
const LEGACY_KEYS: Record<string, Key[]> = {
  name: [(r) => r.name],
  cdate: [(r) => r.cdate],
  edate: [(r) => r.edate],
  pdate: [(r) => r.pdate],
  filename: [(r) => r.fileName],
  template: [(r) => nested(r.template, 'name'), (r) => r.templateId],
  folder: [(r) => nested(r.folder, 'name'), (r) => r.folderId],
  masterNode: [(r) => r.masterNode, (r) => r.masterNodeId],
  priority: [(r) => r.priority],
  excluded: [(r) => r.excluded],
  deletedat: [(r) => nested(r.deleted, 'at')],
};

/** The attributes GET /file sorts by (SRT-05: "GET /file sorts by id, name, niceUrl, alternateUrls, fileSize, fileType"). */
const FILE_SORT = new Set(['id', 'niceUrl', 'alternateUrls', 'fileSize', 'fileType']);

/** A Group P sort attribute as a key: the record member of that name; alternateUrls by its alphabetically first URL. */
function attributeKey(name: string): Key {
  if (name === 'alternateUrls')
    return (r) =>
      Array.isArray(r.alternateUrls) && r.alternateUrls.length ? [...(r.alternateUrls as unknown[])].map(String).sort()[0] : undefined;
  return (r) => r[name];
}

/**
 * Whether values are in order under some reasonable collation; undefined and null are left out, and
 * values of mixed JSON types are not judged (the judge reports such a record's shape).
 */
function ordered(values: readonly unknown[], dir: Direction): boolean {
  const present = values.filter((v) => v !== undefined && v !== null);
  if (present.every((v) => typeof v === 'string')) return stringsOrdered(present as string[], dir);
  if (present.every((v) => typeof v === 'number' || typeof v === 'boolean')) return numbersOrdered(present as (number | boolean)[], dir);
  return true;
}

/** Splits records into runs of equal key values (exactly equal: a tie under every collation); a record without the key ends a run. */
function runsOf(records: readonly Rec[], key: Key): Rec[][] {
  const runs: Rec[][] = [];
  let last: unknown = undefined;
  for (const r of records) {
    const v = key(r);
    const tail = runs[runs.length - 1];
    if (tail && v !== undefined && v !== null && v === last) tail.push(r);
    else runs.push([r]);
    last = v;
  }
  return runs;
}

/**
 * The first attribute of a multi-key order that the records break, or undefined. Later attributes are
 * judged only within runs whose earlier keys are exactly equal: ties under a looser collation may be
 * broken either way without the check knowing, so it only ever judges less, never wrongly.
 */
function brokenAttribute(
  records: readonly Rec[],
  specs: readonly { name: string; keys: Key[]; dir: Direction }[],
): { name: string; dir: Direction; values: unknown[] } | undefined {
  let groups: Rec[][] = [[...records]];
  for (const spec of specs) {
    for (const group of groups) {
      if (group.length < 2) continue;
      if (!spec.keys.some((key) => ordered(group.map(key), spec.dir)))
        return { name: spec.name, dir: spec.dir, values: group.map(spec.keys[0]!).filter((v) => v !== undefined) };
    }
    groups = groups.flatMap((g) => runsOf(g, spec.keys[0]!));
  }
  return undefined;
}

/** Group L and the usage lists: sortby and sortorder. */
function legacyOrder(l: Listed): void {
  const sortby = l.params.text('sortby');
  const sortorder = l.params.text('sortorder');
  if (sortby === null || sortorder === null) return;
  const attribute = sortby ?? 'name';
  // An attribute the contract does not list (or spells otherwise) may be refused or fall back: not judged.
  const keys = Object.hasOwn(LEGACY_KEYS, attribute) ? LEGACY_KEYS[attribute]! : undefined;
  if (!keys) return;
  // "sortorder (string, asc; asc or desc, other strings ignored)": "DESC" is neither desc nor plainly another string.
  if (sortorder !== undefined && sortorder !== 'desc' && sortorder.trim().toLowerCase() === 'desc') return;
  const dir: Direction = sortorder === 'desc' ? 'desc' : 'asc';
  const requirement =
    l.spec.paging === 'usage' ? 'USE-03' : attribute !== 'name' ? 'SRT-03' : sortorder !== undefined ? 'SRT-02' : 'SRT-01';
  l.checked.add(requirement);
  const broken = brokenAttribute(l.records, [{ name: attribute, keys, dir }]);
  if (broken) {
    const asked = `${sortby === undefined ? 'sortby absent (name)' : `sortby=${sortby}`}, ${sortorder === undefined ? 'sortorder absent (asc)' : `sortorder=${sortorder}`}`;
    // SRT-01 "Group L default order is by name ascending"; SRT-02 "sortorder=desc reverses; any other sortorder string is ignored"; SRT-03 the other sortby attributes.
    fail(
      l,
      requirement,
      'order',
      `the items are not in ${dir === 'asc' ? 'ascending' : 'descending'} order of ${attribute} (${asked}): ${brief(broken.values, 12)}`,
    );
  }
}

/** Group P: sort, a comma list of attributes each optionally prefixed + or -. */
function pageOrder(l: Listed): void {
  const sort = l.params.text('sort');
  if (sort === null) return;
  const specs: { name: string; keys: Key[]; dir: Direction }[] = [];
  for (const raw of (sort ?? 'name').split(',')) {
    // An unencoded "+" arrives as a space: both mean ascending.
    const s = raw.trim();
    const name = s.replace(/^[+-]/, '').trim();
    if (!/^[A-Za-z]\w*$/.test(name)) return;
    specs.push({ name, keys: [attributeKey(name)], dir: s.startsWith('-') ? 'desc' : 'asc' });
  }
  const requirement = l.op === 'file.list' && FILE_SORT.has(specs[0]!.name) ? 'SRT-05' : 'SRT-04';
  l.checked.add(requirement);
  const broken = brokenAttribute(l.records, specs);
  if (broken) {
    // SRT-04: "sort is a comma-separated list of attributes, each optionally prefixed + (ascending) or - (descending); default name; later attributes break ties of earlier ones."
    fail(
      l,
      requirement,
      'order',
      `the items are not in ${broken.dir === 'asc' ? 'ascending' : 'descending'} order of ${broken.name} (${sort === undefined ? 'sort absent (name)' : `sort=${sort}`}): ${brief(broken.values, 12)}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Wastebin

/** The deletion members a record carries, for messages. */
const marksOf = (r: Rec): string => ['deleted', 'folderDeleted', 'masterDeleted'].filter((m) => r[m] !== undefined).join('/');

/** wastebin: exclude (default), include, only (contract 4.1 Group F, and section 3). */
function wastebin(l: Listed): void {
  // Template records have no deletion members: a listing of them cannot show what wastebin did.
  if (!l.spec.groupF || l.op === 'folder.getTemplates') return;
  const mode = l.params.text('wastebin');
  if (mode === null) return;
  if (mode === undefined || mode === 'exclude') {
    l.checked.add('WST-01');
    // WST-01: "a deleted item is absent from every listing with wastebin absent or exclude."
    const marked = l.records.filter((r) => deletionMarked(r));
    if (marked.length)
      fail(
        l,
        'WST-01',
        'wastebin',
        `with wastebin ${mode ?? 'absent'} deleted items must be left out, but ${idsOf(marked)} carry deletion marks (${[...new Set(marked.map(marksOf))].join(', ')})`,
      );
  } else if (mode === 'only') {
    l.checked.add('WST-03');
    // WST-03: "wastebin=only lists exactly the deleted items."
    const live = l.records.filter((r) => !deletionMarked(r));
    if (live.length)
      fail(
        l,
        'WST-03',
        'wastebin',
        `wastebin=only must list only deleted items, but ${idsOf(live)} carry no deletion mark (deleted, folderDeleted or masterDeleted)`,
      );
  }
  if (mode === 'include' || mode === 'only') {
    // WST-02: "wastebin=include lists deleted and live items; deleted ones carry deleted with at and by."
    const own = l.records.filter((r) => isRecord(r.deleted) && typeof r.deleted.at === 'number' && r.deleted.at !== 0);
    if (own.length) l.checked.add('WST-02');
    const incomplete = own.filter((r) => !isRecord(nested(r.deleted, 'by')));
    if (incomplete.length)
      fail(
        l,
        'WST-02',
        'deleteInfo',
        `deleted items must carry deleted with at and by, but ${idsOf(incomplete)} carry deleted without a by user`,
      );
  }
}

// ---------------------------------------------------------------------------------------------
// Filters

/** A boolean filter and the record member showing the flag it restricts by. */
interface FlagFilter {
  param: string;
  requirement: string;
  ops: readonly string[];
  quote: string;
}

const FILE_LISTS = ['folder.getFiles', 'file.list'];
const GROUP_F = Object.keys(LISTINGS).filter((op) => LISTINGS[op]!.groupF);

const FLAG_FILTERS: readonly FlagFilter[] = [
  // getFiles: "broken (boolean; true only broken files, false only non-broken, unset both)", "online (boolean; unset both)".
  { param: 'online', requirement: 'FLT-07', ops: FILE_LISTS, quote: 'online (boolean; unset both)' },
  {
    param: 'broken',
    requirement: 'FLT-07',
    ops: FILE_LISTS,
    quote: 'broken (boolean; true only broken files, false only non-broken, unset both)',
  },
  // getPages: "online ... restrict to online / offline", likewise modified, planned, queued.
  { param: 'online', requirement: 'FLT-09', ops: ['folder.getPages'], quote: 'online (boolean, unset): restrict to online / offline' },
  {
    param: 'modified',
    requirement: 'FLT-09',
    ops: ['folder.getPages'],
    quote: 'modified (boolean, unset): restrict to modified / unmodified',
  },
  { param: 'planned', requirement: 'FLT-09', ops: ['folder.getPages'], quote: 'planned (boolean, unset): restrict to planned / unplanned' },
  { param: 'queued', requirement: 'FLT-09', ops: ['folder.getPages'], quote: 'queued (boolean, unset): restrict to queued / unqueued' },
  // Group F: "inherited (boolean): true: only inherited in the given node; false: only local/localized; unset: both".
  {
    param: 'inherited',
    requirement: 'FLT-05',
    ops: GROUP_F,
    quote: 'inherited: true: only inherited in the given node; false: only local/localized',
  },
];

function flagFilters(l: Listed): void {
  for (const f of FLAG_FILTERS) {
    if (!f.ops.includes(l.op)) continue;
    const value = l.params.bool(f.param);
    if (value === undefined || value === null) continue;
    l.checked.add(f.requirement);
    const wrong = l.records.filter((r) => r[f.param] === !value);
    if (wrong.length)
      fail(l, f.requirement, f.param, `${f.param}=${value} ("${f.quote}") lists ${idsOf(wrong)}, whose records say ${f.param}: ${!value}`);
  }
}

/** Timestamp bounds: "since" drops earlier items, "before" later ones; an item stamped at the bound may go either way. */
const BOUNDS: readonly { param: string; member: string; since: boolean; requirement: string; ops: readonly string[] }[] = [
  // Group F: "createdbefore, createdsince ... editedbefore, editedsince (int, 0): timestamp filters; 0 means all objects".
  { param: 'createdsince', member: 'cdate', since: true, requirement: 'FLT-03', ops: GROUP_F },
  { param: 'createdbefore', member: 'cdate', since: false, requirement: 'FLT-03', ops: GROUP_F },
  { param: 'editedsince', member: 'edate', since: true, requirement: 'FLT-03', ops: GROUP_F },
  { param: 'editedbefore', member: 'edate', since: false, requirement: 'FLT-03', ops: GROUP_F },
  // getPages: "publishedbefore, publishedsince (int, 0): timestamp filters; 0 means all".
  { param: 'publishedsince', member: 'pdate', since: true, requirement: 'FLT-09', ops: ['folder.getPages'] },
  { param: 'publishedbefore', member: 'pdate', since: false, requirement: 'FLT-09', ops: ['folder.getPages'] },
];

function boundFilters(l: Listed): void {
  for (const b of BOUNDS) {
    if (!b.ops.includes(l.op)) continue;
    const bound = l.params.int(b.param);
    // 0 means no restriction; a negative bound has no meaning in the contract.
    if (bound === undefined || bound === null || bound <= 0) continue;
    l.checked.add(b.requirement);
    const wrong = l.records.filter(
      (r) => typeof r[b.member] === 'number' && (b.since ? (r[b.member] as number) < bound : (r[b.member] as number) > bound),
    );
    if (wrong.length)
      fail(
        l,
        b.requirement,
        b.param,
        `${b.param}=${bound} must drop the items with ${b.member} ${b.since ? 'before' : 'after'} ${bound}, but lists ${brief(wrong.map((r) => `${String(r.id)} (${b.member} ${String(r[b.member])})`))}`,
      );
  }
}

/** Value filters whose value a record shows: "lists exactly the items with ...", so a listed item with another value refutes it. */
function valueFilters(l: Listed): void {
  for (const [param, role] of [
    ['creatorId', 'creator'],
    ['editorId', 'editor'],
  ] as const) {
    if (!l.spec.groupF) break;
    const ids = l.params.ints(param);
    if (!ids) continue;
    l.checked.add('FLT-04');
    // Group F: "creatorId, editorId (int, multivalued): IDs to restrict by creator / editor".
    const wrong = l.records.filter((r) => typeof nested(r[role], 'id') === 'number' && !ids.includes(nested(r[role], 'id') as number));
    if (wrong.length)
      fail(
        l,
        'FLT-04',
        param,
        `${param}=${ids.join(',')} must restrict to items whose ${role} is one of them, but lists ${brief(wrong.map((r) => `${String(r.id)} (${role} ${String(nested(r[role], 'id'))})`))}`,
      );
  }
  if (l.op !== 'folder.getPages') return;
  const templates = l.params.ints('template_id');
  if (templates) {
    l.checked.add('FLT-09');
    // getPages: "template_id (int, multivalued): template IDs".
    const wrong = l.records.filter((r) => typeof r.templateId === 'number' && !templates.includes(r.templateId));
    if (wrong.length)
      fail(
        l,
        'FLT-09',
        'template_id',
        `template_id=${templates.join(',')} must list only pages of those templates, but lists ${brief(wrong.map((r) => `${String(r.id)} (templateId ${String(r.templateId)})`))}`,
      );
  }
  const priority = l.params.int('priority');
  if (typeof priority === 'number' && priority !== 0) {
    l.checked.add('FLT-09');
    // getPages: "priority (int, 0): page priority".
    const wrong = l.records.filter((r) => typeof r.priority === 'number' && r.priority !== priority);
    if (wrong.length)
      fail(
        l,
        'FLT-09',
        'priority',
        `priority=${priority} must list only pages of that priority, but lists ${brief(wrong.map((r) => `${String(r.id)} (priority ${String(r.priority)})`))}`,
      );
  }
  const language = l.params.text('language');
  if (typeof language === 'string' && language !== '' && l.params.bool('langfallback') === false) {
    l.checked.add('FLT-09');
    // getPages: "language (string): language code"; "langfallback ... use the highest-priority language variant ... when the page lacks the language" (off here).
    const wrong = l.records.filter((r) => typeof r.language === 'string' && r.language !== language);
    if (wrong.length)
      fail(
        l,
        'FLT-09',
        'language',
        `language=${language}&langfallback=false must list only pages in ${language}, but lists ${brief(wrong.map((r) => `${String(r.id)} (${String(r.language)})`))}`,
      );
  }
  const filename = l.params.text('filename');
  if (typeof filename === 'string' && filename !== '') {
    l.checked.add('FLT-09');
    // getPages: "filename (string): filename search string".
    const wrong = l.records.filter((r) => typeof r.fileName === 'string' && !r.fileName.toLowerCase().includes(filename.toLowerCase()));
    if (wrong.length)
      fail(
        l,
        'FLT-09',
        'filename',
        `filename=${filename} must list only pages whose file name contains it, but lists ${brief(wrong.map((r) => `${String(r.id)} (${String(r.fileName)})`))}`,
      );
  }
}

/** Whether a text member contains the term, ignoring case; undefined when the record does not show the member. */
function contains(value: unknown, term: string): boolean | undefined {
  if (value === null || value === '') return false;
  return typeof value === 'string' ? value.toLowerCase().includes(term.toLowerCase()) : undefined;
}

/**
 * Whether a record matches a search term through its id or the text members given; undefined when a
 * member the record does not show might have matched.
 */
function matches(r: Rec, term: string, texts: readonly unknown[]): boolean | undefined {
  if (String(r.id) === term || r.globalId === term) return true;
  let unknown = false;
  for (const t of texts) {
    const m = contains(t, term);
    if (m) return true;
    if (m === undefined) unknown = true;
  }
  return unknown ? undefined : false;
}

function searchFilters(l: Listed): void {
  let term: string | undefined;
  let requirement = '';
  let param = '';
  let texts: (r: Rec) => unknown[] = () => [];
  let what = '';
  if (l.spec.paging === 'L' && l.params.bool('searchcontent') !== true) {
    // Group L: "search (string; matches ID, or partial name or description)".
    param = 'search';
    term = l.params.text(param) ?? undefined;
    requirement = 'FLT-01';
    texts = (r) => [r.name, r.description];
    what = 'whose id is the term or whose name or description contains it';
  }
  if (l.spec.paging === 'P') {
    // GET /file: "The list may be filtered by id, name, description, niceUrl, alternateUrls"; GET /folder: "q (string, filter query)".
    param = 'q';
    term = l.params.text(param) ?? undefined;
    requirement = 'FLT-02';
    texts =
      l.op === 'file.list'
        ? (r) => [r.name, r.description, r.niceUrl ?? null, ...(Array.isArray(r.alternateUrls) ? r.alternateUrls : [])]
        : (r) => [r.name, r.description];
    what =
      l.op === 'file.list'
        ? 'whose id is the term or whose name, description, niceUrl or alternateUrls contain it'
        : 'whose id is the term or whose name or description contains it';
  }
  if (l.spec.paging === 'find') {
    // findFiles/findPages: "query (string; currently only names are searched)".
    param = 'query';
    term = l.params.text(param) ?? undefined;
    requirement = 'FLT-10';
    texts = (r) => [r.name];
    what = 'whose name contains it';
  }
  if (!term) return;
  const asked = term;
  l.checked.add(requirement);
  const wrong = l.records.filter((r) => matches(r, asked, texts(r)) === false);
  if (wrong.length)
    fail(
      l,
      requirement,
      param,
      `${param}=${asked} must list only items ${what}, but lists ${brief(wrong.map((r) => `${String(r.id)} ("${String(r.name)}")`))}`,
    );
}

function niceUrlFilter(l: Listed): void {
  if (!['folder.getFiles', 'file.list', 'folder.getPages'].includes(l.op)) return;
  const pattern = l.params.text('niceurl');
  if (!pattern) return;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    // A pattern JavaScript cannot read (possessive quantifiers, inline flags) is not judged.
    return;
  }
  l.checked.add('FLT-08');
  // FLT-08: "niceurl is a regular expression matched against the nice URL"; a match anywhere passes (find, not full match).
  const wrong = l.records.filter(
    (r) =>
      typeof r.niceUrl === 'string' &&
      !re.test(r.niceUrl) &&
      !(Array.isArray(r.alternateUrls) && r.alternateUrls.some((u) => typeof u === 'string' && re.test(u))),
  );
  if (wrong.length)
    fail(
      l,
      'FLT-08',
      'niceurl',
      `niceurl=${pattern} must list only items whose nice URL matches it, but lists ${brief(wrong.map((r) => `${String(r.id)} (${String(r.niceUrl)})`))}`,
    );
}

/**
 * The stateless checks of one listing answer: paging, order, wastebin marks and filters, each naming
 * its requirement. Only a served success with a JSON list is judged; refusals and shapes are the judge's.
 */
export function checkListing(exchange: Exchange, operation: string): ExchangeCheckResult {
  const spec = LISTINGS[operation];
  const res = exchange.response;
  if (!spec || !res || res.status >= 400 || res.truncated || res.jsonError !== undefined || isRefusal(exchange) || !isRecord(res.json))
    return { findings: [], checked: [] };
  const list = res.json[spec.member];
  const params = ListParams.of(exchange, operation);
  // tree=true nests sub-folders under their parents: the list is a tree, not the slice the rules speak of.
  if (!Array.isArray(list) || !params || params.bool('tree') === true) return { findings: [], checked: [] };
  const numItems = res.json.numItems;
  const l: Listed = {
    op: operation,
    spec,
    exchange,
    params,
    length: list.length,
    records: list.filter(isRecord),
    ...(typeof numItems === 'number' && Number.isInteger(numItems) && numItems >= 0 ? { numItems } : {}),
    ...(typeof res.json.hasMoreItems === 'boolean' ? { hasMoreItems: res.json.hasMoreItems } : {}),
    out: [],
    checked: new Set(),
  };
  if (spec.paging === 'P') {
    pagePaging(l);
    pageOrder(l);
  } else {
    legacyPaging(l);
    if (spec.paging !== 'find') legacyOrder(l);
  }
  wastebin(l);
  flagFilters(l);
  boundFilters(l);
  valueFilters(l);
  searchFilters(l);
  niceUrlFilter(l);
  return { findings: l.out, checked: [...l.checked].sort() };
}

/** What the one judge and the stateless checks made of an exchange someone else sent. */
export interface Observation {
  /** The operation of the contract the request belongs to. */
  operation: Operation;
  /** True when the judge validated the body against a schema. */
  validated: boolean;
  /** The judge's findings: status, content type, envelope, schema, unknown members, ENV-08. */
  judged: Finding[];
  /** The stateless checks' findings. */
  checks: Finding[];
  /** Both, the judge's first. */
  findings: Finding[];
  /** Requirements whose stateless checks applied to the exchange, whether they found something or not. */
  checked: string[];
}

/**
 * Judges an exchange the suite did not send (the proxy's traffic, a HAR capture): the one judge, then
 * the stateless checks. Undefined for a request that is no operation of the contract (a page's
 * assets, another API under the same host): the contract says nothing about those answers.
 */
export function observe(exchange: Exchange, options: { strict?: boolean } = {}): Observation | undefined {
  const operation = operationOfExchange(exchange);
  if (!operation) return undefined;
  const judged: Judgement = judge(exchange, { operation: operation.id, strict: options.strict ?? false });
  const own = checkListing(exchange, operation.id);
  return {
    operation,
    validated: judged.validated,
    judged: judged.findings,
    checks: own.findings,
    findings: [...judged.findings, ...own.findings],
    checked: own.checked,
  };
}

/** A finding as one line, the same in the proxy's live output and in `validate --har`: severity, requirement, check, message. */
export function findingLine(f: Finding): string {
  return `${f.severity} ${f.requirement} ${f.check}: ${f.message}`;
}

/** The exchange of a finding as one line: `METHOD URL -> status` (or the transport error). */
export function exchangeLine(exchange: Exchange): string {
  const outcome = exchange.response ? String(exchange.response.status) : (exchange.error?.code ?? 'no answer');
  return `${exchange.request.method} ${exchange.request.url} -> ${outcome}`;
}
