/**
 * The target file: everything a conformance run needs to know about the server under test. Written by
 * `cms-conformance serve --write-target FILE` for the reference server and by vendors for theirs.
 */

/**
 * Optional capabilities; a requirement tagged with one runs only when the target declares it. `disposable` is no
 * capability of the contract: the target is a throwaway instance, so the suite may change its fixture objects (the tests of
 * suites/disposable/, run after every other test); without it the suite never changes one, not even to restore it.
 */
export type Feature = 'multichannelling' | 'wastebin' | 'pages' | 'templates' | 'sourceUrl' | 'auth' | 'disposable';

/** Every feature name, in the order the requirement catalogue introduces them (`disposable`, the suite's own, last). */
export const FEATURES: readonly Feature[] = ['multichannelling', 'wastebin', 'pages', 'templates', 'sourceUrl', 'auth', 'disposable'];

/** Ids of the target's own data that the suites start from. */
export interface TargetFixture {
  /** The master node (nodeId of the master view). */
  masterNodeId: number;
  /** The root folder of the master node. */
  masterRootFolderId: number;
  /** The channel node inheriting from the master (needed by feature multichannelling). */
  channelNodeId?: number;
  /** The root folder of the channel node (needed by feature multichannelling). */
  channelRootFolderId?: number;
  /** The master folder under which the suite creates (and removes) its sandbox folders. */
  sandboxParentFolderId: number;
  /** A folder holding pages (needed by feature pages). */
  pagesFolderId?: number;
  /** A folder with templates linked into it (needed by feature templates). */
  templatesFolderId?: number;
  /**
   * A file of the master that a folder, file or page uses (its object tags refer to it). With it, usage queries
   * that name no user of it fail USE-01; without it, a target whose usage finds nothing has nothing to judge.
   */
  usedFileId?: number;
  /**
   * Objects of the master that use usedFileId, by kind: usage/file, usage/folder and usage/page of it list each
   * (USE-01). Declared, not asked: a usage query that leaves out every user of one kind cannot pass for data
   * without such users then.
   */
  usedFileUsers?: UsedFileUsers;
  /**
   * Pages of pagesFolderId that are translations of another page: getPages with translationstatus adds the translation
   * status of each (FLD-09). Declared, not asked: but that status, no operation of the contract says which page is a
   * translation, so a server that never gives it could not be told from one whose data has none.
   */
  translationPageIds?: number[];
  /**
   * A staging package of the target and folders it includes: folder load with `package` of it must answer the status
   * `included` for these, and not for a folder the run itself made (FLD-11). Declared, not asked: the contract has no
   * operation that lists packages or their content.
   */
  stagingPackage?: StagingPackage;
}

/** A declared staging package: its name and folders of the fixture that it includes. */
export interface StagingPackage {
  name: string;
  folderIds: number[];
}

/** The users of a declared used file, by the kind each usage query lists. */
export interface UsedFileUsers {
  files?: number[];
  folders?: number[];
  pages?: number[];
}

/** Credentials added to every request; they never appear in reports. */
export interface TargetAuth {
  /** Query parameters, e.g. `{"sid": "..."}`. */
  query: Record<string, string>;
  /** Request headers, e.g. `{"Authorization": "Bearer ..."}`. */
  headers: Record<string, string>;
}

/** A target file (JSON). */
export interface Target {
  /** The `{base_url}` of the contract: operation paths are appended to it (no trailing slash). */
  baseUrl: string;
  /** Credentials to send with every request. */
  auth: TargetAuth;
  /** The optional features the target declares. */
  features: Feature[];
  /** Ids of the target's fixture data. */
  fixture: TargetFixture;
}
