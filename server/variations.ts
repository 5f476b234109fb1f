/**
 * Variations: the answers a correct server may give where the contract leaves a point open (an open
 * choice of schemas/open-choices.json), other than the one the reference server gives by default (the
 * reference notes'). They are NOT faults: the whole suite must pass under each of them alone and under
 * all that combine at once (`cms-conformance prove` checks it). Handlers ask `ctx.faults.has(name)`, as
 * for a planted fault.
 */

/** A variation of the reference server: one alternative of one open choice. */
export interface VariationDef<Name extends string = VariationName> {
  name: Name;
  /** The id of the open choice (schemas/open-choices.json) whose alternative it plays. */
  choice: string;
  description: string;
}

/** Returns the variation definitions as given, typed with their literal names: VariationName derives from them. */
function variationDefs<Name extends string>(defs: VariationDef<Name>[]): readonly VariationDef<Name>[] {
  return defs;
}

/** Every harmless variation. */
export const variations = variationDefs([
  {
    name: 'refusals-as-200',
    choice: 'refusal-status',
    description: 'refusals answered with HTTP 200 and a non-OK responseCode, as the deployed implementation does',
  },
  {
    name: 'extra-members',
    choice: 'unnamed-members',
    description: 'every object of every answer carries members the contract does not name (@class, x-vendor)',
  },
  {
    name: 'reordered-members',
    choice: 'member-order',
    description: 'the members of every object come in reverse order',
  },
  {
    name: 'deleted-at-zero',
    choice: 'live-deleted-member',
    description: 'live items carry deleted: {at: 0} without by, as the deployed implementation may',
  },
  {
    name: 'name-order-codepoint',
    choice: 'name-collation',
    description: 'names sort by code point (uppercase before lowercase) instead of ignoring case',
  },
  {
    name: 'sparse-members',
    choice: 'empty-members',
    description:
      'members whose value is false, an empty string, an empty array or an empty map are left out (as Jackson NON_EMPTY and ' +
      "NON_DEFAULT write them), except the envelope, the paging members and the page record's required fields",
  },
  {
    name: 'lean-records',
    choice: 'navigation-members',
    description: 'records carry no motherId, breadcrumbs, path or globalId: a server that does not write what the contract only lists',
  },
  {
    name: 'no-staging-status',
    choice: 'staging-status-carried',
    description: 'answers carry stagingStatus only where the request names a staging package (package, stagingPackageName)',
  },
  // ---- semantic variations: handlers ask ctx.faults.has(name); grouped by the area of their handlers ----
  // multichannel (server/handlers/multichannel.ts)

  // uploads and files (server/handlers/uploads.ts, files.ts)

  // folders, records and pages (server/handlers/folders.ts, pages.ts, render.ts)

  // usage, listings, filters and sorting (server/handlers/usage.ts, listing.ts)
  {
    name: 'niceurl-full-match',
    choice: 'niceurl-match',
    description: 'niceurl must match the whole nice URL (an implicit ^...$, as Java String.matches), not be found anywhere in it',
  },
  {
    name: 'niceurl-matches-alternates',
    choice: 'niceurl-alternates',
    description: 'niceurl is matched against the alternate URLs too: an object one of whose URLs matches is listed',
  },
  {
    name: 'find-prefix-match',
    choice: 'find-query-match',
    description: 'findFiles and findPages find the names that start with the query, not those that hold it anywhere',
  },
  {
    name: 'filename-prefix',
    choice: 'filename-filter',
    description: 'getPages filename lists the pages whose file name starts with the search string',
  },
  {
    name: 'user-pattern-login-only',
    choice: 'user-pattern',
    description: 'the creator, editor and publisher patterns are matched against the login alone',
  },
  {
    name: 'priority-at-least',
    choice: 'priority-filter',
    description: 'getPages priority=p lists the pages of priority p or more',
  },
  {
    name: 'language-unknown-refused',
    choice: 'language-unknown',
    description: 'getPages refuses a language code that is no language of the system (INVALIDDATA)',
  },
  {
    name: 'language-keeps-languageless',
    choice: 'language-languageless',
    description: 'getPages language keeps the pages that have no language (they belong to every language)',
  },
  {
    name: 'custom-dates-effective',
    choice: 'custom-dates',
    description: 'the date filters and the cdate and edate orders read a page by its custom dates where it has them',
  },
  {
    name: 'insync-lists-untranslated',
    choice: 'insync-untranslated',
    description: 'getPages insync=false lists the pages that are no translation, insync=true leaves them out',
  },
  {
    name: 'nulls-last',
    choice: 'nulls-order',
    description: 'sortby=deletedat puts the live objects, sortby=pdate the unpublished pages, last ascending (SQL NULLS LAST)',
  },
  {
    name: 'unknown-sort-refused',
    choice: 'unknown-sort-attribute',
    description: 'GET /file refuses a sort naming an attribute it does not know (INVALIDDATA)',
  },
  {
    name: 'usage-files-only',
    choice: 'usage-image-ids',
    description: 'usage/file, usage/folder and usage/page refuse the id of an image: their ids are "file IDs"',
  },
  {
    name: 'usage-page-unsorted',
    choice: 'usage-page-parameters',
    description: 'usage/page takes no sortby, sortorder, skipCount or maxItems: it lists every user by id',
  },
  {
    name: 'usage-sortby-name-only',
    choice: 'usage-sortby',
    description: 'the usage lists sort by name only: any other sortby falls back to name',
  },
  {
    name: 'used-includes-content-tags',
    choice: 'used-definition',
    description: 'a file is used, and its users listed, when any tag of another object refers to it, content tags included',
  },
  {
    name: 'syncable-images-in-files',
    choice: 'syncable-lists',
    description: 'syncableObjects lists a linked image in files as well as in images (images are files)',
  },
  {
    name: 'deleted-without-by',
    choice: 'deleted-by-carried',
    description: 'deleted objects carry deleted.at without deleted.by (the deleting user is not disclosed)',
  },
  {
    name: 'content-marked-deleted-only',
    choice: 'content-deletion-mark',
    description: 'objects inside a deleted folder carry a deleted mark of their own and no folderDeleted',
  },

  // envelope, operations and bad input (server/app.ts, server/handlers/common.ts)
]);

/** The name of a harmless variation, as `prove --variation NAME` and `startReferenceServer({ variations })` take it. */
export type VariationName = (typeof variations)[number]['name'];

/** Returns the variation with that name, or undefined. */
export function getVariation(name: string): VariationDef | undefined {
  return variations.find((v) => v.name === name);
}

/** Whether a name given as text (the command line, a JavaScript caller) is a variation's. */
export function isVariationName(name: string): name is VariationName {
  return getVariation(name) !== undefined;
}

/** Variation names given as text, checked: an unknown one is an error naming every known variation. */
export function variationNamesOf(names: readonly string[]): VariationName[] {
  const unknown = names.filter((name) => !isVariationName(name));
  if (unknown.length > 0)
    throw new Error(`unknown variation ${unknown.join(', ')}; known variations: ${variations.map((v) => v.name).join(', ')}`);
  return names.filter(isVariationName);
}

/**
 * The variations of a list that play together: one per open choice (the first listed), since two answers
 * to one choice exclude each other. The whole suite must pass under all of them at once.
 */
export function combinationOf(list: readonly VariationDef[] = variations): VariationName[] {
  const seen = new Set<string>();
  return list.filter((v) => !seen.has(v.choice) && seen.add(v.choice)).map((v) => v.name);
}

function isItem(value: Record<string, unknown>): boolean {
  return typeof value.cdate === 'number' && typeof value.edate === 'number';
}

/** The body-level variations: varyBody walks an answer only when one of them is on. */
const BODY_LEVEL = ['extra-members', 'reordered-members', 'deleted-at-zero', 'sparse-members', 'lean-records', 'no-staging-status'];

/**
 * Members sparse-members keeps whatever their value: the envelope (contract 2.1: "Every JSON response body
 * shown carries these two members") and the paging members ("Paged list responses carry hasMoreItems
 * (boolean) and numItems (number)").
 */
const ALWAYS_CARRIED = new Set(['messages', 'responseInfo', 'hasMoreItems', 'numItems']);

/** The page record's required fields (contract 2.6: "Required fields are marked"), which a page always carries. */
const PAGE_REQUIRED = new Set([
  'pdate',
  'readOnly',
  'online',
  'modified',
  'queued',
  'planned',
  'inherited',
  'locked',
  'lockedSince',
  'master',
]);

/** Members lean-records leaves out of every record: the contract lists them, and marks none of them required (2.1). */
const NAVIGATION = new Set(['motherId', 'breadcrumbs', 'path', 'globalId']);

/** Whether sparse-members leaves out a member of a record with this value. */
function emptyValue(value: unknown): boolean {
  if (value === false || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** Applies the body-level variations to an answer before it is serialised (a deep copy where needed). */
export function varyBody(body: unknown, on: ReadonlySet<string>): unknown {
  if (!BODY_LEVEL.some((name) => on.has(name))) return body;
  const sparse = on.has('sparse-members');
  const lean = on.has('lean-records');
  const walk = (value: unknown, top = false): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    const page = typeof record.pdate === 'number' && 'lockedSince' in record;
    let entries = Object.entries(record)
      .map(([k, v]) => [k, walk(v)] as [string, unknown])
      .filter(([k, v]) => {
        // Without a package named, a load's stagingStatus names none and a list's map is empty.
        if (top && k === 'stagingStatus' && on.has('no-staging-status') && !JSON.stringify(v).includes('"packageName"')) return false;
        if (lean && NAVIGATION.has(k)) return false;
        return !sparse || !emptyValue(v) || ALWAYS_CARRIED.has(k) || (page && PAGE_REQUIRED.has(k));
      });
    if (on.has('deleted-at-zero') && isItem(record) && record.deleted === undefined) entries.push(['deleted', { at: 0 }]);
    // Records (the answer itself, anything with an id or item dates) get extra members; maps keep their value type.
    if (on.has('extra-members') && (top || 'id' in record || isItem(record)))
      entries.push(['@class', 'com.example.cms.Record'], ['x-vendor', { revision: 7, flags: ['a'] }]);
    if (on.has('reordered-members')) entries = entries.reverse();
    return Object.fromEntries(entries);
  };
  return walk(body, true);
}
