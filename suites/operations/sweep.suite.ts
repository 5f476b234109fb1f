/**
 * The operation sweep: for every operation of the contract, generated valid requests get "the success
 * status (200 for GET, 201 for POST), a JSON body, and that body validates against the operation's
 * response schema" (requirements, OP-<operation id>). Mutating requests act only on objects the test
 * created in its sandbox; fixture objects are only read.
 *
 * Where tests go (test/suites.test.ts): suites/operations is grouped by how its tests judge: one OP- test per operation.
 */
import { createHash } from 'node:crypto';
import { startFileHost, type HostedFile } from '../../harness/filehost.ts';
import { inputClasses } from '../../generators/input-classes.ts';
import { validRequest, mediaTypeOf, type World } from '../../generators/requests.ts';
import type { OperationId } from '../../harness/api.ts';
import { checkSucceeded, isRefusal } from '../../harness/checks.ts';
import { channelOf, copyIdStep, createFolderStep, localizeStep, uploadFileStep } from '../../harness/steps.ts';
import { PerRun, conformance, novelClasses, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange, RequestSpec } from '../../harness/transport.ts';
import { onlyReads, operations } from '../../schemas/operations.ts';

/** An object the test created: its id and, when the target gave one, its global id. */
interface Created {
  id: number;
  globalId?: string;
  /**
   * Another id the object may be named by: a localized file's copy, for the operations that may take the copy's id
   * rather than the master's (open choices unlocalize-id, push2master-id).
   */
  alias?: number;
}

/**
 * What the target's fixture holds beyond the ids of the target file, found by reading it once per
 * suite file and run (harness/suite.ts PerRun).
 */
interface Discovery {
  fixtureFolders: number[];
  fixtureFiles: number[];
  fixturePages: number[];
  globalIds: Record<number, string>;
  userIds: number[];
  templateIds: number[];
  markupLanguageIds: number[];
  languages: string[];
  /** The sandbox parent and its ancestors, from its breadcrumbs (World.historyFolders). */
  historyFolders?: number[];
}

/** How one operation's test prepares its world and sends its requests. */
interface Plan {
  /** Localize the world's files in the channel first (push2master acts on localized files). */
  localizeFiles?: true;
  /**
   * The operation consumes its object (deletion, localization) or changes it so that a second request would meet
   * another state (a move, a disinherit): each run sends the generated request to a fresh object, created by this
   * function, in place of the sandbox object it was generated for (the path's, else each of the query's `id`s).
   */
  fresh?: (t: ConformanceContext, world: World) => Promise<Created>;
  /** The target downloads from a file host the test starts (file.create.json). */
  fileHost?: true;
  /**
   * The open choice (schemas/open-choices.json) under which a server may refuse the operation's valid requests: such
   * a refusal is a note, not a failure; when every request was refused so, the test had nothing to judge.
   */
  refusable?: string;
}

const discovery = new PerRun<Promise<Discovery>>();

/**
 * Reads the fixture once per suite file and run: the root's sub-folders, global ids of its folders, a
 * few of its files, and the users, templates, markup languages and languages it uses, so that
 * generated requests name things that exist. Files are listed per folder, never recursively: the run's
 * sandbox lies below the root, and other tests delete there. A listing that fails leaves its part
 * empty: the generators then name fewer fixture objects, and the failed answer is judged like every
 * other.
 */
function discover(t: ConformanceContext): Promise<Discovery> {
  return discovery.get(async () => {
    const f = t.fixture;
    const found: Discovery = {
      fixtureFolders: [],
      fixtureFiles: [],
      fixturePages: [],
      globalIds: {},
      userIds: [],
      templateIds: [],
      markupLanguageIds: [],
      languages: [],
    };
    const add = <T>(list: T[], value: T | undefined) => value !== undefined && !list.includes(value) && list.push(value);
    const children = (await t.try('folder.getFolders', { path: { id: f.masterRootFolderId } })).body?.folders ?? [];
    for (const child of children) if (child.id !== undefined && child.id !== f.sandboxParentFolderId) add(found.fixtureFolders, child.id);
    const folders = [f.masterRootFolderId, f.sandboxParentFolderId, f.pagesFolderId, f.templatesFolderId, ...found.fixtureFolders].filter(
      (id): id is number => id !== undefined,
    );
    for (const id of new Set(folders)) {
      const folder = (await t.try('folder.load', { path: { id } })).body?.folder;
      if (folder?.globalId) found.globalIds[id] = folder.globalId;
      add(found.userIds, folder?.creator?.id);
      add(found.userIds, folder?.editor?.id);
      if (id === f.sandboxParentFolderId) {
        const trail = (folder?.breadcrumbs ?? []).map((b) => b.id).filter((x): x is number => x !== undefined);
        found.historyFolders = [...new Set([id, f.masterRootFolderId, ...trail])];
        continue;
      }
      const files = (await t.try('file.list', { query: { folderId: String(id) } })).body?.items ?? [];
      for (const file of files.slice(0, 3)) add(found.fixtureFiles, file.id);
    }
    if (f.templatesFolderId !== undefined) {
      for (const template of (await t.try('folder.getTemplates', { path: { folderId: f.templatesFolderId } })).body?.templates ?? []) {
        add(found.templateIds, template.id);
        add(found.markupLanguageIds, template.markupLanguage?.id);
      }
    }
    if (f.pagesFolderId !== undefined) {
      for (const page of (await t.try('folder.getPages', { path: { id: f.pagesFolderId } })).body?.pages ?? []) {
        if (found.fixturePages.length < 3) add(found.fixturePages, page.id);
        add(found.languages, page.language);
        add(found.userIds, page.publisher?.id);
      }
    }
    return found;
  });
}

const created = (o: { id: number; globalId?: string }): Created => ({ id: o.id, ...(o.globalId ? { globalId: o.globalId } : {}) });

/** Creates a folder under `motherId` and returns its id and global id. */
async function newFolder(t: ConformanceContext, motherId: number): Promise<Created> {
  return created(await createFolderStep(t, motherId, t.uniqueName('sweep')));
}

/** Uploads a small file into `folderId` (multipart, data part fileBinaryData) and returns its id and the name it got. */
async function newFile(t: ConformanceContext, folderId: number): Promise<Created & { name: string }> {
  const name = `${t.uniqueName('sweep')}.txt`;
  const file = await uploadFileStep(t, folderId, name, `sweep ${name}\n`, 'text/plain');
  return { ...created({ ...file, id: file.id! }), name: file.name ?? name };
}

/**
 * The world of one test: the fixture as discovered, plus a test folder in the run's sandbox with a
 * sub-folder, and one file in each. The world of the operations that only read also has a folder made
 * with a start page where a template is known (FolderCreateRequest "`startpage` (boolean), `templateId`"),
 * so that the page lists (getExternalLinks, getPages) have a page of the test's own to answer.
 */
async function prepareWorld(t: ConformanceContext, plan: Plan, withStartPage = false): Promise<World> {
  const found = await discover(t);
  const load = await createFolderStep(t, await t.sandbox(), t.uniqueName('op'));
  const top = load.id;
  const sub = await newFolder(t, top);
  const files = [await newFile(t, top), await newFile(t, sub.id)];
  const templateId = found.templateIds[0];
  // What `startpage` and `templateId` do is not said (contract 4.2 lists them): a server may refuse them, and the page
  // lists then answer with the fixture's pages alone.
  const start =
    withStartPage && templateId !== undefined
      ? (
          await t.try('folder.create', {
            json: { motherId: String(top), name: t.uniqueName('start'), startpage: true, templateId },
          })
        ).body?.folder
      : undefined;
  if (plan.localizeFiles) for (const file of files) await localizeStep(t, 'file', file.id, channelOf(t));
  const globalIds: Record<number, string> = { ...found.globalIds };
  for (const { id, globalId } of [{ id: top, globalId: load?.globalId }, sub, ...files]) if (globalId) globalIds[id] = globalId;
  const startId = start?.id;
  return {
    ...found,
    fixture: t.fixture,
    features: t.config.target.features,
    folders: [top, sub.id, ...(startId !== undefined ? [startId] : [])],
    files: files.map((f) => f.id),
    ...(startId !== undefined ? { startPageFolders: [startId] } : {}),
    globalIds,
    ...(plan.localizeFiles ? { localizedFiles: files.map((f) => f.id) } : {}),
  };
}

/**
 * The request sent to fresh objects instead of the sandbox objects it was generated for: the path's last segment, in
 * the same id form, or, for an operation without a path id, each id of the query's `id` list, or the body's target folder.
 */
async function rebound(spec: RequestSpec, make: () => Promise<Created>): Promise<{ spec: RequestSpec; alias?: RequestSpec }> {
  const json = spec.json as { targetFolder?: Record<string, unknown> } | undefined;
  if (json?.targetFolder) return { spec: { ...spec, json: { ...json, targetFolder: { ...json.targetFolder, id: (await make()).id } } } };
  const ids = spec.query?.id;
  if (Array.isArray(ids))
    return { spec: { ...spec, query: { ...spec.query, id: await Promise.all(ids.map(async () => String((await make()).id))) } } };
  const fresh = await make();
  const segments = spec.path.split('/');
  const last = segments.pop() ?? '';
  const ref = /^\d+$/.test(last) || !fresh.globalId ? String(fresh.id) : fresh.globalId;
  const at = (id: string) => ({ ...spec, path: [...segments, encodeURIComponent(id)].join('/') });
  return { spec: at(ref), ...(fresh.alias !== undefined ? { alias: at(String(fresh.alias)) } : {}) };
}

/**
 * The request with the tag its generator put at the start of the names it gives (generators/requests.ts uniqueFileName,
 * uniqueFolderName) replaced by one of this send's own: a case sent again (a shrink, a replay of a failure) would
 * otherwise meet the name its first send made, which a server may refuse (open choices upload-name-collision,
 * copy-name-collision). The data sent stays as generated.
 */
function withOwnNames(request: RequestSpec, own: string): RequestSpec {
  const json = request.json as Record<string, unknown> | undefined;
  const names = [
    json?.name,
    json?.newFilename,
    request.query?.qqfile,
    request.multipart?.fields?.fileName,
    ...(request.multipart?.files ?? []).map((f) => f.filename),
  ];
  const tag = names.map((n) => (typeof n === 'string' ? /^([0-9a-z]{6})[- ]/.exec(n)?.[1] : undefined)).find((t) => t !== undefined);
  if (!tag) return request;
  const swap = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value).split(tag).join(own)) as T));
  return {
    ...request,
    ...(request.json !== undefined ? { json: swap(request.json) } : {}),
    ...(request.query ? { query: swap(request.query) } : {}),
    ...(request.multipart
      ? {
          multipart: {
            ...request.multipart,
            ...(request.multipart.fields ? { fields: swap(request.multipart.fields) } : {}),
            ...(request.multipart.files
              ? { files: request.multipart.files.map((f) => (f.filename ? { ...f, filename: f.filename.split(tag).join(own) } : f)) }
              : {}),
          },
        }
      : {}),
  };
}

/** Content derived from the path, so a replayed request downloads the same bytes. */
function derivedContent(path: string): HostedFile {
  const seed = createHash('sha256').update(path).digest();
  return {
    data: Buffer.concat(Array.from({ length: 1 + (seed[0] ?? 0) }, () => seed)),
    contentType: mediaTypeOf(decodeURIComponent(path)),
  };
}

/**
 * The world of the operations that only read (every GET, and getFolders by body): made once per suite file and run and
 * read by all of them, since none of them changes it.
 */
const readWorld = new PerRun<Promise<World>>();

const freshFolder: Plan['fresh'] = (t, w) => newFolder(t, w.folders[0]!);
const freshFile: Plan['fresh'] = (t, w) => newFile(t, w.folders[0]!);
const freshLocalizedFile: Plan['fresh'] = async (t, w) => {
  const folder = w.folders[0]!;
  const file = await newFile(t, folder);
  const channel = channelOf(t);
  await localizeStep(t, 'file', file.id, channel);
  const copy = await copyIdStep(t, 'file', folder, { id: file.id, name: file.name }, channel);
  return { ...file, ...(copy !== file.id ? { alias: copy } : {}) };
};

const plans: Record<string, Plan> = {
  // No contract operation restores a deleted folder or unlocalizes a folder: each run gets its own.
  'folder.delete': { fresh: freshFolder },
  // "its fields for folders: not shown" (contract 4.2): the file form's channelId may not be what a server reads.
  'folder.localize': { fresh: freshFolder, refusable: 'folder-localize-body' },
  // Localizing twice is not the transition the contract shows ("inherited or local object" -> localized).
  'file.localize': { fresh: freshFile },
  // Requests are generated for the world's localized files and sent to a fresh file localized just before: whether
  // a second unlocalize or push2master of one file succeeds is not said (push2master may also take the copy away).
  'file.unlocalize': { fresh: freshLocalizedFile, localizeFiles: true },
  'file.push2master': { fresh: freshLocalizedFile, localizeFiles: true },
  // Each run meets a fresh object: a second request would meet what the first set, and whether a request that
  // changes nothing succeeds is not said; a move into the folder the file is in neither.
  'folder.disinherit.set': { fresh: freshFolder },
  'folder.disinherit.setMany': { fresh: freshFolder },
  'file.disinherit.set': { fresh: freshFile, refusable: 'file-disinherit-ids' },
  // "(described as page IDs)": a request names files or pages, and a server may take one kind only.
  'file.disinherit.get': { refusable: 'file-disinherit-ids' },
  'file.move': { fresh: freshFile },
  // A target folder of its own: onto a name an earlier case's copy took, a copy may be renamed or refused (open choice
  // copy-name-collision).
  'file.copy': { fresh: freshFolder },
  // "Parameters: not shown" (contract 4.3): no request is known to be valid.
  'file.usage.page': { refusable: 'usage-page-parameters' },
  // "dstNodeId (int; target channel)": the master the objects go to is the suite's reading (open choice syncable-dst-node).
  'file.usage.syncableObjects': { refusable: 'syncable-dst-node' },
  'file.create.json': { fileHost: true },
};

for (const op of operations) {
  conformance(
    `OP-${op.id}`,
    `${op.method} ${op.path} answers valid requests with the success status and a body that validates`,
    async (t) => {
      const plan = plans[op.id] ?? {};
      const world = onlyReads(op) ? await readWorld.retrying(() => prepareWorld(t, plan, true)) : await prepareWorld(t, plan);
      const host = plan.fileHost ? await startFileHost({ fallback: derivedContent }) : undefined;
      try {
        const requests = validRequest(op.id, host ? { ...world, sourceUrl: `${host.url}/files` } : world);
        // A request whose every input class an earlier one explored proves nothing more (issue 34): it is not sent.
        const novel = novelClasses((request: RequestSpec) => inputClasses(op.id, request, world));
        let served = 0;
        const allowed: { exchange: Exchange; choice: string }[] = [];
        await t.property(
          requests,
          async (request) => {
            const make = plan.fresh;
            const named = withOwnNames(request, t.uniqueName('n'));
            const { spec: sent, alias } = make ? await rebound(named, () => make(t, world)) : { spec: named };
            let exchange = await t.send(sent, op.id as OperationId);
            // Refused by the master's id, the request goes by the copy's: a server may take either (open choices
            // unlocalize-id, push2master-id); the judge judged the refusal like every answer.
            if (alias && isRefusal(exchange) && (exchange.response?.status ?? 0) < 500)
              exchange = await t.send(alias, op.id as OperationId);
            // The judge has judged the answer (status, content type, envelope, schema); here only: was it served?
            const failed = checkSucceeded(exchange, `OP-${op.id}`);
            const choice = failed.some((f) => f.check === 'refused') ? plan.refusable : undefined;
            if (choice) allowed.push({ exchange, choice });
            else if (!failed.length) served++;
            return choice ? [] : failed;
          },
          { novel },
        );
        const first = allowed[0];
        if (first && served)
          t.openChoice(first.choice, `${allowed.length} valid requests were refused and ${served} served`, first.exchange);
        else if (first)
          t.nothingToJudge(`every valid request was refused, which the contract allows (open choice ${first.choice})`, first.exchange);
      } finally {
        await host?.close();
      }
    },
    { operation: op.id },
  );
}
