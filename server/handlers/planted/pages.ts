/**
 * The planted faults and variations of the page and template handlers (server/handlers/pages.ts), one plan per handler.
 *
 * A handler asks for its plan once (`const plan = planted.getPages(ctx.faults)`) and consults it at named points of
 * the contract's code: a hook takes the value the contract computed there and returns the one the handler goes on
 * with, or (a hook that returns nothing) may throw where a fault does. With every switch off each hook gives back
 * what it was given and does nothing else, so the handler file reads as the contract, and this file, which only ever
 * differs from the contract, is left out of the mutation run (scripts/mutation). The helpers other handler files
 * call with a switch set (niceUrlMatcher, languageFilter, findScope, findMatches, templatesIn) ask for a plan of
 * their own.
 */
import type { FolderObj, PageObj, State } from '../../state.ts';
import { Refusal, type FaultSet, type OpRequest } from '../../types.ts';
import { qInt, type Wastebin } from '../common.ts';
import { pageLegacy, type ObjectFilter, type Paged, type SortKey, type Walk } from '../listing.ts';

/** A language of the system. */
type Language = State['languages'][number];

/** The characters a regular expression gives a meaning of their own. */
const REGEX_SYNTAX = /[.*+?^${}()|[\]\\/]/g;

/** The hooks of the `niceurl` filter (niceUrlMatcher), which getPages and the file listings share. */
export interface NiceUrlPlan {
  /** The source of the regular expression compiled from the `pattern` asked for. */
  source(pattern: string): string;
  /** Whether an object's nice URL (`url`) or its `alternates` match `re`; the contract: `matches`, the nice URL matching. */
  matches(matches: boolean, re: RegExp, url: string | undefined, alternates?: readonly string[]): boolean;
}

/** The niceurl filter's plan. */
export function niceUrl(faults: FaultSet): NiceUrlPlan {
  return {
    source: (pattern) => {
      // Planted (niceurl-regex-literal): the pattern is taken as text, found anywhere in the nice URL (and never refused).
      if (faults.has('niceurl-regex-literal')) return pattern.replace(REGEX_SYNTAX, '\\$&');
      // Variation (niceurl-full-match): the regular expression must match the whole nice URL.
      return faults.has('niceurl-full-match') ? `^(?:${pattern})$` : pattern;
    },
    matches: (matches, re, url, alternates = []) => {
      if (faults.has('niceurl-regex-literal')) return matches;
      // Planted: a missing nice URL is tested as the text "undefined".
      if (faults.has('niceurl-missing-as-text')) return re.test(String(url));
      // Variation (niceurl-matches-alternates): an alternate URL that matches lists the object too.
      if (faults.has('niceurl-matches-alternates')) return matches || alternates.some((u) => re.test(u));
      return matches;
    },
  };
}

/** The hooks of the `language` filter (languageFilter). */
export interface LanguagePlan {
  /** After the language asked for (`language`) is looked up: `lang`, undefined where the system has none such. */
  lookedUp(lang: Language | undefined, language: string): void;
  /** The language a set's variant in it is chosen for; the contract: the one asked for, `code`. */
  wanted(code: string): string | undefined;
  /** Whether `page` replaces the variant of its set chosen so far; the contract: when it ranks `better`. */
  replaces(better: boolean, page: PageObj, wanted: string | undefined): boolean;
  /** The pages listed, in their order among `pages`; the contract: those `chosen`. */
  listed(chosen: PageObj[], pages: PageObj[]): PageObj[];
}

/** The language filter's plan. */
export function language(faults: FaultSet): LanguagePlan {
  return {
    lookedUp: (lang, language) => {
      // Variation language-unknown-refused: a code that is no language of the system is invalid data, not an empty answer.
      if (!lang && faults.has('language-unknown-refused'))
        throw new Refusal('INVALIDDATA', `language: unknown language ${language}`, 'language');
    },
    // Planted: the requested language ranks as the node's other languages do, so a set's highest-priority variant beats it.
    wanted: (code) => (faults.has('getpages-language-ranked-by-node') ? undefined : code),
    // Planted: the fallback keeps the variant stored first where the set lacks the language.
    replaces: (better, page, wanted) => better && (!faults.has('getpages-langfallback-first-stored') || page.language === wanted),
    listed: (chosen, pages) => {
      // Variation language-keeps-languageless: a page without a language belongs to every language's listing.
      if (!faults.has('language-keeps-languageless')) return chosen;
      const kept = new Set(chosen);
      return pages.filter((p) => kept.has(p) || !p.language);
    },
  };
}

/** The hooks of the find operations' scope and matches (findScope, findMatches), which findPages and findFiles share. */
export interface FindPlan {
  /** The objects of `kind` a search of every folder finds; the contract: `found`, every one not deleted. */
  everywhere<T>(found: T[], kind: 'file' | 'page'): T[];
  /** Whether the search of a folder goes into its sub-folders. */
  recursive(recursive: boolean, kind: 'file' | 'page', req: OpRequest): boolean;
  /** Whether an object's `name` matches the query (lower case); the contract: when it holds it, ignoring case (`holds`). */
  matches(holds: boolean, name: string, query: string): boolean;
}

/** The find operations' plan. */
export function find(faults: FaultSet): FindPlan {
  return {
    // Planted: findFiles with folderId 0 searches no folder at all.
    everywhere: (found, kind) => (faults.has('findfiles-folder0-empty') && kind === 'file' ? [] : found),
    // Planted: findPages searches the folder alone unless told recursive=true.
    recursive: (recursive, kind, req) =>
      recursive && !(faults.has('findpages-recursive-default-false') && kind === 'page' && req.rawQuery.recursive === undefined),
    // Variation (find-prefix-match): "currently only names are searched" read as the names that start with the query.
    matches: (holds, name, query) => (faults.has('find-prefix-match') ? name.toLowerCase().startsWith(query) : holds),
  };
}

/** The hooks of the template links of folders (templatesIn). */
export interface TemplateLinksPlan {
  /** The templates linked into the folders, each with its folder; the contract: `linked`. */
  linked<T>(linked: T[]): T[];
}

/** The template links' plan. */
export function templateLinks(faults: FaultSet): TemplateLinksPlan {
  return {
    // Planted: the folders' template links are never read; the listing and the count agree on none.
    linked: (linked) => (faults.has('template-links-unread') ? [] : linked),
  };
}

/** The hooks getPages and getTemplates share. */
export interface PagesTemplatesPlan {
  /** The channel whose view is listed (`nodeId` as asked). */
  nodeId(nodeId: number | undefined): number | undefined;
  /** The Group F filters and search read. */
  filters(filter: ObjectFilter): ObjectFilter;
}

/** The plan getPages and getTemplates share. */
function pagesTemplates(faults: FaultSet): PagesTemplatesPlan {
  return {
    // Planted: the page and template lists answer the master's view whatever the channel asked for.
    nodeId: (nodeId) => (faults.has('pages-templates-nodeid-ignored') ? undefined : nodeId),
    filters: (read) => {
      const filter = { ...read };
      // Planted: search and inherited applied by the file and folder lists only.
      if (faults.has('pages-templates-search-ignored')) filter.search = undefined;
      if (faults.has('pages-templates-inherited-ignored')) filter.inherited = undefined;
      return filter;
    },
  };
}

/** The publishing dates a page list is bounded by. */
interface Published {
  before: number;
  since: number;
}

/** The hooks of GET /folder/getPages/{id}. */
export interface GetPagesPlan extends PagesTemplatesPlan {
  /** The wastebin mode the folder and its pages are read in. */
  wastebin(mode: Wastebin, req: OpRequest): Wastebin;
  /** The walk the pages are collected on, from `folder`. */
  walk(walk: Walk, folder: FolderObj): Walk;
  /** Whether `search` looks into the content tags too (`searchcontent` as asked). */
  searchContent(searchContent: boolean): boolean;
  /** Whether the language filter falls back (`langfallback` as asked). */
  langfallback(fallback: boolean): boolean;
  /** The sort attributes getPages knows. */
  sortKeys(keys: Record<string, SortKey>): Record<string, SortKey>;
  /** The page answered of the `sorted` pages; the contract: `paged`, as the query asks. */
  paged<T>(paged: Paged<T>, req: OpRequest, sorted: readonly T[]): Paged<T>;
  /** Whether filtering by insync (`filtered`) adds the translation status. */
  insyncStatus(filtered: boolean): boolean;
  /** The `online` filter read. */
  online(online: boolean | undefined): boolean | undefined;
  /** The template ids read. */
  templateIds(ids: number[]): number[];
  /** The channel sets the template ids name; the contract: `sets`, a localized copy's id naming its set. */
  templateSets(sets: Set<number>, ids: number[]): Set<number>;
  /** The includeMlId ids read. */
  includeMlId(ids: number[]): number[];
  /** The excludeMlId ids read. */
  excludeMlId(ids: number[]): number[];
  /** Whether every priority is listed; the contract: when the priority asked for is 0 (`any`). */
  anyPriority(any: boolean, req: OpRequest): boolean;
  /** Whether a page of `priority` is listed for the one asked for (`asked`); the contract: when they are `equal`. */
  priorityMatches(equal: boolean, priority: number, asked: number): boolean;
  /** Whether a file name (lower case) matches the filter (lower case); the contract: when it holds it (`holds`). */
  fileNameMatches(holds: boolean, name: string, filename: string): boolean;
  /** The file name of `page` the filter reads; the contract: `fileName`. */
  fileName(fileName: string, page: PageObj): string;
  /** The publishing bounds read. */
  published(bounds: Published): Published;
  /** The publisherId ids read. */
  publisherIds(ids: number[]): number[];
  /** The user the publisher filter reads of `page`; the contract: its `publisher`. */
  publisher(publisher: number | undefined, page: PageObj): number | undefined;
  /** The ispublisher filter read. */
  ispublisher(ispublisher: boolean): boolean;
  /** The timedue read. */
  timedue(timedue: number): number;
  /** Whether time management changes `page`'s status within the timedue; the contract: `due`. */
  due(due: boolean, page: PageObj): boolean;
  /** Whether `page` counts as in sync for the insync filter (undefined: under neither value); the contract: `inSync`, a page that is no translation in sync. */
  inSync(inSync: boolean, page: PageObj): boolean | undefined;
  /** The wfown filter read. */
  wfown(wfown: boolean): boolean;
  /** The wfwatch filter read. */
  wfwatch(wfwatch: boolean): boolean;
  /** The groups of the requesting user (`me`) wfwatch reads; the contract: `groups`, none for a user in no group. */
  groups(groups: readonly number[], state: State, me: number): readonly number[];
  /** The niceurl pattern read. */
  niceurl(pattern: string | undefined): string | undefined;
  /** The folder permissions read. */
  permission(names: string[]): string[];
}

/** GET /folder/getPages/{id} (getPages). */
export function getPages(faults: FaultSet): GetPagesPlan {
  return {
    ...pagesTemplates(faults),
    // Planted: the permission check takes a query of its own that forgets the wastebin.
    wastebin: (mode, req) => (faults.has('getpages-permission-lists-deleted') && req.rawQuery.permission !== undefined ? 'include' : mode),
    // Planted: recursive=true goes one level down, into the folder's own sub-folders only.
    walk: (walk, folder) =>
      faults.has('getpages-recursive-one-level') ? { ...walk, descend: (sub) => sub.parentSet === folder.channelSetId } : walk,
    // Planted (getpages-searchcontent-always): search always looks into the content too; (getpages-searchcontent-ignored)
    // searchcontent is not read.
    searchContent: (searchContent) =>
      faults.has('getpages-searchcontent-always') || (searchContent && !faults.has('getpages-searchcontent-ignored')),
    // Planted: langfallback is not read, and the fallback always applies.
    langfallback: (fallback) => faults.has('getpages-langfallback-ignored') || fallback,
    sortKeys: (keys) =>
      // Planted: getPages maps sortby=filename to the page name, the column its list view shows.
      faults.has('sortby-filename-uses-name') ? { ...keys, filename: (o) => o.name } : keys,
    // Planted: a default page size where the contract's default is every page.
    paged: (paged, req, sorted) =>
      faults.has('getpages-default-maxitems-25') && req.rawQuery.maxItems === undefined
        ? pageLegacy(sorted, qInt(req, 'skipCount', 0), 25, faults)
        : paged,
    // Planted: insync filters without adding the status it filters by.
    insyncStatus: (filtered) => filtered && !faults.has('insync-adds-no-translation-status'),
    // Planted: the online filter inverted.
    online: (online) => (faults.has('getpages-online-filter-inverted') && online !== undefined ? !online : online),
    templateIds: (ids) => {
      // Planted: template_id is not read.
      if (faults.has('getpages-template-id-ignored')) return [];
      // Planted: only the first value of template_id is applied.
      return faults.has('multivalued-first-only') ? ids.slice(0, 1) : ids;
    },
    // Planted: template ids compared as they are, so a localized template copy's id names no page.
    templateSets: (sets, ids) => (faults.has('template-id-copy-ignored') ? new Set(ids) : sets),
    // Planted: includeMlId is not read.
    includeMlId: (ids) => (faults.has('getpages-includemlid-ignored') ? [] : ids),
    // Planted: excludeMlId is not read.
    excludeMlId: (ids) => (faults.has('getpages-excludemlid-ignored') ? [] : ids),
    // Planted: 0 taken as a priority, not as "all".
    anyPriority: (any, req) => any && !(faults.has('getpages-priority-zero-restricts') && req.rawQuery.priority !== undefined),
    // Variation priority-at-least: "priority (int, 0): page priority" read as the least priority listed.
    priorityMatches: (equal, priority, asked) => (faults.has('priority-at-least') ? priority >= asked : equal),
    // Variation filename-prefix: the "filename search string" finds the file names that start with it.
    fileNameMatches: (holds, name, filename) => (faults.has('filename-prefix') ? name.startsWith(filename) : holds),
    // Planted: the file name filter reads the column the list view shows.
    fileName: (fileName, page) => (faults.has('getpages-filename-searches-name') ? page.name : fileName),
    // Planted: publishedbefore and publishedsince read each other's value.
    published: (bounds) => (faults.has('getpages-published-bounds-swapped') ? { before: bounds.since, since: bounds.before } : bounds),
    // Planted: publisherId is not read.
    publisherIds: (ids) => (faults.has('getpages-publisherid-ignored') ? [] : ids),
    // Planted: the publisher pattern reads the column beside it, the last editor.
    publisher: (publisher, page) => (faults.has('getpages-publisher-matches-editor') ? page.editorId : publisher),
    // Planted: ispublisher is not read.
    ispublisher: (ispublisher) => ispublisher && !faults.has('ispublisher-ignored'),
    // Planted: timedue is not read.
    timedue: (timedue) => (faults.has('getpages-timedue-ignored') ? 0 : timedue),
    due: (due, page) => {
      // Planted: any time set is taken as due, however far off.
      if (!faults.has('getpages-timedue-any-time')) return due;
      const tm = page.timeManagement;
      return (tm?.at ?? 0) > 0 || (tm?.offlineAt ?? 0) > 0;
    },
    inSync: (inSync, page) => {
      if (page.translation !== undefined) return inSync;
      // Planted (insync-drops-untranslated): a page that is no translation is listed under neither value.
      if (faults.has('insync-drops-untranslated')) return undefined;
      // Variation insync-lists-untranslated: a page that is no translation counts as not in sync.
      return faults.has('insync-lists-untranslated') ? false : inSync;
    },
    // Planted: wfown is not read.
    wfown: (wfown) => wfown && !faults.has('getpages-wfown-ignored'),
    // Planted: wfwatch is not read.
    wfwatch: (wfwatch) => wfwatch && !faults.has('getpages-wfwatch-ignored'),
    // Planted (wfwatch-no-group-500): the user's groups read without a default, as if every user were in one.
    groups: (groups, state, me) => (faults.has('wfwatch-no-group-500') ? state.users.get(me)!.groupIds! : groups),
    // Planted: the page list reads no niceurl (only the file lists have it).
    niceurl: (pattern) => (faults.has('getpages-niceurl-ignored') ? undefined : pattern),
    // Planted: the permission filter is not read.
    permission: (names) => (faults.has('getpages-permission-ignored') ? [] : names),
  };
}

/** The hooks of GET /folder/findPages. */
export interface FindPagesPlan {
  /** The skipCount read. */
  skipCount(skip: number): number;
  /** The maxItems read, where the answer starts at `skip`. */
  maxItems(max: number, skip: number): number;
}

/** GET /folder/findPages (findPages). */
export function findPages(faults: FaultSet): FindPagesPlan {
  return {
    // Planted: the find operations page from the first match whatever skipCount says.
    skipCount: (skip) => (faults.has('find-skipcount-ignored') ? 0 : skip),
    // Planted: maxItems cuts the list only where skipCount moved its start.
    maxItems: (max, skip) => (faults.has('findpages-maxitems-needs-skipcount') && skip === 0 ? -1 : max),
  };
}

/** The hooks of GET /folder/getExternalLinks/{folderId}. */
export interface GetExternalLinksPlan {
  /** Whether the pages of the sub-folders are reported too (`recursive` as asked). */
  recursive(recursive: boolean, req: OpRequest): boolean;
  /** Whether a page part's address, which refers to no page, is external; the contract: when it is an http(s) URL. */
  external(http: boolean): boolean;
  /** The entries answered, one per page with external links. */
  reported<T>(entries: T[]): T[];
}

/** GET /folder/getExternalLinks/{folderId} (getExternalLinks). */
export function getExternalLinks(faults: FaultSet): GetExternalLinksPlan {
  return {
    // Planted (external-links-recursive-default): recursive defaults to true, so the pages of the sub-folders are reported too.
    recursive: (recursive, req) => recursive || (req.rawQuery.recursive === undefined && faults.has('external-links-recursive-default')),
    // Variation (external-links-any-scheme): every address that refers to no page is external, ftp: and mailto: too.
    external: (http) => http || faults.has('external-links-any-scheme'),
    // Planted: the pages' tags are never searched, so no page is reported.
    reported: (entries) => (faults.has('external-links-none') ? [] : entries),
  };
}

/** The hooks of GET /folder/getTemplates/{folderId}. */
export interface GetTemplatesPlan extends PagesTemplatesPlan {
  /** Whether the listing is recursive. */
  recursive(recursive: boolean): boolean;
  /** The reduce parameter read. */
  reduce(reduce: boolean): boolean;
}

/** GET /folder/getTemplates/{folderId} (getTemplates). */
export function getTemplates(faults: FaultSet): GetTemplatesPlan {
  return {
    ...pagesTemplates(faults),
    // Planted: the template list reads no recursive and lists the folder's own links alone.
    recursive: (recursive) => recursive && !faults.has('gettemplates-recursive-ignored'),
    // Planted: reduce is not read, so a template linked into several folders is listed once per folder; or (templates-always-
    // unique) a recursive list is always reduced, while count goes on counting every link.
    reduce: (reduce) => (reduce || faults.has('templates-always-unique')) && !faults.has('reduce-ignored'),
  };
}
