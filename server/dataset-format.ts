/**
 * The format of the reference server's data set: a plain-JSON description of nodes, users, folders, files,
 * images, pages, templates, tags and constructs (bytes as base64), the same for the default data
 * (default-dataset.ts) and a data set file (dataset-load.ts, `serve --fixture FILE`).
 */
import { createHash } from 'node:crypto';
import type { StagingPackage, UsedFileUsers } from '../schemas/target.ts';

/** The `format` member every dataset carries; a file without it is not a dataset. */
export const DATASET_FORMAT = 'cms-conformance-dataset/1';

/** A user; `groupIds` name entries of `groups`. */
export interface DatasetUser {
  id: number;
  login: string;
  firstName: string;
  lastName: string;
  email?: string;
  description?: string;
  groupIds?: number[];
}

/** A user group. */
export interface DatasetGroup {
  id: number;
  name: string;
  description?: string;
}

/** A content language; a node lists its languages in priority order. */
export interface DatasetLanguage {
  id: number;
  code: string;
  name: string;
}

/** A markup language of templates. */
export interface DatasetMarkupLanguage {
  id: number;
  name: string;
  extension: string;
  contentType: string;
  feature?: string;
  excludeFromPublishing?: boolean;
}

/** One part of a construct; `type` is the property type its values have (FILE, PAGE, RICHTEXT, ...). */
export interface DatasetPart {
  id: number;
  keyword: string;
  name: string;
  type: string;
}

/** A tag type. */
export interface DatasetConstruct {
  id: number;
  globalId: string;
  keyword: string;
  name: string;
  description: string;
  category: string;
  icon: string;
  parts: DatasetPart[];
  cdate: number;
  edate: number;
  creatorId: number;
  editorId: number;
}

/**
 * A tag's value for one part. References: `fileId`/`imageId`/`pageId`/`folderId` name objects;
 * a PAGE-type property with `stringValue` and no `pageId` is an external link.
 */
export interface DatasetProperty {
  partId: number;
  type: string;
  stringValue?: string;
  booleanValue?: boolean;
  fileId?: number;
  imageId?: number;
  pageId?: number;
  folderId?: number;
  nodeId?: number;
  templateId?: number;
  stringValues?: string[];
}

/** A content, object or template tag; properties are keyed by part keyword. */
export interface DatasetTag {
  id: number;
  name: string;
  constructId: number;
  active: boolean;
  type: 'CONTENTTAG' | 'OBJECTTAG' | 'TEMPLATETAG';
  properties: Record<string, DatasetProperty>;
  mandatory?: boolean;
  editableInPage?: boolean;
}

/** Deletion information: `at` in seconds, `by` a user id. */
export interface DatasetDeleteInfo {
  at: number;
  by: number;
}

/** A node: the master when `masterId` is absent, else a channel of that node. */
export interface DatasetNode {
  id: number;
  globalId: string;
  name: string;
  masterId?: number;
  rootFolderId: number;
  host: string;
  https: boolean;
  publishDir: string;
  binaryPublishDir: string;
  /** Languages in priority order (the first is the highest). */
  languageIds: number[];
  contentEditor: string;
  cdate: number;
  edate: number;
  creatorId: number;
  editorId: number;
}

/**
 * What every stored object has. `nodeId` is the node it lives in (the master node for master objects,
 * a channel for local objects and localized copies); variants share `channelSetId`; a localized copy
 * names its master variant in `masterId`. Exclusion and disinheritance are read from the master variant.
 */
export interface DatasetObject {
  id: number;
  globalId: string;
  nodeId: number;
  channelSetId: number;
  masterId?: number;
  name: string;
  description?: string;
  cdate: number;
  edate: number;
  creatorId: number;
  editorId: number;
  deleted?: DatasetDeleteInfo;
  excluded?: boolean;
  disinheritDefault?: boolean;
  /** Channel ids the object is not inherited into. */
  disinherit?: number[];
  tags?: DatasetTag[];
}

/**
 * Privileges of the requesting user on folders (contract 2.3): the fixture's admin has all of them, but where a folder
 * withholds some (`withheldPrivileges`).
 */
export const FOLDER_PRIVILEGES = [
  'view',
  'viewfolder',
  'viewfile',
  'viewpage',
  'viewtemplate',
  'createfolder',
  'createfile',
  'createpage',
  'createtemplate',
  'updatefolder',
  'updatefile',
  'updatepage',
  'updatetemplate',
  'updateform',
  'updatetagtypes',
  'deletefolder',
  'deletefile',
  'deletepage',
  'deletetemplate',
  'deletetemplates',
  'publishpage',
  'importpage',
  'translatepage',
  'linktemplate',
  'linkworkflow',
  'inheritance',
  'synchronizechannel',
  'assignpermissions',
  'wastebin',
];

/**
 * A folder; roots have `motherId` null. `templateIds` are the templates linked into it; `withheldPrivileges` are the
 * names of FOLDER_PRIVILEGES the requesting user lacks on it (the getPages `permission` filter drops its pages).
 */
export interface DatasetFolder extends DatasetObject {
  motherId: number | null;
  publishDir: string;
  templateIds?: number[];
  withheldPrivileges?: string[];
  nameI18n?: Record<string, string>;
  descriptionI18n?: Record<string, string>;
  publishDirI18n?: Record<string, string>;
}

/** A file; `data` is base64, null when the binary is missing (a broken file). */
export interface DatasetFile extends DatasetObject {
  folderId: number;
  fileType: string;
  data: string | null;
  niceUrl?: string;
  alternateUrls?: string[];
  online?: boolean;
  forceOnline?: boolean;
}

/** An image: a file with pixel dimensions. */
export interface DatasetImage extends DatasetFile {
  sizeX: number;
  sizeY: number;
}

/** Time management of a page: `at` publishes, `offlineAt` takes offline; queued requests await approval. */
export interface DatasetTimeManagement {
  at?: number;
  offlineAt?: number;
  queuedPublish?: { at: number; userId: number };
  queuedOffline?: { at: number; userId: number };
}

/** A page. Language variants share `contentSetId`; page variants share `contentId`. */
export interface DatasetPage extends DatasetObject {
  folderId: number;
  templateId: number;
  fileName: string;
  language?: string;
  contentSetId?: number;
  contentId: number;
  priority: number;
  online: boolean;
  modified: boolean;
  pdate: number;
  publisherId?: number;
  lockedBy?: number;
  lockedSince?: number;
  timeManagement?: DatasetTimeManagement;
  /** The page this one is a translation of, and whether it is in sync with it. */
  translation?: { masterPageId: number; inSync: boolean };
  niceUrl?: string;
  alternateUrls?: string[];
  customCdate?: number;
  customEdate?: number;
  workflow?: { userId: number; groupIds: number[]; message: string; modified: boolean; timestamp: number };
}

/** A template; `folderId` is its home folder, `templateTags` the tags pages get from it. */
export interface DatasetTemplate extends DatasetObject {
  folderId: number;
  markupLanguageId: number;
  source: string;
  locked?: boolean;
  templateTags?: DatasetTag[];
}

/** A whole data set. Every request is made by the user `requesterId`. */
export interface Dataset {
  format: typeof DATASET_FORMAT;
  requesterId: number;
  users: DatasetUser[];
  groups: DatasetGroup[];
  languages: DatasetLanguage[];
  markupLanguages: DatasetMarkupLanguage[];
  constructs: DatasetConstruct[];
  nodes: DatasetNode[];
  folders: DatasetFolder[];
  files: DatasetFile[];
  images: DatasetImage[];
  pages: DatasetPage[];
  templates: DatasetTemplate[];
  /** Content staging packages: each names the objects it includes (the stagingStatus `included` of them). */
  stagingPackages?: { name: string; objectIds: number[] }[];
  /** Fixture roles the target file names; absent roles fall back (see state.fixtureIds). */
  roles?: {
    /** A package of stagingPackages and folders it includes, declared as they are (the fixture's stagingPackage). */
    stagingPackage?: StagingPackage;
    channelNodeId?: number;
    sandboxParentFolderId?: number;
    pagesFolderId?: number;
    templatesFolderId?: number;
    /** A master file some folder, file or page uses (usage queries must name its users). */
    usedFileId?: number;
    /** The objects that use usedFileId, by kind (the fixture's usedFileUsers). */
    usedFileUsers?: UsedFileUsers;
  };
}

/** A deterministic global id: four characters, a dot, a UUID derived from the seed. */
export function makeGlobalId(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `A547.${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
