import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../harness/transport.ts';
import {
  boundFindings,
  described,
  expectIncludes,
  expectSequence,
  expectSet,
  expectSubset,
  mixedCaseNames,
  partitionFindings,
  words,
  type Listing,
} from '../../harness/lists.ts';
import { termMatches, userTexts } from '../../suites/filtering/terms.ts';

const exchange: Exchange = {
  seq: 1,
  request: { method: 'GET', url: 'http://127.0.0.1:1/rest/folder/getFiles/7?search=x', headers: {} },
  durationMs: 0,
};
const listing = (ids: number[]): Listing<{ id: number }> => ({ records: ids.map((id) => ({ id })), ids, exchange });

describe('id list comparisons', () => {
  it('names the request without the base path', () => {
    expect(described(exchange)).toBe('GET /folder/getFiles/7?search=x');
    expect(described({ ...exchange, request: { ...exchange.request, url: 'http://h/file-api/rest/file?folderId=3' } })).toBe(
      'GET /file?folderId=3',
    );
  });

  it('accepts the expected sequence and reports the first difference otherwise', () => {
    expect(expectSequence('PAG-03', 'slice', [1, 2, 3], listing([1, 2, 3]), 'why')).toEqual([]);
    const [f] = expectSequence('PAG-03', 'slice', [1, 2, 3], listing([1, 3, 2]), 'page 1');
    expect(f?.message).toContain('first difference at position 2');
    expect(f?.requirement).toBe('PAG-03');
  });

  it('compares sets ignoring order, but not duplicates', () => {
    expect(expectSet('FLT-01', 'search', [1, 2], listing([2, 1]), 'why')).toEqual([]);
    expect(expectSet('FLT-01', 'search', [1, 2], listing([1, 2, 2]), 'why')[0]?.message).toContain('listed twice [2]');
    expect(expectSet('FLT-01', 'search', [1, 2], listing([1, 3]), 'why')[0]?.message).toMatch(/missing \[2\], unexpected \[3\]/);
  });

  it('checks subsets and inclusions', () => {
    expect(expectSubset('FLT-09', 'p', [1, 2, 3], listing([3, 1]), 'why')).toEqual([]);
    expect(expectSubset('FLT-09', 'p', [1, 2], listing([3]), 'why')).toHaveLength(1);
    expect(expectIncludes('FLT-09', 'p', [1], listing([3, 1]), 'why')).toEqual([]);
    expect(expectIncludes('FLT-09', 'p', [2], listing([3, 1]), 'why')).toHaveLength(1);
  });
});

describe('partitionFindings', () => {
  it('accepts a filter and its negation that split the unfiltered list', () => {
    expect(partitionFindings('FLT-07', 'broken', listing([1, 2, 3]), listing([2]), listing([3, 1]))).toEqual([]);
  });

  it('reports overlap, items lost by both and items only the filters list', () => {
    expect(partitionFindings('FLT-07', 'broken', listing([1, 2, 3]), listing([1, 2, 3]), listing([1, 2, 3]))[0]?.message).toContain(
      'both list',
    );
    expect(partitionFindings('FLT-07', 'broken', listing([1, 2, 3]), listing([1]), listing([2]))[0]?.message).toContain(
      '[3] listed without broken',
    );
    expect(partitionFindings('FLT-07', 'broken', listing([1]), listing([1]), listing([4]))[0]?.message).toContain(
      '[4] listed with broken=true or false',
    );
  });
});

describe('boundFindings', () => {
  const records = [
    { id: 1, at: 10 },
    { id: 2, at: 20 },
    { id: 3, at: 30 },
  ];
  const stamp = (r: { id?: number; at?: number }) => r.at;

  it('lets an item stamped exactly at the bound go either way', () => {
    expect(boundFindings('FLT-03', 'createdsince', records, stamp, 20, true, listing([2, 3]))).toEqual([]);
    expect(boundFindings('FLT-03', 'createdsince', records, stamp, 20, true, listing([3]))).toEqual([]);
    expect(boundFindings('FLT-03', 'createdbefore', records, stamp, 20, false, listing([1]))).toEqual([]);
  });

  it('reports kept items outside the bound and dropped items inside it', () => {
    expect(boundFindings('FLT-03', 'createdsince', records, stamp, 20, true, listing([1, 2, 3]))[0]?.message).toContain('must drop');
    expect(boundFindings('FLT-03', 'createdbefore', records, stamp, 25, false, listing([1]))[0]?.message).toContain('missing [2]');
  });
});

describe('generated names', () => {
  it('makes mixed-case names whose code point order differs from their case-insensitive order', () => {
    for (const seed of [1, 2, 3, 42]) {
      const names = mixedCaseNames(seed, 10);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(10);
      expect(names.every((n) => /^[a-zA-Z][a-z]{4}$/.test(n))).toBe(true);
      expect([...names].sort()).not.toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    }
  });

  it('makes distinct words of one length, the same for the same seed', () => {
    const ws = words(7, 12, 6);
    expect(new Set(ws).size).toBe(12);
    expect(ws.every((w) => /^[a-z]{6}$/.test(w))).toBe(true);
    expect(words(7, 12, 6)).toEqual(ws);
  });
});

describe('matching', () => {
  it('matches a term against the id, or a part of the name, description or extra texts', () => {
    const r = { id: 17, name: 'alpha.txt', description: 'about gamma' };
    expect(termMatches(r, '17')).toBe(true);
    expect(termMatches(r, '1')).toBe(false);
    expect(termMatches(r, 'lph')).toBe(true);
    expect(termMatches(r, 'gamma')).toBe(true);
    expect(termMatches(r, 'delta', ['/nice/delta'])).toBe(true);
    expect(termMatches(r, 'delta')).toBe(false);
  });

  it('lists the lower-cased texts a user pattern may match', () => {
    expect(userTexts({ login: 'jdoe', firstName: 'John', lastName: 'Doe' })).toEqual(['jdoe', 'john', 'doe', 'john doe']);
    expect(userTexts(undefined)).toEqual([]);
  });
});
