/**
 * Steps the semantic suites share: creating sandbox content with the contract's own operations. Each
 * step relies on its operation succeeding (t.must): if it does not, the test ends with a step finding.
 */
import type { File, Folder } from '../schemas/types.ts';
import { idOf } from './api.ts';
import { StepFailed, type ConformanceContext } from './suite.ts';

/** Creates a folder named `name` under `motherId` (master view unless nodeId) and returns its record. */
export async function createFolderStep(t: ConformanceContext, motherId: number, name: string, extra: { nodeId?: number; description?: string; failOnDuplicate?: boolean } = {}): Promise<Folder> {
  const body = await t.must('folder.create', { json: { motherId: String(motherId), name, ...extra } });
  const id = idOf(body.folder?.id);
  if (!body.folder || id === undefined) throw new StepFailed(`folder.create answered without a folder id`);
  return { ...body.folder, id };
}

/** Uploads bytes as a new file into a folder (multipart create, data part `fileBinaryData`) and returns the file record. */
export async function uploadFileStep(t: ConformanceContext, folderId: number, name: string, data: Uint8Array | string, contentType = 'application/octet-stream', extra: Record<string, string> = {}): Promise<File> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const body = await t.must('file.create.multipart', {
    multipart: { fields: { folderId: String(folderId), fileName: name, ...extra }, files: [{ name: 'fileBinaryData', filename: name, contentType, data: bytes }] },
  });
  const id = idOf(body.file?.id);
  if (!body.file || id === undefined) throw new StepFailed(`file.create answered without a file id`);
  return { ...body.file, id };
}

/** Creates `count` files named by `nameOf(i)` in a folder, in parallel batches, and returns their records in index order. */
export async function uploadManyStep(t: ConformanceContext, folderId: number, count: number, nameOf: (i: number) => string, dataOf: (i: number) => Uint8Array | string = (i) => `file ${i}\n`): Promise<File[]> {
  const files: File[] = [];
  const batch = 8;
  for (let start = 0; start < count; start += batch) {
    const ids = Array.from({ length: Math.min(batch, count - start) }, (_, k) => start + k);
    files.push(...(await Promise.all(ids.map((i) => uploadFileStep(t, folderId, nameOf(i), dataOf(i))))));
  }
  return files;
}

/** Deletes a folder the test created (in the master view unless nodeId); relies on the delete succeeding. */
export async function deleteFolderStep(t: ConformanceContext, id: number, nodeId?: number): Promise<void> {
  await t.must('folder.delete', { path: { id }, ...(nodeId ? { query: { nodeId } } : {}) });
}

/** The ids of `roots` and of every folder below them, from a recursive listing's `motherId` links. */
export function subtreeIds(folders: readonly { id?: number; motherId?: number }[], roots: readonly number[]): Set<number> {
  const children = new Map<number, number[]>();
  for (const f of folders) {
    if (typeof f.id !== 'number' || typeof f.motherId !== 'number') continue;
    children.set(f.motherId, [...(children.get(f.motherId) ?? []), f.id]);
  }
  const out = new Set<number>();
  const queue = [...roots];
  while (queue.length) {
    const id = queue.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    queue.push(...(children.get(id) ?? []));
  }
  return out;
}

/**
 * The target's own folders under `root` in the view of `nodeId`, without the sandboxes: tests that
 * read the fixture tree-wide skip those, since other tests create, copy and delete files there while
 * they read. Folders created after this listing are not in it, so their files are skipped too.
 */
export async function fixtureFoldersStep(t: ConformanceContext, root: number, nodeId?: number): Promise<Set<number>> {
  const body = await t.must('folder.getFolders', { path: { id: root }, query: { recursive: true, maxItems: -1, ...(nodeId ? { nodeId } : {}) } });
  const folders = body.folders ?? [];
  const sandbox = subtreeIds(folders, [t.config.sandboxFolderId, ...(t.fixture.sandboxParentFolderId === root ? [] : [t.fixture.sandboxParentFolderId])]);
  return new Set([...subtreeIds(folders, [root])].filter((id) => !sandbox.has(id)));
}
