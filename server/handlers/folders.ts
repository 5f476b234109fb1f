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
  nowSeconds,
  resolveInView,
  type FileObj,
  type FolderObj,
  type Obj,
  type PageObj,
  type State,
  type View,
} from '../state.ts';
import { Refusal, type Handler, type HandlerContext, type OpRequest } from '../types.ts';
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
import * as planted from './planted/folders.ts';
import { folderRecord, itemRecord, ITEM_PERMISSIONS, type FolderRenderOptions, type RenderCtx } from './render.ts';

/** Everything a folder listing needs, whichever of the three forms asked. */
interface FolderListParams {
  id: string | undefined;
  nodeId?: number;
  recursive: boolean;
  tree: boolean;
  recursiveIds: string[];
  wastebin: Wastebin;
  filter: ObjectFilter;
  render: FolderRenderOptions;
  pkg?: string;
}

/** Whether a recursiveIds entry (id, global id, or nodeId/folderId) names the folder. */
function namesFolder(entry: string, f: FolderObj, view: View, plan: planted.ListingPlan): boolean {
  const [a, b] = entry.split('/');
  if (b !== undefined) return plan.nodeForm(view.chain.includes(Number(a)) && b === String(f.id));
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

/** The folders of a listing (flat, or the top level of a tree) and how to render each; `plan` is the handler's. */
function folderListing(state: State, p: FolderListParams, ctx: HandlerContext, plan: planted.ListingPlan) {
  const { folder, view } = startFolder(state, p, ctx);
  const keep = objectPredicate(state, view, p.filter, ctx.faults);
  const keepNested = plan.keepNested(keep, state, view, p.filter);
  const recursiveIds = plan.recursiveIds(p.recursiveIds);
  const descend = recursiveIds.length > 0 ? (f: FolderObj) => recursiveIds.some((e) => namesFolder(e, f, view, plan)) : undefined;
  const walk = walkOf(view, p.recursive && !p.tree, p.wastebin, ctx.faults, descend ? { descend } : {});
  const items = collectChildren(state, folder, 'folder', walk).filter(keep);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const options = plan.render(p.render);
  const render = (f: FolderObj, order: (fs: FolderObj[]) => FolderObj[]) => {
    const record = plan.record(folderRecord(rctx, f, options), p.tree);
    const nest = plan.nest(p.tree && p.recursive, p.recursive, p.tree);
    if (nest && (!descend || descend(f))) {
      const children = collectChildren(state, f, 'folder', { ...walk, recursive: false });
      record.subfolders = order(children.filter(keepNested)).map((s) => (p.tree ? render(s, order) : folderRecord(rctx, s, options)));
    }
    return record;
  };
  plan.deleted(state, p.recursive, recursiveIds);
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
  const plan = planted.folderList(ctx.faults);
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
  const l = folderListing(state, p, ctx, plan);
  const attributes = plan.attributes(folderAttributes());
  const order = (fs: FolderObj[]) => sortByAttributes(fs, qStr(req, 'sort') ?? 'name', attributes, ctx.faults);
  const paged = pageNew(order(l.items), qInt(req, 'page', 1), qInt(req, 'pageSize', -1), ctx.faults);
  return {
    items: paged.items.map((f) => l.render(f, order)),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
    deleted: l.deleted,
    perms: Object.fromEntries(paged.items.map((f) => [String(f.id), plan.perms(ITEM_PERMISSIONS)])),
    stagingStatus: stagingMap(state, paged.items, p.pkg),
  };
};

/** The legacy (Group L) answer of a folder listing: getFolders, GET and POST. */
function legacyFolderList(
  state: State,
  p: FolderListParams,
  ctx: HandlerContext,
  plan: planted.ListingPlan,
  sortby: string | undefined,
  sortorder: string | undefined,
  skip: number,
  max: number,
) {
  const l = folderListing(state, p, ctx, plan);
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
  const plan = planted.getFolders(ctx.faults);
  const p: FolderListParams = {
    id: req.path.id,
    nodeId: qInt(req, 'nodeId'),
    recursive: qBool(req, 'recursive', false),
    tree: qBool(req, 'tree', false),
    recursiveIds: [...plan.recId(qStrs(req, 'recId')), ...qStrs(req, 'recursiveIds')],
    wastebin: qWastebin(req, ctx.faults),
    filter: filterFromQuery(req),
    render: {
      privileges: qBool(req, 'addPrivileges', false) || qBool(req, 'privileges', false),
      privilegeMap: qBool(req, 'privilegeMap', false),
    },
    pkg: qStr(req, 'package'),
  };
  return legacyFolderList(
    state,
    p,
    ctx,
    plan,
    qStr(req, 'sortby'),
    qStr(req, 'sortorder'),
    qInt(req, 'skipCount', 0),
    qInt(req, 'maxItems', -1),
  );
};

/** POST /folder/getFolders: the same listing, parameters in a FolderListRequest body (FLD-04). */
export const getFoldersPost: Handler<State> = (state, req, ctx) => {
  const plan = planted.getFoldersPost(ctx.faults);
  const b = plan.body(bodyOf<FolderListRequest>(req));
  const p: FolderListParams = {
    id: b.id,
    nodeId: b.nodeId,
    recursive: b.recursive ?? false,
    tree: b.tree ?? false,
    recursiveIds: b.recursiveIds ?? [],
    wastebin: b.wastebin ?? 'exclude',
    filter: plan.filter({
      createdbefore: b.createdBefore ?? 0,
      createdsince: b.createdSince ?? 0,
      editedbefore: b.editedBefore ?? 0,
      editedsince: b.editedSince ?? 0,
      creator: b.creator,
      editor: b.editor,
      creatorIds: [],
      editorIds: [],
      iscreator: false,
      iseditor: false,
      inherited: b.inherited,
      search: b.search,
    }),
    render: { privileges: b.addPrivileges ?? false, privilegeMap: b.privilegeMap ?? false },
    pkg: b.stagingPackageName,
  };
  if (p.id === undefined) throw new Refusal('INVALIDDATA', 'id: the folder id is required', 'id');
  return legacyFolderList(state, p, ctx, plan, b.sortBy, b.sortOrder, b.skipCount ?? 0, b.maxItems ?? -1);
};

/** GET /folder/breadcrumb/{id}: the folders from the root down to the folder (FLD-05). */
export const breadcrumb: Handler<State> = (state, req, ctx) => {
  const plan = planted.breadcrumb(ctx.faults);
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const chain = plan.chain(folderChain(state, obj as FolderObj, view));
  return {
    folders: chain.map((f) => folderRecord(rctx, f)),
    hasMoreItems: plan.hasMoreItems(false),
    numItems: chain.length,
    deleted: [],
    stagingStatus: {},
  };
};

/** GET /folder/count/{id}: counts matching what the listings return with the same parameters (FLD-06, WST-04). */
export const count: Handler<State> = (state, req, ctx) => {
  const plan = planted.count(ctx.faults);
  const wastebin = plan.wastebin(qWastebin(req, ctx.faults));
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    wastebin,
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  const folder = obj as FolderObj;
  const walk = plan.walk(walkOf(view, plan.recursive(qBool(req, 'recursive', false)), wastebin, ctx.faults));
  const inherited = plan.inherited(qBool(req, 'inherited'));
  const keep = (o: Obj) => inherited === undefined || (o.nodeId !== view.nodeId) === inherited;
  const language = qStr(req, 'language');
  const keepPage = plan.keepPages(keep);
  const keepTemplate = plan.keepTemplates(keep);
  const pages = collectChildren(state, folder, 'page', walk).filter(keepPage);
  return {
    folders: collectChildren(state, folder, 'folder', walk).filter(keep).length,
    pages: language ? languageFilter(state, view, pages, language, true).length : pages.length,
    templates: wastebin === 'only' ? 0 : templatesIn(state, folder, walk, ctx.faults).filter((e) => keepTemplate(e.template)).length,
    images: collectChildren(state, folder, 'image', walk).filter(plan.keepImages(keep)).length,
    files: collectChildren(state, folder, 'file', walk).filter(keep).length,
  };
};

/**
 * POST /folder/delete/{id}: recursive delete into the wastebin. In a channel, an inherited folder is
 * refused ("has to be deleted in the master node") and a localized one too ("unlocalize it instead"),
 * both FAILURE with nothing changed (contract 3, DEL-01/02/06). Deleting in the master reaches the channels.
 */
export const deleteFolder: Handler<State> = (state, req, ctx) => {
  const plan = planted.deleteFolder(ctx.faults);
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
    plan.refusing(state, folder, view);
    throw new Refusal('FAILURE', message, 'id', 409);
  };
  if (plan.refusesInherited(explicit && folder.nodeId !== view.nodeId)) {
    refuse(`Can't delete an inherited folder, the folder has to be deleted in the master node.`);
  }
  if (plan.refusesLocalized(folder.masterId !== undefined)) {
    refuse('Deletion of localized folders is not possible, unlocalize it instead.');
  }
  plan.deleting(state, folder);
  const mark = { at: nowSeconds(state), by: state.requesterId, live: true };
  if (folder.masterId !== undefined) folder.deleted = mark;
  else deleteRecursively(state, folder.channelSetId, mark);
  plan.deleted(state, folder);
  return {};
};

/** GET /folder/load/{id}: one folder; `privileges` adds privileges; `update` locks nothing (FLD-11). */
export const loadFolder: Handler<State> = (state, req, ctx) => {
  const plan = planted.loadFolder(ctx.faults);
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  plan.loading(state, obj as FolderObj, req);
  const privileges = plan.privileges(qBool(req, 'privileges', false));
  return {
    folder: folderRecord({ state, view, faults: ctx.faults }, obj as FolderObj, {
      tags: true,
      construct: plan.construct(qBool(req, 'construct', false)),
      privileges,
    }),
    stagingStatus: stagingStatus(state, obj, plan.package(qStr(req, 'package'))),
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
  const plan = planted.createFolder(ctx.faults);
  const b = plan.body(bodyOf<FolderCreateRequest>(req));
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
    plan.motherMissing(err);
    if (err instanceof Refusal && err.code === 'NOTFOUND')
      throw new Refusal('FAILURE', `Error while creating new folder: ${err.message}`, 'motherId', 404);
    throw err;
  }
  plan.mother(state, mother);
  const derived = b.publishDir === undefined || b.publishDir === '';
  const publishDir = derived ? undefined : normalizePublishDir(b.publishDir!);
  if ((publishDir ?? '').length > 255) throw new Refusal('INVALIDDATA', 'publishDir: exceeds 255 characters', 'publishDir');
  plan.inMother(state, mother, view, explicit);
  const taken = plan.taken(namesInFolder(state, mother.channelSetId, ['folder'], view.nodeId), state, mother, view, explicit);
  let finalName = name;
  if (taken.has(name.toLowerCase())) {
    if (plan.duplicateRefused(b.failOnDuplicate)) {
      throw new Refusal('INVALIDDATA', `a folder named "${name}" already exists in the mother folder`, 'name');
    }
    for (let i = 1; taken.has(finalName.toLowerCase()); i++) finalName = `${name}${i}`;
    finalName = plan.name(finalName, name);
  }
  const links = [...(state.templateLinks.get(mother.channelSetId) ?? [])];
  let startTemplate: number | undefined;
  if (b.startpage) {
    const linked = links.map((set) => resolveInView(state, set, view)).filter((t) => t !== undefined);
    startTemplate = (linked.find((t) => t.id === b.templateId || t.channelSetId === b.templateId) ?? linked[0])?.channelSetId;
    plan.startTemplate(startTemplate);
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
    description: b.description ?? '',
    cdate: now,
    edate: now,
    creatorId: state.requesterId,
    editorId: state.requesterId,
    publishDir: publishDir ?? normalizePublishDir(`${mother.publishDir}/${slug}`),
    ...(b.nameI18n ? { nameI18n: b.nameI18n } : {}),
    ...(b.descriptionI18n ? { descriptionI18n: b.descriptionI18n } : {}),
    ...(b.publishDirI18n ? { publishDirI18n: b.publishDirI18n } : {}),
  };
  insertObject(state, folder);
  plan.created(state, folder);
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
  const plan = planted.getItems(ctx.faults);
  const wastebin = qWastebin(req, ctx.faults);
  const { obj, view } = resolveObject(state, req.path.folderId, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    wastebin,
    what: 'folder',
    faults: ctx.faults,
    property: 'folderId',
  });
  const types = plan.types(qStrs(req, 'type'));
  const wanted = (['page', 'file', 'image'] as const).filter((k) => types.length === 0 || types.includes(k));
  const walk = walkOf(view, qBool(req, 'recursive', plan.recursiveDefault(false)), wastebin, ctx.faults);
  const keep = objectPredicate(state, view, filterFromQuery(req), ctx.faults);
  const items: (PageObj | FileObj)[] = wanted.flatMap((k) => collectChildren(state, obj as FolderObj, k, walk)).filter(keep);
  const sorted = sortLegacy(items, qStr(req, 'sortby'), qStr(req, 'sortorder'), legacySortKeys(state, view), ctx.faults);
  const paged = pageLegacy(sorted, qInt(req, 'skipCount', 0), qInt(req, 'maxItems', -1), ctx.faults);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  return { items: paged.items.map((o) => itemRecord(rctx, o)), hasMoreItems: paged.hasMoreItems, numItems: paged.numItems };
};
