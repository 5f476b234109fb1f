/**
 * The helpers of the multichannelling suite: the objects a test creates in its sandbox folder (inherited into
 * fixture.channelNodeId), the four listings of a folder's content in one view, and the localized copies a test takes back.
 */
import fc from 'fast-check';
import { uniqueFileName, uniqueFolderName } from '../../generators/requests.ts';
import { finding, type Finding } from '../../harness/checks.ts';
import { brief } from '../../harness/oracles.ts';
import { copyIdStep, createFolderStep, undoLocalizeStep, uploadFileStep } from '../../harness/steps.ts';
import type { ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { File, Folder, LocalizationInfoResponse } from '../../schemas/types.ts';

export type Kind = 'folder' | 'file';
export type Item = Folder | File;

/** One listing of a folder's content in one view: what was asked, the answer, the records. */
export interface Listing {
  what: string;
  kind: Kind;
  exchange: Exchange;
  items: Item[];
}

/** An object the test created: its kind, id and name as the target answered them. */
export interface Created {
  kind: Kind;
  id: number;
  name: string;
}

/** Distinct realistic names from the test's seed. */
export function namesFor(t: ConformanceContext, kind: Kind, count: number, salt = 0): string[] {
  return fc.sample(kind === 'folder' ? uniqueFolderName() : uniqueFileName(), { seed: t.seed + salt, numRuns: count });
}

/** Creates a folder or a small file in `parent` (in the master unless nodeId) and returns it. */
export async function create(
  t: ConformanceContext,
  kind: Kind,
  parent: number,
  name: string,
  nodeId?: number,
  data = `${name}\n`,
): Promise<Created> {
  const made =
    kind === 'folder'
      ? await createFolderStep(t, parent, name, nodeId === undefined ? {} : { nodeId })
      : await uploadFileStep(t, parent, name, data, 'text/plain', nodeId === undefined ? {} : { nodeId: String(nodeId) });
  return { kind, id: made.id!, name: made.name ?? name };
}

export const where = (nodeId: number | undefined) => (nodeId === undefined ? 'the master' : `channel ${nodeId}`);

/** The four listings of a folder's direct content (legacy and new-style, folders and files) in one view; undefined nodeId: the master's. */
export async function listings(t: ConformanceContext, folderId: number, nodeId?: number): Promise<Listing[]> {
  const view = nodeId === undefined ? {} : { nodeId };
  const out: Listing[] = [];
  const a = await t.call('folder.getFolders', { path: { id: folderId }, query: view });
  if (a.body)
    out.push({
      what: `GET /folder/getFolders/${folderId} in ${where(nodeId)}`,
      kind: 'folder',
      exchange: a.exchange,
      items: a.body.folders ?? [],
    });
  const b = await t.call('folder.list', { query: { folderId: String(folderId), ...view } });
  if (b.body)
    out.push({
      what: `GET /folder?folderId=${folderId} in ${where(nodeId)}`,
      kind: 'folder',
      exchange: b.exchange,
      items: b.body.items ?? [],
    });
  const c = await t.call('folder.getFiles', { path: { folderId }, query: view });
  if (c.body)
    out.push({
      what: `GET /folder/getFiles/${folderId} in ${where(nodeId)}`,
      kind: 'file',
      exchange: c.exchange,
      items: c.body.files ?? [],
    });
  const d = await t.call('file.list', { query: { folderId: String(folderId), ...view } });
  if (d.body)
    out.push({ what: `GET /file?folderId=${folderId} in ${where(nodeId)}`, kind: 'file', exchange: d.exchange, items: d.body.items ?? [] });
  return out;
}

/** The record named `name` in every listing of its kind; a finding for each listing that lacks it. */
export function listedIn(t: ConformanceContext, lists: Listing[], obj: Created, findings: Finding[]): { list: Listing; record: Item }[] {
  const out: { list: Listing; record: Item }[] = [];
  for (const list of lists.filter((l) => l.kind === obj.kind)) {
    const record = list.items.find((i) => i.name === obj.name);
    if (record) out.push({ list, record });
    else
      findings.push(
        finding(
          t.requirement,
          'model',
          `${obj.kind} "${obj.name}" is missing from ${list.what}; listed: ${brief(list.items.map((i) => i.name))}`,
          list.exchange,
        ),
      );
  }
  return out;
}

/** The records of an object found by name in any listing of its kind (no finding when absent). */
export function recordsOf(lists: Listing[], obj: Created): Item[] {
  return lists.filter((l) => l.kind === obj.kind).flatMap((l) => l.items.filter((i) => i.name === obj.name));
}

/** The id under which the channel lists its localized copy of an object: told by its id, not by `inherited` (harness/steps.ts copyIn). */
export async function copyIdOf(t: ConformanceContext, parent: number, obj: Created, channel: number): Promise<number> {
  return copyIdStep(t, obj.kind, parent, obj, channel);
}

/** What a test localized, so that it takes it back at its end (the suite files that list after it find nothing localized). */
export type Localized = { obj: Created; parent: number; channel: number }[];

/** Takes back what a test localized (harness/steps.ts undoLocalizeStep): folders last, for their copies below go with them. */
export async function undoLocalized(t: ConformanceContext, made: Localized): Promise<void> {
  for (const { obj, parent, channel } of [...made].sort((a, b) => (a.obj.kind === b.obj.kind ? 0 : a.obj.kind === 'file' ? -1 : 1)))
    await undoLocalizeStep(t, obj.kind, parent, obj, channel);
}

/** The counters of one node in a localization info answer, or undefined. */
export function entryOf(info: LocalizationInfoResponse, nodeId: number) {
  return info.channels?.find((c) => c.channelId === nodeId);
}
