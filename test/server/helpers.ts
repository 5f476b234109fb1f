/** Shared helpers of the handler tests: a fresh store, calling handlers directly, finding fixture objects. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getValidator } from '../../schemas/index.ts';
import { getOperation } from '../../schemas/operations.ts';
import type { Dataset } from '../../server/dataset-format.ts';
import { defaultDataset } from '../../server/default-dataset.ts';
import { handlers } from '../../server/handlers/index.ts';
import { createState, fixtureIds, type Kind, type Obj, type State } from '../../server/state.ts';
import type { FaultName } from '../../server/faults.ts';
import type { VariationName } from '../../server/variations.ts';
import { Refusal, type OpRequest, type ParamValue, type UploadPart } from '../../server/types.ts';

const dataset: Dataset = defaultDataset();

/** The fixture clock: fixed, so timestamps of created objects are predictable. */
export const NOW_MS = 1_750_000_000_000;

/** A fresh store over the default fixture (or the data set given) with a fixed clock. */
export function freshState(options: { now?: () => number; dataset?: Dataset } = {}): State {
  return createState(options.dataset ?? dataset, { now: options.now ?? (() => NOW_MS) });
}

/** What a test passes for a request; omitted parts are empty. */
export interface Call {
  path?: Record<string, string | number>;
  query?: Record<string, ParamValue | undefined>;
  raw?: Record<string, string | string[]>;
  body?: unknown;
  multipart?: { fields?: Record<string, string>; files?: UploadPart[] };
  rawBody?: { contentType: string; data: Buffer };
}

/** Builds the OpRequest the HTTP layer would hand over. */
export function request(operationId: string, c: Call = {}): OpRequest {
  const rawQuery: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(c.query ?? {})) if (v !== undefined) rawQuery[k] = (Array.isArray(v) ? v : [v]).map(String);
  for (const [k, v] of Object.entries(c.raw ?? {})) rawQuery[k] = Array.isArray(v) ? v : [v];
  return {
    operationId,
    path: Object.fromEntries(Object.entries(c.path ?? {}).map(([k, v]) => [k, String(v)])),
    query: Object.fromEntries(Object.entries(c.query ?? {}).filter(([, v]) => v !== undefined)) as OpRequest['query'],
    rawQuery,
    ...(c.body === undefined ? {} : { body: c.body }),
    ...(c.multipart ? { multipart: { fields: c.multipart.fields ?? {}, files: c.multipart.files ?? [] } } : {}),
    ...(c.rawBody ? { raw: c.rawBody } : {}),
  };
}

/** A response body as the tests inspect it: already schema-validated by `call`, so members are read freely. */
export type Body = Record<string, any>;

/** Calls a handler; the result is validated against the operation's response schema (with the envelope added). */
export async function call(state: State, operationId: string, c: Call = {}, faults: FaultName[] = []): Promise<Body> {
  const handler = handlers[operationId];
  if (!handler) throw new Error(`no handler for ${operationId}`);
  const result = await handler(state, request(operationId, c), { faults: new Set(faults) });
  if (faults.length === 0) {
    const validate = getValidator(getOperation(operationId).response.schema);
    const body = { ...result, messages: [], responseInfo: { responseCode: 'OK', responseMessage: '' } };
    expect(validate(body), `${operationId}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
  }
  return result as Body;
}

/** Calls a handler expecting a refusal; returns it. */
export async function refused(state: State, operationId: string, c: Call = {}, faults: FaultName[] = []): Promise<Refusal> {
  try {
    await handlers[operationId]!(state, request(operationId, c), { faults: new Set(faults) });
  } catch (err) {
    expect(err).toBeInstanceOf(Refusal);
    return err as Refusal;
  }
  throw new Error(`${operationId} was not refused`);
}

/** The fixture object of a kind with that name (the master variant unless a node is given). */
export function named(state: State, kind: Kind, name: string, nodeId?: number): Obj {
  const found = [...state.objects.values()].filter(
    (o) => o.kind === kind && o.name === name && (nodeId === undefined ? o.masterId === undefined : o.nodeId === nodeId),
  );
  if (found.length !== 1) throw new Error(`expected one ${kind} named ${name}${nodeId ? ` in node ${nodeId}` : ''}, found ${found.length}`);
  return found[0]!;
}

/** The fixture ids of the target file. */
export function ids(state: State) {
  return fixtureIds(state);
}

/** A multipart file part. */
export function part(fieldName: string, data: Buffer | string, filename?: string, mimeType = 'application/octet-stream'): UploadPart {
  return { fieldName, ...(filename ? { filename } : {}), mimeType, data: Buffer.isBuffer(data) ? data : Buffer.from(data) };
}

/** Names of listed records, in order. */
export function names(records: Body[]): string[] {
  return records.map((r) => r.name as string);
}

/** Creates a folder under the sandbox parent (master) and returns its record. */
export async function sandboxFolder(state: State, name: string, nodeId?: number): Promise<Body> {
  const body = { motherId: String(ids(state).sandboxParentFolderId), name, ...(nodeId ? { nodeId } : {}) };
  return (await call(state, 'folder.create', { body })).folder as Body;
}

/** Uploads a file (multipart create) into a folder and returns its record. */
export async function upload(
  state: State,
  folderId: number,
  fileName: string,
  data: Buffer | string,
  fields: Record<string, string> = {},
): Promise<Body> {
  const res = await call(state, 'file.create.multipart', {
    multipart: {
      fields: { folderId: String(folderId), fileName, ...fields },
      files: [part('fileBinaryData', data, fileName, 'text/plain')],
    },
  });
  return res.file as Body;
}

/** One valid request per operation over the default fixture. */
export const validRequests: Record<string, (s: State) => Call> = {
  'folder.list': (s) => ({ query: { folderId: String(ids(s).masterRootFolderId), recursive: true } }),
  'folder.create': (s) => ({ body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Created' } }),
  'folder.disinherit.getMany': (s) => ({
    query: { id: [String(named(s, 'folder', 'Not for partners').id), String(named(s, 'folder', 'Inherited folder').id)] },
  }),
  'folder.disinherit.setMany': (s) => ({ query: { id: [String(named(s, 'folder', 'Inherited folder').id)] }, body: { disinherit: [3] } }),
  'folder.disinherit.get': (s) => ({ path: { id: named(s, 'folder', 'Not for partners').id } }),
  'folder.disinherit.set': (s) => ({ path: { id: named(s, 'folder', 'Inherited folder').id }, body: { exclude: false, disinherit: [3] } }),
  'folder.findFiles': () => ({ query: { query: 'manual' } }),
  'folder.findPages': () => ({ query: { query: 'product' } }),
  'folder.getFolders.post': (s) => ({ body: { id: String(ids(s).masterRootFolderId), recursive: true, tree: true } }),
  'folder.getFolders': (s) => ({ path: { id: ids(s).masterRootFolderId }, query: { recursive: true, privileges: true } }),
  'folder.breadcrumb': (s) => ({ path: { id: named(s, 'folder', 'Manuals').id } }),
  'folder.count': (s) => ({ path: { id: ids(s).pagesFolderId }, query: { recursive: true } }),
  'folder.delete': (s) => ({ path: { id: named(s, 'folder', 'Downloads').id } }),
  'folder.getExternalLinks': (s) => ({ path: { folderId: ids(s).pagesFolderId }, query: { recursive: true } }),
  'folder.getFiles': (s) => ({ path: { folderId: named(s, 'folder', 'Files').id }, query: { folder: true } }),
  'folder.getItems': (s) => ({ path: { folderId: ids(s).pagesFolderId } }),
  'folder.getPages': (s) => ({
    path: { id: ids(s).pagesFolderId },
    query: { template: true, folder: true, langvars: true, translationstatus: true, contenttags: true, objecttags: true },
  }),
  'folder.getTemplates': (s) => ({ path: { folderId: ids(s).masterRootFolderId }, query: { recursive: true } }),
  'folder.load': (s) => ({ path: { id: named(s, 'folder', 'Files').id }, query: { privileges: true, construct: true } }),
  'folder.localizationinfo': (s) => ({ path: { id: named(s, 'folder', 'Multichannel').id }, query: { recursive: true } }),
  'folder.localizations': (s) => ({ path: { id: named(s, 'folder', 'Localized folder').id } }),
  'folder.localize': (s) => ({ path: { id: named(s, 'folder', 'Inherited folder').id }, body: { channelId: 2 } }),
  'file.list': (s) => ({ query: { folderId: String(named(s, 'folder', 'Files').id), pageSize: 5, sort: '-fileSize,name' } }),
  'file.copy': (s) => ({ body: { file: { id: named(s, 'file', 'terms.txt').id }, newFilename: 'terms-copy.txt' } }),
  'file.create.multipart': (s) => ({
    multipart: {
      fields: { folderId: String(ids(s).sandboxParentFolderId) },
      files: [part('fileBinaryData', 'hello', 'hello.txt', 'text/plain')],
    },
  }),
  // file.create.json downloads from a URL: covered in uploads.test.ts with a local server.
  'file.createSimple.multipart': (s) => ({
    query: { folderId: String(ids(s).sandboxParentFolderId), qqfile: 'simple.txt' },
    multipart: { files: [part('qqfile', 'simple')] },
  }),
  'file.createSimple.raw': (s) => ({
    query: { folderId: ids(s).sandboxParentFolderId, qqfile: 'raw.bin' },
    rawBody: { contentType: 'application/octet-stream', data: Buffer.from([0, 1, 2]) },
  }),
  'file.disinherit.get': (s) => ({ query: { id: [String(named(s, 'file', 'shop-excluded.txt').id)] } }),
  'file.disinherit.set': (s) => ({ query: { id: [String(named(s, 'file', 'inherited.txt').id)] }, body: { disinherit: [3] } }),
  'file.load': (s) => ({ path: { id: named(s, 'file', 'brochure.pdf').id } }),
  'file.localizationinfo': (s) => ({ path: { id: named(s, 'file', 'localized.txt').id } }),
  'file.localizations': (s) => ({ path: { id: named(s, 'file', 'localized.txt').id } }),
  'file.localize': (s) => ({ path: { id: named(s, 'file', 'inherited.txt').id }, body: { channelId: 2 } }),
  'file.move': (s) => ({ path: { id: named(s, 'file', 'notes.txt').id }, body: { folderId: named(s, 'folder', 'Downloads').id } }),
  'file.push2master': (s) => ({ path: { id: named(s, 'file', 'localized.txt', 2).id }, body: { channelId: 2 } }),
  'file.save.json': (s) => ({ path: { id: named(s, 'file', 'notes.txt').id }, body: { file: { description: 'updated' } } }),
  'file.save.multipart': (s) => ({
    path: { id: named(s, 'file', 'notes.txt').id },
    multipart: { files: [part('fileBinaryData', 'new content', 'notes.txt')] },
  }),
  'file.unlocalize': (s) => ({ path: { id: named(s, 'file', 'localized.txt', 2).id }, body: { channelId: 2 } }),
  'file.usage.file': (s) => ({ query: { id: [named(s, 'file', 'terms.txt').id] } }),
  'file.usage.folder': (s) => ({ query: { id: [named(s, 'file', 'brochure.pdf').id] } }),
  'file.usage.page': (s) => ({ raw: { id: String(named(s, 'file', 'annual-report-2023.pdf').id) } }),
  'file.usage.syncableObjects': (s) => ({ query: { ids: [named(s, 'file', 'product-sheet.pdf').id] } }),
};

/** A call of one handler by operation id, on the store a probe runs on. */
export type Run = (op: string, c?: Call) => Promise<Body>;

/** A probe observes one behaviour of the store's handlers; it runs once without and once with its switches on. */
export type Probe = (run: Run, s: State) => Promise<unknown>;

/**
 * Runs a probe on a fresh store with the switches given (planted faults or variations) and returns what it observed as
 * text; a refusal is an observation too.
 */
export async function observe(probe: Probe, on: readonly (FaultName | VariationName)[], data?: Dataset): Promise<string> {
  const s = freshState(data ? { dataset: data } : {});
  const run: Run = async (op, c = {}) => (await handlers[op]!(s, request(op, c), { faults: new Set(on) })) as Body;
  try {
    return JSON.stringify((await probe(run, s)) ?? null);
  } catch (err) {
    if (err instanceof Refusal) return `refused ${err.code}`;
    throw err;
  }
}

/** The names of switches (planted faults and variations) the handlers ask about: `faults.has('name')` in server/handlers/. */
export function switchesAskedInHandlers(): Set<string> {
  const dir = new URL('../../server/handlers/', import.meta.url);
  // planted/ holds the switches of the handlers converted to one seam per handler (CONTRIBUTING).
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const sources = files.map((f) => readFileSync(new URL(f, dir), 'utf8'));
  return new Set(sources.flatMap((src) => [...src.matchAll(/faults\.has\('([a-z0-9-]+)'\)/g)].map((m) => m[1]!)));
}

/**
 * The tests of one area's variations: its probes are exactly its variations, each asked by a handler, and each
 * switched on changes the answer its probe reads.
 */
export function describeVariations(title: string, area: readonly VariationName[], probes: Record<string, Probe>): void {
  describe(title, () => {
    it('probes exactly the variations of this area, each asked by a handler', () => {
      expect(Object.keys(probes).sort()).toEqual([...area].sort());
      const asked = switchesAskedInHandlers();
      expect(area.filter((name) => !asked.has(name))).toEqual([]);
    });

    it.each([...area])('%s changes the answer it claims', async (name) => {
      const probe = probes[name]!;
      expect(await observe(probe, [name])).not.toBe(await observe(probe, []));
    });
  });
}
