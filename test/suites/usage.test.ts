import { describe, expect, test } from 'vitest';
import { subtreeIds } from '../../harness/steps.ts';
import { legacyPage, sliceDisagreement } from '../../harness/lists.ts';
import { chunks, tagReferences } from '../../suites/usage/relations.ts';

const list = (...keys: string[]) => keys.map((key, i) => ({ id: i + 1, key }));

describe('usage relations', () => {
  test('legacyPage skips then truncates; a negative maxItems means all', () => {
    expect(legacyPage([1, 2, 3, 4], 1, 2)).toEqual([2, 3]);
    expect(legacyPage([1, 2, 3, 4], 2, -1)).toEqual([3, 4]);
    expect(legacyPage([1, 2, 3], 5, 1)).toEqual([]);
    expect(legacyPage([1, 2, 3], -1, 1)).toEqual([1]);
  });

  test('sliceDisagreement accepts the slice and equal keys trading places', () => {
    const full = list('a', 'b', 'b', 'c');
    expect(sliceDisagreement(full, full.slice(1, 3), 1, 2)).toBeUndefined();
    expect(sliceDisagreement(full, [full[2]!, full[1]!], 1, 2)).toBeUndefined();
    expect(sliceDisagreement(full, [], 4, 3)).toBeUndefined();
  });

  test('sliceDisagreement names wrong lengths, duplicates, strangers and misplaced keys', () => {
    const full = list('a', 'b', 'c');
    expect(sliceDisagreement(full, full, 1, 2)).toMatch(/3 items instead of the 2/);
    expect(sliceDisagreement(full, [full[1]!, full[1]!], 1, 2)).toMatch(/listed twice/);
    expect(sliceDisagreement(full, [full[1]!, { id: 99, key: 'c' }], 1, 2)).toMatch(/does not hold: \[99\]/);
    expect(sliceDisagreement(full, [full[0]!, full[1]!], 1, 2)).toMatch(/position 2 holds "a"/);
  });

  test('tagReferences collects page, file and image ids once each, and folder ids apart', () => {
    const tags = {
      a: { properties: { url: { pageId: 7 }, file: { fileId: 3 } } },
      b: { properties: { image: { imageId: 5 }, again: { fileId: 3 }, none: { pageId: 0 }, folder: { folderId: 9 } } },
    };
    expect(tagReferences(tags)).toEqual({ pages: [7], files: [3], images: [5], folders: [9] });
    expect(tagReferences(undefined)).toEqual({ pages: [], files: [], images: [], folders: [] });
  });

  test('chunks splits into pieces of at most the size', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 2)).toEqual([]);
  });

  test('subtreeIds follows motherId links from the roots', () => {
    const folders = [{ id: 2, motherId: 1 }, { id: 3, motherId: 2 }, { id: 4, motherId: 1 }, { id: 5, motherId: 3 }, { id: 6 }];
    expect([...subtreeIds(folders, [2])].sort()).toEqual([2, 3, 5]);
    expect([...subtreeIds(folders, [1])].sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
