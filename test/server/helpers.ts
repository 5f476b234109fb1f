/** Shared helpers of the handler tests: a fresh store, calling handlers directly, finding fixture objects. */
import { expect } from 'vitest';
import { getValidator } from '../../schemas/index.ts';
import { getOperation } from '../../schemas/operations.ts';
import { defaultDataset, type Dataset } from '../../server/dataset.ts';
import { handlers } from '../../server/handlers/index.ts';
import { createState, fixtureIds, type Kind, type Obj, type State } from '../../server/state.ts';
import { Refusal, type OpRequest, type ParamValue, type UploadPart } from '../../server/types.ts';

const dataset: Dataset = defaultDataset();

/** The fixture clock: fixed, so timestamps of created objects are predictable. */
export const NOW_MS = 1_750_000_000_000;

/** A fresh store over the default fixture with a fixed clock. */
export function freshState(options: { now?: () => number } = {}): State {
  return createState(dataset, { now: options.now ?? (() => NOW_MS) });
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
export async function call(state: State, operationId: string, c: Call = {}, faults: string[] = []): Promise<Body> {
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
export async function refused(state: State, operationId: string, c: Call = {}, faults: string[] = []): Promise<Refusal> {
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
