import { describe, expect, it } from 'vitest';
import {
  addFile,
  addFolder,
  createModel,
  deleteFolder,
  deletionMarked,
  diffListing,
  hasLocalizedWithin,
  listing,
  localize,
  moveFile,
  nameTaken,
  renameFile,
  unlocalize,
  visibleInChannel,
  type ListedRecord,
  type ListingQuery,
  type Model,
} from '../../harness/model.ts';
import { legacySlice, pageSlice } from '../../harness/slices.ts';

/** D0 (10) holding D1 (11) with D2 (12) inside, f1 (20) in D0 and f2 (21) in D1. */
function sample(): Model {
  const m = createModel(10);
  addFolder(m, 'D0', 11, 'Alpha');
  addFolder(m, 'D1', 12, 'Beta');
  addFile(m, 'D0', { id: 20, name: 'a.txt', size: 3, sha256: 'x' });
  addFile(m, 'D1', { id: 21, name: 'b.txt', size: 5, sha256: 'y' });
  return m;
}

const ids = (m: Model, q: ListingQuery) =>
  listing(m, q)
    .entries.map((e) => e.id)
    .sort();
const q = (folder: string, kind: 'folder' | 'file', extra: Partial<ListingQuery> = {}): ListingQuery => ({
  folder,
  kind,
  view: 'master',
  wastebin: 'exclude',
  ...extra,
});

describe('listing predictions', () => {
  it('lists direct children, or all descendants with recursive', () => {
    const m = sample();
    expect(ids(m, q('D0', 'file'))).toEqual([20]);
    expect(ids(m, q('D0', 'file', { recursive: true }))).toEqual([20, 21]);
    expect(ids(m, q('D0', 'folder', { recursive: true }))).toEqual([11, 12]);
  });

  it('follows a moved file and a renamed one', () => {
    const m = sample();
    moveFile(m.files[0]!, 'D1');
    renameFile(m.files[0]!, 'c.txt');
    expect(ids(m, q('D0', 'file'))).toEqual([]);
    expect(
      listing(m, q('D1', 'file'))
        .entries.map((e) => e.name)
        .sort(),
    ).toEqual(['b.txt', 'c.txt']);
  });

  it('applies the wastebin modes to a deleted folder and everything below it', () => {
    const m = sample();
    deleteFolder(m.folders[1]!);
    expect(ids(m, q('D0', 'folder'))).toEqual([]);
    expect(ids(m, q('D0', 'folder', { wastebin: 'only' }))).toEqual([11]);
    expect(ids(m, q('D0', 'folder', { wastebin: 'include', recursive: true }))).toEqual([11, 12]);
    expect(ids(m, q('D0', 'file', { recursive: true }))).toEqual([20]);
    expect(ids(m, q('D0', 'file', { recursive: true, wastebin: 'only' }))).toEqual([21]);
    expect(listing(m, q('D1', 'file'))).toMatchObject({ listable: false, unlistable: 'deleted' });
    expect(listing(m, q('D1', 'file', { wastebin: 'only' })).entries).toMatchObject([{ id: 21, deleted: true }]);
  });

  it('shows the channel inherited masters, localized copies by their own id, and hides excluded objects with their content', () => {
    const m = sample();
    const channel = { view: 'channel' as const };
    expect(listing(m, q('D0', 'file', channel)).entries).toMatchObject([{ id: 20, inherited: true }]);
    localize(m.files[0]!, 30);
    expect(listing(m, q('D0', 'file', channel)).entries).toMatchObject([{ id: 30, inherited: false }]);
    expect(listing(m, q('D0', 'file')).entries).toMatchObject([{ id: 20, inherited: false }]);
    unlocalize(m, m.files[0]!);
    expect(m.retired.get(30)).toBe('f1');
    m.folders[1]!.excluded = true;
    expect(visibleInChannel(m, m.files[1]!)).toBe(false);
    expect(ids(m, q('D0', 'folder', channel))).toEqual([]);
    expect(listing(m, q('D1', 'file', channel))).toMatchObject({ listable: false, unlistable: 'hidden' });
    expect(ids(m, q('D0', 'file', { ...channel, recursive: true }))).toEqual([20]);
  });

  it('knows where localized copies are and which names are taken, ignoring case', () => {
    const m = sample();
    expect(hasLocalizedWithin(m, m.folders[1]!)).toBe(false);
    localize(m.files[1]!, 31);
    expect(hasLocalizedWithin(m, m.folders[1]!)).toBe(true);
    expect(nameTaken(m, 'D0', 'file', 'A.TXT')).toBe(true);
    expect(nameTaken(m, 'D0', 'file', 'a.txt', { except: 'f1' })).toBe(false);
    expect(nameTaken(m, 'D0', 'folder', 'alpha')).toBe(true);
    expect(nameTaken(m, 'D0', 'folder', 'alpha', { exact: true })).toBe(false);
    expect(nameTaken(m, 'D0', 'folder', 'Alpha', { exact: true })).toBe(true);
    deleteFolder(m.folders[1]!);
    expect(nameTaken(m, 'D0', 'folder', 'Alpha', { exact: true })).toBe(false);
  });
});

describe('paging predictions', () => {
  it('slices Group L by skipCount and maxItems', () => {
    expect(legacySlice(5, 0, -1)).toEqual({ start: 0, end: 5, hasMoreItems: false });
    expect(legacySlice(5, 1, 2)).toEqual({ start: 1, end: 3, hasMoreItems: true });
    expect(legacySlice(5, 3, 2)).toEqual({ start: 3, end: 5, hasMoreItems: false });
    expect(legacySlice(5, 7, 2)).toEqual({ start: 5, end: 5, hasMoreItems: false });
    expect(legacySlice(5, 0, 0)).toEqual({ start: 0, end: 0, hasMoreItems: true });
  });

  it('slices Group P by page (from 1) and pageSize', () => {
    expect(pageSlice(5, 1, -1)).toEqual({ start: 0, end: 5, hasMoreItems: false });
    expect(pageSlice(5, 2, 2)).toEqual({ start: 2, end: 4, hasMoreItems: true });
    expect(pageSlice(5, 3, 2)).toEqual({ start: 4, end: 5, hasMoreItems: false });
    expect(pageSlice(5, 4, 2)).toEqual({ start: 5, end: 5, hasMoreItems: false });
    expect(pageSlice(5, 1, 0)).toEqual({ start: 0, end: 0, hasMoreItems: true });
  });
});

describe('judging a listing', () => {
  it('accepts the predicted objects in any order, with harmless extras', () => {
    const m = sample();
    const query = q('D0', 'folder');
    const record: ListedRecord & Record<string, unknown> = { 'x-vendor': 1, deleted: { at: 0 }, inherited: false, name: 'Alpha', id: 11 };
    expect(diffListing(m, query, listing(m, query), [record])).toEqual([]);
  });

  it('names the rule a difference breaks', () => {
    const m = sample();
    deleteFolder(m.folders[2]!);
    const exclude = q('D1', 'folder');
    expect(diffListing(m, exclude, listing(m, exclude), [{ id: 12, name: 'Beta' }])).toMatchObject([{ requirement: 'WST-01' }]);
    const only = q('D0', 'folder', { wastebin: 'only' });
    expect(diffListing(m, only, listing(m, only), [{ id: 11, name: 'Alpha' }])).toMatchObject([{ requirement: 'WST-03' }]);
    const include = q('D1', 'file', { wastebin: 'include' });
    expect(diffListing(m, include, listing(m, include), [{ id: 21, name: 'b.txt', fileSize: 5 }])).toEqual([]);
    const deletedAt = { at: 5, by: { id: 1 } };
    expect(diffListing(m, include, listing(m, include), [{ id: 21, name: 'b.txt', fileSize: 5, deleted: deletedAt }])).toMatchObject([
      { requirement: 'WST-02' },
    ]);
    // A deleted object carries a deletion mark; which one, and whether it names `by`, is the server's (contract 3).
    const folders = q('D1', 'folder', { wastebin: 'include' });
    expect(diffListing(m, folders, listing(m, folders), [{ id: 12, name: 'Beta', deleted: { at: 0 } }])).toMatchObject([
      { requirement: 'WST-02' },
    ]);
    expect(diffListing(m, folders, listing(m, folders), [{ id: 12, name: 'Beta', deleted: { at: 5 } }])).toEqual([]);
    expect(diffListing(m, folders, listing(m, folders), [{ id: 12, name: 'Beta', deleted: deletedAt }])).toEqual([]);
    deleteFolder(m.folders[1]!);
    expect(diffListing(m, include, listing(m, include), [{ id: 21, name: 'b.txt', fileSize: 5 }])).toMatchObject([
      { requirement: 'WST-05' },
    ]);
    expect(diffListing(m, include, listing(m, include), [{ id: 21, name: 'b.txt', fileSize: 5, deleted: deletedAt }])).toEqual([]);
    expect(diffListing(m, include, listing(m, include), [{ id: 21, name: 'b.txt', fileSize: 5, folderDeleted: deletedAt }])).toEqual([]);
  });

  it('flags channel views that ignore localization and exclusion', () => {
    const m = sample();
    const channel = q('D0', 'file', { view: 'channel' });
    expect(diffListing(m, channel, listing(m, channel), [{ id: 20, name: 'a.txt', fileSize: 3 }])).toMatchObject([
      { requirement: 'MCH-01' },
    ]);
    localize(m.files[0]!, 30);
    // The copy is told by its id: what it says in `inherited` is open (open choice localized-copy-inherited).
    expect(diffListing(m, channel, listing(m, channel), [{ id: 30, name: 'a.txt', fileSize: 3, inherited: true }])).toEqual([]);
    expect(diffListing(m, channel, listing(m, channel), [{ id: 30, name: 'a.txt', fileSize: 3 }])).toEqual([]);
    expect(
      diffListing(m, channel, listing(m, channel), [{ id: 20, name: 'a.txt', fileSize: 3, inherited: true }]).map((p) => p.requirement),
    ).toEqual(['MCH-02', undefined]);
    unlocalize(m, m.files[0]!);
    expect(
      diffListing(m, channel, listing(m, channel), [
        { id: 30, name: 'a.txt', inherited: false },
        { id: 20, name: 'a.txt', fileSize: 3, inherited: true },
      ]),
    ).toMatchObject([{ requirement: 'MCH-03' }]);
    m.files[0]!.excluded = true;
    expect(diffListing(m, channel, listing(m, channel), [{ id: 20, name: 'a.txt', fileSize: 3, inherited: true }])).toMatchObject([
      { requirement: 'MCH-06' },
    ]);
  });

  it('reports missing, unknown and changed entries without a rule of their own', () => {
    const m = sample();
    const query = q('D0', 'file');
    const problems = diffListing(m, query, listing(m, query), [
      { id: 99, name: 'x' },
      { id: 21, name: 'b.txt' },
    ]);
    expect(problems.map((p) => p.requirement)).toEqual([undefined, undefined, undefined]);
    expect(problems.map((p) => p.message).join('\n')).toMatch(
      /never created[\s\S]*model has in folder D1[\s\S]*f1 \(id 20, "a.txt", live\) is missing/,
    );
    expect(diffListing(m, query, listing(m, query), [{ id: 20, name: 'a.txt', fileSize: 2 }])[0]!.message).toMatch(
      /fileSize 2, expected 3/,
    );
  });

  it('reads deletion marks leniently', () => {
    expect(deletionMarked({ deleted: { at: 0 } })).toBe(false);
    expect(deletionMarked({ folderDeleted: { at: 17 } })).toBe(true);
    expect(deletionMarked({ masterDeleted: { by: { id: 1 } } })).toBe(true);
  });
});
