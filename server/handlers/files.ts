/**
 * File operations of contract 4.2/4.3 that are not uploads: GET /file, getFiles, findFiles, load,
 * copy, move and save (JSON).
 */
import type { FileCopyRequest, FileSaveRequest, ObjectMoveRequest } from '../../schemas/types.ts';
import {
  ancestorsVisible,
  inWastebin,
  masterVariant,
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
import * as planted from './planted/files.ts';

/** Whether an object is seen, live, in a view (the referrer test of `used`). */
function liveIn(state: State, obj: Obj, view: View): boolean {
  return resolveInView(state, obj.channelSetId, view) === obj && ancestorsVisible(state, obj, view) && !inWastebin(state, obj, view);
}

/**
 * Whether a file is used: an object tag of another object refers to it, that object being live in one
 * of the views (the current channel, extended by `usedIn`; USE-05, FLT-07).
 */
export function isUsed(state: State, file: FileObj, views: View[], faults: FaultSet, plan: planted.ListingPlan): boolean {
  for (const id of plan.referrers(referrersOf(state, file.channelSetId, faults), state)) {
    const ref = state.objects.get(id);
    if (!ref || ref.channelSetId === file.channelSetId || ref.deleted) continue;
    if (plan.live(views.some((v) => liveIn(state, ref, v)))) return true;
  }
  return false;
}

/** The file filters of getFiles and GET /file: broken, online, niceurl, used/usedIn; undefined when none is asked. */
function fileFilter(
  state: State,
  view: View,
  req: OpRequest,
  faults: FaultSet,
  plan: planted.ListingPlan,
): ((f: FileObj) => boolean) | undefined {
  const broken = plan.broken(qBool(req, 'broken'));
  const online = qBool(req, 'online');
  const niceurl = niceUrlMatcher(qStr(req, 'niceurl'), faults);
  const used = qBool(req, 'used');
  const views = [
    view,
    ...plan
      .usedIn(qInts(req, 'usedIn'))
      .filter((id) => plan.nodeKnown(state.nodes.has(id)))
      .map((id) => viewOf(state, id)),
  ];
  if (broken === undefined && online === undefined && !niceurl && used === undefined) return undefined;
  return (f) =>
    (broken === undefined || (f.data === null) === broken) &&
    (online === undefined || f.online === online) &&
    (!niceurl || niceurl(f.niceUrl, f.alternateUrls)) &&
    (used === undefined || isUsed(state, f, views, faults, plan) === used);
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
  plan: planted.ListingPlan,
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
  const recursive = plan.recursive(qBool(req, 'recursive', false));
  const filter = filterFromQuery(req);
  const keep = objectPredicate(state, view, filter, faults);
  const extra = fileFilter(state, view, req, faults, plan);
  const wanted = isEmptyFilter(filter) && !extra ? undefined : (o: Obj) => keep(o) && (!extra || extra(o as FileObj));
  const query = { folder: obj as FolderObj, kinds: ['file'] as const, view, recursive, wastebin, faults, order: orderIn(view) };
  return { files: sortedListing(state, query, wanted) as readonly FileObj[], view };
}

/** Group P sort keys of files (SRT-05). */
function fileAttributes(): Record<string, SortKey> {
  const file =
    (f: (o: FileObj) => string | number | undefined): SortKey =>
    (o) =>
      o.kind === 'file' || o.kind === 'image' ? f(o) : undefined;
  return {
    id: (o) => o.id,
    name: (o) => o.name,
    niceUrl: file((o) => o.niceUrl),
    alternateUrls: file((o) => [...(o.alternateUrls ?? [])].sort().join(' ')),
    fileSize: file((o) => o.data?.length ?? 0),
    fileType: file((o) => o.fileType),
    cdate: (o) => o.cdate,
    edate: (o) => o.edate,
  };
}

/** GET /file: files of a folder, Group F, Group P and the file filters. */
export const fileList: Handler<State> = (state, req, ctx) => {
  const plan = planted.fileList(ctx.faults);
  const order = () => attributeOrder('file', qStr(req, 'sort') ?? 'name', plan.attributes(fileAttributes()), ctx.faults);
  const { files: sorted, view } = listedFiles(state, req, qStr(req, 'folderId'), qWastebin(req, ctx.faults), ctx.faults, order, plan);
  const paged = pageNew(sorted, qInt(req, 'page', 1), qInt(req, 'pageSize', -1), ctx.faults);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const folder = plan.folder(qBool(req, 'folder', false));
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
  const plan = planted.getFiles(ctx.faults);
  const order = (view: View) => legacyOrder('legacy', qStr(req, 'sortby'), qStr(req, 'sortorder'), legacySortKeys(state, view), ctx.faults);
  const { files: sorted, view } = listedFiles(state, req, req.path.folderId, qWastebin(req, ctx.faults), ctx.faults, order, plan);
  const paged = plan.paged(pageFromQuery(req, sorted, ctx.faults), req, sorted);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const folder = plan.folder(qBool(req, 'folder', false));
  return {
    files: paged.items.map((f) => keptFileRecord(rctx, f, { folder })),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
    stagingStatus: stagingMap(state, paged.items, qStr(req, 'package')),
  };
};

/** GET /folder/findFiles: files (not images) whose name contains `query`; maxItems 100 by default (PAG-08, FLT-10). */
export const findFiles: Handler<State> = (state, req, ctx) => {
  const plan = planted.findFiles(ctx.faults);
  const defaultMax = plan.defaultMaxItems(100);
  const found = findMatches(findScope(state, req, 'file', ctx.faults), qStr(req, 'query'), ctx.faults);
  const max = req.rawQuery.maxItems === undefined ? defaultMax : qInt(req, 'maxItems', 100);
  const paged = pageLegacy(found, plan.skipCount(qInt(req, 'skipCount', 0)), max, ctx.faults);
  const links = qStr(req, 'links');
  const contextOf = renderContexts(state, ctx.faults);
  return {
    files: paged.items.map((f) => plan.record(withLinks(state, fileRecord(contextOf(f.nodeId), f), f.nodeId, links))),
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
  const plan = planted.loadFile(ctx.faults);
  const { file, view } = pathFile(state, req, ctx.faults);
  const record = fileRecord({ state, view, faults: ctx.faults }, file, { tags: true, folder: qBool(req, 'folder', false) });
  const status = stagingStatus(state, file, qStr(req, 'package'));
  return { file: record, stagingStatus: plan.stagingStatus(status, file) };
};

/** Lower-cased names a new or renamed file must not take in a folder, for a node: those of its files and images. */
export function takenFileNames(state: State, folder: FolderObj, nodeId: number, exceptSet?: number): TakenNames {
  return namesInFolder(state, folder.channelSetId, ['file', 'image'], nodeId, exceptSet);
}

/**
 * POST /file/copy: a new file (new id) in the target folder, named `newFilename` when given, else
 * the source's name made unique; the source is unchanged (FIL-01).
 */
export const copyFile: Handler<State> = (state, req, ctx) => {
  const plan = planted.copyFile(ctx.faults);
  const b = plan.body(bodyOf<FileCopyRequest>(req));
  const byId = member(b.file, 'id', 'integer', 'file.id');
  plan.identified(b.file, byId);
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
    plan.noTarget();
    const parent = resolveInView(state, source.parentSet, srcView, true) as FolderObj | undefined;
    if (!parent) throw new Refusal('NOTFOUND', 'the folder of the file to copy was not found', 'file.id');
    target = parent;
  }
  const wanted = b.newFilename === undefined || b.newFilename === '' ? source.name : checkName(b.newFilename, 'newFilename', 'file copy');
  const kind = source.kind as 'file' | 'image';
  const taken = plan.taken(takenFileNames(state, target, targetView.nodeId), state, target, targetView.nodeId, kind);
  plan.naming(wanted, taken);
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
  plan.copied(copy, source, state);
  return { success: plan.success(true), file: fileRecord({ state, view: targetView, faults: ctx.faults }, copy) };
};

/** POST /file/move/{id}: the file (every variant) moves to `folderId`, keeping its id (FIL-02). */
export const moveFile: Handler<State> = (state, req, ctx) => {
  const plan = planted.moveFile(ctx.faults);
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
    plan.sameFolder(b.folderId);
    return {};
  }
  // Every variant moves with the set: the target must be seen where the file's master lives, also when a channel's copy is
  // named (moved into a folder of that channel only, the master's file would be in no listing of the master).
  const home = viewOf(state, (masterVariant(state, file.channelSetId) ?? file).nodeId);
  if (!resolveInView(state, target.channelSetId, home) || !ancestorsVisible(state, target, home))
    plan.unseenTarget(new Refusal('INVALIDDATA', `folder ${b.folderId} is not visible in the node of the file's master`, 'folderId'));
  if (plan.taken(takenFileNames(state, target, file.nodeId), state, target, file.nodeId, file.kind).has(file.name.toLowerCase())) {
    throw new Refusal('INVALIDDATA', `the target folder already holds a file named "${file.name}"`, 'folderId');
  }
  plan.move(reparent, file)(state, file.channelSetId, target.channelSetId);
  file.edate = nowSeconds(state);
  file.editorId = state.requesterId;
  return {};
};

/**
 * POST /file/save/{id} (JSON): updates name, description, niceUrl, alternateUrls, fileType and
 * forceOnline; a name used by another file of the folder is refused with failOnDuplicate, else made unique (FIL-03).
 */
export const saveFile: Handler<State> = (state, req, ctx) => {
  const plan = planted.saveFile(ctx.faults);
  const b = plan.body(bodyOf<FileSaveRequest>(req));
  const { file, view } = pathFile(state, req, ctx.faults);
  const f = plan.fields({
    name: member(b.file, 'name', 'string', 'file.name'),
    description: member(b.file, 'description', 'string', 'file.description'),
    niceUrl: member(b.file, 'niceUrl', 'string', 'file.niceUrl'),
    alternateUrls: member(b.file, 'alternateUrls', 'strings', 'file.alternateUrls'),
    fileType: member(b.file, 'fileType', 'string', 'file.fileType'),
    forceOnline: member(b.file, 'forceOnline', 'boolean', 'file.forceOnline'),
  });
  let name = file.name;
  if (f.name !== undefined && f.name !== file.name) {
    const wanted = checkName(f.name, 'file.name', 'file');
    const folder = resolveInView(state, file.parentSet, view, true) as FolderObj;
    const taken = plan.taken(
      takenFileNames(state, folder, file.nodeId, file.channelSetId),
      state,
      folder,
      file.nodeId,
      file.kind,
      file.channelSetId,
    );
    if (taken.has(wanted.toLowerCase()) && b.failOnDuplicate) {
      plan.refusing(state, file, wanted);
      throw new Refusal('INVALIDDATA', `a file named "${wanted}" already exists in the folder`, 'file.name');
    }
    plan.naming(wanted, taken);
    name = uniqueFileName(wanted, taken);
  }
  plan.rename(renameObject)(state, file, name);
  if (f.description !== undefined) file.description = f.description;
  if (f.niceUrl !== undefined) file.niceUrl = f.niceUrl;
  if (f.alternateUrls !== undefined) file.alternateUrls = [...f.alternateUrls];
  plan.stored(file, f);
  if (f.fileType) file.fileType = f.fileType;
  if (f.forceOnline !== undefined) file.forceOnline = f.forceOnline;
  file.edate = nowSeconds(state);
  file.editorId = state.requesterId;
  return {};
};
