/**
 * "What the server accepts" (reference notes) end to end over HTTP against the reference server: the
 * vendor client's calls, Jackson's scalar coercion of JSON bodies, zero values of absent primitive
 * query parameters, folder delete options in a body, and usage/file with given files using each other.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';

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

/** The id of the fixture object of a kind with that name, in the master. */
function fixtureId(kind: string, name: string): number {
  const found = [...server.state.objects.values()].find((o) => o.kind === kind && o.name === name && o.masterId === undefined);
  if (!found) throw new Error(`no ${kind} named ${name}`);
  return found.id;
}

/** Asserts a refusal with that status and code naming the member in responseInfo.property (and, for INVALIDDATA, in the message). */
function expectRefused(res: request.Response, status: number, code: string, property: string): void {
  expect(res.status).toBe(status);
  expect(res.body.responseInfo).toMatchObject({ responseCode: code, property });
  if (code === 'INVALIDDATA') expect(res.body.responseInfo.responseMessage).toContain(property);
}

describe("the vendor client's calls", () => {
  it('POST /folder/create with a numeric motherId creates the folder under that mother', async () => {
    const mother = server.target.fixture.sandboxParentFolderId;
    const res = await api
      .post(`${prefix}/folder/create`)
      .set('content-type', 'application/json')
      .send(`{"motherId": ${mother}, "name": "Vendor client"}`);
    expect(res.status).toBe(201);
    expect(res.body.folder).toMatchObject({ motherId: mother, name: 'Vendor client' });
    const loaded = await api.get(`${prefix}/folder/load/${res.body.folder.id}`);
    expect(loaded.body.folder).toMatchObject({ motherId: mother, name: 'Vendor client' });
  });

  it('GET /folder/localizationinfo/{id}?nodeId=2 without recursive answers as recursive=false', async () => {
    const id = fixtureId('folder', 'Multichannel');
    const without = await api.get(`${prefix}/folder/localizationinfo/${id}?nodeId=2`);
    expect(without.status).toBe(200);
    const explicit = await api.get(`${prefix}/folder/localizationinfo/${id}?nodeId=2&recursive=false`);
    expect(without.body.channels).toEqual(explicit.body.channels);
  });
});

describe('JSON bodies over HTTP', () => {
  it('stores a number sent for a string member as its text and a boolean text as the boolean', async () => {
    const mother = server.target.fixture.sandboxParentFolderId;
    const res = await api
      .post(`${prefix}/folder/create`)
      .send({ motherId: mother, name: 42, description: true, failOnDuplicate: 'false', nodeId: '0' });
    expect(res.status).toBe(201);
    const loaded = await api.get(`${prefix}/folder/load/${res.body.folder.id}`);
    expect(loaded.body.folder).toMatchObject({ name: '42', description: 'true' });
  });

  it('moves a file to a folder id sent as text', async () => {
    const created = await api
      .post(`${prefix}/folder/create`)
      .send({ motherId: String(server.target.fixture.sandboxParentFolderId), name: 'Move target' });
    const file = fixtureId('file', 'notes.txt');
    expect((await api.post(`${prefix}/file/move/${file}`).send({ folderId: String(created.body.folder.id) })).status).toBe(201);
    expect((await api.get(`${prefix}/file/load/${file}`)).body.file.folderId).toBe(created.body.folder.id);
  });

  it.each([
    ['folder.create', '/folder/create', { motherId: { id: 1 }, name: 'x' }, 'motherId'],
    ['folder.create', '/folder/create', { motherId: '110', name: ['x'] }, 'name'],
    ['folder.create', '/folder/create', { motherId: '110', name: 'x', templateId: 1.5 }, 'templateId'],
    ['folder.create', '/folder/create', { motherId: '110', name: 'x', startpage: 'yes' }, 'startpage'],
    ['file.move', '/file/move/{file}', { folderId: 'x' }, 'folderId'],
    ['file.copy', '/file/copy', { file: { id: '{file}' }, targetFolder: { id: 'x' } }, 'targetFolder.id'],
    ['file.disinherit.set', '/file/disinherit?id={file}', { disinherit: ['x'] }, 'disinherit.0'],
  ])('%s refuses a member that cannot be converted with 400 INVALIDDATA naming it', async (_op, path, body, property) => {
    const file = String(fixtureId('file', 'terms.txt'));
    const sent = JSON.parse(JSON.stringify(body).replaceAll('{file}', file)) as Record<string, unknown>;
    const before = server.state.objects.size;
    expectRefused(await api.post(`${prefix}${path.replace('{file}', file)}`).send(sent), 400, 'INVALIDDATA', property);
    expect(server.state.objects.size).toBe(before);
  });
});

describe('absent query parameters the contract marks required', () => {
  it('createSimple without folderId looks for folder 0 and is refused as not found', async () => {
    const before = server.state.objects.size;
    const res = await api.post(`${prefix}/file/createSimple?qqfile=a.txt`).set('content-type', 'text/plain').send('x');
    expectRefused(res, 404, 'NOTFOUND', 'folderId');
    expect(res.body.success).toBe(false);
    expect(server.state.objects.size).toBe(before);
  });

  it('createSimple with a folderId that does not parse is still refused naming it', async () => {
    expectRefused(
      await api.post(`${prefix}/file/createSimple?qqfile=a.txt&folderId=x`).set('content-type', 'text/plain').send('x'),
      400,
      'INVALIDDATA',
      'folderId',
    );
  });
});

describe('folder delete options in a JSON body', () => {
  it('are ignored, not refused: nodeId is read from the query only', async () => {
    const created = await api
      .post(`${prefix}/folder/create`)
      .send({ motherId: String(server.target.fixture.sandboxParentFolderId), name: 'Delete me' });
    const id = created.body.folder.id as number;
    // nodeId 2 in the body would make this a refused channel delete of an inherited folder.
    const res = await api
      .post(`${prefix}/folder/delete/${id}`)
      .set('content-type', 'application/json')
      .send('{"nodeId": 2, "force": true}');
    expect(res.status).toBe(201);
    expect((await api.get(`${prefix}/folder/load/${id}`)).status).toBe(404);
  });

  it('refuses the channel delete when nodeId comes in the query', async () => {
    const res = await api.post(`${prefix}/folder/delete/${fixtureId('folder', 'Inherited folder')}?nodeId=2`).send({ nodeId: 1 });
    expect([res.status, res.body.responseInfo.responseCode]).toEqual([409, 'FAILURE']);
  });
});

describe('usage/file', () => {
  it('lists a given file that uses another given file', async () => {
    const [terms, sheet] = [fixtureId('file', 'terms.txt'), fixtureId('file', 'product-sheet.pdf')];
    const res = await api.get(`${prefix}/file/usage/file?id=${terms}&id=${sheet}`);
    expect(res.status).toBe(200);
    expect([res.body.total, res.body.files.map((f: { id: number }) => f.id)]).toEqual([1, [sheet]]);
  });
});
