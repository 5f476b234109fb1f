/**
 * The planted faults and variations of the folder handlers (server/handlers/folders.ts), one plan per handler.
 *
 * A handler asks for its plan once (`const plan = planted.getFoldersPost(ctx.faults)`) and consults it at named
 * points of the contract's code: a hook takes the value the contract computed there and returns the one the handler
 * goes on with, or (a hook that returns nothing) may throw or change state where a fault does. With every switch
 * off each hook gives back what it was given and does nothing else, so the handler file reads as the contract, and
 * this file, which only ever differs from the contract, is left out of the mutation run (scripts/mutation).
 */
import {
  lookup,
  nameKey,
  nowSeconds,
  removeObject,
  setsBelow,
  setsNamed,
  type FolderObj,
  type Obj,
  type State,
  type TakenNames,
  type View,
} from '../../state.ts';
import { Refusal, type FaultSet, type OpRequest } from '../../types.ts';
import { qBool, type Wastebin } from '../common.ts';
import { collectChildren, objectPredicate, type ObjectFilter, type SortKey, type Walk } from '../listing.ts';
import type { Folder as FolderRecord, FolderListRequest } from '../../../schemas/types.ts';
import type { FolderRenderOptions } from '../render.ts';
import { refuseInInheritedFolder } from './uploads.ts';

/** Leaves members of a body unread: they are absent, as if never sent. */
function unread<T extends object>(b: T, ...members: (keyof T)[]): void {
  for (const m of members) delete b[m];
}

/** What an object filter keeps. */
type Keep = (o: Obj) => boolean;

/** The hooks of the folder listing the three listing forms share (folderListing). */
export interface ListingPlan {
  /** The recursiveIds entries the listing reads. */
  recursiveIds(ids: string[]): string[];
  /** Whether a nodeId/folderId entry names the folder, given that the contract says `names`. */
  nodeForm(names: boolean): boolean;
  /** The filter the sub-folders attached to a listed folder are kept by; the contract keeps them by `keep`. */
  keepNested(keep: Keep, state: State, view: View, filter: ObjectFilter): Keep;
  /** The render options of every listed record. */
  render(options: FolderRenderOptions): FolderRenderOptions;
  /** A listed record as answered; `tree` whether a tree was asked for. */
  record(record: FolderRecord, tree: boolean): FolderRecord;
  /** Whether a listed folder carries its sub-folders; the contract: a recursive tree. */
  nest(nest: boolean, recursive: boolean, tree: boolean): boolean;
  /** Before "deleted" is worked out from the recursiveIds entries. */
  deleted(state: State, recursive: boolean, recursiveIds: string[]): void;
}

/** The listing's plan; `getFoldersForm`: for getFolders (GET and POST), not GET /folder. */
function listing(faults: FaultSet, getFoldersForm: boolean): ListingPlan {
  return {
    // Variation (getfolders-plain-recursive-ids): getFolders takes plain folder ids only; node-form entries are ignored.
    recursiveIds: (ids) => (getFoldersForm && faults.has('getfolders-plain-recursive-ids') ? ids.filter((e) => !e.includes('/')) : ids),
    // Planted: the nodeId/folderId form is taken for a plain id, which names no folder.
    nodeForm: (names) => !faults.has('recursiveids-node-form-ignored') && names,
    // Variation (tree-search-top-level-only): search selects the top level of a tree; the other filters hold at every level.
    keepNested: (keep, state, view, filter) =>
      faults.has('tree-search-top-level-only') ? objectPredicate(state, view, { ...filter, search: undefined }, faults) : keep,
    // Planted: the listings read no addPrivileges or privileges, so their records come without privileges.
    render: (options) => (faults.has('listing-privileges-ignored') ? { ...options, privileges: false } : options),
    record: (record, tree) => {
      // Planted: the tree answer has its own serialisation path, so only tree=true answers are misshapen.
      if (tree && record.motherId !== undefined && faults.has('shape-getfolders-tree'))
        Object.assign(record, { motherId: String(record.motherId) });
      return record;
    },
    nest: (nest, recursive, tree) => {
      // Planted (tree-not-nested): a tree answers the top level without its sub-folders.
      if (faults.has('tree-not-nested')) return false;
      // Planted (tree-without-recursive-nests): tree=true nests the sub-folders also where recursive is not set.
      if (faults.has('tree-without-recursive-nests') && tree) return true;
      // Variation (flat-listing-nests-subfolders): the sub-folders are attached whether or not a tree was asked for; in a
      // flat listing, which lists every descendant anyway, each record carries its own children only (nested all the way
      // down, a chain of n folders would answer n²/2 records).
      return faults.has('flat-listing-nests-subfolders') ? recursive : nest;
    },
    deleted: (state, recursive, recursiveIds) => {
      // Planted (recursive-ids-unknown-500): "deleted" reads every recursiveIds entry as an object, also one no object has.
      if (faults.has('recursive-ids-unknown-500') && recursive && recursiveIds.some((e) => !lookup(state, e.split('/').pop()!)))
        throw new TypeError("Cannot read properties of undefined (reading 'deleted')");
    },
  };
}

/** GET /folder (folderList). */
export function folderList(faults: FaultSet): ListingPlan & {
  /** The sort attributes GET /folder knows. */
  attributes(attributes: Record<string, SortKey>): Record<string, SortKey>;
  /** The permission names the answer's perms gives each listed folder. */
  perms(names: readonly string[]): readonly string[];
} {
  return {
    ...listing(faults, false),
    // Planted (perms-name-empty): each folder's permission names carry an empty one, which names no permission.
    perms: (names) => (faults.has('perms-name-empty') ? names.map((n) => (n === 'edit' ? '' : n)) : names),
    // Variation (folder-sort-name-only): GET /folder knows name alone; the other attributes are ignored as unknown (reference notes).
    attributes: (attributes) => (faults.has('folder-sort-name-only') ? { name: attributes.name! } : attributes),
  };
}

/** GET /folder/getFolders/{id} (getFolders). */
export function getFolders(faults: FaultSet): ListingPlan & {
  /** The recId entries read. */
  recId(ids: string[]): string[];
} {
  return {
    ...listing(faults, true),
    // Planted: GET getFolders knows only recursiveIds, so recId is not read and every folder's children are fetched.
    recId: (ids) => (faults.has('getfolders-recid-ignored') ? [] : ids),
  };
}

/** POST /folder/getFolders (getFoldersPost). */
export function getFoldersPost(faults: FaultSet): ListingPlan & {
  /** The body as the handler reads it: a member a fault leaves unread is absent, one it reads otherwise is replaced. */
  body(b: Partial<FolderListRequest>): Partial<FolderListRequest>;
  /** The listing's filter. */
  filter(filter: ObjectFilter): ObjectFilter;
} {
  return {
    ...listing(faults, true),
    body: (sent) => {
      const b = { ...sent };
      // Planted: of the date members, the body form reads createdBefore alone.
      if (faults.has('getfolders-post-date-filters-partial')) unread(b, 'createdSince', 'editedBefore', 'editedSince');
      // Planted: the body form reads no user patterns.
      if (faults.has('getfolders-post-user-filters-ignored')) unread(b, 'creator', 'editor');
      // Planted: the body's recursiveIds are not read, so every folder's children are fetched.
      if (faults.has('getfolders-post-recursiveids-ignored')) unread(b, 'recursiveIds');
      // Planted: the body form was added after paging, which it forgets, answering every folder.
      if (faults.has('getfolders-post-paging-ignored')) unread(b, 'skipCount', 'maxItems');
      // Planted: the body's sortBy and sortOrder are not read, so the answer comes in the default order.
      if (faults.has('getfolders-post-sort-ignored')) unread(b, 'sortBy', 'sortOrder');
      // Variation (getfolders-post-recursive-default): an absent recursive member reads as true.
      if (faults.has('getfolders-post-recursive-default')) b.recursive ??= true;
      // Planted (getfolders-post-default-include): the body's absent wastebin falls to include, not the contract's exclude.
      if (faults.has('getfolders-post-default-include')) b.wastebin ??= 'include';
      // Planted (getfolders-post-deleted-folder-listed): the absent wastebin reads as no mode, which refuses no deleted folder.
      if (faults.has('getfolders-post-deleted-folder-listed')) b.wastebin ??= '' as Wastebin;
      // Planted (wastebin-only-ignored): wastebin only behaves like include, listing live folders too.
      if (b.wastebin === 'only' && faults.has('wastebin-only-ignored')) b.wastebin = 'include';
      return b;
    },
    // Planted: the body form lists the requesting user's own folders only.
    filter: (filter) => (faults.has('getfolders-post-own-folders-only') ? { ...filter, iscreator: true } : filter),
  };
}

/** The hooks of GET /folder/breadcrumb/{id}. */
export interface BreadcrumbPlan {
  /** The chain of folders answered, root first. */
  chain(chain: FolderObj[]): FolderObj[];
  /** Whether more folders follow the chain. */
  hasMoreItems(more: boolean): boolean;
}

/** GET /folder/breadcrumb/{id} (breadcrumb). */
export function breadcrumb(faults: FaultSet): BreadcrumbPlan {
  return {
    chain: (chain) => {
      // Planted: the chain is walked from the grandparent, so the folder's mother is left out.
      if (faults.has('breadcrumb-skips-mother') && chain.length > 2) chain.splice(chain.length - 2, 1);
      // Variation (breadcrumb-folder-first): the folder first, up to the root.
      if (faults.has('breadcrumb-folder-first')) chain.reverse();
      return chain;
    },
    // Planted: hasMoreItems says more folders follow the complete chain.
    hasMoreItems: (more) => more || faults.has('breadcrumb-has-more-items'),
  };
}

/** The hooks of GET /folder/count/{id}. */
export interface CountPlan {
  /** The wastebin mode read. */
  wastebin(mode: Wastebin): Wastebin;
  /** Whether the count is recursive. */
  recursive(recursive: boolean): boolean;
  /** The inherited parameter read. */
  inherited(inherited: boolean | undefined): boolean | undefined;
  /** The walk the counts are taken on. */
  walk(walk: Walk): Walk;
  /** The filter pages are counted by; the contract counts every kind by `keep`. */
  keepPages(keep: Keep): Keep;
  /** The filter templates are counted by. */
  keepTemplates(keep: Keep): Keep;
  /** The filter images are counted by. */
  keepImages(keep: Keep): Keep;
}

/** GET /folder/count/{id} (count). */
export function count(faults: FaultSet): CountPlan {
  // Planted (count-pages-templates-inherited-ignored): pages and templates are counted inherited and local alike.
  const pagesAndTemplates = (keep: Keep): Keep => (faults.has('count-pages-templates-inherited-ignored') ? () => true : keep);
  return {
    // Planted: count was written before the wastebin and never reads the parameter.
    wastebin: (mode) => (faults.has('count-ignores-wastebin') ? 'exclude' : mode),
    // Planted: count reads no `recursive` and counts the folder's own content alone.
    recursive: (recursive) => recursive && !faults.has('count-recursive-ignored'),
    // Planted: count reads no inherited and counts inherited and local objects alike.
    inherited: (inherited) => (faults.has('count-inherited-ignored') ? undefined : inherited),
    // Planted (count-stale-after-delete): the counts still include objects deleted through the API.
    walk: (walk) => (faults.has('count-stale-after-delete') ? { ...walk, ignoreDeletion: (o) => o.deleted?.live === true } : walk),
    keepPages: pagesAndTemplates,
    keepTemplates: pagesAndTemplates,
    // Planted: images are counted inherited and local alike.
    keepImages: (keep) => (faults.has('count-images-inherited-ignored') ? () => true : keep),
  };
}

/** The hooks of POST /folder/delete/{id}. */
export interface DeleteFolderPlan {
  /** Before a refusal is thrown. */
  refusing(state: State, folder: FolderObj, view: View): void;
  /** Whether an inherited folder is refused (the contract: in a channel named explicitly). */
  refusesInherited(refused: boolean | undefined): boolean | undefined;
  /** Whether a localized folder is refused. */
  refusesLocalized(refused: boolean): boolean;
  /** Before the folder goes into the wastebin. */
  deleting(state: State, folder: FolderObj): void;
  /** Once the folder and everything below it are in the wastebin. */
  deleted(state: State, folder: FolderObj): void;
}

/** The sets of a folder and of everything below it. */
function setsOf(state: State, folder: FolderObj): number[] {
  return [folder.channelSetId, ...[...setsBelow(state, folder.channelSetId)].map((c) => c.set)];
}

/** POST /folder/delete/{id} (deleteFolder). */
export function deleteFolder(faults: FaultSet): DeleteFolderPlan {
  return {
    refusing: (state, folder, view) => {
      // Planted (refused-delete-changes-state): the folder's files are deleted before the refusal is noticed.
      if (faults.has('refused-delete-changes-state')) {
        for (const f of collectChildren(state, folder, 'file', { view, recursive: false, wastebin: 'exclude' }))
          f.deleted = { at: nowSeconds(state), by: state.requesterId, live: true };
      }
    },
    // Planted: deleting an inherited folder in a channel deletes the master folder.
    refusesInherited: (refused) => refused && !faults.has('delete-inherited-in-channel-allowed'),
    // Planted: deleting a localized folder in a channel deletes the localized copy.
    refusesLocalized: (refused) => refused && !faults.has('delete-localized-in-channel-allowed'),
    deleting: (state, folder) => {
      if (faults.has('channel-delete-skips-wastebin') && state.nodes.get(folder.nodeId)?.masterId !== undefined) {
        // Planted: a channel's own folder has no master to restore from, so the delete purges it instead of binning it;
        // the binning that follows finds nothing left to mark.
        for (const set of setsOf(state, folder).reverse()) for (const v of [...(state.sets.get(set) ?? [])]) removeObject(state, v);
        return;
      }
      // Variation: a master folder with localized copies in it (or of it) stays until the channels unlocalize them.
      if (faults.has('delete-localized-master-refused') && folder.masterId === undefined) {
        const copy = setsOf(state, folder)
          .flatMap((set) => state.sets.get(set) ?? [])
          .find((v) => v.masterId !== undefined && !v.deleted);
        if (copy)
          throw new Refusal('FAILURE', `${copy.kind} ${copy.id} in it is localized in node ${copy.nodeId}; unlocalize it first`, 'id', 409);
      }
    },
    deleted: (state, folder) => {
      const mark = folder.deleted;
      // Planted (deleted-marks-folder-only): only the folder's own set is marked; what lies below counts as deleted through its
      // folder alone, so a listing of a sub-folder named by id finds nothing deleted in it.
      if (faults.has('deleted-marks-folder-only') && mark)
        for (const set of setsOf(state, folder).slice(1))
          for (const v of state.sets.get(set) ?? []) if (v.deleted?.at === mark.at && v.deleted.by === mark.by) delete v.deleted;
      // Planted (master-delete-spares-localized-copies): the delete in the master bins the master folder alone, so what is in
      // it, and the channels' localized copies of it, stay live: a channel lists them under the copy.
      if (!faults.has('master-delete-spares-localized-copies') || folder.masterId !== undefined || !mark) return;
      for (const set of setsOf(state, folder))
        for (const v of state.sets.get(set) ?? [])
          if (v !== folder && v.deleted?.at === mark.at && v.deleted.by === mark.by) delete v.deleted;
    },
  };
}

/** Planted (load-update-locks-folder): the folders loaded with update=true, per store, locked from then on. */
const lockedFolders = new WeakMap<State, Set<number>>();

/** Refuses a folder that load-update-locks-folder has locked; `property` names it in the refusal. */
function refuseLocked(faults: FaultSet, state: State, folder: FolderObj, property: string): void {
  if (faults.has('load-update-locks-folder') && lockedFolders.get(state)?.has(folder.id))
    throw new Refusal('FAILURE', `folder ${folder.id} is locked by another user`, property);
}

/** The hooks of GET /folder/load/{id}. */
export interface LoadFolderPlan {
  /** After the folder is found. */
  loading(state: State, folder: FolderObj, req: OpRequest): void;
  /** Whether privileges are added. */
  privileges(privileges: boolean): boolean;
  /** Whether construct is added. */
  construct(construct: boolean): boolean;
  /** The staging package the status is told in. */
  package(pkg: string | undefined): string | undefined;
}

/** GET /folder/load/{id} (loadFolder). */
export function loadFolder(faults: FaultSet): LoadFolderPlan {
  return {
    loading: (state, folder, req) => {
      if (!faults.has('load-update-locks-folder') || !qBool(req, 'update', false)) return;
      refuseLocked(faults, state, folder, 'id');
      let locked = lockedFolders.get(state);
      if (!locked) lockedFolders.set(state, (locked = new Set()));
      locked.add(folder.id);
    },
    // Planted: privileges=true is read and the privileges still omitted.
    privileges: (privileges) => privileges && !faults.has('privileges-missing'),
    // Planted: construct=true is ignored, and the tags come without their construct.
    construct: (construct) => construct && !faults.has('load-construct-ignored'),
    // Planted: the status asked in no package, whichever was named.
    package: (pkg) => (faults.has('load-package-ignored') ? undefined : pkg),
  };
}

/** The lower-cased folder names a node's own folders (not inherited ones) hold in a folder set. */
function ownNames(state: State, parentSet: number, nodeId: number): TakenNames {
  return {
    has: (lowerName) =>
      setsNamed(state, parentSet, lowerName).some((set) =>
        (state.sets.get(set) ?? []).some((v) => v.kind === 'folder' && v.nodeId === nodeId && !v.deleted && nameKey(v) === lowerName),
      ),
  };
}

/** The fields of a FolderCreateRequest the plan reads and drops. */
interface CreateBody {
  publishDir?: string;
  description?: string;
  nameI18n?: unknown;
  descriptionI18n?: unknown;
  publishDirI18n?: unknown;
}

/** The hooks of POST /folder/create. */
export interface CreateFolderPlan {
  /** The body as the handler reads it: a member a fault leaves unread is absent. */
  body<B extends CreateBody>(b: B): B;
  /** When the mother folder is not found (`err`), before the refusal. */
  motherMissing(err: unknown): void;
  /** After the mother folder is found. */
  mother(state: State, mother: FolderObj): void;
  /** Before the names in the mother folder are read. */
  inMother(state: State, mother: FolderObj, view: View, explicit: View | undefined): void;
  /** The names a new folder may not take. */
  taken(taken: TakenNames, state: State, mother: FolderObj, view: View, explicit: View | undefined): TakenNames;
  /** Whether a taken name is refused (the contract: with failOnDuplicate). */
  duplicateRefused(failOnDuplicate: boolean | undefined): boolean | undefined;
  /** The name the folder gets: the contract's `renamed`, or what a variation makes of the name as `sent`. */
  name(renamed: string, sent: string): string;
  /** After the start page's template is chosen, before a missing one is refused. */
  startTemplate(template: number | undefined): void;
  /** After the folder is stored. */
  created(state: State, folder: FolderObj): void;
}

/** POST /folder/create (createFolder). */
export function createFolder(faults: FaultSet): CreateFolderPlan {
  return {
    body: (sent) => {
      const b = { ...sent };
      // Planted: the publish directory is always derived from the mother's and the name, whatever the body says.
      if (faults.has('folder-create-publishdir-derived')) unread(b, 'publishDir');
      // Planted: description and the I18n maps are left for a later save that never comes.
      if (faults.has('folder-create-metadata-dropped')) unread(b, 'description', 'nameI18n', 'descriptionI18n', 'publishDirI18n');
      return b;
    },
    motherMissing: (err) => {
      // Planted: the missing mother is dereferenced, as a null pointer would be.
      if (err instanceof Refusal && err.code === 'NOTFOUND' && faults.has('create-unknown-mother-500'))
        throw new TypeError("Cannot read properties of undefined (reading 'channelSetId')");
    },
    mother: (state, mother) => refuseLocked(faults, state, mother, 'motherId'),
    inMother: (state, mother, view, explicit) => {
      // Variation (channel-create-refused): a channel creates its own objects only in folders of its own (local or localized).
      refuseInInheritedFolder(state, faults, mother, view, explicit);
    },
    // Variation (duplicates-own-node-only): in a channel, only the channel's own folders hold names a new one may not take.
    taken: (taken, state, mother, view, explicit) =>
      faults.has('duplicates-own-node-only') && explicit && state.nodes.get(view.nodeId)?.masterId !== undefined
        ? ownNames(state, mother.channelSetId, view.nodeId)
        : taken,
    // Variation folder-name-collision-refused: without failOnDuplicate a taken name is refused too. Planted
    // (create-failonduplicate-ignored): failOnDuplicate is not read, and a taken name is never refused.
    duplicateRefused: (failOnDuplicate) =>
      (failOnDuplicate || faults.has('folder-name-collision-refused')) && !faults.has('create-failonduplicate-ignored'),
    // Variation folder-name-collision-kept: without failOnDuplicate a taken name is kept as sent.
    name: (renamed, sent) => (faults.has('folder-name-collision-kept') ? sent : renamed),
    startTemplate: (template) => {
      // Planted (startpage-without-template-500): the first linked template is read without asking whether there is one.
      if (template === undefined && faults.has('startpage-without-template-500'))
        throw new TypeError("Cannot read properties of undefined (reading 'channelSetId')");
    },
    created: (state, folder) => {
      // Planted: the global id index is left to a later reindex, so the new folder is unknown by globalId until then.
      if (faults.has('created-folder-globalid-unknown')) state.byGlobalId.delete(folder.globalId);
    },
  };
}

/** The hooks of GET /folder/getItems/{folderId}. */
export interface GetItemsPlan {
  /** The kinds asked for. */
  types(types: string[]): string[];
  /** What an absent recursive parameter means. */
  recursiveDefault(recursive: boolean): boolean;
}

/** GET /folder/getItems/{folderId} (getItems). */
export function getItems(faults: FaultSet): GetItemsPlan {
  return {
    // Variation (getitems-pages-only): without type, the page editor's default of pages only.
    // Planted (getitems-lists-nothing): without type, a kind no item has.
    types: (types) =>
      types.length > 0 ? types : faults.has('getitems-lists-nothing') ? ['none'] : faults.has('getitems-pages-only') ? ['page'] : types,
    // Planted: recursive defaults to true, so the content of the sub-folders is listed with the folder's own.
    recursiveDefault: (recursive) => recursive || faults.has('getitems-lists-subfolder-content'),
  };
}
