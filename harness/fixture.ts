/**
 * Reading the target's own fixture, which the suite did not create and never changes: the folders
 * below a root (without the sandboxes) and the fixture folders holding files. Each is read once per
 * suite file by its first test that asks, through that test's judged calls (the same test in every
 * run, see PerRun); a failed read ends that test with its step finding and is tried again by the next
 * test that asks.
 */
import type { Feature } from '../schemas/target.ts';
import type { File, Folder } from '../schemas/types.ts';
import { PerRun, makeShared, useShared, type ConformanceContext } from './suite.ts';

/** Whether the target declares a feature (for checks inside a test that only some targets can answer). */
export function hasFeature(t: ConformanceContext, feature: Feature): boolean {
  return t.config.target.features.includes(feature);
}

/** The fixture's folders below one root in one view. */
export interface FixtureTree {
  /** The folder records below the root, without the sandboxes, each once, shallower ones first. */
  folders: Folder[];
  /** Their ids and the root's. */
  ids: Set<number>;
  /**
   * The folder each was listed in, by id: its mother as the listings show it. Read from the listings, not from
   * `motherId`, which a record may leave out (contract 2.1: required/optional flags of such records are not shown).
   */
  parentOf: ReadonlyMap<number, number>;
  /**
   * The folders holding the sandbox parent (its ancestors, and the root when it holds it): their recursive
   * listings and counts reach the objects other tests create and delete while a test reads them.
   */
  holdingSandbox: ReadonlySet<number>;
  /** Folders whose sub-folders the reading did not list, the limit reached: what lies below them is not known. */
  unread: ReadonlySet<number>;
}

/** How many folders a reading of the tree lists at most: a vendor's fixture may hold thousands. */
const TREE_LIMIT = 400;

const trees = new PerRun<Map<string, Promise<FixtureTree>>>();

/**
 * The target's own folders under `root` in the view of `nodeId`, without the sandboxes: tests that
 * read the fixture tree-wide skip those, since other tests create, copy and delete files there while
 * they read. Each folder's sub-folders are listed (getFolders without recursive, which lists "only the
 * folder itself": FLT-06), level by level, so the tree is known from the listings alone and the
 * sandbox parent's subtree is never read; when the sandbox parent is the root itself, only the run's
 * sandbox is left out. Folders created after this reading are not in it, so their files are skipped too.
 */
export function fixtureTree(t: ConformanceContext, root: number, nodeId?: number): Promise<FixtureTree> {
  const key = `${root}|${nodeId ?? ''}`;
  const run = trees.get(() => new Map());
  const known = run.get(key);
  if (known) return useShared(known);
  const tree = makeShared(async () => {
    const parent = t.fixture.sandboxParentFolderId;
    const sandboxes = new Set([t.config.sandboxFolderId, ...(parent === root ? [] : [parent])]);
    const view = nodeId === undefined ? {} : { nodeId };
    const folders: Folder[] = [];
    const parentOf = new Map<number, number>();
    let holder: number | undefined = parent === root ? root : undefined;
    const queue = [root];
    while (queue.length && folders.length < TREE_LIMIT) {
      const mother = queue.shift()!;
      const listed = (await t.must('folder.getFolders', { path: { id: mother }, query: { maxItems: -1, ...view } })).folders ?? [];
      for (const f of listed) {
        if (typeof f.id !== 'number' || f.id === root || parentOf.has(f.id)) continue;
        if (f.id === parent) holder = mother;
        if (sandboxes.has(f.id)) continue;
        folders.push(f);
        parentOf.set(f.id, mother);
        // A folder that says it has no sub-folders is not listed; one that does not say is.
        if (f.hasSubfolders !== false) queue.push(f.id);
      }
    }
    const holdingSandbox = new Set<number>();
    if (holder !== undefined) for (let id: number | undefined = holder; id !== undefined; id = parentOf.get(id)) holdingSandbox.add(id);
    else {
      // Not reached within the limit: the sandbox parent's breadcrumb names its ancestors, in whichever order.
      const crumbs = await t.try('folder.breadcrumb', { path: { id: parent } });
      for (const f of crumbs.body?.folders ?? []) if (typeof f.id === 'number' && f.id !== parent) holdingSandbox.add(f.id);
    }
    return { folders, ids: new Set([root, ...parentOf.keys()]), parentOf, holdingSandbox, unread: new Set(queue) };
  });
  run.set(key, tree);
  tree.catch(() => run.delete(key));
  return tree;
}

/** The ids of the folders below `id` in a fixture tree (the folder itself not included); see `unread` for what may lie beyond. */
export function descendantsOf(tree: FixtureTree, id: number): number[] {
  const children = new Map<number, number[]>();
  for (const [child, mother] of tree.parentOf) children.set(mother, [...(children.get(mother) ?? []), child]);
  const out: number[] = [];
  const queue = [...(children.get(id) ?? [])];
  while (queue.length) {
    const next = queue.shift()!;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

/** The fixture's folders in the master view: every folder below the master root, without the sandboxes. */
export async function fixtureFolders(t: ConformanceContext): Promise<Folder[]> {
  return (await fixtureTree(t, t.fixture.masterRootFolderId)).folders;
}

const fileFolders = new PerRun<Promise<{ folderId: number; files: File[] }[]>>();

/** Fixture folders that hold files (of the first 40 fixture folders), with their files (master view, unfiltered), most files first. */
export function fixtureFileFolders(t: ConformanceContext): Promise<{ folderId: number; files: File[] }[]> {
  return fileFolders.retrying(async () => {
    const out: { folderId: number; files: File[] }[] = [];
    // A bounded look: a vendor's fixture may hold thousands of folders.
    for (const f of (await fixtureFolders(t)).slice(0, 40)) {
      const files = (await t.must('folder.getFiles', { path: { folderId: f.id! } })).files ?? [];
      if (files.length) out.push({ folderId: f.id!, files });
    }
    return out.sort((a, b) => b.files.length - a.files.length);
  });
}

/** A fixture folder with files to filter and sort: the fullest one holding at most `max` files (else the smallest), so lists stay quick. */
export async function fixtureFileFolder(t: ConformanceContext, max = 60): Promise<{ folderId: number; files: File[] } | undefined> {
  const folders = await fixtureFileFolders(t);
  return folders.find((f) => f.files.length <= max) ?? folders.at(-1);
}
