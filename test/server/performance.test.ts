/**
 * Listing cost grows with the folder, not with the store: a 10,000-file folder pages 100 items fast,
 * a small folder stays fast beside 100,000 files, and 100,000 small files fit in reasonable memory.
 * Bounds are generous (shared CI machines); they catch a listing that scans the whole store.
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

/** The fastest of a few runs, in milliseconds (the first runs warm up the JIT). */
async function fastest(run: () => Promise<unknown>, times = 5): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await run();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

describe('listing cost', () => {
  it('pages 100 items of a 10,000-file folder fast', async () => {
    const s = freshState();
    const folder = (await call(s, 'folder.create', { body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Big' } })).folder;
    addFiles(s, folder.id, 10_000);
    const legacy = await fastest(() =>
      call(s, 'folder.getFiles', { path: { folderId: folder.id }, query: { skipCount: 5000, maxItems: 100 } }),
    );
    const paged = await fastest(() =>
      call(s, 'file.list', { query: { folderId: String(folder.id), page: 50, pageSize: 100, sort: '-name' } }),
    );
    expect(legacy).toBeLessThan(250);
    expect(paged).toBeLessThan(250);
    const res = await call(s, 'folder.getFiles', { path: { folderId: folder.id }, query: { skipCount: 5000, maxItems: 100 } });
    expect([res.files.length, res.numItems, res.files[0].name]).toEqual([100, 10_000, 'file-005000.txt']);
  });

  it('keeps small folders fast and memory reasonable beside 100,000 small files', async () => {
    const s = freshState();
    const big = (await call(s, 'folder.create', { body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Huge' } })).folder;
    const before = process.memoryUsage().heapUsed;
    addFiles(s, big.id, 100_000);
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown / 100_000).toBeLessThan(4096);
    const small = await fastest(() => call(s, 'folder.getFiles', { path: { folderId: named(s, 'folder', 'Downloads').id } }));
    expect(small).toBeLessThan(20);
  }, 120_000);
});
