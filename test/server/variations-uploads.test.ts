/**
 * The variations of the upload and file open choices (server/variations.ts): each plays its answer, and
 * the reference server's default answer stays as it was.
 */
import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../server/faults.ts';
import type { VariationName } from '../../server/variations.ts';
import { call, freshState, named, part, refused, sandboxFolder, upload, type Body, type Call } from './helpers.ts';

/** The call helpers take switches as fault names; a variation is asked for by the handlers the same way. */
const on = (...names: VariationName[]): FaultName[] => names as unknown as FaultName[];

/** A multipart create of `fileName` in `folderId` with data of a media type, under the switches given. */
const create = (s: ReturnType<typeof freshState>, folderId: number, fileName: string, data: string, type: string, v: FaultName[] = []) =>
  call(
    s,
    'file.create.multipart',
    { multipart: { fields: { folderId: String(folderId), fileName }, files: [part('fileBinaryData', data, fileName, type)] } },
    v,
  );

describe('upload variations', () => {
  it('extension-from-media-type: text/plain adds .txt and octet-stream none by default; the variations keep or add .bin', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Extensions');
    expect((await create(s, folder.id, 'plain', 'x', 'text/plain')).file.name).toBe('plain.txt');
    expect((await create(s, folder.id, 'bytes', 'x', 'application/octet-stream')).file.name).toBe('bytes');
    expect((await create(s, folder.id, 'kept', 'x', 'text/plain', on('name-keeps-no-extension'))).file.name).toBe('kept');
    expect((await create(s, folder.id, 'bin', 'x', 'application/octet-stream', on('octet-stream-gets-bin'))).file.name).toBe('bin.bin');
  });

  it('upload-image-kind: an image/* upload is a file by default and an image under image-uploads-are-images', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Kinds');
    expect((await create(s, folder.id, 'a.png', 'x', 'image/png')).file.typeId).toBe(10008);
    const image = await create(s, folder.id, 'b.png', 'x', 'image/png', on('image-uploads-are-images'));
    expect([image.file.typeId, s.objects.get(image.file.id)?.kind]).toEqual([10011, 'image']);
    const counts = await call(s, 'folder.count', { path: { id: folder.id } });
    expect([counts.files, counts.images]).toEqual([1, 1]);
  });

  it('empty-upload and upload-size-limit: refused only under their variations, creating nothing', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Sizes');
    expect((await create(s, folder.id, 'empty.bin', '', 'application/octet-stream')).file.fileSize).toBe(0);
    const empty = await refused(
      s,
      'file.create.multipart',
      { multipart: { fields: { folderId: String(folder.id), fileName: 'e2.bin' }, files: [part('fileBinaryData', '')] } },
      on('empty-upload-refused'),
    );
    expect(empty.code).toBe('INVALIDDATA');
    const big = Buffer.alloc(2 * 1024 * 1024 + 1);
    expect((await create(s, folder.id, 'big.bin', big.toString('latin1'), 'application/octet-stream')).file.fileSize).toBe(big.length);
    const over = await refused(
      s,
      'file.create.multipart',
      { multipart: { fields: { folderId: String(folder.id), fileName: 'big2.bin' }, files: [part('fileBinaryData', big)] } },
      on('upload-limit-2mib'),
    );
    expect(over.status).toBe(413);
    const listed = await call(s, 'folder.getFiles', { path: { folderId: folder.id } });
    expect((listed.files as Body[]).map((f) => f.name).sort()).toEqual(['big.bin', 'empty.bin']);
  });

  it('upload-name-collision: renamed base_1.ext by default, refused under upload-collision-refused', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Collide');
    await upload(s, folder.id, 'same.txt', 'one');
    expect((await upload(s, folder.id, 'same.txt', 'two')).name).toBe('same_1.txt');
    const spec: Call = {
      multipart: { fields: { folderId: String(folder.id), fileName: 'same.txt' }, files: [part('fileBinaryData', 'x')] },
    };
    expect((await refused(s, 'file.create.multipart', spec, on('upload-collision-refused'))).code).toBe('INVALIDDATA');
  });

  it('createsimple-filename: qqfile first by default, the part filename first under createsimple-part-filename-first', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Simple names');
    const spec = (qqfile: string): Call => ({
      query: { folderId: String(folder.id), qqfile },
      multipart: { files: [part('fileBinaryData', 'x', `part-${qqfile}`, 'text/plain')] },
    });
    expect((await call(s, 'file.createSimple.multipart', spec('a.txt'))).file.name).toBe('a.txt');
    expect((await call(s, 'file.createSimple.multipart', spec('b.txt'), on('createsimple-part-filename-first'))).file.name).toBe(
      'part-b.txt',
    );
  });

  it('create-overwrite-part: the overwrite text part replaces by default and is ignored under create-overwrite-part-ignored', async () => {
    const s = freshState();
    const folder = await sandboxFolder(s, 'Overwrite part');
    const first = await upload(s, folder.id, 'o.txt', 'one');
    expect((await upload(s, folder.id, 'o.txt', 'two', { overwrite: 'true' })).id).toBe(first.id);
    const spec: Call = {
      multipart: {
        fields: { folderId: String(folder.id), fileName: 'o.txt', overwrite: 'true' },
        files: [part('fileBinaryData', 'three')],
      },
    };
    expect((await call(s, 'file.create.multipart', spec, on('create-overwrite-part-ignored'))).file.id).not.toBe(first.id);
  });
});

describe('file variations', () => {
  it('copy-without-target and copy-name-collision: copied and renamed by default, refused under their variations', async () => {
    const s = freshState();
    const source = named(s, 'file', 'terms.txt').id;
    expect((await call(s, 'file.copy', { body: { file: { id: source } } })).file.name).toBe('terms_1.txt');
    expect((await refused(s, 'file.copy', { body: { file: { id: source } } }, on('copy-needs-target'))).property).toBe('targetFolder');
    const folder = named(s, 'file', 'terms.txt').parentSet;
    const into = { body: { file: { id: source }, targetFolder: { id: folder } } };
    expect((await refused(s, 'file.copy', into, on('copy-collision-refused'))).property).toBe('newFilename');
  });

  it('move-to-same-folder: a no-op by default, refused under move-same-folder-refused', async () => {
    const s = freshState();
    const file = named(s, 'file', 'terms.txt');
    const spec: Call = { path: { id: file.id }, body: { folderId: file.parentSet } };
    await call(s, 'file.move', spec);
    expect((await refused(s, 'file.move', spec, on('move-same-folder-refused'))).code).toBe('INVALIDDATA');
  });

  it('save-partial-record, save-file-type, save-nice-urls: what a save without name, with fileType and URLs does', async () => {
    const s = freshState();
    const id = named(s, 'file', 'notes.txt').id;
    const load = async () => (await call(s, 'file.load', { path: { id } })).file as Body;
    const before = await load();
    const save = { path: { id }, body: { file: { id, fileType: 'text/csv', niceUrl: '/n', alternateUrls: ['/a'] } } };
    expect((await refused(s, 'file.save.json', save, on('save-requires-name'))).property).toBe('file.name');
    await call(s, 'file.save.json', save, on('save-keeps-file-type', 'save-ignores-nice-urls'));
    expect([(await load()).fileType, (await load()).niceUrl]).toEqual([before.fileType, before.niceUrl]);
    await call(s, 'file.save.json', save);
    expect([(await load()).fileType, (await load()).niceUrl, (await load()).alternateUrls]).toEqual(['text/csv', '/n', ['/a']]);
  });

  it('file-image-names: an image name is refused with failOnDuplicate by default and free under images-own-names', async () => {
    const s = freshState();
    const id = named(s, 'file', 'inherited.txt').id;
    const save: Call = { path: { id }, body: { file: { id, name: 'banner-localized.jpg' }, failOnDuplicate: true } };
    expect((await refused(s, 'file.save.json', save)).code).toBe('INVALIDDATA');
    await call(s, 'file.save.json', save, on('images-own-names'));
    expect((await call(s, 'file.load', { path: { id } })).file.name).toBe('banner-localized.jpg');
  });
});
