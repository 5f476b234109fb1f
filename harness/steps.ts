/**
 * Steps the semantic suites share: creating sandbox content with the contract's own operations. Each
 * `...Step` relies on its operation succeeding (t.must): if it does not, the test ends with a step
 * finding. Inside a property, `attempt` tries an operation and hands its step finding back instead,
 * so that fast-check shrinks the case and records only the smallest.
 */
import type { File, Folder, ResponseOf } from '../schemas/types.ts';
import { SetupError, idOf, stepFinding, type CallSpec, type OperationId } from './api.ts';
import { isRefusal, type Finding } from './checks.ts';
import { flag, listOf } from './records.ts';
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

/**
 * Creates folders by name below their parents (parents first; a parent null: below `top`) and returns the tree as created
 * (children ids per folder id) and the ids by name.
 */
export async function createTreeStep(
  t: ConformanceContext,
  top: number,
  layout: [name: string, parent: string | null][],
): Promise<{ model: Map<number, number[]>; ids: Map<string, number> }> {
  const ids = new Map<string, number>();
  const model = new Map<number, number[]>();
  for (const [name, parent] of layout) {
    const mother = parent === null ? top : ids.get(parent)!;
    const folder = await createFolderStep(t, mother, name);
    ids.set(name, folder.id!);
    model.set(mother, [...(model.get(mother) ?? []), folder.id!]);
  }
  return { model, ids };
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

// ---- channel steps ----------------------------------------------------------------------------

/** A folder or a file, as the channel steps name what they localize, unlocalize or push. */
export type ChannelKind = 'folder' | 'file';

/**
 * The fixture's channel. A target file declaring multichannelling names it (harness/target.ts checks); where a test of another
 * feature asks without one, its step fails.
 */
export function channelOf(t: ConformanceContext): number {
  const id = t.fixture.channelNodeId;
  if (id !== undefined) return id;
  throw new SetupError('the target declares multichannelling but its fixture names no channelNodeId');
}

/**
 * POST /folder/localize with the file form's body, `{channelId}`, and where that is refused (below 500) with `{nodeId}`, the
 * member other forms name a node with (ObjectMoveRequest, FolderCreateRequest): the folder form's fields are "not shown"
 * (4.2; open choice folder-localize-body). The last try's exchange and problem.
 */
export async function tryFolderLocalize(t: ConformanceContext, id: number, channel: number | undefined) {
  const first = await t.try('folder.localize', { path: { id }, json: { channelId: channel } });
  if (!first.problem || !refusedBody(first.exchange)) return first;
  return t.try('folder.localize', { path: { id }, json: { nodeId: channel } });
}

/** Whether a folder localize was refused as the open choice folder-localize-body lets a server refuse the bodies it was sent. */
export const refusedBody = (exchange: Exchange): boolean => isRefusal(exchange) && (exchange.response?.status ?? 0) < 500;

/**
 * Localizes a folder or file in a channel (contract 3: "target channel given in the body"); relies on it succeeding. A
 * folder whose bodies are both refused (tryFolderLocalize) ends the test with nothing to judge.
 */
export async function localizeStep(t: ConformanceContext, kind: ChannelKind, id: number, channel: number): Promise<void> {
  if (kind === 'file') {
    await t.must('file.localize', { path: { id }, json: { channelId: channel } });
    return;
  }
  const { exchange, problem } = await tryFolderLocalize(t, id, channel);
  if (problem && refusedBody(exchange))
    throw new SetupError(`folder.localize refused the bodies {channelId} and {nodeId}`, exchange, 'folder-localize-body');
  if (problem) throw new SetupError(stepFinding(t.requirement, 'folder.localize', exchange, problem).message, exchange);
}

/**
 * The id under which a channel's listing shows its localized copy of a master object: a record of the master's
 * name with an id of its own, else the master's id where the record does not say inherited (a copy may keep its
 * master's id); undefined when the listing shows none. The copy is told by its id, not by `inherited`: what a
 * copy says there is open (open choice localized-copy-inherited).
 */
export function copyIn(records: readonly { id?: unknown; name?: unknown; inherited?: unknown }[], master: { id: number; name: string }) {
  const named = records.filter((r) => r.name === master.name && typeof r.id === 'number');
  const own = named.find((r) => r.id !== master.id);
  if (own) return own.id as number;
  return named.some((r) => r.id === master.id && !flag(r, 'inherited')) ? master.id : undefined;
}

/**
 * The folders or files a channel lists in a folder (getFolders or getFiles in the channel's view), an absent list read as
 * empty; relied on (t.call: a refusal is a step finding) or only tried.
 */
async function channelRecords(t: ConformanceContext, kind: ChannelKind, parent: number, channel: number, relied: boolean) {
  const send = relied ? t.call.bind(t) : t.try.bind(t);
  const listed =
    kind === 'folder'
      ? await send('folder.getFolders', { path: { id: parent }, query: { nodeId: channel } })
      : await send('folder.getFiles', { path: { folderId: parent }, query: { nodeId: channel } });
  return { exchange: listed.exchange, records: listOf<Folder | File>(listed.body, kind === 'folder' ? 'folders' : 'files') };
}

/** The id of the copy of a master object a channel lists in a folder (copyIn), only tried: undefined where it lists none. */
export async function listedCopy(
  t: ConformanceContext,
  kind: ChannelKind,
  parent: number,
  master: { id: number; name: string },
  channel: number,
): Promise<number | undefined> {
  return copyIn((await channelRecords(t, kind, parent, channel, false)).records, master);
}

/** The id of the localized copy a channel lists of a master object in a folder (getFolders or getFiles in the channel's view). */
export async function copyIdStep(
  t: ConformanceContext,
  kind: ChannelKind,
  parent: number,
  master: { id: number; name: string },
  channel: number,
): Promise<number> {
  const listed = await channelRecords(t, kind, parent, channel, true);
  const copy = copyIn(listed.records, master);
  if (copy === undefined)
    throw new SetupError(
      `after localizing ${kind} ${master.id} ("${master.name}"), channel ${channel} lists no localized copy of it ` +
        '(a record of its name with an id of its own, or its id no longer inherited)',
      listed.exchange,
    );
  return copy;
}

/** The outcome of an operation tried with several ids in turn: the id that succeeded (undefined when every one was refused). */
export interface EitherId {
  id?: number;
  exchange: Exchange;
  /** Why the last id tried did not succeed, when none did. */
  problem?: string;
}

/**
 * Sends an operation that may name its object by the master's id (the channel in the body) or by the localized
 * copy's own id (unlocalize, push2master: open choices unlocalize-id and push2master-id), with each id in turn
 * until one succeeds: a refusal of one form is no finding, for a server may take either. Refused with every
 * id, the caller decides what that means.
 */
export async function eitherIdStep(
  t: ConformanceContext,
  operationId: 'file.unlocalize' | 'file.push2master',
  ids: readonly number[],
  json: Record<string, unknown>,
): Promise<EitherId> {
  let last: EitherId | undefined;
  for (const id of [...new Set(ids)]) {
    const { exchange, problem } = await t.try(operationId, { path: { id }, json });
    if (!problem) return { id, exchange };
    last = { exchange, problem };
  }
  return last!;
}

/** Why a test leaves part of its requirement unjudged when /file/unlocalize refuses a folder by either id. */
export const NO_FOLDER_UNLOCALIZE =
  "POST /file/unlocalize takes no folder here, by its id nor by its copy's (open choice unlocalize-folders)";

/**
 * Unlocalizes a localized object in a channel, the channel named in the body (contract 3: "localized object | POST
 * /file/unlocalize/{id} | channel given in the body | not localized in that channel"), by the master's id and by the copy's
 * own, in the order `first` says (the master's unless told): a target may take either (open choice unlocalize-id), and a
 * refusal of one is no finding. `recursive` goes with a folder only. True when one id was taken; refused by both, false: for
 * a folder that is the open choice unlocalize-folders (said once), for a file a step finding.
 */
export async function unlocalizeStep(
  t: ConformanceContext,
  kind: ChannelKind,
  ids: { master: number; copy: number },
  channel: number,
  options: { recursive?: boolean; types?: readonly string[]; first?: 'master' | 'copy' } = {},
): Promise<boolean> {
  const { recursive, types, first = 'master' } = options;
  const done = await eitherIdStep(t, 'file.unlocalize', first === 'master' ? [ids.master, ids.copy] : [ids.copy, ids.master], {
    channelId: channel,
    ...(kind === 'folder' && recursive !== undefined ? { recursive } : {}),
    ...(types ? { types } : {}),
  });
  if (done.id !== undefined) return true;
  if (kind === 'folder') nothingToJudgeOnce(t, `${NO_FOLDER_UNLOCALIZE}: folder ${ids.master} stays localized`, done.exchange);
  else t.record([stepFinding(t.requirement, 'file.unlocalize', done.exchange, `by the master's id and by the copy's: ${done.problem}`)]);
  return false;
}

/** Why a test cannot judge what a channel's own objects do: the target refuses to create them in a folder the channel inherits. */
export const NO_CHANNEL_CREATE =
  'the target creates no folder or file of the channel in a folder the channel only inherits (open choice channel-create-in-inherited-folder)';

/**
 * Creates a folder, or a small text file, of a channel's own (nodeId = the channel) in a folder the channel sees and
 * returns its id and name; undefined when the target refuses, as it may where the folder is one the channel only
 * inherits (open choice channel-create-in-inherited-folder): the caller says what it then cannot judge.
 */
export async function tryCreateInChannelStep(
  t: ConformanceContext,
  kind: ChannelKind,
  parent: number,
  name: string,
  channel: number,
  data = `${name}\n`,
): Promise<{ id: number; name: string } | undefined> {
  const made =
    kind === 'folder'
      ? await t.try('folder.create', { json: { motherId: String(parent), name, nodeId: channel } })
      : await t.try('file.create.multipart', {
          multipart: {
            fields: { folderId: String(parent), fileName: name, nodeId: String(channel) },
            files: [{ name: 'fileBinaryData', filename: name, contentType: 'text/plain', data: new TextEncoder().encode(data) }],
          },
        });
  if (!made.body) return undefined;
  const record = (made.body as { folder?: Folder; file?: File })[kind];
  const id = idOf(record?.id);
  if (id === undefined) throw new SetupError(`${kind} create in channel ${channel} answered without a ${kind} id`, made.exchange);
  return { id, name: typeof record?.name === 'string' ? record.name : name };
}

/** The lacks a test has said it could not judge, so that a property or a sequence says each once. */
const saidNothing = new WeakMap<ConformanceContext, Set<string>>();

/** Says once per test that it had nothing to judge for this lack (t.nothingToJudge), however many cases meet it. */
export function nothingToJudgeOnce(t: ConformanceContext, lacking: string, exchange?: Exchange): void {
  let said = saidNothing.get(t);
  if (!said) saidNothing.set(t, (said = new Set()));
  if (said.has(lacking)) return;
  said.add(lacking);
  t.nothingToJudge(lacking, exchange);
}

/**
 * Takes back a localization a test made, so that nothing it leaves in the sandbox stays localized for the suite
 * files that list after it: unlocalizes by the master's id, else by the copy's as the channel lists it (recursively
 * for a folder, whose copies below go too). Best effort: a refusal is no finding here.
 */
export async function undoLocalizeStep(
  t: ConformanceContext,
  kind: ChannelKind,
  parent: number,
  master: { id: number; name: string },
  channel: number,
): Promise<void> {
  const json = { channelId: channel, ...(kind === 'folder' ? { recursive: true } : {}) };
  if (!(await t.try('file.unlocalize', { path: { id: master.id }, json })).problem) return;
  const copy = await listedCopy(t, kind, parent, master, channel);
  if (copy !== undefined && copy !== master.id) await t.try('file.unlocalize', { path: { id: copy }, json });
}
