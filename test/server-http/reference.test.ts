/** The HTTP layer over the real semantics, through startReferenceServer: every operation and bad input end to end. */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getValidator } from '../../schemas/index.ts';
import { operations, type Operation } from '../../schemas/operations.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { multipartBody } from './helpers.ts';

let server: ReferenceServer;
let api: ReturnType<typeof request>;
let prefix: string;
beforeAll(async () => {
  server = await startReferenceServer();
  const url = new URL(server.baseUrl);
  api = request(url.origin);
  prefix = url.pathname;
});
afterAll(() => server.close());

const BOUNDARY = 'cmsBoundary7MA4YWxk';

/** The number of files in a folder, as GET /folder/getFiles reports it. */
async function fileCount(folderId: number): Promise<number> {
  const res = await api.get(`${prefix}/folder/getFiles/${folderId}`);
  expect(res.status).toBe(200);
  return res.body.numItems as number;
}

/** Creates a folder under the sandbox parent for one test; returns its id. */
async function sandbox(name: string): Promise<number> {
  const res = await api.post(`${prefix}/folder/create`).send({ motherId: String(server.target.fixture.sandboxParentFolderId), name });
  expect(res.status).toBe(201);
  return res.body.folder.id as number;
}

describe('startReferenceServer', () => {
  it('describes itself in a target object', () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rest$/);
    expect(server.target).toMatchObject({ baseUrl: server.baseUrl, auth: { query: {}, headers: {} } });
    expect(server.target.features).not.toContain('auth');
  });

  it('refuses an unknown fault name, listing the known ones', async () => {
    // A misspelt name is a type error; a caller the type does not reach (JavaScript, a cast) is refused at run time.
    // @ts-expect-error -- no such fault
    await expect(startReferenceServer({ faults: ['no-such-fault'] })).rejects.toThrow(
      /unknown fault no-such-fault; known faults: .*post-answers-200/,
    );
  });

  it('declares auth and the sid when started with a token', async () => {
    const guarded = await startReferenceServer({ authToken: 'tok' });
    try {
      expect(guarded.target.auth.query).toEqual({ sid: 'tok' });
      expect(guarded.target.features).toContain('auth');
      expect((await fetch(`${guarded.baseUrl}/folder/load/${guarded.target.fixture.masterRootFolderId}`)).status).toBe(401);
    } finally {
      await guarded.close();
    }
  });
});

describe('every GET operation over the default fixture', () => {
  /** A request for the operation with fixture ids for its path and its required or id-list parameters. */
  async function plainRequest(op: Operation): Promise<string> {
    const { masterRootFolderId } = server.target.fixture;
    const files = await api.get(`${prefix}/folder/findFiles?folderId=0&maxItems=1`);
    const fileId = String(files.body.files[0].id);
    const id = op.id.startsWith('file.') ? fileId : String(masterRootFolderId);
    const path = op.path.replace(/\{\w+\}/g, id);
    const query = new URLSearchParams();
    for (const p of op.parameters) {
      if (p.in === 'query' && (p.required || p.name === 'id' || p.name === 'ids'))
        query.append(p.name, p.type === 'boolean' ? 'false' : id);
    }
    return `${prefix}${path}${query.size ? `?${query}` : ''}`;
  }

  it.each(operations.filter((op) => op.method === 'GET').map((op) => [op.id, op] as const))(
    '%s answers 200 with a body valid against its response schema',
    async (_id, op) => {
      const res = await api.get(await plainRequest(op)).set('accept', 'application/json');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const validate = getValidator(op.response.schema);
      expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    },
  );
});

describe('bad input end to end', () => {
  it('refuses an unknown id with 404 NOTFOUND', async () => {
    // NEG-03: "an unknown id is refused (not found), never a 5xx."
    const res = await api.get(`${prefix}/folder/load/987654321`);
    expect(res.status).toBe(404);
    expect(res.body.responseInfo.responseCode).toBe('NOTFOUND');
  });

  it('refuses malformed JSON and creates nothing', async () => {
    const parent = server.target.fixture.sandboxParentFolderId;
    const before = (await api.get(`${prefix}/folder/getFolders/${parent}`)).body.numItems;
    const res = await api.post(`${prefix}/folder/create`).set('content-type', 'application/json').send('{"name": "x", "motherId": ');
    expect(res.status).toBe(400);
    expect((await api.get(`${prefix}/folder/getFolders/${parent}`)).body.numItems).toBe(before);
  });

  const folderPart = (folderId: number) => ({ name: 'folderId', data: String(folderId) });
  const dataPart = { name: 'fileBinaryData', filename: 'a.txt', type: 'text/plain', data: 'abcdef'.repeat(50) };
  it.each([
    ['no boundary', 'multipart/form-data', (folderId: number) => multipartBody([folderPart(folderId), dataPart])],
    [
      'a truncated part',
      `multipart/form-data; boundary=${BOUNDARY}`,
      (folderId: number) => multipartBody([folderPart(folderId), dataPart]).subarray(0, -100),
    ],
    [
      'a missing data part',
      `multipart/form-data; boundary=${BOUNDARY}`,
      (folderId: number) => multipartBody([folderPart(folderId), { name: 'description', data: 'no data' }]),
    ],
  ])('refuses a multipart upload with %s, creates nothing, never 5xx', async (what, contentType, body) => {
    // UPL-08: "a malformed multipart body (no boundary, truncated part, missing data part) is refused, creates nothing, and is never a 5xx."
    const folderId = await sandbox(`malformed ${what}`);
    const res = await api.post(`${prefix}/file/create`).set('content-type', contentType).send(body(folderId));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.success).toBe(false);
    expect(await fileCount(folderId)).toBe(0);
  });

  it('creates a file from a valid multipart upload with the exact bytes', async () => {
    const folderId = await sandbox('multipart-valid');
    const data = Buffer.from([0, 13, 10, 45, 45, 0xff, 0x80, 1]);
    const payload = multipartBody([
      { name: 'folderId', data: String(folderId) },
      { name: 'fileBinaryData', filename: 'bytes.bin', contentType: 'application/octet-stream', data },
    ]);
    const res = await api.post(`${prefix}/file/create`).set('content-type', `multipart/form-data; boundary=${BOUNDARY}`).send(payload);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, file: { name: 'bytes.bin', folderId, fileSize: data.length } });
  });

  it('creates a file from a raw body', async () => {
    const folderId = await sandbox('raw-valid');
    const res = await api
      .post(`${prefix}/file/createSimple?folderId=${folderId}&qqfile=note.txt`)
      .set('content-type', 'text/plain')
      .send('hello');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, file: { name: 'note.txt', fileSize: 5 } });
  });
});
