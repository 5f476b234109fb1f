/**
 * The input classes of a valid request (requests.ts makes them): what in a request can make a server answer
 * otherwise, so that a sweep sends a generated request only when it has a class no earlier one had.
 */
import type { RequestSpec } from '../harness/transport.ts';
import { getOperation } from '../schemas/operations.ts';
import type { World } from './requests.ts';

/**
 * The input classes a valid request explores, as names: every parameter, body member, form field and
 * file part it carries; the kind of object each id names (a sandbox or fixture folder or file, the
 * channel, a user, in local or global form); and the value itself where an operation tells few values
 * apart (booleans, enumerations, sort specifications, small and edge numbers). Two requests whose
 * classes are alike differ only in values the contract treats alike: another sandbox file, another
 * search word, other bytes of the same type.
 */
export function inputClasses(operationId: string, request: RequestSpec, w: World): Set<string> {
  const op = getOperation(operationId);
  const kinds = idKinds(w);
  // The operation itself: the first request is always new, even one with nothing in it to vary.
  const out = new Set<string>([op.id]);
  const scalar = (where: string, value: unknown, few: boolean) => {
    out.add(where);
    // Ids are named so (folderId, recursiveIds, template_id, id); other numbers are counts, pages and times.
    const carriesId = /(^|[^a-z])ids?$|[a-z]Ids?$|_id$/i.test(where.replace(/(\[\])+$/, ''));
    out.add(`${where}=${few ? String(value) : valueClass(value, carriesId ? kinds : undefined)}`);
  };
  const walk = (where: string, value: unknown): void => {
    if (Array.isArray(value)) {
      out.add(`${where}#${value.length > 1 ? 'several' : value.length}`);
      for (const item of value) walk(`${where}[]`, item);
    } else if (value !== null && typeof value === 'object') {
      out.add(where);
      for (const [k, v] of Object.entries(value)) walk(`${where}/${k}`, v);
    } else scalar(where, value, typeof value === 'boolean');
  };
  const template = op.path.split('/');
  request.path.split('/').forEach((segment, i) => {
    const name = /^\{(\w+)\}$/.exec(template[i] ?? '')?.[1];
    if (name) scalar(`path:${name}`, decodeURIComponent(segment), false);
  });
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value === undefined) continue;
    const p = op.parameters.find((x) => x.in === 'query' && x.name === name);
    const few = p !== undefined && (p.enum !== undefined || p.knownValues !== undefined || p.type === 'boolean' || name === 'sort');
    const values = Array.isArray(value) ? value : [value];
    if (Array.isArray(value)) out.add(`query:${name}#${value.length > 1 ? 'several' : value.length}`);
    for (const v of values) scalar(`query:${name}`, v, few);
  }
  if (request.json !== undefined) walk('json:', request.json);
  for (const [name, value] of Object.entries(request.multipart?.fields ?? {})) scalar(`form:${name}`, value, /^(true|false)$/.test(value));
  for (const part of request.multipart?.files ?? [])
    out.add(`part:${part.name}:${part.contentType}:${part.data.length ? 'bytes' : 'empty'}`);
  if (request.raw) out.add(`raw:${request.raw.contentType}:${request.raw.data.length ? 'bytes' : 'empty'}`);
  // What an object looks like depends on the view it is seen in: each object named, in each view, is a class too.
  const view = [...out].find((c) => c.startsWith('query:nodeId='));
  if (view) for (const c of [...out]) if (c.includes('=id:') && !c.startsWith('query:nodeId=')) out.add(`${c} @${view}`);
  return out;
}

/** Each id the world knows, by the kinds of object it names (several where one number names several things). */
function idKinds(w: World): Map<string, string> {
  const f = w.fixture;
  const named: [string, readonly (number | undefined)[]][] = [
    ['sandbox-folder', w.folders],
    ['start-page-folder', w.startPageFolders ?? []],
    ['sandbox-file', w.files],
    ['localized-file', w.localizedFiles ?? []],
    ['fixture-folder', w.fixtureFolders ?? []],
    ['fixture-file', w.fixtureFiles ?? []],
    ['fixture-page', w.fixturePages ?? []],
    ['root', [f.masterRootFolderId, f.channelRootFolderId]],
    ['sandbox-parent', [f.sandboxParentFolderId]],
    ['pages-folder', [f.pagesFolderId]],
    ['templates-folder', [f.templatesFolderId]],
    ['master', [f.masterNodeId]],
    ['channel', [f.channelNodeId]],
    ['user', w.userIds ?? []],
    ['template', w.templateIds ?? []],
    ['markup-language', w.markupLanguageIds ?? []],
  ];
  const kinds = new Map<string, string[]>();
  const add = (key: string, kind: string) => kinds.set(key, [...new Set([...(kinds.get(key) ?? []), kind])].sort());
  // The test made its sandbox objects alike; the fixture's differ from one another (localized, excluded, deleted, used,
  // with or without a parent in a channel), so each fixture object is a class of its own.
  for (const [kind, ids] of named)
    for (const id of ids) if (id !== undefined) add(String(id), kind.startsWith('fixture-') ? `${kind} ${id}` : kind);
  for (const [id, globalId] of Object.entries(w.globalIds ?? {}))
    for (const kind of kinds.get(id) ?? ['object']) add(globalId, `global-${kind}`);
  return new Map([...kinds].map(([key, list]) => [key, list.join('+')]));
}

/** The class of a value whose every value the contract treats alike within its class: an id's kind, a number's range, text. */
function valueClass(value: unknown, kinds: ReadonlyMap<string, string> | undefined): string {
  const text = String(value);
  const kind = kinds?.get(text);
  if (kind) return `id:${kind}`;
  // recursiveIds and recId name a folder in a node as `nodeId/folderId`.
  const inNode = /^(\d+)\/(\d+)$/.exec(text);
  if (inNode && kinds) return `id:${kinds.get(inNode[1]!) ?? 'unknown'}/${kinds.get(inNode[2]!) ?? 'unknown'}`;
  if (typeof value === 'number' || /^-?\d+$/.test(text)) {
    const n = Number(text);
    // Negative and small numbers are each their own (-1 for all, 0 for none, 1 for the first page); large ones alike.
    return n <= 10 ? String(n) : n >= 2_147_483_647 ? 'max' : 'number';
  }
  if (typeof value === 'string') return value === '' ? 'empty' : 'text';
  return typeof value;
}
