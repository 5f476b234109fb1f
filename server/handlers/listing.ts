/**
 * The one listing engine of every listing operation: collect a folder's children in a view
 * (recursively if asked, honouring the wastebin mode), filter (Group F, search, query), sort
 * (Group L `sortby`/`sortorder`, Group P `sort`), count, then page (Group L skip/max, Group P page/size).
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

/** The objects of one kind. */
export type ObjOf<K extends ChildKind> = K extends 'folder' ? FolderObj : K extends 'page' ? PageObj : FileObj;

/** How to walk a folder: in which view, how deep, what to do with deleted objects. */
export interface Walk {
  view: View;
  recursive: boolean;
  wastebin: Wastebin;
  /** Whether to descend into a sub-folder (recursiveIds); the sub-folder itself is still listed. */
  descend?: (folder: FolderObj) => boolean;
  /** Deletions a planted fault overlooks (the object then counts as not deleted). */
  ignoreDeletion?: (obj: Obj, view: View) => boolean;
  /** A planted fault: exclusion and disinheritance do not hide inherited objects. */
  ignoreRestrictions?: boolean;
}

/** A walk with what the switched-on planted faults overlook. */
export function walkOf(view: View, recursive: boolean, wastebin: Wastebin, faults: FaultSet, extra: Partial<Walk> = {}): Walk {
  return {
    view,
    recursive,
    wastebin,
    ...(faults.has('delete-master-not-in-channel')
      ? { ignoreDeletion: (o: Obj, v: View) => o.deleted?.live === true && o.nodeId !== v.nodeId }
      : {}),
    ...(faults.has('excluded-visible-in-channel') ? { ignoreRestrictions: true } : {}),
    ...extra,
  };
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
  const visit = (f: FolderObj, above: boolean, depth: number) => {
    const own = above || isDeleted(f);
    const idx = state.children.get(f.channelSetId);
    if (!idx) return;
    for (const set of idx[kind]) {
      const v = resolveInView(state, set, view, walk.ignoreRestrictions);
      if (!v) continue;
      const deleted = own || isDeleted(v) || masterDeleted(state, v) !== undefined;
      if (wastebinKeeps(walk.wastebin, deleted)) out.push(v as ObjOf<K>);
    }
    if (!walk.recursive || depth > 200) return;
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

/** Group F filters plus the search term, as given by a request. */
export interface ObjectFilter {
  createdbefore: number;
  createdsince: number;
  editedbefore: number;
  editedsince: number;
  creator?: string;
  editor?: string;
  creatorIds: number[];
  editorIds: number[];
  iscreator: boolean;
  iseditor: boolean;
  inherited?: boolean;
  /** Group L `search`: id equals, or name/description contains. */
  search?: string;
  /** Group P `q`: like search, over more fields per kind (GET /file: niceUrl, alternateUrls). */
  q?: string;
}

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
export function usersMatching(state: State, pattern: string): Set<number> {
  const p = pattern.toLowerCase();
  const ids = new Set<number>();
  for (const u of state.users.values()) {
    if ([u.login, u.firstName, u.lastName, `${u.firstName} ${u.lastName}`].some((s) => s.toLowerCase().includes(p))) ids.add(u.id);
  }
  return ids;
}

/** Extra text a `q` query matches per kind (contract 4.3: GET /file filters by niceUrl and alternateUrls too). */
function queryText(o: Obj): string[] {
  if (o.kind === 'file' || o.kind === 'image') return [o.niceUrl ?? '', ...(o.alternateUrls ?? [])];
  if (o.kind === 'folder') return [o.publishDir];
  return [];
}

function matchesTerm(o: Obj, term: string, extra: boolean, faults: FaultSet): boolean {
  const t = term.toLowerCase();
  if (String(o.id) === term.trim()) return true;
  const texts = [o.name, ...(faults.has('search-ignores-description') ? [] : [o.description]), ...(extra ? queryText(o) : [])];
  return texts.some((s) => s.toLowerCase().includes(t));
}

/** The predicate of a filter in a view. Timestamp bounds are inclusive; 0 means no restriction (FLT-03). */
export function objectPredicate(state: State, view: View, f: ObjectFilter, faults: FaultSet): (o: Obj) => boolean {
  const creators = f.creator ? usersMatching(state, f.creator) : undefined;
  const editors = f.editor ? usersMatching(state, f.editor) : undefined;
  const me = state.requesterId;
  const inherited = faults.has('inherited-filter-inverted') && f.inherited !== undefined ? !f.inherited : f.inherited;
  return (o) =>
    (f.createdbefore <= 0 || o.cdate <= f.createdbefore) &&
    (f.createdsince <= 0 || faults.has('createdsince-ignored') || o.cdate >= f.createdsince) &&
    (f.editedbefore <= 0 || o.edate <= f.editedbefore) &&
    (f.editedsince <= 0 || o.edate >= f.editedsince) &&
    (!creators || creators.has(o.creatorId)) &&
    (!editors || editors.has(o.editorId)) &&
    (f.creatorIds.length === 0 || f.creatorIds.includes(o.creatorId)) &&
    (f.editorIds.length === 0 || f.editorIds.includes(o.editorId)) &&
    (!f.iscreator || o.creatorId === me) &&
    (!f.iseditor || o.editorId === me) &&
    (inherited === undefined || (o.nodeId !== view.nodeId) === inherited) &&
    (!f.search || matchesTerm(o, f.search, false, faults)) &&
    (!f.q || matchesTerm(o, f.q, true, faults));
}

// ---------------------------------------------------------------------------------------------
// Sorting

/** A sort key of an object; undefined sorts first. */
export type SortKey = (o: Obj) => SortValue;

type SortValue = string | number | boolean | undefined;

/**
 * A sort value ready for comparison: strings lower-cased, since names compare ignoring case (reference
 * notes), unless the harmless variation `name-order-codepoint` asks for code point order.
 */
function normalized(v: SortValue, switches: FaultSet): SortValue {
  return typeof v === 'string' && !switches.has('name-order-codepoint') ? v.toLowerCase() : v;
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
  return compareNormalized(normalized(a, faults), normalized(b, faults));
}

/** The id as a sort key (the planted fault `name-sort-ignored` sorts by it instead of the name). */
const byId: SortKey = (o) => o.id;

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

/**
 * Sorts by a Group L `sortby`/`sortorder`: sortby matched ignoring case, unknown falls back to name;
 * `desc` in any case descends, anything else ascends; ties by id in the same direction (reference notes).
 */
export function sortLegacy<T extends Obj>(
  items: T[],
  sortby: string | undefined,
  sortorder: string | undefined,
  keys: Record<string, SortKey>,
  faults: FaultSet,
): T[] {
  const asked = (sortby ?? 'name').toLowerCase();
  const attribute = Object.hasOwn(keys, asked) ? asked : 'name';
  const key = attribute === 'name' && faults.has('name-sort-ignored') ? byId : keys[attribute]!;
  const dir = sortorder?.toLowerCase() === 'desc' && !faults.has('sortorder-desc-ignored') ? -1 : 1;
  const decorated = items.map((o) => ({ o, k: normalized(key(o), faults) }));
  decorated.sort((a, b) => dir * (compareNormalized(a.k, b.k) || a.o.id - b.o.id));
  return decorated.map((d) => d.o);
}

/**
 * Sorts by a Group P `sort`: a comma list of attributes, each optionally prefixed `+` or `-`; unknown
 * attributes are ignored; later attributes break ties; the last tie-breaker is the id (SRT-04).
 */
export function sortByAttributes<T extends Obj>(
  items: T[],
  sort: string | undefined,
  keys: Record<string, SortKey>,
  faults: FaultSet,
): T[] {
  const specs: { key: SortKey; dir: number }[] = [];
  for (const raw of (sort ?? 'name').split(',')) {
    const s = raw.trim();
    const dir = s.startsWith('-') ? -1 : 1;
    const name = s.replace(/^[+-]/, '').trim();
    const key = name === 'name' && faults.has('name-sort-ignored') ? byId : Object.hasOwn(keys, name) ? keys[name] : undefined;
    if (key) specs.push({ key, dir: faults.has('sortorder-desc-ignored') ? 1 : dir });
  }
  const decorated = items.map((o) => ({ o, ks: specs.map((s) => normalized(s.key(o), faults)) }));
  decorated.sort((a, b) => {
    for (let i = 0; i < specs.length; i++) {
      const c = compareNormalized(a.ks[i], b.ks[i]);
      if (c !== 0) return specs[i]!.dir * c;
    }
    return a.o.id - b.o.id;
  });
  return decorated.map((d) => d.o);
}

// ---------------------------------------------------------------------------------------------
// Paging

/** One page of a list with the paging members of the response. */
export interface Paged<T> {
  items: T[];
  numItems: number;
  hasMoreItems: boolean;
}

/**
 * Group L: skip first (a negative skipCount is ignored), then truncate (maxItems < 0 all, 0 none);
 * numItems is the total before paging; hasMoreItems = maxItems >= 0 && total > skipCount + maxItems.
 */
export function pageLegacy<T>(items: T[], skipCount: number, maxItems: number, faults: FaultSet): Paged<T> {
  const skip = faults.has('skipcount-ignored') ? 0 : Math.max(0, skipCount);
  const slice = maxItems < 0 ? items.slice(skip) : items.slice(skip, skip + maxItems);
  return {
    items: slice,
    numItems: faults.has('paging-numitems-after-slice') ? slice.length : items.length,
    hasMoreItems: maxItems >= 0 && items.length > skip + maxItems,
  };
}

/**
 * Group P: pageSize < 0 returns everything, 0 no items (with the true numItems); page <= 0 is page 1;
 * items (page-1)*size+1 .. page*size; hasMoreItems when the slice ends before numItems (PAG-01..05).
 */
export function pageNew<T>(items: T[], page: number, pageSize: number, faults: FaultSet): Paged<T> {
  const total = items.length;
  const numItems = (slice: T[]) => (faults.has('paging-numitems-after-slice') ? slice.length : total);
  if (pageSize < 0 || (pageSize === 0 && faults.has('pagesize-zero-returns-all'))) return { items, numItems: total, hasMoreItems: false };
  const p = Math.max(1, page);
  const start = faults.has('paging-page-zero-based') ? p * pageSize : (p - 1) * pageSize;
  const slice = items.slice(start, start + pageSize);
  return { items: slice, numItems: numItems(slice), hasMoreItems: start + pageSize < total };
}

/** Reads Group L paging from a query and pages the list. */
export function pageFromQuery<T>(req: OpRequest, items: T[], faults: FaultSet, defaultMax = -1): Paged<T> {
  return pageLegacy(items, qInt(req, 'skipCount', 0), qInt(req, 'maxItems', defaultMax), faults);
}
