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
function usersOf(state: State, files: Obj[], kind: 'file' | 'folder' | 'page', view: View, faults: FaultSet): Obj[] {
  const out = new Map<number, Obj>();
  // Planted: a user is listed once for each given file it uses (a join without distinct).
  const repeated: Obj[] = [];
  const fileSets = new Set(files.map((f) => f.channelSetId));
  for (const set of fileSets) {
    // Planted: references are read from the wrong index, which holds none, so no file has users (usage-finds-no-users), or
    // only usage/file reads it (usage-file-finds-no-files).
    const noUsers = faults.has('usage-finds-no-users') || (faults.has('usage-file-finds-no-files') && kind === 'file');
    for (const id of noUsers ? [] : referrersOf(state, set, faults)) {
      const ref = state.objects.get(id);
      if (!ref || ref.kind !== kind || ref.channelSetId === set) continue;
      // Planted: the self-reference rule stretched to every given file, so a given file never counts as a user.
      if (faults.has('usage-skips-given-users') && fileSets.has(ref.channelSetId)) continue;
      const visible = resolveInView(state, ref.channelSetId, view);
      // Planted: the wastebin left out of the usage query.
      const deleted = !faults.has('usage-lists-deleted-users') && inWastebin(state, ref, view);
      if (visible === ref && ancestorsVisible(state, ref, view) && !deleted) {
        out.set(ref.id, ref);
        repeated.push(ref);
      }
    }
  }
  return faults.has('usage-user-once-per-file') ? repeated : [...out.values()];
}

/**
 * The ids of the objects whose object tags refer to a file's channel set (the reference notes: "A file is "used" when an
 * object tag of another object ... refers to it"); under the variation used-includes-content-tags, whose tags of any type do.
 */
export function referrersOf(state: State, set: number, faults: FaultSet): Iterable<number> {
  const byObjectTags = state.referrers.get(set) ?? new Set<number>();
  if (!faults.has('used-includes-content-tags')) return byObjectTags;
  const all = new Set(byObjectTags);
  for (const o of state.objects.values()) {
    const content = (o.tags ?? []).filter((t) => t.type === 'CONTENTTAG');
    if (referencedIds(content).some((id) => (state.objects.get(id)?.channelSetId ?? id) === set)) all.add(o.id);
  }
  return all;
}

/**
 * One usage list: `total` counts before paging (USE-01); the list flag false answers counts only
 * (USE-02); Group L paging and sorting apply (USE-03). `unsorted`: the list takes no sorting or paging
 * parameters and lists every user by id (variation usage-page-unsorted: usage/page's "Parameters: not shown").
 */
function usageList(
  state: State,
  req: OpRequest,
  faults: FaultSet,
  kind: 'file' | 'folder' | 'page',
  member: 'files' | 'folders' | 'pages',
  unsorted = false,
): Record<string, unknown> {
  const { files, view } = usageInput(state, req, 'id', faults.has('usage-files-only'));
  const found = usersOf(state, files, kind, view, faults);
  // Variation usage-sortby-name-only: the usage lists show only `sortby` (string, `name`); any other value falls back to it.
  const sortby = faults.has('usage-sortby-name-only') && qStr(req, 'sortby')?.toLowerCase() !== 'name' ? undefined : qStr(req, 'sortby');
  const sort = (items: readonly Obj[]) =>
    unsorted
      ? [...items].sort((a, b) => a.id - b.id)
      : sortLegacy(items, sortby, qStr(req, 'sortorder'), legacySortKeys(state, view), faults);
  const page = (items: Obj[]) =>
    unsorted ? pageLegacy(items, 0, -1, faults) : pageLegacy(items, qInt(req, 'skipCount', 0), qInt(req, 'maxItems', -1), faults);
  // Planted (usage-paged-before-sorting): the page is cut from the list in index order and only then sorted.
  const early = faults.has('usage-paged-before-sorting') ? page(found) : undefined;
  const paged = early ? { ...early, items: sort(early.items) } : page(sort(found));
  const total = faults.has('usage-total-after-paging') ? paged.items.length : found.length;
  const counts = { withoutPermission: 0, total, numItems: paged.numItems };
  if (!qBool(req, member, true) && !faults.has('usage-counts-flag-ignored')) {
    // Planted: the counts-only answer has its own serialisation path, which the fault misshapes.
    return { ...counts, hasMoreItems: false, ...(faults.has('shape-usage-counts-only') ? { numItems: String(counts.numItems) } : {}) };
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
export const usageFile: Handler<State> = (state, req, ctx) => usageList(state, req, ctx.faults, 'file', 'files');

/** GET /file/usage/folder: folders whose object tags refer to the given files. */
export const usageFolder: Handler<State> = (state, req, ctx) => usageList(state, req, ctx.faults, 'folder', 'folders');

/** GET /file/usage/page (parameters not shown; the same as usage/file, with a `pages` flag). */
export const usagePage: Handler<State> = (state, req, ctx) =>
  usageList(state, req, ctx.faults, 'page', 'pages', ctx.faults.has('usage-page-unsorted'));

/** The pages, files and images an object's tags reference in URL-type parts, as the view sees them. */
function referencedObjects(state: State, obj: Obj, view: View, faults: FaultSet): Obj[] {
  const out: Obj[] = [];
  for (const id of referencedIds(obj.tags)) {
    const found = lookup(state, id);
    // Planted: a folder link followed as if folders were linked objects.
    if (!found || (found.kind === 'folder' && !faults.has('syncable-folder-links-followed')) || found.kind === 'template') continue;
    const v = resolveInView(state, found.channelSetId, view) ?? masterVariant(state, found.channelSetId);
    // Planted: the wastebin left out of the links followed.
    if (v && (faults.has('syncable-deleted-links-followed') || !inWastebin(state, v, view)) && !out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * GET /file/usage/syncableObjects: pages, files and images the given files reference (direct
 * dependencies) with totals, and what those reference in turn (`dependencies`, keyed by kind and id) (USE-04).
 */
export const syncableObjects: Handler<State> = (state, req, ctx) => {
  const { files } = usageInput(state, req, 'ids');
  // Planted: the references resolved where the first file lives, whatever the source channel.
  const source = ctx.faults.has('syncable-srcnodeid-ignored') ? undefined : nodeView(state, qInt(req, 'srcNodeId'), 'srcNodeId');
  const view =
    source ??
    (files[0] ? viewOf(state, files[0].nodeId) : viewOf(state, [...state.nodes.values()].find((n) => n.masterId === undefined)!.id));
  const destination = qInt(req, 'dstNodeId');
  nodeView(state, destination, 'dstNodeId');
  // Variation (syncable-dst-must-be-channel): "dstNodeId (int; target channel)" read as a channel, the master refused.
  if (ctx.faults.has('syncable-dst-must-be-channel') && destination && state.nodes.get(destination)?.masterId === undefined)
    throw new Refusal('INVALIDDATA', 'dstNodeId: the target must be a channel', 'dstNodeId');
  const given = new Set(files.map((f) => f.channelSetId));
  const direct = files
    .flatMap((f) => referencedObjects(state, f, view, ctx.faults))
    // Planted: a link shared by several given files is listed for each of them.
    .filter((o, i, all) => !given.has(o.channelSetId) && (ctx.faults.has('syncable-shared-links-repeated') || all.indexOf(o) === i));
  const directSets = new Set(direct.map((o) => o.channelSetId));
  const dependencies: Record<string, Record<string, Record<string, unknown>>> = {};
  // Planted: only the direct links are followed, so no indirect dependency is reported.
  for (const o of ctx.faults.has('syncable-dependencies-dropped') ? [] : direct) {
    for (const dep of referencedObjects(state, o, view, ctx.faults)) {
      if (directSets.has(dep.channelSetId) || given.has(dep.channelSetId)) continue;
      (dependencies[dep.kind] ??= {})[String(dep.id)] = { id: dep.id, globalId: dep.globalId, name: dep.name, type: dep.kind };
    }
  }
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const pages = direct.filter((o): o is PageObj => o.kind === 'page');
  // Variation syncable-images-in-files: the files member holds what is a file or an image, as one table of both would give.
  const fileDeps = direct.filter(
    (o): o is FileObj => o.kind === 'file' || (ctx.faults.has('syncable-images-in-files') && o.kind === 'image'),
  );
  const images = ctx.faults.has('syncable-missing-images') ? [] : direct.filter((o): o is FileObj => o.kind === 'image');
  return {
    // Planted: the flag set whatever the answer holds.
    haveDependencies: ctx.faults.has('syncable-dependencies-flag-set') || Object.keys(dependencies).length > 0,
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
