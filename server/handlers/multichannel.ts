/**
 * Multichannelling operations of contract 4.2/4.3: disinherit status (get and set, one and many),
 * localize, unlocalize, push2master, localizationinfo and localizations.
 */
import type { DisinheritRequest, LocalizeRequest, PushToMasterRequest, UnlocalizeRequest } from '../../schemas/types.ts';
import {
  ancestorsVisible,
  descendantChannels,
  inWastebin,
  isRoot,
  lookup,
  masterVariant,
  nameKey,
  noteRenamed,
  nowSeconds,
  removeObject,
  resolveInView,
  setTags,
  viewOf,
  type ChildKind,
  type FolderObj,
  type Kind,
  type NodeRec,
  type Obj,
  type State,
  type View,
  setsBelow,
} from '../state.ts';
import { Refusal, type FaultSet, type Handler, type OpRequest } from '../types.ts';
import { bodyOf, nodeView, qBool, qInt, qStrs, resolveObject } from './common.ts';
import { collectChildren } from './listing.ts';
import { cloneTags, copyObject } from './mutations.ts';
import { templatesIn } from './pages.ts';

const ALL_KINDS: readonly Kind[] = ['folder', 'file', 'image', 'page', 'template'];
const FILE_KINDS: readonly Kind[] = ['file', 'image'];

/** Channels below the object's node into which it could be inherited: those where its folder is visible. */
function inheritableChannels(state: State, master: Obj): number[] {
  return descendantChannels(state, master.nodeId)
    .filter((c) => {
      if (master.kind === 'template' || master.parentSet === 0) return true;
      const view = viewOf(state, c);
      const parent = resolveInView(state, master.parentSet, view);
      return parent !== undefined && ancestorsVisible(state, parent, view);
    })
    .sort((a, b) => a - b);
}

/**
 * The channels an object is disinherited for, as the GET forms report them: its own setting. Variations:
 * the folders above it add theirs (disinherit-effective-status, what the channel sees); while it is
 * excluded, none (excluded-reports-no-disinherit) or every channel (excluded-reports-every-channel).
 */
function reportedDisinherit(state: State, master: Obj, channels: readonly number[], faults: FaultSet): number[] {
  if (master.excluded && faults.has('excluded-reports-no-disinherit')) return [];
  if (master.excluded && faults.has('excluded-reports-every-channel')) return [...channels].sort((a, b) => a - b);
  const own = new Set(master.disinherit ?? []);
  if (faults.has('disinherit-effective-status'))
    for (let set = master.parentSet, depth = 0; set !== 0 && depth <= state.objects.size; depth++) {
      const folder = masterVariant(state, set);
      if (!folder) break;
      for (const c of folder.disinherit ?? []) own.add(c);
      set = folder.parentSet;
    }
  return [...own].filter((c) => channels.includes(c)).sort((a, b) => a - b);
}

/** The DisinheritResponse members of one object (read from its master variant). */
function disinheritStatus(state: State, obj: Obj, faults: FaultSet) {
  const master = masterVariant(state, obj.channelSetId) ?? obj;
  const channels = descendantChannels(state, master.nodeId);
  return {
    exclude: master.excluded ?? false,
    disinheritDefault: master.disinheritDefault ?? false,
    disinherit: faults.has('disinherit-get-empty') ? [] : reportedDisinherit(state, master, channels, faults),
    inheritable: inheritableChannels(state, master),
  };
}

/** The MultiDisinheritResponse members: exclude when all are excluded, disinherit for all, partialDisinherit for some. */
function multiStatus(state: State, objs: Obj[], faults: FaultSet) {
  const all = objs.map((o) => disinheritStatus(state, o, faults));
  const every = (list: (s: (typeof all)[number]) => number[]) =>
    all.length === 0 ? [] : list(all[0]!).filter((c) => all.every((s) => list(s).includes(c)));
  const some = [...new Set(all.flatMap((s) => s.disinherit))].sort((a, b) => a - b);
  const full = every((s) => s.disinherit);
  return {
    exclude: all.length > 0 && all.every((s) => s.exclude),
    disinherit: full,
    partialDisinherit: some.filter((c) => !full.includes(c)),
    inheritable: every((s) => s.inheritable),
  };
}

function resolveMany(state: State, req: OpRequest, kinds: readonly Kind[], faults: FaultSet): Obj[] {
  const view = nodeView(state, qInt(req, 'nodeId'));
  return qStrs(req, 'id').map((id) => resolveObject(state, id, { kinds, view, what: 'object', faults, property: 'id' }).obj);
}

/** GET /folder/disinherit/{id}: exclusion and disinherit status of one folder (MCH-05). */
export const folderDisinheritGet: Handler<State> = (state, req, ctx) => {
  const { obj } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  // Planted (disinherit-get-reads-copy): in a channel that localized the folder, the copy's own status, which no setter writes.
  if (ctx.faults.has('disinherit-get-reads-copy') && obj !== masterVariant(state, obj.channelSetId))
    return { ...disinheritStatus(state, obj, ctx.faults), disinheritDefault: Boolean(obj.disinheritDefault) };
  return disinheritStatus(state, obj, ctx.faults);
};

/** GET /folder/disinherit: the status of several folders. */
export const folderDisinheritGetMany: Handler<State> = (state, req, ctx) =>
  multiStatus(state, resolveMany(state, req, ['folder'], ctx.faults), ctx.faults);

/**
 * The kinds /file/disinherit takes: "a list of ids (described as page IDs)". Any object id by default; page
 * ids only (file-disinherit-pages-only) or file ids only (file-disinherit-files-only) as variations.
 */
function fileDisinheritKinds(faults: FaultSet): readonly Kind[] {
  if (faults.has('file-disinherit-pages-only')) return ['page'];
  if (faults.has('file-disinherit-files-only')) return FILE_KINDS;
  return ALL_KINDS;
}

/** GET /file/disinherit: the status of several objects (the contract describes the ids as page ids; any object id is taken). */
export const fileDisinheritGet: Handler<State> = (state, req, ctx) =>
  multiStatus(state, resolveMany(state, req, fileDisinheritKinds(ctx.faults), ctx.faults), ctx.faults);

/** Master variants of everything below a folder channel set that lives in the given node. */
function descendantMasters(state: State, folderSet: number, nodeId: number): Obj[] {
  const out: Obj[] = [];
  for (const { set } of setsBelow(state, folderSet)) {
    const m = masterVariant(state, set);
    if (m && m.nodeId === nodeId) out.push(m);
  }
  return out;
}

/**
 * Sets exclusion and disinheritance (MCH-05): channels must be channels below the object's node; a
 * channel the object would disappear from must not hold a localized copy of it. All objects are
 * checked before any changes.
 */
function applyDisinherit(state: State, objs: Obj[], body: Partial<DisinheritRequest>, faults: FaultSet): void {
  const disinherit = body.disinherit ?? [];
  // Planted: reinherit is read but changes nothing.
  const reinherit = faults.has('reinherit-ignored') ? [] : (body.reinherit ?? []);
  const both = disinherit.find((c) => reinherit.includes(c));
  if (both !== undefined) throw new Refusal('INVALIDDATA', `channel ${both} cannot be disinherited and reinherited at once`, 'reinherit');
  const targets: Obj[] = [];
  for (const obj of objs) {
    const master = masterVariant(state, obj.channelSetId) ?? obj;
    // Planted (disinherit-set-on-copy): in a channel that localized the object, its disinheritDefault lands on the copy.
    if (faults.has('disinherit-set-on-copy') && obj !== master && typeof body.disinheritDefault === 'boolean') {
      obj.disinheritDefault = body.disinheritDefault;
      continue;
    }
    if (isRoot(master)) throw new Refusal('INVALIDDATA', 'the root folder of a node cannot be excluded or disinherited', 'id');
    const channels = descendantChannels(state, master.nodeId);
    for (const [list, property] of [
      [disinherit, 'disinherit'],
      [reinherit, 'reinherit'],
    ] as const) {
      const bad = list.find((c) => !channels.includes(c));
      if (bad !== undefined) throw new Refusal('INVALIDDATA', `${bad} is not a channel of node ${master.nodeId}`, property);
    }
    // Planted (disinherit-always-recursive): the content of a folder follows it without `recursive`.
    const recursive = body.recursive || faults.has('disinherit-always-recursive');
    targets.push(master, ...(recursive && master.kind === 'folder' ? descendantMasters(state, master.channelSetId, master.nodeId) : []));
  }
  for (const t of targets) {
    // Planted (disinherit-refused-when-localized): a localized copy anywhere stops the request, whatever it hides.
    const hidden = body.exclude || faults.has('disinherit-refused-when-localized') ? descendantChannels(state, t.nodeId) : disinherit;
    const copy = (state.sets.get(t.channelSetId) ?? []).find(
      (v) => v !== t && !v.deleted && hidden.some((c) => state.nodes.get(v.nodeId)!.chain.includes(c)),
    );
    if (copy) throw new Refusal('FAILURE', `${t.kind} ${t.id} is localized in node ${copy.nodeId}; unlocalize it first`, 'disinherit', 409);
  }
  const before = JSON.stringify(targets.map(multichannelSettings));
  for (const t of targets) {
    if (body.exclude !== undefined) {
      if (body.exclude) t.excluded = true;
      else delete t.excluded;
      // Variation: excluded from every channel, an object keeps no per-channel list.
      if (body.exclude && faults.has('exclude-clears-disinherit')) delete t.disinherit;
    }
    if (body.disinheritDefault !== undefined) {
      if (body.disinheritDefault) t.disinheritDefault = true;
      else delete t.disinheritDefault;
    }
    const set = new Set([...(t.disinherit ?? []), ...disinherit].filter((c) => !reinherit.includes(c)));
    if (set.size > 0) t.disinherit = [...set].sort((a, b) => a - b);
    else delete t.disinherit;
    // Planted (reinherit-leaves-disinherited): a list a reinherit empties keeps a mark no channel matches; the record stays disinherited.
    if (faults.has('reinherit-leaves-disinherited') && reinherit.length > 0 && !t.disinherit) t.disinherit = [0];
  }
  // Variation: a request that changes nothing is refused (the settings were as asked already), and changes nothing.
  if (faults.has('disinherit-noop-refused') && JSON.stringify(targets.map(multichannelSettings)) === before)
    throw new Refusal('INVALIDDATA', 'the request changes nothing: the objects are excluded and disinherited as asked already', 'id');
}

/** What a DisinheritRequest sets on an object, to tell whether a request changed anything. */
function multichannelSettings(obj: Obj): unknown[] {
  return [obj.excluded ?? false, obj.disinheritDefault ?? false, obj.disinherit ?? []];
}

/** POST /folder/disinherit/{id}: sets the status of one folder. */
export const folderDisinheritSet: Handler<State> = (state, req, ctx) => {
  const { obj } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  applyDisinherit(state, [obj], bodyOf<DisinheritRequest>(req), ctx.faults);
  return {};
};

/** POST /folder/disinherit: sets the status of several folders. */
export const folderDisinheritSetMany: Handler<State> = (state, req, ctx) => {
  applyDisinherit(state, resolveMany(state, req, ['folder'], ctx.faults), manyBody(req, ctx.faults), ctx.faults);
  return {};
};

/** POST /file/disinherit: sets the status of several objects; "Response: not shown": the envelope, or no body at all (a variation). */
export const fileDisinheritSet: Handler<State> = (state, req, ctx) => {
  applyDisinherit(state, resolveMany(state, req, fileDisinheritKinds(ctx.faults), ctx.faults), manyBody(req, ctx.faults), ctx.faults);
  return {};
};

/** The DisinheritRequest of a list form; planted (disinherit-many-default-ignored): without its disinheritDefault. */
function manyBody(req: OpRequest, faults: FaultSet): Partial<DisinheritRequest> {
  const body = bodyOf<DisinheritRequest>(req);
  if (!faults.has('disinherit-many-default-ignored')) return body;
  const rest = { ...body };
  delete rest.disinheritDefault;
  return rest;
}

/** The channel a request names: it must exist and be a channel (it has a master). */
function channelOf(state: State, channelId: number | undefined, property = 'channelId'): NodeRec {
  if (channelId === undefined) throw new Refusal('INVALIDDATA', `${property}: the channel is required`, property);
  const node = state.nodes.get(channelId);
  if (!node || node.masterId === undefined) throw new Refusal('INVALIDDATA', `${property}: ${channelId} is not a channel`, property);
  return node;
}

function objectById(state: State, ref: string | undefined, kinds: readonly Kind[], what: string): Obj {
  const obj = ref === undefined ? undefined : lookup(state, ref);
  if (!obj || !kinds.includes(obj.kind) || obj.deleted) throw new Refusal('NOTFOUND', `${what} ${ref ?? ''} not found`, 'id');
  return obj;
}

/**
 * Localizes an object in a channel: a copy with its own id in the same channel set replaces the
 * inherited master in that channel's view (MCH-02).
 */
function localize(state: State, req: OpRequest, kinds: readonly Kind[], what: string, faults: FaultSet): Record<string, unknown> {
  const obj = objectById(state, req.path.id, kinds, what);
  const channel = channelOf(state, bodyOf<LocalizeRequest>(req).channelId);
  const view = viewOf(state, channel.id);
  const visible = resolveInView(state, obj.channelSetId, view);
  if (!visible || !ancestorsVisible(state, visible, view))
    throw new Refusal('INVALIDDATA', `${what} ${obj.id} is not inherited into channel ${channel.id}`, 'channelId');
  if (inWastebin(state, visible, view)) throw new Refusal('NOTFOUND', `${what} ${obj.id} is in the wastebin`, 'id');
  // Planted (localize-again-copies): what the channel has localized already gets a second copy.
  if (visible.nodeId === channel.id && !(visible.masterId !== undefined && faults.has('localize-again-copies'))) {
    // Variation: localizing what the channel has localized already is done already.
    if (visible.masterId !== undefined && faults.has('localize-again-succeeds')) return {};
    throw new Refusal('INVALIDDATA', `${what} ${obj.id} is already localized or local in channel ${channel.id}`, 'channelId');
  }
  if (isRoot(visible)) throw new Refusal('INVALIDDATA', 'a root folder cannot be localized', 'id');
  // Planted (localize-noop): the request is answered, the copy never made.
  if (faults.has('localize-noop')) return {};
  const master = masterVariant(state, obj.channelSetId)!;
  copyObject(state, visible, {
    nodeId: channel.id,
    channelSetId: visible.channelSetId,
    masterId: master.id,
    parentSet: visible.parentSet,
    name: visible.name,
  });
  return {};
}

/** POST /folder/localize/{id}. */
export const folderLocalize: Handler<State> = (state, req, ctx) => {
  // Variation (folder-localize-other-body): the folder form's fields are "not shown"; this one names the channel in `nodeId`.
  if (ctx.faults.has('folder-localize-other-body')) {
    const { nodeId } = bodyOf<{ nodeId?: number }>(req);
    if (nodeId === undefined) throw new Refusal('INVALIDDATA', 'nodeId: the channel to localize the folder in is required', 'nodeId');
  }
  return localize(state, req, ['folder'], 'folder', ctx.faults);
};

/** POST /file/localize/{id}. */
export const fileLocalize: Handler<State> = (state, req, ctx) => localize(state, req, FILE_KINDS, 'file', ctx.faults);

/** Localized copies (in a node) of everything below a folder channel set, of the given kinds. */
function localizedBelow(state: State, folderSet: number, nodeId: number, kinds: readonly string[]): Obj[] {
  const out: Obj[] = [];
  for (const { set, kind } of setsBelow(state, folderSet)) {
    const copy = state.sets.get(set)?.find((v) => v.nodeId === nodeId && v.masterId !== undefined);
    if (copy && (kinds.length === 0 || kinds.includes(kind))) out.push(copy);
  }
  return out;
}

/**
 * POST /file/unlocalize/{id}: removes the localized copy in the channel, which then sees the master
 * again (MCH-03, DEL-04). Any localized object's id is taken (files, and folders with `recursive`/`types`).
 */
export const unlocalize: Handler<State> = (state, req, ctx) => {
  const b = bodyOf<UnlocalizeRequest>(req);
  // Variation (unlocalize-files-only): /file/unlocalize takes files and images; folders are unlocalized elsewhere.
  const obj = objectById(state, req.path.id, ctx.faults.has('unlocalize-files-only') ? FILE_KINDS : ALL_KINDS, 'object');
  // Variations: only the localized copy's own id names what to unlocalize, or only the master's (with the channel).
  if (ctx.faults.has('unlocalize-copy-id-only') && obj.masterId === undefined)
    throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is no localized copy: name the copy to unlocalize`, 'id');
  if (ctx.faults.has('unlocalize-master-id-only') && obj.masterId !== undefined)
    throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is a localized copy: name its master and the channel`, 'id');
  const channel = channelOf(state, b.channelId ?? (obj.masterId !== undefined ? obj.nodeId : undefined));
  // Planted (unlocalize-first-copy): the first localized copy goes, whichever channel it is in.
  const anyChannel = ctx.faults.has('unlocalize-first-copy');
  const copy = (state.sets.get(obj.channelSetId) ?? []).find((v) => (anyChannel || v.nodeId === channel.id) && v.masterId !== undefined);
  // Planted (unlocalize-removes-local): an object local to the channel is taken for a copy and removed outright.
  const local =
    !copy && ctx.faults.has('unlocalize-removes-local')
      ? state.sets.get(obj.channelSetId)?.find((v) => v.nodeId === channel.id)
      : undefined;
  if (local) {
    removeObject(state, local);
    return {};
  }
  if (!copy || isRoot(copy)) {
    // Variation: nothing localized there is nothing to do.
    if (!copy && ctx.faults.has('unlocalize-nothing-succeeds')) return {};
    throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is not localized in channel ${channel.id}`, 'channelId');
  }
  // Variation (unlocalize-takes-content): without `recursive` a folder's copies below go with it. Planted
  // (unlocalize-ignores-recursive-false): they go even when `recursive` is false.
  const below =
    b.recursive ||
    (b.recursive === undefined && ctx.faults.has('unlocalize-takes-content')) ||
    ctx.faults.has('unlocalize-ignores-recursive-false');
  const remove = [
    copy,
    ...(below && copy.kind === 'folder' ? localizedBelow(state, copy.channelSetId, channel.id, b.recursive ? (b.types ?? []) : []) : []),
  ];
  // Planted (unlocalize-recursive-first-variant): below the folder the first variant of each set goes, whichever node holds
  // it: mostly the master's own object.
  if (ctx.faults.has('unlocalize-recursive-first-variant') && b.recursive && copy.kind === 'folder')
    remove.splice(1, Infinity, ...[...setsBelow(state, copy.channelSetId)].flatMap(({ set }) => state.sets.get(set)?.slice(0, 1) ?? []));
  if (!ctx.faults.has('unlocalize-keeps-copy')) for (const o of remove) removeObject(state, o);
  return {};
};

/** What a push leaves as it is in the variant pushed into: identity, place and multichannel settings. */
const KEPT_ON_PUSH = [
  'id',
  'globalId',
  'nodeId',
  'channelSetId',
  'masterId',
  'parentSet',
  'deleted',
  'excluded',
  'disinherit',
  'disinheritDefault',
  'cdate',
  'creatorId',
  'tags',
] as const;

/** Copies the content of a channel's variant into another variant (identity, place and multichannel settings stay). */
/** The members of a file's content: what push2master-content-only pushes (the binary data and what describes it). */
const FILE_CONTENT = ['data', 'fileType', 'sizeX', 'sizeY'] as const;

function pushContent(state: State, from: Obj, to: Obj, faults: FaultSet): void {
  const content: Partial<Obj> = { ...from };
  // Planted (push2master-copies-identity): the master takes the copy's identity and node along with its content.
  const keep = faults.has('push2master-copies-identity') ? [] : KEPT_ON_PUSH;
  for (const key of keep) delete content[key];
  // Variation: only the binary content goes; name and description stay the master's.
  if (faults.has('push2master-content-only') && (from.kind === 'file' || from.kind === 'image'))
    for (const key of Object.keys(content)) if (!(FILE_CONTENT as readonly string[]).includes(key)) delete content[key as keyof Obj];
  const before = nameKey(to);
  Object.assign(to, content, { edate: nowSeconds(state), editorId: state.requesterId });
  noteRenamed(state, to, before);
  setTags(state, to, cloneTags(state, from.tags));
}

/**
 * POST /file/push2master/{id}: the channel's version goes to the master (MCH-07): a localized copy's
 * content is copied into the master variant; a local object moves into the master node.
 */
export const push2master: Handler<State> = (state, req, ctx) => {
  const b = bodyOf<PushToMasterRequest>(req);
  const obj = objectById(state, req.path.id, ALL_KINDS, 'object');
  const channel = channelOf(state, b.channelId ?? obj.nodeId);
  // Variations: only the id of the channel's own object names what to push, or only the master's (with the channel).
  if (ctx.faults.has('push2master-copy-id-only') && obj.nodeId !== channel.id)
    throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is not an object of channel ${channel.id}: name the channel's copy`, 'id');
  if (ctx.faults.has('push2master-master-id-only') && obj.masterId !== undefined)
    throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is a localized copy: name its master and the channel`, 'id');
  const target = b.masterId ?? channel.masterId!;
  if (target === channel.id || !channel.chain.includes(target))
    throw new Refusal('INVALIDDATA', `masterId: ${target} is not a master node of channel ${channel.id}`, 'masterId');
  const src = (state.sets.get(obj.channelSetId) ?? []).find((v) => v.nodeId === channel.id && !v.deleted);
  if (!src) {
    // Variation: nothing of the channel's own to push is nothing to do.
    if (ctx.faults.has('push2master-nothing-succeeds')) return {};
    throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is neither localized nor local in channel ${channel.id}`, 'channelId');
  }
  // Variation: an object that exists only in the channel has no master to push into.
  if (src.masterId === undefined && ctx.faults.has('push2master-local-refused'))
    throw new Refusal('INVALIDDATA', `${src.kind} ${src.id} exists only in channel ${channel.id}: it has no master to push into`, 'id');
  // Planted (push2master-content-500): the content below a folder is walked without the channel's view.
  if (ctx.faults.has('push2master-content-500') && b.recursive && src.kind === 'folder')
    throw new TypeError("Cannot read properties of undefined (reading 'nodeId')");
  const items = [
    src,
    ...(b.recursive && src.kind === 'folder' ? channelObjectsBelow(state, src as FolderObj, channel.id, b.types ?? []) : []),
  ];
  const targetView = viewOf(state, target);
  const pushed = new Set<number>();
  // Planted (push2master-orphans-local-file): no object is asked whether the master holds its folder.
  const checked = ctx.faults.has('push2master-orphans-local-file') ? [] : items;
  for (const o of checked) {
    if (o.masterId === undefined && o.parentSet !== 0 && !resolveInView(state, o.parentSet, targetView) && !pushed.has(o.parentSet)) {
      throw new Refusal('INVALIDDATA', `${o.kind} ${o.id} is in a folder that exists only in the channel; push the folder first`, 'id');
    }
    pushed.add(o.channelSetId);
  }
  if (ctx.faults.has('push2master-noop')) return {};
  for (const o of items) {
    // Planted (push2master-local-stays): an object local to the channel is pushed into itself and stays there.
    if (o.masterId === undefined && !ctx.faults.has('push2master-local-stays')) o.nodeId = target;
    else {
      pushContent(
        state,
        o,
        (state.sets.get(o.channelSetId) ?? []).find((v) => v.nodeId === target) ?? masterVariant(state, o.channelSetId)!,
        ctx.faults,
      );
      // Variation: the pushed copy has done its work; the channel sees the master again.
      if (o.masterId !== undefined && ctx.faults.has('push2master-removes-copy')) removeObject(state, o);
    }
  }
  return {};
};

/** Objects below a folder that the channel holds itself (local or localized), of the given kinds. */
function channelObjectsBelow(state: State, folder: FolderObj, nodeId: number, kinds: readonly string[]): Obj[] {
  const view = viewOf(state, nodeId);
  const walk = { view, recursive: true, wastebin: 'exclude' as const };
  return (['folder', 'file', 'image', 'page'] as ChildKind[])
    .filter((k) => kinds.length === 0 || kinds.includes(k))
    .flatMap((k) => collectChildren(state, folder, k, walk))
    .filter((o) => o.nodeId === nodeId);
}

type Counters = { inherited: number; localized: number; local: number };
const zero = (): Counters => ({ inherited: 0, localized: 0, local: 0 });

/** Counts objects of a view as inherited, localized or local, in total and per kind (MCH-08). */
function countObjects(objs: Obj[], nodeId: number, faults: FaultSet) {
  const entry = { channelId: nodeId, ...zero(), folder: zero(), page: zero(), image: zero(), file: zero(), template: zero() };
  for (const o of objs) {
    let kind: keyof Counters = o.nodeId !== nodeId ? 'inherited' : o.masterId !== undefined ? 'localized' : 'local';
    if (kind === 'localized' && faults.has('localizationinfo-localized-as-inherited')) kind = 'inherited';
    // Planted: an object of the node's own is counted as inherited.
    if (kind === 'local' && faults.has('localizationinfo-local-as-inherited')) kind = 'inherited';
    entry[kind]++;
    entry[o.kind][kind]++;
  }
  return entry;
}

/**
 * The nodes a localizationinfo reports: the given node and its masters, else (or when `everyNode`, a variation
 * reading "node to start with" as the top of a walk down) every node of the object's tree. Planted
 * (localizationinfo-master-start-skips-master): started at a node without a master, the walk leaves that node out.
 */
function infoNodes(state: State, obj: Obj, nodeId: number | undefined, faults: FaultSet, everyNode = false): number[] {
  const nodes = (): number[] => {
    if (nodeId && !everyNode) return state.nodes.get(nodeId)!.chain;
    const top = state.nodes.get(obj.nodeId)!.chain.at(-1)!;
    return [top, ...descendantChannels(state, top)];
  };
  const start = nodeId ? state.nodes.get(nodeId) : undefined;
  if (start && start.masterId === undefined && faults.has('localizationinfo-master-start-skips-master'))
    return nodes().filter((n) => n !== start.id);
  return nodes();
}

/** GET /folder/localizationinfo/{id}: counters for the folder and its sub-items per channel and master (MCH-08). */
export const folderLocalizationInfo: Handler<State> = (state, req, ctx) => {
  const nodeId = qInt(req, 'nodeId');
  const { obj } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, nodeId),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  const recursive = qBool(req, 'recursive', false);
  const channels = infoNodes(state, obj, nodeId, ctx.faults, ctx.faults.has('localizationinfo-every-node')).map((n) => {
    const view: View = viewOf(state, n);
    const folder = resolveInView(state, obj.channelSetId, view) as FolderObj | undefined;
    if (!folder || !ancestorsVisible(state, folder, view) || inWastebin(state, folder, view)) return countObjects([], n, ctx.faults);
    const walk = { view, recursive, wastebin: 'exclude' as const };
    const below: Obj[] = (['folder', 'file', 'image', 'page'] as ChildKind[]).flatMap((k) => collectChildren(state, folder, k, walk));
    const templates = [...new Set(templatesIn(state, folder, walk).map((e) => e.template))];
    // Variation (localizationinfo-without-self): the folder is not among its own sub-items.
    const self = isRoot(folder) || ctx.faults.has('localizationinfo-without-self') ? [] : [folder];
    return countObjects([...self, ...below, ...templates], n, ctx.faults);
  });
  return { channels };
};

/** GET /file/localizationinfo/{id}: counters of one file per channel and master. */
export const fileLocalizationInfo: Handler<State> = (state, req, ctx) => {
  const nodeId = qInt(req, 'nodeId');
  const { obj } = resolveObject(state, req.path.id, {
    kinds: FILE_KINDS,
    view: nodeView(state, nodeId),
    what: 'file',
    faults: ctx.faults,
    property: 'id',
  });
  const channels = infoNodes(state, obj, nodeId, ctx.faults).map((n) => {
    const view = viewOf(state, n);
    const v = resolveInView(state, obj.channelSetId, view);
    return countObjects(v && ancestorsVisible(state, v, view) && !inWastebin(state, v, view) ? [v] : [], n, ctx.faults);
  });
  return { channels };
};

/** The LocalizationsResponse of an object's channel set: its localized copies and the nodes they are in (MCH-04). */
function localizations(state: State, req: OpRequest, kinds: readonly Kind[], what: string, faults: FaultSet): Record<string, unknown> {
  const obj = objectById(state, req.path.id, kinds, what);
  const master = masterVariant(state, obj.channelSetId) ?? obj;
  const copies = (state.sets.get(obj.channelSetId) ?? [])
    .filter((v) => v.masterId !== undefined && !v.deleted && !isRoot(v))
    .sort((a, b) => a.id - b.id);
  const online = (o: Obj) => (o.kind === 'file' || o.kind === 'image' || o.kind === 'page' ? o.online : true);
  return {
    masterId: master.id,
    masterNodeId: master.nodeId,
    nodeIds: Object.fromEntries(copies.map((c) => [String(c.id), c.nodeId])),
    total: copies.length + (faults.has('localizations-total-off-by-one') ? 1 : 0),
    hidden: 0,
    online: copies.filter(online).map((c) => c.id),
    offline: copies.filter((c) => !online(c)).map((c) => c.id),
  };
}

/** GET /folder/localizations/{id}. */
export const folderLocalizations: Handler<State> = (state, req, ctx) => localizations(state, req, ['folder'], 'folder', ctx.faults);

/** GET /file/localizations/{id}. */
export const fileLocalizations: Handler<State> = (state, req, ctx) => localizations(state, req, FILE_KINDS, 'file', ctx.faults);
