/**
 * Large folders: a 10,000-file folder pages the right 100 items in either paging form, a small folder
 * lists only its own files beside 100,000 others, and 100,000 small files fit in reasonable memory.
 * How fast is measured by `npm run bench:server` (requests/s of these pages), never asserted here.
 */
import { describe, expect, it } from 'vitest';
import { allocateId, globalIdFor, insertObject, type FileObj, type State } from '../../server/state.ts';
import { call, freshState, ids, named } from './helpers.ts';

function addFiles(s: State, folderSet: number, count: number): void {
  for (let i = 0; i < count; i++) {
    const id = allocateId(s);
    const file: FileObj = {
      kind: 'file',
      id,
      globalId: globalIdFor(id),
      nodeId: 1,
      channelSetId: id,
      parentSet: folderSet,
      name: `file-${String(i).padStart(6, '0')}.txt`,
      description: '',
      cdate: 1_700_000_000 + i,
      edate: 1_700_000_000 + i,
      creatorId: 1,
      editorId: 1,
      data: Buffer.from(`content ${i}`),
      fileType: 'text/plain',
      online: true,
      forceOnline: false,
    };
    insertObject(s, file);
  }
}

describe('large folders', () => {
  it('pages 100 items of a 10,000-file folder in either paging form', async () => {
    const s = freshState();
    const folder = (await call(s, 'folder.create', { body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Big' } })).folder;
    addFiles(s, folder.id, 10_000);
    const paged = await call(s, 'file.list', { query: { folderId: String(folder.id), page: 50, pageSize: 100, sort: '-name' } });
    // Page 50 (pages count from 1) in descending name order: 4,900 names from the end are skipped.
    expect([paged.items.length, paged.numItems, paged.items[0].name]).toEqual([100, 10_000, 'file-005099.txt']);
    const res = await call(s, 'folder.getFiles', { path: { folderId: folder.id }, query: { skipCount: 5000, maxItems: 100 } });
    expect([res.files.length, res.numItems, res.files[0].name]).toEqual([100, 10_000, 'file-005000.txt']);
  });

  it('lists a small folder alone and keeps memory reasonable beside 100,000 small files', async () => {
    const s = freshState();
    const big = (await call(s, 'folder.create', { body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Huge' } })).folder;
    const before = process.memoryUsage().heapUsed;
    addFiles(s, big.id, 100_000);
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown / 100_000).toBeLessThan(4096);
    const downloads = named(s, 'folder', 'Downloads').id;
    const small = await call(s, 'folder.getFiles', { path: { folderId: downloads } });
    expect(small.files.length).toBeGreaterThan(0);
    expect(small.files.every((f: { folderId: number }) => f.folderId === downloads)).toBe(true);
  }, 120_000);
});
