/** The semantics behind the real HTTP layer (fastify inject): refusal statuses, byte-exact multipart, channel views. */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { handlers } from '../../server/handlers/index.ts';
import { freshState, ids, named } from './helpers.ts';

const BOUNDARY = 'semanticsBoundary42';

/** A multipart body with text fields and one data part. */
function multipart(fields: Record<string, string>, data: { name: string; filename: string; type: string; bytes: Buffer }): Buffer {
  const text = Object.entries(fields)
    .map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${data.name}"; filename="${data.filename}"\r\nContent-Type: ${data.type}\r\n\r\n`;
  return Buffer.concat([Buffer.from(text + head), data.bytes, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

function app(refusalStyle: 'status' | 'body' = 'status') {
  const state = freshState();
  return { state, app: buildApp({ state, handlers, refusalStyle }) };
}

describe('over HTTP', () => {
  it('DEL-01: the channel delete refusal is 409 FAILURE under the status style and 200 under the body style', async () => {
    for (const [style, status] of [
      ['status', 409],
      ['body', 200],
    ] as const) {
      const { state, app: server } = app(style);
      const res = await server.inject({
        method: 'POST',
        url: `/rest/folder/delete/${named(state, 'folder', 'Inherited folder').id}?nodeId=2`,
      });
      expect([res.statusCode, res.json().responseInfo.responseCode]).toEqual([status, 'FAILURE']);
      expect(res.json().responseInfo.responseMessage).toMatch(/has to be deleted in the master node/);
    }
  });

  it('UPL-07: multipart bytes arrive byte for byte, CRLF and boundary look-alikes included', async () => {
    const { state, app: server } = app();
    const bytes = Buffer.concat([
      Buffer.from([0, 255, 0xc3]),
      Buffer.from(`\r\n--${BOUNDARY.slice(0, -2)}\r\n\r\n`),
      Buffer.from([13, 10, 0]),
    ]);
    const res = await server.inject({
      method: 'POST',
      url: '/rest/file/create',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipart(
        { folderId: String(ids(state).sandboxParentFolderId), fileName: 'exact.bin' },
        { name: 'fileBinaryData', filename: 'x.bin', type: 'application/x-exact', bytes },
      ),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      file: { name: 'exact.bin', fileSize: bytes.length, fileType: 'application/x-exact' },
    });
    const load = await server.inject({ url: `/rest/file/load/${res.json().file.id}` });
    expect(load.json().file.fileSize).toBe(bytes.length);
  });

  it('a refused upload answers success false and no file', async () => {
    const { state, app: server } = app();
    const res = await server.inject({
      method: 'POST',
      url: '/rest/file/create',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipart(
        { folderId: String(ids(state).sandboxParentFolderId), fileName: '../escape' },
        { name: 'fileBinaryData', filename: 'x', type: 'text/plain', bytes: Buffer.from('x') },
      ),
    });
    expect([res.statusCode, res.json().success, res.json().file, res.json().responseInfo.property]).toEqual([
      400,
      false,
      undefined,
      'fileName',
    ]);
  });

  it('MCH-01: the channel view through query parameters', async () => {
    const { state, app: server } = app();
    const res = await server.inject({
      url: `/rest/folder/getFiles/${named(state, 'folder', 'Multichannel').id}?nodeId=2&inherited=false&sortby=NAME&sortorder=DESC`,
    });
    expect(res.json().files.map((f: { name: string }) => f.name)).toEqual(['shop-only.txt', 'localized.txt']);
  });
});
