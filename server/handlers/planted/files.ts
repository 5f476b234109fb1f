/**
 * The planted faults and variations of the file handlers (server/handlers/files.ts), one plan per handler.
 *
 * A handler asks for its plan once (`const plan = planted.saveFile(ctx.faults)`) and consults it at named points of
 * the contract's code: a hook takes the value the contract computed there and returns the one the handler goes on
 * with, or (a hook that returns nothing) may throw or change state where a fault does. With every switch off each
 * hook gives back what it was given and does nothing else, so the handler file reads as the contract, and this file,
 * which only ever differs from the contract, is left out of the mutation run (scripts/mutation).
 */
import { renameObject, reparent, type FileObj, type FolderObj, type Obj, type State, type TakenNames } from '../../state.ts';
import { Refusal, type FaultSet, type OpRequest } from '../../types.ts';
import { namesInFolder, qInt, type stagingStatus } from '../common.ts';
import { pageLegacy, type Paged, type SortKey } from '../listing.ts';
import { ownNames } from './uploads.ts';
import type { FileCopyRequest, FileSaveRequest } from '../../../schemas/types.ts';

/** Leaves members of a body unread: they are absent, as if never sent. */
function unread<T extends object>(b: T, ...members: (keyof T)[]): void {
  for (const m of members) delete b[m];
}

/** The hooks that choose the names a new, moved or renamed file must not take. */
export interface NamesPlan {
  /**
   * The names a file of `kind` must not take in `folder` for `nodeId` (`exceptSet` left out); the contract: `taken`,
   * those of files and images alike.
   */
  taken(taken: TakenNames, state: State, folder: FolderObj, nodeId: number, kind: 'file' | 'image', exceptSet?: number): TakenNames;
}

/** The names plan every handler that names a file shares. */
function names(faults: FaultSet): NamesPlan {
  return {
    // Variation (images-own-names): files and images have names of their own, so only the object's own kind holds names.
    taken: (taken, state, folder, nodeId, kind, exceptSet) => {
      const only = ownNames(kind, faults);
      return only ? namesInFolder(state, folder.channelSetId, [only], nodeId, exceptSet) : taken;
    },
  };
}

/** The hooks of the file listing GET /file and getFiles share (listedFiles, fileFilter, isUsed). */
export interface ListingPlan {
  /** Whether the listing is recursive. */
  recursive(recursive: boolean): boolean;
  /** The broken filter read. */
  broken(broken: boolean | undefined): boolean | undefined;
  /** The usedIn node ids read. */
  usedIn(ids: number[]): number[];
  /** Whether a usedIn id is taken as a node; the contract: when a node has it (`known`). */
  nodeKnown(known: boolean): boolean;
  /** The objects whose object tags count as uses of a file. */
  referrers(ids: Iterable<number>, state: State): Iterable<number>;
  /** Whether a referrer counts as a use; the contract: when it is `live` in one of the views. */
  live(live: boolean): boolean;
  /** Whether the listed records carry their folder. */
  folder(folder: boolean): boolean;
}

/** The listing's plan. */
function listing(faults: FaultSet): ListingPlan {
  return {
    // Planted: recursive is not read, so the folder's own files alone are listed.
    recursive: (recursive) => recursive && !faults.has('recursive-ignored'),
    // Planted: the broken filter is not read.
    broken: (broken) => (faults.has('getfiles-broken-filter-ignored') ? undefined : broken),
    // Planted: used checks the current channel alone, as if usedIn were not given.
    usedIn: (ids) => (faults.has('usedin-ignored') ? [] : ids),
    // Planted: a usedIn naming no node reaches viewOf, which throws.
    nodeKnown: (known) => faults.has('usedin-unknown-500') || known,
    // Planted: only pages count as users, as in the page editor's "used in" view.
    referrers: (ids, state) =>
      faults.has('used-pages-only')
        ? [...ids].filter((id) => state.objects.get(id)?.kind === 'page')
        : // Planted: templates are not live anywhere (no folder of theirs is visible), so they use nothing.
          faults.has('templates-use-nothing')
          ? [...ids].filter((id) => state.objects.get(id)?.kind !== 'template')
          : ids,
    // Planted: used counts uses in every channel, not only in the views asked.
    live: (live) => faults.has('used-filter-all-channels') || live,
    // Planted: the file lists add no folder, as load does only.
    folder: (folder) => folder && !faults.has('file-lists-folder-ignored'),
  };
}

/** GET /file (fileList). */
export function fileList(faults: FaultSet): ListingPlan & {
  /** The sort attributes GET /file knows. */
  attributes(attributes: Record<string, SortKey>): Record<string, SortKey>;
} {
  return {
    ...listing(faults),
    attributes: (known) => {
      const attributes = { ...known };
      // Planted: the URL attributes missing from the sort map, so they are ignored as unknown.
      if (faults.has('file-sort-urls-ignored')) {
        delete attributes.niceUrl;
        delete attributes.alternateUrls;
      }
      // Planted: the size read from the binary data, which a broken file lacks: sorting by size fails on it.
      if (faults.has('filesize-sort-broken-fails'))
        attributes.fileSize = (o: Obj) => (o.kind === 'file' || o.kind === 'image' ? o.data!.length : undefined);
      return attributes;
    },
  };
}

/** GET /folder/getFiles/{folderId} (getFiles). */
export function getFiles(faults: FaultSet): ListingPlan & {
  /** The page answered of the `sorted` files; the contract: `paged`, as the query asks. */
  paged<T>(paged: Paged<T>, req: OpRequest, sorted: readonly T[]): Paged<T>;
} {
  return {
    ...listing(faults),
    // Planted: findFiles' default page size where getFiles' default is every file.
    paged: (paged, req, sorted) =>
      faults.has('getfiles-default-maxitems-100') && req.rawQuery.maxItems === undefined
        ? pageLegacy(sorted, qInt(req, 'skipCount', 0), 100, faults)
        : paged,
  };
}

/** The hooks of GET /folder/findFiles. */
export interface FindFilesPlan {
  /** The page size when maxItems is absent. */
  defaultMaxItems(max: number): number;
  /** The skipCount read. */
  skipCount(skip: number): number;
  /** A found file's record as answered. */
  record<R extends object>(record: R): R;
}

/** GET /folder/findFiles (findFiles). */
export function findFiles(faults: FaultSet): FindFilesPlan {
  return {
    // Planted: a default page of 10 files instead of 100.
    defaultMaxItems: (max) => (faults.has('findfiles-default-maxitems-10') ? 10 : max),
    // Planted: skipCount is not read, so the answer starts at the first match.
    skipCount: (skip) => (faults.has('find-skipcount-ignored') ? 0 : skip),
    // Planted: the search answers from an index that stores no sizes.
    record: (record) => (faults.has('findfiles-filesize-zero') ? { ...record, fileSize: 0 } : record),
  };
}

/** A file's staging status as the load answers it. */
type StagingStatus = ReturnType<typeof stagingStatus>;

/** The hooks of GET /file/load/{id}. */
export interface LoadFilePlan {
  /** The stagingStatus answered for `file`. */
  stagingStatus(status: StagingStatus, file: FileObj): StagingStatus | Record<string, StagingStatus>;
}

/** GET /file/load/{id} (loadFile). */
export function loadFile(faults: FaultSet): LoadFilePlan {
  return {
    // Planted: the load answers stagingStatus in the shape of the list answers, a map from the file's id to its status.
    stagingStatus: (status, file) => (faults.has('load-stagingstatus-as-map') ? { [String(file.id)]: status } : status),
  };
}

/** The hooks of POST /file/copy. */
export interface CopyFilePlan extends NamesPlan {
  /** The body as the handler reads it: a member a fault leaves unread is absent. */
  body(b: Partial<FileCopyRequest>): Partial<FileCopyRequest>;
  /** After the file's id is read (`byId`, undefined when the body names it otherwise). */
  identified(file: FileCopyRequest['file'] | undefined, byId: number | undefined): void;
  /** When the body names no target folder, before the copy goes to the source's folder. */
  noTarget(): void;
  /** Before the name `wanted` is made unique among `taken`. */
  naming(wanted: string, taken: TakenNames): void;
  /** After the copy is stored (and indexed as a user of what its tags name). */
  copied(copy: FileObj, source: Obj, state: State): void;
  /** The success answered with the copy; the contract: true. */
  success(success: boolean): boolean;
}

/** POST /file/copy (copyFile). */
export function copyFile(faults: FaultSet): CopyFilePlan {
  return {
    ...names(faults),
    // Planted (copy-success-false): the copy is made and answered, with success false.
    success: (success) => success && !faults.has('copy-success-false'),
    body: (sent) => {
      const b = { ...sent };
      // Planted: newFilename is not read, so the copy keeps the source's name.
      if (faults.has('copy-ignores-newfilename')) unread(b, 'newFilename');
      return b;
    },
    identified: (file, byId) => {
      // Planted: a file named by its globalId alone is read as if the globalId were a record, which throws.
      if (byId === undefined && file?.globalId !== undefined && faults.has('copy-globalid-500'))
        throw new TypeError(`Cannot use 'in' operator to search for 'id' in ${String(file.globalId)}`);
    },
    noTarget: () => {
      // Planted: the target folder's id is read from a body without one, which throws.
      if (faults.has('copy-without-target-500')) throw new TypeError("Cannot read properties of undefined (reading 'id')");
      // Variation copy-needs-target: the contract does not say where a copy without a target goes.
      if (faults.has('copy-needs-target'))
        throw new Refusal('INVALIDDATA', 'targetFolder: the folder to copy into is required', 'targetFolder');
    },
    naming: (wanted, taken) => {
      // Variation copy-name-collision-refused: a name the target folder holds is refused instead of made unique.
      if (faults.has('copy-collision-refused') && taken.has(wanted.toLowerCase()))
        throw new Refusal('INVALIDDATA', `the target folder already holds a file named "${wanted}"`, 'newFilename');
    },
    copied: (copy, source, state) => {
      // Planted: the copy is left out of the usage index, so it uses nothing its tags name.
      if (faults.has('copy-uses-nothing')) for (const refs of state.referrers.values()) refs.delete(copy.id);
      // Planted: the copy is dated in milliseconds, every other timestamp in seconds.
      if (faults.has('copy-dated-in-milliseconds')) [copy.cdate, copy.edate] = [copy.cdate * 1000, copy.edate * 1000];
      // Planted (copy-keeps-master): the copy of a localized file keeps its master, as if it were a localized copy itself.
      if (faults.has('copy-keeps-master') && source.masterId !== undefined) copy.masterId = source.masterId;
      // Planted: the copy's tags lose their ids, as a tag table copied without its key would.
      if (faults.has('copied-tag-ids-lost')) for (const tag of copy.tags ?? []) tag.id = Number.NaN;
    },
  };
}

/** How a file is put into another folder, or renamed: the contract's state change, or what a fault makes of it. */
type Move = typeof reparent;
/** See Move. */
type Rename = typeof renameObject;

/** The hooks of POST /file/move/{id}. */
export interface MoveFilePlan extends NamesPlan {
  /** When the target is the file's own folder (`folderId`), before the move is answered as done. */
  sameFolder(folderId: number): void;
  /** The state change that moves `file`; the contract: `move`. */
  move(move: Move, file: FileObj): Move;
  /** The refusal of a target folder the file's own node does not see; the contract: it is thrown. */
  unseenTarget(refusal: Refusal): void;
}

/** POST /file/move/{id} (moveFile). */
export function moveFile(faults: FaultSet): MoveFilePlan {
  return {
    ...names(faults),
    sameFolder: (folderId) => {
      // Variation move-same-folder-refused: "move a file to another folder", and this one is not another.
      if (faults.has('move-same-folder-refused')) throw new Refusal('INVALIDDATA', `the file is already in folder ${folderId}`, 'folderId');
    },
    move: (move, file) =>
      // Planted (move-localized-file-fails): moving a file a channel has localized fails inside the server.
      faults.has('move-localized-file-fails')
        ? (state, set, target) => {
            if ((state.sets.get(set) ?? []).length > 1) throw new Error(`channel set ${set} has several variants`);
            move(state, set, target);
          }
        : faults.has('move-keeps-old-listing')
          ? // The planted fault lists the file in the new folder without taking it out of the old one.
            (state, set, target) => {
              state.children.get(target)?.[file.kind].add(set);
            }
          : move,
    unseenTarget: (refusal) => {
      // Planted (move-strands-master-file): a move through a channel carries a master's file into a folder of the channel only.
      if (!faults.has('move-strands-master-file')) throw refusal;
    },
  };
}

/** The members of a file a save reads. */
type SavedFields = {
  name?: string;
  description?: string;
  niceUrl?: string;
  alternateUrls?: string[];
  fileType?: string;
  forceOnline?: boolean;
};

/** The hooks of POST /file/save/{id}. */
export interface SaveFilePlan extends NamesPlan {
  /** The body as the handler reads it: a member a fault leaves unread is absent. */
  body(b: Partial<FileSaveRequest>): Partial<FileSaveRequest>;
  /** The members of the file read from the body, as the handler goes on with them. */
  fields<F extends SavedFields>(f: F): F;
  /** Before a taken name (`wanted`) is refused. */
  refusing(state: State, file: FileObj, wanted: string): void;
  /** Before the name `wanted` is made unique among `taken`. */
  naming(wanted: string, taken: TakenNames): void;
  /** The state change that renames the file; the contract: `rename`. */
  rename(rename: Rename): Rename;
  /** After the members read (`f`) are stored into `file`. */
  stored(file: FileObj, f: SavedFields): void;
}

/** POST /file/save/{id} (saveFile). */
export function saveFile(faults: FaultSet): SaveFilePlan {
  return {
    ...names(faults),
    body: (sent) => {
      const b = { ...sent };
      // Planted: failOnDuplicate is not read, so a taken name is always made unique.
      if (faults.has('save-failonduplicate-ignored')) unread(b, 'failOnDuplicate');
      return b;
    },
    fields: (read) => {
      const f = { ...read };
      // Variation save-requires-name: the file of the body is taken as the whole record, which names the file.
      if (f.name === undefined && faults.has('save-requires-name'))
        throw new Refusal('INVALIDDATA', 'file.name: the file saved must carry its name', 'file.name');
      // Planted: the description is read from the request but never stored.
      if (faults.has('save-description-dropped')) unread(f, 'description');
      // Variation save-ignores-nice-urls: the URLs are read from the request but not stored, as by a save that knows only
      // name and description (open choice save-nice-urls).
      if (faults.has('save-ignores-nice-urls')) unread(f, 'niceUrl', 'alternateUrls');
      // Variation save-keeps-file-type: the media type stays the one the content came with (open choice save-file-type).
      if (faults.has('save-keeps-file-type')) unread(f, 'fileType');
      // Planted (save-force-online-lost, with `stored`): forceOnline is read from the request but never stored.
      if (faults.has('save-force-online-lost')) unread(f, 'forceOnline');
      return f;
    },
    refusing: (state, file, wanted) => {
      // Planted: the name is stored before the duplicate is found, and the refusal does not undo it.
      if (faults.has('save-refused-name-kept')) renameObject(state, file, wanted);
    },
    naming: (wanted, taken) => {
      // Planted (save-collision-500): the numbering calls a helper the save path's index of names lacks.
      if (faults.has('save-collision-500') && taken.has(wanted.toLowerCase())) throw new TypeError('taken.firstSuffix is not a function');
    },
    // Planted (with the handlers' wrapper, index.ts): the rename marks nothing changed, so listings kept from before it
    // are answered again.
    rename: (rename) =>
      faults.has('kept-listing-after-change')
        ? (_state, obj, name) => {
            obj.name = name;
          }
        : rename,
    stored: (file, f) => {
      // Planted (save-force-online-lost): every save clears forceOnline, as one that takes its file as the whole record would.
      if (faults.has('save-force-online-lost')) file.forceOnline = false;
      // Planted: the alternate URLs given are dropped and those before with them, as a copy into an array never filled would.
      if (f.alternateUrls !== undefined && faults.has('save-empties-alternate-urls')) file.alternateUrls = [];
      // Planted: a save that gives no URLs clears them, as a save that takes its file as the whole record would.
      if (f.niceUrl === undefined && f.alternateUrls === undefined && faults.has('save-clears-unsent-urls')) {
        delete file.niceUrl;
        delete file.alternateUrls;
      }
    },
  };
}
