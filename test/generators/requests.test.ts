import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { inputClasses } from '../../generators/input-classes.ts';
import { operationsWithRequests, validRequest, type World } from '../../generators/requests.ts';
import type { QueryValue, RequestSpec } from '../../harness/transport.ts';
import { getValidator } from '../../schemas/index.ts';
import { findOperation, matchPath, operations, type Operation, type Parameter } from '../../schemas/operations.ts';

// Ids far from anything a generator could produce by chance: a random integer would not be in the world.
const full: World = {
  fixture: {
    masterNodeId: 9001,
    channelNodeId: 9002,
    masterRootFolderId: 9100,
    channelRootFolderId: 9101,
    sandboxParentFolderId: 9110,
    pagesFolderId: 9120,
    templatesFolderId: 9130,
  },
  features: ['multichannelling', 'wastebin', 'pages', 'templates', 'sourceUrl'],
  folders: [9500, 9501],
  files: [9600, 9601],
  fixtureFolders: [9140],
  fixtureFiles: [9700],
  globalIds: { 9500: 'A547.11111111-2222-3333-4444-555555555555', 9100: 'A547.66666666-7777-8888-9999-000000000000' },
  localizedFiles: [9601],
  userIds: [9801, 9802],
  templateIds: [9901],
  markupLanguageIds: [9951, 9952],
  languages: ['de', 'en'],
  sourceUrl: 'http://127.0.0.1:9/files',
};

// What a target without optional features and nothing discovered offers.
const bare: World = {
  fixture: { masterNodeId: 9001, masterRootFolderId: 9100, sandboxParentFolderId: 9110 },
  features: ['sourceUrl'],
  folders: [9500],
  files: [9600],
  sourceUrl: 'http://127.0.0.1:9/files',
};

const RUNS = 200;
// Parameters and body members whose values name objects (folders, files, nodes, users, templates, markup languages).
const ID_PARAMS = new Set([
  'id',
  'ids',
  'folderId',
  'nodeId',
  'srcNodeId',
  'dstNodeId',
  'usedIn',
  'creatorId',
  'editorId',
  'publisherId',
  'template_id',
  'includeMlId',
  'excludeMlId',
  'recursiveIds',
  'recId',
]);
const ID_MEMBER = /^(id|.*Id|disinherit|reinherit|recursiveIds)$/;

function idsOf(world: World): Set<string> {
  const f = world.fixture;
  const numbers = [
    ...Object.values(f),
    ...world.folders,
    ...world.files,
    ...(world.fixtureFolders ?? []),
    ...(world.fixtureFiles ?? []),
    ...(world.localizedFiles ?? []),
    ...(world.userIds ?? []),
    ...(world.templateIds ?? []),
    ...(world.markupLanguageIds ?? []),
  ];
  return new Set([...numbers.map(String), ...Object.values(world.globalIds ?? {})]);
}

/** Every id a value carries: numbers, numeric strings, global ids, and both halves of `nodeId/folderId`. */
function idParts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(idParts);
  return String(value).split('/');
}

/** The ids in a JSON body: members named like ids, at any depth. */
function bodyIds(json: unknown): string[] {
  if (Array.isArray(json)) return json.flatMap(bodyIds);
  if (typeof json !== 'object' || json === null) return [];
  return Object.entries(json).flatMap(([key, value]) =>
    ID_MEMBER.test(key) && typeof value !== 'object'
      ? idParts(value)
      : ID_MEMBER.test(key) && Array.isArray(value)
        ? idParts(value)
        : bodyIds(value),
  );
}

function typeOk(p: Parameter, value: string | number | boolean): boolean {
  if (p.enum && !p.enum.includes(String(value))) return false;
  switch (p.type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
  }
}

/** Problems of one generated request against the catalogue and the world; empty when it is valid. */
function problems(op: Operation, spec: RequestSpec, world: World): string[] {
  const out: string[] = [];
  const known = idsOf(world);
  const unknownIds = (where: string, ids: string[], allowZero = false) => {
    for (const id of ids) if (!known.has(id) && !(allowZero && id === '0')) out.push(`${where}: id ${id} is not in the world`);
  };
  if (spec.method !== op.method) out.push(`method ${spec.method}`);
  const contentType = spec.json !== undefined ? 'application/json' : spec.multipart ? 'multipart/form-data' : spec.raw?.contentType;
  if (findOperation(spec.method, spec.path, contentType)?.id !== op.id)
    out.push(`${spec.method} ${spec.path} (${contentType}) is routed to another operation`);
  const pathParams = matchPath(op.path, spec.path) ?? {};
  for (const [name, value] of Object.entries(pathParams)) {
    const p = op.parameters.find((x) => x.in === 'path' && x.name === name)!;
    if ((p.type === 'integer' || p.idKind !== 'local-or-global') && !/^\d+$/.test(value))
      out.push(`path ${name}=${value} is not a local id`);
    unknownIds(`path ${name}`, [value]);
  }
  for (const [name, value] of Object.entries(spec.query ?? {}) as [string, QueryValue][]) {
    const p = op.parameters.find((x) => x.in === 'query' && x.name === name);
    if (!p) {
      out.push(`query ${name} is not declared`);
      continue;
    }
    if (Array.isArray(value) !== Boolean(p.multivalued))
      out.push(`query ${name}: multivalued ${Boolean(p.multivalued)}, sent ${JSON.stringify(value)}`);
    for (const v of Array.isArray(value) ? (value as (string | number | boolean)[]) : [value as string | number | boolean])
      if (!typeOk(p, v)) out.push(`query ${name}=${JSON.stringify(v)} is not a ${p.type}${p.enum ? ` of ${p.enum.join('|')}` : ''}`);
    if (ID_PARAMS.has(name)) unknownIds(`query ${name}`, idParts(value), p.default === 0);
  }
  for (const p of op.parameters)
    if (p.required && p.in === 'query' && spec.query?.[p.name] === undefined) out.push(`required query ${p.name} is missing`);
  const body = op.requestBody;
  if (!body && (spec.json !== undefined || spec.raw || spec.multipart)) out.push('a body where the operation takes none');
  if (body?.schema) {
    const validate = getValidator(body.schema);
    if (!validate(spec.json)) out.push(`body invalid against ${body.schema}: ${JSON.stringify(validate.errors)}`);
    unknownIds('body', bodyIds(spec.json));
  }
  if (body?.contentTypes.includes('multipart/form-data')) {
    if (!spec.multipart?.files?.length) out.push('no data part in the multipart body');
    const fields = spec.multipart?.fields ?? {};
    unknownIds(
      'multipart',
      [fields.folderId, fields.nodeId].filter((v): v is string => v !== undefined),
    );
  }
  if (body?.raw && !spec.raw) out.push('no raw body');
  return out;
}

const sample = (op: Operation, world: World) => fc.sample(validRequest(op.id, world), { numRuns: RUNS, seed: 42 });
const needsChannel = (op: Operation) => op.feature === 'multichannelling';

describe('validRequest', () => {
  test('every operation of the catalogue has a request builder, and nothing else does', () => {
    expect([...operationsWithRequests].sort()).toEqual(operations.map((op) => op.id).sort());
  });

  describe.each(operations.map((op) => [op.id, op] as const))('%s', (_id, op) => {
    test('generated requests use declared parameters with values of their type, valid bodies and ids of the world only', () => {
      for (const spec of sample(op, full)) expect(problems(op, spec, full)).toEqual([]);
    });

    test.skipIf(needsChannel(op))('a world without multichannelling or discovered data still gives valid requests', () => {
      for (const spec of sample(op, bare)) expect(problems(op, spec, bare)).toEqual([]);
    });
  });

  test('the request checker of these tests catches foreign ids, undeclared or mistyped parameters and invalid bodies', () => {
    const op = (id: string) => operations.find((o) => o.id === id)!;
    expect(problems(op('folder.load'), { method: 'GET', path: '/folder/load/12345' }, full)).toEqual([
      'path id: id 12345 is not in the world',
    ]);
    expect(problems(op('folder.load'), { method: 'GET', path: '/folder/load/9500', query: { bogus: 1 } }, full)).toEqual([
      'query bogus is not declared',
    ]);
    expect(
      problems(
        op('folder.getFiles'),
        { method: 'GET', path: '/folder/getFiles/9500', query: { maxItems: '5', usedIn: [9001, 4242] } },
        full,
      ),
    ).toEqual(['query maxItems="5" is not a integer', 'query usedIn: id 4242 is not in the world']);
    expect(problems(op('file.move'), { method: 'POST', path: '/file/move/9600', json: { folderId: '9500' } }, full)[0]).toMatch(
      /^body invalid/,
    );
    expect(problems(op('file.move'), { method: 'POST', path: '/file/move/9600', json: { folderId: 777 } }, full)).toEqual([
      'body: id 777 is not in the world',
    ]);
  });

  test('mutating requests name only sandbox folders and files in their path and body', () => {
    const sandbox = new Set([...full.folders, ...full.files].map(String));
    const sandboxMember = /^(motherId|folderId)$/;
    const mutating = operations.filter((op) => op.method === 'POST' && op.id !== 'folder.getFolders.post');
    for (const op of mutating) {
      for (const spec of sample(op, full)) {
        const named = [
          ...Object.values(matchPath(op.path, spec.path) ?? {}).map(
            (v) => Object.entries(full.globalIds ?? {}).find(([, g]) => g === v)?.[0] ?? v,
          ),
          ...(op.id.includes('disinherit') ? idParts(spec.query?.id ?? []) : []),
          ...Object.entries((spec.json ?? {}) as Record<string, unknown>)
            .filter(([k]) => sandboxMember.test(k))
            .map(([, v]) => String(v)),
          ...[
            (spec.json as { targetFolder?: { id?: number } } | undefined)?.targetFolder?.id,
            (spec.json as { file?: { id?: number } } | undefined)?.file?.id,
          ]
            .filter((v) => v !== undefined)
            .map(String),
          ...(spec.multipart?.fields?.folderId ? [spec.multipart.fields.folderId] : []),
          ...(spec.raw || spec.multipart ? idParts(spec.query?.folderId ?? []) : []),
        ];
        for (const id of named) expect(sandbox.has(id), `${op.id} names ${id} in ${JSON.stringify(spec.path)}`).toBe(true);
      }
    }
  });

  test('paging, enumerations and booleans reach their edge values over a sample', () => {
    const seen = (opId: string, name: string) =>
      new Set(fc.sample(validRequest(opId, full), { numRuns: 2000, seed: 7 }).map((s) => JSON.stringify(s.query?.[name])));
    expect(seen('folder.getFiles', 'maxItems')).toEqual(new Set([undefined, '-1', '0', '1', '2', '10', '100', '1000']));
    expect(seen('file.list', 'pageSize')).toContain('0');
    expect(seen('folder.list', 'wastebin')).toEqual(new Set([undefined, '"exclude"', '"include"', '"only"']));
    expect(seen('folder.load', 'privileges')).toEqual(new Set([undefined, 'true', 'false']));
    expect([...seen('folder.getPages', 'permission')].some((v) => v !== undefined && JSON.parse(v).length > 1)).toBe(true);
  });

  test('listings never ask for deleted items where earlier runs left them, and still do elsewhere', () => {
    // World.historyFolders: the sandbox parent, and an ancestor of it listed recursively, hold what earlier runs deleted.
    const parent = full.fixture.sandboxParentFolderId;
    const history = [parent, full.fixture.masterRootFolderId];
    let elsewhere = 0;
    for (const opId of ['folder.list', 'folder.getFolders', 'folder.getFolders.post', 'folder.getFiles', 'file.list', 'folder.count']) {
      const op = operations.find((o) => o.id === opId)!;
      for (const spec of fc.sample(validRequest(opId, full), { numRuns: 1000, seed: 5 })) {
        const params = { ...(spec.query ?? {}), ...((spec.json ?? {}) as Record<string, QueryValue>) };
        const subject = Number(
          matchPath(op.path, spec.path)?.id ?? matchPath(op.path, spec.path)?.folderId ?? params.id ?? params.folderId,
        );
        if (params.wastebin !== 'include' && params.wastebin !== 'only') continue;
        const named = [params.recursiveIds, params.recId]
          .flat()
          .filter((v) => v !== undefined)
          .map((v) => Number(String(v).split('/').pop()));
        const reaches = subject === parent || (params.recursive === true && (history.includes(subject) || named.includes(parent)));
        expect(reaches, `${opId} ${JSON.stringify(spec)}`).toBe(false);
        elsewhere++;
      }
    }
    expect(elsewhere).toBeGreaterThan(100);
  });

  test('the same seed gives the same requests', () => {
    const op = operations.find((o) => o.id === 'folder.getPages')!;
    expect(JSON.stringify(sample(op, full))).toBe(JSON.stringify(sample(op, full)));
  });

  test('an operation the world cannot serve is an error that names what is missing', () => {
    expect(() => validRequest('file.create.json', { ...full, sourceUrl: undefined })).toThrow(/sourceUrl/);
    expect(() => validRequest('file.localize', bare)).toThrow(/multichannelling/);
    expect(() => validRequest('file.push2master', { ...full, localizedFiles: [] })).toThrow(/localized file/);
    expect(() => validRequest('no.such.operation', full)).toThrow(/unknown operation/);
  });
});

describe('inputClasses', () => {
  const classes = (op: string, spec: Omit<RequestSpec, 'method'> & { method?: RequestSpec['method'] }) =>
    inputClasses(op, { method: 'GET', ...spec }, full);

  test('names the operation, each parameter, the kind of object an id names and the few values an enumeration has', () => {
    const c = classes('folder.getFiles', { path: '/folder/getFiles/9500', query: { nodeId: 9002, sortorder: 'desc', maxItems: 3 } });
    expect([...c]).toEqual(
      expect.arrayContaining([
        'folder.getFiles',
        'path:folderId=id:sandbox-folder',
        'query:nodeId=id:channel',
        'query:sortorder=desc',
        'query:maxItems=3',
      ]),
    );
  });

  test('tells apart what the contract treats apart, and only that', () => {
    const of = (path: string, query: RequestSpec['query']) => classes('folder.getFiles', { path, query });
    // Another sandbox folder, another search word: nothing new.
    expect(of('/folder/getFiles/9501', { search: 'tree' })).toEqual(of('/folder/getFiles/9500', { search: 'bark' }));
    // A fixture folder, a global id, a count of another range, a page past the end: each new.
    const base = of('/folder/getFiles/9500', { maxItems: 3 });
    for (const other of [
      of('/folder/getFiles/9140', { maxItems: 3 }),
      of(`/folder/getFiles/${encodeURIComponent(full.globalIds![9500]!)}`, { maxItems: 3 }),
      of('/folder/getFiles/9500', { maxItems: -1 }),
      of('/folder/getFiles/9500', { maxItems: 5000 }),
    ])
      expect([...other].some((x) => !base.has(x))).toBe(true);
  });

  test('reads members of JSON bodies, form fields and file parts', () => {
    const json = classes('file.save.json', {
      method: 'POST',
      path: '/file/save/9600',
      json: { file: { forceOnline: true, name: 'a.txt' } },
    });
    expect([...json]).toEqual(expect.arrayContaining(['json:/file/forceOnline=true', 'json:/file/name=text']));
    const form = classes('file.create.multipart', {
      method: 'POST',
      path: '/file/create',
      multipart: { fields: { folderId: '9500' }, files: [{ name: 'fileBinaryData', contentType: 'text/plain', data: new Uint8Array(0) }] },
    });
    expect([...form]).toEqual(expect.arrayContaining(['form:folderId=id:sandbox-folder', 'part:fileBinaryData:text/plain:empty']));
  });
});
