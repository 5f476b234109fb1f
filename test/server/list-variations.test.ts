/**
 * The variations of the listing, filter, sort, usage and wastebin handlers (server/variations.ts): each is off by default
 * and changes the answer it claims when switched on, so that `prove` runs the suite against a server that really plays it.
 */
import { describe, expect, it } from 'vitest';
import type { PageObj, State } from '../../server/state.ts';
import type { VariationName } from '../../server/variations.ts';
import { type Body, type Call, ids, named, observe, type Run } from './helpers.ts';

const pick = (records: Body[] | undefined, key = 'name') => (records ?? []).map((r) => r[key]);
const folder = (s: State, name: string) => named(s, 'folder', name).id;
const pagesOf = (run: Run, s: State, query: Call['query'] = {}) =>
  run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { recursive: true, ...query } });

/** A probe per variation of this area: a request whose answer the variation changes. */
const probes: Partial<Record<VariationName, (run: Run, s: State) => Promise<unknown>>> = {
  'niceurl-full-match': async (run, s) => pick((await pagesOf(run, s, { niceurl: 'o' })).pages),
  'niceurl-matches-alternates': async (run, s) => pick((await pagesOf(run, s, { niceurl: 'angebot' })).pages),
  'find-prefix-match': async (run, s) =>
    pick((await run('folder.findPages', { query: { folderId: ids(s).pagesFolderId, query: 'us' } })).pages),
  'filename-prefix': async (run, s) => pick((await pagesOf(run, s, { filename: 'us' })).pages),
  'user-pattern-login-only': async (run, s) => pick((await pagesOf(run, s, { publisher: 'Berger' })).pages),
  'priority-at-least': async (run, s) => pick((await pagesOf(run, s, { priority: 4 })).pages),
  'language-unknown-refused': async (run, s) => pick((await pagesOf(run, s, { language: 'xx', langfallback: false })).pages),
  'language-keeps-languageless': async (run, s) => pick((await pagesOf(run, s, { language: 'en', langfallback: false })).pages),
  'custom-dates-effective': async (run, s) => pick((await pagesOf(run, s, { sortby: 'cdate' })).pages),
  'insync-lists-untranslated': async (run, s) => pick((await pagesOf(run, s, { insync: false })).pages),
  'nulls-last': async (run, s) => pick((await pagesOf(run, s, { sortby: 'pdate' })).pages),
  'unknown-sort-refused': async (run, s) =>
    pick((await run('file.list', { query: { folderId: String(folder(s, 'Files')), sort: 'colour' } })).items),
  'usage-files-only': async (run, s) => (await run('file.usage.file', { query: { id: [named(s, 'image', 'logo.png').id] } })).total,
  'usage-page-unsorted': async (run, s) => {
    const id = named(s, 'file', 'annual-report-2023.pdf').id;
    return pick((await run('file.usage.page', { query: { id: [id], maxItems: 0 } })).pages);
  },
  'usage-sortby-name-only': async (run, s) => {
    const every = [...s.objects.values()].filter((o) => o.kind === 'file' || o.kind === 'image').map((o) => o.id);
    return pick((await run('file.usage.file', { query: { id: every, sortby: 'cdate' } })).files);
  },
  'used-includes-content-tags': async (run, s) => {
    // The fixture links no file in a content tag: one is added, as an editor adds a download link to a page's text.
    const file = named(s, 'file', 'installer.zip');
    const page = named(s, 'page', 'Contact') as PageObj;
    page.tags = [
      ...(page.tags ?? []),
      {
        id: 99_999,
        name: 'content.download',
        constructId: 1,
        active: true,
        type: 'CONTENTTAG',
        properties: { file: { partId: 1, type: 'FILE', fileId: file.id } },
      },
    ];
    return pick((await run('file.usage.page', { query: { id: [file.id] } })).pages);
  },
  'syncable-images-in-files': async (run, s) =>
    pick((await run('file.usage.syncableObjects', { query: { ids: [named(s, 'file', 'product-sheet.pdf').id] } })).files, 'type'),
  'deleted-without-by': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: folder(s, 'Wastebin') }, query: { wastebin: 'only' } })).files, 'deleted'),
  'content-marked-deleted-only': async (run, s) =>
    pick(
      (await run('folder.getFiles', { path: { folderId: folder(s, 'Old campaign') }, query: { wastebin: 'include' } })).files,
      'folderDeleted',
    ),
};

describe('the variations of the listings, filters, sorting, usage and wastebin', () => {
  it.each(Object.keys(probes) as VariationName[])('%s changes the answer it claims', async (name) => {
    const probe = probes[name]!;
    expect(await observe(probe, [name])).not.toBe(await observe(probe, []));
  });
});
