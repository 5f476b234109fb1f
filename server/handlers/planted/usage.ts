/**
 * The planted faults and variations of the usage handlers (server/handlers/usage.ts), one plan per handler.
 *
 * A handler asks for its plan once (`const plan = planted.usageFile(ctx.faults)`) and consults it at named points of
 * the contract's code: a hook takes the value the contract computed there and returns the one the handler goes on
 * with, or (a hook that returns nothing) may throw where a fault does. With every switch off each hook gives back what
 * it was given and does nothing else, so the handler file reads as the contract, and this file, which only ever
 * differs from the contract, is left out of the mutation run (scripts/mutation).
 */
import { referencedIds, type Obj, type State } from '../../state.ts';
import { Refusal, type FaultSet } from '../../types.ts';
import { pageLegacy, type Paged } from '../listing.ts';

/** The referrers lookup (referrersOf), shared by the usage lists and the file handlers that ask whether a file is used. */
export interface ReferrersPlan {
  /** The ids of the objects that refer to channel set `set`; the contract: those whose object tags do, `byObjectTags`. */
  referrers(byObjectTags: Set<number>, state: State, set: number): Iterable<number>;
}

/** The plan of referrersOf. */
export function referrers(faults: FaultSet): ReferrersPlan {
  return {
    referrers: (byObjectTags, state, set) => {
      // Variation (used-includes-content-tags): tags of any type make an object a user, content tags included.
      if (!faults.has('used-includes-content-tags')) return byObjectTags;
      const all = new Set(byObjectTags);
      for (const o of state.objects.values()) {
        const content = (o.tags ?? []).filter((t) => t.type === 'CONTENTTAG');
        if (referencedIds(content).some((id) => (state.objects.get(id)?.channelSetId ?? id) === set)) all.add(o.id);
      }
      return all;
    },
  };
}

/** A list of usage items cut to a page. */
type Page = Paged<Obj>;

/** The hooks of the usage list the three usage handlers share (usageList). */
export interface UsageListPlan {
  /** Whether an image's id among the given ids is refused; the contract: `filesOnly`. */
  filesOnly(filesOnly: boolean): boolean;
  /** The ids of the objects referring to a given file's channel set that are looked at. */
  referrers(ids: Iterable<number>): Iterable<number>;
  /** Whether a referring object is the given file itself (`self`), which does not use itself. */
  selfReference(self: boolean, ref: Obj, given: Set<number>): boolean;
  /** Whether a referring object is left out as deleted (`deleted`: it is in the view's wastebin). */
  deleted(deleted: boolean): boolean;
  /** A user found, once for each given file it uses. */
  user(ref: Obj): void;
  /** The users listed; the contract lists `users`, each once. */
  users(users: Obj[]): Obj[];
  /** The sortby value read. */
  sortby(sortby: string | undefined): string | undefined;
  /** The sorting of the list. */
  sort(sort: (items: readonly Obj[]) => Obj[]): (items: readonly Obj[]) => Obj[];
  /** The paging of the list. */
  page(page: (items: Obj[]) => Page): (items: Obj[]) => Page;
  /** The page answered; the contract: `paged`, the sorted list of `found` paged. */
  paged(paged: Page, found: Obj[], sort: (items: readonly Obj[]) => Obj[], page: (items: Obj[]) => Page): Page;
  /** The total answered; the contract: `total`, the count before paging. */
  total(total: number, paged: Page): number;
  /** Whether counts alone are answered; the contract: `countsOnly`, the list flag false. */
  countsOnly(countsOnly: boolean): boolean;
  /** The counts-only answer. */
  countsAnswer(answer: Record<string, unknown>): Record<string, unknown>;
}

/** The usage list's plan; `fileUsage`: for usage/file, whose own faults read its references. */
function usageList(faults: FaultSet, fileUsage: boolean): UsageListPlan {
  // Planted (usage-user-once-per-file): a user is listed once for each given file it uses (a join without distinct).
  const repeated: Obj[] = [];
  return {
    // Variation (usage-files-only): an image's id is refused too, the usage lists' `id` being "file IDs".
    filesOnly: (filesOnly) => faults.has('usage-files-only') || filesOnly,
    // Planted: references are read from the wrong index, which holds none, so no file has users (usage-finds-no-users), or
    // only usage/file reads it (usage-file-finds-no-files).
    referrers: (ids) => (faults.has('usage-finds-no-users') || (faults.has('usage-file-finds-no-files') && fileUsage) ? [] : ids),
    // Planted: the self-reference rule stretched to every given file, so a given file never counts as a user.
    selfReference: (self, ref, given) => self || (faults.has('usage-skips-given-users') && given.has(ref.channelSetId)),
    // Planted: the wastebin left out of the usage query.
    deleted: (deleted) => !faults.has('usage-lists-deleted-users') && deleted,
    user: (ref) => {
      repeated.push(ref);
    },
    users: (users) => (faults.has('usage-user-once-per-file') ? repeated : users),
    // Variation usage-sortby-name-only: the usage lists show only `sortby` (string, `name`); any other value falls back to it.
    sortby: (sortby) => (faults.has('usage-sortby-name-only') && sortby?.toLowerCase() !== 'name' ? undefined : sortby),
    sort: (sort) => sort,
    page: (page) => page,
    paged: (paged, found, sort, page) => {
      // Planted (usage-paged-before-sorting): the page is cut from the list in index order and only then sorted.
      if (!faults.has('usage-paged-before-sorting')) return paged;
      const early = page(found);
      return { ...early, items: sort(early.items) };
    },
    total: (total, paged) => (faults.has('usage-total-after-paging') ? paged.items.length : total),
    countsOnly: (countsOnly) => countsOnly && !faults.has('usage-counts-flag-ignored'),
    // Planted: the counts-only answer has its own serialisation path, which the fault misshapes.
    countsAnswer: (answer) => {
      // Planted (counts-only-more-items): the counts-only answer says more items exist, as a slice of none taken for a cut list.
      const more = faults.has('counts-only-more-items') ? { ...answer, hasMoreItems: true } : answer;
      return faults.has('shape-usage-counts-only') ? { ...more, numItems: String(more.numItems) } : more;
    },
  };
}

/** GET /file/usage/file (usageFile). */
export function usageFile(faults: FaultSet): UsageListPlan {
  return usageList(faults, true);
}

/** GET /file/usage/folder (usageFolder). */
export function usageFolder(faults: FaultSet): UsageListPlan {
  return usageList(faults, false);
}

/** GET /file/usage/page (usagePage). */
export function usagePage(faults: FaultSet): UsageListPlan {
  const plan = usageList(faults, false);
  // Variation usage-page-unsorted: the list takes no sorting or paging parameters and lists every user by id
  // (usage/page's "Parameters: not shown").
  if (!faults.has('usage-page-unsorted')) return plan;
  return {
    ...plan,
    sort: () => (items) => [...items].sort((a, b) => a.id - b.id),
    page: () => (items) => pageLegacy(items, 0, -1, faults),
  };
}

/** The hooks of syncableObjects, also consulted where it follows links (referencedObjects). */
export interface SyncableObjectsPlan {
  /** The srcNodeId read. */
  srcNodeId(srcNodeId: number | undefined): number | undefined;
  /** After the target channel is resolved (`destination`, dstNodeId). */
  destination(state: State, destination: number | undefined): void;
  /** Whether a linked folder is skipped; the contract: `folder`, it is one. */
  folderSkipped(folder: boolean): boolean;
  /** Whether a linked object is skipped as deleted; the contract: `deleted`, it is in the view's wastebin. */
  deletedLink(deleted: boolean): boolean;
  /** Whether a direct link is listed; the contract: `first`, its first occurrence in the list. */
  once(first: boolean): boolean;
  /** The direct links whose own links are followed. */
  followed(direct: Obj[]): Obj[];
  /** Whether a direct link is listed among the files; the contract: `file`, it is a file. */
  fileDependency(file: boolean, o: Obj): boolean;
  /** The images listed. */
  images<T extends Obj>(images: T[]): T[];
  /** haveDependencies; the contract: `have`, some indirect dependency is listed. */
  haveDependencies(have: boolean): boolean;
}

/** GET /file/usage/syncableObjects (syncableObjects). */
export function syncableObjects(faults: FaultSet): SyncableObjectsPlan {
  return {
    // Planted: the references resolved where the first file lives, whatever the source channel.
    srcNodeId: (srcNodeId) => (faults.has('syncable-srcnodeid-ignored') ? undefined : srcNodeId),
    destination: (state, destination) => {
      // Variation (syncable-dst-must-be-channel): "dstNodeId (int; target channel)" read as a channel, the master refused.
      if (faults.has('syncable-dst-must-be-channel') && destination && state.nodes.get(destination)?.masterId === undefined)
        throw new Refusal('INVALIDDATA', 'dstNodeId: the target must be a channel', 'dstNodeId');
    },
    // Planted: a folder link followed as if folders were linked objects.
    folderSkipped: (folder) => folder && !faults.has('syncable-folder-links-followed'),
    // Planted: the wastebin left out of the links followed.
    deletedLink: (deleted) => !faults.has('syncable-deleted-links-followed') && deleted,
    // Planted: a link shared by several given files is listed for each of them.
    once: (first) => faults.has('syncable-shared-links-repeated') || first,
    // Planted: only the direct links are followed, so no indirect dependency is reported.
    followed: (direct) => (faults.has('syncable-dependencies-dropped') ? [] : direct),
    // Variation syncable-images-in-files: the files member holds what is a file or an image, as one table of both would give.
    fileDependency: (file, o) => file || (faults.has('syncable-images-in-files') && o.kind === 'image'),
    // Planted (syncable-missing-images): the images member answered empty.
    images: (images) => (faults.has('syncable-missing-images') ? [] : images),
    // Planted: the flag set whatever the answer holds.
    haveDependencies: (have) => faults.has('syncable-dependencies-flag-set') || have,
  };
}
