/**
 * Record rendering: stored objects -> the contract's records (sections 2.2-2.8), one renderer per kind,
 * seen from a view. Members whose value would be null are left out (reference notes), and only members
 * the contract lists are sent.
 */
import type {
  Construct,
  DeleteInfo,
  File as FileRecord,
  Folder as FolderRecord,
  Item,
  Node as NodeRecord,
  Page as PageRecord,
  PageVersion,
  Property,
  Tag,
  Template as TemplateRecord,
  TemplateTag,
  TranslationStatus,
  User,
} from '../../schemas/types.ts';
import { FOLDER_PRIVILEGES, type DatasetTag } from '../dataset-format.ts';
import {
  deletedAbove,
  folderChain,
  lookup,
  masterDeleted,
  masterVariant,
  parentInView,
  resolveInView,
  type DeleteMark,
  type FileObj,
  type FolderObj,
  type Obj,
  type PageObj,
  type State,
  type TemplateObj,
  type View,
  viewOf,
} from '../state.ts';
import { keepJson } from '../json.ts';
import type { FaultSet } from '../types.ts';
import * as planted from './planted/render.ts';

/** What every renderer needs: the store, the view and the planted faults. */
export interface RenderCtx {
  state: State;
  view: View;
  faults: FaultSet;
}

/**
 * The render context of each node, made once per node: a search answers objects of several nodes,
 * and the objects of one node share what their records read (see perRequest).
 */
export function renderContexts(state: State, faults: FaultSet): (nodeId: number) => RenderCtx {
  const contexts = new Map<number, RenderCtx>();
  return (nodeId) => {
    let ctx = contexts.get(nodeId);
    if (!ctx) contexts.set(nodeId, (ctx = { state, view: viewOf(state, nodeId), faults }));
    return ctx;
  };
}

/** Values worked out per render context, by key, for the store version they were read at. */
type Memos<T> = WeakMap<RenderCtx, { version: number; byKey: Map<number, T> }>;

/**
 * A value worked out once per render context (one request) and key (a parent folder set): the
 * siblings of a listing share it. A change of the store in between (its version) starts afresh.
 */
function perRequest<T>(memos: Memos<T>, ctx: RenderCtx, key: number, make: () => T): T {
  let memo = memos.get(ctx);
  if (!memo || memo.version !== ctx.state.version) memos.set(ctx, (memo = { version: ctx.state.version, byKey: new Map() }));
  let value = memo.byKey.get(key);
  if (value === undefined) memo.byKey.set(key, (value = make()));
  return value;
}

/** Permission names per object in the `perms` map of list responses (kept: written from its JSON, server/json.ts). */
export const ITEM_PERMISSIONS = keepJson(['view', 'create', 'edit', 'delete', 'publish']);

/** The User record of a user id (no password: a null member is left out). */
export function userRecord(state: State, id: number | undefined): User | undefined {
  const u = id === undefined ? undefined : state.users.get(id);
  if (!u) return undefined;
  const record: User = { id: u.id, login: u.login, firstName: u.firstName, lastName: u.lastName };
  if (u.email) record.email = u.email;
  if (u.description) record.description = u.description;
  return record;
}

/** DeleteInfo with `at` in seconds and the deleting user. */
export function deleteInfo(state: State, mark: DeleteMark, faults: FaultSet): DeleteInfo {
  const by = planted.render(faults).deletion.deletedBy(userRecord(state, mark.by));
  return { at: mark.at, ...(by ? { by } : {}) };
}

/** The Node record of a node id. */
export function nodeRecord(state: State, nodeId: number): NodeRecord {
  const n = state.nodes.get(nodeId)!;
  const master = state.nodes.get(n.chain[n.chain.length - 1]!)!;
  return {
    id: n.id,
    globalId: n.globalId,
    name: n.name,
    creator: userRecord(state, n.creatorId),
    cdate: n.cdate,
    editor: userRecord(state, n.editorId),
    edate: n.edate,
    type: n.masterId === undefined ? 'node' : 'channel',
    folderId: n.rootFolderId,
    publishDir: n.publishDir,
    binaryPublishDir: n.binaryPublishDir,
    pubDirSegment: false,
    https: n.https,
    host: n.host,
    publishFs: true,
    publishFsPages: true,
    publishFsFiles: true,
    publishContentMap: false,
    publishContentMapPages: false,
    publishContentMapFiles: false,
    publishContentMapFolders: false,
    disablePublish: false,
    editorVersion: 1,
    contentEditor: n.contentEditor,
    defaultFileFolderId: n.rootFolderId,
    defaultImageFolderId: n.rootFolderId,
    languagesId: n.languageIds,
    ...(n.masterId === undefined ? {} : { masterId: n.masterId, inheritedFromId: n.masterId }),
    masterNodeId: master.id,
    urlRenderWayPages: 0,
    urlRenderWayFiles: 0,
    insecurePreviewUrl: false,
    omitPageExtension: false,
    pageLanguageCode: 'FILENAME',
  };
}

/** The common item fields (contract 2.2) of any object, with its deletion state in the view. */
export function itemRecord(ctx: RenderCtx, obj: Obj): Item {
  const { state, view, faults } = ctx;
  const type =
    obj.kind === 'folder'
      ? obj.parentSet === 0
        ? state.nodes.get(obj.nodeId)?.masterId === undefined
          ? 'node'
          : 'channel'
        : 'folder'
      : obj.kind;
  const plan = planted.render(faults).deletion;
  const above = plan.folderDeleted(parentInfo(ctx, obj).above, obj);
  const masterMark = masterDeleted(state, obj);
  const deleted = plan.deleted(obj.deleted, masterMark);
  const master = plan.masterDeleted(masterMark);
  // Members added one by one, as the records that start from this one add theirs (see pageRecord).
  const item: Item = {
    id: obj.id,
    globalId: obj.globalId,
    name: obj.name,
    creator: userRecord(state, obj.creatorId),
    cdate: obj.cdate,
    editor: userRecord(state, obj.editorId),
    edate: obj.edate,
    type,
  };
  if (deleted) item.deleted = deleteInfo(state, deleted, faults);
  if (master) item.masterDeleted = deleteInfo(state, master, faults);
  if (above) item.folderDeleted = deleteInfo(state, above, faults);
  return item;
}

/** What the siblings of one folder share when rendered: the folder in the view, its path, the nearest deletion above them. */
interface ParentInfo {
  folder: FolderObj | undefined;
  path: string | undefined;
  above: DeleteMark | undefined;
}

/** Per render context: parent folder set -> its ParentInfo. */
const parentMemos: Memos<ParentInfo> = new WeakMap();

/**
 * The ParentInfo of an object, worked out once per parent folder and request (perRequest): a page of a
 * folder's files walks the folder chain once, not once per file.
 */
function parentInfo(ctx: RenderCtx, obj: Obj): ParentInfo {
  // Only the parent set matters: parentInView reads nothing else of the object, and deletedAbove starts there.
  return perRequest(parentMemos, ctx, obj.parentSet, () => {
    const folder = parentInView(ctx.state, obj, ctx.view);
    return {
      folder,
      path: folder ? folderPath(ctx, folder) : undefined,
      above: folder ? (folder.deleted ?? deletedAbove(ctx.state, folder, ctx.view)) : undefined,
    };
  });
}

/**
 * Adds the multichannelling members shared by folders, files and pages to a record being built, in
 * their order: where the object comes from in the view.
 */
function addChannelFields<R extends object>(ctx: RenderCtx, obj: Obj, record: R) {
  const { state, view } = ctx;
  const plan = planted.render(ctx.faults).channel;
  const master = masterVariant(state, obj.channelSetId) ?? obj;
  const disinherit = master.disinherit ?? [];
  const from = plan.inheritedFrom(obj.nodeId, view);
  const r = record as R & {
    inherited: boolean;
    inheritedFrom: string | undefined;
    inheritedFromId: number;
    masterNode: string | undefined;
    masterNodeId: number;
    disinheritedChannels?: NodeRecord[];
    excluded: boolean;
    disinheritDefault: boolean;
    disinherited: boolean;
  };
  r.inherited = plan.inherited(obj.nodeId !== view.nodeId, obj);
  r.inheritedFrom = state.nodes.get(from)?.name;
  r.inheritedFromId = obj.nodeId;
  r.masterNode = state.nodes.get(master.nodeId)?.name;
  r.masterNodeId = master.nodeId;
  const named = plan.disinheritedChannels(disinherit);
  if (named.length > 0) r.disinheritedChannels = named.filter((id) => state.nodes.has(id)).map((id) => nodeRecord(state, id));
  r.excluded = plan.excluded(master.excluded ?? false);
  r.disinheritDefault = master.disinheritDefault ?? false;
  r.disinherited = disinherit.length > 0;
  return r;
}

function renderProperty(tag: DatasetTag, key: string, index: number): Property {
  const p = tag.properties[key]!;
  return { id: tag.id * 10 + index, ...p };
}

/** The Tag record of a stored tag; with `construct` the construct is attached (folder load `construct=true`). */
export function tagRecord(state: State, tag: DatasetTag, construct = false): Tag | TemplateTag {
  const c = construct ? state.constructs.get(tag.constructId) : undefined;
  return {
    id: tag.id,
    name: tag.name,
    constructId: tag.constructId,
    ...(c ? { construct: constructRecord(state, tag.constructId) } : {}),
    active: tag.active,
    type: tag.type,
    properties: Object.fromEntries(Object.keys(tag.properties).map((key, i) => [key, renderProperty(tag, key, i)])),
    ...(tag.mandatory === undefined ? {} : { mandatory: tag.mandatory }),
    ...(tag.editableInPage === undefined ? {} : { editableInPage: tag.editableInPage }),
  };
}

/** A map of tags by name. */
export function tagMap(state: State, tags: readonly DatasetTag[], construct = false): Record<string, Tag> {
  return Object.fromEntries(tags.map((t) => [t.name, tagRecord(state, t, construct)]));
}

/** The Construct record. */
export function constructRecord(state: State, id: number): Construct {
  const c = state.constructs.get(id)!;
  return {
    id: c.id,
    globalId: c.globalId,
    keyword: c.keyword,
    name: c.name,
    description: c.description,
    icon: c.icon,
    category: c.category,
    mayBeSubtag: false,
    mayContainSubtags: false,
    creator: userRecord(state, c.creatorId),
    editor: userRecord(state, c.editorId),
    cdate: c.cdate,
    edate: c.edate,
    newEditor: true,
    visibleInMenu: true,
    autoEnable: false,
    parts: c.parts.map((p) => ({ id: p.id, keyword: p.keyword, name: p.name, type: p.type })),
  };
}

/** `/Root/Sub/Name/` from folder names in the view. */
export function folderPath(ctx: RenderCtx, folder: FolderObj): string {
  return `/${folderChain(ctx.state, folder, ctx.view)
    .map((f) => f.name)
    .join('/')}/`;
}

/** Joins path parts with single slashes: a leading one, no trailing one, empty segments dropped. */
function joinPath(...parts: string[]): string {
  // One pass over the characters: split/filter/join cost a third of rendering a large page.
  let out = '';
  let slash = true;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const c = part[i]!;
      if (c === '/') slash = true;
      else {
        if (slash) out += '/';
        out += c;
        slash = false;
      }
    }
    slash = true;
  }
  return out === '' ? '/' : out;
}

function hasSubfolders(ctx: RenderCtx, folder: FolderObj): boolean {
  for (const set of ctx.state.children.get(folder.channelSetId)?.folder ?? []) {
    const sub = resolveInView(ctx.state, set, ctx.view);
    if (sub && !sub.deleted) return true;
  }
  return false;
}

/** Options of folderRecord. */
export interface FolderRenderOptions {
  tags?: boolean;
  construct?: boolean;
  privileges?: boolean;
  privilegeMap?: boolean;
}

/** The Folder record (contract 2.3). Root folders are type node/channel and have no motherId. */
export function folderRecord(ctx: RenderCtx, f: FolderObj, options: FolderRenderOptions = {}): FolderRecord {
  const { state, view } = ctx;
  const plan = planted.render(ctx.faults).folder;
  const o = plan.options(options);
  const chain = folderChain(state, f, view);
  const mother = chain.length > 1 ? chain[chain.length - 2] : undefined;
  const master = masterVariant(state, f.channelSetId) ?? f;
  // Built member by member, as pageRecord is.
  const record = addChannelFields(ctx, f, itemRecord(ctx, f) as FolderRecord);
  if (mother) record.motherId = plan.mother(mother, chain).id;
  record.publishDir = f.publishDir;
  record.description = f.description;
  record.nodeId = view.nodeId;
  if (o.tags) record.tags = tagMap(state, f.tags ?? [], o.construct);
  record.hasSubfolders = hasSubfolders(ctx, f);
  const granted = (p: string) => !f.withheld?.includes(p);
  if (o.privileges) {
    record.privileges = FOLDER_PRIVILEGES.filter(granted);
    record.privilegeBits = FOLDER_PRIVILEGES.map((p) => (granted(p) ? '1' : '0')).join('');
  }
  if (o.privilegeMap)
    record.privilegeMap = { privileges: Object.fromEntries(FOLDER_PRIVILEGES.map((p) => [p, granted(p)])), languages: [] };
  record.path = `/${chain.map((c) => c.name).join('/')}/`;
  record.masterId = master.id;
  record.channelsetId = f.channelSetId;
  record.channelId = state.nodes.get(f.nodeId)?.masterId === undefined ? 0 : f.nodeId;
  record.isMaster = f.masterId === undefined;
  record.breadcrumbs = chain.map((c) => ({ id: c.id, globalId: c.globalId, name: c.name }));
  if (f.nameI18n) record.nameI18n = f.nameI18n;
  if (f.descriptionI18n) record.descriptionI18n = f.descriptionI18n;
  if (f.publishDirI18n) record.publishDirI18n = f.publishDirI18n;
  return plan.record(record, o);
}

/** Options of fileRecord. */
export interface FileRenderOptions {
  folder?: boolean;
  tags?: boolean;
}

/** The File record (contract 2.4): typeId 10008 (images 10011), text = name, leaf, cls, iconCls. */
export function fileRecord(ctx: RenderCtx, f: FileObj, o: FileRenderOptions = {}): FileRecord {
  const { state, view } = ctx;
  const { folder, path } = parentInfo(ctx, f);
  const node = state.nodes.get(view.nodeId)!;
  const publishPath = joinPath(node.binaryPublishDir, folder?.publishDir ?? '/', f.name);
  const image = f.kind === 'image';
  // Members are assigned one by one, not spread: spreading optional parts made this the cost of a large page (issue 15).
  const r = itemRecord(ctx, f) as FileRecord;
  addChannelFields(ctx, f, r);
  r.typeId = image ? 10011 : 10008;
  if (folder) {
    r.folderName = folder.name;
    r.folderId = folder.id;
    r.path = path!;
  }
  r.channelId = state.nodes.get(f.nodeId)?.masterId === undefined ? 0 : f.nodeId;
  r.text = f.name;
  r.cls = 'file';
  r.iconCls = image ? 'gtx_image' : 'gtx_file';
  r.fileType = f.fileType;
  r.description = f.description;
  r.leaf = true;
  r.fileSize = f.data?.length ?? 0;
  if (o.tags) r.tags = tagMap(state, f.tags ?? []);
  r.url = `/rest/file/content/load/${f.id}`;
  if (f.online) r.liveUrl = `${node.https ? 'https' : 'http'}://${node.host}${publishPath}`;
  r.publishPath = publishPath;
  r.forceOnline = f.forceOnline;
  r.online = f.online;
  r.broken = f.data === null;
  if (o.folder && folder) r.folder = folderRecord(ctx, folder);
  if (f.niceUrl) r.niceUrl = f.niceUrl;
  if (f.alternateUrls) r.alternateUrls = planted.render(ctx.faults).file.alternateUrls(sortedUrls(f.alternateUrls), f.alternateUrls);
  return r;
}

/** Kept listing records of a store, by kind, view and options, then by object id, for one store version. */
const keptRecords = new WeakMap<State, { version: number; count: number; groups: Map<string, Map<number, object>> }>();

/** At most this many records are kept, each with its text, to bound the memory they hold; beyond it they start afresh. */
const MAX_KEPT_RECORDS = 20_000;

/**
 * A listing record kept, frozen and with its JSON text (server/json.ts keepJson), until the store
 * changes, so that listing a folder again renders and serialises none of its records twice. `group`
 * names everything the record depends on besides the store and the object: the kind, view and
 * options, the same for a whole page, so a record is found by its id (a string key per record, built
 * and hashed for each of a page's 100 records, was a large part of the handler's time).
 */
function keptRecord<T extends object>(ctx: RenderCtx, group: string, id: number, render: () => T): T {
  let kept = keptRecords.get(ctx.state);
  if (!kept || kept.version !== ctx.state.version)
    keptRecords.set(ctx.state, (kept = { version: ctx.state.version, count: 0, groups: new Map() }));
  let records = kept.groups.get(group);
  if (!records) kept.groups.set(group, (records = new Map()));
  let record = records.get(id) as T | undefined;
  if (!record) {
    if (kept.count >= MAX_KEPT_RECORDS) {
      kept.groups.clear();
      kept.groups.set(group, (records = new Map()));
      kept.count = 0;
    }
    records.set(id, (record = keepJson(render())));
    kept.count++;
  }
  return record;
}

/**
 * fileRecord for the file listings, kept (keptRecord) so that paging a folder again renders none of its
 * records twice. Only on a clean server: switched-on faults and variations reshape records after rendering.
 */
export function keptFileRecord(ctx: RenderCtx, f: FileObj, o: FileRenderOptions = {}): FileRecord {
  if (ctx.faults.size > 0 || o.tags) return fileRecord(ctx, f, o);
  return keptRecord(ctx, `file|${ctx.view.nodeId}|${o.folder ? 1 : 0}`, f.id, () => fileRecord(ctx, f, o));
}

/** An image record of the syncable-objects response: the file fields with the pixel size. */
export function imageRecord(ctx: RenderCtx, f: FileObj): FileRecord {
  return { ...fileRecord(ctx, f), sizeX: f.sizeX ?? 0, sizeY: f.sizeY ?? 0 };
}

function sortedUrls(urls: readonly string[]): string[] {
  return [...urls].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Options of templateRecord: the folder the template is listed for (its folderId and path). */
export interface TemplateRenderOptions {
  folder?: FolderObj;
}

/** The template tags of a template (contract 2.7: each with the booleans mandatory and editableInPage). */
function templateTagMap(ctx: RenderCtx, t: TemplateObj): Record<string, TemplateTag> {
  return planted.render(ctx.faults).template.templateTags(tagMap(ctx.state, t.templateTags) as Record<string, TemplateTag>);
}

/** The Template record (contract 2.7). */
export function templateRecord(ctx: RenderCtx, t: TemplateObj, o: TemplateRenderOptions = {}): TemplateRecord {
  const { state, view } = ctx;
  const folder = o.folder ?? parentInView(state, t, view);
  const master = masterVariant(state, t.channelSetId) ?? t;
  const ml = state.markupLanguages.get(t.markupLanguageId);
  return {
    id: t.id,
    globalId: t.globalId,
    name: t.name,
    description: t.description,
    ...(folder ? { folderId: folder.id, path: folderPath(ctx, folder) } : {}),
    source: t.source,
    creator: userRecord(state, t.creatorId),
    editor: userRecord(state, t.editorId),
    cdate: t.cdate,
    edate: t.edate,
    locked: t.locked,
    inherited: t.nodeId !== view.nodeId,
    master: t.masterId === undefined,
    inheritedFrom: state.nodes.get(t.nodeId)?.name,
    masterNode: state.nodes.get(master.nodeId)?.name,
    masterId: master.id,
    channelSetId: t.channelSetId,
    channelId: state.nodes.get(t.nodeId)?.masterId === undefined ? 0 : t.nodeId,
    ...(ml
      ? {
          markupLanguage: {
            id: ml.id,
            name: ml.name,
            extension: ml.extension,
            contentType: ml.contentType,
            ...(ml.feature ? { feature: ml.feature } : {}),
            excludeFromPublishing: ml.excludeFromPublishing ?? false,
          },
        }
      : {}),
    templateTags: templateTagMap(ctx, t),
    objectTags: tagMap(state, t.tags ?? []),
  };
}

/** Options of pageRecord: the add-ons of getPages (FLD-09). */
export interface PageRenderOptions {
  contentTags?: boolean;
  objectTags?: boolean;
  folder?: boolean;
  template?: boolean;
  languageVariants?: boolean;
  translationStatus?: boolean;
  workflow?: boolean;
  /** Rendering a variant inside another page record: no nested variants. */
  nested?: boolean;
}

function versions(state: State, p: PageObj, plan: planted.PagePlan): { current: PageVersion; published?: PageVersion } {
  const first: PageVersion = { number: '1.0', timestamp: p.cdate, editor: userRecord(state, p.creatorId) };
  const edited = plan.edited(p.modified || p.edate > p.cdate);
  const current: PageVersion = edited
    ? { number: '1.1', timestamp: Math.max(p.edate, p.cdate + 1), editor: userRecord(state, p.editorId) }
    : first;
  const published = p.pdate > 0 ? (p.modified ? first : current) : undefined;
  return { current, ...(published ? { published } : {}) };
}

/** The pages of one folder in the view, not deleted, by id: grouped by content (page variants) and by content set (language variants). */
interface PageGroups {
  byContent: Map<number, PageObj[]>;
  byContentSet: Map<number, PageObj[]>;
}

/** Per render context: parent folder set -> its PageGroups. */
const pageGroupMemos: Memos<PageGroups> = new WeakMap();

/**
 * The PageGroups of a page's folder, read once per folder and request (perRequest), as parentInfo is:
 * each page of a listing looked through its whole folder for its variants, so a folder of n pages took
 * n² resolutions.
 */
function pageGroups(ctx: RenderCtx, parentSet: number): PageGroups {
  return perRequest(pageGroupMemos, ctx, parentSet, () => {
    const groups: PageGroups = { byContent: new Map(), byContentSet: new Map() };
    const add = (map: Map<number, PageObj[]>, key: number, o: PageObj) => {
      const list = map.get(key);
      if (list) list.push(o);
      else map.set(key, [o]);
    };
    const pages: PageObj[] = [];
    for (const set of ctx.state.children.get(parentSet)?.page ?? []) {
      const o = resolveInView(ctx.state, set, ctx.view) as PageObj | undefined;
      if (o && !o.deleted) pages.push(o);
    }
    for (const o of pages.sort((a, b) => a.id - b.id)) {
      add(groups.byContent, o.contentId, o);
      if (o.contentSetId !== undefined) add(groups.byContentSet, o.contentSetId, o);
    }
    return groups;
  });
}

/** Pages of the same folder in the view that share the content (page variants) or the content set (language variants), by id. */
function siblings(ctx: RenderCtx, p: PageObj, by: 'content' | 'contentSet'): PageObj[] {
  const groups = pageGroups(ctx, p.parentSet);
  const group =
    by === 'content'
      ? groups.byContent.get(p.contentId)
      : p.contentSetId === undefined
        ? undefined
        : groups.byContentSet.get(p.contentSetId);
  return (group ?? []).filter((o) => o !== p);
}

/** The TranslationStatus of a page that is a translation of another; undefined otherwise. */
function translationStatus(ctx: RenderCtx, p: PageObj): TranslationStatus | undefined {
  if (!p.translation) return undefined;
  const found = lookup(ctx.state, p.translation.masterPageId);
  const master = found ? ((resolveInView(ctx.state, found.channelSetId, ctx.view, true) ?? found) as PageObj) : undefined;
  if (!master) return undefined;
  const latest = versions(ctx.state, master, planted.render(ctx.faults).page).current;
  return {
    pageId: master.id,
    name: master.name,
    versionTimestamp: p.translation.inSync ? master.edate : master.cdate,
    ...(master.language ? { language: master.language } : {}),
    inSync: p.translation.inSync,
    version: p.translation.inSync ? (latest.number ?? '1.0') : '1.0',
    latestVersion: { number: latest.number, timestamp: latest.timestamp },
  };
}

/** Whether a page is queued (a publish or take-offline request awaits) and planned (time management set). */
export function pageFlags(p: PageObj, faults: FaultSet): { queued: boolean; planned: boolean; locked: boolean } {
  const tm = p.timeManagement;
  const queued = tm?.queuedPublish !== undefined || tm?.queuedOffline !== undefined;
  const planned = (tm?.at ?? 0) > 0 || (tm?.offlineAt ?? 0) > 0;
  const plan = planted.render(faults).page;
  return {
    queued: plan.queued(queued),
    planned: plan.planned(planned),
    locked: p.lockedBy !== undefined,
  };
}

/** The Page record (contract 2.6) with the requested add-ons. */
export function pageRecord(ctx: RenderCtx, p: PageObj, o: PageRenderOptions = {}): PageRecord {
  const { state, view, faults } = ctx;
  const plan = planted.render(faults).page;
  const folder = parentInView(state, p, view);
  const node = state.nodes.get(view.nodeId)!;
  const template = (resolveInView(state, p.templateSet, view, true) ?? masterVariant(state, p.templateSet)) as TemplateObj | undefined;
  const lang = plan.language(p.language ? state.languages.find((l) => l.code === p.language) : undefined);
  const publishPath = joinPath(node.publishDir, folder?.publishDir ?? '/', p.fileName);
  const { queued, planned, locked } = pageFlags(p, faults);
  const tm = plan.timeManagement(p.timeManagement);
  const v = versions(state, p, plan);
  const tags = (p.tags ?? []).filter((t) => (t.type === 'CONTENTTAG' && o.contentTags) || (t.type === 'OBJECTTAG' && o.objectTags));
  const variants = o.nested ? [] : siblings(ctx, p, 'content');
  const langVariants =
    o.languageVariants && !o.nested && p.contentSetId !== undefined ? [p, ...siblings(ctx, p, 'contentSet')].filter((s) => s.language) : [];
  const ts = o.translationStatus ? translationStatus(ctx, p) : undefined;
  const wf = o.workflow ? p.workflow : undefined;
  const variant = plan.variant((s: PageObj): PageRecord => pageRecord(ctx, s, { nested: true }));
  // Built member by member, in the order the members always had, not as one literal of conditional
  // spreads: V8 made a fresh hidden class for every such record, which made it an order of magnitude
  // slower to build.
  const record = itemRecord(ctx, p) as PageRecord;
  if (p.niceUrl) record.niceUrl = p.niceUrl;
  if (p.alternateUrls) record.alternateUrls = plan.alternateUrls(sortedUrls(p.alternateUrls), p.alternateUrls);
  record.fileName = p.fileName;
  record.description = p.description;
  if (template) record.templateId = template.id;
  if (folder) {
    record.folderId = folder.id;
    record.path = plan.path(folderPath(ctx, folder));
  }
  record.priority = p.priority;
  if (p.publisherId !== undefined) record.publisher = userRecord(state, p.publisherId);
  record.pdate = p.pdate;
  if (lang) {
    record.language = lang.code;
    record.languageName = lang.name;
    record.contentGroupId = lang.id;
  }
  if (tags.length > 0 || o.contentTags || o.objectTags) record.tags = tagMap(state, tags);
  addChannelFields(ctx, p, record);
  if (variants.length > 0) record.pageVariants = variants.map(variant);
  record.readOnly = plan.readOnly(true);
  record.timeManagement = {
    at: tm?.at ?? 0,
    offlineAt: tm?.offlineAt ?? 0,
    ...(tm?.queuedPublish
      ? { queuedPublish: { at: tm.queuedPublish.at, user: userRecord(state, tm.queuedPublish.userId), version: v.current } }
      : {}),
    ...(tm?.queuedOffline ? { queuedOffline: { at: tm.queuedOffline.at, user: userRecord(state, tm.queuedOffline.userId) } } : {}),
  };
  record.url = `/rest/page/render/${p.id}`;
  if (p.online) record.liveUrl = `${node.https ? 'https' : 'http'}://${node.host}${publishPath}`;
  record.publishPath = publishPath;
  record.online = p.online;
  record.modified = p.modified;
  record.queued = queued;
  record.planned = planned;
  if (o.template && template) record.template = templateRecord(ctx, template);
  if (o.folder && folder) record.folder = folderRecord(ctx, folder);
  if (p.contentSetId !== undefined) record.contentSetId = p.contentSetId;
  if (langVariants.length > 0)
    record.languageVariants = Object.fromEntries(langVariants.map((s) => [plan.languageVariantKey(s.language!, state), variant(s)]));
  record.locked = locked;
  record.lockedSince = plan.lockedSince(locked ? (p.lockedSince ?? p.edate) : -1, locked);
  if (locked) record.lockedBy = userRecord(state, p.lockedBy);
  if (wf)
    record.workflow = {
      groups: wf.groupIds.map((id) => ({ id, name: state.groups.get(id)?.name ?? '' })),
      message: wf.message,
      user: userRecord(state, wf.userId),
      modified: wf.modified,
      timestamp: wf.timestamp,
    };
  if (ts) record.translationStatus = ts;
  record.currentVersion = v.current;
  if (v.published) record.publishedVersion = v.published;
  record.contentId = p.contentId;
  record.channelSetId = p.channelSetId;
  record.channelId = state.nodes.get(p.nodeId)?.masterId === undefined ? 0 : p.nodeId;
  record.master = plan.master(p.masterId === undefined);
  if (p.customCdate) record.customCdate = p.customCdate;
  if (p.customEdate) record.customEdate = p.customEdate;
  return plan.record(record);
}

/** Every option of a page record (a Record, so that a new option cannot be left out of the kept record's key). */
const PAGE_OPTIONS = Object.keys({
  contentTags: true,
  objectTags: true,
  folder: true,
  template: true,
  languageVariants: true,
  translationStatus: true,
  workflow: true,
  nested: true,
} satisfies Record<keyof PageRenderOptions, true>) as (keyof PageRenderOptions)[];

/** pageRecord for getPages, kept as keptFileRecord keeps file records (only on a clean server, for the same reason). */
export function keptPageRecord(ctx: RenderCtx, p: PageObj, o: PageRenderOptions = {}): PageRecord {
  if (ctx.faults.size > 0) return pageRecord(ctx, p, o);
  const flags = PAGE_OPTIONS.map((name) => (o[name] ? 1 : 0)).join('');
  return keptRecord(ctx, `page|${ctx.view.nodeId}|${flags}`, p.id, () => pageRecord(ctx, p, o));
}

/**
 * The record's `url` as find operations give it: `links=backend` keeps the backend URL, `links=frontend`
 * gives the published URL in the object's node.
 */
export function withLinks<T extends { url?: string; publishPath?: string }>(
  state: State,
  record: T,
  nodeId: number,
  links: string | undefined,
): T {
  if (links !== 'frontend' || record.publishPath === undefined) return record;
  const node = state.nodes.get(nodeId)!;
  return { ...record, url: `${node.https ? 'https' : 'http'}://${node.host}${record.publishPath}` };
}
