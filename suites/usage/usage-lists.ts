/**
 * The usage lists as the usage suites read them (contract 4.3): one answer of usage/file, usage/folder or usage/page with
 * the members the relations read, the fixture's used files and their users as discovered once per run, and the files the
 * master's templates refer to.
 */
import { SetupError } from '../../harness/api.ts';
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureTree } from '../../harness/fixture.ts';
import { idsOf } from '../../harness/oracles.ts';
import { attempt } from '../../harness/steps.ts';
import { PerRun, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange, RequestSpec } from '../../harness/transport.ts';
import type { File, Item } from '../../schemas/types.ts';
import { tagReferences } from './relations.ts';

/** The usage lists of contract 4.3 and the member that holds each list. */
export const KINDS = {
  file: { op: 'file.usage.file', member: 'files' },
  folder: { op: 'file.usage.folder', member: 'folders' },
  page: { op: 'file.usage.page', member: 'pages' },
} as const;
export type Kind = keyof typeof KINDS;
export const KIND_NAMES = Object.keys(KINDS) as Kind[];

/** One usage answer, with the members the relations read. */
export interface UsageAnswer {
  exchange: Exchange;
  total?: number;
  hasMoreItems?: boolean;
  withoutPermission?: number;
  /** The listed objects; undefined when the member is absent. */
  list?: Item[];
}

/** Asks who of `kind` uses the files `ids`, in the view of `nodeId`; findings instead of a body when refused. */
export async function usage(
  t: ConformanceContext,
  kind: Kind,
  ids: readonly number[],
  nodeId: number,
  query: RequestSpec['query'] = {},
): Promise<{ answer?: UsageAnswer; findings: Finding[] }> {
  const { op, member } = KINDS[kind];
  const got = await attempt(t, op, { query: { id: [...ids], nodeId, ...query } });
  if (!got.body) return { findings: got.findings };
  const body = got.body as Record<string, unknown>;
  const list = body[member];
  return {
    answer: {
      exchange: got.exchange,
      ...(typeof body.total === 'number' ? { total: body.total } : {}),
      ...(typeof body.hasMoreItems === 'boolean' ? { hasMoreItems: body.hasMoreItems } : {}),
      ...(typeof body.withoutPermission === 'number' ? { withoutPermission: body.withoutPermission } : {}),
      ...(Array.isArray(list) ? { list: list as Item[] } : {}),
    },
    findings: [],
  };
}

/** Like usage, for setup the rest of the test relies on: a refusal ends the test with its finding. */
export async function mustUsage(
  t: ConformanceContext,
  kind: Kind,
  ids: readonly number[],
  nodeId: number,
  query: RequestSpec['query'] = {},
): Promise<UsageAnswer> {
  const got = await usage(t, kind, ids, nodeId, query);
  if (got.answer) return got.answer;
  t.record(got.findings);
  throw new SetupError(`usage/${kind} failed`);
}

/** The files getFiles lists over a whole tree (recursive, unpaged), filtered by `query`; a refusal ends the test. */
export async function treeFiles(
  t: ConformanceContext,
  folderId: number,
  query: RequestSpec['query'] = {},
): Promise<{ files: File[]; exchange: Exchange }> {
  const got = await t.call('folder.getFiles', { path: { folderId }, query: { recursive: true, maxItems: -1, ...query } });
  if (!got.body) throw new SetupError(`folder.getFiles: ${got.problem}`);
  return { files: got.body.files ?? [], exchange: got.exchange };
}

/** The tests that said their usage lists named users without a folderId (once each). */
const saidNoFolder = new WeakSet<ConformanceContext>();

/**
 * Whether a listed object lives in the fixture folders: a folder by its id, a file or page by its folder. A file or page
 * record need not carry folderId (contract 2.1): one without is left out, and the test `t` (where given) says so once.
 */
export function inFixture(scope: ReadonlySet<number>, kind: Kind, item: Item & { folderId?: unknown }, t?: ConformanceContext): boolean {
  if (kind !== 'folder' && typeof item.folderId !== 'number' && t && !saidNoFolder.has(t)) {
    saidNoFolder.add(t);
    t.nothingToJudge(`a ${kind} record of a usage list shows no folderId: users whose folder is not shown are not judged`);
  }
  return scope.has((kind === 'folder' ? item.id : item.folderId) as number);
}

/**
 * The files to ask about: the master's used files (getFiles used=true) and the images their folder and
 * file users refer to in their tags (getFiles lists no images, yet an image is a file a user can use:
 * a user of a file and an image is where a server may count a user twice). Every kind asks about all
 * of them: "files using one of the given files" (contract 4.3) makes no exception for a given file that
 * uses another given file. `kinds` are those with ids to ask about.
 */
export async function usedInMaster(t: ConformanceContext): Promise<Discovery> {
  // The fixture does not change during a run: the tests of this file share one discovery (only a complete one).
  return discovery.retrying(() => discover(t));
}

/** What usedInMaster finds. */
export interface Discovery {
  used: number[];
  idsFor: Record<Kind, number[]>;
  kinds: Kind[];
  scope: Set<number>;
  fileUsers: number[];
  /** Images the usage lists refused to be asked about (open choice usage-image-ids: their `id` is "file IDs"). */
  refusedImages: number[];
}

const discovery = new PerRun<Promise<Discovery>>();

/** The discovery of usedInMaster, sent through the test that asks first. */
async function discover(t: ConformanceContext): Promise<Discovery> {
  const master = t.fixture.masterNodeId;
  const scope = (await fixtureTree(t, t.fixture.masterRootFolderId, master)).ids;
  const { files } = await treeFiles(t, t.fixture.masterRootFolderId, { used: true });
  const declared = t.fixture.usedFileId;
  // The file the target file names as used is asked about whatever used=true lists (FLT-07 judges that filter).
  const usedFiles = [
    ...new Set([...(declared === undefined ? [] : [declared]), ...idsOf(files.filter((f) => inFixture(scope, 'file', f)))]),
  ];
  const images = new Set<number>();
  const fileUsers = new Set<number>();
  for (const id of usedFiles) {
    for (const user of (await mustUsage(t, 'folder', [id], master)).list ?? []) {
      if (!inFixture(scope, 'folder', user)) continue;
      const loaded = await t.call('folder.load', { path: { id: user.id as number } });
      for (const image of tagReferences(loaded.body?.folder?.tags).images) images.add(image);
    }
    for (const user of (await mustUsage(t, 'file', [id], master)).list ?? []) {
      if (!inFixture(scope, 'file', user, t) || fileUsers.has(user.id as number)) continue;
      fileUsers.add(user.id as number);
      const loaded = await t.call('file.load', { path: { id: user.id as number } });
      for (const image of tagReferences(loaded.body?.file?.tags).images) images.add(image);
    }
  }
  // The usage lists take "`id` (int, multivalued; file IDs)": a server may refuse an image's (open choice usage-image-ids),
  // which then is not asked about.
  const refusedImages: number[] = [];
  for (const id of images) {
    const got = await usage(t, 'file', [id], master);
    if (!got.answer) {
      refusedImages.push(id);
      continue;
    }
    for (const user of got.answer.list ?? []) if (inFixture(scope, 'file', user)) fileUsers.add(user.id as number);
  }
  const used = [...usedFiles, ...[...images].filter((id) => !usedFiles.includes(id) && !refusedImages.includes(id))];
  // The files the target file names as users of its used file are users whatever usage/file says (USE-01 judges that).
  for (const id of t.fixture.usedFileUsers?.files ?? []) fileUsers.add(id);
  const idsFor = { file: used, folder: used, page: used };
  return { used, idsFor, kinds: KIND_NAMES.filter((kind) => idsFor[kind].length > 0), scope, fileUsers: [...fileUsers], refusedImages };
}

/**
 * The file and image ids the object tags of the master's templates refer to; undefined (a warning recorded) when the templates
 * cannot be listed.
 */
export async function templateReferences(t: ConformanceContext, root: number): Promise<Set<number> | undefined> {
  const got = await attempt(t, 'folder.getTemplates', { path: { folderId: root }, query: { recursive: true, maxItems: -1 } });
  if (!got.body) {
    t.record(
      got.findings.map((f) =>
        finding(
          f.requirement,
          f.check,
          `${f.message}; without the templates a file used only by a template cannot be told from a file used only in a channel`,
          f.exchange,
          'warning',
        ),
      ),
    );
    return undefined;
  }
  const out = new Set<number>();
  for (const template of got.body.templates ?? []) {
    const refs = tagReferences(template.objectTags);
    for (const id of [...refs.files, ...refs.images]) out.add(id);
  }
  return out;
}
