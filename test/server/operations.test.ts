/**
 * OP-<id>: every operation of the catalogue has a handler, and a valid request gets a body that
 * validates against the operation's response schema ("a valid request gets the success status ... and
 * that body validates against the operation's response schema").
 */
import { describe, expect, it } from 'vitest';
import { operations } from '../../schemas/operations.ts';
import { handlers } from '../../server/handlers/index.ts';
import type { State } from '../../server/state.ts';
import { call, freshState, ids, named, part, type Call } from './helpers.ts';

/** One valid request per operation over the default fixture. */
const validRequests: Record<string, (s: State) => Call> = {
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

describe('operation catalogue', () => {
  it('has a handler for every operation id and no other', () => {
    expect(Object.keys(handlers).sort()).toEqual(operations.map((op) => op.id).sort());
    expect(operations).toHaveLength(43);
  });

  it.each(Object.keys(validRequests))('%s answers a valid request with a schema-valid body', async (id) => {
    const state = freshState();
    const body = await call(state, id, validRequests[id]!(state));
    expect(body).toBeTypeOf('object');
  });
});
