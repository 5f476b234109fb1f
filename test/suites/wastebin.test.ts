import { describe, expect, it } from 'vitest';
import { idsOf } from '../../harness/oracles.ts';
import { deleteInfoProblems, deletionMarks, expectedIds, isMarkedDeleted, marksDeletion } from '../../harness/deletion.ts';

const item = (extra: Record<string, unknown> = {}) => ({ id: 1, cdate: 1, edate: 1, ...extra });

describe('deletion marks', () => {
  it('take any DeleteInfo as a mark, except {at: 0} on live objects', () => {
    expect(marksDeletion({ at: 1700000000, by: { id: 1 } })).toBe(true);
    expect(marksDeletion({ at: 0 })).toBe(false);
    expect(marksDeletion(undefined)).toBe(false);
    expect(marksDeletion([])).toBe(false);
    expect(isMarkedDeleted(item({ deleted: { at: 0 } }))).toBe(false);
    expect(deletionMarks(item({ deleted: { at: 0 }, folderDeleted: { at: 5 } }))).toEqual(['folderDeleted']);
    expect(deletionMarks(item({ masterDeleted: { at: 5, by: {} } }))).toEqual(['masterDeleted']);
  });

  it('require a non-zero integer at, and a User by where one is carried, on a deleted record', () => {
    expect(deleteInfoProblems({ at: 1700000000, by: { id: 2 } })).toEqual([]);
    expect(deleteInfoProblems({ at: 1700000000 })).toEqual([]);
    expect(deleteInfoProblems({ at: 1700000000, by: 'admin' })).toHaveLength(1);
    expect(deleteInfoProblems({ at: 1.5, by: { id: 2 } })).toHaveLength(1);
    expect(deleteInfoProblems({ at: '1700000000', by: 'admin' })).toHaveLength(2);
    expect(deleteInfoProblems(null)).toHaveLength(1);
  });
});

describe('wastebin model', () => {
  it('predicts exclude as the live ids, only as the deleted ids and include as both', () => {
    const model = { live: [1, 2], deleted: [3] };
    expect(expectedIds(model, 'exclude')).toEqual([1, 2]);
    expect(expectedIds(model, 'only')).toEqual([3]);
    expect(expectedIds(model, 'include')).toEqual([1, 2, 3]);
  });

  it('reads numeric ids only', () => {
    expect(idsOf([{ id: 1 }, { id: '2' }, {}, { id: 3 }])).toEqual([1, 3]);
    expect(idsOf(undefined)).toEqual([]);
  });
});
