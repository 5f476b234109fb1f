import { describe, expect, it } from 'vitest';
import { duplicates, firstDifference, sameMultiset, setDifference, stringsOrdered, valuesOrdered } from '../../harness/oracles.ts';

describe('name order', () => {
  it('accepts code point order and case-insensitive order, both directions', () => {
    expect(stringsOrdered(['B', 'a', 'c'], 'asc')).toBe(true); // code points: uppercase first
    expect(stringsOrdered(['a', 'B', 'c'], 'asc')).toBe(true); // ignoring case
    expect(stringsOrdered(['c', 'B', 'a'], 'desc')).toBe(true);
  });

  it('rejects an order no reasonable collation gives', () => {
    expect(stringsOrdered(['b', 'a', 'c'], 'asc')).toBe(false);
    expect(stringsOrdered(['a', 'b', 'c'], 'desc')).toBe(false);
  });

  it('lets equal keys come in any order and compares numbers and booleans numerically', () => {
    expect(valuesOrdered([1, 1, 2, 10], 'asc')).toBe(true);
    expect(valuesOrdered([10, 2], 'asc')).toBe(false);
    expect(valuesOrdered([false, true, true], 'asc')).toBe(true);
    expect(valuesOrdered([1, 'a'], 'asc')).toBe(false);
  });
});

describe('list relations', () => {
  it('find differences, duplicates and multiset equality', () => {
    expect(firstDifference([1, 2, 3], [1, 2, 4])).toBe(2);
    expect(firstDifference([1, 2], [1, 2])).toBe(-1);
    expect(setDifference([1, 2, 3], [2, 3, 4])).toEqual({ missing: [1], extra: [4] });
    expect(duplicates([1, 2, 2, 3, 3, 3])).toEqual([2, 3]);
    expect(sameMultiset([1, 2, 2], [2, 1, 2])).toBe(true);
    expect(sameMultiset([1, 2, 2], [1, 1, 2])).toBe(false);
  });
});
