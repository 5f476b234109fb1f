/**
 * The variations of the folder, record and page handlers (server/variations.ts; asked in the plans of
 * server/handlers/planted/: folders.ts, pages.ts, render.ts, usage.ts, multichannel.ts): each is off by default and changes
 * the answer it claims when switched on.
 */
import type { State } from '../../server/state.ts';
import type { VariationName } from '../../server/variations.ts';
import { type Body, ids, named, describeVariations, type Probe } from './helpers.ts';

/** The variations this file probes: the other variation test files probe the rest. */
const AREA = [
  'folder-sort-name-only',
  'breadcrumb-folder-first',
  'getitems-pages-only',
  'getfolders-post-recursive-default',
  'tree-search-top-level-only',
  'flat-listing-nests-subfolders',
  'getfolders-plain-recursive-ids',
  'privileges-as-map',
  'language-variants-by-id',
  'external-links-any-scheme',
  'disinherited-channels-omitted',
  'template-tags-without-flags',
  'folder-name-collision-refused',
  'folder-name-collision-kept',
  'syncable-dst-must-be-channel',
] as const satisfies readonly VariationName[];

const pick = (records: Body[] | undefined, key = 'name') => (records ?? []).map((r) => r[key]);
const folder = (s: State, name: string) => named(s, 'folder', name).id;
/** Folder records with the names of the sub-folders attached to each, to show nesting. */
const nested = (records: Body[]): unknown[] => records.map((f) => [f.name, f.subfolders === undefined ? null : nested(f.subfolders)]);

/** A probe per variation: a request whose answer the variation changes. */
const probes: Record<(typeof AREA)[number], Probe> = {
  // The sub-folders of Files were created Images, Downloads, Bulk: by id descending they come the other way round.
  'folder-sort-name-only': async (run, s) =>
    pick((await run('folder.list', { query: { folderId: String(folder(s, 'Files')), sort: '-id' } })).items),
  'breadcrumb-folder-first': async (run, s) => pick((await run('folder.breadcrumb', { path: { id: folder(s, 'Manuals') } })).folders),
  'getitems-pages-only': async (run, s) =>
    pick((await run('folder.getItems', { path: { folderId: folder(s, 'Multichannel') } })).items, 'type'),
  'getfolders-post-recursive-default': async (run, s) =>
    pick((await run('folder.getFolders.post', { body: { id: String(folder(s, 'Files')) } })).folders),
  // Files matches the search by its name; of the folders below it only Bulk does, by its description.
  'tree-search-top-level-only': async (run, s) =>
    nested(
      (await run('folder.list', { query: { folderId: String(ids(s).masterRootFolderId), recursive: true, tree: true, search: 'Files' } }))
        .items,
    ),
  'flat-listing-nests-subfolders': async (run, s) =>
    nested((await run('folder.getFolders', { path: { id: folder(s, 'Files') }, query: { recursive: true } })).folders),
  // Named in the node form, Files alone is descended into: not Pages, nor Downloads below Files.
  'getfolders-plain-recursive-ids': async (run, s) => {
    const query = { recursive: true, recursiveIds: [`${ids(s).masterNodeId}/${folder(s, 'Files')}`] };
    return pick((await run('folder.getFolders', { path: { id: ids(s).masterRootFolderId }, query })).folders);
  },
  'privileges-as-map': async (run, s) => {
    const loaded = (await run('folder.load', { path: { id: folder(s, 'Files') }, query: { privileges: true } })).folder;
    return [loaded.privileges !== undefined, loaded.privilegeMap !== undefined];
  },
  'language-variants-by-id': async (run, s) => {
    const query = { langvars: true, search: 'Product overview' };
    return ((await run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query })).pages as Body[]).map((p) =>
      Object.keys(p.languageVariants ?? {}),
    );
  },
  // "Links and resources" links an ftp: address besides its http(s) ones.
  'external-links-any-scheme': async (run, s) =>
    ((await run('folder.getExternalLinks', { path: { folderId: ids(s).pagesFolderId } })).pages as Body[]).flatMap((p) => p.links),
  'disinherited-channels-omitted': async (run, s) => {
    const { files } = await run('folder.getFiles', { path: { folderId: folder(s, 'Multichannel') } });
    return (files as Body[]).filter((f) => f.disinherited).map((f) => [f.name, f.disinheritedChannels?.length ?? null]);
  },
  'template-tags-without-flags': async (run, s) => {
    const { templates } = await run('folder.getTemplates', { path: { folderId: ids(s).templatesFolderId } });
    return (templates as Body[]).map((t) =>
      Object.values(t.templateTags as Record<string, Body>).map((tag) => [tag.mandatory, tag.editableInPage]),
    );
  },
  // Files has a sub-folder named Downloads already.
  'folder-name-collision-refused': async (run, s) =>
    (await run('folder.create', { body: { motherId: String(folder(s, 'Files')), name: 'Downloads' } })).folder.name,
  'folder-name-collision-kept': async (run, s) =>
    (await run('folder.create', { body: { motherId: String(folder(s, 'Files')), name: 'Downloads' } })).folder.name,
  'syncable-dst-must-be-channel': async (run, s) =>
    pick(
      (
        await run('file.usage.syncableObjects', {
          query: { ids: [named(s, 'file', 'product-sheet.pdf').id], srcNodeId: ids(s).channelNodeId, dstNodeId: ids(s).masterNodeId },
        })
      ).pages,
    ),
};

describeVariations('the variations of the folders, records and pages', AREA, probes);
