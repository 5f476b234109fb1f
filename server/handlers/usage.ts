/**
 * Usage queries of contract 4.3: which files, folders and pages use given files (their object tags
 * refer to them), and which pages, files and images given files reference (syncable objects).
 */
import {
  ancestorsVisible,
  inWastebin,
  lookup,
  masterVariant,
  referencedIds,
  resolveInView,
  viewOf,
  type FileObj,
  type Obj,
  type PageObj,
  type State,
  type View,
} from '../state.ts';
import { Refusal, type FaultSet, type Handler, type OpRequest } from '../types.ts';
import { nodeView, qBool, qInt, qInts, qStr, stagingMap } from './common.ts';
import { legacySortKeys, pageLegacy, sortLegacy } from './listing.ts';
import * as planted from './planted/usage.ts';
import { fileRecord, folderRecord, imageRecord, pageRecord, type RenderCtx } from './render.ts';

/**
 * The given file ids resolved (unknown ids are refused NOTFOUND) and the view: `nodeId`, else the files' master node.
 * `filesOnly`: an image's id is refused too (variation usage-files-only: the usage lists' `id` is "file IDs").
 */
function usageInput(state: State, req: OpRequest, idParam: string, filesOnly = false): { files: Obj[]; view: View } {
  const files = qInts(req, idParam).map((id) => {
    const f = lookup(state, id);
    if (!f || (f.kind !== 'file' && (f.kind !== 'image' || filesOnly))) throw new Refusal('NOTFOUND', `file ${id} not found`, idParam);
    return f;
  });
  const explicit = nodeView(state, qInt(req, 'nodeId'));
  const first = files[0];
  const top = first ? state.nodes.get(first.nodeId)!.chain.at(-1)! : [...state.nodes.values()].find((n) => n.masterId === undefined)!.id;
  return { files, view: explicit ?? viewOf(state, top) };
}

/**
 * Objects of a kind whose object tags refer to one of the files, live in the view, each once. A given
 * file that uses another given file is listed too: contract 4.3 "GET /file/usage/file: files using one
 * of the given files" makes no exception for the given files themselves. A file referring to itself
 * does not use itself: "an object tag of another object refers to it" (reference notes).
 */
function usersOf(
  state: State,
  files: Obj[],
  kind: 'file' | 'folder' | 'page',
  view: View,
  faults: FaultSet,
  plan: planted.UsageListPlan,
): Obj[] {
  const out = new Map<number, Obj>();
  const fileSets = new Set(files.map((f) => f.channelSetId));
  for (const set of fileSets) {
    for (const id of plan.referrers(referrersOf(state, set, faults))) {
      const ref = state.objects.get(id);
      if (!ref || ref.kind !== kind || plan.selfReference(ref.channelSetId === set, ref, fileSets)) continue;
      const visible = resolveInView(state, ref.channelSetId, view);
      const deleted = plan.deleted(inWastebin(state, ref, view));
      if (visible === ref && ancestorsVisible(state, ref, view) && !deleted) {
        out.set(ref.id, ref);
        plan.user(ref);
      }
    }
  }
  return plan.users([...out.values()]);
}

/**
 * The ids of the objects whose object tags refer to a file's channel set (the reference notes: "A file is "used" when an
 * object tag of another object ... refers to it"); under the variation used-includes-content-tags, whose tags of any type do.
 */
export function referrersOf(state: State, set: number, faults: FaultSet): Iterable<number> {
  return planted.referrers(faults).referrers(state.referrers.get(set) ?? new Set<number>(), state, set);
}

/**
 * One usage list: `total` counts before paging (USE-01); the list flag false answers counts only
 * (USE-02); Group L paging and sorting apply (USE-03).
 */
function usageList(
  state: State,
  req: OpRequest,
  faults: FaultSet,
  kind: 'file' | 'folder' | 'page',
  member: 'files' | 'folders' | 'pages',
  plan: planted.UsageListPlan,
): Record<string, unknown> {
  const { files, view } = usageInput(state, req, 'id', plan.filesOnly(false));
  const found = usersOf(state, files, kind, view, faults, plan);
  const sortby = plan.sortby(qStr(req, 'sortby'));
  const sort = plan.sort((items) => sortLegacy(items, sortby, qStr(req, 'sortorder'), legacySortKeys(state, view), faults));
  const page = plan.page((items) => pageLegacy(items, qInt(req, 'skipCount', 0), qInt(req, 'maxItems', -1), faults));
  const paged = plan.paged(page(sort(found)), found, sort, page);
  const total = plan.total(found.length, paged);
  const counts = { withoutPermission: 0, total, numItems: paged.numItems };
  if (plan.countsOnly(!qBool(req, member, true))) {
    return plan.countsAnswer({ ...counts, hasMoreItems: false });
  }
  const rctx: RenderCtx = { state, view, faults };
  const records = paged.items.map((o) =>
    o.kind === 'folder' ? folderRecord(rctx, o) : o.kind === 'page' ? pageRecord(rctx, o) : fileRecord(rctx, o as FileObj),
  );
  return {
    ...counts,
    [member]: records,
    hasMoreItems: paged.hasMoreItems,
    ...(kind === 'folder' ? { deleted: [] } : {}),
    stagingStatus: stagingMap(state, paged.items, undefined),
  };
}

/** GET /file/usage/file: files whose object tags refer to the given files. */
export const usageFile: Handler<State> = (state, req, ctx) =>
  usageList(state, req, ctx.faults, 'file', 'files', planted.usageFile(ctx.faults));

/** GET /file/usage/folder: folders whose object tags refer to the given files. */
export const usageFolder: Handler<State> = (state, req, ctx) =>
  usageList(state, req, ctx.faults, 'folder', 'folders', planted.usageFolder(ctx.faults));

/** GET /file/usage/page (parameters not shown; the same as usage/file, with a `pages` flag). */
export const usagePage: Handler<State> = (state, req, ctx) =>
  usageList(state, req, ctx.faults, 'page', 'pages', planted.usagePage(ctx.faults));

/** The pages, files and images an object's tags reference in URL-type parts, as the view sees them. */
function referencedObjects(state: State, obj: Obj, view: View, plan: planted.SyncableObjectsPlan): Obj[] {
  const out: Obj[] = [];
  for (const id of referencedIds(obj.tags)) {
    const found = lookup(state, id);
    if (!found || plan.folderSkipped(found.kind === 'folder') || found.kind === 'template') continue;
    const v = resolveInView(state, found.channelSetId, view) ?? masterVariant(state, found.channelSetId);
    if (v && !plan.deletedLink(inWastebin(state, v, view)) && !out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * GET /file/usage/syncableObjects: pages, files and images the given files reference (direct
 * dependencies) with totals, and what those reference in turn (`dependencies`, keyed by kind and id) (USE-04).
 */
export const syncableObjects: Handler<State> = (state, req, ctx) => {
  const plan = planted.syncableObjects(ctx.faults);
  const { files } = usageInput(state, req, 'ids');
  const source = nodeView(state, plan.srcNodeId(qInt(req, 'srcNodeId')), 'srcNodeId');
  const view =
    source ??
    (files[0] ? viewOf(state, files[0].nodeId) : viewOf(state, [...state.nodes.values()].find((n) => n.masterId === undefined)!.id));
  const destination = qInt(req, 'dstNodeId');
  nodeView(state, destination, 'dstNodeId');
  plan.destination(state, destination);
  const given = new Set(files.map((f) => f.channelSetId));
  const direct = files
    .flatMap((f) => referencedObjects(state, f, view, plan))
    .filter((o, i, all) => !given.has(o.channelSetId) && plan.once(all.indexOf(o) === i));
  const directSets = new Set(direct.map((o) => o.channelSetId));
  const dependencies: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const o of plan.followed(direct)) {
    for (const dep of referencedObjects(state, o, view, plan)) {
      if (directSets.has(dep.channelSetId) || given.has(dep.channelSetId)) continue;
      (dependencies[dep.kind] ??= {})[String(dep.id)] = { id: dep.id, globalId: dep.globalId, name: dep.name, type: dep.kind };
    }
  }
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const pages = direct.filter((o): o is PageObj => o.kind === 'page');
  const fileDeps = direct.filter((o): o is FileObj => plan.fileDependency(o.kind === 'file', o));
  const images = plan.images(direct.filter((o): o is FileObj => o.kind === 'image'));
  return {
    haveDependencies: plan.haveDependencies(Object.keys(dependencies).length > 0),
    dependencies,
    pages: pages.map((p) => pageRecord(rctx, p)),
    pagesTotal: pages.length,
    pagesWithoutPermission: 0,
    files: fileDeps.map((f) => fileRecord(rctx, f)),
    filesTotal: fileDeps.length,
    filesWithoutPermission: 0,
    images: images.map((i) => imageRecord(rctx, i)),
  };
};
