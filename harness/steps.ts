/**
 * Steps the semantic suites share: creating sandbox content with the contract's own operations. Each
 * `...Step` relies on its operation succeeding (t.must): if it does not, the test ends with a step
 * finding. Inside a property, `attempt` tries an operation and hands its step finding back instead,
 * so that fast-check shrinks the case and records only the smallest.
 */
import type { File, Folder, ResponseOf } from '../schemas/types.ts';
import { SetupError, idOf, stepFinding, type CallSpec, type OperationId } from './api.ts';
import type { Finding } from './checks.ts';
import { createFolder } from './sandbox.ts';
import type { ConformanceContext } from './suite.ts';
import type { Exchange } from './transport.ts';

/** Creates a folder named `name` under `motherId` in the test's sandbox (master view unless nodeId) and returns its record. */
export function createFolderStep(
  t: ConformanceContext,
  motherId: number,
  name: string,
  extra: { nodeId?: number; description?: string; failOnDuplicate?: boolean; startpage?: boolean; templateId?: number } = {},
): Promise<Folder & { id: number }> {
  return createFolder((spec) => t.send(spec, 'folder.create'), motherId, name, extra);
}

/** Uploads bytes as a new file into a folder (multipart create, data part `fileBinaryData`) and returns the file record. */
export async function uploadFileStep(
  t: ConformanceContext,
  folderId: number,
  name: string,
  data: Uint8Array | string,
  contentType = 'application/octet-stream',
  extra: Record<string, string> = {},
): Promise<File> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const body = await t.must('file.create.multipart', {
    multipart: {
      fields: { folderId: String(folderId), fileName: name, ...extra },
      files: [{ name: 'fileBinaryData', filename: name, contentType, data: bytes }],
    },
  });
  const id = idOf(body.file?.id);
  if (!body.file || id === undefined) throw new SetupError(`file.create answered without a file id`);
  return { ...body.file, id };
}

/** Creates `count` files named by `nameOf(i)` in a folder, in parallel batches, and returns their records in index order. */
export async function uploadManyStep(
  t: ConformanceContext,
  folderId: number,
  count: number,
  nameOf: (i: number) => string,
  dataOf: (i: number) => Uint8Array | string = (i) => `file ${i}\n`,
): Promise<File[]> {
  const files: File[] = [];
  const batch = 8;
  for (let start = 0; start < count; start += batch) {
    const ids = Array.from({ length: Math.min(batch, count - start) }, (_, k) => start + k);
    files.push(...(await Promise.all(ids.map((i) => uploadFileStep(t, folderId, nameOf(i), dataOf(i))))));
  }
  return files;
}

/**
 * The id of the requesting user (whom iscreator, iseditor and ispublisher mean): the creator of a folder
 * the test creates; undefined, said as nothing to judge, where the target's records show no creator id.
 */
export async function requestingUserStep(t: ConformanceContext): Promise<number | undefined> {
  const folder = await t.folder();
  const me = (await t.must('folder.load', { path: { id: folder } })).folder?.creator?.id;
  if (me === undefined) t.nothingToJudge('a folder the test created shows no creator id: the requesting user is unknown');
  return me;
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

/** An operation tried inside a property: the typed body, or the step finding saying why there is none. */
export interface Attempt<T> {
  exchange: Exchange;
  body?: T;
  findings: Finding[];
}

/**
 * Tries an operation and returns its body or its step finding, without recording it: inside a
 * property the findings go back to fast-check, which shrinks the case and records the smallest.
 */
export async function attempt<K extends OperationId>(
  t: ConformanceContext,
  operationId: K,
  spec: CallSpec = {},
): Promise<Attempt<ResponseOf[K]>> {
  const { exchange, body, problem } = await t.try(operationId, spec);
  if (!body) return { exchange, findings: [stepFinding(t.requirement, operationId, exchange, problem ?? '')] };
  return { exchange, body, findings: [] };
}

/** The files of a folder (getFiles, all of them), as an attempt. */
export async function filesOf(t: ConformanceContext, folderId: number): Promise<Attempt<File[]>> {
  const listed = await attempt(t, 'folder.getFiles', { path: { folderId }, query: { maxItems: -1 } });
  return { ...listed, body: listed.body ? (listed.body.files ?? []) : undefined };
}

/** A file record as the model compares it, for messages. */
export function fileSummary(f: File | undefined): string {
  return f ? `{id ${f.id}, name ${JSON.stringify(f.name)}, folderId ${f.folderId}, fileSize ${f.fileSize}}` : 'no file';
}
