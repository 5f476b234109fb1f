/**
 * The one listing engine of every listing operation: collect a folder's children in a view
 * (recursively if asked, honouring the wastebin mode), filter (Group F, search, query), sort
 * (Group L `sortby`/`sortorder`, Group P `sort`), count, then page (Group L skip/max, Group P page/size).
 * The file listings read sorted views kept per folder, view and order until the store changes
 * (sortedListing), so that a page of a large folder neither collects nor sorts it again.
 */
import {
  masterDeleted,
  masterVariant,
  parentInView,
  resolveInView,
  type ChildKind,
  type FileObj,
  type FolderObj,
  type Obj,
  type PageObj,
  type State,
  type View,
} from '../state.ts';
import type { FaultSet, OpRequest } from '../types.ts';
import { qBool, qInt, qInts, qStr, type Wastebin } from './common.ts';
import type { ObjectFilter, SortKey, SortValue, Walk } from './listing-types.ts';
import * as planted from './planted/listing.ts';

export type { ObjectFilter, SortKey, Walk } from './listing-types.ts';

/** The objects of one kind. */
export type ObjOf<K extends ChildKind> = K extends 'folder' ? FolderObj : K extends 'page' ? PageObj : FileObj;

/** A walk with what the switched-on planted faults overlook. */
export function walkOf(view: View, recursive: boolean, wastebin: Wastebin, faults: FaultSet, extra: Partial<Walk> = {}): Walk {
  return planted.listing(faults).walk.walk({ view, recursive, wastebin, ...extra });
}

/** Keeps an object by its deletion state under a wastebin mode. */
export function wastebinKeeps(mode: Wastebin, deleted: boolean): boolean {
  return mode === 'include' || (mode === 'only') === deleted;
}

/**
 * The children of one kind of a folder as the view sees them, in store order; with `recursive`, those
 * of every sub-folder too. Objects inside a deleted folder count as deleted (they carry folderDeleted).
 */
export function collectChildren<K extends ChildKind>(
  state: State,
  folder: FolderObj,
  kind: K,
  walk: Walk,
  startDeleted = false,
): ObjOf<K>[] {
  const out: ObjOf<K>[] = [];
  const { view } = walk;
  const isDeleted = (o: Obj) => o.deleted !== undefined && !walk.ignoreDeletion?.(o, view);
  // The contract sets no depth limit: only a folder met twice (a cycle no operation can make) ends a branch.
  const seen = new Set<number>();
  const visit = (f: FolderObj, above: boolean, depth: number) => {
    const own = above || isDeleted(f);
    const idx = state.children.get(f.channelSetId);
    if (!idx || seen.has(f.channelSetId)) return;
    seen.add(f.channelSetId);
    for (const set of idx[kind]) {
      const v = resolveInView(state, set, view, walk.ignoreRestrictions);
      if (!v) continue;
      const deleted = own || isDeleted(v) || masterDeleted(state, v) !== undefined;
      if (wastebinKeeps(walk.wastebin, deleted)) out.push(v as ObjOf<K>);
    }
    if (!walk.recursive || (walk.maxDepth !== undefined && depth >= walk.maxDepth)) return;
    for (const set of idx.folder) {
      const sub = resolveInView(state, set, view, walk.ignoreRestrictions) as FolderObj | undefined;
      if (!sub) continue;
      if (walk.wastebin === 'exclude' && (own || isDeleted(sub))) continue;
      if (walk.descend && !walk.descend(sub)) continue;
      visit(sub, own, depth + 1);
    }
  };
  visit(folder, startDeleted, 0);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Filters

/** Reads the Group F filters (and `search`/`q`) from a request's query. */
export function filterFromQuery(req: OpRequest): ObjectFilter {
  return {
    createdbefore: qInt(req, 'createdbefore', 0),
    createdsince: qInt(req, 'createdsince', 0),
    editedbefore: qInt(req, 'editedbefore', 0),
    editedsince: qInt(req, 'editedsince', 0),
    creator: qStr(req, 'creator'),
    editor: qStr(req, 'editor'),
    creatorIds: qInts(req, 'creatorId'),
    editorIds: qInts(req, 'editorId'),
    iscreator: qBool(req, 'iscreator', false),
    iseditor: qBool(req, 'iseditor', false),
    inherited: qBool(req, 'inherited'),
    search: qStr(req, 'search'),
    q: qStr(req, 'q'),
  };
}

/** Ids of the users whose login, first name, last name or full name contains the pattern, ignoring case. */
export function usersMatching(state: State, pattern: string, faults: FaultSet): Set<number> {
  const plan = planted.listing(faults).filter;
  const p = pattern.toLowerCase();
  const ids = new Set<number>();
  for (const u of state.users.values()) {
    const texts = plan.userTexts([u.login, u.firstName, u.lastName, `${u.firstName} ${u.lastName}`], u);
    if (texts.some((s) => s.toLowerCase().includes(p))) ids.add(u.id);
  }
  return ids;
}

/** An object's creation or edit date as the date filters and orders read it: the stored one. */
export function effectiveDate(o: Obj, which: 'cdate' | 'edate', faults: FaultSet): number {
  return planted.listing(faults).filter.date(o[which], o, which);
}

/** Extra text a `q` query matches per kind (contract 4.3: GET /file filters by niceUrl and alternateUrls too). */
function queryText(o: Obj): string[] {
  if (o.kind === 'file' || o.kind === 'image') return [o.niceUrl ?? '', ...(o.alternateUrls ?? [])];
  if (o.kind === 'folder') return [o.publishDir];
  return [];
}

/** Whether an object matches a search term: its id equals it, or its name, description (or with `extra` q's texts) contain it. */
function matchesTerm(o: Obj, term: string, extra: boolean, plan: planted.FilterPlan): boolean {
  const t = term.toLowerCase();
  if (String(o.id) === term.trim()) return true;
  const urls = extra ? plan.queryTexts(queryText(o), o) : [];
  const texts = [o.name, plan.description(o.description), ...urls];
  return texts.some((s) => s.toLowerCase().includes(t));
}

/**
 * Whether a filter asks for nothing, so that objectPredicate keeps every object whatever the faults
 * (each of its terms is true for such a filter): listings then skip filtering, and copying, altogether.
 */
export function isEmptyFilter(f: ObjectFilter): boolean {
  return (
    f.createdbefore <= 0 &&
    f.createdsince <= 0 &&
    f.editedbefore <= 0 &&
    f.editedsince <= 0 &&
    !f.creator &&
    !f.editor &&
    f.creatorIds.length === 0 &&
    f.editorIds.length === 0 &&
    !f.iscreator &&
    !f.iseditor &&
    f.inherited === undefined &&
    !f.search &&
    !f.q
  );
}

/** The predicate of a filter in a view. Timestamp bounds are inclusive; 0 means no restriction (FLT-03). */
export function objectPredicate(state: State, view: View, asked: ObjectFilter, faults: FaultSet): (o: Obj) => boolean {
  const plan = planted.listing(faults).filter;
  const f = plan.filter(asked);
  const creators = f.creator ? usersMatching(state, f.creator, faults) : undefined;
  const editors = f.editor ? usersMatching(state, f.editor, faults) : undefined;
  const cdate = (o: Obj) => effectiveDate(o, 'cdate', faults);
  const edate = (o: Obj) => effectiveDate(o, 'edate', faults);
  const me = state.requesterId;
  const editorOf = (o: Obj) => plan.editorId(o.editorId, o);
  const searchUrls = plan.searchUrls(false);
  return (o) =>
    (f.createdbefore <= 0 || cdate(o) <= f.createdbefore) &&
    (f.createdsince <= 0 || cdate(o) >= f.createdsince) &&
    (f.editedbefore <= 0 || edate(o) <= f.editedbefore) &&
    (f.editedsince <= 0 || edate(o) >= f.editedsince) &&
    (!creators || creators.has(o.creatorId)) &&
    (!editors || editors.has(editorOf(o))) &&
    (f.creatorIds.length === 0 || f.creatorIds.includes(o.creatorId)) &&
    (f.editorIds.length === 0 || f.editorIds.includes(editorOf(o))) &&
    (!f.iscreator || o.creatorId === me) &&
    (!f.iseditor || o.editorId === me) &&
    (f.inherited === undefined || (o.nodeId !== view.nodeId) === f.inherited) &&
    (!f.search || matchesTerm(o, f.search, searchUrls, plan)) &&
    (!f.q || matchesTerm(o, f.q, true, plan));
}

// ---------------------------------------------------------------------------------------------
// Sorting

/** A sort value ready for comparison: strings lower-cased, since names compare ignoring case (reference notes). */
function normalized(v: SortValue, plan: planted.SortPlan): SortValue {
  return typeof v === 'string' ? plan.text(v.toLowerCase(), v) : v;
}

/** Compares normalized sort values: undefined first, numbers numerically, strings by code unit, false before true. */
function compareNormalized(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : 1;
  return Number(a) - Number(b);
}

/** Compares two sort values as the listings do (strings ignoring case). */
export function compareValues(a: SortValue, b: SortValue, faults: FaultSet): number {
  const plan = planted.listing(faults).sort;
  return compareNormalized(normalized(a, plan), normalized(b, plan));
}

/** Group L sort keys by lower-cased `sortby` name (SRT-03); a key a kind lacks falls back to name. */
export function legacySortKeys(state: State, view: View): Record<string, SortKey> {
  const page =
    (f: (p: PageObj) => string | number | undefined): SortKey =>
    (o) =>
      o.kind === 'page' ? f(o) : o.name;
  return {
    name: (o) => o.name,
    cdate: (o) => o.cdate,
    edate: (o) => o.edate,
    pdate: page((p) => p.pdate),
    filename: (o) => (o.kind === 'page' ? o.fileName : o.name),
    template: page((p) => resolveInView(state, p.templateSet, view, true)?.name ?? masterVariant(state, p.templateSet)?.name),
    folder: (o) => parentInView(state, o, view)?.name,
    masternode: (o) => state.nodes.get(masterVariant(state, o.channelSetId)?.nodeId ?? o.nodeId)?.name,
    priority: page((p) => p.priority),
    excluded: (o) => masterVariant(state, o.channelSetId)?.excluded ?? false,
    deletedat: (o) => o.deleted?.at ?? 0,
    size: (o) => (o.kind === 'file' || o.kind === 'image' ? (o.data?.length ?? 0) : o.name),
    type: (o) => (o.kind === 'file' || o.kind === 'image' ? o.fileType : o.name),
  };
}

/** The key and direction a Group L `sortby`/`sortorder` asks for (see sortLegacy). */
function legacySpec(sortby: string | undefined, sortorder: string | undefined, keys: Record<string, SortKey>, plan: planted.SortPlan) {
  const asked = plan.sortby((sortby ?? 'name').toLowerCase());
  const attribute = Object.hasOwn(keys, asked) ? asked : 'name';
  const key = plan.legacyKey(keys[attribute]!, attribute);
  const dir = plan.descending(sortorder?.toLowerCase() === 'desc') ? -1 : 1;
  return { attribute, key, dir };
}

/**
 * Sorts by a Group L `sortby`/`sortorder`: sortby matched ignoring case, unknown falls back to name;
 * `desc` in any case descends, anything else ascends; ties by id in the same direction (reference notes).
 */
export function sortLegacy<T extends Obj>(
  items: readonly T[],
  sortby: string | undefined,
  sortorder: string | undefined,
  keys: Record<string, SortKey>,
  faults: FaultSet,
): T[] {
  const plan = planted.listing(faults).sort;
  const { key, dir } = legacySpec(sortby, sortorder, keys, plan);
  const decorated = items.map((o) => ({ o, k: normalized(key(o), plan) }));
  decorated.sort((a, b) => dir * (compareNormalized(a.k, b.k) || a.o.id - b.o.id));
  return decorated.map((d) => d.o);
}

/**
 * Sorts by a Group P `sort`: a comma list of attributes, each optionally prefixed `+` or `-`; unknown
 * attributes are ignored; later attributes break ties; the last tie-breaker is the id (SRT-04).
 */
export function sortByAttributes<T extends Obj>(
  items: readonly T[],
  sort: string | undefined,
  keys: Record<string, SortKey>,
  faults: FaultSet,
): T[] {
  const plan = planted.listing(faults).sort;
  const specs = attributeSpecs(sort, keys, plan);
  const decorated = items.map((o) => ({ o, ks: specs.map((s) => normalized(s.key(o), plan)) }));
  const compare = plan.compare(compareNormalized);
  decorated.sort((a, b) => {
    for (let i = 0; i < specs.length; i++) {
      const c = compare(a.ks[i], b.ks[i]);
      if (c !== 0) return specs[i]!.dir * c;
    }
    return a.o.id - b.o.id;
  });
  return decorated.map((d) => d.o);
}

/** The keys and directions a Group P `sort` asks for, unknown attributes left out (see sortByAttributes). */
function attributeSpecs(sort: string | undefined, keys: Record<string, SortKey>, plan: planted.SortPlan) {
  const specs: { name: string; key: SortKey; dir: number }[] = [];
  for (const raw of (sort ?? 'name').split(',')) {
    const s = raw.trim();
    const dir = plan.descending(s.startsWith('-')) ? -1 : 1;
    const name = s.replace(/^[+-]/, '').trim();
    const key = plan.attributeKey(Object.hasOwn(keys, name) ? keys[name] : undefined, name);
    if (key) specs.push({ name, key, dir });
  }
  return specs;
}

// ---------------------------------------------------------------------------------------------
// Sorted views: a large folder's listing is collected and sorted once per store version, not per page.

/** A sort order as a value: what sorts, the keys it reads, and a name for the kept views. */
export interface SortOrder {
  /** Names the order within its key set; equal ids sort alike. */
  id: string;
  /** The sort keys read, first to last. */
  keys: readonly SortKey[];
  /** Sorts a list (a new array; the input is not changed). */
  apply<T extends Obj>(items: readonly T[]): T[];
}

/** The Group L order of a `sortby`/`sortorder` over a key set; `keySet` names the key set (its keys may differ per view). */
export function legacyOrder(
  keySet: string,
  sortby: string | undefined,
  sortorder: string | undefined,
  keys: Record<string, SortKey>,
  faults: FaultSet,
): SortOrder {
  const { attribute, key, dir } = legacySpec(sortby, sortorder, keys, planted.listing(faults).sort);
  return { id: `${keySet}|L|${attribute}|${dir}`, keys: [key], apply: (items) => sortLegacy(items, sortby, sortorder, keys, faults) };
}

/** The Group P order of a `sort` over a key set (see legacyOrder). */
export function attributeOrder(keySet: string, sort: string | undefined, keys: Record<string, SortKey>, faults: FaultSet): SortOrder {
  const plan = planted.listing(faults).sort;
  const specs = attributeSpecs(sort, keys, plan);
  plan.ordering(keySet, sort, keys);
  return {
    id: `${keySet}|P|${specs.map((s) => `${s.dir < 0 ? '-' : '+'}${s.name}`).join(',')}`,
    keys: specs.map((s) => s.key),
    apply: (items) => sortByAttributes(items, sort, keys, faults),
  };
}

/** One listing as kept: the collected items in store order and its sorted views by order id. */
interface Kept {
  items: readonly Obj[];
  sorted: Map<string, { items: readonly Obj[]; total: boolean }>;
}

/** The views kept for one store version. */
interface ViewCache {
  version: number;
  listings: Map<string, Kept>;
}

/** Bounds of what is kept: listings per store version, sorted views per listing (the oldest go first). */
const MAX_LISTINGS = 64;
const MAX_ORDERS = 32;

const caches = new WeakMap<State, ViewCache>();
const faultKeys = new WeakMap<FaultSet, string>();

/** The switched-on faults as part of a cache key: they change walks and sort keys. */
function faultKey(faults: FaultSet): string {
  let key = faultKeys.get(faults);
  if (key === undefined) faultKeys.set(faults, (key = [...faults].sort().join(',')));
  return key;
}

/** Adds to a map bounded to `max` entries, dropping the oldest. */
function keep<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/**
 * Whether sorting by these keys is a total order over the items: every key's values (undefined aside)
 * are all strings or all numbers and booleans. Comparing a string with a number gives NaN, which
 * makes the result depend on the input, so filtering a sorted list could then differ from sorting
 * the filtered one.
 */
function totalOver(items: readonly Obj[], keys: readonly SortKey[], faults: FaultSet): boolean {
  const plan = planted.listing(faults).sort;
  for (const key of keys) {
    let strings = false;
    let others = false;
    for (const o of items) {
      const v = normalized(key(o), plan);
      if (v === undefined) continue;
      if (typeof v === 'string') strings = true;
      else if (Number.isNaN(Number(v))) return false;
      else others = true;
      if (strings && others) return false;
    }
  }
  return true;
}

/** A folder listing: the folder, its kinds in listing order, the walk (as walkOf builds it) and the order. */
export interface ListingQuery {
  folder: FolderObj;
  kinds: readonly ChildKind[];
  view: View;
  recursive: boolean;
  wastebin: Wastebin;
  faults: FaultSet;
  order: SortOrder;
}

/**
 * A folder's children sorted and filtered: what collecting (collectChildren per kind), filtering by
 * `keepItem` and sorting gives, read from a sorted view kept per folder, view, walk and order until
 * the store changes, so that paging a large folder neither collects nor sorts it again. Without a
 * filter (`keepItem` undefined) the kept list itself is answered: callers must not change it. With
 * one, the sorted view is filtered when the order is total over it, else the filtered items are sorted.
 */
export function sortedListing(state: State, q: ListingQuery, keepItem?: (o: Obj) => boolean): readonly Obj[] {
  let cache = caches.get(state);
  if (!cache || cache.version !== state.version) caches.set(state, (cache = { version: state.version, listings: new Map() }));
  const walkKey = `${q.folder.id}|${q.kinds.join(',')}|${q.view.nodeId}|${q.recursive}|${q.wastebin}|${faultKey(q.faults)}`;
  const kept =
    cache.listings.get(walkKey) ??
    keep(
      cache.listings,
      walkKey,
      {
        items: q.kinds.flatMap((k) => collectChildren(state, q.folder, k, walkOf(q.view, q.recursive, q.wastebin, q.faults))),
        sorted: new Map(),
      },
      MAX_LISTINGS,
    );
  const sorted =
    kept.sorted.get(q.order.id) ??
    keep(kept.sorted, q.order.id, { items: q.order.apply(kept.items), total: totalOver(kept.items, q.order.keys, q.faults) }, MAX_ORDERS);
  if (!keepItem) return sorted.items;
  return sorted.total ? sorted.items.filter(keepItem) : q.order.apply(kept.items.filter(keepItem));
}

// ---------------------------------------------------------------------------------------------
// Paging

/** One page of a list with the paging members of the response. */
export interface Paged<T> {
  items: readonly T[];
  numItems: number;
  hasMoreItems: boolean;
}

/**
 * Group L: skip first (a negative skipCount is ignored), then truncate (maxItems < 0 all, 0 none);
 * numItems is the total before paging; hasMoreItems = maxItems >= 0 && total > skipCount + maxItems.
 */
export function pageLegacy<T>(items: readonly T[], skipCount: number, maxItems: number, faults: FaultSet): Paged<T> {
  const plan = planted.listing(faults).paging;
  const skip = plan.skip(Math.max(0, skipCount));
  const max = plan.size(maxItems);
  const slice = max < 0 ? items.slice(skip) : items.slice(skip, skip + max);
  return {
    items: slice,
    numItems: plan.numItems(items.length, slice.length),
    hasMoreItems: maxItems >= 0 && items.length > skip + maxItems,
  };
}

/**
 * Group P: pageSize < 0 returns everything, 0 no items (with the true numItems); page <= 0 is page 1;
 * items (page-1)*size+1 .. page*size; hasMoreItems when the slice ends before numItems (PAG-01..05).
 */
export function pageNew<T>(items: readonly T[], page: number, pageSize: number, faults: FaultSet): Paged<T> {
  const plan = planted.listing(faults).paging;
  const total = items.length;
  if (plan.unpaged(pageSize < 0, pageSize))
    return { items: plan.unpagedItems(items, page, pageSize), numItems: total, hasMoreItems: false };
  const p = Math.max(1, page);
  const start = plan.start((p - 1) * pageSize, p, pageSize);
  const slice = items.slice(start, start + plan.size(pageSize));
  return { items: slice, numItems: plan.numItems(total, slice.length), hasMoreItems: start + pageSize < total };
}

/** Reads Group L paging from a query and pages the list. */
export function pageFromQuery<T>(req: OpRequest, items: readonly T[], faults: FaultSet, defaultMax = -1): Paged<T> {
  return pageLegacy(items, qInt(req, 'skipCount', 0), qInt(req, 'maxItems', defaultMax), faults);
}
