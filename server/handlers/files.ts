/**
 * File operations of contract 4.2/4.3 that are not uploads: GET /file, getFiles, findFiles, load,
 * copy, move and save (JSON).
 */
import type { FileCopyRequest, FileSaveRequest, ObjectMoveRequest } from '../../schemas/types.ts';
import {
  ancestorsVisible,
  inWastebin,
  nowSeconds,
  renameObject,
  reparent,
  resolveInView,
  viewOf,
  type FileObj,
  type FolderObj,
  type Obj,
  type State,
  type TakenNames,
  type View,
} from '../state.ts';
import { Refusal, type FaultSet, type Handler, type OpRequest } from '../types.ts';
import {
  bodyOf,
  checkName,
  member,
  namesInFolder,
  nodeView,
  qBool,
  qInt,
  qInts,
  qStr,
  qWastebin,
  resolveObject,
  stagingMap,
  stagingStatus,
  type Wastebin,
} from './common.ts';
import {
  attributeOrder,
  filterFromQuery,
  isEmptyFilter,
  legacyOrder,
  legacySortKeys,
  objectPredicate,
  pageFromQuery,
  pageLegacy,
  pageNew,
  sortedListing,
  type SortKey,
  type SortOrder,
} from './listing.ts';
import { copyObject, uniqueFileName } from './mutations.ts';
import { findMatches, findScope, niceUrlMatcher } from './pages.ts';
import { fileRecord, ITEM_PERMISSIONS, keptFileRecord, renderContexts, withLinks, type RenderCtx } from './render.ts';
import { referrersOf } from './usage.ts';

/** Whether an object is seen, live, in a view (the referrer test of `used`). */
function liveIn(state: State, obj: Obj, view: View): boolean {
  return resolveInView(state, obj.channelSetId, view) === obj && ancestorsVisible(state, obj, view) && !inWastebin(state, obj, view);
}

/**
 * Whether a file is used: an object tag of another object refers to it, that object being live in one
 * of the views (the current channel, extended by `usedIn`; USE-05, FLT-07).
 */
export function isUsed(state: State, file: FileObj, views: View[], faults: FaultSet): boolean {
  for (const id of referrersOf(state, file.channelSetId, faults)) {
    const ref = state.objects.get(id);
    if (!ref || ref.channelSetId === file.channelSetId || ref.deleted) continue;
    // Planted: only pages count as users, as in the page editor's "used in" view.
    if (faults.has('used-pages-only') && ref.kind !== 'page') continue;
    if (faults.has('used-filter-all-channels') || views.some((v) => liveIn(state, ref, v))) return true;
  }
  return false;
}

/** The file filters of getFiles and GET /file: broken, online, niceurl, used/usedIn; undefined when none is asked. */
function fileFilter(state: State, view: View, req: OpRequest, faults: FaultSet): ((f: FileObj) => boolean) | undefined {
  const broken = faults.has('getfiles-broken-filter-ignored') ? undefined : qBool(req, 'broken');
  const online = qBool(req, 'online');
  const niceurl = niceUrlMatcher(qStr(req, 'niceurl'), faults);
  const used = qBool(req, 'used');
  const views = [
    view,
    // Planted: used checks the current channel alone, as if usedIn were not given.
    ...(faults.has('usedin-ignored') ? [] : qInts(req, 'usedIn'))
      // Planted: a usedIn naming no node reaches viewOf, which throws.
      .filter((id) => faults.has('usedin-unknown-500') || state.nodes.has(id))
      .map((id) => viewOf(state, id)),
  ];
  if (broken === undefined && online === undefined && !niceurl && used === undefined) return undefined;
  return (f) =>
    (broken === undefined || (f.data === null) === broken) &&
    (online === undefined || f.online === online) &&
    (!niceurl || niceurl(f.niceUrl, f.alternateUrls)) &&
    (used === undefined || isUsed(state, f, views, faults) === used);
}

/**
 * The files of a folder listing, filtered (Group F and the file filters) and sorted by the order the
 * view gives; read from the folder's kept sorted view (listing.ts sortedListing), not copied when
 * nothing is filtered.
 */
function listedFiles(
  state: State,
  req: OpRequest,
  folderRef: string | undefined,
  wastebin: Wastebin,
  faults: FaultSet,
  orderIn: (view: View) => SortOrder,
) {
  const explicit = nodeView(state, qInt(req, 'nodeId'));
  const ref =
    folderRef ?? state.nodes.get(explicit?.nodeId ?? [...state.nodes.values()].find((n) => n.masterId === undefined)!.id)!.rootFolderId;
  const { obj, view } = resolveObject(state, ref, {
    kinds: ['folder'],
    view: explicit,
    wastebin,
    what: 'folder',
    faults,
    property: 'folderId',
  });
  const recursive = qBool(req, 'recursive', false) && !faults.has('recursive-ignored');
  const filter = filterFromQuery(req);
  const keep = objectPredicate(state, view, filter, faults);
  const extra = fileFilter(state, view, req, faults);
  const wanted = isEmptyFilter(filter) && !extra ? undefined : (o: Obj) => keep(o) && (!extra || extra(o as FileObj));
  const query = { folder: obj as FolderObj, kinds: ['file'] as const, view, recursive, wastebin, faults, order: orderIn(view) };
  return { files: sortedListing(state, query, wanted) as readonly FileObj[], view };
}

/** Group P sort keys of files (SRT-05). */
function fileAttributes(faults: FaultSet): Record<string, SortKey> {
  const file =
    (f: (o: FileObj) => string | number | undefined): SortKey =>
    (o) =>
      o.kind === 'file' || o.kind === 'image' ? f(o) : undefined;
  return {
    id: (o) => o.id,
    name: (o) => o.name,
    // Planted: the URL attributes missing from the sort map, so they are ignored as unknown.
    ...(faults.has('file-sort-urls-ignored')
      ? {}
      : { niceUrl: file((o) => o.niceUrl), alternateUrls: file((o) => [...(o.alternateUrls ?? [])].sort().join(' ')) }),
    // Planted: the size read from the binary data, which a broken file lacks: sorting by size fails on it.
    fileSize: file((o) => (faults.has('filesize-sort-broken-fails') ? o.data!.length : (o.data?.length ?? 0))),
    fileType: file((o) => o.fileType),
    cdate: (o) => o.cdate,
    edate: (o) => o.edate,
  };
}

/** GET /file: files of a folder, Group F, Group P and the file filters. */
export const fileList: Handler<State> = (state, req, ctx) => {
  const order = () => attributeOrder('file', qStr(req, 'sort') ?? 'name', fileAttributes(ctx.faults), ctx.faults);
  const { files: sorted, view } = listedFiles(state, req, qStr(req, 'folderId'), qWastebin(req, ctx.faults), ctx.faults, order);
  const paged = pageNew(sorted, qInt(req, 'page', 1), qInt(req, 'pageSize', -1), ctx.faults);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  // Planted: the file lists add no folder, as load does only.
  const folder = qBool(req, 'folder', false) && !ctx.faults.has('file-lists-folder-ignored');
  return {
    items: paged.items.map((f) => keptFileRecord(rctx, f, { folder })),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
    perms: Object.fromEntries(paged.items.map((f) => [String(f.id), ITEM_PERMISSIONS])),
    stagingStatus: stagingMap(state, paged.items, qStr(req, 'package')),
  };
};

/** GET /folder/getFiles/{folderId}: files of a folder, Group F, Group L and the file filters. */
export const getFiles: Handler<State> = (state, req, ctx) => {
  const order = (view: View) => legacyOrder('legacy', qStr(req, 'sortby'), qStr(req, 'sortorder'), legacySortKeys(state, view), ctx.faults);
  const { files: sorted, view } = listedFiles(state, req, req.path.folderId, qWastebin(req, ctx.faults), ctx.faults, order);
  // Planted: findFiles' default page size where getFiles' default is every file.
  const paged =
    ctx.faults.has('getfiles-default-maxitems-100') && req.rawQuery.maxItems === undefined
      ? pageLegacy(sorted, qInt(req, 'skipCount', 0), 100, ctx.faults)
      : pageFromQuery(req, sorted, ctx.faults);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const folder = qBool(req, 'folder', false) && !ctx.faults.has('file-lists-folder-ignored');
  return {
    files: paged.items.map((f) => keptFileRecord(rctx, f, { folder })),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
    stagingStatus: stagingMap(state, paged.items, qStr(req, 'package')),
  };
};

/** GET /folder/findFiles: files (not images) whose name contains `query`; maxItems 100 by default (PAG-08, FLT-10). */
export const findFiles: Handler<State> = (state, req, ctx) => {
  const defaultMax = ctx.faults.has('findfiles-default-maxitems-10') ? 10 : 100;
  const found = findMatches(findScope(state, req, 'file', ctx.faults), qStr(req, 'query'), ctx.faults);
  const max = req.rawQuery.maxItems === undefined ? defaultMax : qInt(req, 'maxItems', 100);
  const paged = pageLegacy(found, ctx.faults.has('find-skipcount-ignored') ? 0 : qInt(req, 'skipCount', 0), max, ctx.faults);
  const links = qStr(req, 'links');
  const contextOf = renderContexts(state, ctx.faults);
  return {
    files: paged.items.map((f) => {
      const record = withLinks(state, fileRecord(contextOf(f.nodeId), f), f.nodeId, links);
      // Planted: the search answers from an index that stores no sizes.
      return ctx.faults.has('findfiles-filesize-zero') ? { ...record, fileSize: 0 } : record;
    }),
  };
};

/** Resolves the file of a path id, optionally in the view of `nodeId` (a raw query parameter where not declared). */
function pathFile(state: State, req: OpRequest, faults: FaultSet, nodeId = qInt(req, 'nodeId')): { file: FileObj; view: View } {
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['file', 'image'],
    view: nodeView(state, nodeId),
    what: 'file',
    faults,
    property: 'id',
  });
  return { file: obj as FileObj, view };
}

/** GET /file/load/{id}: the file with its tags and `stagingStatus` (FIL-04). */
export const loadFile: Handler<State> = (state, req, ctx) => {
  const { file, view } = pathFile(state, req, ctx.faults);
  const record = fileRecord({ state, view, faults: ctx.faults }, file, { tags: true, folder: qBool(req, 'folder', false) });
  const status = stagingStatus(state, file, qStr(req, 'package'));
  // Planted: the load answers stagingStatus in the shape of the list answers, a map from the file's id to its status.
  return { file: record, stagingStatus: ctx.faults.has('load-stagingstatus-as-map') ? { [String(file.id)]: status } : status };
};

/**
 * Lower-cased names a new or renamed file must not take in a folder, for a node: those of its files and
 * images, or of one kind only (`only`, see ownNames).
 */
export function takenFileNames(state: State, folder: FolderObj, nodeId: number, exceptSet?: number, only?: 'file' | 'image'): TakenNames {
  return namesInFolder(state, folder.channelSetId, only ? [only] : ['file', 'image'], nodeId, exceptSet);
}

/**
 * The one kind whose names an object of `kind` must not take, where files and images have names of their
 * own (variation images-own-names of the open choice file-image-names); undefined where they share names.
 */
export function ownNames(kind: 'file' | 'image', faults: FaultSet): 'file' | 'image' | undefined {
  return faults.has('images-own-names') ? kind : undefined;
}

/**
 * POST /file/copy: a new file (new id) in the target folder, named `newFilename` when given, else
 * the source's name made unique; the source is unchanged (FIL-01).
 */
export const copyFile: Handler<State> = (state, req, ctx) => {
  const b = bodyOf<FileCopyRequest>(req);
  const byId = member(b.file, 'id', 'integer', 'file.id');
  // Planted: a file named by its globalId alone is read as if the globalId were a record, which throws.
  if (byId === undefined && b.file?.globalId !== undefined && ctx.faults.has('copy-globalid-500'))
    throw new TypeError(`Cannot use 'in' operator to search for 'id' in ${String(b.file.globalId)}`);
  const ref = byId ?? member(b.file, 'globalId', 'string', 'file.globalId');
  if (ref === undefined) throw new Refusal('INVALIDDATA', 'file: the id of the file to copy is required', 'file.id');
  const view = nodeView(state, b.nodeId);
  const { obj: source, view: srcView } = resolveObject(state, ref, {
    kinds: ['file', 'image'],
    view,
    what: 'file',
    faults: ctx.faults,
    property: 'file.id',
  });
  let target: FolderObj;
  let targetView = srcView;
  if (b.targetFolder?.id !== undefined) {
    const targetNode = nodeView(state, b.targetFolder.channelId || b.nodeId, 'targetFolder.channelId');
    const r = resolveObject(state, b.targetFolder.id, {
      kinds: ['folder'],
      view: targetNode,
      what: 'target folder',
      faults: ctx.faults,
      property: 'targetFolder.id',
    });
    [target, targetView] = [r.obj as FolderObj, r.view];
  } else {
    // Variation copy-needs-target: the contract does not say where a copy without a target goes.
    if (ctx.faults.has('copy-needs-target'))
      throw new Refusal('INVALIDDATA', 'targetFolder: the folder to copy into is required', 'targetFolder');
    const parent = resolveInView(state, source.parentSet, srcView, true) as FolderObj | undefined;
    if (!parent) throw new Refusal('NOTFOUND', 'the folder of the file to copy was not found', 'file.id');
    target = parent;
  }
  const wanted =
    b.newFilename === undefined || b.newFilename === '' || ctx.faults.has('copy-ignores-newfilename')
      ? source.name
      : checkName(b.newFilename, 'newFilename', 'file copy');
  const taken = takenFileNames(state, target, targetView.nodeId, undefined, ownNames(source.kind as 'file' | 'image', ctx.faults));
  // Variation copy-name-collision-refused: a name the target folder holds is refused instead of made unique.
  if (ctx.faults.has('copy-collision-refused') && taken.has(wanted.toLowerCase()))
    throw new Refusal('INVALIDDATA', `the target folder already holds a file named "${wanted}"`, 'newFilename');
  const name = uniqueFileName(wanted, taken);
  const copy = copyObject(state, source as FileObj, {
    nodeId: targetView.nodeId,
    parentSet: target.channelSetId,
    name,
    niceUrl: undefined,
    alternateUrls: undefined,
  });
  delete copy.niceUrl;
  delete copy.alternateUrls;
  // Planted (copy-keeps-master): the copy of a localized file keeps its master, as if it were a localized copy itself.
  if (ctx.faults.has('copy-keeps-master') && source.masterId !== undefined) copy.masterId = source.masterId;
  // Planted: the copy's tags lose their ids, as a tag table copied without its key would.
  if (ctx.faults.has('copied-tag-ids-lost')) for (const tag of copy.tags ?? []) tag.id = Number.NaN;
  return { success: true, file: fileRecord({ state, view: targetView, faults: ctx.faults }, copy) };
};

/** POST /file/move/{id}: the file (every variant) moves to `folderId`, keeping its id (FIL-02). */
export const moveFile: Handler<State> = (state, req, ctx) => {
  const b = bodyOf<ObjectMoveRequest>(req);
  const { file, view } = pathFile(state, req, ctx.faults, b.nodeId);
  if (b.folderId === undefined) throw new Refusal('INVALIDDATA', 'folderId: the target folder is required', 'folderId');
  const { obj } = resolveObject(state, b.folderId, {
    kinds: ['folder'],
    view,
    what: 'target folder',
    faults: ctx.faults,
    property: 'folderId',
  });
  const target = obj as FolderObj;
  if (target.channelSetId === file.parentSet) {
    // Variation move-same-folder-refused: "move a file to another folder", and this one is not another.
    if (ctx.faults.has('move-same-folder-refused'))
      throw new Refusal('INVALIDDATA', `the file is already in folder ${b.folderId}`, 'folderId');
    return {};
  }
  const home = viewOf(state, file.nodeId);
  if (!resolveInView(state, target.channelSetId, home) || !ancestorsVisible(state, target, home)) {
    throw new Refusal('INVALIDDATA', `folder ${b.folderId} is not visible in the node of the file`, 'folderId');
  }
  if (takenFileNames(state, target, file.nodeId, undefined, ownNames(file.kind, ctx.faults)).has(file.name.toLowerCase())) {
    throw new Refusal('INVALIDDATA', `the target folder already holds a file named "${file.name}"`, 'folderId');
  }
  if (ctx.faults.has('move-keeps-old-listing')) {
    // The planted fault lists the file in the new folder without taking it out of the old one.
    state.children.get(target.channelSetId)?.[file.kind].add(file.channelSetId);
  } else reparent(state, file.channelSetId, target.channelSetId);
  file.edate = nowSeconds(state);
  file.editorId = state.requesterId;
  return {};
};

/**
 * POST /file/save/{id} (JSON): updates name, description, niceUrl, alternateUrls, fileType and
 * forceOnline; a name used by another file of the folder is refused with failOnDuplicate, else made unique (FIL-03).
 */
export const saveFile: Handler<State> = (state, req, ctx) => {
  const b = bodyOf<FileSaveRequest>(req);
  const { file, view } = pathFile(state, req, ctx.faults);
  const f = {
    name: member(b.file, 'name', 'string', 'file.name'),
    description: member(b.file, 'description', 'string', 'file.description'),
    niceUrl: member(b.file, 'niceUrl', 'string', 'file.niceUrl'),
    alternateUrls: member(b.file, 'alternateUrls', 'strings', 'file.alternateUrls'),
    fileType: member(b.file, 'fileType', 'string', 'file.fileType'),
    forceOnline: member(b.file, 'forceOnline', 'boolean', 'file.forceOnline'),
  };
  // Variation save-requires-name: the file of the body is taken as the whole record, which names the file.
  if (f.name === undefined && ctx.faults.has('save-requires-name'))
    throw new Refusal('INVALIDDATA', 'file.name: the file saved must carry its name', 'file.name');
  let name = file.name;
  if (f.name !== undefined && f.name !== file.name) {
    const wanted = checkName(f.name, 'file.name', 'file');
    const folder = resolveInView(state, file.parentSet, view, true) as FolderObj;
    const taken = takenFileNames(state, folder, file.nodeId, file.channelSetId, ownNames(file.kind, ctx.faults));
    if (taken.has(wanted.toLowerCase()) && b.failOnDuplicate && !ctx.faults.has('save-failonduplicate-ignored')) {
      // Planted: the name is stored before the duplicate is found, and the refusal does not undo it.
      if (ctx.faults.has('save-refused-name-kept')) renameObject(state, file, wanted);
      throw new Refusal('INVALIDDATA', `a file named "${wanted}" already exists in the folder`, 'file.name');
    }
    // Planted (save-collision-500): the numbering calls a helper the save path's index of names lacks.
    if (ctx.faults.has('save-collision-500') && taken.has(wanted.toLowerCase())) throw new TypeError('taken.firstSuffix is not a function');
    name = uniqueFileName(wanted, taken);
  }
  // Planted (with the handlers' wrapper, index.ts): the rename marks nothing changed, so listings kept from before it are answered again.
  if (ctx.faults.has('kept-listing-after-change')) file.name = name;
  else renameObject(state, file, name);
  // Planted: the description is read from the request but never stored.
  if (f.description !== undefined && !ctx.faults.has('save-description-dropped')) file.description = f.description;
  // Variation save-ignores-nice-urls: the URLs are read from the request but not stored, as by a save that knows only name
  // and description (open choice save-nice-urls).
  const urlsIgnored = ctx.faults.has('save-ignores-nice-urls');
  if (f.niceUrl !== undefined && !urlsIgnored) file.niceUrl = f.niceUrl;
  if (f.alternateUrls !== undefined && !urlsIgnored) file.alternateUrls = [...f.alternateUrls];
  // Planted: a save that gives no URLs clears them, as a save that takes its file as the whole record would.
  if (f.niceUrl === undefined && f.alternateUrls === undefined && ctx.faults.has('save-clears-unsent-urls')) {
    delete file.niceUrl;
    delete file.alternateUrls;
  }
  // Variation save-keeps-file-type: the media type stays the one the content came with (open choice save-file-type).
  if (f.fileType && !ctx.faults.has('save-keeps-file-type')) file.fileType = f.fileType;
  if (f.forceOnline !== undefined) file.forceOnline = f.forceOnline;
  file.edate = nowSeconds(state);
  file.editorId = state.requesterId;
  return {};
};
