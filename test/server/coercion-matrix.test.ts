/**
 * The scalar coercion matrix (issue 13, point 5): generated from the request schemas. Every member of
 * every request schema (nested record members, map values and array items included) gets a number, a
 * numeric string, a boolean string, null, an object and an array, each sent in an otherwise valid
 * request of an operation taking that schema to the reference server in-process (fastify inject).
 * Asserted: never a 5xx; a refusal names the member (responseInfo.property or the message); a value
 * that converts ("What the server accepts", reference notes) and is accepted is stored converted where
 * the member is stored and readable back. Members that are not stored, or not readable through the
 * contract's operations (flags, paging and filter options, nodeId, foregroundTime, types, the opaque
 * `file` record), are only required to be accepted without a 5xx or refused naming the member. The
 * members of the `file` record (FileSaveRequest, FileCopyRequest), which its schema does not list, are
 * covered by the handler tests of file.save.json.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_BASE, schemasById, type JsonSchema } from '../../schemas/index.ts';
import { operations, type Operation } from '../../schemas/operations.ts';
import { buildApp } from '../../server/app.ts';
import { defaultDataset } from '../../server/default-dataset.ts';
import { handlers } from '../../server/handlers/index.ts';
import { createState, fixtureIds, type Kind, type State } from '../../server/state.ts';
import type { Handler } from '../../server/types.ts';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- the members, walked from the schemas --------------------------------------------------------

/** One member of a request schema: its dotted path, its schema, and where it sits (object member, map value, array item). */
interface Member {
  path: string[];
  schema: JsonSchema;
  within: 'object' | 'map' | 'array';
}

function follow(schema: JsonSchema, base: string): { schema: JsonSchema; base: string } {
  if (typeof schema.$ref !== 'string') return { schema, base };
  const url = new URL(schema.$ref, base).href;
  return follow(schemasById.get(url)!, url);
}

/** Every member of a schema: properties, recursively into referenced records, plus one map value and one array item each. */
function membersOf(schema: JsonSchema, base: string, prefix: string[] = []): Member[] {
  const out: Member[] = [];
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const { schema: s, base: b } = follow(raw, base);
    const path = [...prefix, name];
    out.push({ path, schema: s, within: 'object' });
    if (isRecord(s.properties)) out.push(...membersOf(s, b, path));
    if (isRecord(s.additionalProperties))
      out.push({ path: [...path, 'x'], schema: follow(s.additionalProperties, b).schema, within: 'map' });
    if (isRecord(s.items)) out.push({ path: [...path, '0'], schema: follow(s.items, b).schema, within: 'array' });
  }
  return out;
}

const REQUEST_SCHEMAS = [...schemasById.keys()]
  .filter((id) => id.startsWith(`${SCHEMA_BASE}requests/`))
  .map((id) => id.slice(SCHEMA_BASE.length));

/** The first operation of the catalogue whose JSON body is the schema. */
function operationFor(schema: string): Operation {
  const op = operations.find((o) => o.requestBody?.schema === schema && o.requestBody.contentTypes.includes('application/json'));
  if (!op) throw new Error(`no operation takes ${schema}`);
  return op;
}

// ---- the values and what each must read as ------------------------------------------------------

const KINDS = ['number', 'numeric string', 'boolean string', 'null', 'object', 'array'] as const;
type ValueKind = (typeof KINDS)[number];

/** What a value must read as, independently of the server's code: the converted value, absent, or refused. */
type Expected = { value: unknown } | 'absent' | 'refused';

function valueOf(kind: ValueKind, current: unknown): unknown {
  // A member whose valid value is an id keeps naming the same object when converted back.
  const n = typeof current === 'number' ? current : typeof current === 'string' && /^\d+$/.test(current) ? Number(current) : 7;
  switch (kind) {
    case 'number':
      return n;
    case 'numeric string':
      return String(n);
    case 'boolean string':
      return 'true';
    case 'null':
      return null;
    case 'object':
      return { wrong: 'type' };
    case 'array':
      return ['x'];
  }
}

/** The oracle: Jackson's default coercion as reference notes describe it, for the member's schema type. */
function expected(m: Member, value: unknown): Expected {
  const type = m.schema.type;
  if (value === null) return m.within === 'array' ? 'refused' : 'absent';
  const scalar = (v: unknown): Expected => {
    switch (type) {
      case 'string': {
        if (typeof v === 'object') return 'refused';
        const text = String(v);
        return Array.isArray(m.schema.enum) && !m.schema.enum.includes(text) ? 'refused' : { value: text };
      }
      case 'integer':
      case 'number':
        if (typeof v === 'number') return { value: v };
        return typeof v === 'string' && /^\d+$/.test(v) ? { value: Number(v) } : 'refused';
      case 'boolean':
        if (typeof v === 'number') return { value: v !== 0 };
        return v === 'true' ? { value: true } : 'refused';
      default:
        return { value: v };
    }
  };
  if (type === 'array') {
    if (!Array.isArray(value)) return 'refused';
    const item = m.schema.items as JsonSchema | undefined;
    return item && (item.type === 'integer' || item.type === 'number') ? 'refused' : { value };
  }
  if (type === 'object') return isRecord(value) ? { value } : 'refused';
  return scalar(value);
}

// ---- the requests --------------------------------------------------------------------------------

/** An otherwise valid request of an operation: path, query and JSON body. */
interface Base {
  path: string;
  query?: string;
  body: Json;
}

/** What a readback sees: the state after the request, the answer, and a way to send further requests. */
interface Readback {
  state: State;
  answer: Json;
  get: (url: string) => Promise<Json>;
}

/** A stored member read back through the contract's own operations. */
type Reader = (r: Readback) => Promise<unknown>;

/** A fixture object's id by kind and name (master variant unless a node is given). */
function fixture(state: State, kind: Kind, name: string, nodeId?: number): number {
  const found = [...state.objects.values()].find(
    (o) => o.kind === kind && o.name === name && (nodeId === undefined ? o.masterId === undefined : o.nodeId === nodeId),
  );
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found.id;
}

let sourceBase = '';

/** For each operation the matrix uses: a valid request over the fixture, and readers of the members it stores. */
const REQUESTS: Record<string, { base: (s: State) => Base; readers: Record<string, Reader> }> = {
  'folder.create': {
    base: (s) => ({ path: '/folder/create', body: { motherId: String(fixtureIds(s).sandboxParentFolderId), name: 'Matrix' } }),
    readers: (() => {
      const folder = async (r: Readback) => (await r.get(`/folder/load/${(r.answer.folder as Json).id}`)).folder as Json;
      const i18n = (key: string) => async (r: Readback) => ((await folder(r))[key] as Json | undefined)?.x;
      return {
        name: async (r) => (await folder(r)).name,
        description: async (r) => (await folder(r)).description,
        // "`publishDir` is normalised to start and end with `/`" (reference notes).
        publishDir: async (r) => String((await folder(r)).publishDir).replace(/^\/|\/$/g, ''),
        motherId: async (r) => String((await folder(r)).motherId),
        'nameI18n.x': i18n('nameI18n'),
        'descriptionI18n.x': i18n('descriptionI18n'),
        'publishDirI18n.x': i18n('publishDirI18n'),
      } satisfies Record<string, Reader>;
    })(),
  },
  'folder.getFolders.post': {
    base: (s) => ({ path: '/folder/getFolders', body: { id: String(fixtureIds(s).sandboxParentFolderId) } }),
    readers: {},
  },
  'folder.disinherit.setMany': {
    base: (s) => ({
      path: '/folder/disinherit',
      query: `id=${fixture(s, 'folder', 'Downloads')}`,
      body: { disinherit: [2], reinherit: [3] },
    }),
    readers: (() => {
      const status = async (r: Readback) => r.get(`/folder/disinherit/${fixture(r.state, 'folder', 'Downloads')}`);
      return {
        exclude: async (r) => (await status(r)).exclude,
        disinheritDefault: async (r) => (await status(r)).disinheritDefault,
        'disinherit.0': async (r) => ((await status(r)).disinherit as unknown[])[0],
      } satisfies Record<string, Reader>;
    })(),
  },
  'folder.localize': {
    base: (s) => ({ path: `/folder/localize/${fixture(s, 'folder', 'Inherited folder')}`, body: { channelId: 2 } }),
    readers: {
      channelId: async (r) =>
        Object.values((await r.get(`/folder/localizations/${fixture(r.state, 'folder', 'Inherited folder')}`)).nodeIds as Json)[0],
    },
  },
  'file.copy': {
    base: (s) => ({
      path: '/file/copy',
      body: { file: { id: fixture(s, 'file', 'terms.txt') }, targetFolder: { id: fixtureIds(s).sandboxParentFolderId } },
    }),
    readers: (() => {
      const copy = async (r: Readback) => (await r.get(`/file/load/${(r.answer.file as Json).id}`)).file as Json;
      return {
        newFilename: async (r) => (await copy(r)).name,
        'targetFolder.id': async (r) => (await copy(r)).folderId,
      } satisfies Record<string, Reader>;
    })(),
  },
  'file.create.json': {
    base: (s) => ({ path: '/file/create', body: { folderId: fixtureIds(s).sandboxParentFolderId, sourceURL: `${sourceBase}/matrix` } }),
    readers: (() => {
      const file = async (r: Readback) => (await r.get(`/file/load/${(r.answer.file as Json).id}`)).file as Json;
      return {
        name: async (r) => (await file(r)).name,
        description: async (r) => (await file(r)).description,
        niceURL: async (r) => (await file(r)).niceUrl,
        'alternateURLs.0': async (r) => ((await file(r)).alternateUrls as unknown[])[0],
        folderId: async (r) => (await file(r)).folderId,
      } satisfies Record<string, Reader>;
    })(),
  },
  'file.move': {
    base: (s) => ({ path: `/file/move/${fixture(s, 'file', 'terms.txt')}`, body: { folderId: fixture(s, 'folder', 'Downloads') } }),
    readers: { folderId: async (r) => ((await r.get(`/file/load/${fixture(r.state, 'file', 'terms.txt')}`)).file as Json).folderId },
  },
  'file.save.json': {
    base: (s) => ({ path: `/file/save/${fixture(s, 'file', 'terms.txt')}`, body: { file: { description: 'saved' } } }),
    readers: {},
  },
  'file.push2master': {
    base: (s) => ({ path: `/file/push2master/${fixture(s, 'file', 'localized.txt', 2)}`, body: { channelId: 2 } }),
    readers: {},
  },
  'file.unlocalize': {
    base: (s) => ({ path: `/file/unlocalize/${fixture(s, 'file', 'localized.txt', 2)}`, body: { channelId: 2 } }),
    readers: {},
  },
};

/** The body with the member at `path` set to `value`: a map value under key `x`, an array item as the only item. */
function withMember(body: Json, m: Member, value: unknown): Json {
  const set = (obj: Json, path: string[]): Json => {
    const [head, ...rest] = path as [string, ...string[]];
    if (rest.length === 0) return { ...obj, [head]: value };
    const next = rest[0]!;
    const inner = obj[head];
    if (rest.length === 1 && m.within === 'array') return { ...obj, [head]: [value] };
    if (rest.length === 1 && m.within === 'map') return { ...obj, [head]: { [next]: value } };
    return { ...obj, [head]: set(isRecord(inner) ? inner : {}, rest) };
  };
  return set(body, m.path);
}

/** The body without the member at `path` (a map value's entry, an array's only item, or an object member removed). */
function withoutMember(body: Json, m: Member): Json {
  const drop = (obj: Json, path: string[]): Json => {
    const [head, ...rest] = path as [string, ...string[]];
    if (rest.length === 0) return Object.fromEntries(Object.entries(obj).filter(([k]) => k !== head));
    if (rest.length === 1 && m.within === 'array') return { ...obj, [head]: [] };
    if (rest.length === 1 && m.within === 'map') return { ...obj, [head]: {} };
    const inner = obj[head];
    return { ...obj, [head]: drop(isRecord(inner) ? inner : {}, rest) };
  };
  return drop(body, m.path);
}

/** The valid value a member has in the base body (for an array item, the first item). */
function currentOf(body: Json, m: Member): unknown {
  let cur: unknown = body;
  for (const key of m.path) cur = Array.isArray(cur) ? cur[0] : isRecord(cur) ? cur[key] : undefined;
  return cur;
}

// ---- the server ----------------------------------------------------------------------------------

const dataset = defaultDataset();
/** One app for the whole matrix; each case swaps in a fresh store, so no case sees another's changes. */
const holder: { state: State } = { state: createState(dataset) };
const delegating: Record<string, Handler<{ state: State }>> = Object.fromEntries(
  Object.entries(handlers).map(([id, h]) => [id, (st: { state: State }, req, ctx) => h(st.state, req, ctx)] as const),
);
let app: FastifyInstance;
let source: Server;

beforeAll(async () => {
  source = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/x-matrix' }).end('matrix'));
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceBase = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  app = buildApp({ state: holder, handlers: delegating });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((resolve) => {
    source.closeAllConnections();
    source.close(() => resolve());
  });
});

async function getJson(url: string): Promise<Json> {
  const res = await app.inject({ method: 'GET', url: `/rest${url}` });
  expect(res.statusCode, url).toBe(200);
  return res.json() as Json;
}

/** Sends a base request with the given body; a refusal is a status >= 400 or a responseCode other than OK. */
async function send(base: Base, body: Json): Promise<{ status: number; answer: Json; info: Json; refusal: boolean }> {
  const url = `/rest${base.path}${base.query ? `?${base.query}` : ''}`;
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const answer = res.json() as Json;
  const info = (answer.responseInfo ?? {}) as Json;
  return { status: res.statusCode, answer, info, refusal: res.statusCode >= 400 || info.responseCode !== 'OK' };
}

/** Whether a refusal names the member: its property is the member, inside it, or the message mentions it. */
function namesMember(info: Json, path: string): boolean {
  const property = typeof info.property === 'string' ? info.property : '';
  return property === path || property.startsWith(`${path}.`) || String(info.responseMessage ?? '').includes(path);
}

// ---- the matrix ------------------------------------------------------------------------------------

describe('scalar coercion matrix over every request schema', () => {
  it('walks every request schema, each with an operation and a valid base request', () => {
    expect(REQUEST_SCHEMAS.length).toBeGreaterThanOrEqual(10);
    for (const schema of REQUEST_SCHEMAS) expect(REQUESTS[operationFor(schema).id], schema).toBeDefined();
  });

  it.each(REQUEST_SCHEMAS)('%s: no 5xx, refusals name the member, accepted values are stored converted', async (schemaRef) => {
    const op = operationFor(schemaRef);
    const spec = REQUESTS[op.id]!;
    const id = `${SCHEMA_BASE}${schemaRef}`;
    const members = membersOf(schemasById.get(id)!, id);
    const problems: string[] = [];
    let stored = 0;
    // A refused request changes nothing (NEG-04), so a fresh store is needed only after an accepted one.
    let dirty = true;
    for (const m of members) {
      const path = m.path.join('.');
      for (const kind of KINDS) {
        if (dirty) holder.state = createState(dataset);
        const base = spec.base(holder.state);
        const value = valueOf(kind, currentOf(base.body, m));
        const body = withMember(base.body, m, value);
        const { status, answer, info, refusal } = await send(base, body);
        const where = `${path} = ${JSON.stringify(value)} (${kind})`;
        if (status >= 500) {
          problems.push(`${where}: ${status} ${String(info.responseMessage)}`);
          continue;
        }
        dirty = !refusal;
        const want = expected(m, value);
        if (refusal) {
          if (!namesMember(info, path))
            problems.push(`${where}: refused without naming the member: ${String(info.property)} ${String(info.responseMessage)}`);
          else if (want !== 'refused' && (want === 'absent' || JSON.stringify(want.value) !== JSON.stringify(value))) {
            // A value that converts must behave as the converted value (or, for null, as the member left out) sent as such.
            const native = await send(base, want === 'absent' ? withoutMember(base.body, m) : withMember(base.body, m, want.value));
            dirty = !native.refusal;
            if (!native.refusal || native.info.responseCode !== info.responseCode || native.info.property !== info.property) {
              problems.push(
                `${where}: refused (${String(info.responseCode)} ${String(info.property)}) ` +
                  `where ${want === 'absent' ? 'the member left out' : JSON.stringify(want.value)} ` +
                  `is ${native.refusal ? `refused (${String(native.info.responseCode)} ${String(native.info.property)})` : 'accepted'}`,
              );
            }
          }
          continue;
        }
        if (want === 'refused') {
          problems.push(`${where}: accepted, but it cannot be converted to ${String(m.schema.type)}`);
          continue;
        }
        const reader = spec.readers[path];
        if (reader && want !== 'absent') {
          stored++;
          const got = await reader({ state: holder.state, answer, get: getJson });
          if (JSON.stringify(got) !== JSON.stringify(want.value))
            problems.push(`${where}: stored as ${JSON.stringify(got)}, expected ${JSON.stringify(want.value)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Every reader of the operation judged at least one accepted value (a reader that never runs proves nothing).
    expect(stored >= Object.keys(spec.readers).length).toBe(true);
  });
});
