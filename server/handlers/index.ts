/** Every operation of the catalogue (schemas/operations.json) mapped to its handler. */
import { getOperation } from '../../schemas/operations.ts';
import { touch, type State } from '../state.ts';
import type { Handler } from '../types.ts';
import { copyFile, fileList, findFiles, getFiles, loadFile, moveFile, saveFile } from './files.ts';
import { breadcrumb, count, createFolder, deleteFolder, folderList, getFolders, getFoldersPost, getItems, loadFolder } from './folders.ts';
import {
  fileDisinheritGet,
  fileDisinheritSet,
  fileLocalizationInfo,
  fileLocalizations,
  fileLocalize,
  folderDisinheritGet,
  folderDisinheritGetMany,
  folderDisinheritSet,
  folderDisinheritSetMany,
  folderLocalizationInfo,
  folderLocalizations,
  folderLocalize,
  push2master,
  unlocalize,
} from './multichannel.ts';
import { findPages, getExternalLinks, getPages, getTemplates } from './pages.ts';
import { createFromUrl, createMultipart, createSimpleMultipart, createSimpleRaw, saveMultipart } from './uploads.ts';
import { syncableObjects, usageFile, usageFolder, usagePage } from './usage.ts';
import * as planted from './planted/index.ts';

/**
 * A handler of an operation that may change the store, marking the store changed before and after it
 * (also when it refuses, or finishes later): handlers change objects' members in place, and kept
 * listings must not outlive such a change (state.ts `version`).
 */
function changing(handler: Handler<State>, onlyAdds: boolean): Handler<State> {
  return (state, req, ctx) => {
    const mark = planted.changing(ctx.faults).mark(touch);
    mark(state, onlyAdds);
    let result: ReturnType<Handler<State>>;
    try {
      result = handler(state, req, ctx);
    } finally {
      mark(state, onlyAdds);
    }
    return result instanceof Promise ? result.finally(() => mark(state, onlyAdds)) : result;
  };
}

/** Operations that only add objects, or replace a file's content, and so free no name (state.ts namesEpoch). */
const ADDING = new Set([
  'file.create.multipart',
  'file.create.json',
  'file.createSimple.multipart',
  'file.createSimple.raw',
  'file.copy',
  'folder.create',
]);

/** Every operation that is not a GET is taken as one that may change the store, and free names unless it only adds. */
function wrapped(all: Record<string, Handler<State>>): Record<string, Handler<State>> {
  return Object.fromEntries(
    Object.entries(all).map(([id, h]) => [id, getOperation(id).method === 'GET' ? h : changing(h, ADDING.has(id))]),
  );
}

/** The reference server's semantics, keyed by operation id (all 43 of requirements.md). */
export const handlers: Record<string, Handler<State>> = wrapped({
  'folder.list': folderList,
  'folder.create': createFolder,
  'folder.disinherit.getMany': folderDisinheritGetMany,
  'folder.disinherit.setMany': folderDisinheritSetMany,
  'folder.disinherit.get': folderDisinheritGet,
  'folder.disinherit.set': folderDisinheritSet,
  'folder.findFiles': findFiles,
  'folder.findPages': findPages,
  'folder.getFolders.post': getFoldersPost,
  'folder.getFolders': getFolders,
  'folder.breadcrumb': breadcrumb,
  'folder.count': count,
  'folder.delete': deleteFolder,
  'folder.getExternalLinks': getExternalLinks,
  'folder.getFiles': getFiles,
  'folder.getItems': getItems,
  'folder.getPages': getPages,
  'folder.getTemplates': getTemplates,
  'folder.load': loadFolder,
  'folder.localizationinfo': folderLocalizationInfo,
  'folder.localizations': folderLocalizations,
  'folder.localize': folderLocalize,
  'file.list': fileList,
  'file.copy': copyFile,
  'file.create.multipart': createMultipart,
  'file.create.json': createFromUrl,
  'file.createSimple.multipart': createSimpleMultipart,
  'file.createSimple.raw': createSimpleRaw,
  'file.disinherit.get': fileDisinheritGet,
  'file.disinherit.set': fileDisinheritSet,
  'file.load': loadFile,
  'file.localizationinfo': fileLocalizationInfo,
  'file.localizations': fileLocalizations,
  'file.localize': fileLocalize,
  'file.move': moveFile,
  'file.push2master': push2master,
  'file.save.json': saveFile,
  'file.save.multipart': saveMultipart,
  'file.unlocalize': unlocalize,
  'file.usage.file': usageFile,
  'file.usage.folder': usageFolder,
  'file.usage.page': usagePage,
  'file.usage.syncableObjects': syncableObjects,
});
