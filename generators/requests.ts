/**
 * Valid requests for every operation of the catalogue (schemas/operations.json), as fast-check
 * arbitraries: parameter combinations the contract allows (defaults, edge values, every enumeration
 * value, repeated multivalued parameters, omitted parameters) and bodies valid against the operation's
 * request schema. Every id a request carries comes from the `World` it is given, never from chance.
 */
import * as fc from 'fast-check';
import type { FilePart, QueryValue, RequestSpec } from '../harness/transport.ts';
import { MEDIA_TYPES } from '../schemas/media-types.ts';
import { getOperation, type Operation, type Parameter } from '../schemas/operations.ts';
import type {
  DisinheritRequest,
  FileCopyRequest,
  FileCreateRequest,
  FileSaveRequest,
  FolderCreateRequest,
  FolderListRequest,
  LocalizeRequest,
  ObjectMoveRequest,
  PushToMasterRequest,
  UnlocalizeRequest,
} from '../schemas/types.ts';
import type { Feature, TargetFixture } from '../schemas/target.ts';
import { description, fileContent, fileName, folderName, searchTerm, userLogin } from './faker.ts';

/** What exists on the target: the only source of the ids a generated request carries. */
export interface World {
  fixture: TargetFixture;
  features: readonly Feature[];
  /** Sandbox folders the test created in the master node: every folder a mutating request touches. */
  folders: readonly number[];
  /** Sandbox files the test created in those folders: every file a mutating request touches. */
  files: readonly number[];
  /** Further folders of the fixture, seen in the master node; requests only read them. */
  fixtureFolders?: readonly number[];
  /** Files of the target's fixture; requests only read them. */
  fixtureFiles?: readonly number[];
  /** Sandbox folders (also in `folders`) made with a start page: a page of the test's own, which getExternalLinks and getPages list. */
  startPageFolders?: readonly number[];
  /** Pages of the target's fixture; requests only read them (GET /file/disinherit: "a list of ids (described as page IDs)"). */
  fixturePages?: readonly number[];
  /** Global ids by local id, for path ids the contract calls "local or global". */
  globalIds?: Readonly<Record<number, string>>;
  /** Sandbox files (their master ids) localized in fixture.channelNodeId: what unlocalize and push2master act on. */
  localizedFiles?: readonly number[];
  /** Ids of users seen on the target (creatorId, editorId, publisherId filters). */
  userIds?: readonly number[];
  /** Ids of templates seen on the target (template_id filter, the template of a new folder's start page). */
  templateIds?: readonly number[];
  /** Ids of markup languages seen on the target (includeMlId, excludeMlId). */
  markupLanguageIds?: readonly number[];
  /** Language codes seen on the target (language filters, i18n maps). */
  languages?: readonly string[];
  /** Base URL of a file host the target can download from; file.create.json needs it. */
  sourceUrl?: string;
  /**
   * The sandbox parent and its ancestors (default: the sandbox parent and the master root). Their
   * wastebin holds the sandboxes earlier runs deleted, more after every run, so a listing reaching
   * into it with `wastebin` include or only would answer differently from run to run.
   */
  historyFolders?: readonly number[];
}

/** An object a request is about, and the node whose view the request sees it in (undefined: no nodeId). */
interface Subject {
  id: number;
  /** The path form of the id: local, or global where the contract accepts both. */
  ref: string;
  nodeId: number | undefined;
}

type Query = Record<string, QueryValue | undefined>;

const LEGACY_SORTBY = [
  'name',
  'cdate',
  'edate',
  'pdate',
  'filename',
  'template',
  'folder',
  'masterNode',
  'priority',
  'excluded',
  'deletedat',
];
// Contract 4.3: GET /file is "sorted by id, name, niceUrl, alternateUrls, fileSize, fileType". For GET /folder the
// contract names only the default, `name`: a server may not know another attribute (open choice folder-sort-attributes).
const SORT_ATTRIBUTES: Record<string, string[]> = {
  'file.list': ['id', 'name', 'niceUrl', 'alternateUrls', 'fileSize', 'fileType'],
  'folder.list': ['name'],
};
// `niceurl` is a regular expression: only ones every engine compiles and runs in linear time.
const SAFE_REGEX = ['.*', '^/', '/$', 'a|b', '^/[a-z]+', '\\.html$', '[0-9]', '.'];
const TIMESTAMPS = [0, 1, 946_684_800, 1_700_000_000, 2_147_483_647];
const SKIP_COUNTS = [0, 1, 2, 10, 1_000_000];
// Contract 8: "maximum page sizes: not shown": a server may have one, so a valid request asks at most 1000 (a page
// size over any list a test makes); larger values are bad-input probes (NEG), where a refusal is an answer.
const LARGEST_PAGE = 1000;
const MAX_ITEMS = [-1, 0, 1, 2, 10, 100, LARGEST_PAGE];
const OBJECT_TYPES = ['page', 'folder', 'template'];
/**
 * The media type a file name's extension names (schemas/media-types.ts); application/octet-stream when unknown, and for
 * JSON, which would make an upload a JSON create (never JSON or multipart, which pick other forms).
 */
export function mediaTypeOf(name: string): string {
  const ext = (name.split('.').pop() ?? '').toLowerCase();
  const type = Object.hasOwn(MEDIA_TYPES, ext) ? MEDIA_TYPES[ext] : undefined;
  return type === undefined || type === 'application/json' ? 'application/octet-stream' : type;
}

const unique = <T>(list: readonly (T | undefined)[]): T[] => [...new Set(list.filter((x): x is T => x !== undefined))];
const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);

/** The multichannelling channel of the world, when the target declares the feature. */
function channelOf(w: World): number | undefined {
  return w.features.includes('multichannelling') ? w.fixture.channelNodeId : undefined;
}

/** The channel, or an error: multichannelling operations cannot be built without one. */
function requireChannel(w: World, op: Operation): number {
  const channel = channelOf(w);
  if (channel === undefined) throw new Error(`requests: ${op.id} needs a world with multichannelling and fixture.channelNodeId`);
  return channel;
}

function nonEmpty(list: readonly number[], what: string, op: Operation): readonly number[] {
  if (!list.length) throw new Error(`requests: ${op.id} needs at least one ${what} in the world`);
  return list;
}

/** Folders of the fixture that exist in the master node's view. */
function fixtureFolders(w: World): number[] {
  const f = w.fixture;
  return unique([f.masterRootFolderId, f.sandboxParentFolderId, f.pagesFolderId, f.templatesFolderId, ...(w.fixtureFolders ?? [])]);
}

/** The folders of a list other than the nodes' root folders, which cannot be inherited, excluded or disinherited. */
function withoutRoots(w: World, folders: readonly number[]): number[] {
  const roots = [w.fixture.masterRootFolderId, w.fixture.channelRootFolderId];
  return folders.filter((id) => !roots.includes(id));
}

/** Every folder a read may name in the master view: the sandbox and the fixture. */
function readableFolders(w: World): number[] {
  return unique([...w.folders, ...fixtureFolders(w)]);
}

function readableFiles(w: World): number[] {
  return unique([...w.files, ...(w.fixtureFiles ?? [])]);
}

/** Every node id a request may name: the master and, with multichannelling, the channel. */
function nodeIds(w: World): number[] {
  return unique([w.fixture.masterNodeId, channelOf(w)]);
}

/**
 * A unique-looking tag: names carry one so that no request meets a name an earlier case or run used (a server may
 * refuse a name its folder holds: open choices upload-name-collision, copy-name-collision). Drawn without fast-check's
 * bias to small values and never shrunk, or many cases would draw the same small tag.
 */
const tag = (): fc.Arbitrary<string> =>
  fc.noShrink(fc.noBias(fc.integer({ min: 0, max: 36 ** 6 - 1 }))).map((n) => n.toString(36).padStart(6, '0'));

/** Cuts text to at most `max` UTF-16 units without splitting a code point. */
function cut(text: string, max: number): string {
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out.trimEnd();
}

/** Realistic folder names made unique by a tag, within 64 characters. */
export function uniqueFolderName(): fc.Arbitrary<string> {
  return fc.tuple(tag(), folderName()).map(([t, name]) => cut(`${t} ${name}`, 64));
}

/** Realistic file names (with extensions) made unique by a tag, within 64 characters (the name comes whole: its extension stays). */
export function uniqueFileName(): fc.Arbitrary<string> {
  return fc.tuple(tag(), fileName()).map(([t, name]) => `${t}-${name}`);
}

/** Present or absent (undefined), absent `absentWeight` times as often; shrinks towards absent. */
function sometimes<T>(arb: fc.Arbitrary<T>, absentWeight = 1): fc.Arbitrary<T | undefined> {
  return fc.oneof({ withCrossShrink: true }, { weight: absentWeight, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
}

/**
 * How often an optional member is left out: whatever the number of parameters or members, a request
 * combines a handful of them (many filters at once leave nothing to list).
 */
const absentWeightFor = (count: number): number => Math.max(1, Math.round(count / 6));

/** One to three distinct values, sent as a repeated multivalued parameter; undefined when none is known. */
function several<T>(values: readonly T[]): fc.Arbitrary<T[]> | undefined {
  return values.length ? fc.shuffledSubarray([...values], { minLength: 1, maxLength: Math.min(3, values.length) }) : undefined;
}

/** An object placed in the views a request may see it in; `global` allows its global id in the path. */
function placed(ids: readonly number[], views: readonly (number | undefined)[], w: World, global: boolean): fc.Arbitrary<Subject> {
  return fc.record({ id: pick(ids), nodeId: pick(views), asGlobal: fc.boolean() }).map(({ id, nodeId, asGlobal }) => {
    const globalId = global && asGlobal ? w.globalIds?.[id] : undefined;
    return { id, ref: globalId ?? String(id), nodeId };
  });
}

function hasParam(op: Operation, name: string): boolean {
  return op.parameters.some((p) => p.name === name && p.in === 'query');
}

/** Views of the master node: no nodeId, or the master's (reference notes: "nodeId selects the channel whose view the request sees"). */
function masterViews(w: World, withNode: boolean): (number | undefined)[] {
  return withNode ? [undefined, w.fixture.masterNodeId] : [undefined];
}

/**
 * The folder a request is about. Writes touch only sandbox folders, in the master view. Reads also name
 * the fixture's folders, and, given a nodeId, see the sandbox folders (inherited) and the channel's
 * root folder through the channel.
 */
function folderSubject(w: World, op: Operation, mode: 'read' | 'write', withNode = hasParam(op, 'nodeId')): fc.Arbitrary<Subject> {
  const global = op.parameters.find((p) => p.in === 'path')?.idKind === 'local-or-global';
  const views = masterViews(w, withNode);
  if (mode === 'write') return placed(nonEmpty(w.folders, 'sandbox folder', op), views, w, global);
  const options = [placed(nonEmpty(readableFolders(w), 'folder', op), views, w, global)];
  const channel = channelOf(w);
  if (channel !== undefined && withNode) {
    if (w.folders.length) options.push(placed(w.folders, [channel], w, global));
    if (w.fixture.channelRootFolderId !== undefined) options.push(placed([w.fixture.channelRootFolderId], [channel], w, global));
  }
  return fc.oneof(...options);
}

/** The file a request is about: sandbox files (or `among`) for writes, fixture files too for reads. */
function fileSubject(w: World, op: Operation, mode: 'read' | 'write', among?: readonly number[]): fc.Arbitrary<Subject> {
  const withNode = hasParam(op, 'nodeId');
  const candidates = among ?? (mode === 'write' ? w.files : readableFiles(w));
  const options = [placed(nonEmpty(candidates, 'file', op), masterViews(w, withNode), w, false)];
  const channel = channelOf(w);
  if (mode === 'read' && channel !== undefined && withNode && w.files.length) options.push(placed(w.files, [channel], w, false));
  return fc.oneof(...options);
}

/** Several objects for a multivalued `id` with the view they are seen in: `ids` in the master view, `channelIds` (inherited sandbox objects) also in the channel's. */
function idsInView(
  w: World,
  op: Operation,
  ids: readonly number[],
  channelIds: readonly number[] = [],
): fc.Arbitrary<{ ids: number[]; nodeId: number | undefined }> {
  const withNode = hasParam(op, 'nodeId');
  const options = [fc.record({ ids: several(nonEmpty(ids, 'object', op))!, nodeId: pick(masterViews(w, withNode)) })];
  const channel = channelOf(w);
  if (channel !== undefined && withNode && channelIds.length)
    options.push(fc.record({ ids: several(channelIds)!, nodeId: fc.constant<number | undefined>(channel) }));
  return fc.oneof(...options);
}

/**
 * Values for `recursiveIds`/`recId`: folder ids and, for GET /folder, whose parameter the contract describes so ("ids may
 * be `nodeId/folderId`"), some in that form; getFolders may not take it (open choice recursive-ids-node-form).
 */
function recursiveIdValues(w: World, op: Operation): string[] {
  const nodeForm = op.id === 'folder.list' ? w.folders.map((id) => `${w.fixture.masterNodeId}/${id}`) : [];
  return [...readableFolders(w).map(String), ...nodeForm];
}

/** Group P `sort`: one or two distinct attributes, each with or without a `+`/`-` prefix. */
function sortSpec(attributes: readonly string[]): fc.Arbitrary<string> {
  const term = fc.tuple(pick(['', '+', '-']), pick(attributes)).map(([sign, name]) => sign + name);
  return fc.uniqueArray(term, { minLength: 1, maxLength: 2, selector: (t) => t.replace(/^[+-]/, '') }).map((terms) => terms.join(','));
}

/**
 * The values of one query parameter, or undefined when a request never carries it: no value is known
 * to be valid on the target, or the operation's builder sets it itself (then it must be fixed).
 */
function queryValue(p: Parameter, op: Operation, w: World): fc.Arbitrary<QueryValue> | undefined {
  switch (p.name) {
    case 'createdbefore':
    case 'createdsince':
    case 'editedbefore':
    case 'editedsince':
    case 'publishedbefore':
    case 'publishedsince':
      return pick(TIMESTAMPS);
    case 'timedue':
      return pick([0, 60, 3600, 86_400]);
    case 'priority':
      return pick([0, 1, 50, 100]);
    case 'creator':
    case 'editor':
    case 'publisher':
      return userLogin();
    case 'creatorId':
    case 'editorId':
    case 'publisherId':
      return several(w.userIds ?? []);
    case 'template_id':
      return several(w.templateIds ?? []);
    case 'includeMlId':
    case 'excludeMlId':
      return several(w.markupLanguageIds ?? []);
    case 'usedIn':
      return several(nodeIds(w));
    // Group F's folderId on operations with a path id would name a second folder the contract gives
    // no meaning; staging package names: none is known to exist on a target.
    case 'folderId':
    case 'package':
      return undefined;
    case 'wastebin':
      return pick((p.enum ?? []).filter((v) => v === 'exclude' || w.features.includes('wastebin')));
    case 'page':
      return pick([1, 2, 3, 1000]);
    case 'pageSize':
      return pick([-1, 0, 1, 2, 10, LARGEST_PAGE]);
    case 'maxItems':
      return pick(MAX_ITEMS);
    case 'skipCount':
      return pick(SKIP_COUNTS);
    case 'q':
    case 'query':
      return searchTerm();
    case 'search':
      // Group L search "matches ID, or partial name or description".
      return fc.oneof(searchTerm(), pick(readableFolders(w).map(String)));
    case 'filename':
      return fc.oneof(fc.constant(''), searchTerm());
    case 'sortby':
      return pick(p.knownValues ?? LEGACY_SORTBY);
    case 'sortorder':
      return pick(p.knownValues ?? ['asc', 'desc']);
    case 'sort':
      return sortSpec(SORT_ATTRIBUTES[op.id] ?? ['name']);
    case 'recursiveIds':
    case 'recId':
      return several(recursiveIdValues(w, op));
    case 'niceurl':
      return pick(SAFE_REGEX);
    case 'language':
      return w.languages?.length ? pick(w.languages) : undefined;
    case 'wait':
      return pick([0, 1, 10, 100]);
    case 'description':
      return description();
  }
  if (p.enum) return p.multivalued ? several(p.enum) : pick(p.enum);
  if (p.type === 'boolean') return fc.boolean();
  throw new Error(`requests: no generator for parameter "${p.name}" of ${op.id}`);
}

/**
 * The query of a request: `fixed` members win (undefined: absent); every other declared query
 * parameter is generated, required ones always, optional ones now and then.
 */
function queryOf(op: Operation, w: World, fixed: Query = {}): fc.Arbitrary<Query> {
  if (op.parametersShown === false) return fc.constant({});
  const params = op.parameters.filter((p) => p.in === 'query' && !(p.name in fixed));
  const absentWeight = absentWeightFor(params.length);
  const model: Record<string, fc.Arbitrary<QueryValue | undefined>> = {};
  for (const p of params) {
    const value = queryValue(p, op, w);
    if (value) model[p.name] = p.required ? value : sometimes(value, absentWeight);
  }
  return fc.record(model).map((generated) => withoutUndefined({ ...generated, ...fixed }));
}

function withoutUndefined<T>(record: Record<string, T | undefined>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter((e): e is [string, T] => e[1] !== undefined));
}

type Model<T> = { [K in keyof T]-?: fc.Arbitrary<Exclude<T[K], undefined>> };

/** A JSON body from a model of its members: `required` ones always present, the others now and then. */
function body<T>(model: Partial<Model<T>>, required: readonly (keyof T & string)[] = []): fc.Arbitrary<T> {
  const members = Object.entries(model) as [string, fc.Arbitrary<unknown>][];
  const absentWeight = absentWeightFor(members.length - required.length);
  const arbs = Object.fromEntries(
    members.map(([k, arb]) => [k, (required as readonly string[]).includes(k) ? arb : sometimes(arb, absentWeight)]),
  );
  return fc.record(arbs).map((generated) => withoutUndefined(generated) as T);
}

/** Fills a path template; values are encoded as path segments. */
function pathOf(op: Operation, values: Record<string, string | number> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`requests: no value for path parameter ${name} of ${op.id}`);
    return encodeURIComponent(String(value));
  });
}

/** A request spec carrying exactly what is sent: no empty query, no undefined body. */
function spec(op: Operation, parts: Omit<RequestSpec, 'method'>): RequestSpec {
  const out: RequestSpec = { method: op.method, path: parts.path };
  if (parts.query && Object.keys(parts.query).length) out.query = parts.query;
  if (parts.json !== undefined) out.json = parts.json;
  if (parts.raw) out.raw = parts.raw;
  if (parts.multipart) out.multipart = parts.multipart;
  return out;
}

/**
 * A request about one subject: the path parameter names it (without one, Group F's folderId does)
 * and, where the operation has one, `nodeId` carries the view the subject is seen in.
 */
function onSubject(
  op: Operation,
  w: World,
  subject: fc.Arbitrary<Subject>,
  bodyOf?: (s: Subject) => fc.Arbitrary<unknown>,
): fc.Arbitrary<RequestSpec> {
  const pathParam = op.parameters.find((p) => p.in === 'path');
  return subject.chain((s) => {
    const fixed: Query = hasParam(op, 'nodeId') ? { nodeId: s.nodeId } : {};
    if (!pathParam) fixed.folderId = s.ref;
    return fc
      .tuple(queryOf(op, w, fixed), bodyOf ? bodyOf(s) : fc.constant(undefined))
      .map(([query, json]) =>
        spec(op, { path: pathOf(op, pathParam ? { [pathParam.name]: s.ref } : {}), query: withoutHistory(w, s.id, query), json }),
      );
  });
}

/**
 * The query without `wastebin` include or only where the listing would reach into what earlier runs
 * deleted (World.historyFolders): the sandbox parent itself, or an ancestor of it listed recursively.
 * The same target then gets the same answers, and the same verdict, in every run.
 */
function withoutHistory<T extends { wastebin?: unknown; recursive?: unknown; recursiveIds?: unknown; recId?: unknown }>(
  w: World,
  folderId: number,
  query: T,
): T {
  if (query.wastebin !== 'include' && query.wastebin !== 'only') return query;
  const history = w.historyFolders ?? [w.fixture.sandboxParentFolderId, w.fixture.masterRootFolderId];
  const parent = w.fixture.sandboxParentFolderId;
  // recursiveIds and recId name folders whose children are fetched, as `folderId` or `nodeId/folderId`.
  const named = [query.recursiveIds, query.recId]
    .flat()
    .filter((v) => v !== undefined)
    .map((v) => Number(String(v).split('/').pop()));
  const reaches = folderId === parent || (query.recursive === true && (history.includes(folderId) || named.includes(parent)));
  if (!reaches) return query;
  const { wastebin: _dropped, ...rest } = query;
  return rest as T;
}

/** A request with a list of ids in a multivalued query `id`, seen in one view. */
function onIds(
  op: Operation,
  w: World,
  chosen: fc.Arbitrary<{ ids: number[]; nodeId: number | undefined }>,
  bodyOf?: () => fc.Arbitrary<unknown>,
): fc.Arbitrary<RequestSpec> {
  return fc
    .tuple(chosen, queryOf(op, w, { id: undefined, nodeId: undefined }), bodyOf ? bodyOf() : fc.constant(undefined))
    .map(([{ ids, nodeId }, query, json]) =>
      spec(op, { path: pathOf(op), query: { ...query, id: ids.map(String), ...(nodeId === undefined ? {} : { nodeId }) }, json }),
    );
}

const foregroundTime = (): fc.Arbitrary<number> => pick([0, 1, 5]);

/**
 * DisinheritRequest for an object fresh from creation (neither excluded nor disinherited): it always changes something,
 * since whether a request that changes nothing succeeds is not said (open choice disinherit-nothing-to-change).
 * Reinheriting a channel the object was never disinherited in changes nothing, so the sweep never asks it.
 */
function disinheritBody(w: World, op: Operation): fc.Arbitrary<DisinheritRequest> {
  const channel = requireChannel(w, op);
  return fc
    .tuple(body<DisinheritRequest>({ exclude: fc.boolean(), recursive: fc.boolean(), disinheritDefault: fc.boolean() }), fc.boolean())
    .map(([flags, disinherit]) => {
      const changes = flags.exclude === true || flags.disinheritDefault === true || disinherit;
      return changes && !disinherit ? flags : { ...flags, disinherit: [channel] };
    });
}

/** The data part of an upload, named `fileBinaryData` unless a custom name is given (reference notes). */
function dataPart(name: string, partName = 'fileBinaryData'): fc.Arbitrary<FilePart> {
  return fileContent().map((data) => ({ name: partName, filename: name, contentType: mediaTypeOf(name), data }));
}

type Builder = (w: World, op: Operation) => fc.Arbitrary<RequestSpec>;

const readFolder: Builder = (w, op) => onSubject(op, w, folderSubject(w, op, 'read'));
const readFile: Builder = (w, op) => onSubject(op, w, fileSubject(w, op, 'read'));
const findIn: Builder = (w, op) =>
  pick([0, ...readableFolders(w)]).chain((folderId) => queryOf(op, w, { folderId }).map((query) => spec(op, { path: pathOf(op), query })));

/**
 * A usage query: the files whose users are listed (repeated) and the view they are seen in, plus the
 * other parameters. With a source channel (syncable objects) the files are sandbox files, which the channel inherits.
 */
function usage(w: World, op: Operation, idParam: string, fixed: Query = {}): fc.Arbitrary<RequestSpec> {
  const chosen = fixed.srcNodeId === undefined ? idsInView(w, op, readableFiles(w), w.files) : idsInView(w, op, w.files);
  return fc
    .tuple(chosen, queryOf(op, w, { [idParam]: undefined, nodeId: undefined, ...fixed }))
    .map(([{ ids, nodeId }, query]) => spec(op, { path: pathOf(op), query: withoutUndefined({ ...query, [idParam]: ids, nodeId }) }));
}

const builders: Record<string, Builder> = {
  'folder.list': readFolder,
  'folder.create': (w, op) => {
    const languages = w.languages ?? [];
    const i18n = (value: fc.Arbitrary<string>) => fc.dictionary(pick(languages), value, { minKeys: 1, maxKeys: languages.length });
    // A publish directory of its own, in the notes' form ("normalised to start and end with /"): whether a server
    // takes one a sibling uses, or one without slashes, is not said. `startpage` and `templateId` are listed with no
    // effect (contract 4.2), so what a start page needs is not said either: a valid request leaves them out.
    const publishDir = tag().map((t) => `/cmsconf-${t}/`);
    return folderSubject(w, op, 'write', true).chain((mother) =>
      body<FolderCreateRequest>(
        {
          name: uniqueFolderName(),
          motherId: fc.constant(String(mother.id)),
          description: description(),
          publishDir,
          failOnDuplicate: fc.boolean(),
          nodeId: fc.constant(w.fixture.masterNodeId),
          ...(languages.length
            ? {
                language: pick(languages),
                nameI18n: i18n(uniqueFolderName()),
                descriptionI18n: i18n(description()),
                publishDirI18n: i18n(publishDir),
              }
            : {}),
        },
        ['name', 'motherId'],
      ).map((json) => spec(op, { path: pathOf(op), json })),
    );
  },
  'folder.disinherit.getMany': (w, op) => onIds(op, w, idsInView(w, op, withoutRoots(w, readableFolders(w)), w.folders)),
  'folder.disinherit.setMany': (w, op) => onIds(op, w, idsInView(w, op, w.folders), () => disinheritBody(w, op)),
  'folder.disinherit.get': (w, op) =>
    onSubject(
      op,
      w,
      fc.oneof(
        placed(withoutRoots(w, readableFolders(w)), masterViews(w, true), w, false),
        ...(channelOf(w) !== undefined ? [placed(w.folders, [channelOf(w)], w, false)] : []),
      ),
    ),
  'folder.disinherit.set': (w, op) => onSubject(op, w, folderSubject(w, op, 'write'), () => disinheritBody(w, op)),
  'folder.findFiles': findIn,
  'folder.findPages': findIn,
  'folder.getFolders.post': (w, op) =>
    folderSubject(w, op, 'read', true).chain((s) =>
      body<FolderListRequest>(
        {
          id: fc.constant(s.ref),
          ...(s.nodeId === undefined ? {} : { nodeId: fc.constant(s.nodeId) }),
          skipCount: pick(SKIP_COUNTS),
          maxItems: pick(MAX_ITEMS),
          recursive: fc.boolean(),
          sortBy: pick(LEGACY_SORTBY),
          sortOrder: pick(['asc', 'desc']),
          inherited: fc.boolean(),
          search: searchTerm(),
          editor: userLogin(),
          creator: userLogin(),
          editedBefore: pick(TIMESTAMPS),
          editedSince: pick(TIMESTAMPS),
          createdBefore: pick(TIMESTAMPS),
          createdSince: pick(TIMESTAMPS),
          tree: fc.boolean(),
          recursiveIds: several(recursiveIdValues(w, op))!,
          addPrivileges: fc.boolean(),
          privilegeMap: fc.boolean(),
          wastebin: pick(w.features.includes('wastebin') ? (['exclude', 'include', 'only'] as const) : (['exclude'] as const)),
          // stagingPackageName: no staging package is known to exist on a target.
        },
        s.nodeId === undefined ? ['id'] : ['id', 'nodeId'],
      ).map((json) => spec(op, { path: pathOf(op), json: withoutHistory(w, s.id, json) })),
    ),
  'folder.getFolders': readFolder,
  'folder.breadcrumb': readFolder,
  'folder.count': readFolder,
  'folder.delete': (w, op) => onSubject(op, w, folderSubject(w, op, 'write')),
  'folder.getExternalLinks': readFolder,
  'folder.getFiles': readFolder,
  'folder.getItems': readFolder,
  'folder.getPages': readFolder,
  // `reduce` is "valid only with `recursive`": without it, a server may ignore or refuse it (open choice
  // gettemplates-reduce-without-recursive), so a valid request sends it only with recursive=true.
  'folder.getTemplates': (w, op) =>
    readFolder(w, op).map((request) => {
      const query = request.query ?? {};
      if (query.reduce !== true || query.recursive === true) return request;
      const { reduce: _alone, ...rest } = query;
      return { ...request, query: rest };
    }),
  'folder.load': readFolder,
  'folder.localizationinfo': readFolder,
  'folder.localizations': readFolder,
  'folder.localize': (w, op) => {
    const channelId = requireChannel(w, op);
    return onSubject(op, w, folderSubject(w, op, 'write'), () =>
      body<LocalizeRequest>({ channelId: fc.constant(channelId), foregroundTime: foregroundTime() }, ['channelId']),
    );
  },
  'file.list': readFolder,
  'file.copy': (w, op) =>
    fc.tuple(fileSubject(w, op, 'write'), folderSubject(w, op, 'write')).chain(([file, target]) =>
      body<FileCopyRequest>(
        {
          file: fc.constant({ id: file.id }),
          nodeId: fc.constant(w.fixture.masterNodeId),
          // A name of its own and a target folder: without a target, or onto a name the folder holds, a server may
          // copy (reference notes: "into the same folder with a unique name") or refuse (open choices
          // copy-without-target, copy-name-collision).
          newFilename: uniqueFileName(),
          targetFolder: fc.constant({ id: target.id }),
        },
        ['file', 'newFilename', 'targetFolder'],
      ).map((json) => spec(op, { path: pathOf(op), json })),
    ),
  'file.create.multipart': (w, op) =>
    fc
      .tuple(
        folderSubject(w, op, 'write'),
        uniqueFileName(),
        fc.boolean(),
        body<{ description: string; nodeId: string; overwrite: string }>({
          description: description(),
          nodeId: fc.constant(String(w.fixture.masterNodeId)),
          overwrite: pick(['true', 'false']),
        }),
      )
      .chain(([folder, name, nameField, fields]) =>
        dataPart(name).map((part) =>
          spec(op, {
            path: pathOf(op),
            // The name travels in the fileName part or, without it, as the data part's filename (reference notes).
            multipart: { fields: { folderId: String(folder.id), ...(nameField ? { fileName: name } : {}), ...fields }, files: [part] },
          }),
        ),
      ),
  'file.create.json': (w, op) => {
    const host = w.sourceUrl?.replace(/\/+$/, '');
    if (!host) throw new Error('requests: file.create.json needs world.sourceUrl (a file host the target can download from)');
    return fc.tuple(folderSubject(w, op, 'write'), uniqueFileName(), tag()).chain(([folder, name, t]) =>
      body<FileCreateRequest>(
        {
          folderId: fc.constant(folder.id),
          name: fc.constant(name),
          sourceURL: fc.constant(`${host}/${encodeURIComponent(name)}`),
          description: description(),
          nodeId: fc.constant(w.fixture.masterNodeId),
          overwriteExisting: fc.boolean(),
          // Nice URLs under the test's own folder id: a server may refuse one that another file holds, and on a live
          // target an earlier run's file (deleted or not) holds those of the same seed.
          niceURL: fc.constant(`/cmsconf/${folder.id}/${t}`),
          alternateURLs: fc
            .uniqueArray(pick(['a', 'b', 'c']), { maxLength: 2 })
            .map((suffixes) => suffixes.map((s) => `/cmsconf/${folder.id}/${t}-${s}`)),
          // `properties` name object properties of the target; none is known to exist, so it stays out.
        },
        ['folderId', 'name', 'sourceURL'],
      ).map((json) => spec(op, { path: pathOf(op), json })),
    );
  },
  'file.createSimple.multipart': (w, op) =>
    fc
      .tuple(
        folderSubject(w, op, 'write'),
        uniqueFileName(),
        sometimes(pick(['Filedata', 'upload', 'datei'])),
        fc.boolean(),
        sometimes(fc.constant(String(w.fixture.masterNodeId))),
        queryOf(op, w, { folderId: undefined, qqfile: undefined, databodypart: undefined, nodeId: undefined }),
      )
      .chain(([folder, name, partName, withQqfile, nodeId, query]) =>
        dataPart(name, partName).map((part) =>
          spec(op, {
            path: pathOf(op),
            // databodypart is "the custom name of the file data part": when sent, the data part carries that name.
            query: withoutUndefined({
              ...query,
              folderId: String(folder.id),
              qqfile: withQqfile ? name : undefined,
              databodypart: partName,
              nodeId,
            }),
            multipart: { files: [part] },
          }),
        ),
      ),
  'file.createSimple.raw': (w, op) =>
    fc
      .tuple(
        folderSubject(w, op, 'write'),
        uniqueFileName(),
        pick([undefined, 0, w.fixture.masterNodeId]),
        queryOf(op, w, { folderId: undefined, qqfile: undefined, databodypart: undefined, nodeId: undefined }),
        fileContent(),
      )
      .map(([folder, name, nodeId, query, data]) =>
        spec(op, {
          path: pathOf(op),
          // Reference notes: "createSimple raw body: qqfile (file name) is required"; databodypart names a multipart part, so the raw form has none.
          query: withoutUndefined({ ...query, folderId: folder.id, qqfile: name, nodeId }),
          raw: { contentType: mediaTypeOf(name), data },
        }),
      ),
  // The ids are "described as page IDs" on a /file path (open choice file-disinherit-ids): a request names one kind.
  'file.disinherit.get': (w, op) =>
    fc.oneof(
      onIds(op, w, idsInView(w, op, readableFiles(w), w.files)),
      ...(w.fixturePages?.length ? [onIds(op, w, idsInView(w, op, w.fixturePages))] : []),
    ),
  'file.disinherit.set': (w, op) => onIds(op, w, idsInView(w, op, w.files), () => disinheritBody(w, op)),
  'file.load': readFile,
  'file.localizationinfo': readFile,
  'file.localizations': readFile,
  'file.localize': (w, op) => {
    const channelId = requireChannel(w, op);
    return onSubject(op, w, fileSubject(w, op, 'write'), () =>
      body<LocalizeRequest>({ channelId: fc.constant(channelId), foregroundTime: foregroundTime() }, ['channelId']),
    );
  },
  // The sweep moves a fresh file of the world's first folder (sweep.suite.ts) into another one: whether a move into the
  // folder the file is in succeeds is not said (open choice move-to-same-folder).
  'file.move': (w, op) =>
    onSubject(op, w, fileSubject(w, op, 'write'), () =>
      placed(nonEmpty(w.folders.length > 1 ? w.folders.slice(1) : w.folders, 'sandbox folder', op), [undefined], w, false).chain((target) =>
        body<ObjectMoveRequest>(
          { folderId: fc.constant(target.id), nodeId: fc.constant(w.fixture.masterNodeId), allLanguages: fc.boolean() },
          ['folderId'],
        ),
      ),
    ),
  'file.push2master': (w, op) => {
    const channelId = requireChannel(w, op);
    return onSubject(op, w, fileSubject(w, op, 'write', nonEmpty(w.localizedFiles ?? [], 'localized file', op)), () =>
      // masterId is left out: whether it names the master node or the master object is not said, and the channel's
      // master is implied by the channel.
      body<PushToMasterRequest>(
        {
          channelId: fc.constant(channelId),
          recursive: fc.boolean(),
          foregroundTime: foregroundTime(),
          types: fc.shuffledSubarray(OBJECT_TYPES),
        },
        ['channelId'],
      ),
    );
  },
  'file.save.json': (w, op) =>
    onSubject(op, w, fileSubject(w, op, 'write'), (s) =>
      body<FileSaveRequest>(
        {
          // Which members a save needs is not said (open choice save-partial-record): the id and a name always go.
          file: body<Record<string, unknown>>({ id: fc.constant(s.id), name: uniqueFileName(), description: description() }, [
            'id',
            'name',
          ]),
          failOnDuplicate: fc.boolean(),
        },
        ['file'],
      ),
    ),
  'file.save.multipart': (w, op) =>
    fc
      .tuple(fileSubject(w, op, 'write'), uniqueFileName())
      .chain(([file, name]) =>
        dataPart(name).map((part) => spec(op, { path: pathOf(op, { id: file.ref }), multipart: { files: [part] } })),
      ),
  'file.unlocalize': (w, op) => {
    const channelId = requireChannel(w, op);
    return onSubject(op, w, fileSubject(w, op, 'write', nonEmpty(w.localizedFiles ?? [], 'localized file', op)), () =>
      body<UnlocalizeRequest>(
        {
          channelId: fc.constant(channelId),
          recursive: fc.boolean(),
          foregroundTime: foregroundTime(),
          types: fc.shuffledSubarray(OBJECT_TYPES),
        },
        ['channelId'],
      ),
    );
  },
  'file.usage.file': (w, op) => usage(w, op, 'id'),
  'file.usage.folder': (w, op) => usage(w, op, 'id'),
  // Contract 4.3: GET /file/usage/page "Parameters: not shown": the request carries none, and the sweep reads a refusal
  // as an open choice (usage-page-parameters), not as a failure.
  'file.usage.page': (_w, op) => fc.constant(spec(op, { path: pathOf(op) })),
  // Synchronising goes from a channel (source) to its master (destination).
  'file.usage.syncableObjects': (w, op) => usage(w, op, 'ids', { srcNodeId: requireChannel(w, op), dstNodeId: w.fixture.masterNodeId }),
};

/** Operation ids that have a request builder (every operation of the catalogue; a test checks it). */
export const operationsWithRequests: readonly string[] = Object.keys(builders);

/**
 * Valid requests of one operation against `world`: every id names an object of the world, and
 * mutating requests touch only the world's sandbox folders and files.
 */
export function validRequest(operationId: string, world: World): fc.Arbitrary<RequestSpec> {
  const op = getOperation(operationId);
  const build = builders[op.id];
  if (!build) throw new Error(`requests: no request builder for operation ${op.id}`);
  return build(world, op);
}
