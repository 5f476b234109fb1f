/** Every operation of the catalogue (schemas/operations.json) mapped to its handler. */
import type { State } from '../state.ts';
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

/** The reference server's semantics, keyed by operation id (all 43 of requirements.md). */
export const handlers: Record<string, Handler<State>> = {
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
};
