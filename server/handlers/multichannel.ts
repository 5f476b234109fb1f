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
import * as planted from './planted/multichannel.ts';

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

/** The channels an object is disinherited for, as the GET forms report them: its own setting. */
function reportedDisinherit(state: State, master: Obj, channels: readonly number[], plan: planted.StatusPlan): number[] {
  const own = new Set(plan.disinherited(master.disinherit ?? [], state, master, channels));
  return [...own].filter((c) => channels.includes(c)).sort((a, b) => a - b);
}

/** The DisinheritResponse members of one object (read from its master variant). */
function disinheritStatus(state: State, obj: Obj, plan: planted.StatusPlan) {
  const master = masterVariant(state, obj.channelSetId) ?? obj;
  const channels = descendantChannels(state, master.nodeId);
  return {
    exclude: master.excluded ?? false,
    disinheritDefault: master.disinheritDefault ?? false,
    disinherit: reportedDisinherit(state, master, channels, plan),
    inheritable: inheritableChannels(state, master),
  };
}

/** The MultiDisinheritResponse members: exclude when all are excluded, disinherit for all, partialDisinherit for some. */
function multiStatus(state: State, objs: Obj[], plan: planted.StatusPlan) {
  const all = objs.map((o) => disinheritStatus(state, o, plan));
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

/** The objects the `id` parameters name, of the given kinds, in the view of the `nodeId` parameter. */
function resolveMany(state: State, req: OpRequest, kinds: readonly Kind[], faults: FaultSet): Obj[] {
  const view = nodeView(state, qInt(req, 'nodeId'));
  return qStrs(req, 'id').map((id) => resolveObject(state, id, { kinds, view, what: 'object', faults, property: 'id' }).obj);
}

/** GET /folder/disinherit/{id}: exclusion and disinherit status of one folder (MCH-05). */
export const folderDisinheritGet: Handler<State> = (state, req, ctx) => {
  const plan = planted.folderDisinheritGet(ctx.faults);
  const { obj } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  return plan.status(disinheritStatus(state, obj, plan), state, obj);
};

/** GET /folder/disinherit: the status of several folders. */
export const folderDisinheritGetMany: Handler<State> = (state, req, ctx) => {
  const plan = planted.folderDisinheritGetMany(ctx.faults);
  return multiStatus(state, resolveMany(state, req, ['folder'], ctx.faults), plan);
};

/**
 * GET /file/disinherit: the status of several objects. The contract describes the ids as page ids ("a list of ids
 * (described as page IDs)"); any object id is taken.
 */
export const fileDisinheritGet: Handler<State> = (state, req, ctx) => {
  const plan = planted.fileDisinheritGet(ctx.faults);
  return multiStatus(state, resolveMany(state, req, plan.kinds(ALL_KINDS), ctx.faults), plan);
};

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
function applyDisinherit(state: State, objs: Obj[], body: Partial<DisinheritRequest>, plan: planted.SetPlan): void {
  const disinherit = body.disinherit ?? [];
  const reinherit = body.reinherit ?? [];
  const both = disinherit.find((c) => reinherit.includes(c));
  if (both !== undefined) throw new Refusal('INVALIDDATA', `channel ${both} cannot be disinherited and reinherited at once`, 'reinherit');
  const targets: Obj[] = [];
  for (const obj of plan.objects(objs, state, body)) {
    const master = masterVariant(state, obj.channelSetId) ?? obj;
    if (isRoot(master)) throw new Refusal('INVALIDDATA', 'the root folder of a node cannot be excluded or disinherited', 'id');
    const channels = plan.channels(descendantChannels(state, master.nodeId), master.nodeId);
    for (const [list, property] of [
      [disinherit, 'disinherit'],
      [reinherit, 'reinherit'],
    ] as const) {
      const bad = list.find((c) => !channels.includes(c));
      if (bad !== undefined) throw new Refusal('INVALIDDATA', `${bad} is not a channel of node ${master.nodeId}`, property);
    }
    const recursive = plan.recursive(body.recursive);
    targets.push(master, ...(recursive && master.kind === 'folder' ? descendantMasters(state, master.channelSetId, master.nodeId) : []));
  }
  for (const t of targets) {
    const hidden = plan.hidesEverywhere(body.exclude) ? descendantChannels(state, t.nodeId) : disinherit;
    const copy = (state.sets.get(t.channelSetId) ?? []).find(
      (v) => v !== t && !v.deleted && hidden.some((c) => state.nodes.get(v.nodeId)!.chain.includes(c)),
    );
    if (copy)
      plan.localizedThere(
        new Refusal('FAILURE', `${t.kind} ${t.id} is localized in node ${copy.nodeId}; unlocalize it first`, 'disinherit', 409),
      );
  }
  plan.changing(targets, state);
  for (const t of targets) {
    if (body.exclude !== undefined) {
      if (body.exclude) t.excluded = true;
      else delete t.excluded;
      plan.excluded(t, body.exclude);
    }
    if (body.disinheritDefault !== undefined) {
      if (body.disinheritDefault) t.disinheritDefault = true;
      else delete t.disinheritDefault;
    }
    const set = new Set([...(t.disinherit ?? []), ...disinherit].filter((c) => !reinherit.includes(c)));
    if (set.size > 0) t.disinherit = [...set].sort((a, b) => a - b);
    else delete t.disinherit;
    plan.disinherited(t, reinherit);
  }
  plan.changed(targets);
}

/** POST /folder/disinherit/{id}: sets the status of one folder. */
export const folderDisinheritSet: Handler<State> = (state, req, ctx) => {
  const plan = planted.folderDisinheritSet(ctx.faults);
  const { obj } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  applyDisinherit(state, [obj], plan.body(bodyOf<DisinheritRequest>(req)), plan);
  return {};
};

/** POST /folder/disinherit: sets the status of several folders. */
export const folderDisinheritSetMany: Handler<State> = (state, req, ctx) => {
  const plan = planted.folderDisinheritSetMany(ctx.faults);
  applyDisinherit(state, resolveMany(state, req, ['folder'], ctx.faults), plan.body(bodyOf<DisinheritRequest>(req)), plan);
  return {};
};

/** POST /file/disinherit: sets the status of several objects ("Response: not shown": the envelope). */
export const fileDisinheritSet: Handler<State> = (state, req, ctx) => {
  const plan = planted.fileDisinheritSet(ctx.faults);
  applyDisinherit(state, resolveMany(state, req, plan.kinds(ALL_KINDS), ctx.faults), plan.body(bodyOf<DisinheritRequest>(req)), plan);
  return {};
};

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
function localize(state: State, req: OpRequest, kinds: readonly Kind[], what: string, plan: planted.LocalizePlan): Record<string, unknown> {
  const obj = objectById(state, req.path.id, kinds, what);
  const channel = channelOf(state, bodyOf<LocalizeRequest>(req).channelId);
  const view = viewOf(state, channel.id);
  const visible = resolveInView(state, obj.channelSetId, view);
  if (!visible || !ancestorsVisible(state, visible, view))
    throw new Refusal('INVALIDDATA', `${what} ${obj.id} is not inherited into channel ${channel.id}`, 'channelId');
  if (inWastebin(state, visible, view)) throw new Refusal('NOTFOUND', `${what} ${obj.id} is in the wastebin`, 'id');
  if (plan.refusesAgain(visible.nodeId === channel.id, visible)) {
    return plan.localizedAlready(
      new Refusal('INVALIDDATA', `${what} ${obj.id} is already localized or local in channel ${channel.id}`, 'channelId'),
      visible,
    );
  }
  if (isRoot(visible)) throw new Refusal('INVALIDDATA', 'a root folder cannot be localized', 'id');
  const master = masterVariant(state, obj.channelSetId)!;
  plan.copy(copyObject)(state, visible, {
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
  return localize(state, req, ['folder'], 'folder', planted.folderLocalize(ctx.faults));
};

/** POST /file/localize/{id}. */
export const fileLocalize: Handler<State> = (state, req, ctx) => localize(state, req, FILE_KINDS, 'file', planted.fileLocalize(ctx.faults));

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
  const plan = planted.unlocalize(ctx.faults);
  const b = plan.body(bodyOf<UnlocalizeRequest>(req));
  const obj = objectById(state, req.path.id, plan.kinds(ALL_KINDS), 'object');
  plan.named(obj);
  const channel = channelOf(state, b.channelId ?? (obj.masterId !== undefined ? obj.nodeId : undefined));
  const copy = (state.sets.get(obj.channelSetId) ?? []).find((v) => plan.inChannel(v.nodeId === channel.id) && v.masterId !== undefined);
  if (!copy || isRoot(copy)) {
    return plan.notLocalized(
      new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is not localized in channel ${channel.id}`, 'channelId'),
      state,
      obj,
      channel,
      copy,
    );
  }
  const remove = [
    copy,
    ...(b.recursive && copy.kind === 'folder' ? localizedBelow(state, copy.channelSetId, channel.id, b.types ?? []) : []),
  ];
  for (const o of plan.removed(remove, state, copy, b)) removeObject(state, o);
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
function pushContent(state: State, from: Obj, to: Obj, plan: planted.PushPlan): void {
  const content: Partial<Obj> = { ...from };
  for (const key of plan.kept(KEPT_ON_PUSH)) delete content[key];
  const before = nameKey(to);
  Object.assign(to, plan.content(content, from), { edate: nowSeconds(state), editorId: state.requesterId });
  noteRenamed(state, to, before);
  setTags(state, to, cloneTags(state, from.tags));
}

/**
 * POST /file/push2master/{id}: the channel's version goes to the master (MCH-07): a localized copy's
 * content is copied into the master variant; a local object moves into the master node.
 */
export const push2master: Handler<State> = (state, req, ctx) => {
  const plan = planted.push2master(ctx.faults);
  const b = bodyOf<PushToMasterRequest>(req);
  const obj = objectById(state, req.path.id, ALL_KINDS, 'object');
  const channel = channelOf(state, plan.channelId(b.channelId, obj) ?? obj.nodeId);
  plan.named(obj, channel);
  const target = b.masterId ?? channel.masterId!;
  if (target === channel.id || !channel.chain.includes(target))
    throw new Refusal('INVALIDDATA', `masterId: ${target} is not a master node of channel ${channel.id}`, 'masterId');
  const src = (state.sets.get(obj.channelSetId) ?? []).find((v) => v.nodeId === channel.id && !v.deleted);
  if (!src) {
    return plan.nothingToPush(
      new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is neither localized nor local in channel ${channel.id}`, 'channelId'),
    );
  }
  plan.source(src, channel, b);
  const items = [
    src,
    ...(b.recursive && src.kind === 'folder' ? channelObjectsBelow(state, src as FolderObj, channel.id, b.types ?? []) : []),
  ];
  const targetView = viewOf(state, target);
  const pushed = new Set<number>();
  for (const o of plan.checked(items)) {
    if (o.masterId === undefined && o.parentSet !== 0 && !resolveInView(state, o.parentSet, targetView) && !pushed.has(o.parentSet)) {
      throw new Refusal('INVALIDDATA', `${o.kind} ${o.id} is in a folder that exists only in the channel; push the folder first`, 'id');
    }
    pushed.add(o.channelSetId);
  }
  for (const o of plan.pushed(items)) {
    if (plan.moves(o.masterId === undefined)) o.nodeId = target;
    else {
      pushContent(
        state,
        o,
        (state.sets.get(o.channelSetId) ?? []).find((v) => v.nodeId === target) ?? masterVariant(state, o.channelSetId)!,
        plan,
      );
      plan.contentPushed(state, o);
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
function countObjects(objs: Obj[], nodeId: number, plan: planted.InfoPlan) {
  const entry = { channelId: nodeId, ...zero(), folder: zero(), page: zero(), image: zero(), file: zero(), template: zero() };
  for (const o of objs) {
    const kind: keyof Counters = plan.counter(o.nodeId !== nodeId ? 'inherited' : o.masterId !== undefined ? 'localized' : 'local');
    entry[kind]++;
    entry[o.kind][kind]++;
  }
  return entry;
}

/** The nodes a localizationinfo reports: the given node and its masters, else every node of the object's tree. */
function infoNodes(state: State, obj: Obj, nodeId: number | undefined, plan: planted.InfoPlan): number[] {
  const start = plan.start(nodeId);
  const top = state.nodes.get(obj.nodeId)!.chain.at(-1)!;
  return plan.nodes(start ? state.nodes.get(start)!.chain : [top, ...descendantChannels(state, top)], state, nodeId);
}

/** GET /folder/localizationinfo/{id}: counters for the folder and its sub-items per channel and master (MCH-08). */
export const folderLocalizationInfo: Handler<State> = (state, req, ctx) => {
  const plan = planted.folderLocalizationInfo(ctx.faults);
  const nodeId = qInt(req, 'nodeId');
  const { obj } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, nodeId),
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  const recursive = qBool(req, 'recursive', false);
  const channels = infoNodes(state, obj, nodeId, plan).map((n) => {
    const view: View = viewOf(state, n);
    const folder = resolveInView(state, obj.channelSetId, view) as FolderObj | undefined;
    if (!folder || !ancestorsVisible(state, folder, view) || inWastebin(state, folder, view)) return countObjects([], n, plan);
    const walk = { view, recursive, wastebin: 'exclude' as const };
    const below: Obj[] = (['folder', 'file', 'image', 'page'] as ChildKind[]).flatMap((k) => collectChildren(state, folder, k, walk));
    const templates = plan.templates([...new Set(templatesIn(state, folder, walk).map((e) => e.template))]);
    const self = plan.self(isRoot(folder) ? [] : [folder]);
    return countObjects([...self, ...below, ...templates], n, plan);
  });
  return { channels };
};

/** GET /file/localizationinfo/{id}: counters of one file per channel and master. */
export const fileLocalizationInfo: Handler<State> = (state, req, ctx) => {
  const plan = planted.fileLocalizationInfo(ctx.faults);
  const nodeId = qInt(req, 'nodeId');
  const { obj } = resolveObject(state, req.path.id, {
    kinds: FILE_KINDS,
    view: nodeView(state, nodeId),
    what: 'file',
    faults: ctx.faults,
    property: 'id',
  });
  const channels = infoNodes(state, obj, nodeId, plan).map((n) => {
    const view = viewOf(state, n);
    const v = resolveInView(state, obj.channelSetId, view);
    return countObjects(v && ancestorsVisible(state, v, view) && !inWastebin(state, v, view) ? [v] : [], n, plan);
  });
  return { channels };
};

/** The LocalizationsResponse of an object's channel set: its localized copies and the nodes they are in (MCH-04). */
function localizations(
  state: State,
  req: OpRequest,
  kinds: readonly Kind[],
  what: string,
  plan: planted.LocalizationsPlan,
): Record<string, unknown> {
  const obj = objectById(state, req.path.id, kinds, what);
  const master = masterVariant(state, obj.channelSetId) ?? obj;
  const copies = plan.copies(
    (state.sets.get(obj.channelSetId) ?? [])
      .filter((v) => v.masterId !== undefined && !v.deleted && !isRoot(v))
      .sort((a, b) => a.id - b.id),
  );
  const online = (o: Obj) => (o.kind === 'file' || o.kind === 'image' || o.kind === 'page' ? o.online : true);
  return {
    masterId: master.id,
    masterNodeId: master.nodeId,
    nodeIds: Object.fromEntries(copies.map((c) => [String(c.id), c.nodeId])),
    total: plan.total(copies.length),
    hidden: 0,
    online: copies.filter(online).map((c) => c.id),
    offline: copies.filter((c) => !online(c)).map((c) => c.id),
  };
}

/** GET /folder/localizations/{id}. */
export const folderLocalizations: Handler<State> = (state, req, ctx) =>
  localizations(state, req, ['folder'], 'folder', planted.folderLocalizations(ctx.faults));

/** GET /file/localizations/{id}. */
export const fileLocalizations: Handler<State> = (state, req, ctx) =>
  localizations(state, req, FILE_KINDS, 'file', planted.fileLocalizations(ctx.faults));
