/**
 * Page and template operations of contract 4.2: getPages (with its filters and add-ons), findPages,
 * getExternalLinks and getTemplates.
 */
import {
  allocateId,
  globalIdFor,
  insertObject,
  inWastebin,
  lookup,
  nowSeconds,
  resolveInView,
  viewOf,
  type FileObj,
  type FolderObj,
  type PageObj,
  type State,
  type TemplateObj,
  type View,
} from '../state.ts';
import { Refusal, type FaultSet, type Handler, type OpRequest } from '../types.ts';
import { nodeView, qBool, qInt, qInts, qStr, qStrs, qWastebin, resolveObject, stagingMap } from './common.ts';
import {
  collectChildren,
  compareValues,
  filterFromQuery,
  legacySortKeys,
  objectPredicate,
  pageFromQuery,
  pageLegacy,
  sortLegacy,
  usersMatching,
  wastebinKeeps,
  walkOf,
  type ObjectFilter,
  type Walk,
} from './listing.ts';
import {
  keptPageRecord,
  pageFlags,
  pageRecord,
  renderContexts,
  templateRecord,
  withLinks,
  type PageRenderOptions,
  type RenderCtx,
} from './render.ts';

/** Whether an object's nice URL (and, where a variation reads them, its alternate URLs) matches a `niceurl` filter. */
export type NiceUrlMatcher = (url: string | undefined, alternates?: readonly string[]) => boolean;

/**
 * Compiles a `niceurl` regular expression; an invalid one is refused INVALIDDATA, never a crash (FLT-08). The contract says
 * only "regular expression": found anywhere in the nice URL by default; under the variation niceurl-full-match it must match
 * the whole URL, under niceurl-matches-alternates an alternate URL that matches lists the object too.
 */
export function niceUrlMatcher(pattern: string | undefined, faults: FaultSet): NiceUrlMatcher | undefined {
  if (pattern === undefined || pattern === '') return undefined;
  if (faults.has('niceurl-regex-literal')) return (url) => url?.includes(pattern) ?? false;
  let re: RegExp;
  try {
    re = new RegExp(faults.has('niceurl-full-match') ? `^(?:${pattern})$` : pattern);
  } catch (err) {
    throw new Refusal('INVALIDDATA', `niceurl: not a valid regular expression: ${(err as Error).message}`, 'niceurl');
  }
  // Planted: a missing nice URL is tested as the text "undefined".
  if (faults.has('niceurl-missing-as-text')) return (url) => re.test(String(url));
  if (faults.has('niceurl-matches-alternates'))
    return (url, alternates = []) => (url !== undefined && re.test(url)) || alternates.some((u) => re.test(u));
  return (url) => url !== undefined && re.test(url);
}

/**
 * Restricts pages to a language. With `fallback`, each group of language variants contributes the
 * variant in that language, else the one in the node's highest-priority language; `0` means pages
 * without a language; an unknown language gives nothing without fallback.
 */
export function languageFilter(
  state: State,
  view: View,
  pages: PageObj[],
  language: string,
  fallback: boolean,
  faults: FaultSet = new Set(),
): PageObj[] {
  if (language === '0') return pages.filter((p) => !p.language);
  const node = state.nodes.get(view.nodeId)!;
  const nodeLangs = node.languageIds.map((id) => state.languages.find((l) => l.id === id)!).filter(Boolean);
  let lang = state.languages.find((l) => l.code === language || String(l.id) === language);
  // Variation language-unknown-refused: a code that is no language of the system is invalid data, not an empty answer.
  if (!lang && faults.has('language-unknown-refused'))
    throw new Refusal('INVALIDDATA', `language: unknown language ${language}`, 'language');
  // Variation language-keeps-languageless: a page without a language belongs to every language's listing.
  const languageless = faults.has('language-keeps-languageless') ? pages.filter((p) => !p.language) : [];
  if (!lang) {
    if (!fallback) return languageless;
    lang = nodeLangs[0];
  }
  if (!fallback || !lang) return pages.filter((p) => p.language === lang?.code || languageless.includes(p));
  // Planted: the requested language ranks as the node's other languages do, so a set's highest-priority variant beats it.
  const wanted = faults.has('getpages-language-ranked-by-node') ? undefined : lang.code;
  const rank = (p: PageObj) => (p.language === wanted ? -1 : nodeLangs.findIndex((l) => l.code === p.language) >>> 0);
  const best = new Map<number, PageObj>();
  for (const p of pages) {
    const key = p.contentSetId ?? -p.id;
    const cur = best.get(key);
    // Planted: the fallback keeps the variant stored first where the set lacks the language.
    const firstStored = faults.has('getpages-langfallback-first-stored') && cur !== undefined && rank(p) !== -1;
    if (!cur || (!firstStored && rank(p) < rank(cur))) best.set(key, p);
  }
  const chosen = new Set([...best.values(), ...languageless]);
  return pages.filter((p) => chosen.has(p));
}

/** The channel sets named by template ids (a localized copy's id names its set too). */
function templateSets(state: State, ids: number[]): Set<number> {
  return new Set(ids.map((id) => lookup(state, id)?.channelSetId ?? id));
}

/** Text of a page's content tags, for `searchcontent`. */
function contentText(p: PageObj): string {
  return (p.tags ?? [])
    .filter((t) => t.type === 'CONTENTTAG')
    .flatMap((t) => Object.values(t.properties).map((v) => v.stringValue ?? ''))
    .join('\n');
}

/** Whether time management changes the page's status within `timedue` seconds from now (as the deployed implementation checks it). */
function dueWithin(p: PageObj, now: number, timedue: number, faults: FaultSet): boolean {
  const tm = p.timeManagement;
  // Planted: any time set is taken as due, however far off.
  if (faults.has('getpages-timedue-any-time')) return (tm?.at ?? 0) > 0 || (tm?.offlineAt ?? 0) > 0;
  if (p.online && (tm?.offlineAt ?? 0) > 0) return tm!.offlineAt! <= now + timedue;
  if (!p.online && (tm?.at ?? 0) > 0) return tm!.at! <= now + timedue;
  return false;
}

/** The getPages filters beyond Group F, as a predicate (FLT-09). */
function pagePredicate(state: State, view: View, req: OpRequest, faults: FaultSet): (p: PageObj) => boolean {
  const flags = {
    online: qBool(req, 'online'),
    modified: qBool(req, 'modified'),
    planned: qBool(req, 'planned'),
    queued: qBool(req, 'queued'),
  };
  if (faults.has('getpages-online-filter-inverted') && flags.online !== undefined) flags.online = !flags.online;
  let tids = faults.has('getpages-template-id-ignored') ? [] : qInts(req, 'template_id');
  if (faults.has('multivalued-first-only')) tids = tids.slice(0, 1);
  // Planted: template ids compared as they are, so a localized template copy's id names no page.
  const tsets = tids.length > 0 ? (faults.has('template-id-copy-ignored') ? new Set(tids) : templateSets(state, tids)) : undefined;
  const include = faults.has('getpages-includemlid-ignored') ? [] : qInts(req, 'includeMlId');
  const exclude = faults.has('getpages-excludemlid-ignored') ? [] : qInts(req, 'excludeMlId');
  const priority = qInt(req, 'priority', 0);
  // Planted: 0 taken as a priority, not as "all".
  const anyPriority = priority === 0 && !(faults.has('getpages-priority-zero-restricts') && req.rawQuery.priority !== undefined);
  // Variation priority-at-least: "priority (int, 0): page priority" read as the least priority listed.
  const priorityMatches = (p: PageObj) => (faults.has('priority-at-least') ? p.priority >= priority : p.priority === priority);
  const filename = qStr(req, 'filename')?.toLowerCase();
  // Variation filename-prefix: the "filename search string" finds the file names that start with it.
  const fileNameMatches = (name: string) => (faults.has('filename-prefix') ? name.startsWith(filename!) : name.includes(filename!));
  // Planted: the file name filter reads the column the list view shows.
  const fileNameOf = (p: PageObj) => (faults.has('getpages-filename-searches-name') ? p.name : p.fileName);
  const swapped = faults.has('getpages-published-bounds-swapped');
  const before = qInt(req, swapped ? 'publishedsince' : 'publishedbefore', 0);
  const since = qInt(req, swapped ? 'publishedbefore' : 'publishedsince', 0);
  const publisher = qStr(req, 'publisher');
  const publishers = publisher ? usersMatching(state, publisher, faults) : undefined;
  const publisherIds = faults.has('getpages-publisherid-ignored') ? [] : qInts(req, 'publisherId');
  // Planted: the publisher pattern reads the column beside it, the last editor.
  const publisherOf = (p: PageObj) => (faults.has('getpages-publisher-matches-editor') ? p.editorId : p.publisherId);
  const ispublisher = qBool(req, 'ispublisher', false);
  const timedue = faults.has('getpages-timedue-ignored') ? 0 : qInt(req, 'timedue', 0);
  const insync = qBool(req, 'insync');
  const wfown = qBool(req, 'wfown', false) && !faults.has('getpages-wfown-ignored');
  const wfwatch = qBool(req, 'wfwatch', false) && !faults.has('getpages-wfwatch-ignored');
  // Planted: the page list reads no niceurl (only the file lists have it).
  const niceurl = faults.has('getpages-niceurl-ignored') ? undefined : niceUrlMatcher(qStr(req, 'niceurl'), faults);
  const now = nowSeconds(state);
  const me = state.requesterId;
  // Planted (wfwatch-no-group-500): the user's groups read without a default, as if every user were in one.
  const myGroups = faults.has('wfwatch-no-group-500') ? state.users.get(me)!.groupIds! : (state.users.get(me)?.groupIds ?? []);
  const ml = (p: PageObj) => (resolveInView(state, p.templateSet, view, true) as TemplateObj | undefined)?.markupLanguageId;
  const permission = faults.has('getpages-permission-ignored') ? [] : qStrs(req, 'permission');
  // "folder permissions that must be granted": the requesting user holds every permission but those a folder withholds.
  const granted = (p: PageObj) => {
    const withheld = (resolveInView(state, p.parentSet, view, true) as FolderObj | undefined)?.withheld;
    return !withheld || !permission.some((name) => withheld.includes(name));
  };
  return (p) => {
    const f = pageFlags(p, faults);
    return (
      (flags.online === undefined || p.online === flags.online) &&
      (flags.modified === undefined || p.modified === flags.modified) &&
      (flags.planned === undefined || f.planned === flags.planned) &&
      (flags.queued === undefined || f.queued === flags.queued) &&
      (!tsets || tsets.has(p.templateSet)) &&
      (include.length === 0 || include.includes(ml(p) ?? -1)) &&
      (exclude.length === 0 || !exclude.includes(ml(p) ?? -1)) &&
      (anyPriority || priorityMatches(p)) &&
      (!filename || fileNameMatches(fileNameOf(p).toLowerCase())) &&
      (before <= 0 || (p.pdate > 0 && p.pdate <= before)) &&
      (since <= 0 || p.pdate >= since) &&
      (!publishers || (publisherOf(p) !== undefined && publishers.has(publisherOf(p)!))) &&
      (publisherIds.length === 0 || (p.publisherId !== undefined && publisherIds.includes(p.publisherId))) &&
      (!ispublisher || p.publisherId === me || faults.has('ispublisher-ignored')) &&
      (timedue <= 0 || dueWithin(p, now, timedue, faults)) &&
      // A page that is no translation counts as in sync; under the variation insync-lists-untranslated, as not in sync.
      (insync === undefined || (p.translation?.inSync ?? !faults.has('insync-lists-untranslated')) === insync) &&
      (!wfown || p.workflow?.userId === me) &&
      (!wfwatch || (p.workflow?.groupIds.some((g) => myGroups.includes(g)) ?? false)) &&
      (!niceurl || niceurl(p.niceUrl, p.alternateUrls)) &&
      granted(p)
    );
  };
}

/** The Group F filters and search of getPages and getTemplates, less those a planted fault has them ignore. */
function pageTemplateFilter(req: OpRequest, faults: FaultSet): ObjectFilter {
  const filter = filterFromQuery(req);
  // Planted: search and inherited applied by the file and folder lists only.
  if (faults.has('pages-templates-search-ignored')) filter.search = undefined;
  if (faults.has('pages-templates-inherited-ignored')) filter.inherited = undefined;
  return filter;
}

/** GET /folder/getPages/{id}: pages of a folder with Group F, Group L and the page filters and add-ons. */
export const getPages: Handler<State> = (state, req, ctx) => {
  // Planted: the permission check takes a query of its own that forgets the wastebin.
  const forgets = ctx.faults.has('getpages-permission-lists-deleted') && req.rawQuery.permission !== undefined;
  const wastebin = forgets ? 'include' : qWastebin(req, ctx.faults);
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    // Planted: the page list answers the master's view whatever the channel asked for.
    view: nodeView(state, ctx.faults.has('pages-templates-nodeid-ignored') ? undefined : qInt(req, 'nodeId')),
    wastebin,
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  // Planted: recursive=true goes one level down, into the folder's own sub-folders only.
  const oneLevel = ctx.faults.has('getpages-recursive-one-level')
    ? { descend: (sub: FolderObj) => sub.parentSet === obj.channelSetId }
    : {};
  const walk = walkOf(view, qBool(req, 'recursive', false), wastebin, ctx.faults, oneLevel);
  const filter = pageTemplateFilter(req, ctx.faults);
  const search = filter.search;
  const searchContent =
    ctx.faults.has('getpages-searchcontent-always') ||
    (qBool(req, 'searchcontent', false) && !ctx.faults.has('getpages-searchcontent-ignored'));
  const groupF = objectPredicate(state, view, { ...filter, search: undefined }, ctx.faults);
  const byTerm = (p: PageObj) =>
    !search ||
    objectPredicate(state, view, { ...filter, search }, ctx.faults)(p) ||
    (searchContent && contentText(p).toLowerCase().includes(search.toLowerCase()));
  const pageFilter = pagePredicate(state, view, req, ctx.faults);
  let pages = collectChildren(state, obj as FolderObj, 'page', walk).filter((p) => groupF(p) && byTerm(p) && pageFilter(p));
  const language = qStr(req, 'language');
  if (language)
    pages = languageFilter(
      state,
      view,
      pages,
      language,
      ctx.faults.has('getpages-langfallback-ignored') || qBool(req, 'langfallback', true),
      ctx.faults,
    );
  const keys = legacySortKeys(state, view);
  // Planted: getPages maps sortby=filename to the page name, the column its list view shows.
  if (ctx.faults.has('sortby-filename-uses-name')) keys.filename = (o) => o.name;
  const sorted = sortLegacy(pages, qStr(req, 'sortby'), qStr(req, 'sortorder'), keys, ctx.faults);
  // Planted: a default page size where the contract's default is every page.
  const paged =
    ctx.faults.has('getpages-default-maxitems-25') && req.rawQuery.maxItems === undefined
      ? pageLegacy(sorted, qInt(req, 'skipCount', 0), 25, ctx.faults)
      : pageFromQuery(req, sorted, ctx.faults);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const add: PageRenderOptions = {
    contentTags: qBool(req, 'contenttags', false),
    objectTags: qBool(req, 'objecttags', false),
    folder: qBool(req, 'folder', false),
    template: qBool(req, 'template', false),
    languageVariants: qBool(req, 'langvars', false),
    // Planted: insync filters without adding the status it filters by.
    translationStatus:
      qBool(req, 'translationstatus', false) ||
      (qBool(req, 'insync') !== undefined && !ctx.faults.has('insync-adds-no-translation-status')),
    // The Page record lists `workflow` with no condition: every page in one shows it, so that a client (and wfown and wfwatch's
    // check) can tell the pages in a workflow from those in none.
    workflow: true,
  };
  return {
    pages: paged.items.map((p) => keptPageRecord(rctx, p, add)),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
    stagingStatus: stagingMap(state, paged.items, qStr(req, 'package')),
  };
};

/**
 * The folders a find operation searches: `folderId` 0 searches all folders of every node; otherwise the
 * folder and, with `recursive`, its sub-folders, in the folder's own node.
 */
export function findScope<K extends 'file' | 'page'>(
  state: State,
  req: OpRequest,
  kind: K,
  faults: FaultSet,
): (K extends 'page' ? PageObj : FileObj)[] {
  const folderId = qInt(req, 'folderId', 0);
  type Out = K extends 'page' ? PageObj : FileObj;
  if (folderId === 0) {
    if (faults.has('findfiles-folder0-empty') && kind === 'file') return [];
    const out: Out[] = [];
    for (const o of state.objects.values()) {
      if (o.kind === kind && !inWastebin(state, o, viewOf(state, o.nodeId))) out.push(o as Out);
    }
    return out;
  }
  const { obj, view } = resolveObject(state, folderId, { kinds: ['folder'], what: 'folder', faults, property: 'folderId' });
  // Planted: findPages searches the folder alone unless told recursive=true.
  const unsaid = faults.has('findpages-recursive-default-false') && kind === 'page' && req.rawQuery.recursive === undefined;
  const recursive = !unsaid && qBool(req, 'recursive', true);
  return collectChildren(state, obj as FolderObj, kind, walkOf(view, recursive, 'exclude', faults)) as Out[];
}

/**
 * Name matches of a find query, ignoring case, ordered by name then id; `query` absent matches all (FLT-10). "currently only
 * names are searched": a name holding the query matches, or under the variation find-prefix-match a name starting with it.
 */
export function findMatches<T extends PageObj | FileObj>(items: T[], query: string | undefined, faults: FaultSet): T[] {
  const q = (query ?? '').toLowerCase();
  const prefix = faults.has('find-prefix-match');
  return items
    .filter((o) => (prefix ? o.name.toLowerCase().startsWith(q) : o.name.toLowerCase().includes(q)))
    .sort((a, b) => compareValues(a.name, b.name, faults) || a.id - b.id);
}

/** GET /folder/findPages: pages whose name contains `query` (maxItems 100 by default; PAG-08, FLT-10). */
export const findPages: Handler<State> = (state, req, ctx) => {
  const found = findMatches(findScope(state, req, 'page', ctx.faults), qStr(req, 'query'), ctx.faults);
  // Planted: the find operations page from the first match whatever skipCount says.
  const skip = ctx.faults.has('find-skipcount-ignored') ? 0 : qInt(req, 'skipCount', 0);
  // Planted: maxItems cuts the list only where skipCount moved its start.
  const unpaged = ctx.faults.has('findpages-maxitems-needs-skipcount') && skip === 0;
  const paged = pageLegacy(found, skip, unpaged ? -1 : qInt(req, 'maxItems', 100), ctx.faults);
  const contextOf = renderContexts(state, ctx.faults);
  return {
    pages: paged.items.map((p) => withLinks(state, pageRecord(contextOf(p.nodeId), p), p.nodeId, qStr(req, 'links'))),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
    stagingStatus: {},
  };
};

/** External http(s) links of a page: PAGE-type parts with a URL and no internal page (FLD-10). */
export function externalLinks(p: PageObj, faults: FaultSet): string[] {
  const links: string[] = [];
  for (const tag of p.tags ?? []) {
    for (const prop of Object.values(tag.properties)) {
      const url = prop.stringValue;
      if (prop.type !== 'PAGE' || prop.pageId !== undefined || !url) continue;
      // Variation (external-links-any-scheme): every address that refers to no page is external, ftp: and mailto: too.
      if ((/^https?:\/\//i.test(url) || faults.has('external-links-any-scheme')) && !links.includes(url)) links.push(url);
    }
  }
  return links;
}

/** GET /folder/getExternalLinks/{folderId}: per page of the folder (and sub-folders when recursive), its external links. */
export const getExternalLinks: Handler<State> = (state, req, ctx) => {
  const { obj, view } = resolveObject(state, req.path.folderId, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'folderId',
  });
  // Planted (external-links-recursive-default): recursive defaults to true, so the pages of the sub-folders are reported too.
  const unsaid = req.rawQuery.recursive === undefined && ctx.faults.has('external-links-recursive-default');
  const recursive = unsaid || qBool(req, 'recursive', false);
  const pages = collectChildren(state, obj as FolderObj, 'page', walkOf(view, recursive, 'exclude', ctx.faults)).sort(
    (a, b) => a.id - b.id,
  );
  // Planted: the pages' tags are never searched, so no page is reported.
  if (ctx.faults.has('external-links-none')) return { pages: [] };
  return {
    pages: pages.map((p) => ({ pageId: p.id, pageName: p.name, links: externalLinks(p, ctx.faults) })).filter((e) => e.links.length > 0),
  };
};

/** Templates linked into a folder (and its sub-folders when the walk is recursive), each with the folder it is linked to. */
export function templatesIn(
  state: State,
  folder: FolderObj,
  walk: Walk,
  faults: FaultSet = new Set(),
): { template: TemplateObj; folder: FolderObj }[] {
  // Planted: the folders' template links are never read; the listing and the count agree on none.
  if (faults.has('template-links-unread')) return [];
  const folders = [
    folder,
    ...(walk.recursive
      ? collectChildren(state, folder, 'folder', { ...walk, wastebin: walk.wastebin === 'exclude' ? 'exclude' : 'include' })
      : []),
  ];
  const out: { template: TemplateObj; folder: FolderObj }[] = [];
  for (const f of folders) {
    for (const set of state.templateLinks.get(f.channelSetId) ?? []) {
      const t = resolveInView(state, set, walk.view) as TemplateObj | undefined;
      if (t && wastebinKeeps(walk.wastebin, t.deleted !== undefined)) out.push({ template: t, folder: f });
    }
  }
  return out;
}

/** GET /folder/getTemplates/{folderId}: templates linked into the folder; `reduce` with `recursive` lists each once (FLD-08). */
export const getTemplates: Handler<State> = (state, req, ctx) => {
  const wastebin = qWastebin(req, ctx.faults);
  const { obj, view } = resolveObject(state, req.path.folderId, {
    kinds: ['folder'],
    view: nodeView(state, ctx.faults.has('pages-templates-nodeid-ignored') ? undefined : qInt(req, 'nodeId')),
    wastebin,
    what: 'folder',
    faults: ctx.faults,
    property: 'folderId',
  });
  // Planted: the template list reads no recursive and lists the folder's own links alone.
  const recursive = qBool(req, 'recursive', false) && !ctx.faults.has('gettemplates-recursive-ignored');
  const keep = objectPredicate(state, view, pageTemplateFilter(req, ctx.faults), ctx.faults);
  let entries = templatesIn(state, obj as FolderObj, walkOf(view, recursive, wastebin, ctx.faults), ctx.faults).filter((e) =>
    keep(e.template),
  );
  if (recursive && qBool(req, 'reduce', false) && !ctx.faults.has('reduce-ignored')) {
    const seen = new Set<number>();
    entries = entries.filter((e) => !seen.has(e.template.id) && seen.add(e.template.id));
  }
  // Sort the templates; the entries of one template (recursive, not reduced) keep their folder order.
  const unique = [...new Set(entries.map((e) => e.template))];
  const rank = new Map(
    sortLegacy(unique, qStr(req, 'sortby'), qStr(req, 'sortorder'), legacySortKeys(state, view), ctx.faults).map((t, i) => [t, i]),
  );
  const sorted = entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank.get(a.e.template)! - rank.get(b.e.template)! || a.i - b.i)
    .map((x) => x.e);
  const paged = pageFromQuery(req, sorted, ctx.faults);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  return {
    templates: paged.items.map((e) => templateRecord(rctx, e.template, { folder: e.folder })),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
  };
};

/** Creates a page (folder start page) with the template of that channel set, offline and unpublished. */
export function createPage(state: State, folder: FolderObj, templateSet: number, name: string, language: string | undefined): PageObj {
  const now = nowSeconds(state);
  const id = allocateId(state);
  const lang = state.languages.find((l) => l.code === language);
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || `page-${id}`;
  const page: PageObj = {
    kind: 'page',
    id,
    globalId: globalIdFor(id),
    nodeId: folder.nodeId,
    channelSetId: id,
    parentSet: folder.channelSetId,
    name,
    description: '',
    cdate: now,
    edate: now,
    creatorId: state.requesterId,
    editorId: state.requesterId,
    templateSet,
    fileName: `${slug}${lang ? `.${lang.code}` : ''}.html`,
    ...(lang ? { language: lang.code, contentSetId: id } : {}),
    contentId: id,
    priority: 1,
    online: false,
    modified: true,
    pdate: 0,
  };
  insertObject(state, page);
  return page;
}
