/**
 * The semantic planted faults: each is catalogued with the requirements it breaks, used by the
 * handlers, off by default, and changes the behaviour it claims when switched on.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { requirements } from '../../schemas/requirements.ts';
import type { FaultDef, FaultProbe } from '../../server/fault-def.ts';
import type { FaultName } from '../../server/faults.ts';
import { getOperation } from '../../schemas/operations.ts';
import { paramShapeFaults } from '../../server/faults-params.ts';
import { semanticFaults } from '../../server/faults-semantic.ts';
import { handlers } from '../../server/handlers/index.ts';
import { datasetOf } from '../../server/index.ts';
import { variations } from '../../server/variations.ts';
import type { FileObj, State } from '../../server/state.ts';
import { Refusal, type FaultSet } from '../../server/types.ts';
import { type Body, type Call, ids, named, observe, part, type Probe, request, type Run, switchesAskedInHandlers } from './helpers.ts';

const pick = (records: Body[], key = 'name') => records.map((r) => r[key]);

/** getPages of the fixture's pages folder and its sub-folders, with more parameters. */
const pagesOf = (run: Run, s: State, query: Call['query'] = {}) =>
  run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { recursive: true, ...query } });

/** Serves `data` at every path on a loopback port while `use` runs: the sourceURL creates download from it. */
async function withHost<T>(data: string, use: (base: string) => Promise<T>, status = 200): Promise<T> {
  const server = createServer((_, res) => res.writeHead(status).end(data));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The faults the handlers plant: the semantic ones and the shape faults under one parameter value. */
type HandlerFault = (typeof semanticFaults)[number]['name'] | (typeof paramShapeFaults)[number]['name'];

/**
 * A probe per handler fault written here; a fault may declare its probe as a request instead (FaultDef's
 * `probe`), and "has a behaviour probe for every fault" below holds every fault to one of the two.
 */
const probes: Partial<Record<HandlerFault, Probe>> = {
  'paging-numitems-after-slice': async (run, s) =>
    (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Bulk').id }, query: { maxItems: 5 } })).numItems,
  'pagesize-zero-returns-all': async (run, s) =>
    (await run('file.list', { query: { folderId: String(named(s, 'folder', 'Bulk').id), pageSize: 0 } })).items.length,
  'paging-page-zero-based': async (run, s) =>
    pick((await run('file.list', { query: { folderId: String(named(s, 'folder', 'Bulk').id), page: 1, pageSize: 2 } })).items),
  'node-id-one-digit': async (run, s) => {
    // The varied data set's node ids have many digits: the channel's is the target file's channelNodeId.
    const { sandboxParentFolderId, channelNodeId } = ids(s);
    const { file } = await run('file.createSimple.multipart', {
      query: { folderId: String(sandboxParentFolderId), qqfile: 'node.txt', nodeId: channelNodeId },
      multipart: { files: [part('fileBinaryData', 'n\n', 'node.txt', 'text/plain')] },
    });
    return file.name;
  },
  'wfwatch-no-group-500': async (run, s) => {
    try {
      return pick((await run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { recursive: true, wfwatch: true } })).pages);
    } catch (err) {
      if (err instanceof Refusal) throw err;
      return (err as Error).name;
    }
  },
  'save-collision-500': async (run, s) => {
    const id = named(s, 'file', 'notes.txt').id;
    try {
      return (await run('file.save.json', { path: { id }, body: { file: { id, name: 'terms.txt' } } })).file?.name ?? 'saved';
    } catch (err) {
      if (err instanceof Refusal) throw err;
      return (err as Error).name;
    }
  },
  'recursive-ids-unknown-500': async (run, s) => {
    const id = named(s, 'folder', 'Files').id;
    try {
      return (await run('folder.getFolders', { path: { id }, query: { recursive: true, recursiveIds: ['999999'] } })).folders?.length;
    } catch (err) {
      if (err instanceof Refusal) return `refused ${err.code}`;
      return (err as Error).name;
    }
  },
  'startpage-without-template-500': async (run, s) => {
    // "Bulk" has no template linked into it.
    const motherId = String(named(s, 'folder', 'Bulk').id);
    try {
      return (await run('folder.create', { body: { motherId, name: 'With start page', startpage: true } })).folder?.name;
    } catch (err) {
      if (err instanceof Refusal) return `refused ${err.code}`;
      return (err as Error).name;
    }
  },
  'push2master-content-500': async (run, s) => {
    // The shop's own "Shop specials" folder: pushed with its content.
    const id = named(s, 'folder', 'Shop specials').id;
    try {
      await run('file.push2master', { path: { id }, body: { channelId: 2, recursive: true } });
      return 'pushed';
    } catch (err) {
      if (err instanceof Refusal) return `refused ${err.code}`;
      return (err as Error).name;
    }
  },
  'page-size-capped': async (run, s) =>
    (await run('file.list', { query: { folderId: String(named(s, 'folder', 'Bulk').id), pageSize: 110 } })).items.length,
  'recursion-depth-limited': async (run, s) => {
    // A chain of 205 folders below the sandbox parent: the flat recursive listing of the chain's top lists each level.
    const top = ids(s).sandboxParentFolderId;
    for (let level = 1, mother = top; level <= 205; level++)
      mother = (await run('folder.create', { body: { motherId: String(mother), name: `Level ${level}` } })).folder.id;
    return (await run('folder.getFolders', { path: { id: top }, query: { recursive: true } })).folders.length;
  },
  'skipcount-ignored': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Bulk').id }, query: { skipCount: 5, maxItems: 1 } })).files),
  'unpaged-honours-page': async (run, s) =>
    (await run('file.list', { query: { folderId: String(named(s, 'folder', 'Bulk').id), page: 2 } })).items.length,
  'getfiles-default-maxitems-100': async (run, s) =>
    (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Bulk').id } })).files.length,
  'getpages-default-maxitems-25': async (run, s) => (await run('folder.getPages', { path: { id: ids(s).pagesFolderId } })).pages.length,
  'sortby-filename-uses-name': async (run, s) =>
    pick((await run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { sortby: 'filename' } })).pages, 'fileName'),
  'file-sort-urls-ignored': async (run, s) =>
    pick((await run('file.list', { query: { folderId: String(named(s, 'folder', 'Files').id), sort: '-niceUrl' } })).items),
  'findfiles-default-maxitems-10': async (run, s) =>
    (await run('folder.findFiles', { query: { folderId: named(s, 'folder', 'Bulk').id } })).files.length,
  'sortorder-desc-ignored': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { sortorder: 'desc' } })).files)[0],
  'name-sort-ignored': async (run, s) =>
    pick((await run('file.list', { query: { folderId: String(named(s, 'folder', 'Files').id) } })).items),
  'search-ignores-description': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { search: 'scratch' } })).files),
  'q-ignores-urls': async (run, s) =>
    pick((await run('file.list', { query: { folderId: String(named(s, 'folder', 'Files').id), q: 'downloads' } })).items),
  'editor-filter-matches-creator': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { editorId: [5] } })).files),
  'createdsince-ignored': async (run, s) =>
    (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { createdsince: 1_900_000_000 } })).numItems,
  'inherited-filter-inverted': async (run, s) =>
    pick(
      (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Multichannel').id }, query: { nodeId: 2, inherited: false } }))
        .files,
    ),
  'recursive-ignored': async (run, s) =>
    (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Downloads').id }, query: { recursive: true } })).numItems,
  'getfiles-broken-filter-ignored': async (run, s) =>
    (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { broken: true } })).numItems,
  'used-filter-all-channels': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Multichannel').id }, query: { used: true } })).files),
  'niceurl-regex-literal': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { niceurl: '^/downloads' } })).files),
  'getpages-online-filter-inverted': async (run, s) =>
    (await run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { online: true } })).pages.every((p: Body) => p.online),
  'findfiles-folder0-empty': async (run) => pick((await run('folder.findFiles', { query: { query: 'guide' } })).files),
  'multivalued-first-only': async (run, s) =>
    (
      await run('folder.getPages', {
        path: { id: ids(s).pagesFolderId },
        query: { template_id: [named(s, 'template', 'Landing page').id, named(s, 'template', 'PHP include').id] },
      })
    ).numItems,
  'globalid-not-accepted': async (run, s) =>
    (await run('folder.load', { path: { id: named(s, 'folder', 'Files').globalId } })).folder?.name,
  'folder-id-as-string': async (run, s) => typeof (await run('folder.load', { path: { id: named(s, 'folder', 'Files').id } })).folder.id,
  'page-drops-readonly': async (run, s) => (await run('folder.getPages', { path: { id: ids(s).pagesFolderId } })).pages[0].readOnly,
  'lockedsince-zero-when-unlocked': async (run, s) =>
    pick((await run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { search: 'Home print' } })).pages, 'lockedSince'),
  'alternateurls-unsorted': async (run, s) =>
    (await run('file.load', { path: { id: named(s, 'file', 'brochure.pdf').id } })).file.alternateUrls,
  'wastebin-only-ignored': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Wastebin').id }, query: { wastebin: 'only' } })).files),
  'getfolders-post-default-include': async (run, s) =>
    pick((await run('folder.getFolders.post', { body: { id: String(named(s, 'folder', 'Wastebin').id) } })).folders),
  'count-ignores-wastebin': async (run, s) =>
    (await run('folder.count', { path: { id: named(s, 'folder', 'Wastebin').id }, query: { wastebin: 'only' } })).folders,
  'channel-delete-skips-wastebin': async (run, s) => {
    const mother = named(s, 'folder', 'Multichannel').id;
    const { folder } = await run('folder.create', { body: { motherId: String(mother), name: 'Channel only', nodeId: 2 } });
    await run('folder.delete', { path: { id: folder.id }, query: { nodeId: 2 } });
    return pick((await run('folder.getFolders', { path: { id: mother }, query: { nodeId: 2, wastebin: 'only' } })).folders);
  },
  'count-stale-after-delete': async (run, s) => {
    const { folder } = await run('folder.create', { body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Gone' } });
    await run('folder.delete', { path: { id: folder.id } });
    return (await run('folder.count', { path: { id: ids(s).sandboxParentFolderId } })).folders;
  },
  'delete-inherited-in-channel-allowed': async (run, s) =>
    run('folder.delete', { path: { id: named(s, 'folder', 'Inherited folder').id }, query: { nodeId: 2 } }),
  'delete-localized-in-channel-allowed': async (run, s) =>
    run('folder.delete', { path: { id: named(s, 'folder', 'Localized folder', 2).id }, query: { nodeId: 2 } }),
  'delete-master-not-in-channel': async (run, s) => {
    await run('folder.delete', { path: { id: named(s, 'folder', 'Inherited folder').id } });
    return pick((await run('folder.getFolders', { path: { id: named(s, 'folder', 'Multichannel').id }, query: { nodeId: 2 } })).folders);
  },
  'refused-delete-changes-state': async (run, s) => {
    await expect(run('folder.delete', { path: { id: named(s, 'folder', 'Inherited folder').id }, query: { nodeId: 2 } })).rejects.toThrow(
      Refusal,
    );
    return (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Inherited folder').id } })).numItems;
  },
  'create-failonduplicate-ignored': async (run, s) =>
    run('folder.create', { body: { motherId: String(ids(s).masterRootFolderId), name: 'Files', failOnDuplicate: true } }),
  'created-folder-globalid-unknown': async (run, s) => {
    const { folder } = await run('folder.create', { body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Indexed' } });
    return (await run('folder.load', { path: { id: folder.globalId } })).folder.name;
  },
  'getfolders-post-paging-ignored': async (run, s) =>
    (await run('folder.getFolders.post', { body: { id: String(ids(s).masterRootFolderId), skipCount: 1, maxItems: 1 } })).folders.length,
  'getfolders-post-user-filters-ignored': async (run, s) =>
    pick((await run('folder.getFolders.post', { body: { id: String(named(s, 'folder', 'Files').id), creator: 'nobody-at-all' } })).folders),
  'getfolders-post-date-filters-partial': async (run, s) =>
    pick((await run('folder.getFolders.post', { body: { id: String(named(s, 'folder', 'Files').id), editedBefore: 1 } })).folders),
  'getfolders-post-sort-ignored': async (run, s) =>
    pick((await run('folder.getFolders.post', { body: { id: String(named(s, 'folder', 'Files').id), sortOrder: 'desc' } })).folders),
  'getfolders-post-recursiveids-ignored': async (run, s) => {
    const files = String(named(s, 'folder', 'Files').id);
    return pick((await run('folder.getFolders.post', { body: { id: files, recursive: true, recursiveIds: [files] } })).folders);
  },
  'folder-create-metadata-dropped': async (run, s) => {
    const body = {
      motherId: String(ids(s).sandboxParentFolderId),
      name: 'Described',
      description: 'said',
      nameI18n: { de: 'Beschrieben' },
    };
    const { folder } = await run('folder.create', { body });
    return [folder.description, folder.nameI18n];
  },
  'folder-create-publishdir-derived': async (run, s) =>
    (await run('folder.create', { body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Published', publishDir: '/elsewhere/' } }))
      .folder.publishDir,
  'getitems-lists-subfolder-content': async (run, s) =>
    pick((await run('folder.getItems', { path: { folderId: named(s, 'folder', 'Files').id } })).items),
  'getitems-lists-nothing': async (run, s) => (await run('folder.getItems', { path: { folderId: ids(s).pagesFolderId } })).items.length,
  'tree-not-nested': async (run, s) =>
    (await run('folder.getFolders', { path: { id: named(s, 'folder', 'Files').id }, query: { recursive: true, tree: true } })).folders.map(
      (f: Body) => f.subfolders?.length ?? 0,
    ),
  'reduce-ignored': async (run, s) =>
    (await run('folder.getTemplates', { path: { folderId: ids(s).pagesFolderId }, query: { recursive: true, reduce: true } })).numItems,
  'external-links-recursive-default': async (run, s) =>
    (await run('folder.getExternalLinks', { path: { folderId: ids(s).pagesFolderId } })).pages.map((e: Body) => e.pageId),
  'privileges-missing': async (run, s) =>
    (await run('folder.load', { path: { id: named(s, 'folder', 'Files').id }, query: { privileges: true } })).folder.privileges?.length,
  'recursiveids-node-form-ignored': async (run, s) => {
    const [files, downloads] = [named(s, 'folder', 'Files'), named(s, 'folder', 'Downloads')];
    const query = { recursive: true, recursiveIds: [files, downloads].map((f) => `${f.nodeId}/${f.id}`) };
    return pick((await run('folder.getFolders', { path: { id: files.id }, query })).folders);
  },
  'getfolders-post-deleted-folder-listed': async (run, s) =>
    (await run('folder.getFolders.post', { body: { id: String(named(s, 'folder', 'Old campaign').id) } })).folders,
  'getfolders-post-own-folders-only': async (run, s) =>
    pick((await run('folder.getFolders.post', { body: { id: String(ids(s).masterRootFolderId) } })).folders),
  'load-stagingstatus-as-map': async (run, s) => (await run('file.load', { path: { id: named(s, 'file', 'terms.txt').id } })).stagingStatus,
  'copy-ignores-newfilename': async (run, s) =>
    (await run('file.copy', { body: { file: { id: named(s, 'file', 'terms.txt').id }, newFilename: 'copy.txt' } })).file.name,
  'move-keeps-old-listing': async (run, s) => {
    await run('file.move', { path: { id: named(s, 'file', 'notes.txt').id }, body: { folderId: named(s, 'folder', 'Downloads').id } });
    return pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id } })).files).includes('notes.txt');
  },
  'save-failonduplicate-ignored': async (run, s) =>
    run('file.save.json', { path: { id: named(s, 'file', 'notes.txt').id }, body: { file: { name: 'terms.txt' }, failOnDuplicate: true } }),
  'collision-name-lost': async (run, s) => {
    const upload = () =>
      run('file.create.multipart', {
        multipart: { fields: { folderId: String(ids(s).sandboxParentFolderId) }, files: [part('fileBinaryData', 'abc', 'twice.txt')] },
      });
    await upload();
    return (await upload()).file.name;
  },
  'upload-drops-last-byte': async (run, s) =>
    (
      await run('file.create.multipart', {
        multipart: { fields: { folderId: String(ids(s).sandboxParentFolderId) }, files: [part('fileBinaryData', 'abc', 'abc.txt')] },
      })
    ).file.fileSize,
  'multipart-json-data-as-url-create': async (run, s) => {
    const json = JSON.stringify({ folderId: ids(s).sandboxParentFolderId, name: 'from-url.bin', sourceURL: 'http://127.0.0.1:9/decoy' });
    const multipart = { fields: { folderId: String(ids(s).sandboxParentFolderId) }, files: [part('fileBinaryData', json, 'create.json')] };
    return (await run('file.create.multipart', { multipart })).file.name;
  },
  'url-create-name-from-url': async (run, s) =>
    withHost('downloaded', async (base) => {
      const body = { folderId: ids(s).sandboxParentFolderId, name: 'wanted.txt', sourceURL: `${base}/source.txt` };
      return (await run('file.create.json', { body })).file.name;
    }),
  'url-create-metadata-dropped': async (run, s) =>
    withHost('described', async (base) => {
      const body = { folderId: ids(s).sandboxParentFolderId, name: 'described.txt', sourceURL: `${base}/d.txt`, description: 'said' };
      return (await run('file.create.json', { body })).file.description;
    }),
  'url-create-urls-dropped': async (run, s) =>
    withHost('nice', async (base) => {
      const body = { folderId: ids(s).sandboxParentFolderId, name: 'nice.txt', sourceURL: `${base}/n.txt`, niceURL: '/nice' };
      return (await run('file.create.json', { body })).file.niceUrl;
    }),
  'source-error-stored': async (run, s) =>
    withHost(
      'not found',
      async (base) => {
        const body = { folderId: named(s, 'folder', 'Files').id, name: 'missing.txt', sourceURL: `${base}/missing.txt` };
        return (await run('file.create.json', { body })).file.fileSize;
      },
      404,
    ),
  'source-no-content-filled': async (run, s) =>
    withHost(
      '',
      async (base) => {
        const body = { folderId: named(s, 'folder', 'Files').id, name: 'nothing.txt', sourceURL: `${base}/nothing.txt` };
        return (await run('file.create.json', { body })).file.fileSize;
      },
      204,
    ),
  'url-create-overwrite-ignored': async (run, s) =>
    withHost('replaced', async (base) => {
      const body = { folderId: named(s, 'folder', 'Files').id, name: 'terms.txt', sourceURL: `${base}/t.txt`, overwriteExisting: true };
      return (await run('file.create.json', { body })).file.id;
    }),
  'createsimple-description-ignored': async (run, s) =>
    (
      await run('file.createSimple.raw', {
        query: { folderId: named(s, 'folder', 'Files').id, qqfile: 'described.txt', description: 'said' },
        rawBody: { contentType: 'text/plain', data: Buffer.from('probe\n') },
      })
    ).file.description,
  'save-multipart-drops-description': async (run, s) => {
    const id = named(s, 'file', 'terms.txt').id;
    await run('file.save.multipart', {
      path: { id },
      multipart: { files: [part('fileBinaryData', 'saved\n', 'terms.txt', 'text/plain')] },
    });
    return run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { search: 'zzq' } }).then(
      (body) => pick(body.files),
      (err: Error) => `threw ${err.name}`,
    );
  },
  'upload-duplicates-name': async (run, s) =>
    (
      await run('file.createSimple.raw', {
        query: { folderId: named(s, 'folder', 'Files').id, qqfile: 'terms.txt' },
        rawBody: { contentType: 'text/plain', data: Buffer.from('probe\n') },
      })
    ).file.name,
  'overwrite-keeps-description': async (run, s) =>
    (
      await run('file.createSimple.raw', {
        query: { folderId: named(s, 'folder', 'Files').id, qqfile: 'terms.txt', overwrite: true, description: 'replaced' },
        rawBody: { contentType: 'text/plain', data: Buffer.from('probe\n') },
      })
    ).file.description,
  'media-type-inherited-member': async (run, s) =>
    typeof (
      await run('file.createSimple.raw', {
        query: { folderId: named(s, 'folder', 'Files').id, qqfile: 'x.__proto__' },
        rawBody: { contentType: 'text/plain', data: Buffer.from('probe\n') },
      })
    ).file.fileType,
  'multipart-part-filename-ignored': async (run, s) =>
    (
      await run('file.create.multipart', {
        multipart: { fields: { folderId: String(ids(s).sandboxParentFolderId) }, files: [part('fileBinaryData', 'abc', 'named.txt')] },
      })
    ).file.name,
  'createsimple-no-folder-uses-root': async (run) =>
    (
      await run('file.createSimple.raw', {
        query: { qqfile: 'nowhere.txt' },
        rawBody: { contentType: 'text/plain', data: Buffer.from('x') },
      })
    ).file.folderId,
  'findfiles-filesize-zero': async (run, s) =>
    pick((await run('folder.findFiles', { query: { folderId: named(s, 'folder', 'Files').id, query: 'terms' } })).files, 'fileSize'),
  'createsimple-ignores-databodypart': async (run, s) =>
    run('file.createSimple.multipart', {
      query: { folderId: String(ids(s).sandboxParentFolderId), databodypart: 'mine', qqfile: 'm.txt' },
      multipart: { files: [part('mine', 'm')] },
    }),
  'overwrite-creates-copy': async (run, s) =>
    (
      await run('file.create.multipart', {
        multipart: {
          fields: { folderId: String(named(s, 'folder', 'Files').id), fileName: 'terms.txt', overwrite: 'true' },
          files: [part('fileBinaryData', 'new')],
        },
      })
    ).file.id === named(s, 'file', 'terms.txt').id,
  'save-multipart-ignored': async (run, s) => {
    const id = named(s, 'file', 'terms.txt').id;
    await run('file.save.multipart', { path: { id }, multipart: { files: [part('fileBinaryData', 'replaced')] } });
    return (await run('file.load', { path: { id } })).file.fileSize;
  },
  'inherited-from-names-channel': async (run, s) =>
    (
      await run('folder.getFiles', {
        path: { folderId: named(s, 'folder', 'Multichannel').id },
        query: { nodeId: 2, search: 'inherited.txt' },
      })
    ).files[0].inheritedFrom,
  'localize-noop': async (run, s) => {
    await run('file.localize', { path: { id: named(s, 'file', 'inherited.txt').id }, body: { channelId: 2 } });
    return (
      await run('folder.getFiles', {
        path: { folderId: named(s, 'folder', 'Multichannel').id },
        query: { nodeId: 2, search: 'inherited.txt' },
      })
    ).files[0].inherited;
  },
  'unlocalize-keeps-copy': async (run, s) => {
    await run('file.unlocalize', { path: { id: named(s, 'file', 'localized.txt', 2).id }, body: { channelId: 2 } });
    return (
      await run('folder.getFiles', {
        path: { folderId: named(s, 'folder', 'Multichannel').id },
        query: { nodeId: 2, search: 'localized.txt' },
      })
    ).files[0].inherited;
  },
  'localizations-total-off-by-one': async (run, s) =>
    (await run('file.localizations', { path: { id: named(s, 'file', 'localized.txt').id } })).total,
  'disinherit-get-empty': async (run, s) =>
    (await run('folder.disinherit.get', { path: { id: named(s, 'folder', 'Not for partners').id } })).disinherit,
  'excluded-visible-in-channel': async (run, s) =>
    pick(
      (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Multichannel').id }, query: { nodeId: 2 } })).files,
    ).includes('excluded.txt'),
  'push2master-noop': async (run, s) => {
    await run('file.push2master', { path: { id: named(s, 'file', 'localized.txt', 2).id }, body: { channelId: 2 } });
    return (named(s, 'file', 'localized.txt') as FileObj).data?.toString();
  },
  'push2master-copies-identity': async (run, s) => {
    const id = named(s, 'file', 'localized.txt').id;
    await run('file.push2master', { path: { id: named(s, 'file', 'localized.txt', 2).id }, body: { channelId: 2 } });
    return (await run('file.load', { path: { id } })).file.id;
  },
  'push2master-local-stays': async (run, s) => {
    const local = named(s, 'file', 'shop-only.txt');
    await run('file.push2master', { path: { id: local.id }, body: { channelId: 2 } });
    return local.nodeId;
  },
  // inherited-a.txt is localized in channel 3 only: a copy in channel 2 too, then channel 2's goes.
  'unlocalize-first-copy': async (run, s) => {
    const id = named(s, 'file', 'inherited-a.txt').id;
    await run('file.localize', { path: { id }, body: { channelId: 2 } });
    await run('file.unlocalize', { path: { id }, body: { channelId: 2 } });
    return Object.values((await run('file.localizations', { path: { id } })).nodeIds as Record<string, number>);
  },
  'unlocalize-ignores-recursive-false': async (run, s) => {
    // The fixture localizes "Localized folder" in the shop but nothing in it: its file is localized too, then the folder alone unlocalized.
    const folder = named(s, 'folder', 'Localized folder').id;
    await run('file.localize', { path: { id: named(s, 'file', 'in-localized-folder.txt').id }, body: { channelId: 2 } });
    await run('file.unlocalize', { path: { id: folder }, body: { channelId: 2, recursive: false } });
    return pick((await run('folder.getFiles', { path: { folderId: folder }, query: { nodeId: 2 } })).files, 'inherited');
  },
  // localized.txt has a copy in the shop (node 2); the body names the master node 1, where nothing is localized.
  'unlocalize-channel-from-copy': async (run, s) =>
    run('file.unlocalize', { path: { id: named(s, 'file', 'localized.txt', 2).id }, body: { channelId: 1 } }).then(
      () => 'taken',
      (err: Error) => `threw ${err.name}`,
    ),
  'push2master-channel-from-copy': async (run, s) =>
    run('file.push2master', { path: { id: named(s, 'file', 'localized.txt', 2).id }, body: { channelId: 1 } }).then(
      () => 'taken',
      (err: Error) => `threw ${err.name}`,
    ),
  'unlocalize-recursive-first-variant': async (run, s) => {
    // "Localized folder" is localized in the shop; its file is localized too, then the folder unlocalized recursively.
    const folder = named(s, 'folder', 'Localized folder').id;
    await run('file.localize', { path: { id: named(s, 'file', 'in-localized-folder.txt').id }, body: { channelId: 2 } });
    await run('file.unlocalize', { path: { id: folder }, body: { channelId: 2, recursive: true } });
    return pick((await run('folder.getFiles', { path: { folderId: folder } })).files, 'name');
  },
  'unlocalize-takes-channel-own': async (run, s) => {
    // "Localized folder" is localized in the shop, which makes a file of its own in it; then the folder is unlocalized recursively.
    const folder = named(s, 'folder', 'Localized folder').id;
    await run('file.create.multipart', {
      multipart: { fields: { folderId: String(folder), nodeId: '2' }, files: [part('fileBinaryData', 'own', 'shop-own.txt')] },
    });
    await run('file.unlocalize', { path: { id: folder }, body: { channelId: 2, recursive: true } });
    return pick((await run('folder.getFiles', { path: { folderId: folder }, query: { nodeId: 2 } })).files, 'name');
  },
  'push2master-orphans-local-file': async (run, s) => {
    // shop-flyer.pdf is the shop's own, in "Shop specials", a folder only the shop has.
    try {
      await run('file.push2master', { path: { id: named(s, 'file', 'shop-flyer.pdf').id }, body: { channelId: 2 } });
      return 'pushed';
    } catch (err) {
      if (err instanceof Refusal) return `refused ${err.code}`;
      throw err;
    }
  },
  'localize-again-copies': async (run, s) => {
    // inherited-a.txt is localized in channel 3: localized there again, then unlocalized once.
    const id = named(s, 'file', 'inherited-a.txt').id;
    await run('file.localize', { path: { id }, body: { channelId: 3 } }).catch((err: unknown) => err);
    await run('file.unlocalize', { path: { id }, body: { channelId: 3 } });
    return (await run('file.localizations', { path: { id } })).total;
  },
  'unlocalize-removes-local': async (run, s) => {
    // shop-flyer.pdf is the shop's own file.
    const id = named(s, 'file', 'shop-flyer.pdf').id;
    await run('file.unlocalize', { path: { id }, body: { channelId: 2 } }).catch((err: unknown) => err);
    return (await run('file.load', { path: { id }, query: { nodeId: 2 } }).catch((err: unknown) => err)) instanceof Refusal;
  },
  'disinherit-get-reads-copy': async (run, s) => {
    // "Localized folder" has a copy in the shop (node 2): set and read back in the shop's view.
    const id = named(s, 'folder', 'Localized folder').id;
    await run('folder.disinherit.set', { path: { id }, query: { nodeId: 2 }, body: { disinheritDefault: true } });
    return (await run('folder.disinherit.get', { path: { id }, query: { nodeId: 2 } })).disinheritDefault;
  },
  'disinherit-set-on-copy': async (run, s) => {
    const id = named(s, 'folder', 'Localized folder').id;
    await run('folder.disinherit.set', { path: { id }, query: { nodeId: 2 }, body: { disinheritDefault: true } });
    return (await run('folder.disinherit.get', { path: { id }, query: { nodeId: 2 } })).disinheritDefault;
  },
  'reinherit-leaves-disinherited': async (run, s) => {
    // "Master only" is disinherited nowhere: disinherited in the shop (node 2), then reinherited there.
    const id = named(s, 'folder', 'Master only').id;
    await run('folder.disinherit.set', { path: { id }, body: { disinherit: [2] } });
    await run('folder.disinherit.set', { path: { id }, body: { reinherit: [2] } });
    return (await run('folder.load', { path: { id } })).folder.disinherited;
  },
  'copy-keeps-master': async (run, s) => {
    // localized.txt has a copy in the shop (node 2): copied there, then the copy unlocalized in the shop.
    const copied = await run('file.copy', {
      body: { file: { id: named(s, 'file', 'localized.txt').id }, nodeId: 2, newFilename: 'copy.txt' },
    });
    const id = copied.file.id as number;
    await run('file.unlocalize', { path: { id }, body: { channelId: 2 } }).catch((err: unknown) => err);
    return (await run('file.load', { path: { id }, query: { nodeId: 2 } }).catch((err: unknown) => err)) instanceof Refusal;
  },
  'disinherit-refused-when-localized': async (run, s) => {
    // "Localized folder" has a copy in the shop; disinheritDefault hides nothing from it.
    const id = named(s, 'folder', 'Localized folder').id;
    await run('folder.disinherit.set', { path: { id }, body: { disinheritDefault: true } }).catch((err: unknown) => err);
    return (await run('folder.disinherit.get', { path: { id } })).disinheritDefault;
  },
  // "Localized folder" has a copy in the shop (node 2): hiding it from the shop is refused, or (planted) taken.
  'hide-keeps-localized-copy': async (run, s) =>
    run('folder.disinherit.set', { path: { id: named(s, 'folder', 'Localized folder').id }, body: { disinherit: [2] } }).then(
      () => 'taken',
      (err: Error) => `threw ${err.name}`,
    ),
  // "localized.txt" has a localized copy in the shop (node 2): moving the master's file fails, or (planted) answers 500.
  'copy-success-false': async (run, s) =>
    (await run('file.copy', { body: { file: { id: named(s, 'file', 'terms.txt').id }, newFilename: 'copied.txt' } })).success,
  'move-localized-file-fails': async (run, s) =>
    run('file.move', { path: { id: named(s, 'file', 'localized.txt').id }, body: { folderId: named(s, 'folder', 'Master only').id } }).then(
      () => 'moved',
      (err: Error) => `threw ${err.name}`,
    ),
  // "Master only" lives in the master node (1), which is no channel of it: a list naming node 1 is refused, or (planted) taken.
  'disinherit-list-takes-own-node': async (run, s) =>
    run('folder.disinherit.set', { path: { id: named(s, 'folder', 'Master only').id }, body: { disinherit: [1] } }).then(
      () => 'taken',
      (err: Error) => `threw ${err.name}`,
    ),
  'disinherit-recursive-reaches-channel-own': async (run, s) => {
    // The shop makes a file of its own in "Inherited folder", which is then disinherited from the shop recursively.
    const folder = named(s, 'folder', 'Inherited folder').id;
    const own = (
      await run('file.create.multipart', {
        multipart: { fields: { folderId: String(folder), nodeId: '2' }, files: [part('fileBinaryData', 'own', 'shop-own.txt')] },
      })
    ).file.id;
    await run('folder.disinherit.set', { path: { id: folder }, body: { disinherit: [2], recursive: true } });
    return (await run('file.load', { path: { id: own } })).file.disinheritedChannels?.map((n: { id?: number }) => n.id);
  },
  'disinherit-always-recursive': async (run, s) => {
    await run('folder.disinherit.set', { path: { id: named(s, 'folder', 'Inherited folder').id }, body: { disinherit: [2] } });
    return (await run('file.disinherit.get', { query: { id: [String(named(s, 'file', 'inherited-b.txt').id)] } })).disinherit;
  },
  'disinherit-many-default-ignored': async (run, s) => {
    const id = named(s, 'folder', 'Master only').id;
    await run('folder.disinherit.setMany', { query: { id: [String(id)] }, body: { disinheritDefault: true } });
    return (await run('folder.disinherit.get', { path: { id } })).disinheritDefault;
  },
  'localizationinfo-localized-as-inherited': async (run, s) =>
    (await run('file.localizationinfo', { path: { id: named(s, 'file', 'localized.txt').id }, query: { nodeId: 2 } })).channels[0],
  'usage-total-after-paging': async (run, s) =>
    (
      await run('file.usage.folder', {
        query: { id: [named(s, 'file', 'brochure.pdf').id, named(s, 'file', 'guide.pdf').id], maxItems: 1 },
      })
    ).total,
  'usage-counts-flag-ignored': async (run, s) =>
    (await run('file.usage.folder', { query: { id: [named(s, 'file', 'brochure.pdf').id], folders: false } })).folders,
  'usage-skips-given-users': async (run, s) =>
    pick(
      (await run('file.usage.file', { query: { id: [named(s, 'file', 'terms.txt').id, named(s, 'file', 'product-sheet.pdf').id] } })).files,
    ),
  'usage-paged-before-sorting': async (run, s) =>
    pick(
      (
        await run('file.usage.folder', {
          query: { id: [named(s, 'file', 'brochure.pdf').id, named(s, 'file', 'guide.pdf').id], sortorder: 'desc', maxItems: 1 },
        })
      ).folders,
    ),
  'syncable-missing-images': async (run, s) =>
    (await run('file.usage.syncableObjects', { query: { ids: [named(s, 'file', 'product-sheet.pdf').id] } })).images.length,
  'page-variants-summary': async (run, s) =>
    (await run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { langvars: true } })).pages.flatMap((p: Body) =>
      [...(p.pageVariants ?? []), ...Object.values(p.languageVariants ?? {})].map((v) => typeof (v as Body).readOnly),
    ),
  // The faults that make each test of a requirement fail under one of its own faults (issue 15).
  'getpages-template-id-ignored': async (run, s) => {
    const pages = (await pagesOf(run, s)).pages;
    return (await pagesOf(run, s, { template_id: [pages[0].templateId] })).pages.length;
  },
  'getpages-langfallback-ignored': async (run, s) =>
    Promise.all(s.languages.map(async (l) => pick((await pagesOf(run, s, { language: l.code, langfallback: false })).pages, 'id'))),
  'getpages-priority-zero-restricts': async (run, s) => (await pagesOf(run, s, { priority: 0 })).pages.length,
  'getpages-filename-searches-name': async (run, s) => {
    const page = (await pagesOf(run, s)).pages.find((p: Body) => !p.name.toLowerCase().includes(p.fileName.toLowerCase()));
    return pick((await pagesOf(run, s, { filename: page.fileName })).pages, 'id');
  },
  'getpages-published-bounds-swapped': async (run, s) => {
    const dates = (await pagesOf(run, s)).pages.map((p: Body) => p.pdate).filter((d: number) => d > 0);
    return pick((await pagesOf(run, s, { publishedbefore: Math.min(...dates) })).pages, 'id');
  },
  'getpages-timedue-ignored': async (run, s) => (await pagesOf(run, s, { timedue: 60 })).pages.length,
  'getpages-permission-lists-deleted': async (run, s) => (await pagesOf(run, s, { permission: ['view'] })).pages.length,
  'getpages-recursive-one-level': async (run, s) => (await pagesOf(run, s)).pages.length,
  'findpages-recursive-default-false': async (run, s) =>
    (await run('folder.findPages', { query: { folderId: ids(s).pagesFolderId, maxItems: -1 } })).numItems,
  'sortby-edate-ignored': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { sortby: 'edate' } })).files),
  'sortby-masternode-ignored': async (run, s) =>
    pick(
      (
        await run('folder.getFiles', {
          path: { folderId: ids(s).channelRootFolderId! },
          query: { nodeId: 2, recursive: true, sortby: 'masterNode' },
        })
      ).files,
    ),
  'sortby-excluded-ignored': async (run, s) =>
    pick(
      (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Multichannel').id }, query: { sortby: 'excluded' } })).files,
    ),
  'sortby-deletedat-ignored': async (run, s) =>
    pick(
      (
        await run('folder.getFiles', {
          path: { folderId: named(s, 'folder', 'Wastebin').id },
          query: { wastebin: 'include', recursive: true, sortby: 'deletedat' },
        })
      ).files,
    ),
  'createsimple-raw-ignores-qqfile': async (run, s) =>
    (
      await run('file.createSimple.raw', {
        query: { folderId: named(s, 'folder', 'Files').id, qqfile: 'probe.txt' },
        rawBody: { contentType: 'text/plain', data: Buffer.from('probe\n') },
      })
    ).file.name,
  'createsimple-multipart-ignores-qqfile': async (run, s) =>
    (
      await run('file.createSimple.multipart', {
        query: { folderId: String(named(s, 'folder', 'Files').id), qqfile: 'by-qqfile.txt' },
        multipart: { files: [part('fileBinaryData', 'probe\n', 'by-part.txt', 'text/plain')] },
      })
    ).file.name,
  'save-refused-name-kept': async (run, s) => {
    const file = named(s, 'file', 'inherited.txt').id;
    await run('file.save.json', {
      path: { id: file },
      body: { file: { id: file, name: 'banner-localized.jpg' }, failOnDuplicate: true },
    }).catch((err: unknown) => err);
    return s.objects.get(file)?.name;
  },
  'usage-lists-deleted-users': async (run, s) => {
    // A copy of the product sheet (a user of terms.txt), in a folder then deleted: its use must go with it.
    const terms = named(s, 'file', 'terms.txt').id;
    const { folder } = await run('folder.create', { body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Users' } });
    await run('file.copy', { body: { file: { id: named(s, 'file', 'product-sheet.pdf').id }, targetFolder: { id: folder.id } } });
    await run('folder.delete', { path: { id: folder.id } });
    return pick((await run('file.usage.file', { query: { id: [terms] } })).files);
  },
  'syncable-srcnodeid-ignored': async (run, s) =>
    pick(
      (await run('file.usage.syncableObjects', { query: { ids: [named(s, 'file', 'shop-teaser.txt').id], srcNodeId: 2, dstNodeId: 1 } }))
        .images,
      'id',
    ),
  'overwrite-matches-across-views': async (run, s) =>
    (
      await run('file.createSimple.raw', {
        query: { folderId: named(s, 'folder', 'Multichannel').id, nodeId: 2, qqfile: 'localized.txt', overwrite: true },
        rawBody: { contentType: 'text/plain', data: Buffer.from('channel upload\n') },
      })
    ).file.id,
  'overwrite-absent-replaces': async (run, s) => {
    const create = async () =>
      (
        await run('file.createSimple.raw', {
          query: { folderId: named(s, 'folder', 'Files').id, qqfile: 'notes.txt' },
          rawBody: { contentType: 'text/plain', data: Buffer.from('again\n') },
        })
      ).file.id;
    return (await create()) === named(s, 'file', 'notes.txt').id;
  },
  'multipart-no-data-part-empty-file': async (run, s) =>
    (await run('file.create.multipart', { multipart: { fields: { folderId: String(named(s, 'folder', 'Files').id), fileName: 'x.txt' } } }))
      .file.fileSize,
  'kept-listing-after-change': async (run, s) => {
    const file = named(s, 'file', 'notes.txt');
    const listed = async () => pick((await run('folder.getFiles', { path: { folderId: file.parentSet } })).files as Body[]);
    await listed();
    // Renamed to come first by name: a listing kept from before the rename still has it where it was.
    await run('file.save.json', { path: { id: file.id }, body: { file: { id: file.id, name: '0-first.txt' } } });
    return listed();
  },
  'save-description-dropped': async (run, s) => {
    const id = named(s, 'file', 'notes.txt').id;
    await run('file.save.json', { path: { id }, body: { file: { id, name: 'notes.txt', description: 'saved' } } });
    return (await run('file.load', { path: { id } })).file.description;
  },
  'count-recursive-ignored': async (run, s) =>
    (await run('folder.count', { path: { id: ids(s).pagesFolderId }, query: { recursive: true } })).pages,
  'load-update-locks-folder': async (run, s) => {
    const id = named(s, 'folder', 'Files').id;
    await run('folder.load', { path: { id }, query: { update: true } });
    return (await run('folder.load', { path: { id }, query: { update: true } })).folder.id;
  },
  'reinherit-ignored': async (run, s) => {
    const id = named(s, 'folder', 'Master only').id;
    await run('folder.disinherit.set', { path: { id }, body: { disinherit: [2] } });
    await run('folder.disinherit.set', { path: { id }, body: { reinherit: [2] } });
    return (await run('folder.disinherit.get', { path: { id } })).disinherit;
  },
  'usage-user-once-per-file': async (run, s) =>
    Promise.all(
      (['file.usage.file', 'file.usage.folder', 'file.usage.page'] as const).map(async (op) => {
        // Files and images together: some objects use one of each.
        const files = [...s.objects.values()]
          .filter((o) => (o.kind === 'file' || o.kind === 'image') && o.masterId === undefined)
          .map((o) => o.id);
        return (await run(op, { query: { id: files } })).total;
      }),
    ),
  'used-pages-only': async (run, s) =>
    pick((await run('folder.getFiles', { path: { folderId: ids(s).masterRootFolderId }, query: { recursive: true, used: true } })).files),
  'deleted-folders-listed': async (run, s) =>
    pick((await run('folder.getFolders', { path: { id: named(s, 'folder', 'Wastebin').id }, query: { recursive: true } })).folders),
  'sort-unknown-attribute-500': async (run, s) => {
    try {
      return pick((await run('file.list', { query: { folderId: named(s, 'folder', 'Files').id, sort: 'nosuchattribute' } })).items);
    } catch (err) {
      // An unknown attribute may be ignored or refused; anything else escapes as a 500.
      if (err instanceof Refusal) throw err;
      return (err as Error).name;
    }
  },
  'create-unknown-mother-500': async (run) => {
    try {
      return await run('folder.create', { body: { motherId: '99999999', name: 'Orphan' } });
    } catch (err) {
      // A refusal is the correct answer; anything else escapes as a 500.
      if (err instanceof Refusal) throw err;
      return (err as Error).name;
    }
  },
  // Shape faults under one parameter value: the JSON types of the members they misshape.
  'shape-getpages-langvars': async (run, s) =>
    (await run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { langvars: true } })).pages.flatMap((p: Body) =>
      Object.values(p.languageVariants ?? {}).map((v) => typeof (v as Body).folderId),
    ),
  'shape-getpages-contenttags': async (run, s) =>
    (await run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { contenttags: true } })).pages.flatMap((p: Body) =>
      Object.values(p.tags ?? {}).map((tag) => typeof (tag as Body).active),
    ),
  'shape-getpages-template': async (run, s) =>
    (await run('folder.getPages', { path: { id: ids(s).pagesFolderId }, query: { template: true } })).pages.map(
      (p: Body) => typeof p.template?.cdate,
    ),
  'shape-wastebin-deleted-by': async (run, s) =>
    (await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Wastebin').id }, query: { wastebin: 'only' } })).files.map(
      (f: Body) => typeof f.deleted?.by?.id,
    ),
  'shape-folder-privilegebits': async (run, s) =>
    typeof (await run('folder.load', { path: { id: named(s, 'folder', 'Files').id }, query: { privileges: true } })).folder.privilegeBits,
  'shape-getfolders-tree': async (run, s) =>
    (await run('folder.getFolders', { path: { id: ids(s).masterRootFolderId }, query: { tree: true } })).folders.map(
      (f: Body) => typeof f.motherId,
    ),
  'shape-usage-counts-only': async (run, s) =>
    typeof (await run('file.usage.folder', { query: { id: [named(s, 'file', 'brochure.pdf').id], folders: false } })).numItems,
  'external-links-none': async (run, s) =>
    (await run('folder.getExternalLinks', { path: { folderId: ids(s).pagesFolderId } })).pages.flatMap((e: Body) => e.links),
  'template-links-unread': async (run, s) =>
    pick((await run('folder.getTemplates', { path: { folderId: ids(s).templatesFolderId } })).templates),
  'findpages-maxitems-needs-skipcount': async (run, s) =>
    (await run('folder.findPages', { query: { folderId: ids(s).pagesFolderId, maxItems: 1 } })).pages.length,
  'master-deletion-unmarked': async (run, s) => {
    // The shop's localized copy of "Localized folder", listed with include once its master is deleted.
    await run('folder.delete', { path: { id: named(s, 'folder', 'Localized folder').id } });
    const query = { nodeId: 2, wastebin: 'include' };
    return (await run('folder.getFolders', { path: { id: named(s, 'folder', 'Multichannel').id }, query })).folders.map((f: Body) => [
      f.masterDeleted,
      f.deleted,
    ]);
  },
  'multipart-overwrite-text-truthy': async (run, s) =>
    (
      await run('file.create.multipart', {
        multipart: {
          fields: { folderId: String(named(s, 'folder', 'Files').id), fileName: 'notes.txt', overwrite: 'false' },
          files: [part('fileBinaryData', 'replaced\n', 'notes.txt', 'text/plain')],
        },
      })
    ).file.id,
  'overwrite-matches-any-kind': async (run, s) => {
    const files = named(s, 'folder', 'Files').id;
    await run('folder.create', { body: { motherId: String(files), name: 'clash.txt' } });
    return (
      await run('file.createSimple.raw', {
        query: { folderId: files, qqfile: 'clash.txt', overwrite: true },
        rawBody: { contentType: 'text/plain', data: Buffer.from('a file\n') },
      })
    ).file.type;
  },
  // The fault's 500 is an exception escaping the handler, which the probe tells apart from an answer.
  'filesize-sort-broken-fails': async (run, s) =>
    run('file.list', { query: { folderId: String(named(s, 'folder', 'Files').id), sort: 'fileSize' } }).then(
      (body) => pick(body.items),
      (err: Error) => `threw ${err.name}`,
    ),
  'overwrite-empty-folder-fails': async (run, s) => {
    const { folder } = await run('folder.create', { body: { motherId: String(named(s, 'folder', 'Files').id), name: 'Empty' } });
    return run('file.createSimple.raw', {
      query: { folderId: folder.id, qqfile: 'first.txt', overwrite: true },
      rawBody: { contentType: 'text/plain', data: Buffer.from('first\n') },
    }).then(
      (body) => body.file.name,
      (err: Error) => `threw ${err.name}`,
    );
  },
  'extensionless-name-gets-txt': async (run, s) =>
    (
      await run('file.create.multipart', {
        multipart: {
          fields: { folderId: String(named(s, 'folder', 'Files').id), fileName: 'README' },
          files: [part('fileBinaryData', 'no extension\n', 'README', 'application/octet-stream')],
        },
      })
    ).file.name,
  'template-id-copy-ignored': async (run, s) =>
    pick(
      (
        await run('folder.getPages', {
          path: { id: named(s, 'folder', 'Pages').id },
          query: { recursive: true, nodeId: 2, template_id: [332] },
        })
      ).pages,
    ),
  'syncable-dependencies-dropped': async (run, s) =>
    (
      await run('file.usage.syncableObjects', {
        query: { ids: [named(s, 'file', 'product-sheet.pdf').id], srcNodeId: 2, dstNodeId: 1 },
      })
    ).dependencies,
  'copied-tag-ids-lost': async (run, s) => {
    const copied = await run('file.copy', {
      body: { file: { id: named(s, 'file', 'product-sheet.pdf').id }, targetFolder: { id: named(s, 'folder', 'Downloads').id } },
    });
    const tags = (await run('file.load', { path: { id: copied.file.id } })).file.tags as Record<string, Body>;
    return Object.values(tags).map((tag) => tag.id);
  },
  'syncable-folder-links-followed': async (run, s) =>
    Object.keys(
      (await run('file.usage.syncableObjects', { query: { ids: [named(s, 'file', 'product-sheet.pdf').id], srcNodeId: 2, dstNodeId: 1 } }))
        .dependencies,
    ),
  'syncable-deleted-links-followed': async (run, s) =>
    (
      await run('file.usage.syncableObjects', { query: { ids: [named(s, 'file', 'product-sheet.pdf').id], srcNodeId: 2, dstNodeId: 1 } })
    ).pages.map((p: Body) => p.name),
  'syncable-dependencies-flag-set': async (run, s) =>
    (await run('file.usage.syncableObjects', { query: { ids: [named(s, 'file', 'brochure.pdf').id], srcNodeId: 2, dstNodeId: 1 } }))
      .haveDependencies,
  'syncable-shared-links-repeated': async (run, s) => {
    const id = named(s, 'file', 'product-sheet.pdf').id;
    return (await run('file.usage.syncableObjects', { query: { ids: [id, id], srcNodeId: 2, dstNodeId: 1 } })).pages.length;
  },
  'usage-finds-no-users': async (run, s) => (await run('file.usage.page', { query: { id: [named(s, 'file', 'manual-en.pdf').id] } })).total,
  'usage-file-finds-no-files': async (run, s) =>
    (await run('file.usage.file', { query: { id: [named(s, 'file', 'annual-report-2023.pdf').id] } })).total,
  'usedin-unknown-500': async (run, s) =>
    run('folder.getFiles', {
      path: { folderId: named(s, 'folder', 'Multichannel').id },
      query: { used: true, usedIn: 2_000_000_017 },
    }).then(
      (body) => pick(body.files),
      (err: Error) => `threw ${err.name}`,
    ),
  'copy-globalid-500': async (run, s) =>
    run('file.copy', { body: { file: { globalId: named(s, 'file', 'terms.txt').globalId }, newFilename: 'copy.txt' } }).then(
      (body) => body.file.name,
      (err: Error) => `threw ${err.name}`,
    ),
  'sortby-size-broken-500': async (run, s) =>
    run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { sortby: 'size' } }).then(
      (body) => pick(body.files),
      (err: Error) => `threw ${err.name}`,
    ),
  'deleted-folder-takes-content': async (run, s) => {
    const top = ids(s).sandboxParentFolderId;
    const { folder } = await run('folder.create', { body: { motherId: String(top), name: 'doomed' } });
    await run('folder.delete', { path: { id: folder.id } });
    return run('folder.create', { body: { motherId: String(folder.id), name: 'under' } }).then(
      () => 'created',
      (err: Error) => `threw ${err.name}`,
    );
  },
  'copy-dated-in-milliseconds': async (run, s) =>
    (await run('file.copy', { body: { file: { id: named(s, 'file', 'terms.txt').id }, newFilename: 'dated.txt' } })).file.cdate,
  'q-reads-publishdir-of-pages': async (run, s) =>
    run('folder.getPages', { path: { id: named(s, 'folder', 'Pages').id }, query: { q: 'zzq' } }).then(
      (body) => body.pages.length,
      (err: Error) => `threw ${err.name}`,
    ),
  'copy-uses-nothing': async (run, s) => {
    const { file } = await run('file.copy', { body: { file: { id: named(s, 'file', 'guide.pdf').id }, newFilename: 'guide-copy.pdf' } });
    const users = await run('file.usage.file', { query: { id: [named(s, 'file', 'annual-report-2023.pdf').id] } });
    return (users.files as { id: number }[]).some((u) => u.id === file.id);
  },
  'push-leaves-master-unused': async (run, s) => {
    const guide = named(s, 'file', 'guide.pdf').id;
    await run('file.localize', { path: { id: guide }, body: { channelId: 2 } });
    await run('file.push2master', { path: { id: guide }, body: { channelId: 2 } });
    const users = await run('file.usage.file', { query: { id: [named(s, 'file', 'annual-report-2023.pdf').id] } });
    return (users.files as { id: number }[]).some((u) => u.id === guide);
  },
  'counts-only-more-items': async (run, s) =>
    (await run('file.usage.file', { query: { id: [named(s, 'file', 'terms.txt').id], files: false } })).hasMoreItems,
  'deleted-marks-folder-only': async (run, s) => {
    const top = ids(s).sandboxParentFolderId;
    const { folder: doomed } = await run('folder.create', { body: { motherId: String(top), name: 'doomed' } });
    const { folder: inner } = await run('folder.create', { body: { motherId: String(doomed.id), name: 'inner' } });
    await run('file.createSimple.multipart', {
      query: { folderId: String(inner.id), qqfile: 'in.txt' },
      multipart: { files: [part('fileBinaryData', 'in\n', 'in.txt', 'text/plain')] },
    });
    await run('folder.delete', { path: { id: doomed.id } });
    return (await run('folder.getFiles', { path: { folderId: inner.id }, query: { wastebin: 'only' } })).files.length;
  },
  'overwrite-by-default': async (run, s) => {
    const { id } = named(s, 'file', 'terms.txt');
    await run('file.createSimple.multipart', {
      query: { folderId: String(named(s, 'folder', 'Files').id), qqfile: 'terms.txt' },
      multipart: { files: [part('fileBinaryData', 'replaced\n', 'terms.txt', 'text/plain')] },
    });
    return (await run('file.load', { path: { id } })).file.fileSize;
  },
  'overwrite-drops-description': async (run, s) => {
    await run('file.createSimple.multipart', {
      query: { folderId: String(named(s, 'folder', 'Files').id), qqfile: 'terms.txt', overwrite: true },
      multipart: { files: [part('fileBinaryData', 'replaced\n', 'terms.txt', 'text/plain')] },
    });
    return run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Files').id }, query: { search: 'zzq' } }).then(
      (body) => pick(body.files),
      (err: Error) => `threw ${err.name}`,
    );
  },
  // A master file moved through the shop (nodeId 2) into "Shop specials", a folder only the shop has: refused, or carried there.
  'move-strands-master-file': async (run, s) =>
    run('file.move', {
      path: { id: named(s, 'file', 'terms.txt').id },
      body: { folderId: named(s, 'folder', 'Shop specials').id, nodeId: 2 },
    }).then(
      () => 'moved',
      (err: Error) => `threw ${err.name}`,
    ),
  'copy-without-target-500': async (run, s) =>
    run('file.copy', { body: { file: { id: named(s, 'file', 'terms.txt').id }, newFilename: 'copy.txt' } }).then(
      (body) => body.file.name,
      (err: Error) => `threw ${err.name}`,
    ),
  'save-clears-unsent-urls': async (run, s) => {
    const id = named(s, 'file', 'notes.txt').id;
    await run('file.save.json', { path: { id }, body: { file: { id, niceUrl: '/saved/notes', alternateUrls: ['/saved/a'] } } });
    await run('file.save.json', { path: { id }, body: { file: { id, description: 'only this' } } });
    const { file } = await run('file.load', { path: { id } });
    return [file.niceUrl, file.alternateUrls];
  },
  'save-force-online-lost': async (run, s) => {
    const id = named(s, 'file', 'forced.txt').id;
    await run('file.save.json', { path: { id }, body: { file: { id, description: 'only this' } } });
    return (await run('file.load', { path: { id } })).file.forceOnline;
  },
  'localize-drops-tags': async (run, s) => {
    // guide.pdf's object tag names the annual report: localized in the shop (node 2), pushed back unchanged.
    const id = named(s, 'file', 'guide.pdf').id;
    await run('file.localize', { path: { id }, body: { channelId: 2 } });
    await run('file.push2master', { path: { id }, body: { channelId: 2 } });
    return pick((await run('file.usage.file', { query: { id: [named(s, 'file', 'annual-report-2023.pdf').id] } })).files);
  },
  'save-empties-alternate-urls': async (run, s) => {
    const { id } = named(s, 'file', 'brochure.pdf');
    await run('file.save.json', { path: { id }, body: { file: { id, alternateUrls: ['/brochure.pdf', '/saved/more'] } } });
    return (await run('file.load', { path: { id } })).file.alternateUrls;
  },
  'master-delete-spares-localized-copies': async (run, s) => {
    // What the shop lists below "Multichannel" by default once the master of its "Localized folder" is deleted.
    await run('folder.delete', { path: { id: named(s, 'folder', 'Localized folder').id } });
    const query = { nodeId: 2, recursive: true };
    return pick((await run('folder.getFiles', { path: { folderId: named(s, 'folder', 'Multichannel').id }, query })).files);
  },
  'createsimple-extensionless-qqfile-refused': async (run, s) =>
    run('file.createSimple.multipart', {
      query: { folderId: String(ids(s).sandboxParentFolderId), qqfile: 'readme' },
      multipart: { files: [part('fileBinaryData', 'r\n', 'readme', 'text/plain')] },
    }).then(
      (body) => body.file.name,
      (err: Error) => `threw ${err.name}`,
    ),
};

/** Every fault the handlers plant: the semantic ones and the shape faults under one parameter value. */
const handlerFaults: readonly FaultDef<HandlerFault>[] = [...semanticFaults, ...paramShapeFaults];

/** A probe declared with its fault: the operation on the named folder (its folder path parameter, else the folderId query). */
const declaredProbe =
  (p: FaultProbe): Probe =>
  async (run, s) => {
    const id = named(s, 'folder', p.folder).id;
    const template = getOperation(p.op).path;
    const param = /\{(\w+)\}/.exec(template)?.[1];
    return run(p.op, param ? { path: { [param]: id }, query: p.query ?? {} } : { query: { folderId: String(id), ...p.query } });
  };

/** The probe of a handler fault: written here, or declared with the fault. */
const probeOf = (f: FaultDef<HandlerFault>): Probe | undefined => probes[f.name] ?? (f.probe ? declaredProbe(f.probe) : undefined);

describe('semantic fault catalogue', () => {
  it('has at least 20 uniquely named kebab-case faults naming catalogued requirements', () => {
    const known = new Set(requirements.map((r) => r.id));
    expect(semanticFaults.length).toBeGreaterThanOrEqual(20);
    expect(new Set(semanticFaults.map((f) => f.name)).size).toBe(semanticFaults.length);
    for (const f of semanticFaults) {
      expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.breaks.length).toBeGreaterThan(0);
      for (const id of f.breaks) expect(known.has(id), `${f.name}: ${id}`).toBe(true);
    }
  });

  // The type of faults.has lets the handlers ask only about catalogued names; this test also finds a catalogued fault no handler asks about.
  it('lists exactly the faults the handlers check (besides the harmless variations)', () => {
    const harmless = new Set<string>(variations.map((v) => v.name));
    expect([...switchesAskedInHandlers()].filter((n) => !harmless.has(n)).sort()).toEqual(handlerFaults.map((f) => f.name).sort());
  });

  it('takes only catalogued names: a misspelt fault asked by a handler is a type error', () => {
    const none: FaultSet = new Set<string>();
    // @ts-expect-error -- no such fault
    expect(none.has('paging-numitems-after-slise')).toBe(false);
    expect(none.has('paging-numitems-after-slice')).toBe(false);
  });

  it('has a behaviour probe for every fault, written here or declared with it, and writes none for no fault', () => {
    expect(handlerFaults.filter((f) => !probeOf(f)).map((f) => f.name)).toEqual([]);
    const known = new Set<string>(handlerFaults.map((f) => f.name));
    expect(Object.keys(probes).filter((name) => !known.has(name))).toEqual([]);
  });

  it.each(handlerFaults.map((f) => [f.name, f] as const))('%s changes the behaviour it claims', async (name, f) => {
    const probe = probeOf(f)!;
    // A fault that only other data shows is probed on that data.
    const data = f.data ? datasetOf(f.data) : undefined;
    expect(await observe(probe, [name], data)).not.toBe(await observe(probe, [], data));
  });
});
