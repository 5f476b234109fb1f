/**
 * The planted faults and variations of the listing engine (server/handlers/listing.ts), one plan per stage: the walk,
 * the filters, the sorting and the paging.
 *
 * Each listing function asks for its stage's plan (`const plan = planted.listing(faults).sort`) and consults it at named
 * points of the contract's code: a hook takes the value the contract computed there and returns the one the engine goes
 * on with, or (a hook that returns nothing) may throw where a fault does. With every switch off each hook gives back
 * what it was given and does nothing else, so listing.ts reads as the contract, and this file, which only ever differs
 * from the contract, is left out of the mutation run (scripts/mutation). The engine runs per object and per
 * comparison, so the plans of a switch set are made once and kept (`listing`), and no hook allocates unless a switch
 * it asks is on.
 */
import type { DatasetUser } from '../../dataset-format.ts';
import type { Obj, View } from '../../state.ts';
import { Refusal, type FaultSet } from '../../types.ts';
import type { ObjectFilter, SortKey, SortValue, Walk } from '../listing-types.ts';

/** The hooks of the walk over a folder (walkOf). */
export interface WalkPlan {
  /** The walk as taken: a fault sets the deletions, restrictions or depth it overlooks. */
  walk(walk: Walk): Walk;
}

/** The hooks of the filters (objectPredicate, usersMatching, effectiveDate). */
export interface FilterPlan {
  /** The filter as the predicate reads it: a member a fault leaves unread is absent (0, empty or false). */
  filter(filter: ObjectFilter): ObjectFilter;
  /** The texts a creator or editor pattern is matched against; the contract: login, first, last and full name. */
  userTexts(texts: string[], user: DatasetUser): string[];
  /** An object's creation or edit date as the date filters and orders read it; the contract: the stored `date`. */
  date(date: number, o: Obj, which: 'cdate' | 'edate'): number;
  /** The user an editor filter compares; the contract: the last editor, `editorId`. */
  editorId(editorId: number, o: Obj): number;
  /** Whether Group L `search` matches q's extra texts too; the contract: `urls`. */
  searchUrls(urls: boolean): boolean;
  /** The extra texts a `q` matches (contract 4.3: a file's niceUrl and alternateUrls, a folder's publishDir). */
  queryTexts(texts: string[], o: Obj): string[];
  /** The description a search or q matches. */
  description(description: string): string;
}

/** How two normalized sort values compare. */
type Compare = (a: SortValue, b: SortValue) => number;

/** The hooks of the sorting (legacySpec, attributeSpecs, sortByAttributes, attributeOrder, normalized). */
export interface SortPlan {
  /** A string sort value as compared, given its lower-cased form `lower`; the contract: `lower` (reference notes). */
  text(lower: string, raw: string): string;
  /** The Group L `sortby` attribute read, lower-cased; a name the keys lack sorts by name. */
  sortby(asked: string): string;
  /** The key a Group L order reads for `attribute`; the contract: its `key`. */
  legacyKey(key: SortKey, attribute: string): SortKey;
  /** Whether an order descends; the contract: `desc`, what was asked. */
  descending(desc: boolean): boolean;
  /** How a Group P sort compares values; the contract: `compare`. */
  compare(compare: Compare): Compare;
  /** The key of a Group P `sort` attribute `name`; the contract: its `key`, undefined (ignored) if it has none. */
  attributeKey(key: SortKey | undefined, name: string): SortKey | undefined;
  /** Before a Group P order over the key set `keySet` is built from `sort`. */
  ordering(keySet: string, sort: string | undefined, keys: Record<string, SortKey>): void;
}

/** The hooks of the paging (pageLegacy, pageNew). */
export interface PagingPlan {
  /** The number of items skipped (Group L); the contract: `skip`. */
  skip(skip: number): number;
  /** The number of items a page holds at most; the contract: the `size` asked. */
  size(size: number): number;
  /** The numItems answered; the contract: `total`, all matching items (`sliced` the page's). */
  numItems(total: number, sliced: number): number;
  /** Whether a Group P listing is unpaged; the contract: `unpaged`, a negative pageSize. */
  unpaged(unpaged: boolean, pageSize: number): boolean;
  /** The items an unpaged Group P listing answers; the contract: all `items`. */
  unpagedItems<T>(items: readonly T[], page: number, pageSize: number): readonly T[];
  /** Where a Group P page starts; the contract: `start`, (page - 1) * pageSize for page `p` (at least 1). */
  start(start: number, p: number, pageSize: number): number;
}

/** The plans of every stage of the listing engine. */
export interface EnginePlan {
  walk: WalkPlan;
  filter: FilterPlan;
  sort: SortPlan;
  paging: PagingPlan;
}

function walk(faults: FaultSet): WalkPlan {
  return {
    walk: (w) => {
      let walk = w;
      // Planted (delete-master-not-in-channel): a folder deleted in the master stays listed in the channels.
      if (faults.has('delete-master-not-in-channel'))
        walk = { ...walk, ignoreDeletion: (o: Obj, v: View) => o.deleted?.live === true && o.nodeId !== v.nodeId };
      // Planted: only files and pages are checked for deletion, so deleted folders and their content stay listed.
      if (faults.has('deleted-folders-listed')) walk = { ...walk, ignoreDeletion: (o: Obj) => o.kind === 'folder' };
      // Planted (excluded-visible-in-channel): exclusion and disinheritance do not hide inherited objects.
      if (faults.has('excluded-visible-in-channel')) walk = { ...walk, ignoreRestrictions: true };
      // Planted (recursion-depth-limited): a recursive walk stops 200 levels down, as one guarding against deep trees does.
      if (faults.has('recursion-depth-limited')) walk = { ...walk, maxDepth: 200 };
      return walk;
    },
  };
}

/** A page's custom date where a variation reads it (see FilterPlan.date). */
function customDate(faults: FaultSet, date: number, o: Obj, which: 'cdate' | 'edate'): number {
  // Variation (custom-dates-effective): a page is read by its custom date where it has one (contract 2.6: "customCdate ...
  // custom creation date").
  if (o.kind === 'page' && faults.has('custom-dates-effective')) {
    const custom = which === 'cdate' ? o.customCdate : o.customEdate;
    if (custom) return custom;
  }
  return date;
}

function filter(faults: FaultSet): FilterPlan {
  return {
    filter: (f) => {
      let g = f;
      // Planted (createdsince-ignored): the createdsince filter is ignored.
      if (faults.has('createdsince-ignored')) g = { ...g, createdsince: 0 };
      // Planted (creatorid-ignored): creatorId is ignored, so the listings keep the objects of every creator.
      if (faults.has('creatorid-ignored')) g = { ...g, creatorIds: [] };
      // Planted (editorid-ignored): editorId is ignored, so the listings keep the objects of every last editor.
      if (faults.has('editorid-ignored')) g = { ...g, editorIds: [] };
      // Planted (iscreator-ignored): iscreator=true lists every object, not only the requesting user's.
      if (faults.has('iscreator-ignored')) g = { ...g, iscreator: false };
      // Planted (iseditor-ignored): iseditor=true lists every object, not only those the requesting user edited last.
      if (faults.has('iseditor-ignored')) g = { ...g, iseditor: false };
      // Planted (inherited-filter-inverted): inherited=true keeps the local objects and inherited=false the inherited ones.
      if (faults.has('inherited-filter-inverted') && g.inherited !== undefined) g = { ...g, inherited: !g.inherited };
      return g;
    },
    // Variation (user-pattern-login-only): a pattern is matched against the login alone (contract 4.1: "pattern to
    // restrict by creator / editor").
    userTexts: (texts, user) => (faults.has('user-pattern-login-only') ? [user.login] : texts),
    date: (date, o, which) => customDate(faults, date, o, which),
    // Planted: the editor filters read the creator, a copy of the line above them.
    editorId: (editorId, o) => (faults.has('editor-filter-matches-creator') ? o.creatorId : editorId),
    // Planted (search-matches-urls): Group L search takes q's extra texts too (a file's niceUrl and alternateUrls).
    searchUrls: (urls) => urls || faults.has('search-matches-urls'),
    queryTexts: (texts, o) => {
      // Planted (q-ignores-urls): q matches id, name and description but not niceUrl or alternateUrls.
      const urls = faults.has('q-ignores-urls') ? [] : texts;
      // Planted: pages and templates are searched by a folder's publish directory, which they do not have.
      if (faults.has('q-reads-publishdir-of-pages') && (o.kind === 'page' || o.kind === 'template'))
        urls.push((o as unknown as { publishDir: string }).publishDir);
      // Planted: a file without a nice URL is searched as if its nice URL were the empty path '/'.
      if (faults.has('q-missing-niceurl-slash') && o.kind === 'file' && !o.niceUrl) urls.push('/');
      return urls;
    },
    // Planted (search-ignores-description): search matches id and name but not the description (an empty text matches
    // no term: the engine searches only for a term given).
    description: (description) => (faults.has('search-ignores-description') ? '' : description),
  };
}

/** The id as a sort key (name-sort-ignored and sortby-deletedat-as-id sort by it instead). */
const byId: SortKey = (o) => o.id;

/**
 * A Group L sort key as the variations read it: custom-dates-effective orders pages by their custom dates (see
 * customDate); nulls-last puts what has no deletion or publish time (0) after every time ascending, as SQL's
 * NULLS LAST does (contract 4.1 lists `deletedat` and `pdate` without saying where objects without one go).
 */
function variedKey(faults: FaultSet, attribute: string, key: SortKey): SortKey {
  if ((attribute === 'cdate' || attribute === 'edate') && faults.has('custom-dates-effective'))
    return (o) => (o.kind === 'page' ? customDate(faults, o[attribute], o, attribute) : key(o));
  if ((attribute === 'deletedat' || attribute === 'pdate') && faults.has('nulls-last'))
    return (o) => {
      const v = key(o);
      return v === 0 ? Number.POSITIVE_INFINITY : v;
    };
  return key;
}

function sort(faults: FaultSet): SortPlan {
  return {
    // Variation (name-order-codepoint): names sort by code point (uppercase before lowercase) instead of ignoring case.
    text: (lower, raw) => (faults.has('name-order-codepoint') ? raw : lower),
    sortby: (asked) => {
      // Planted (SRT-03): one attribute taken as unknown, so the listing comes by name.
      const ignored =
        (asked === 'edate' && faults.has('sortby-edate-ignored')) ||
        (asked === 'masternode' && faults.has('sortby-masternode-ignored')) ||
        (asked === 'excluded' && faults.has('sortby-excluded-ignored')) ||
        (asked === 'deletedat' && faults.has('sortby-deletedat-ignored')) ||
        (asked === 'folder' && faults.has('sortby-folder-ignored'));
      return ignored ? 'name' : asked;
    },
    legacyKey: (key, attribute) => {
      // Planted: the size is read from the binary without a look, and a broken file has none.
      if (attribute === 'size' && faults.has('sortby-size-broken-500'))
        return (o) => (o.kind === 'file' || o.kind === 'image' ? (o.data as Buffer).length : o.name);
      // Planted (name-sort-ignored): sorting by name leaves lists in id order.
      if (attribute === 'name' && faults.has('name-sort-ignored')) return byId;
      // Planted: deletion times read as equal (every object deleted "at" one time), so the ties fall to the id.
      if (attribute === 'deletedat' && faults.has('sortby-deletedat-as-id')) return byId;
      return variedKey(faults, attribute, key);
    },
    // Planted (sortorder-desc-ignored): descending order (sortorder=desc, sort=-attr) is ignored.
    descending: (desc) => desc && !faults.has('sortorder-desc-ignored'),
    compare: (compare) =>
      // Planted: an object without a value for the attribute compares equal to every other (NaN, as Number(undefined) gives).
      faults.has('sort-missing-value-equal') ? (a, b) => ((a === undefined) !== (b === undefined) ? NaN : compare(a, b)) : compare,
    attributeKey: (key, name) => {
      // Planted (name-sort-ignored): sorting by name leaves lists in id order.
      if (name === 'name' && faults.has('name-sort-ignored')) return byId;
      // Planted: an attribute without a sort key is read anyway, and the server fails on it.
      if (!key && faults.has('sort-unknown-attribute-500')) throw new TypeError(`Cannot read properties of undefined (reading '${name}')`);
      return key;
    },
    ordering: (keySet, sort, keys) => {
      // Variation unknown-sort-refused: GET /file refuses an attribute it has no key for (the reference notes ignore it silently).
      if (keySet !== 'file' || !faults.has('unknown-sort-refused')) return;
      const unknown = (sort ?? 'name')
        .split(',')
        .map((raw) => raw.trim().replace(/^[+-]/, '').trim())
        .filter((name) => name !== '' && !Object.hasOwn(keys, name));
      if (unknown.length) throw new Refusal('INVALIDDATA', `sort: unknown attribute ${unknown.join(', ')}`, 'sort');
    },
  };
}

function paging(faults: FaultSet): PagingPlan {
  return {
    // Planted (skipcount-ignored): Group L skipCount is ignored.
    skip: (skip) => (faults.has('skipcount-ignored') ? 0 : skip),
    // Planted (page-size-capped): a size asked for is cut to a maximum of the server's own, as a server guarding its memory does.
    size: (size) => (faults.has('page-size-capped') && size > 100 ? 100 : size),
    // Planted (paging-numitems-after-slice): numItems counts the returned slice instead of all matching items.
    numItems: (total, sliced) => (faults.has('paging-numitems-after-slice') ? sliced : total),
    // Planted (pagesize-zero-returns-all): Group P pageSize=0 returns every item instead of none.
    unpaged: (unpaged, pageSize) => unpaged || (pageSize === 0 && faults.has('pagesize-zero-returns-all')),
    // Planted: "no paging" is taken as one page as long as the whole list, and the page number still applies.
    unpagedItems: (items, page, pageSize) =>
      pageSize < 0 && faults.has('unpaged-honours-page') ? items.slice((Math.max(1, page) - 1) * items.length) : items,
    // Planted (paging-page-zero-based): Group P page numbers start at 0, so page=1 skips the first page.
    start: (start, p, pageSize) => (faults.has('paging-page-zero-based') ? p * pageSize : start),
  };
}

/** The plans of each switch set, made once: a server keeps one set for its life. */
const plans = new WeakMap<FaultSet, EnginePlan>();
/** The set asked last and its plans: the calls of a request all ask with one set, so a comparison finds it. */
let lastFaults: FaultSet | undefined;
let lastPlan: EnginePlan | undefined;

/** The listing engine's plans of a switch set (made once per set). */
export function listing(faults: FaultSet): EnginePlan {
  if (faults === lastFaults) return lastPlan!;
  let plan = plans.get(faults);
  if (!plan) {
    plan = { walk: walk(faults), filter: filter(faults), sort: sort(faults), paging: paging(faults) };
    plans.set(faults, plan);
  }
  lastFaults = faults;
  lastPlan = plan;
  return plan;
}
