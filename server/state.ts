/**
 * The reference server's in-memory store: objects built from a Dataset, indexed by id, global id,
 * channel set, parent folder and (per folder) lower-cased name, and the channel view logic (which
 * variant of an object a node sees). Listing, rendering and the operations themselves live in
 * server/handlers/.
 */
import {
  makeGlobalId,
  type Dataset,
  type DatasetConstruct,
  type DatasetFile,
  type DatasetFolder,
  type DatasetGroup,
  type DatasetObject,
  type DatasetPage,
  type DatasetImage,
  type DatasetLanguage,
  type DatasetMarkupLanguage,
  type DatasetNode,
  type DatasetTag,
  type DatasetTemplate,
  type DatasetUser,
} from './dataset-format.ts';
import { validateDataset } from './dataset-load.ts';
import type { StagingPackage, UsedFileUsers } from '../schemas/target.ts';

/** The kinds of stored objects. Ids are unique across all kinds. */
export type Kind = 'folder' | 'file' | 'image' | 'page' | 'template';

/** The kinds that live in a folder (templates are linked into folders instead). */
export type ChildKind = 'folder' | 'file' | 'image' | 'page';

/** Deletion information: `at` seconds, `by` user id; `live` when deleted through the API, not by the fixture. */
export interface DeleteMark {
  at: number;
  by: number;
  live?: boolean;
}

/**
 * What every object has. `nodeId` is the node it lives in; variants of one object share
 * `channelSetId`; `parentSet` is the channel set of the containing folder (0 for root folders).
 * Exclusion and disinheritance are read from the set's master variant.
 */
interface StoredBase {
  id: number;
  globalId: string;
  nodeId: number;
  channelSetId: number;
  /** Localized copies name their master variant. */
  masterId?: number;
  parentSet: number;
  name: string;
  description: string;
  cdate: number;
  edate: number;
  creatorId: number;
  editorId: number;
  deleted?: DeleteMark;
  excluded?: boolean;
  disinheritDefault?: boolean;
  disinherit?: number[];
  /** Content and object tags (templates: object tags). */
  tags?: DatasetTag[];
}

/** A stored folder. */
export interface FolderObj extends StoredBase {
  kind: 'folder';
  publishDir: string;
  nameI18n?: Record<string, string>;
  descriptionI18n?: Record<string, string>;
  publishDirI18n?: Record<string, string>;
  /** Privileges the requesting user lacks on the folder (dataset `withheldPrivileges`). */
  withheld?: readonly string[];
}

/** A stored file or image; `data` null means the binary is missing (broken). */
export interface FileObj extends StoredBase {
  kind: 'file' | 'image';
  data: Buffer | null;
  fileType: string;
  niceUrl?: string;
  alternateUrls?: string[];
  online: boolean;
  forceOnline: boolean;
  sizeX?: number;
  sizeY?: number;
}

/** A stored page; `templateSet` is the channel set of its template. */
export interface PageObj extends StoredBase, Omit<DatasetPage, keyof DatasetObject | 'folderId' | 'templateId'> {
  kind: 'page';
  /** The template's channel set (the dataset names the template by id). */
  templateSet: number;
}

/** A stored template; `parentSet` is its home folder. */
export interface TemplateObj extends StoredBase {
  kind: 'template';
  markupLanguageId: number;
  source: string;
  locked: boolean;
  templateTags: DatasetTag[];
}

/** Any stored object. */
export type Obj = FolderObj | FileObj | PageObj | TemplateObj;

/** A node with its master chain (itself first, the top master last) and its direct channels. */
export interface NodeRec extends DatasetNode {
  chain: number[];
  channels: number[];
}

/** Which node's view a request sees: the node and its master chain. */
export interface View {
  nodeId: number;
  chain: readonly number[];
}

/**
 * Lower-cased names of a folder's children -> the channel sets with a variant of that name. Mostly one
 * set per name, kept as a bare number (a 100,000-file folder would otherwise hold 100,000 small Sets).
 * Entries may be stale (a set renamed away or no longer listed): readers check them; none is missing.
 */
type NameIndex = Map<string, number | number[]>;

/** Child channel sets of one folder channel set, per kind, and the name index of the folder. */
type ChildIndex = Record<ChildKind, Set<number>> & { names: NameIndex };

/** Options of createState. */
export interface StateOptions {
  /** Clock in milliseconds (default Date.now); timestamps are its seconds. */
  now?: () => number;
  /** Upper bound for downloads of `POST /file/create` (JSON form), bytes; default 20 MB. */
  sourceUrlMaxBytes?: number;
  /** Timeout for those downloads; default 5 s. */
  sourceUrlTimeoutMs?: number;
  /** The data set was checked by validateDataset and cannot have changed since (frozen): not checked again. */
  datasetChecked?: boolean;
}

/** The whole in-memory store. */
export interface State {
  readonly now: () => number;
  readonly sourceUrlMaxBytes: number;
  readonly sourceUrlTimeoutMs: number;
  /** Every request is made by this user (the fixture's admin). */
  readonly requesterId: number;
  readonly users: Map<number, DatasetUser>;
  readonly groups: Map<number, DatasetGroup>;
  /** All languages; a node's priority order is its `languageIds`. */
  readonly languages: DatasetLanguage[];
  readonly markupLanguages: Map<number, DatasetMarkupLanguage>;
  readonly constructs: Map<number, DatasetConstruct>;
  readonly nodes: Map<number, NodeRec>;
  readonly objects: Map<number, Obj>;
  readonly byGlobalId: Map<string, number>;
  /** Channel set id -> its variants. */
  readonly sets: Map<number, Obj[]>;
  /** Folder channel set id -> child channel sets per kind; listings cost the folder's size, not the store's. */
  readonly children: Map<number, ChildIndex>;
  /** Folder channel set id -> channel sets of the templates linked into it. */
  readonly templateLinks: Map<number, Set<number>>;
  /** Channel set of a referenced object -> ids of the objects whose object tags reference it. */
  readonly referrers: Map<number, Set<number>>;
  readonly roles: NonNullable<Dataset['roles']>;
  /** Staging package name -> ids of the objects it includes. */
  readonly packages: Map<string, Set<number>>;
  nextId: number;
  nextTagId: number;
  /**
   * Counts changes of the store; what is derived from the store and kept (sorted listings) is valid
   * for one version. The primitives below bump it, and so does every operation that is not a GET
   * (handlers/index.ts), since handlers change objects' members in place; code that changes the
   * store any other way calls touch().
   */
  version: number;
  /**
   * Counts the changes that may free a name (rename, move, removal, deletion, anything but adding):
   * what is known to be taken stays taken while it is unchanged (the suffix hints of uniqueFileName).
   */
  namesEpoch: number;
}

/** The current time in seconds. */
export function nowSeconds(state: State): number {
  return Math.floor(state.now() / 1000);
}

/** Node records with their master chains and channels; throws on a cyclic master chain. */
function linkNodes(datasetNodes: DatasetNode[]): Map<number, NodeRec> {
  const nodes = new Map<number, NodeRec>();
  for (const n of datasetNodes) nodes.set(n.id, { ...n, chain: [], channels: [] });
  for (const n of nodes.values()) {
    const seen = new Set<number>();
    for (let cur: NodeRec | undefined = n; cur; cur = cur.masterId === undefined ? undefined : nodes.get(cur.masterId)) {
      if (seen.has(cur.id)) throw new Error(`dataset: node ${n.id} has a cyclic master chain`);
      seen.add(cur.id);
      n.chain.push(cur.id);
    }
    if (n.masterId !== undefined) nodes.get(n.masterId)!.channels.push(n.id);
  }
  return nodes;
}

/** A store holding the dataset's users, languages, constructs and nodes, and no objects yet. */
function emptyState(ds: Dataset, nodes: Map<number, NodeRec>, options: StateOptions): State {
  return {
    now: options.now ?? Date.now,
    sourceUrlMaxBytes: options.sourceUrlMaxBytes ?? 20 * 1024 * 1024,
    sourceUrlTimeoutMs: options.sourceUrlTimeoutMs ?? 5000,
    requesterId: ds.requesterId,
    users: new Map(ds.users.map((u) => [u.id, u])),
    groups: new Map(ds.groups.map((g) => [g.id, g])),
    languages: ds.languages,
    markupLanguages: new Map(ds.markupLanguages.map((m) => [m.id, m])),
    constructs: new Map(ds.constructs.map((c) => [c.id, c])),
    nodes,
    objects: new Map(),
    byGlobalId: new Map(),
    sets: new Map(),
    children: new Map(),
    templateLinks: new Map(),
    referrers: new Map(),
    roles: ds.roles ?? {},
    packages: new Map((ds.stagingPackages ?? []).map((p) => [p.name, new Set(p.objectIds)])),
    nextId: 1,
    nextTagId: 1,
    version: 0,
    namesEpoch: 0,
  };
}

/**
 * The dataset names folders and templates by object id, the store by channel set: this maps one to the
 * other, and `parentSet` gives the channel set of a containing folder (0 for none).
 */
interface SetLookup {
  setOfId: Map<number, number>;
  parentSet: (folderId: number | null) => number;
}

/** Indexes the channel set of every dataset object, of any kind. */
function setLookup(ds: Dataset): SetLookup {
  const setOfId = new Map<number, number>();
  for (const list of [ds.folders, ds.files, ds.images, ds.pages, ds.templates]) for (const o of list) setOfId.set(o.id, o.channelSetId);
  const parentSet = (folderId: number | null) => (folderId === null ? 0 : setOfId.get(folderId)!);
  return { setOfId, parentSet };
}

/** The members every kind of stored object takes from its dataset object alike. */
function storedBase(o: DatasetFolder | DatasetFile | DatasetPage | DatasetTemplate) {
  return {
    id: o.id,
    globalId: o.globalId,
    nodeId: o.nodeId,
    channelSetId: o.channelSetId,
    ...(o.masterId === undefined ? {} : { masterId: o.masterId }),
    name: o.name,
    description: o.description ?? '',
    cdate: o.cdate,
    edate: o.edate,
    creatorId: o.creatorId,
    editorId: o.editorId,
    ...(o.deleted ? { deleted: { ...o.deleted } } : {}),
    ...(o.excluded ? { excluded: true } : {}),
    ...(o.disinheritDefault ? { disinheritDefault: true } : {}),
    ...(o.disinherit?.length ? { disinherit: [...o.disinherit] } : {}),
    ...(o.tags?.length ? { tags: o.tags } : {}),
  };
}

/** Folders with their template links; a link names the template's set, known before templates are in. */
function insertFolders(state: State, ds: Dataset, { setOfId, parentSet }: SetLookup): void {
  for (const f of ds.folders) {
    insertObject(
      state,
      {
        ...storedBase(f),
        kind: 'folder',
        parentSet: parentSet(f.motherId),
        publishDir: f.publishDir,
        ...(f.nameI18n ? { nameI18n: f.nameI18n } : {}),
        ...(f.descriptionI18n ? { descriptionI18n: f.descriptionI18n } : {}),
        ...(f.publishDirI18n ? { publishDirI18n: f.publishDirI18n } : {}),
        ...(f.withheldPrivileges?.length ? { withheld: [...f.withheldPrivileges] } : {}),
      },
      false,
    );
    for (const t of f.templateIds ?? []) linkTemplate(state, f.channelSetId, setOfId.get(t)!);
  }
}

/** Files and images share one shape; an image is told apart by its size. */
function insertFilesAndImages(state: State, ds: Dataset, { parentSet }: SetLookup): void {
  for (const f of [...ds.files, ...ds.images] as DatasetImage[]) {
    const image = f.sizeX !== undefined;
    insertObject(
      state,
      {
        ...storedBase(f),
        kind: image ? 'image' : 'file',
        parentSet: parentSet(f.folderId),
        data: f.data === null ? null : Buffer.from(f.data, 'base64'),
        fileType: f.fileType,
        ...(f.niceUrl ? { niceUrl: f.niceUrl } : {}),
        ...(f.alternateUrls ? { alternateUrls: [...f.alternateUrls] } : {}),
        online: f.online ?? true,
        forceOnline: f.forceOnline ?? false,
        ...(image ? { sizeX: f.sizeX, sizeY: f.sizeY } : {}),
      },
      false,
    );
  }
}

/** Pages keep every member of the dataset's page but the ids of their folder and template, which become sets. */
function insertPages(state: State, ds: Dataset, { setOfId, parentSet }: SetLookup): void {
  for (const p of ds.pages) {
    const { folderId, templateId, tags: _tags, ...rest } = p;
    insertObject(
      state,
      { ...rest, ...storedBase(p), kind: 'page', parentSet: parentSet(folderId), templateSet: setOfId.get(templateId)! },
      false,
    );
  }
}

/** Templates; their `parentSet` is the home folder's set. */
function insertTemplates(state: State, ds: Dataset, { parentSet }: SetLookup): void {
  for (const t of ds.templates) {
    insertObject(
      state,
      {
        ...storedBase(t),
        kind: 'template',
        parentSet: parentSet(t.folderId),
        markupLanguageId: t.markupLanguageId,
        source: t.source,
        locked: t.locked ?? false,
        templateTags: t.templateTags ?? [],
      },
      false,
    );
  }
}

/** Builds the store from a dataset (validated first); the dataset is not modified. */
export function createState(dataset: Dataset, options: StateOptions = {}): State {
  if (!options.datasetChecked) validateDataset(dataset);
  const ds = structuredClone(dataset);
  const state = emptyState(ds, linkNodes(ds.nodes), options);
  const lookup = setLookup(ds);
  insertFolders(state, ds, lookup);
  insertFilesAndImages(state, ds, lookup);
  insertPages(state, ds, lookup);
  insertTemplates(state, ds, lookup);
  // References may name objects listed later: index them once everything is in.
  for (const obj of state.objects.values()) indexReferences(state, obj, true);
  const allTags = [...state.objects.values()].flatMap((o) => [...(o.tags ?? []), ...(o.kind === 'template' ? o.templateTags : [])]);
  // A new object's id is its channel set's too (allocateId): above every set a data set names, so that none is joined by accident.
  state.nextId = Math.max(0, ...state.objects.keys(), ...state.sets.keys()) + 1;
  state.nextTagId = Math.max(0, ...allTags.map((t) => t.id)) + 1;
  return state;
}

// ---------------------------------------------------------------------------------------------
// Indexes and mutation primitives: every change of the store goes through these.

/**
 * Marks the store changed: derived data kept for the previous version is stale. `onlyAdds` says the
 * change only added objects or changed what no name depends on, so that every taken name stays taken.
 */
export function touch(state: State, onlyAdds = false): void {
  state.version++;
  if (!onlyAdds) state.namesEpoch++;
}

/** The name an object is unique by among its siblings, lower-cased: a page's file name, else its name. */
export function nameKey(obj: Obj): string {
  return (obj.kind === 'page' ? obj.fileName : obj.name).toLowerCase();
}

/** Notes that a channel set has a variant named `key`. */
function addName(names: NameIndex, key: string, set: number): void {
  const entry = names.get(key);
  if (entry === undefined) names.set(key, set);
  else if (typeof entry === 'number') {
    if (entry !== set) names.set(key, [entry, set]);
  } else if (!entry.includes(set)) entry.push(set);
}

/** Forgets that a channel set has a variant named `key`. */
function removeName(names: NameIndex, key: string, set: number): void {
  const entry = names.get(key);
  if (entry === set) names.delete(key);
  else if (Array.isArray(entry)) {
    const rest = entry.filter((s) => s !== set);
    if (rest.length === 0) names.delete(key);
    else names.set(key, rest.length === 1 ? rest[0]! : rest);
  }
}

/**
 * A kind's child sets of one folder that keep the folder's name index: whoever lists a set (including
 * code that adds to `state.children` directly) indexes the names of its variants.
 */
class ChildSet extends Set<number> {
  constructor(
    private readonly state: State,
    private readonly names: NameIndex,
  ) {
    super();
  }

  override add(set: number): this {
    if (this.has(set)) return this;
    super.add(set);
    for (const v of this.state.sets.get(set) ?? []) addName(this.names, nameKey(v), set);
    return this;
  }

  override delete(set: number): boolean {
    if (!super.delete(set)) return false;
    for (const v of this.state.sets.get(set) ?? []) removeName(this.names, nameKey(v), set);
    return true;
  }
}

function childIndex(state: State, parentSet: number): ChildIndex {
  let idx = state.children.get(parentSet);
  if (!idx) {
    const names: NameIndex = new Map();
    const set = () => new ChildSet(state, names);
    state.children.set(parentSet, (idx = { folder: set(), file: set(), image: set(), page: set(), names }));
  }
  return idx;
}

/** Ids of the objects a tag list references (file, image, page, folder properties). */
export function referencedIds(tags: readonly DatasetTag[] | undefined): number[] {
  const ids: number[] = [];
  for (const tag of tags ?? []) {
    for (const p of Object.values(tag.properties)) {
      for (const id of [p.fileId, p.imageId, p.pageId, p.folderId]) if (id !== undefined) ids.push(id);
    }
  }
  return ids;
}

/** Object tags of an object (the usage definition: "an object tag of another object refers to it"). */
export function objectTags(obj: Obj): DatasetTag[] {
  return (obj.tags ?? []).filter((t) => t.type === 'OBJECTTAG');
}

function indexReferences(state: State, obj: Obj, add: boolean): void {
  for (const id of referencedIds(objectTags(obj))) {
    const set = state.objects.get(id)?.channelSetId ?? id;
    let refs = state.referrers.get(set);
    if (add) {
      if (!refs) state.referrers.set(set, (refs = new Set()));
      refs.add(obj.id);
    } else refs?.delete(obj.id);
  }
}

/** Allocates a fresh object id (unique across kinds). */
export function allocateId(state: State): number {
  return state.nextId++;
}

/** Allocates a fresh tag id. */
export function allocateTagId(state: State): number {
  return state.nextTagId++;
}

/** A fresh global id for an object id. */
export function globalIdFor(id: number): string {
  return makeGlobalId(`object:${id}`);
}

/** Adds an object to every index; `indexRefs` false defers the usage index (createState indexes once all objects exist). */
export function insertObject(state: State, obj: Obj, indexRefs = true): void {
  touch(state, true);
  state.objects.set(obj.id, obj);
  state.byGlobalId.set(obj.globalId, obj.id);
  const variants = state.sets.get(obj.channelSetId);
  if (variants) variants.push(obj);
  else state.sets.set(obj.channelSetId, [obj]);
  if (obj.kind !== 'template') {
    const idx = childIndex(state, obj.parentSet);
    // A new variant of a listed set (a localized copy) is not a new member: its name is indexed here.
    if (idx[obj.kind].has(obj.channelSetId)) addName(idx.names, nameKey(obj), obj.channelSetId);
    else idx[obj.kind].add(obj.channelSetId);
  }
  if (indexRefs) indexReferences(state, obj, true);
}

/** Removes one variant (unlocalize); the channel set stays listed while other variants remain. */
export function removeObject(state: State, obj: Obj): void {
  touch(state);
  indexReferences(state, obj, false);
  state.objects.delete(obj.id);
  state.byGlobalId.delete(obj.globalId);
  const variants = (state.sets.get(obj.channelSetId) ?? []).filter((v) => v !== obj);
  const idx = obj.kind === 'template' ? undefined : state.children.get(obj.parentSet);
  const key = nameKey(obj);
  if (idx && !variants.some((v) => nameKey(v) === key)) removeName(idx.names, key, obj.channelSetId);
  if (variants.length > 0) state.sets.set(obj.channelSetId, variants);
  else {
    state.sets.delete(obj.channelSetId);
    if (obj.kind !== 'template') idx?.[obj.kind].delete(obj.channelSetId);
  }
}

/** Moves a whole channel set (every variant) into another folder channel set. */
export function reparent(state: State, setId: number, newParentSet: number): void {
  touch(state);
  const variants = state.sets.get(setId) ?? [];
  const first = variants[0];
  if (!first || first.kind === 'template') return;
  state.children.get(first.parentSet)?.[first.kind].delete(setId);
  childIndex(state, newParentSet)[first.kind].add(setId);
  for (const v of variants) v.parentSet = newParentSet;
}

/** Replaces an object's tags, keeping the usage index current. */
export function setTags(state: State, obj: Obj, tags: DatasetTag[] | undefined): void {
  touch(state, true);
  indexReferences(state, obj, false);
  if (tags?.length) obj.tags = tags;
  else delete obj.tags;
  indexReferences(state, obj, true);
}

/** Links a template channel set into a folder channel set. */
export function linkTemplate(state: State, folderSet: number, templateSet: number): void {
  touch(state, true);
  let links = state.templateLinks.get(folderSet);
  if (!links) state.templateLinks.set(folderSet, (links = new Set()));
  links.add(templateSet);
}

/** Renames an object, keeping its folder's name index current. */
export function renameObject(state: State, obj: Obj, name: string): void {
  const before = nameKey(obj);
  obj.name = name;
  noteRenamed(state, obj, before);
}

/** Re-indexes the name of an object whose members were replaced wholesale (push2master); `before` is its name key before. */
export function noteRenamed(state: State, obj: Obj, before: string): void {
  touch(state);
  if (obj.kind === 'template') return;
  const after = nameKey(obj);
  const idx = state.children.get(obj.parentSet);
  if (after === before || !idx?.[obj.kind].has(obj.channelSetId)) return;
  addName(idx.names, after, obj.channelSetId);
  if (!(state.sets.get(obj.channelSetId) ?? []).some((v) => nameKey(v) === before)) removeName(idx.names, before, obj.channelSetId);
}

/** Lower-cased names that are taken, asked one at a time: a folder's name index answers, nothing is listed. */
export interface TakenNames {
  has(lowerName: string): boolean;
  /**
   * Where uniqueFileName may start counting for a name: every `base_i.ext` below it is known to be taken
   * (1 when nothing is known). Without it, counting starts at 1.
   */
  firstSuffix?(lowerName: string): number;
  /** Tells that `base_1.ext` .. `base_{i}.ext` of a name were all found taken. */
  suffixesTaken?(lowerName: string, i: number): void;
}

/** Per store: what uniqueFileName found taken, by folder, node and name; valid while no name was freed (namesEpoch). */
const suffixHints = new WeakMap<State, { epoch: number; taken: Map<string, number> }>();

/**
 * The taken names of one folder set for a node, from the name index, with suffix hints: 10,000 uploads
 * of one name then count from the last suffix found taken instead of from 1 each time. A hint holds
 * only suffixes found taken, and nothing but a change that may free a name (namesEpoch) ends it.
 */
export function takenNames(state: State, parentSet: number, kinds: readonly ChildKind[], nodeId: number, exceptSet?: number): TakenNames {
  const has = (lowerName: string) => nameTaken(state, parentSet, kinds, nodeId, lowerName, exceptSet);
  if (exceptSet !== undefined) return { has };
  const hints = () => {
    let h = suffixHints.get(state);
    if (!h || h.epoch !== state.namesEpoch) suffixHints.set(state, (h = { epoch: state.namesEpoch, taken: new Map() }));
    return h.taken;
  };
  const key = (lowerName: string) => `${parentSet}|${nodeId}|${kinds.join(',')}|${lowerName}`;
  return {
    has,
    firstSuffix: (lowerName) => (hints().get(key(lowerName)) ?? 0) + 1,
    suffixesTaken: (lowerName, i) => void hints().set(key(lowerName), i),
  };
}

/**
 * Whether a lower-cased name is taken in a folder channel set for a node: a child of one of the kinds
 * (other than `exceptSet`) has a variant of that name that is not deleted and lives in the node's master
 * chain or in a channel below the node. Costs the variants of that name, not the folder's size.
 */
export function nameTaken(
  state: State,
  parentSet: number,
  kinds: readonly ChildKind[],
  nodeId: number,
  lowerName: string,
  exceptSet?: number,
): boolean {
  const chain = state.nodes.get(nodeId)!.chain;
  const idx = state.children.get(parentSet);
  const entry = idx?.names.get(lowerName);
  if (!idx || entry === undefined) return false;
  for (const set of typeof entry === 'number' ? [entry] : entry) {
    if (set === exceptSet || !kinds.some((k) => idx[k].has(set))) continue;
    for (const v of state.sets.get(set) ?? []) {
      if (v.deleted || nameKey(v) !== lowerName) continue;
      if (chain.includes(v.nodeId) || state.nodes.get(v.nodeId)!.chain.includes(nodeId)) return true;
    }
  }
  return false;
}

/** The channel sets in a folder set whose variants may carry a lower-cased name (a superset: callers check each variant). */
export function setsNamed(state: State, parentSet: number, lowerName: string): readonly number[] {
  const entry = state.children.get(parentSet)?.names.get(lowerName);
  return entry === undefined ? [] : typeof entry === 'number' ? [entry] : entry;
}

// ---------------------------------------------------------------------------------------------
// Lookup and the channel view.

/** Finds an object by local id (number or digits) or global id; undefined when unknown. */
export function lookup(state: State, ref: string | number): Obj | undefined {
  if (typeof ref === 'number') return state.objects.get(ref);
  // Any run of digits that is a safe integer: ids of 16 digits (up to 2^53 - 1) are local ids too.
  if (/^\d+$/.test(ref) && Number.isSafeInteger(Number(ref))) return state.objects.get(Number(ref));
  const id = state.byGlobalId.get(ref);
  return id === undefined ? undefined : state.objects.get(id);
}

/** The view of a node (its master chain). The node must exist. */
export function viewOf(state: State, nodeId: number): View {
  return { nodeId, chain: state.nodes.get(nodeId)!.chain };
}

/** The master variant of a channel set: the one that is not a localized copy. */
export function masterVariant(state: State, setId: number): Obj | undefined {
  const variants = state.sets.get(setId);
  return variants?.find((v) => v.masterId === undefined) ?? variants?.[0];
}

/**
 * The variant of a channel set a view sees, ignoring ancestors and deletion: the variant living
 * closest to the view's node along its master chain. A variant from another node is inherited, and
 * hidden when the master variant is excluded or disinherited for a node between (the view's node
 * included, the variant's node excluded).
 */
export function resolveInView(state: State, setId: number, view: View, ignoreRestrictions = false): Obj | undefined {
  const variants = state.sets.get(setId);
  if (!variants) return undefined;
  let best: Obj | undefined;
  let bestIdx = Infinity;
  for (const v of variants) {
    const idx = v.nodeId === view.nodeId ? 0 : view.chain.indexOf(v.nodeId);
    if (idx >= 0 && idx < bestIdx) [best, bestIdx] = [v, idx];
  }
  if (!best || bestIdx === 0 || ignoreRestrictions) return best;
  const master = variants.length === 1 ? best : masterVariant(state, setId)!;
  if (master.excluded) return undefined;
  if (master.disinherit) for (let i = 0; i < bestIdx; i++) if (master.disinherit.includes(view.chain[i]!)) return undefined;
  return best;
}

/** True when an object (a resolved variant) can be reached in the view: every ancestor folder resolves there too. */
export function ancestorsVisible(state: State, obj: Obj, view: View): boolean {
  if (obj.kind === 'template') return true;
  // A chain longer than the store has objects can only be a cycle: no depth limit of its own.
  for (let set = obj.parentSet, depth = 0; set !== 0 && depth <= state.objects.size; depth++) {
    const folder = resolveInView(state, set, view);
    if (!folder) return false;
    set = folder.parentSet;
  }
  return true;
}

/** The folder variant containing an object in a view (undefined for root folders). */
export function parentInView(state: State, obj: Obj, view: View): FolderObj | undefined {
  if (obj.parentSet === 0) return undefined;
  return (
    (resolveInView(state, obj.parentSet, view, true) as FolderObj | undefined) ??
    (masterVariant(state, obj.parentSet) as FolderObj | undefined)
  );
}

/** The chain of folders from the root down to the folder, in a view. */
export function folderChain(state: State, folder: FolderObj, view: View): FolderObj[] {
  const chain: FolderObj[] = [folder];
  for (let cur = parentInView(state, folder, view); cur && chain.length <= state.objects.size; cur = parentInView(state, cur, view))
    chain.unshift(cur);
  return chain;
}

/** Whether an object is a root folder (of the master or of a channel). */
export function isRoot(obj: Obj): boolean {
  return obj.kind === 'folder' && obj.parentSet === 0;
}

/** Deletion of the nearest deleted ancestor folder in a view (the `folderDeleted` of the object). */
export function deletedAbove(state: State, obj: Obj, view: View): DeleteMark | undefined {
  for (
    let cur = parentInView(state, obj, view), depth = 0;
    cur && depth <= state.objects.size;
    cur = parentInView(state, cur, view), depth++
  ) {
    if (cur.deleted) return cur.deleted;
  }
  return undefined;
}

/** Deletion of the master variant, for a localized copy (the `masterDeleted` of the object). */
export function masterDeleted(state: State, obj: Obj): DeleteMark | undefined {
  if (obj.masterId === undefined) return undefined;
  return state.objects.get(obj.masterId)?.deleted;
}

/** Whether an object is in the wastebin: itself, its master or a containing folder deleted (contract 3). */
export function inWastebin(state: State, obj: Obj, view: View): boolean {
  return obj.deleted !== undefined || masterDeleted(state, obj) !== undefined || deletedAbove(state, obj, view) !== undefined;
}

/** Every channel below a node (its channels, their channels, ...), nearest first. */
export function descendantChannels(state: State, nodeId: number): number[] {
  const out: number[] = [];
  const queue = [...(state.nodes.get(nodeId)?.channels ?? [])];
  while (queue.length > 0) {
    const id = queue.shift()!;
    out.push(id);
    queue.push(...(state.nodes.get(id)?.channels ?? []));
  }
  return out;
}

/** The ids the target file names: nodes, root folders and the folders the suite works in. */
export function fixtureIds(state: State): {
  masterNodeId: number;
  masterRootFolderId: number;
  channelNodeId: number;
  channelRootFolderId: number;
  sandboxParentFolderId: number;
  pagesFolderId: number;
  templatesFolderId: number;
  usedFileId?: number;
  usedFileUsers?: UsedFileUsers;
  stagingPackage?: StagingPackage;
} {
  const master = [...state.nodes.values()].find((n) => n.masterId === undefined)!;
  const channelId = state.roles.channelNodeId ?? master.channels[0] ?? master.id;
  const channel = state.nodes.get(channelId)!;
  return {
    masterNodeId: master.id,
    masterRootFolderId: master.rootFolderId,
    channelNodeId: channel.id,
    channelRootFolderId: channel.rootFolderId,
    sandboxParentFolderId: state.roles.sandboxParentFolderId ?? master.rootFolderId,
    pagesFolderId: state.roles.pagesFolderId ?? master.rootFolderId,
    templatesFolderId: state.roles.templatesFolderId ?? master.rootFolderId,
    ...(state.roles.usedFileId === undefined ? {} : { usedFileId: state.roles.usedFileId }),
    ...(state.roles.usedFileUsers === undefined ? {} : { usedFileUsers: state.roles.usedFileUsers }),
    ...(state.roles.stagingPackage === undefined ? {} : { stagingPackage: state.roles.stagingPackage }),
  };
}

/** Every channel set below a folder channel set, depth first, with its kind (the tree walk the handlers share). */
export function* setsBelow(state: State, folderSet: number): Generator<{ set: number; kind: ChildKind }> {
  const stack = [folderSet];
  while (stack.length > 0) {
    const idx = state.children.get(stack.pop()!);
    if (!idx) continue;
    for (const kind of ['folder', 'file', 'image', 'page'] as ChildKind[]) {
      for (const set of idx[kind]) {
        yield { set, kind };
        if (kind === 'folder') stack.push(set);
      }
    }
  }
}
