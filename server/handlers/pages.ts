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
  type Walk,
} from './listing.ts';
import * as planted from './planted/pages.ts';
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
  const plan = planted.niceUrl(faults);
  let re: RegExp;
  try {
    re = new RegExp(plan.source(pattern));
  } catch (err) {
    throw new Refusal('INVALIDDATA', `niceurl: not a valid regular expression: ${(err as Error).message}`, 'niceurl');
  }
  return (url, alternates) => plan.matches(url !== undefined && re.test(url), re, url, alternates);
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
  const plan = planted.language(faults);
  const node = state.nodes.get(view.nodeId)!;
  const nodeLangs = node.languageIds.map((id) => state.languages.find((l) => l.id === id)!).filter(Boolean);
  let lang = state.languages.find((l) => l.code === language || String(l.id) === language);
  plan.lookedUp(lang, language);
  if (!lang) {
    if (!fallback) return plan.listed([], pages);
    lang = nodeLangs[0];
  }
  if (!fallback || !lang)
    return plan.listed(
      pages.filter((p) => p.language === lang?.code),
      pages,
    );
  const wanted = plan.wanted(lang.code);
  const rank = (p: PageObj) => (p.language === wanted ? -1 : nodeLangs.findIndex((l) => l.code === p.language) >>> 0);
  const best = new Map<number, PageObj>();
  for (const p of pages) {
    const key = p.contentSetId ?? -p.id;
    const cur = best.get(key);
    if (!cur || plan.replaces(rank(p) < rank(cur), p, wanted)) best.set(key, p);
  }
  const chosen = new Set(best.values());
  return plan.listed(
    pages.filter((p) => chosen.has(p)),
    pages,
  );
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
function dueWithin(p: PageObj, now: number, timedue: number): boolean {
  const tm = p.timeManagement;
  if (p.online && (tm?.offlineAt ?? 0) > 0) return tm!.offlineAt! <= now + timedue;
  if (!p.online && (tm?.at ?? 0) > 0) return tm!.at! <= now + timedue;
  return false;
}

/** The getPages filters beyond Group F, as a predicate (FLT-09). */
function pagePredicate(state: State, view: View, req: OpRequest, faults: FaultSet, plan: planted.GetPagesPlan): (p: PageObj) => boolean {
  const flags = {
    online: plan.online(qBool(req, 'online')),
    modified: qBool(req, 'modified'),
    planned: qBool(req, 'planned'),
    queued: qBool(req, 'queued'),
  };
  const tids = plan.templateIds(qInts(req, 'template_id'));
  const tsets = tids.length > 0 ? plan.templateSets(templateSets(state, tids), tids) : undefined;
  const include = plan.includeMlId(qInts(req, 'includeMlId'));
  const exclude = plan.excludeMlId(qInts(req, 'excludeMlId'));
  const priority = qInt(req, 'priority', 0);
  const anyPriority = plan.anyPriority(priority === 0, req);
  const priorityMatches = (p: PageObj) => plan.priorityMatches(p.priority === priority, p.priority, priority);
  const filename = qStr(req, 'filename')?.toLowerCase();
  const fileNameMatches = (name: string) => plan.fileNameMatches(name.includes(filename!), name, filename!);
  const fileNameOf = (p: PageObj) => plan.fileName(p.fileName, p);
  const { before, since } = plan.published({ before: qInt(req, 'publishedbefore', 0), since: qInt(req, 'publishedsince', 0) });
  const publisher = qStr(req, 'publisher');
  const publishers = publisher ? usersMatching(state, publisher, faults) : undefined;
  const publisherIds = plan.publisherIds(qInts(req, 'publisherId'));
  const publisherOf = (p: PageObj) => plan.publisher(p.publisherId, p);
  const ispublisher = plan.ispublisher(qBool(req, 'ispublisher', false));
  const timedue = plan.timedue(qInt(req, 'timedue', 0));
  const insync = qBool(req, 'insync');
  const wfown = plan.wfown(qBool(req, 'wfown', false));
  const wfwatch = plan.wfwatch(qBool(req, 'wfwatch', false));
  const niceurl = niceUrlMatcher(plan.niceurl(qStr(req, 'niceurl')), faults);
  const now = nowSeconds(state);
  const me = state.requesterId;
  const myGroups = plan.groups(state.users.get(me)?.groupIds ?? [], state, me);
  const ml = (p: PageObj) => (resolveInView(state, p.templateSet, view, true) as TemplateObj | undefined)?.markupLanguageId;
  const permission = plan.permission(qStrs(req, 'permission'));
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
      (!ispublisher || p.publisherId === me) &&
      (timedue <= 0 || plan.due(dueWithin(p, now, timedue), p)) &&
      // A page that is no translation counts as in sync.
      (insync === undefined || plan.inSync(p.translation?.inSync ?? true, p) === insync) &&
      (!wfown || p.workflow?.userId === me) &&
      (!wfwatch || (p.workflow?.groupIds.some((g) => myGroups.includes(g)) ?? false)) &&
      (!niceurl || niceurl(p.niceUrl, p.alternateUrls)) &&
      granted(p)
    );
  };
}

/** GET /folder/getPages/{id}: pages of a folder with Group F, Group L and the page filters and add-ons. */
export const getPages: Handler<State> = (state, req, ctx) => {
  const plan = planted.getPages(ctx.faults);
  const wastebin = plan.wastebin(qWastebin(req, ctx.faults), req);
  const { obj, view } = resolveObject(state, req.path.id, {
    kinds: ['folder'],
    view: nodeView(state, plan.nodeId(qInt(req, 'nodeId'))),
    wastebin,
    what: 'folder',
    faults: ctx.faults,
    property: 'id',
  });
  const walk = plan.walk(walkOf(view, qBool(req, 'recursive', false), wastebin, ctx.faults), obj as FolderObj);
  const filter = plan.filters(filterFromQuery(req));
  const search = filter.search;
  const searchContent = plan.searchContent(qBool(req, 'searchcontent', false));
  const groupF = objectPredicate(state, view, { ...filter, search: undefined }, ctx.faults);
  const byTerm = (p: PageObj) =>
    !search ||
    objectPredicate(state, view, { ...filter, search }, ctx.faults)(p) ||
    (searchContent && contentText(p).toLowerCase().includes(search.toLowerCase()));
  const pageFilter = pagePredicate(state, view, req, ctx.faults, plan);
  let pages = collectChildren(state, obj as FolderObj, 'page', walk).filter((p) => groupF(p) && byTerm(p) && pageFilter(p));
  const language = qStr(req, 'language');
  if (language) pages = languageFilter(state, view, pages, language, plan.langfallback(qBool(req, 'langfallback', true)), ctx.faults);
  const keys = plan.sortKeys(legacySortKeys(state, view));
  const sorted = sortLegacy(pages, qStr(req, 'sortby'), qStr(req, 'sortorder'), keys, ctx.faults);
  const paged = plan.paged(pageFromQuery(req, sorted, ctx.faults), req, sorted);
  const rctx: RenderCtx = { state, view, faults: ctx.faults };
  const add: PageRenderOptions = {
    contentTags: qBool(req, 'contenttags', false),
    objectTags: qBool(req, 'objecttags', false),
    folder: qBool(req, 'folder', false),
    template: qBool(req, 'template', false),
    languageVariants: qBool(req, 'langvars', false),
    translationStatus: qBool(req, 'translationstatus', false) || plan.insyncStatus(qBool(req, 'insync') !== undefined),
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
  const plan = planted.find(faults);
  const folderId = qInt(req, 'folderId', 0);
  type Out = K extends 'page' ? PageObj : FileObj;
  if (folderId === 0) {
    const out: Out[] = [];
    for (const o of state.objects.values()) {
      if (o.kind === kind && !inWastebin(state, o, viewOf(state, o.nodeId))) out.push(o as Out);
    }
    return plan.everywhere(out, kind);
  }
  const { obj, view } = resolveObject(state, folderId, { kinds: ['folder'], what: 'folder', faults, property: 'folderId' });
  const recursive = plan.recursive(qBool(req, 'recursive', true), kind, req);
  return collectChildren(state, obj as FolderObj, kind, walkOf(view, recursive, 'exclude', faults)) as Out[];
}

/**
 * Name matches of a find query, ignoring case, ordered by name then id; `query` absent matches all (FLT-10). "currently only
 * names are searched": a name holding the query matches, or under the variation find-prefix-match a name starting with it.
 */
export function findMatches<T extends PageObj | FileObj>(items: T[], query: string | undefined, faults: FaultSet): T[] {
  const plan = planted.find(faults);
  const q = (query ?? '').toLowerCase();
  return items
    .filter((o) => plan.matches(o.name.toLowerCase().includes(q), o.name, q))
    .sort((a, b) => compareValues(a.name, b.name, faults) || a.id - b.id);
}

/** GET /folder/findPages: pages whose name contains `query` (maxItems 100 by default; PAG-08, FLT-10). */
export const findPages: Handler<State> = (state, req, ctx) => {
  const plan = planted.findPages(ctx.faults);
  const found = findMatches(findScope(state, req, 'page', ctx.faults), qStr(req, 'query'), ctx.faults);
  const skip = plan.skipCount(qInt(req, 'skipCount', 0));
  const paged = pageLegacy(found, skip, plan.maxItems(qInt(req, 'maxItems', 100), skip), ctx.faults);
  const contextOf = renderContexts(state, ctx.faults);
  return {
    pages: paged.items.map((p) => withLinks(state, pageRecord(contextOf(p.nodeId), p), p.nodeId, qStr(req, 'links'))),
    hasMoreItems: paged.hasMoreItems,
    numItems: paged.numItems,
    stagingStatus: {},
  };
};

/** External http(s) links of a page: PAGE-type parts with a URL and no internal page (FLD-10). */
export function externalLinks(p: PageObj, plan: planted.GetExternalLinksPlan): string[] {
  const links: string[] = [];
  for (const tag of p.tags ?? []) {
    for (const prop of Object.values(tag.properties)) {
      const url = prop.stringValue;
      if (prop.type !== 'PAGE' || prop.pageId !== undefined || !url) continue;
      if (plan.external(/^https?:\/\//i.test(url)) && !links.includes(url)) links.push(url);
    }
  }
  return links;
}

/** GET /folder/getExternalLinks/{folderId}: per page of the folder (and sub-folders when recursive), its external links. */
export const getExternalLinks: Handler<State> = (state, req, ctx) => {
  const plan = planted.getExternalLinks(ctx.faults);
  const { obj, view } = resolveObject(state, req.path.folderId, {
    kinds: ['folder'],
    view: nodeView(state, qInt(req, 'nodeId')),
    what: 'folder',
    faults: ctx.faults,
    property: 'folderId',
  });
  const recursive = plan.recursive(qBool(req, 'recursive', false), req);
  const pages = collectChildren(state, obj as FolderObj, 'page', walkOf(view, recursive, 'exclude', ctx.faults)).sort(
    (a, b) => a.id - b.id,
  );
  return {
    pages: plan.reported(
      pages.map((p) => ({ pageId: p.id, pageName: p.name, links: externalLinks(p, plan) })).filter((e) => e.links.length > 0),
    ),
  };
};

/** Templates linked into a folder (and its sub-folders when the walk is recursive), each with the folder it is linked to. */
export function templatesIn(
  state: State,
  folder: FolderObj,
  walk: Walk,
  faults: FaultSet = new Set(),
): { template: TemplateObj; folder: FolderObj }[] {
  const plan = planted.templateLinks(faults);
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
  return plan.linked(out);
}

/** GET /folder/getTemplates/{folderId}: templates linked into the folder; `reduce` with `recursive` lists each once (FLD-08). */
export const getTemplates: Handler<State> = (state, req, ctx) => {
  const plan = planted.getTemplates(ctx.faults);
  const wastebin = qWastebin(req, ctx.faults);
  const { obj, view } = resolveObject(state, req.path.folderId, {
    kinds: ['folder'],
    view: nodeView(state, plan.nodeId(qInt(req, 'nodeId'))),
    wastebin,
    what: 'folder',
    faults: ctx.faults,
    property: 'folderId',
  });
  const recursive = plan.recursive(qBool(req, 'recursive', false));
  const keep = objectPredicate(state, view, plan.filters(filterFromQuery(req)), ctx.faults);
  let entries = templatesIn(state, obj as FolderObj, walkOf(view, recursive, wastebin, ctx.faults), ctx.faults).filter((e) =>
    keep(e.template),
  );
  if (recursive && plan.reduce(qBool(req, 'reduce', false))) {
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
