/**
 * A deliberately simple model of what a stateful test created in its sandbox: folders and files, their
 * deletion, localized copies in the channel and exclusion/disinheritance, with pure functions that
 * predict what the listings must answer. Where the contract leaves a detail open (a name made unique on a
 * duplicate, collation), the model records what the target chose and accepts every reasonable answer.
 * It knows nothing of any server (it never imports server/).
 */
import { duplicates } from './oracles.ts';
import { flag } from './records.ts';

/** Which view a listing sees: the master node, or the channel inheriting from it. */
export type ViewName = 'master' | 'channel';

/** The wastebin mode of a listing. */
export type WastebinMode = 'exclude' | 'include' | 'only';

/** The two kinds of objects the model holds. */
export type ObjectKind = 'folder' | 'file';

interface ModelBase {
  /** Stable label in creation order (D0 the test's own folder, D1..., f1...), for readable sequences. */
  key: string;
  /** The master object's id. */
  id: number;
  name: string;
  /** The localized copy in the channel: its own id (learned from the channel's listing) and name. */
  localized?: { id: number; name: string };
  /** Excluded from multichannelling: hidden in every channel. */
  excluded: boolean;
  /** Disinherited for the test's channel. */
  disinherited: boolean;
}

/** A folder the test created; `deleted` when it was deleted itself (its content then counts as deleted too). */
export interface ModelFolder extends ModelBase {
  kind: 'folder';
  parent: string | undefined;
  deleted: boolean;
}

/** A file the test created; it is deleted only through a deleted folder above it. */
export interface ModelFile extends ModelBase {
  kind: 'file';
  folder: string;
  size: number;
  sha256: string;
}

/** Any object of the model. */
export type ModelObject = ModelFolder | ModelFile;

/** Everything a stateful test created, in creation order; folders[0] is the test's own folder. */
export interface Model {
  folders: ModelFolder[];
  files: ModelFile[];
  /** Ids of localized copies that were unlocalized since, with the object they belonged to. */
  retired: Map<number, string>;
}

/** A model holding only the test's own folder (D0), which the test never deletes, localizes or hides. */
export function createModel(rootId: number, rootName = ''): Model {
  return {
    folders: [
      { kind: 'folder', key: 'D0', id: rootId, name: rootName, parent: undefined, deleted: false, excluded: false, disinherited: false },
    ],
    files: [],
    retired: new Map(),
  };
}

/** Adds a folder created under `parent` (a folder key) and returns it. */
export function addFolder(m: Model, parent: string, id: number, name: string): ModelFolder {
  const folder: ModelFolder = {
    kind: 'folder',
    key: `D${m.folders.length}`,
    id,
    name,
    parent,
    deleted: false,
    excluded: false,
    disinherited: false,
  };
  m.folders.push(folder);
  return folder;
}

/** Adds a file created in `folder` (a folder key) and returns it. */
export function addFile(m: Model, folder: string, f: { id: number; name: string; size: number; sha256: string }): ModelFile {
  const file: ModelFile = { kind: 'file', key: `f${m.files.length + 1}`, ...f, folder, excluded: false, disinherited: false };
  m.files.push(file);
  return file;
}

/** The file now lives in another folder, same id. */
export function moveFile(file: ModelFile, folder: string): void {
  file.folder = folder;
}

/** The file's name as the target chose it. */
export function renameFile(file: ModelFile, name: string): void {
  file.name = name;
}

/** The file holds new content. */
export function replaceContent(file: ModelFile, size: number, sha256: string): void {
  file.size = size;
  file.sha256 = sha256;
}

/** The folder, and everything below it, is in the wastebin. */
export function deleteFolder(folder: ModelFolder): void {
  folder.deleted = true;
}

/** The object has a localized copy in the channel. */
export function localize(obj: ModelObject, copyId: number): void {
  obj.localized = { id: copyId, name: obj.name };
}

/** The localized copy is gone: the channel sees the master again. */
export function unlocalize(m: Model, obj: ModelObject): void {
  if (obj.localized && obj.localized.id !== obj.id) m.retired.set(obj.localized.id, obj.key);
  delete obj.localized;
}

/** The folder with this key (the model's own labels never dangle). */
export function folderByKey(m: Model, key: string): ModelFolder {
  const folder = m.folders.find((f) => f.key === key);
  if (!folder) throw new Error(`model: no folder ${key}`);
  return folder;
}

/** The folder containing an object; undefined for the test's own folder. */
export function parentOf(m: Model, obj: ModelObject): ModelFolder | undefined {
  const key = obj.kind === 'folder' ? obj.parent : obj.folder;
  return key === undefined ? undefined : folderByKey(m, key);
}

/** Contract 3: an object is deleted when it, or a folder above it, was deleted. */
export function isDeleted(m: Model, obj: ModelObject): boolean {
  for (let cur: ModelObject | undefined = obj; cur; cur = parentOf(m, cur)) if (cur.kind === 'folder' && cur.deleted) return true;
  return false;
}

/** Whether the channel sees the object: its own copy, or the master neither excluded nor disinherited, below folders the channel sees. */
export function visibleInChannel(m: Model, obj: ModelObject): boolean {
  for (let cur: ModelObject | undefined = obj; cur; cur = parentOf(m, cur))
    if (!cur.localized && (cur.excluded || cur.disinherited)) return false;
  return true;
}

/** The id under which the channel lists the object. */
export function channelIdOf(obj: ModelObject): number {
  return obj.localized?.id ?? obj.id;
}

/** The objects of a kind directly in a folder, in creation order. */
export function childrenOf(m: Model, folder: string, kind: ObjectKind): ModelObject[] {
  return kind === 'folder' ? m.folders.filter((f) => f.parent === folder) : m.files.filter((f) => f.folder === folder);
}

/** Whether the folder or anything below it has a localized copy. */
export function hasLocalizedWithin(m: Model, folder: ModelFolder): boolean {
  if (folder.localized) return true;
  return (
    childrenOf(m, folder.key, 'file').some((f) => f.localized) ||
    childrenOf(m, folder.key, 'folder').some((f) => hasLocalizedWithin(m, f as ModelFolder))
  );
}

/**
 * Whether a name is used in the folder by another object of the kind. Loosely (the default): ignoring
 * case, by masters or localized copies, deleted or not; then the target may make a new name unique its
 * own way. `exact`: a live master sibling has exactly this name; then `failOnDuplicate` must refuse.
 */
export function nameTaken(
  m: Model,
  folder: string,
  kind: ObjectKind,
  name: string,
  options: { except?: string; exact?: boolean } = {},
): boolean {
  const lower = name.toLowerCase();
  return childrenOf(m, folder, kind).some((o) => {
    if (o.key === options.except) return false;
    if (options.exact) return o.name === name && !isDeleted(m, o);
    return o.name.toLowerCase() === lower || o.localized?.name.toLowerCase() === lower;
  });
}

/** Folders not deleted, in creation order. */
export function liveFolders(m: Model): ModelFolder[] {
  return m.folders.filter((f) => !isDeleted(m, f));
}

/** Files not deleted, in creation order. */
export function liveFiles(m: Model): ModelFile[] {
  return m.files.filter((f) => !isDeleted(m, f));
}

/** The object with this id, master or localized copy. */
export function objectById(m: Model, id: number): ModelObject | undefined {
  return [...m.folders, ...m.files].find((o) => o.id === id || o.localized?.id === id);
}

/** What a listing asks for. */
export interface ListingQuery {
  folder: string;
  kind: ObjectKind;
  view: ViewName;
  wastebin: WastebinMode;
  recursive?: boolean;
}

/** One entry the model expects in a listing. */
export interface Expected {
  key: string;
  id: number;
  name: string;
  deleted: boolean;
  /** Listed as inherited: only in the channel, for objects it does not hold a localized copy of. */
  inherited: boolean;
  size?: number;
}

/** The model's prediction of a listing: whether the folder can be listed at all, its id there, and the entries (any order). */
export interface Prediction {
  listable: boolean;
  /** Why the folder cannot be listed, for messages. */
  unlistable?: 'deleted' | 'hidden';
  folderId: number;
  entries: Expected[];
}

function expectedOf(m: Model, obj: ModelObject, view: ViewName): Expected {
  const channel = view === 'channel';
  return {
    key: obj.key,
    id: channel ? channelIdOf(obj) : obj.id,
    name: channel ? (obj.localized?.name ?? obj.name) : obj.name,
    deleted: isDeleted(m, obj),
    inherited: channel && !obj.localized,
    ...(obj.kind === 'file' ? { size: obj.size } : {}),
  };
}

/**
 * Predicts a listing of a folder's files or sub-folders (Group F semantics): the channel sees only what
 * is visible there; `exclude` leaves deleted objects out, `only` keeps just them, `include` keeps all;
 * `recursive` walks into sub-folders the view sees (under `exclude`, not into deleted ones).
 */
export function listing(m: Model, q: ListingQuery): Prediction {
  const folder = folderByKey(m, q.folder);
  const folderId = q.view === 'channel' ? channelIdOf(folder) : folder.id;
  const deleted = isDeleted(m, folder);
  if (q.view === 'channel' && !visibleInChannel(m, folder)) return { listable: false, unlistable: 'hidden', folderId, entries: [] };
  if (q.wastebin === 'exclude' && deleted) return { listable: false, unlistable: 'deleted', folderId, entries: [] };
  const entries: Expected[] = [];
  const seen = (o: ModelObject) => q.view === 'master' || visibleInChannel(m, o);
  const walk = (key: string) => {
    for (const o of childrenOf(m, key, q.kind)) {
      if (!seen(o)) continue;
      const e = expectedOf(m, o, q.view);
      if (q.wastebin === 'include' || (q.wastebin === 'only') === e.deleted) entries.push(e);
    }
    if (!q.recursive) return;
    for (const sub of childrenOf(m, key, 'folder')) if (seen(sub) && (q.wastebin !== 'exclude' || !isDeleted(m, sub))) walk(sub.key);
  };
  walk(folder.key);
  return { listable: true, folderId, entries };
}

/** The members of a listed record the model judges. */
export interface ListedRecord {
  id?: unknown;
  name?: unknown;
  inherited?: unknown;
  fileSize?: unknown;
  deleted?: unknown;
  folderDeleted?: unknown;
  masterDeleted?: unknown;
}

/** A difference between a listing and the model; `requirement` when it names a specific rule, else the caller's. */
export interface Problem {
  requirement?: string;
  message: string;
}

/** Whether a DeleteInfo marks a deletion: live objects may carry `{at: 0}` (reference notes). */
function marksDeletion(info: unknown): boolean {
  if (info === null || typeof info !== 'object') return false;
  const { at, by } = info as { at?: unknown; by?: unknown };
  return (typeof at === 'number' && at !== 0) || by !== undefined;
}

/** Whether a record says it is deleted: itself, its master or its folder (contract 2.2). */
export function deletionMarked(record: ListedRecord): boolean {
  return marksDeletion(record.deleted) || marksDeletion(record.folderDeleted) || marksDeletion(record.masterDeleted);
}

/** Why the model does not expect a known object in this listing. */
function whyNotListed(m: Model, q: ListingQuery, obj: ModelObject, id: number): Problem {
  const what = `${obj.kind} ${obj.key} (id ${id}, "${obj.name}")`;
  if (q.view === 'channel' && obj.localized && id === obj.id && obj.localized.id !== obj.id) {
    return {
      requirement: 'MCH-02',
      message: `lists the master ${what}, which the channel replaced by its localized copy ${obj.localized.id}`,
    };
  }
  if (q.view === 'master' && obj.localized?.id === id && id !== obj.id)
    return { message: `lists the channel's localized copy of ${obj.key} (id ${id}) in the master` };
  if (q.view === 'channel' && !visibleInChannel(m, obj)) {
    return {
      requirement: 'MCH-06',
      message: `lists ${what}, which is excluded or disinherited for the channel (or lies in a folder that is)`,
    };
  }
  const deleted = isDeleted(m, obj);
  if (deleted && q.wastebin === 'exclude')
    return { requirement: 'WST-01', message: `lists ${what}, which is deleted, with wastebin=exclude` };
  if (!deleted && q.wastebin === 'only')
    return { requirement: 'WST-03', message: `lists ${what}, which is not deleted, with wastebin=only` };
  const home = obj.kind === 'folder' ? obj.parent : obj.folder;
  return {
    message: `lists ${what}, which the model has in folder ${home}, not in the listed folder ${q.folder}${q.recursive ? ' or below' : ''}`,
  };
}

/**
 * Compares a listing with the model's prediction: the same objects (by id), names, sizes, the
 * inherited flag of the view and the deletion marks under include/only. Order is judged separately.
 */
export function diffListing(m: Model, q: ListingQuery, prediction: Prediction, records: readonly ListedRecord[]): Problem[] {
  const problems: Problem[] = [];
  const ids = records.map((r) => r.id);
  const dup = duplicates(ids);
  if (dup.length) problems.push({ message: `lists ids more than once: ${dup.join(', ')}` });
  const expected = new Map(prediction.entries.map((e) => [e.id, e]));
  for (const r of records) {
    if (typeof r.id !== 'number') {
      problems.push({ message: `lists a record without a numeric id (${JSON.stringify(r.id)}, name ${JSON.stringify(r.name)})` });
      continue;
    }
    const e = expected.get(r.id);
    if (!e) {
      const known = objectById(m, r.id);
      const retired = m.retired.get(r.id);
      if (known) problems.push(whyNotListed(m, q, known, r.id));
      else if (retired && q.view === 'channel')
        problems.push({ requirement: 'MCH-03', message: `lists id ${r.id}, the localized copy of ${retired} that was unlocalized` });
      else problems.push({ message: `lists id ${r.id} ("${String(r.name)}"), which the test never created` });
      continue;
    }
    const what = `${e.key} (id ${e.id})`;
    if (r.name !== e.name) problems.push({ message: `${what} is named ${JSON.stringify(r.name)}, expected "${e.name}"` });
    if (e.size !== undefined && r.fileSize !== e.size)
      problems.push({ message: `${what} has fileSize ${JSON.stringify(r.fileSize)}, expected ${e.size}` });
    // An absent boolean reads false (contract 2.1: presence of members not shown).
    if (e.inherited && !flag(r, 'inherited'))
      problems.push({
        requirement: 'MCH-01',
        message: `${what} is inherited from the master but listed with inherited ${JSON.stringify(r.inherited)}`,
      });
    // What a localized copy, told by its id, says in `inherited` is open (open choice localized-copy-inherited).
    const copy = q.view === 'channel' && objectById(m, e.id)?.localized?.id === e.id;
    if (!e.inherited && flag(r, 'inherited') && !copy) {
      problems.push(
        q.view === 'channel'
          ? { requirement: 'MCH-02', message: `${what} is localized in the channel but listed as inherited` }
          : { message: `${what} is listed as inherited in its own (master) node` },
      );
    }
    if (q.wastebin !== 'exclude') {
      // Contract 3: deleted is "a deleted, masterDeleted or folderDeleted DeleteInfo is present": which one marks an object, and
      // whether it names `by` (the judge reads a `by` that is there), the contract leaves to the server.
      const parent = parentOf(m, objectById(m, e.id)!);
      const marks = `deleted ${JSON.stringify(r.deleted)}, folderDeleted ${JSON.stringify(r.folderDeleted)}`;
      if (parent && isDeleted(m, parent)) {
        // WST-05 "items inside a deleted folder, listed with include, carry folderDeleted"
        if (!deletionMarked(r))
          problems.push({ requirement: 'WST-05', message: `${what} lies in the deleted folder ${parent.key} but carries ${marks}` });
      } else if (e.deleted && !deletionMarked(r)) {
        // WST-02 "deleted ones carry deleted with at and by"
        problems.push({ requirement: 'WST-02', message: `${what} is deleted but carries ${marks}` });
      }
      if (!e.deleted && deletionMarked(r))
        problems.push({ requirement: 'WST-02', message: `${what} is not deleted but its record says it is` });
    }
  }
  const listed = new Set(ids);
  for (const e of prediction.entries) {
    if (listed.has(e.id)) continue;
    const requirement = e.deleted && q.wastebin === 'include' ? 'WST-02' : e.deleted && q.wastebin === 'only' ? 'WST-03' : undefined;
    const state = `${e.deleted ? 'deleted' : 'live'}${q.view === 'channel' ? (e.inherited ? ', inherited' : ', localized') : ''}`;
    problems.push({ ...(requirement ? { requirement } : {}), message: `${e.key} (id ${e.id}, "${e.name}", ${state}) is missing` });
  }
  return problems;
}
