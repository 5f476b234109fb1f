/** Uploads and multipart forms (UPL): create, createSimple, JSON create from a URL, save multipart. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createState, type FileObj, type State } from '../../server/state.ts';
import { defaultDataset } from '../../server/default-dataset.ts';
import { call, freshState, ids, names, part, refused, sandboxFolder, upload, type Body } from './helpers.ts';

const stored = (s: State, id: number) => (s.objects.get(id) as FileObj).data;
const fileNames = async (s: State, folderId: number) =>
  names((await call(s, 'folder.getFiles', { path: { folderId } })).files as Body[]).sort();

/** Bytes that trip naive multipart handling: NUL, invalid UTF-8, CRLF and a boundary look-alike. */
const TRICKY = Buffer.concat([
  Buffer.from([0, 0xff, 0xfe, 0xc3, 0x28]),
  Buffer.from('\r\n--boundary\r\nContent-Disposition: form-data\r\n\r\n'),
  Buffer.from([0]),
]);

describe('POST /file/create (multipart)', () => {
  it('UPL-01, UPL-07: creates the file with the given name and folder, byte for byte', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Uploads');
    const res = await call(s, 'file.create.multipart', {
      multipart: {
        fields: { folderId: String(folder.id), fileName: 'tricky.bin', description: 'd' },
        files: [part('fileBinaryData', TRICKY, 'x.bin', 'application/x-tricky')],
      },
    });
    expect(res.success).toBe(true);
    expect(res.file).toMatchObject({
      name: 'tricky.bin',
      folderId: folder.id,
      fileSize: TRICKY.length,
      fileType: 'application/x-tricky',
      description: 'd',
    });
    expect(stored(s, res.file.id)?.equals(TRICKY)).toBe(true);
  });

  it('recognises the data part by any of its names, ignoring case', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Part names');
    for (const name of ['fileBinaryData', 'FILEDATA', 'files[]', 'qqFile']) {
      const res = await call(s, 'file.create.multipart', {
        multipart: { fields: { folderId: String(folder.id) }, files: [part(name, name, `${name}.txt`, 'text/plain')] },
      });
      expect(res.file.fileSize).toBe(name.length);
    }
    const custom = await call(s, 'file.create.multipart', {
      multipart: { fields: { folderId: String(folder.id), databodypart: 'payload' }, files: [part('payload', 'p', 'p.txt')] },
    });
    expect(custom.file.name).toBe('p.txt');
  });

  it('names the file by fileName, else the part filename, else new_file with an extension from the media type', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Naming');
    const mk = (fields: Record<string, string>, filename?: string, type = 'text/plain') =>
      call(s, 'file.create.multipart', {
        multipart: { fields: { folderId: String(folder.id), ...fields }, files: [part('Filedata', 'x', filename, type)] },
      });
    expect((await mk({ fileName: 'given.txt' }, 'other.txt')).file.name).toBe('given.txt');
    expect((await mk({}, 'from-part.txt')).file.name).toBe('from-part.txt');
    expect((await mk({})).file.name).toBe('new_file.txt');
    expect((await mk({}, 'report', 'application/pdf')).file.name).toBe('report.pdf');
  });

  it('makes colliding names unique as base_1.ext, comparing case-insensitively', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Collisions');
    await upload(s, folder.id, 'Report.txt', 'one');
    expect((await upload(s, folder.id, 'report.TXT', 'two')).name).toBe('report_1.TXT');
    expect((await upload(s, folder.id, 'report.txt', 'three')).name).toBe('report_2.txt');
  });

  it('UPL-05: overwrite=true replaces the same-name file (same id, new size); overwrite=false never does', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Overwrite');
    const first = await upload(s, folder.id, 'same.txt', 'short');
    const replaced = await upload(s, folder.id, 'same.txt', 'much longer content', { overwrite: 'true' });
    expect([replaced.id, replaced.fileSize]).toEqual([first.id, 19]);
    const kept = await upload(s, folder.id, 'same.txt', 'x', { overwrite: 'false' });
    expect(kept.id).not.toBe(first.id);
    expect(await fileNames(s, folder.id)).toEqual(['same.txt', 'same_1.txt']);
  });

  it('failOnDuplicate refuses a used name with INVALIDDATA on fileName and creates nothing', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Strict');
    await upload(s, folder.id, 'only.txt', 'x');
    const r = await refused(s, 'file.create.multipart', {
      multipart: {
        fields: { folderId: String(folder.id), fileName: 'ONLY.txt', failOnDuplicate: 'true' },
        files: [part('fileBinaryData', 'y')],
      },
    });
    expect([r.code, r.property]).toEqual(['INVALIDDATA', 'fileName']);
    expect(await fileNames(s, folder.id)).toEqual(['only.txt']);
  });

  it('UPL-08: a missing data part, folder or a path-traversing name is refused and creates nothing', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Refusals');
    const before = s.objects.size;
    expect(
      (
        await refused(s, 'file.create.multipart', {
          multipart: { fields: { folderId: String(folder.id) }, files: [part('folderId', String(folder.id))] },
        })
      ).code,
    ).toBe('INVALIDDATA');
    expect((await refused(s, 'file.create.multipart', { multipart: { files: [part('fileBinaryData', 'x', 'x.txt')] } })).property).toBe(
      'folderId',
    );
    for (const bad of ['../escape.txt', 'a/b.txt', 'nul\u0000.txt', '..', 'x'.repeat(256)]) {
      const r = await refused(s, 'file.create.multipart', {
        multipart: { fields: { folderId: String(folder.id), fileName: bad }, files: [part('fileBinaryData', 'x')] },
      });
      expect([r.code, r.property]).toEqual(['INVALIDDATA', 'fileName']);
    }
    expect(
      (
        await refused(s, 'file.create.multipart', {
          multipart: { fields: { folderId: '987654' }, files: [part('fileBinaryData', 'x', 'x.txt')] },
        })
      ).code,
    ).toBe('NOTFOUND');
    expect(
      (
        await refused(s, 'file.create.multipart', {
          multipart: { fields: { folderId: String(folder.id), overwrite: 'maybe' }, files: [part('fileBinaryData', 'x', 'x.txt')] },
        })
      ).property,
    ).toBe('overwrite');
    expect(s.objects.size).toBe(before);
  });

  it('accepts the folder by global id', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Global');
    const res = await call(s, 'file.create.multipart', {
      multipart: { fields: { folderId: folder.globalId }, files: [part('fileBinaryData', 'g', 'g.txt')] },
    });
    expect(res.file.folderId).toBe(folder.id);
  });
});

describe('POST /file/createSimple', () => {
  it('UPL-04: the multipart form honours databodypart and qqfile', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Simple');
    const res = await call(s, 'file.createSimple.multipart', {
      query: { folderId: String(folder.id), databodypart: 'myData', qqfile: 'named.txt', description: 'simple' },
      multipart: { files: [part('mydata', 'payload', 'ignored.bin')] },
    });
    expect(res.file).toMatchObject({ name: 'named.txt', fileSize: 7, description: 'simple', folderId: folder.id });
    expect(
      (
        await refused(s, 'file.createSimple.multipart', {
          query: { folderId: String(folder.id), databodypart: 'myData' },
          multipart: { files: [part('other', 'x', 'x.txt')] },
        })
      ).code,
    ).toBe('INVALIDDATA');
  });

  it('UPL-03: a name whose extension is a member every object inherits (__proto__, constructor) gets a string fileType', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Proto');
    for (const qqfile of ['a.__proto__', 'a.constructor', '.__proto__']) {
      const res = await call(s, 'file.createSimple.raw', {
        query: { folderId: folder.id, qqfile },
        rawBody: { contentType: 'text/plain', data: Buffer.from('x') },
      });
      expect(typeof res.file.fileType, qqfile).toBe('string');
    }
  });

  it('UPL-03: the raw form creates a file named by qqfile in folderId, typed by its extension', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Raw');
    const data = Buffer.from([0x25, 0x50, 0x44, 0x46, 0, 0xff]);
    const res = await call(s, 'file.createSimple.raw', {
      query: { folderId: folder.id, qqfile: 'doc.pdf' },
      rawBody: { contentType: 'application/octet-stream', data },
    });
    expect(res.file).toMatchObject({ name: 'doc.pdf', fileType: 'application/pdf', fileSize: 6, folderId: folder.id });
    expect(stored(s, res.file.id)?.equals(data)).toBe(true);
  });

  it('UPL-03: the raw form requires qqfile; without folderId it looks for folder 0 and is refused as not found', async () => {
    // Reference notes: "`createSimple` without `folderId` looks for folder 0, which does not exist, and is refused as not found."
    const s = freshState();
    const rawBody = { contentType: 'text/plain', data: Buffer.from('x') };
    expect((await refused(s, 'file.createSimple.raw', { query: { folderId: ids(s).sandboxParentFolderId }, rawBody })).property).toBe(
      'qqfile',
    );
    const before = s.objects.size;
    const r = await refused(s, 'file.createSimple.raw', { query: { qqfile: 'a.txt' }, rawBody });
    expect([r.code, r.property]).toEqual(['NOTFOUND', 'folderId']);
    expect(s.objects.size).toBe(before);
  });
});

describe('POST /file/save/{id} (multipart)', () => {
  it('UPL-06: replaces the content, keeping the id', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Save');
    const file = await upload(s, folder.id, 'doc.txt', 'old');
    await call(s, 'file.save.multipart', {
      path: { id: file.id },
      multipart: { files: [part('fileBinaryData', TRICKY, 'doc.txt', 'application/x-new')] },
    });
    const loaded = (await call(s, 'file.load', { path: { id: file.id } })).file as Body;
    expect([loaded.id, loaded.fileSize, loaded.fileType, loaded.name]).toEqual([file.id, TRICKY.length, 'application/x-new', 'doc.txt']);
    expect((await refused(s, 'file.save.multipart', { path: { id: file.id }, multipart: { files: [] } })).code).toBe('INVALIDDATA');
  });
});

describe('POST /file/create (JSON, sourceURL)', () => {
  let server: Server;
  let base: string;
  const big = Buffer.alloc(2048, 7);
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/doc.txt') res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('from the web');
      else if (req.url === '/bytes') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(TRICKY);
      else if (req.url === '/big') res.writeHead(200).end(big);
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 2000);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  const limited = () => createState(defaultDataset(), { sourceUrlMaxBytes: 1024, sourceUrlTimeoutMs: 300 });

  it('UPL-02: creates a file from the downloaded bytes, named and typed from the request and the answer', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Web');
    const res = await call(s, 'file.create.json', {
      body: { folderId: folder.id, sourceURL: `${base}/doc.txt`, description: 'web', niceURL: '/web/doc', alternateURLs: ['/z', '/a'] },
    });
    expect(res.file).toMatchObject({
      name: 'doc.txt',
      fileType: 'text/plain',
      fileSize: 12,
      description: 'web',
      niceUrl: '/web/doc',
      alternateUrls: ['/a', '/z'],
    });
    const named = await call(s, 'file.create.json', { body: { folderId: folder.id, sourceURL: `${base}/bytes`, name: 'exact.bin' } });
    expect(stored(s, named.file.id)?.equals(TRICKY)).toBe(true);
  });

  it('refuses other schemes, failed downloads, oversized and slow answers, creating nothing', async () => {
    const s = limited();
    const folderId = ids(s).sandboxParentFolderId;
    const before = s.objects.size;
    for (const sourceURL of ['file:///etc/passwd', 'ftp://example.com/x', 'not a url', `${base}/missing`, `${base}/big`, `${base}/slow`]) {
      const r = await refused(s, 'file.create.json', { body: { folderId, sourceURL } });
      expect([r.code, r.property], sourceURL).toEqual(['INVALIDDATA', 'sourceURL']);
    }
    expect((await refused(s, 'file.create.json', { body: { folderId: 987654, sourceURL: `${base}/doc.txt` } })).code).toBe('NOTFOUND');
    expect(s.objects.size).toBe(before);
  });
});
