/**
 * Reading the target's own fixture, which the suite did not create and never changes: the folders
 * below a root (without the sandboxes) and the fixture folders holding files. Each is read once per
 * suite file by its first test that asks, through that test's judged calls (the same test in every
 * run, see PerRun); a failed read ends that test with its step finding and is tried again by the next
 * test that asks.
 */
import type { Feature } from '../schemas/target.ts';
import type { File, Folder } from '../schemas/types.ts';
import { subtreeIds } from './steps.ts';
import { PerRun, makeShared, useShared, type ConformanceContext } from './suite.ts';

/** Whether the target declares a feature (for checks inside a test that only some targets can answer). */
export function hasFeature(t: ConformanceContext, feature: Feature): boolean {
  return t.config.target.features.includes(feature);
}

/** The fixture's folders below one root in one view. */
export interface FixtureTree {
  /** The folder records below the root, without the sandboxes, each once. */
  folders: Folder[];
  /** Their ids and the root's. */
  ids: Set<number>;
}

const trees = new PerRun<Map<string, Promise<FixtureTree>>>();

/**
 * The target's own folders under `root` in the view of `nodeId`, without the sandboxes: tests that
 * read the fixture tree-wide skip those, since other tests create, copy and delete files there while
 * they read. The root's sub-folders are listed, then each one's descendants, so the sandbox parent's
 * subtree is never read; when the sandbox parent is the root itself, only the run's sandbox is left out.
 * Folders created after this reading are not in it, so their files are skipped too.
 */
export function fixtureTree(t: ConformanceContext, root: number, nodeId?: number): Promise<FixtureTree> {
  const key = `${root}|${nodeId ?? ''}`;
  const run = trees.get(() => new Map());
  const known = run.get(key);
  if (known) return useShared(known);
  const tree = makeShared(async () => {
    const sandboxes = [t.config.sandboxFolderId, ...(t.fixture.sandboxParentFolderId === root ? [] : [t.fixture.sandboxParentFolderId])];
    const view = nodeId === undefined ? {} : { nodeId };
    const top = (await t.must('folder.getFolders', { path: { id: root }, query: { maxItems: -1, ...view } })).folders ?? [];
    const all = top.filter((f) => f.id === undefined || !sandboxes.includes(f.id));
    for (const f of [...all]) {
      if (f.id !== undefined)
        all.push(
          ...((await t.must('folder.getFolders', { path: { id: f.id }, query: { recursive: true, maxItems: -1, ...view } })).folders ?? []),
        );
    }
    const sandboxed = subtreeIds(all, sandboxes);
    const seen = new Set<number>();
    const folders = all.filter((f) => f.id !== undefined && !sandboxed.has(f.id) && !seen.has(f.id) && Boolean(seen.add(f.id)));
    return { folders, ids: new Set([root, ...seen]) };
  });
  run.set(key, tree);
  tree.catch(() => run.delete(key));
  return tree;
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
