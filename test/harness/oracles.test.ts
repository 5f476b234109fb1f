import { describe, expect, it } from 'vitest';
import { duplicates, firstDifference, sameMultiset, setDifference, stringsOrdered, valuesOrdered, partOf } from '../../harness/oracles.ts';

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

describe('search terms', () => {
  it('cut parts of a name at code points: an emoji is never halved into a lone surrogate', () => {
    expect(partOf('emoji-😀 page 30', 3, 4)).toBe('ji-😀');
    expect(partOf('😀😀😀', 1, 5)).toBe('😀😀');
    // Near the end the part starts early enough to keep two code points; a short name is kept whole.
    expect(partOf('abcdef', 5, 4)).toBe('ef');
    expect(partOf('a😀', 3, 2)).toBe('a😀');
    for (let start = 0; start < 12; start++)
      for (let length = 1; length < 6; length++) expect(partOf('x😀y😀z', start, length)).not.toMatch(/[\uD800-\uDFFF]/u);
  });
});
