/**
 * Folder operations of contract 4.2: list (GET /folder, getFolders GET and POST), breadcrumb, count,
 * delete, load, create and getItems.
 */
import type { FolderCreateRequest, FolderListRequest } from '../../schemas/types.ts';
import {
  allocateId,
  folderChain,
  globalIdFor,
  insertObject,
  isRoot,
  linkTemplate,
  lookup,
  nameKey,
  nowSeconds,
  removeObject,
  resolveInView,
  setsBelow,
  setsNamed,
  type FileObj,
  type FolderObj,
  type Obj,
  type PageObj,
  type State,
  type TakenNames,
  type View,
} from '../state.ts';
import { Refusal, type FaultSet, type Handler, type HandlerContext, type OpRequest } from '../types.ts';
import {
  bodyOf,
  checkName,
  namesInFolder,
  nodeView,
  qBool,
  qInt,
  qStr,
  qStrs,
  qWastebin,
  resolveObject,
  stagingMap,
  stagingStatus,
  type Wastebin,
} from './common.ts';
import {
  collectChildren,
  filterFromQuery,
  legacySortKeys,
  objectPredicate,
  pageLegacy,
  pageNew,
  sortByAttributes,
  sortLegacy,
  walkOf,
  type ObjectFilter,
  type SortKey,
} from './listing.ts';
import { deleteRecursively } from './mutations.ts';
import { createPage, languageFilter, templatesIn } from './pages.ts';
import { folderRecord, itemRecord, ITEM_PERMISSIONS, type FolderRenderOptions, type RenderCtx } from './render.ts';

/** Everything a folder listing needs, whichever of the three forms asked. */
interface FolderListParams {
  id: string | undefined;
  nodeId?: number;
  recursive: boolean;
  tree: boolean;
  recursiveIds: string[];
  /** Variation (getfolders-plain-recursive-ids): getFolders takes plain folder ids only; node-form entries are ignored. */
  plainRecursiveIds?: boolean;
  wastebin: Wastebin;
  filter: ObjectFilter;
  render: FolderRenderOptions;
  pkg?: string;
}

/** Whether a recursiveIds entry (id, global id, or nodeId/folderId) names the folder. */
function namesFolder(entry: string, f: FolderObj, view: View, faults: HandlerContext['faults']): boolean {
  const [a, b] = entry.split('/');
  // Planted: the nodeId/folderId form is taken for a plain id, which names no folder.
  if (b !== undefined) return !faults.has('recursiveids-node-form-ignored') && view.chain.includes(Number(a)) && b === String(f.id);
  return entry === String(f.id) || entry === f.globalId;
}

/** The folder a listing starts at: the given id, or the root folder of the node (or of the master). */
function startFolder(state: State, p: FolderListParams, ctx: HandlerContext): { folder: FolderObj; view: View } {
  const view = nodeView(state, p.nodeId);
  const id =
    p.id ?? String(state.nodes.get(view?.nodeId ?? [...state.nodes.values()].find((n) => n.masterId === undefined)!.id)!.rootFolderId);
  const { obj, view: v } = resolveObject(state, id, {
    kinds: ['folder'],
    view,
    wastebin: p.wastebin,
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  return { folder: obj as FolderObj, view: v };
}

/** The folders of a listing (flat, or the top level of a tree) and how to render each. */
function folderListing(state: State, p: FolderListParams, ctx: HandlerContext) {
  const { folder, view } = startFolder(state, p, ctx);
  const keep = objectPredicate(state, view, p.filter, ctx.faults);
  // Variation (tree-search-top-level-only): search selects the top level of a tree; the other filters hold at every level.
  const keepNested = ctx.faults.has('tree-search-top-level-only')
    ? objectPredicate(state, view, { ...p.filter, search: undefined }, ctx.faults)
    : keep;
  const recursiveIds = p.plainRecursiveIds ? p.recursiveIds.filter((e) => !e.includes('/')) : p.recursiveIds;
  const descend = recursiveIds.length > 0 ? (f: FolderObj) => recursiveIds.some((e) => namesFolder(e, f, view, ctx.faults)) : undefined;
  const walk = walkOf(view, p.recursive && !p.tree, p.wastebin, ctx.faults, descend ? { descend } : {});
  const items = collectChildren(state, folder, 'folder', walk).filter(keep);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  // Planted: the listings read no addPrivileges or privileges, so their records come without privileges.
  const options = ctx.faults.has('listing-privileges-ignored') ? { ...p.render, privileges: false } : p.render;
  const render = (f: FolderObj, order: (fs: FolderObj[]) => FolderObj[]) => {
    const record = folderRecord(rctx, f, options);
    // Planted: the tree answer has its own serialisation path, so only tree=true answers are misshapen.
    if (p.tree && record.motherId !== undefined && ctx.faults.has('shape-getfolders-tree'))
      Object.assign(record, { motherId: String(record.motherId) });
    // Variation (flat-listing-nests-subfolders): the sub-folders are attached whether or not a tree was asked for; in a
    // flat listing, which lists every descendant anyway, each record carries its own children only (nested all the way
    // down, a chain of n folders would answer n²/2 records).
    const nest = (p.tree || ctx.faults.has('flat-listing-nests-subfolders')) && p.recursive;
    if (nest && !ctx.faults.has('tree-not-nested') && (!descend || descend(f))) {
      const children = collectChildren(state, f, 'folder', { ...walk, recursive: false });
      record.subfolders = order(children.filter(keepNested)).map((s) => (p.tree ? render(s, order) : folderRecord(rctx, s, options)));
    }
    return record;
  };
  // Planted (recursive-ids-unknown-500): "deleted" reads every recursiveIds entry as an object, also one no object has.
  if (ctx.faults.has('recursive-ids-unknown-500') && p.recursive && recursiveIds.some((e) => !lookup(state, e.split('/').pop()!)))
    throw new TypeError("Cannot read properties of undefined (reading 'deleted')");
  // "deleted": the recursiveIds that no longer name a live folder.
  const gone = (e: string) => {
    const f = lookup(state, e.split('/').pop()!);
    return !f || f.kind !== 'folder' || f.deleted !== undefined;
  };
  const deleted = p.recursive ? recursiveIds.filter(gone) : [];
  return { folder, view, items, render, deleted };
}

/** Group P sort keys of folders. */
function folderAttributes(): Record<string, SortKey> {
  return {
    id: (o) => o.id,
    globalId: (o) => o.globalId,
    name: (o) => o.name,
    description: (o) => o.description,
    publishDir: (o) => (o.kind === 'folder' ? o.publishDir : undefined),
    cdate: (o) => o.cdate,
    edate: (o) => o.edate,
  };
}

/** GET /folder: folders in a folder, Group F and Group P. */
export const folderList: Handler<State> = (state, req, ctx) => {
  const p: FolderListParams = {
    id: qStr(req, 'folderId'),
    nodeId: qInt(req, 'nodeId'),
    recursive: qBool(req, 'recursive', false),
    tree: qBool(req, 'tree', false),
    recursiveIds: qStrs(req, 'recursiveIds'),
    wastebin: qWastebin(req, ctx.faults),
    filter: filterFromQuery(req),
    render: { privileges: qBool(req, 'addPrivileges', false), privilegeMap: qBool(req, 'privilegeMap', false) },
    pkg: qStr(req, 'package'),
  };
  const l = folderListing(state, p, ctx);
  // Variation (folder-sort-name-only): GET /folder knows name alone; the other attributes are ignored as unknown (reference notes).
  const attributes = ctx.faults.has('folder-sort-name-only') ? { name: folderAttributes().name! } : folderAttributes();
  const order = (fs: FolderObj[]) => sortByAttributes(fs, qStr(req, 'sort') ?? 'name', attributes, ctx.faults);
  const paged = pageNew(order(l.items), qInt(req, 'page', 1), qInt(req, 'pageSize', -1), ctx.faults);
  return {
    items: paged.items.map((f) => l.render(f, order)),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
    deleted: l.deleted,
    perms: Object.fromEntries(paged.items.map((f) => [String(f.id), ITEM_PERMISSIONS])),
    stagingStatus: stagingMap(state, paged.items, p.pkg),
  };
};

function legacyFolderList(
  state: State,
  p: FolderListParams,
  ctx: HandlerContext,
  sortby: string | undefined,
  sortorder: string | undefined,
  skip: number,
  max: number,
) {
  const l = folderListing(state, p, ctx);
  const keys = legacySortKeys(state, l.view);
  const order = (fs: FolderObj[]) => sortLegacy(fs, sortby, sortorder, keys, ctx.faults);
  const paged = pageLegacy(order(l.items), skip, max, ctx.faults);
  return {
    folders: paged.items.map((f) => l.render(f, order)),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
    deleted: l.deleted,
    stagingStatus: stagingMap(state, paged.items, p.pkg),
  };
}

/** GET /folder/getFolders/{id}: folders in a folder, Group F and Group L. */
export const getFolders: Handler<State> = (state, req, ctx) => {
  const p: FolderListParams = {
    id: req.path.id,
    nodeId: qInt(req, 'nodeId'),
    recursive: qBool(req, 'recursive', false),
    tree: qBool(req, 'tree', false),
    recursiveIds: [...(ctx.faults.has('getfolders-recid-ignored') ? [] : qStrs(req, 'recId')), ...qStrs(req, 'recursiveIds')],
    plainRecursiveIds: ctx.faults.has('getfolders-plain-recursive-ids'),
    wastebin: qWastebin(req, ctx.faults),
    filter: filterFromQuery(req),
    render: {
      privileges: qBool(req, 'addPrivileges', false) || qBool(req, 'privileges', false),
      privilegeMap: qBool(req, 'privilegeMap', false),
    },
    pkg: qStr(req, 'package'),
  };
  return legacyFolderList(state, p, ctx, qStr(req, 'sortby'), qStr(req, 'sortorder'), qInt(req, 'skipCount', 0), qInt(req, 'maxItems', -1));
};

/** POST /folder/getFolders: the same listing, parameters in a FolderListRequest body (FLD-04). */
export const getFoldersPost: Handler<State> = (state, req, ctx) => {
  const b = bodyOf<FolderListRequest>(req);
  const partialDates = ctx.faults.has('getfolders-post-date-filters-partial');
  const userFilters = !ctx.faults.has('getfolders-post-user-filters-ignored');
  // Planted (getfolders-post-default-include): the body's absent wastebin falls to include, not the contract's exclude.
  // Planted (getfolders-post-deleted-folder-listed): the absent wastebin reads as no mode, which refuses no deleted folder.
  const absent: Wastebin = ctx.faults.has('getfolders-post-deleted-folder-listed') ? ('' as Wastebin) : 'exclude';
  const given = b.wastebin ?? (ctx.faults.has('getfolders-post-default-include') ? 'include' : absent);
  const wastebin: Wastebin = given === 'only' && ctx.faults.has('wastebin-only-ignored') ? 'include' : given;
  const p: FolderListParams = {
    id: b.id,
    nodeId: b.nodeId,
    // Variation (getfolders-post-recursive-default): an absent recursive member reads as true.
    recursive: b.recursive ?? ctx.faults.has('getfolders-post-recursive-default'),
    tree: b.tree ?? false,
    // Planted: the body's recursiveIds are not read, so every folder's children are fetched.
    recursiveIds: ctx.faults.has('getfolders-post-recursiveids-ignored') ? [] : (b.recursiveIds ?? []),
    plainRecursiveIds: ctx.faults.has('getfolders-plain-recursive-ids'),
    wastebin,
    filter: {
      createdbefore: b.createdBefore ?? 0,
      // Planted: of the date members, the body form reads createdBefore alone.
      createdsince: partialDates ? 0 : (b.createdSince ?? 0),
      editedbefore: partialDates ? 0 : (b.editedBefore ?? 0),
      editedsince: partialDates ? 0 : (b.editedSince ?? 0),
      // Planted: the body form reads no user patterns.
      creator: userFilters ? b.creator : undefined,
      editor: userFilters ? b.editor : undefined,
      creatorIds: [],
      editorIds: [],
      // Planted: the body form lists the requesting user's own folders only.
      iscreator: ctx.faults.has('getfolders-post-own-folders-only'),
      iseditor: false,
      inherited: b.inherited,
      search: b.search,
    },
    render: { privileges: b.addPrivileges ?? false, privilegeMap: b.privilegeMap ?? false },
    pkg: b.stagingPackageName,
  };
  if (p.id === undefined) throw new Refusal('INVALIDDATA', 'id: the folder id is required', 'id');
  // Planted: the body form was added after paging, which it forgets, answering every folder.
  const unpaged = ctx.faults.has('getfolders-post-paging-ignored');
  // Planted: the body's sortBy and sortOrder are not read, so the answer comes in the default order.
  const unsorted = ctx.faults.has('getfolders-post-sort-ignored');
  return legacyFolderList(
    state,
    p,
    ctx,
    unsorted ? undefined : b.sortBy,
    unsorted ? undefined : b.sortOrder,
    unpaged ? 0 : (b.skipCount ?? 0),
    unpaged ? -1 : (b.maxItems ?? -1),
  );
};

/** GET /folder/breadcrumb/{id}: the folders from the root down to the folder (FLD-05). */
export const breadcrumb: Handler<State> = (state, req, ctx) => {
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const chain = folderChain(state, obj as FolderObj, view);
  // Planted: the chain is walked from the grandparent, so the folder's mother is left out.
  if (ctx.faults.has('breadcrumb-skips-mother') && chain.length > 2) chain.splice(chain.length - 2, 1);
  // Variation (breadcrumb-folder-first): the folder first, up to the root.
  if (ctx.faults.has('breadcrumb-folder-first')) chain.reverse();
  // Planted: hasMoreItems says more folders follow the complete chain.
  const more = ctx.faults.has('breadcrumb-has-more-items');
  return { folders: chain.map((f) => folderRecord(rctx, f)), hasMoreItems: more, numItems: chain.length, deleted: [], stagingStatus: {} };
};

/** GET /folder/count/{id}: counts matching what the listings return with the same parameters (FLD-06, WST-04). */
export const count: Handler<State> = (state, req, ctx) => {
  // Planted: count was written before the wastebin and never reads the parameter.
  const wastebin = ctx.faults.has('count-ignores-wastebin') ? 'exclude' : qWastebin(req, ctx.faults);
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    wastebin,
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  const folder = obj as FolderObj;
  const stale = ctx.faults.has('count-stale-after-delete');
  const walk = walkOf(
    view,
    // Planted: count reads no `recursive` and counts the folder's own content alone.
    qBool(req, 'recursive', false) && !ctx.faults.has('count-recursive-ignored'),
    wastebin,
    ctx.faults,
    stale ? { ignoreDeletion: (o) => o.deleted?.live === true } : {},
  );
  // Planted: count reads no inherited and counts inherited and local objects alike.
  const inherited = ctx.faults.has('count-inherited-ignored') ? undefined : qBool(req, 'inherited');
  const keep = (o: Obj) => inherited === undefined || (o.nodeId !== view.nodeId) === inherited;
  const language = qStr(req, 'language');
  // Planted (count-pages-templates-inherited-ignored): pages and templates are counted inherited and local alike.
  const kindKeep = ctx.faults.has('count-pages-templates-inherited-ignored') ? () => true : keep;
  const pages = collectChildren(state, folder, 'page', walk).filter(kindKeep);
  return {
    folders: collectChildren(state, folder, 'folder', walk).filter(keep).length,
    pages: language ? languageFilter(state, view, pages, language, true).length : pages.length,
    templates: wastebin === 'only' ? 0 : templatesIn(state, folder, walk, ctx.faults).filter((e) => kindKeep(e.template)).length,
    // Planted: images are counted inherited and local alike.
    images: collectChildren(state, folder, 'image', walk).filter(ctx.faults.has('count-images-inherited-ignored') ? () => true : keep)
      .length,
    files: collectChildren(state, folder, 'file', walk).filter(keep).length,
  };
};

/**
 * POST /folder/delete/{id}: recursive delete into the wastebin. In a channel, an inherited folder is
 * refused ("has to be deleted in the master node") and a localized one too ("unlocalize it instead"),
 * both FAILURE with nothing changed (contract 3, DEL-01/02/06). Deleting in the master reaches the channels.
 */
export const deleteFolder: Handler<State> = (state, req, ctx) => {
  const explicit = nodeView(state, qInt(req, 'nodeId'));
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: explicit,
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  const folder = obj as FolderObj;
  if (isRoot(folder)) throw new Refusal('FAILURE', 'a root folder cannot be deleted; delete the node instead', 'id', 409);
  const refuse = (message: string): never => {
    // The planted fault deletes the folder's files before noticing the refusal.
    if (ctx.faults.has('refused-delete-changes-state')) {
      for (const f of collectChildren(state, folder, 'file', { view, recursive: false, wastebin: 'exclude' }))
        f.deleted = { at: nowSeconds(state), by: state.requesterId, live: true };
    }
    throw new Refusal('FAILURE', message, 'id', 409);
  };
  if (explicit && folder.nodeId !== view.nodeId && !ctx.faults.has('delete-inherited-in-channel-allowed')) {
    refuse(`Can't delete an inherited folder, the folder has to be deleted in the master node.`);
  }
  if (folder.masterId !== undefined && !ctx.faults.has('delete-localized-in-channel-allowed')) {
    refuse('Deletion of localized folders is not possible, unlocalize it instead.');
  }
  if (ctx.faults.has('channel-delete-skips-wastebin') && state.nodes.get(folder.nodeId)?.masterId !== undefined) {
    // Planted: a channel's own folder has no master to restore from, so the delete purges it instead of binning it.
    const sets = [folder.channelSetId, ...[...setsBelow(state, folder.channelSetId)].map((c) => c.set)];
    for (const set of sets.reverse()) for (const v of [...(state.sets.get(set) ?? [])]) removeObject(state, v);
    return {};
  }
  // Variation: a master folder with localized copies in it (or of it) stays until the channels unlocalize them.
  if (ctx.faults.has('delete-localized-master-refused') && folder.masterId === undefined) {
    const copy = [folder.channelSetId, ...[...setsBelow(state, folder.channelSetId)].map((c) => c.set)]
      .flatMap((set) => state.sets.get(set) ?? [])
      .find((v) => v.masterId !== undefined && !v.deleted);
    if (copy)
      throw new Refusal('FAILURE', `${copy.kind} ${copy.id} in it is localized in node ${copy.nodeId}; unlocalize it first`, 'id', 409);
  }
  const mark = { at: nowSeconds(state), by: state.requesterId, live: true };
  if (folder.masterId !== undefined) folder.deleted = mark;
  else deleteRecursively(state, folder.channelSetId, mark);
  return {};
};

/**
 * Refuses to create an object in a channel (an explicit view of a node that has a master) inside a folder the
 * channel only inherits, under the variation channel-create-refused: the channel localizes the folder first.
 */
export function refuseInInheritedFolder(state: State, faults: FaultSet, folder: FolderObj, view: View, explicit: View | undefined): void {
  if (!faults.has('channel-create-refused') || !explicit || state.nodes.get(view.nodeId)?.masterId === undefined) return;
  if (folder.nodeId !== view.nodeId)
    throw new Refusal(
      'FAILURE',
      `folder ${folder.id} is inherited in channel ${view.nodeId}: localize it to create objects in it`,
      'id',
      409,
    );
}

/** The lower-cased folder names a node's own folders (not inherited ones) hold in a folder set. */
function ownNames(state: State, parentSet: number, nodeId: number): TakenNames {
  return {
    has: (lowerName) =>
      setsNamed(state, parentSet, lowerName).some((set) =>
        (state.sets.get(set) ?? []).some((v) => v.kind === 'folder' && v.nodeId === nodeId && !v.deleted && nameKey(v) === lowerName),
      ),
  };
}

/** Planted (load-update-locks-folder): the folders loaded with update=true, per store, locked from then on. */
const lockedFolders = new WeakMap<State, Set<number>>();

/** GET /folder/load/{id}: one folder; `privileges` adds privileges; `update` locks nothing (FLD-11). */
export const loadFolder: Handler<State> = (state, req, ctx) => {
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  if (ctx.faults.has('load-update-locks-folder') && qBool(req, 'update', false)) {
    let locked = lockedFolders.get(state);
    if (!locked) lockedFolders.set(state, (locked = new Set()));
    if (locked.has(obj.id)) throw new Refusal('FAILURE', `folder ${obj.id} is locked by another user`, 'id');
    locked.add(obj.id);
  }
  const privileges = qBool(req, 'privileges', false) && !ctx.faults.has('privileges-missing');
  return {
    folder: folderRecord({ state, view, faults: ctx.faults }, obj as FolderObj, {
      tags: true,
      construct: qBool(req, 'construct', false) && !ctx.faults.has('load-construct-ignored'),
      privileges,
    }),
    // Planted: the status asked in no package, whichever was named.
    stagingStatus: stagingStatus(state, obj, ctx.faults.has('load-package-ignored') ? undefined : qStr(req, 'package')),
  };
};

/** Normalises a publish directory to start and end with `/`, without doubled slashes. */
export function normalizePublishDir(dir: string): string {
  return `/${dir.split('/').filter(Boolean).join('/')}/`.replace(/^\/\/$/, '/');
}

/**
 * POST /folder/create: a folder under `motherId`. A sibling's name gets a number appended ("News" ->
 * "News1") unless failOnDuplicate, which refuses INVALIDDATA `name`; a missing mother is FAILURE (FLD-01/02).
 */
export const createFolder: Handler<State> = (state, req, ctx) => {
  const b = bodyOf<FolderCreateRequest>(req);
  const name = checkName(b.name, 'name', 'folder');
  if (b.motherId === undefined || b.motherId === '')
    throw new Refusal('INVALIDDATA', 'motherId: the mother folder is required', 'motherId');
  const explicit = nodeView(state, b.nodeId);
  let mother: FolderObj;
  let view: View;
  try {
    const r = resolveObject(state, b.motherId, {
      kinds: ['folder'],
      view: explicit,
      what: 'mother folder',
      faults: ctx.faults,
      property: 'motherId',
    });
    [mother, view] = [r.obj as FolderObj, r.view];
  } catch (err) {
    // Planted: the missing mother is dereferenced, as a null pointer would be.
    if (err instanceof Refusal && err.code === 'NOTFOUND' && ctx.faults.has('create-unknown-mother-500'))
      throw new TypeError("Cannot read properties of undefined (reading 'channelSetId')");
    if (err instanceof Refusal && err.code === 'NOTFOUND')
      throw new Refusal('FAILURE', `Error while creating new folder: ${err.message}`, 'motherId', 404);
    throw err;
  }
  if (ctx.faults.has('load-update-locks-folder') && lockedFolders.get(state)?.has(mother.id))
    throw new Refusal('FAILURE', `folder ${mother.id} is locked by another user`, 'motherId');
  // Planted: the publish directory is always derived from the mother's and the name, whatever the body says.
  const derived = b.publishDir === undefined || b.publishDir === '' || ctx.faults.has('folder-create-publishdir-derived');
  const publishDir = derived ? undefined : normalizePublishDir(b.publishDir!);
  if ((publishDir ?? '').length > 255) throw new Refusal('INVALIDDATA', 'publishDir: exceeds 255 characters', 'publishDir');
  // Variation (channel-create-refused): a channel creates its own objects only in folders of its own (local or localized).
  refuseInInheritedFolder(state, ctx.faults, mother, view, explicit);
  // Variation (duplicates-own-node-only): in a channel, only the channel's own folders hold names a new one may not take.
  const taken =
    ctx.faults.has('duplicates-own-node-only') && explicit && state.nodes.get(view.nodeId)?.masterId !== undefined
      ? ownNames(state, mother.channelSetId, view.nodeId)
      : namesInFolder(state, mother.channelSetId, ['folder'], view.nodeId);
  let finalName = name;
  // Variations folder-name-collision-refused and -kept: without failOnDuplicate a taken name is refused, or kept as sent.
  const refusedAnyway = ctx.faults.has('folder-name-collision-refused');
  if (taken.has(name.toLowerCase())) {
    if ((b.failOnDuplicate || refusedAnyway) && !ctx.faults.has('create-failonduplicate-ignored')) {
      throw new Refusal('INVALIDDATA', `a folder named "${name}" already exists in the mother folder`, 'name');
    }
    if (!ctx.faults.has('folder-name-collision-kept')) for (let i = 1; taken.has(finalName.toLowerCase()); i++) finalName = `${name}${i}`;
  }
  const links = [...(state.templateLinks.get(mother.channelSetId) ?? [])];
  let startTemplate: number | undefined;
  if (b.startpage) {
    const linked = links.map((set) => resolveInView(state, set, view)).filter((t) => t !== undefined);
    startTemplate = (linked.find((t) => t.id === b.templateId || t.channelSetId === b.templateId) ?? linked[0])?.channelSetId;
    // Planted (startpage-without-template-500): the first linked template is read without asking whether there is one.
    if (startTemplate === undefined && ctx.faults.has('startpage-without-template-500'))
      throw new TypeError("Cannot read properties of undefined (reading 'channelSetId')");
    if (startTemplate === undefined) throw new Refusal('FAILURE', 'No template was found for creating the startpage.', 'templateId', 409);
  }
  const now = nowSeconds(state);
  const id = allocateId(state);
  const slug =
    finalName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || `folder-${id}`;
  const folder: FolderObj = {
    kind: 'folder',
    id,
    globalId: globalIdFor(id),
    nodeId: view.nodeId,
    channelSetId: id,
    parentSet: mother.channelSetId,
    name: finalName,
    // Planted: description and the I18n maps are left for a later save that never comes.
    description: ctx.faults.has('folder-create-metadata-dropped') ? '' : (b.description ?? ''),
    cdate: now,
    edate: now,
    creatorId: state.requesterId,
    editorId: state.requesterId,
    publishDir: publishDir ?? normalizePublishDir(`${mother.publishDir}/${slug}`),
    ...(b.nameI18n && !ctx.faults.has('folder-create-metadata-dropped') ? { nameI18n: b.nameI18n } : {}),
    ...(b.descriptionI18n && !ctx.faults.has('folder-create-metadata-dropped') ? { descriptionI18n: b.descriptionI18n } : {}),
    ...(b.publishDirI18n && !ctx.faults.has('folder-create-metadata-dropped') ? { publishDirI18n: b.publishDirI18n } : {}),
  };
  insertObject(state, folder);
  // Planted: the global id index is left to a later reindex, so the new folder is unknown by globalId until then.
  if (ctx.faults.has('created-folder-globalid-unknown')) state.byGlobalId.delete(folder.globalId);
  for (const set of links) linkTemplate(state, folder.channelSetId, set);
  if (startTemplate !== undefined) createPage(state, folder, startTemplate, finalName, b.language);
  return {
    folder: folderRecord({ state, view, faults: ctx.faults }, folder, { tags: true }),
    stagingStatus: stagingStatus(state, folder, undefined),
  };
};

/**
 * GET /folder/getItems/{folderId} (parameters not shown): the folder's pages, files and images with the
 * common item fields only (FLD-07). Accepts nodeId, type (page, file, image), recursive, wastebin,
 * search and Group L paging and sorting.
 */
export const getItems: Handler<State> = (state, req: OpRequest, ctx) => {
  const wastebin = qWastebin(req, ctx.faults);
  const { obj, view } = resolveObject(state, req.path.folderId, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    wastebin,
    what: 'folder',
    faults: ctx.faults,
    property: 'folderId',
  });
  const asked = qStrs(req, 'type');
  // Variation (getitems-pages-only): without type, the page editor's default of pages only.
  const types = asked.length === 0 && ctx.faults.has('getitems-pages-only') ? ['page'] : asked;
  const wanted = (['page', 'file', 'image'] as const).filter((k) => types.length === 0 || types.includes(k));
  // Planted: recursive defaults to true, so the content of the sub-folders is listed with the folder's own.
  const walk = walkOf(view, qBool(req, 'recursive', ctx.faults.has('getitems-lists-subfolder-content')), wastebin, ctx.faults);
  const keep = objectPredicate(state, view, filterFromQuery(req), ctx.faults);
  const items: (PageObj | FileObj)[] = wanted.flatMap((k) => collectChildren(state, obj as FolderObj, k, walk)).filter(keep);
  const sorted = sortLegacy(items, qStr(req, 'sortby'), qStr(req, 'sortorder'), legacySortKeys(state, view), ctx.faults);
  const paged = pageLegacy(sorted, qInt(req, 'skipCount', 0), qInt(req, 'maxItems', -1), ctx.faults);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  return { items: paged.items.map((o) => itemRecord(rctx, o)), hasMoreItems: paged.hasMoreItems, numItems: paged.numItems };
};
