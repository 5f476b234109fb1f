/**
 * Variations: the answers a correct server may give where the contract leaves a point open (an open
 * choice of schemas/open-choices.json), other than the one the reference server gives by default (the
 * reference notes'). They are NOT faults: the whole suite must pass under each of them alone and under
 * all that combine at once (`cms-conformance prove` checks it). Handlers ask `ctx.faults.has(name)`, as
 * for a planted fault.
 */

import { getSchema } from '../schemas/index.ts';

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
    name: 'timestamps-in-ms',
    choice: 'timestamp-unit',
    description:
      'timestamps in milliseconds: every timestamp of an answer (messages aside, which the notes give in milliseconds already), and ' +
      'the timestamp filters of a request (createdbefore ... publishedsince, and the POST getFolders body)',
  },
  {
    name: 'no-staging-status',
    choice: 'staging-status-carried',
    description: 'answers carry stagingStatus only where the request names a staging package (package, stagingPackageName)',
  },
  // ---- semantic variations: handlers ask ctx.faults.has(name); grouped by the area of their handlers ----
  // multichannel (server/handlers/multichannel.ts)
  {
    name: 'push2master-removes-copy',
    choice: 'push2master-channel-copy',
    description: "push2master moves a localized copy's content into the master and removes the copy: the channel sees the master again",
  },
  {
    name: 'push2master-nothing-succeeds',
    choice: 'push2master-nothing-to-push',
    description: 'push2master of an object the channel holds no copy of answers OK and changes nothing',
  },
  {
    name: 'unlocalize-nothing-succeeds',
    choice: 'unlocalize-not-localized',
    description: 'unlocalize of an object not localized in the channel answers OK and changes nothing',
  },
  {
    name: 'localize-again-succeeds',
    choice: 'localize-already-localized',
    description: 'localize of an object the channel has localized already answers OK and changes nothing',
  },
  {
    name: 'excluded-reports-no-disinherit',
    choice: 'disinherit-while-excluded',
    description: 'while an object is excluded, the disinherit GET forms report no channel in disinherit',
  },
  {
    name: 'excluded-reports-every-channel',
    choice: 'disinherit-while-excluded',
    description: 'while an object is excluded, the disinherit GET forms report every channel below its node in disinherit',
  },
  {
    name: 'exclude-clears-disinherit',
    choice: 'exclude-keeps-disinherit',
    description: 'exclude: true clears the per-channel disinherit list of the objects it excludes',
  },
  {
    name: 'file-disinherit-pages-only',
    choice: 'file-disinherit-ids',
    description: 'GET and POST /file/disinherit take page ids only ("described as page IDs"): a file id is not found',
  },
  {
    name: 'file-disinherit-files-only',
    choice: 'file-disinherit-ids',
    description: 'GET and POST /file/disinherit take file and image ids only: a page id is not found',
  },
  {
    name: 'unlocalize-files-only',
    choice: 'unlocalize-folders',
    description: 'POST /file/unlocalize takes files and images only: a folder id is not found',
  },
  {
    name: 'unlocalize-copy-id-only',
    choice: 'unlocalize-id',
    description: "POST /file/unlocalize takes the localized copy's own id only, not the master's",
  },
  {
    name: 'unlocalize-master-id-only',
    choice: 'unlocalize-id',
    description: "POST /file/unlocalize takes the master's id (the channel in the body) only, not the copy's",
  },
  {
    name: 'push2master-copy-id-only',
    choice: 'push2master-id',
    description: "POST /file/push2master takes the id of the channel's own object (its localized copy) only, not the master's",
  },
  {
    name: 'push2master-master-id-only',
    choice: 'push2master-id',
    description: "POST /file/push2master takes the master's id (the channel in the body) only, not a localized copy's",
  },
  {
    name: 'push2master-content-only',
    choice: 'push2master-metadata',
    description: "push2master copies the channel's binary content into the master, not its name or description",
  },
  {
    name: 'push2master-local-refused',
    choice: 'push2master-local-file',
    description: 'push2master of a file that exists only in the channel is refused: it has no master to push into',
  },
  {
    name: 'localized-copy-inherited-true',
    choice: 'localized-copy-inherited',
    description: 'a localized copy says inherited true in its channel (it still has a master)',
  },
  {
    name: 'disinherit-noop-refused',
    choice: 'disinherit-nothing-to-change',
    description: 'a disinherit request that changes nothing (the objects are set as asked already) is refused',
  },
  {
    name: 'disinherit-effective-status',
    choice: 'disinherit-content-status',
    description: 'the disinherit GET forms report, for an object inside a disinherited folder, the channels of the folders above too',
  },
  {
    name: 'localizationinfo-every-node',
    choice: 'localizationinfo-start',
    description: 'folder localizationinfo reports every node of the tree, reading nodeId as where a walk down starts',
  },
  {
    name: 'localizationinfo-without-self',
    choice: 'localizationinfo-folder-itself',
    description: 'folder localizationinfo does not count the folder itself among its sub-items',
  },
  {
    name: 'delete-localized-master-refused',
    choice: 'delete-master-with-copies',
    description: 'deleting a master folder that has localized copies (of it or of anything in it) is refused until they are unlocalized',
  },
  {
    name: 'copy-marked-deleted',
    choice: 'master-deleted-mark',
    description: 'a localized copy whose master was deleted carries its own deleted, not masterDeleted',
  },
  {
    name: 'deleted-folder-not-found',
    choice: 'deleted-folder-by-id',
    description: 'a deleted folder (or one inside a deleted folder) named by id is not found, also with wastebin=include or only',
  },
  {
    name: 'unlocalize-takes-content',
    choice: 'unlocalize-folder-content',
    description:
      'unlocalizing a folder with no recursive member in the body also removes the localized copies below it (recursive false keeps them)',
  },
  {
    name: 'channel-create-refused',
    choice: 'channel-create-in-inherited-folder',
    description: 'a channel may not create folders or files in a folder it only inherits (it localizes the folder first)',
  },
  {
    name: 'duplicates-own-node-only',
    choice: 'duplicate-names-in-channel',
    description: "folder create in a channel counts only the channel's own folders as duplicates, not inherited ones",
  },

  {
    name: 'folder-localize-other-body',
    choice: 'folder-localize-body',
    description:
      'folder localize takes the channel in nodeId (read as channelId is), the folder form being "not shown": a body with channelId alone is refused',
  },
  // uploads and files (server/handlers/uploads.ts, files.ts)
  {
    name: 'name-keeps-no-extension',
    choice: 'extension-from-media-type',
    description: 'an uploaded name without an extension keeps none, whatever the media type of the data part',
  },
  {
    name: 'octet-stream-gets-bin',
    choice: 'extension-from-media-type',
    description: 'an uploaded name without an extension gains ".bin" for application/octet-stream data (as mime-db maps it)',
  },
  {
    name: 'image-uploads-are-images',
    choice: 'upload-image-kind',
    description:
      'an upload whose data part has an image/* media type makes an image (type image, typeId 10011), counted and listed as an image, not as a file',
  },
  {
    name: 'empty-upload-refused',
    choice: 'empty-upload',
    description: 'an upload of zero bytes is refused (INVALIDDATA) and creates nothing',
  },
  {
    name: 'upload-limit-2mib',
    choice: 'upload-size-limit',
    description: 'an upload of more than 2 MiB is refused with 413 and creates nothing',
  },
  {
    name: 'upload-collision-refused',
    choice: 'upload-name-collision',
    description: 'an upload without overwrite whose name a file of the folder has is refused instead of renamed base_1.ext',
  },
  {
    name: 'createsimple-part-filename-first',
    choice: 'createsimple-filename',
    description: "a multipart createSimple names the file by the data part's filename when it has one, by qqfile otherwise",
  },
  {
    name: 'create-overwrite-part-ignored',
    choice: 'create-overwrite-part',
    description:
      'a multipart create ignores an overwrite text part (the contract names none): a file of the same name gets a renamed sibling',
  },
  {
    name: 'copy-needs-target',
    choice: 'copy-without-target',
    description: 'a copy without targetFolder is refused instead of copied into the folder of the source',
  },
  {
    name: 'copy-collision-refused',
    choice: 'copy-name-collision',
    description: 'a copy whose name a file of the target folder has is refused instead of renamed base_1.ext',
  },
  {
    name: 'move-same-folder-refused',
    choice: 'move-to-same-folder',
    description: 'a move into the folder the file is already in is refused instead of answered as a no-op',
  },
  {
    name: 'save-requires-name',
    choice: 'save-partial-record',
    description: 'a JSON save whose file carries no name is refused instead of updating only the members it carries',
  },
  {
    name: 'save-keeps-file-type',
    choice: 'save-file-type',
    description: 'a JSON save ignores fileType: the media type stays the one the content was uploaded with',
  },
  {
    name: 'images-own-names',
    choice: 'file-image-names',
    description: 'files and images of a folder have names of their own: a file may take the name of an image and the other way round',
  },
  {
    name: 'save-ignores-nice-urls',
    choice: 'save-nice-urls',
    description: 'a JSON save ignores niceUrl and alternateUrls, which only the create sets',
  },

  // folders, records and pages (server/handlers/folders.ts, pages.ts, render.ts)
  {
    name: 'folder-sort-name-only',
    choice: 'folder-sort-attributes',
    description: 'GET /folder sorts by name only: id, globalId, description, publishDir, cdate and edate are ignored as unknown attributes',
  },
  {
    name: 'breadcrumb-folder-first',
    choice: 'breadcrumb-order',
    description: 'the breadcrumb lists the folders from the folder itself up to the root',
  },
  {
    name: 'getitems-pages-only',
    choice: 'getitems-kinds',
    description: 'getItems without type lists the pages of the folder only, not its files and images (the page editor default)',
  },
  {
    name: 'getfolders-post-recursive-default',
    choice: 'getfolders-post-absent-members',
    description: 'POST getFolders reads a body without a recursive member as recursive (a tree-loading client default)',
  },
  {
    name: 'tree-search-top-level-only',
    choice: 'tree-search',
    description: 'a tree answer applies search to its top level only: the sub-folders of a match are all attached',
  },
  {
    name: 'flat-listing-nests-subfolders',
    choice: 'flat-listing-subfolders',
    description: 'getFolders and GET /folder with recursive but without tree also attach the sub-folders to each listed folder',
  },
  {
    name: 'getfolders-plain-recursive-ids',
    choice: 'recursive-ids-node-form',
    description:
      'getFolders (GET and POST) takes plain folder ids in recursiveIds and recId: entries in the form nodeId/folderId are ignored',
  },
  {
    name: 'privileges-as-map',
    choice: 'privileges-members',
    description: 'addPrivileges, privileges (getFolders, load) add the privilege map instead of the list of privilege names',
  },
  {
    name: 'language-variants-by-id',
    choice: 'language-variants-key',
    description: 'languageVariants is keyed by the id of the language (contentGroupId), not by its code',
  },
  {
    name: 'external-links-any-scheme',
    choice: 'external-links-schemes',
    description: 'getExternalLinks lists every address of a link part that refers to no page, ftp: and mailto: as well as http(s)',
  },
  {
    name: 'disinherited-channels-omitted',
    choice: 'disinherited-channels-carried',
    description: 'records disinherited in some channel say disinherited true but leave disinheritedChannels out',
  },
  {
    name: 'template-tags-without-flags',
    choice: 'template-tag-booleans-carried',
    description: 'template tags leave out mandatory and editableInPage (null Booleans of the template editor, left out of the JSON)',
  },

  {
    name: 'folder-name-collision-refused',
    choice: 'folder-name-collision',
    description: 'a folder created without failOnDuplicate under a name a sibling has is refused, as with failOnDuplicate',
  },
  {
    name: 'folder-name-collision-kept',
    choice: 'folder-name-collision',
    description: 'a folder created without failOnDuplicate under a name a sibling has keeps that name: two siblings share it',
  },
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

  {
    name: 'syncable-dst-must-be-channel',
    choice: 'syncable-dst-node',
    description: 'syncableObjects reads dstNodeId ("target channel") as a channel and refuses the master node there',
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
const BODY_LEVEL = [
  'extra-members',
  'reordered-members',
  'deleted-at-zero',
  'sparse-members',
  'lean-records',
  'no-staging-status',
  'timestamps-in-ms',
];

/** Members holding timestamps (contract 2: cdate, edate, pdate, DeleteInfo at, ...), which timestamps-in-ms writes in milliseconds. */
const TIMESTAMPS = new Set([
  'cdate',
  'edate',
  'pdate',
  'at',
  'timestamp',
  'versionTimestamp',
  'customCdate',
  'customEdate',
  'offlineAt',
  'lockedSince',
]);

/** Query parameters and POST getFolders members holding timestamps, which timestamps-in-ms reads in milliseconds. */
const TIMESTAMP_FILTERS = new Set([
  'createdbefore',
  'createdsince',
  'editedbefore',
  'editedsince',
  'publishedbefore',
  'publishedsince',
  'createdBefore',
  'createdSince',
  'editedBefore',
  'editedSince',
]);

/**
 * A request as the handlers (which count in seconds) read it under timestamps-in-ms: its timestamp filters, sent in
 * milliseconds, in seconds. 0 ("means all objects") stays 0.
 */
export function varyRequest<R extends { query: Record<string, unknown>; body?: unknown }>(
  req: R,
  on: { has(name: 'timestamps-in-ms'): boolean },
): R {
  if (!on.has('timestamps-in-ms')) return req;
  // The handlers keep seconds and compare inclusively (t <= before, t >= since): for a whole second t, t * 1000 <= b exactly
  // when t <= floor(b / 1000), and t * 1000 >= b when t >= ceil(b / 1000). A bound below a second stays above 0 (which
  // "means all objects"): only an object of 1970's first second would tell.
  const secondsOf = (name: string, v: unknown) =>
    typeof v !== 'number' || v <= 0 || !TIMESTAMP_FILTERS.has(name)
      ? v
      : /since$/i.test(name)
        ? Math.ceil(v / 1000)
        : Math.max(1, Math.floor(v / 1000));
  const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, secondsOf(k, v)])) as R['query'];
  const body =
    req.body && typeof req.body === 'object' && !Array.isArray(req.body)
      ? Object.fromEntries(Object.entries(req.body).map(([k, v]) => [k, secondsOf(k, v)]))
      : req.body;
  return { ...req, query, ...(body === undefined ? {} : { body }) };
}

/**
 * Members sparse-members keeps whatever their value: the envelope (contract 2.1: "Every JSON response body
 * shown carries these two members") and the paging members ("Paged list responses carry hasMoreItems
 * (boolean) and numItems (number)").
 */
const ALWAYS_CARRIED = new Set(['messages', 'responseInfo', 'hasMoreItems', 'numItems']);

/** The page record's required fields (contract 2.6: "Required fields are marked"), which a page always carries. */
const PAGE_REQUIRED = new Set(getSchema('records/Page.json').required ?? []);

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
  const millis = on.has('timestamps-in-ms');
  const walk = (value: unknown, top = false): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    const page = typeof record.pdate === 'number' && 'lockedSince' in record;
    let entries = Object.entries(record)
      // Messages carry their timestamp in milliseconds already (reference notes).
      .map(([k, v]) => [k, k === 'messages' ? v : walk(v)] as [string, unknown])
      .map(([k, v]) => [k, millis && TIMESTAMPS.has(k) && typeof v === 'number' && v > 0 ? v * 1000 : v] as [string, unknown])
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
