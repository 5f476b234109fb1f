/**
 * The commands of the model-based tests (the *.suite.ts files beside this one): fast-check generates
 * sequences of them (create, upload, copy, move, save, delete, localize, unlocalize, disinherit, list,
 * count), runs them against the target from a fresh sandbox folder (holding D1 "Start", f1 and f2, see
 * `start`), and checks every answer against harness/model.ts. A failing sequence shrinks to the
 * shortest one; its commands print as the list of requests they sent (model labels and ids). The tests
 * are three files, so that a run against a live target with `--concurrency auto` runs them side by side.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { fileName, folderName } from '../../generators/faker.ts';
import { problemOf, type CallSpec, type OperationId } from '../../harness/api.ts';
import { flag, listOf } from '../../harness/records.ts';
import { copyIn, eitherIdStep, nothingToJudgeOnce } from '../../harness/steps.ts';
import type { ResponseOf } from '../../schemas/types.ts';
import { checkNo5xx, checkRefused, finding, isRefusal, type Finding } from '../../harness/checks.ts';
import {
  addFile,
  addFolder,
  channelIdOf,
  childrenOf,
  createModel,
  deleteFolder,
  diffListing,
  folderByKey,
  hasLocalizedWithin,
  isDeleted,
  listing,
  liveFiles,
  liveFolders,
  localize,
  moveFile,
  nameTaken,
  objectById,
  parentOf,
  renameFile,
  replaceContent,
  unlocalize,
  visibleInChannel,
  type ListedRecord,
  type ListingQuery,
  type Model,
  type ModelFile,
  type ModelFolder,
  type ModelObject,
  type ObjectKind,
  type Problem,
  type ViewName,
  type WastebinMode,
} from '../../harness/model.ts';
import { legacySlice, pageSlice } from '../../harness/slices.ts';
import type { ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';

/** Sequences stay short: each command sends a few requests, and a shrunk failure should read at a glance. */
const MAX_COMMANDS = 12;

/** What one run of a sequence works with. */
interface Real {
  t: ConformanceContext;
  /** The channel whose view the commands check (feature multichannelling), else undefined. */
  channel: number | undefined;
  findings: Finding[];
  /** Read nothing back: the start world is being made again, as every run makes it (see `sequences`). */
  quiet?: boolean;
}

/** The target diverged from the model: the findings say how; the sequence stops so fast-check can shrink it. */
class Diverged extends Error {
  override name = 'Diverged';
}

/** The model cannot follow the target past this step (what it did is not shown): the sequence ends without a finding. */
class Unpredictable extends Diverged {
  override name = 'Unpredictable';
}

/** Records the findings and, when there are any, ends the sequence. */
function divergeOn(r: Real, findings: Finding[]): void {
  if (!findings.length) return;
  r.findings.push(...findings);
  throw new Diverged(findings[0]!.message);
}

function stop(r: Real, requirement: string, message: string, exchange?: Exchange): never {
  r.findings.push(finding(requirement, 'model', message, exchange));
  throw new Diverged(message);
}

/** Problems of the model turned into findings: those without a rule of their own belong to `requirement`. */
function problemFindings(problems: Problem[], requirement: string, context: string, exchange: Exchange): Finding[] {
  return problems.map((p) => finding(p.requirement ?? requirement, 'model', `${context}: ${p.message}`, exchange));
}

/** The typed body of a request the contract says succeeds; otherwise a finding of `requirement` ends the sequence. */
function success<K extends OperationId = OperationId>(r: Real, exchange: Exchange, requirement: string, what: string): ResponseOf[K] {
  const problem = problemOf(exchange);
  if (problem) stop(r, requirement, `${what}: expected success, got ${problem}`, exchange);
  return (exchange.response!.json ?? {}) as ResponseOf[K];
}

/** A refusal the contract requires: never a 5xx, never a success. */
function refused(r: Real, exchange: Exchange, requirement: string, why: string): void {
  divergeOn(r, checkRefused(exchange, requirement, why));
}

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
const quote = (name: string): string => JSON.stringify(name.length > 40 ? `${name.slice(0, 37)}...` : name);
const label = (o: ModelObject, id = o.id): string => `${o.key}#${id}`;

// ---------------------------------------------------------------------------------------------
// Listings

type ListStyle = 'legacy' | 'paged';

/** The listing operation of a kind: Group L (getFolders, getFiles) or Group P (GET /folder, GET /file). */
function listOperation(kind: ObjectKind, style: ListStyle): 'folder.getFolders' | 'folder.getFiles' | 'folder.list' | 'file.list' {
  if (style === 'legacy') return kind === 'folder' ? 'folder.getFolders' : 'folder.getFiles';
  return kind === 'folder' ? 'folder.list' : 'file.list';
}

function listSpec(r: Real, q: ListingQuery, folderId: number, style: ListStyle, paging: Record<string, number>): CallSpec {
  const query = {
    ...(q.view === 'channel' ? { nodeId: r.channel } : {}),
    ...(q.wastebin === 'exclude' ? {} : { wastebin: q.wastebin }),
    ...(q.recursive ? { recursive: true } : {}),
    ...paging,
  };
  if (style === 'paged') return { query: { folderId, ...query } };
  return { path: q.kind === 'folder' ? { id: folderId } : { folderId }, query };
}

/** A listed page: its records (files, folders or items) and paging members. */
interface Listed {
  exchange: Exchange;
  records: ListedRecord[];
  numItems: unknown;
  hasMoreItems: unknown;
}

/**
 * Lists a folder as the query says. When the model says the folder cannot be listed (deleted under
 * `exclude`, or not visible in the channel), a refusal or an empty list are both right, and the
 * result is undefined; anything listed then is a finding.
 */
async function fetchListing(
  r: Real,
  m: Model,
  q: ListingQuery,
  requirement: string,
  style: ListStyle = 'legacy',
  paging: Record<string, number> = {},
): Promise<Listed | undefined> {
  const prediction = listing(m, q);
  const op = listOperation(q.kind, style);
  const { exchange } = await r.t.try(op, listSpec(r, q, prediction.folderId, style, paging));
  const where =
    `${op} of ${label(folderByKey(m, q.folder), prediction.folderId)} ` +
    `(${q.view}${q.wastebin === 'exclude' ? '' : `, wastebin=${q.wastebin}`}${q.recursive ? ', recursive' : ''})`;
  if (!prediction.listable) {
    divergeOn(r, checkNo5xx(exchange, requirement));
    if (isRefusal(exchange)) return undefined;
    const body = exchange.response?.json as Record<string, unknown> | undefined;
    const list = body?.folders ?? body?.files ?? body?.items;
    if (Array.isArray(list) && list.length > 0) {
      const rule = prediction.unlistable === 'deleted' ? 'WST-01' : 'MCH-06';
      const why =
        prediction.unlistable === 'deleted'
          ? 'is deleted ("a deleted item is absent from every listing with wastebin absent or exclude")'
          : 'is excluded or disinherited for the channel';
      stop(r, rule, `${where}: the folder ${why}, so a refusal or an empty list was expected; ${list.length} entries came`, exchange);
    }
    return undefined;
  }
  // Whether a deleted folder can be named to list its content with include or only is open (open choice deleted-folder-by-id).
  if (isRefusal(exchange) && isDeleted(m, folderByKey(m, q.folder))) {
    divergeOn(r, checkNo5xx(exchange, requirement));
    nothingToJudgeOnce(r.t, DELETED_BY_ID, exchange);
    return undefined;
  }
  const body = success(r, exchange, requirement, where) as Record<string, unknown>;
  // An empty list may be left out of the answer (contract 2.1: presence of members not shown): it reads as empty.
  const member = style === 'paged' ? 'items' : q.kind === 'folder' ? 'folders' : 'files';
  if (body[member] !== undefined && !Array.isArray(body[member]))
    stop(r, requirement, `${where}: the answer's ${member} is ${JSON.stringify(body[member])}, not a list of ${q.kind}s`, exchange);
  return { exchange, records: listOf<ListedRecord>(body, member), numItems: body.numItems, hasMoreItems: body.hasMoreItems };
}

/** Why a listing or count of a deleted folder's content is not judged where the target refuses to name the folder. */
const DELETED_BY_ID =
  'the target does not find a deleted folder by its id with wastebin=include or only (open choice deleted-folder-by-id): its content is not listed through it';

/** Lists a folder (unpaged) and compares it with the model; differences are findings of `requirement` unless they name their own rule. */
async function verify(r: Real, m: Model, q: ListingQuery, requirement: string, context: string): Promise<void> {
  if (r.quiet) return;
  const listed = await fetchListing(r, m, q, requirement);
  if (listed) divergeOn(r, problemFindings(diffListing(m, q, listing(m, q), listed.records), requirement, context, listed.exchange));
}

// ---------------------------------------------------------------------------------------------
// Commands

/**
 * A command: `targets` resolves its generated indexes to model objects (undefined: it cannot run now,
 * the pure precondition); `act` does ONE action (a mutation, a listing or a count; an upload batch sends
 * its files one by one), checks the answer against the model, updates the model, and reads back what
 * the change must have changed.
 */
abstract class Step<P, T> implements fc.AsyncCommand<Model, Real> {
  /** What the latest run of this instance sent, with labels and ids: the line the counterexample prints. */
  protected did = '';

  constructor(readonly p: P) {}

  protected abstract targets(m: Model): T | undefined;
  protected abstract act(m: Model, r: Real, target: T): Promise<void>;

  check(m: Readonly<Model>): boolean {
    return this.targets(m) !== undefined;
  }

  async run(m: Model, r: Real): Promise<void> {
    await this.act(m, r, this.targets(m)!);
  }

  toString(): string {
    return this.did || `${this.constructor.name}(not run)`;
  }

  // fast-check clones commands for every run, so `did` always describes the run being reported.
  [fc.cloneMethod](): Step<P, T> {
    return new (this.constructor as new (p: P) => Step<P, T>)(this.p);
  }
}

/** The generated index applied to a candidate list (modulo), so a shrunk sequence still finds a target. */
function pick<T>(list: readonly T[], index: number): T | undefined {
  return list.length ? list[index % list.length] : undefined;
}

const nonRoot = (m: Model) => liveFolders(m).filter((f) => f.key !== 'D0');

/** Creates a folder in a model folder, with or without failOnDuplicate, and reads back the listing. */
export class CreateFolder extends Step<{ parent: number; name: string; failOnDuplicate: boolean }, ModelFolder> {
  protected targets(m: Model) {
    return pick(liveFolders(m), this.p.parent);
  }

  protected async act(m: Model, r: Real, mother: ModelFolder) {
    const { name, failOnDuplicate } = this.p;
    this.did = `createFolder ${quote(name)} in ${label(mother)}${failOnDuplicate ? ' failOnDuplicate' : ''}`;
    const { exchange } = await r.t.try('folder.create', {
      json: { motherId: String(mother.id), name, ...(failOnDuplicate ? { failOnDuplicate } : {}) },
    });
    const siblings: ListingQuery = { folder: mother.key, kind: 'folder', view: 'master', wastebin: 'exclude' };
    const loose = nameTaken(m, mother.key, 'folder', name);
    if (failOnDuplicate && (nameTaken(m, mother.key, 'folder', name, { exact: true }) || (loose && isRefusal(exchange)))) {
      // "failOnDuplicate=true refuses a name already used by a sibling and creates nothing"
      refused(r, exchange, 'FLD-02', `a sibling is named ${quote(name)} and failOnDuplicate is true`);
      this.did += ' → refused';
      await verify(r, m, siblings, 'FLD-02', `after the refused ${this.did}`);
      return;
    }
    // A sibling's name without failOnDuplicate: the notes append a number ("News1"), a server may refuse it or keep the
    // name as sent (open choice folder-name-collision). Refused, nothing changed.
    if (loose && isRefusal(exchange) && (exchange.response?.status ?? 0) < 500) {
      this.did += ' → refused, the name is taken';
      await verify(r, m, siblings, 'FLD-01', `after the refused ${this.did}`);
      return;
    }
    const body = success<'folder.create'>(r, exchange, 'FLD-01', this.did);
    const id = body.folder?.id;
    // "create makes a folder under motherId, returned in FolderLoadResponse"
    if (typeof id !== 'number' || objectById(m, id))
      stop(r, 'FLD-01', `${this.did}: expected the new folder with a new id, got id ${JSON.stringify(id)}`, exchange);
    const got = typeof body.folder?.name === 'string' ? body.folder.name : name;
    if (!loose && got !== name) stop(r, 'FLD-01', `${this.did}: no sibling has this name, yet the folder is named ${quote(got)}`, exchange);
    const folder = addFolder(m, mother.key, id, got);
    this.did += ` → ${label(folder)}${got === name ? '' : ` named ${quote(got)}`}`;
    // "... listed by the mother"
    await verify(r, m, siblings, 'FLD-01', `after ${this.did}`);
  }
}

/** One file an upload command sends. */
interface Payload {
  name: string;
  content: Uint8Array;
}

/**
 * An upload; `overwrite` (raw createSimple only, whose `overwrite` query the contract names) asks to replace the
 * file of the same name: UPL-05 "`overwrite=true` replaces a file of the same name in the folder (same id, new size)".
 */
export class Upload extends Step<{ folder: number; files: Payload[]; raw: boolean; overwrite?: boolean }, ModelFolder> {
  protected targets(m: Model) {
    return pick(liveFolders(m), this.p.folder);
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const { files, raw } = this.p;
    const overwrite = raw && this.p.overwrite === true;
    const requirement = overwrite ? 'UPL-05' : raw ? 'UPL-03' : 'UPL-01';
    const op = raw ? 'file.createSimple.raw' : 'file.create.multipart';
    this.did = `${raw ? 'createSimple' : 'upload'}${overwrite ? ' overwrite' : ''} into ${label(folder)}:`;
    for (const { name, content } of files) {
      // Only a live file of exactly this name must be replaced; one differing in case or deleted may be, or not.
      const same = overwrite
        ? (childrenOf(m, folder.key, 'file') as ModelFile[]).find((o) => o.name === name && !isDeleted(m, o))
        : undefined;
      const exchange = raw
        ? (
            await r.t.try(op, {
              query: { folderId: folder.id, qqfile: name, ...(overwrite ? { overwrite } : {}) },
              raw: { contentType: 'application/octet-stream', data: content },
            })
          ).exchange
        : (
            await r.t.try(op, {
              multipart: {
                fields: { folderId: String(folder.id), fileName: name },
                files: [{ name: 'fileBinaryData', filename: name, contentType: 'application/octet-stream', data: content }],
              },
            })
          ).exchange;
      const what = `${this.did} ${quote(name)} (${content.length} B)`;
      // A name the folder holds, without overwrite: the notes rename ("base_1.ext"), a server may refuse (open choice
      // upload-name-collision). Refused, nothing changed.
      if (!same && !overwrite && nameTaken(m, folder.key, 'file', name) && isRefusal(exchange) && (exchange.response?.status ?? 0) < 500) {
        this.did += ` ${quote(name)} (${content.length} B) → refused, the name is taken;`;
        continue;
      }
      const body = success<typeof op>(r, exchange, requirement, what);
      const file = body.file;
      if (same) {
        if (body.success !== true || file?.id !== same.id || file.fileSize !== content.length)
          stop(
            r,
            'UPL-05',
            `${what}: expected ${label(same)} replaced (success true, id ${same.id}, fileSize ${content.length}), ` +
              `got success ${JSON.stringify(body.success)}, id ${JSON.stringify(file?.id)}, fileSize ${JSON.stringify(file?.fileSize)}`,
            exchange,
          );
        // Without overwrite the same upload makes a new file (the model's plain uploads): here the id must stay.
        r.t.judged(op, 'overwrite');
        replaceContent(same, content.length, sha256(content));
        this.did += ` ${quote(name)} (${content.length} B) → replaced ${label(same)};`;
        continue;
      }
      // A file named alike (case, deleted) may have been replaced: the contract does not say which names are the same.
      const alike = overwrite && typeof file?.id === 'number' ? objectById(m, file.id) : undefined;
      if (alike?.kind === 'file' && alike.folder === folder.key && nameTaken(m, folder.key, 'file', name)) {
        replaceContent(alike, content.length, sha256(content));
        this.did += ` ${quote(name)} (${content.length} B) → replaced ${label(alike)};`;
        continue;
      }
      // UPL-01: "201, success true, file with the given name, folderId, and fileSize equal to the bytes sent"
      if (body.success !== true || typeof file?.id !== 'number' || objectById(m, file.id)) {
        stop(
          r,
          requirement,
          `${what}: expected success true and a file with a new id, ` +
            `got success ${JSON.stringify(body.success)}, id ${JSON.stringify(file?.id)}`,
          exchange,
        );
      }
      const got = typeof file.name === 'string' ? file.name : name;
      const problems: string[] = [];
      if (!nameTaken(m, folder.key, 'file', name) && got !== name)
        problems.push(`no file of the folder has this name, yet the file is named ${quote(got)}`);
      if (file.fileSize !== content.length)
        problems.push(`fileSize ${JSON.stringify(file.fileSize)}, expected the ${content.length} bytes sent`);
      if (file.folderId !== undefined && file.folderId !== folder.id) problems.push(`folderId ${file.folderId}, expected ${folder.id}`);
      divergeOn(
        r,
        problems.map((p) => finding(requirement, 'model', `${what}: ${p}`, exchange)),
      );
      const added = addFile(m, folder.key, { id: file.id, name: got, size: content.length, sha256: sha256(content) });
      this.did += ` ${quote(name)} (${content.length} B) → ${label(added)}${got === name ? '' : ` named ${quote(got)}`};`;
    }
    await verify(r, m, { folder: folder.key, kind: 'file', view: 'master', wastebin: 'exclude' }, requirement, `after ${this.did}`);
  }
}

class Copy extends Step<{ file: number; folder: number; newName: string | undefined }, [ModelFile, ModelFolder]> {
  protected targets(m: Model): [ModelFile, ModelFolder] | undefined {
    const file = pick(liveFiles(m), this.p.file);
    const folder = pick(liveFolders(m), this.p.folder);
    return file && folder ? [file, folder] : undefined;
  }

  protected async act(m: Model, r: Real, [source, target]: [ModelFile, ModelFolder]) {
    const { newName } = this.p;
    this.did = `copy ${label(source)} to ${label(target)}${newName === undefined ? '' : ` as ${quote(newName)}`}`;
    const { exchange } = await r.t.try('file.copy', {
      json: { file: { id: source.id }, targetFolder: { id: target.id }, ...(newName === undefined ? {} : { newFilename: newName }) },
    });
    const wanted = newName ?? source.name;
    // Onto a name the target folder holds, a copy may be renamed or refused (open choice copy-name-collision).
    if (nameTaken(m, target.key, 'file', wanted) && isRefusal(exchange) && (exchange.response?.status ?? 0) < 500) {
      this.did += ' → refused, the name is taken';
      return;
    }
    const body = success<'file.copy'>(r, exchange, 'FIL-01', this.did);
    const file = body.file;
    // "copy creates a new file (new id) in the target folder, named newFilename when given; the source is unchanged"
    if (typeof file?.id !== 'number' || objectById(m, file.id))
      stop(r, 'FIL-01', `${this.did}: expected a file with a new id, got id ${JSON.stringify(file?.id)}`, exchange);
    const got = typeof file.name === 'string' ? file.name : wanted;
    const problems: string[] = [];
    if (!nameTaken(m, target.key, 'file', wanted) && got !== wanted)
      problems.push(`the target folder has no file named ${quote(wanted)}, yet the copy is named ${quote(got)}`);
    if (file.fileSize !== undefined && file.fileSize !== source.size)
      problems.push(`the copy has fileSize ${file.fileSize}, the source ${source.size}`);
    if (file.folderId !== undefined && file.folderId !== target.id)
      problems.push(`the copy is in folder ${file.folderId}, expected ${target.id}`);
    divergeOn(
      r,
      problems.map((p) => finding('FIL-01', 'model', `${this.did}: ${p}`, exchange)),
    );
    const copy = addFile(m, target.key, { id: file.id, name: got, size: source.size, sha256: source.sha256 });
    this.did += ` → ${label(copy)}${got === wanted ? '' : ` named ${quote(got)}`}`;
    await verify(r, m, { folder: target.key, kind: 'file', view: 'master', wastebin: 'exclude' }, 'FIL-01', `after ${this.did}`);
    if (source.folder !== target.key)
      await verify(
        r,
        m,
        { folder: source.folder, kind: 'file', view: 'master', wastebin: 'exclude' },
        'FIL-01',
        `after ${this.did}, in the source folder`,
      );
  }
}

/** Files the commands may change: live, and without a localized copy (what a change of the master does to a copy is not shown). */
const changeable = (m: Model) => liveFiles(m).filter((f) => !f.localized);

class Move extends Step<{ file: number; folder: number }, [ModelFile, ModelFolder]> {
  protected targets(m: Model): [ModelFile, ModelFolder] | undefined {
    const file = pick(changeable(m), this.p.file);
    // A same-name file in the target folder: the contract does not say whether the move is refused or renames.
    const folder =
      file &&
      pick(
        liveFolders(m).filter((d) => d.key !== file.folder && !nameTaken(m, d.key, 'file', file.name)),
        this.p.folder,
      );
    return file && folder ? [file, folder] : undefined;
  }

  protected async act(m: Model, r: Real, [file, target]: [ModelFile, ModelFolder]) {
    const from = file.folder;
    this.did = `move ${label(file)} from ${from} to ${label(target)}`;
    const { exchange } = await r.t.try('file.move', { path: { id: file.id }, json: { folderId: target.id } });
    success(r, exchange, 'FIL-02', this.did);
    moveFile(file, target.key);
    // "move changes the file's folder: it leaves the old folder's listing and appears in the new one, same id"
    await verify(
      r,
      m,
      { folder: from, kind: 'file', view: 'master', wastebin: 'exclude' },
      'FIL-02',
      `after ${this.did}, in the old folder`,
    );
    await verify(
      r,
      m,
      { folder: target.key, kind: 'file', view: 'master', wastebin: 'exclude' },
      'FIL-02',
      `after ${this.did}, in the new folder`,
    );
  }
}

/** Loads a file and returns its record; a refusal is a finding of `requirement`. */
async function loadFile(r: Real, file: ModelFile, requirement: string, context: string) {
  const { exchange } = await r.t.try('file.load', { path: { id: file.id } });
  const body = success<'file.load'>(r, exchange, requirement, `${context}: loading ${label(file)}`);
  if (!body.file || body.file.id !== file.id)
    stop(r, requirement, `${context}: loading ${label(file)} answered file id ${JSON.stringify(body.file?.id)}`, exchange);
  return { exchange, file: body.file };
}

/** A new name, or (a number) the name of the n-th other file of the folder, to meet the duplicate rules often. */
type Rename = string | number | undefined;

/** Saves a file's name or description, with or without failOnDuplicate, and reads back the file and listing. */
export class Save extends Step<{ file: number; name: Rename; description: string | undefined; failOnDuplicate: boolean }, ModelFile> {
  protected targets(m: Model) {
    return pick(changeable(m), this.p.file);
  }

  protected async act(m: Model, r: Real, file: ModelFile) {
    const { description, failOnDuplicate } = this.p;
    const siblings = childrenOf(m, file.folder, 'file').filter((o) => o.key !== file.key);
    const name = typeof this.p.name === 'number' ? (pick(siblings, this.p.name)?.name ?? file.name) : this.p.name;
    // The name always goes: which members a save needs is not said (open choice save-partial-record).
    const fields = { name: name ?? file.name, ...(description === undefined ? {} : { description }) };
    this.did = `save ${label(file)} ${JSON.stringify(fields)}${failOnDuplicate ? ' failOnDuplicate' : ''}`;
    const { exchange } = await r.t.try('file.save.json', {
      path: { id: file.id },
      json: { file: fields, ...(failOnDuplicate ? { failOnDuplicate } : {}) },
    });
    const loose = name !== undefined && nameTaken(m, file.folder, 'file', name, { except: file.key });
    if (
      failOnDuplicate &&
      name !== undefined &&
      (nameTaken(m, file.folder, 'file', name, { exact: true, except: file.key }) || (loose && isRefusal(exchange)))
    ) {
      // "failOnDuplicate refuses a name already used in the folder"; a refusal changes nothing
      refused(r, exchange, 'FIL-03', `another file of the folder is named ${quote(name)} and failOnDuplicate is true`);
      this.did += ' → refused';
      const { exchange: load, file: record } = await loadFile(r, file, 'FIL-03', this.did);
      if (record.name !== file.name)
        stop(r, 'FIL-03', `${this.did}: the refused save still renamed the file to ${JSON.stringify(record.name)}`, load);
      return;
    }
    success(r, exchange, 'FIL-03', this.did);
    // "save (JSON) updates the given fields (name, description), visible on load"
    const { exchange: load, file: record } = await loadFile(r, file, 'FIL-03', this.did);
    const wanted = name ?? file.name;
    const got = typeof record.name === 'string' ? record.name : '';
    const problems: string[] = [];
    if (!loose && got !== wanted) problems.push(`load answers name ${JSON.stringify(record.name)}, expected ${quote(wanted)}`);
    if (description !== undefined && record.description !== description)
      problems.push(`load answers description ${JSON.stringify(record.description)}, expected ${JSON.stringify(description)}`);
    divergeOn(
      r,
      problems.map((p) => finding('FIL-03', 'model', `${this.did}: ${p}`, load)),
    );
    renameFile(file, got);
    if (got !== wanted) this.did += ` → named ${quote(got)}`;
    await verify(r, m, { folder: file.folder, kind: 'file', view: 'master', wastebin: 'exclude' }, 'FIL-03', `after ${this.did}`);
  }
}

class SaveContent extends Step<{ file: number; content: Uint8Array }, ModelFile> {
  protected targets(m: Model) {
    return pick(changeable(m), this.p.file);
  }

  protected async act(m: Model, r: Real, file: ModelFile) {
    const { content } = this.p;
    this.did = `saveContent ${label(file)} (${content.length} B)`;
    const { exchange } = await r.t.try('file.save.multipart', {
      path: { id: file.id },
      multipart: { files: [{ name: 'fileBinaryData', filename: file.name, contentType: 'application/octet-stream', data: content }] },
    });
    success(r, exchange, 'UPL-06', this.did);
    // "POST /file/save/{id} multipart replaces the content (new fileSize), keeping the id"
    const { exchange: load, file: record } = await loadFile(r, file, 'UPL-06', this.did);
    if (record.fileSize !== content.length)
      stop(
        r,
        'UPL-06',
        `${this.did}: load answers fileSize ${JSON.stringify(record.fileSize)}, expected the ${content.length} bytes saved`,
        load,
      );
    replaceContent(file, content.length, sha256(content));
  }
}

class Delete extends Step<{ folder: number }, ModelFolder> {
  protected targets(m: Model) {
    return pick(nonRoot(m), this.p.folder);
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    this.did = `delete ${label(folder)}`;
    const inChannel = r.channel !== undefined && visibleInChannel(m, folder);
    const { exchange } = await r.t.try('folder.delete', { path: { id: folder.id } });
    // Whether a master folder with localized copies in it may be deleted before they are unlocalized is open (open choice
    // delete-master-with-copies): refused, it changes nothing.
    if (isRefusal(exchange) && hasLocalizedWithin(m, folder)) {
      divergeOn(r, checkNo5xx(exchange, 'DEL-05'));
      this.did += ' → refused (localized in the channel)';
      nothingToJudgeOnce(
        r.t,
        'the target refuses to delete a master folder that has localized copies (open choice delete-master-with-copies)',
      );
      return;
    }
    success(r, exchange, 'DEL-05', this.did);
    deleteFolder(folder);
    const mother = parentOf(m, folder)!;
    // "deleting a local folder succeeds; it leaves default listings"
    await verify(r, m, { folder: mother.key, kind: 'folder', view: 'master', wastebin: 'exclude' }, 'DEL-05', `after ${this.did}`);
    // "deleting an inherited folder in its master succeeds, and the folder is gone from the channel's listings too"
    if (inChannel)
      await verify(
        r,
        m,
        { folder: mother.key, kind: 'folder', view: 'channel', wastebin: 'exclude' },
        'DEL-03',
        `after ${this.did}, in the channel`,
      );
  }
}

class DeleteInChannel extends Step<{ folder: number }, ModelFolder> {
  protected targets(m: Model) {
    return pick(
      nonRoot(m).filter((f) => visibleInChannel(m, f)),
      this.p.folder,
    );
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const requirement = folder.localized ? 'DEL-02' : 'DEL-01';
    this.did = `delete ${label(folder, channelIdOf(folder))} in channel ${r.channel} (${folder.localized ? 'localized' : 'inherited'})`;
    const { exchange } = await r.t.try('folder.delete', { path: { id: channelIdOf(folder) }, query: { nodeId: r.channel } });
    // "an inherited or localized folder cannot be deleted in a channel"
    refused(r, exchange, requirement, `the folder is ${folder.localized ? 'localized' : 'inherited'} in the channel`);
    this.did += ' → refused';
    // "a refused delete changes nothing: same folders, files and counts before and after"
    const mother = parentOf(m, folder)!;
    await verify(
      r,
      m,
      { folder: mother.key, kind: 'folder', view: 'channel', wastebin: 'exclude' },
      'DEL-06',
      `after the refused ${this.did}, in the channel`,
    );
    await verify(
      r,
      m,
      { folder: mother.key, kind: 'folder', view: 'master', wastebin: 'exclude' },
      'DEL-06',
      `after the refused ${this.did}, in the master`,
    );
    await verify(
      r,
      m,
      { folder: folder.key, kind: 'file', view: 'master', wastebin: 'exclude' },
      'DEL-06',
      `after the refused ${this.did}, its files`,
    );
  }
}

/**
 * In the channel, a folder named as a sibling the channel sees (inherited from the master or localized) with
 * failOnDuplicate: FLD-02 "`failOnDuplicate=true` refuses a name already used by a sibling and creates nothing".
 */
export class DuplicateInChannel extends Step<{ parent: number }, [ModelFolder, ModelFolder]> {
  protected targets(m: Model): [ModelFolder, ModelFolder] | undefined {
    const seen = (f: ModelFolder) => !isDeleted(m, f) && visibleInChannel(m, f);
    const mother = pick(
      m.folders.filter((f) => seen(f) && childrenOf(m, f.key, 'folder').some((c) => seen(c as ModelFolder))),
      this.p.parent,
    );
    const sibling = mother && (childrenOf(m, mother.key, 'folder') as ModelFolder[]).find(seen);
    return mother && sibling ? [mother, sibling] : undefined;
  }

  protected async act(m: Model, r: Real, [mother, sibling]: [ModelFolder, ModelFolder]) {
    const name = sibling.localized?.name ?? sibling.name;
    this.did = `createFolder ${quote(name)} in ${label(mother, channelIdOf(mother))} in channel ${r.channel} failOnDuplicate`;
    const { exchange } = await r.t.try('folder.create', {
      json: { motherId: String(channelIdOf(mother)), name, failOnDuplicate: true, nodeId: r.channel },
    });
    const made = (exchange.response?.json as { folder?: { id?: unknown; name?: unknown } } | undefined)?.folder;
    if (!isRefusal(exchange) && !exchange.error && made?.name === name) {
      // Whether a channel's failOnDuplicate counts the names it inherits is open (open choice duplicate-names-in-channel): a
      // folder of the channel's own, named as asked, is the other answer. The model holds no such folder: the sequence ends.
      divergeOn(r, checkNo5xx(exchange, 'FLD-02'));
      this.did += ` → created #${String(made.id)} of the channel's own`;
      nothingToJudgeOnce(r.t, "the channel's failOnDuplicate counts only its own folders (open choice duplicate-names-in-channel)");
      throw new Unpredictable(this.did);
    }
    refused(r, exchange, 'FLD-02', `the channel sees ${label(sibling, channelIdOf(sibling))} named ${quote(name)} in the folder`);
    this.did += ' → refused';
    await verify(
      r,
      m,
      { folder: mother.key, kind: 'folder', view: 'channel', wastebin: 'exclude' },
      'FLD-02',
      `after the refused ${this.did}`,
    );
  }
}

/**
 * A localized file's master renamed, then the copy's name (as the channel lists it) uploaded into the channel
 * with overwrite: UPL-05 "`overwrite=true` replaces a file of the same name in the folder (same id, new size)"
 * holds in the channel's view, where that file is the copy. What the rename does to the copy is not shown, so the
 * channel's listing says which name to send; the model cannot follow afterwards, so this step ends a sequence.
 */
export class OverwriteCopy extends Step<{ index: number }, ModelFile> {
  protected targets(m: Model) {
    return pick(
      liveFiles(m).filter((f) => f.localized && visibleInChannel(m, parentOf(m, f)!)),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, file: ModelFile) {
    const copyId = file.localized!.id;
    const folder = parentOf(m, file)!;
    this.did = `save ${label(file)} {"name":"renamed master.txt"}`;
    const { exchange: saved } = await r.t.try('file.save.json', { path: { id: file.id }, json: { file: { name: 'renamed master.txt' } } });
    success(r, saved, 'FIL-03', this.did);
    const listed = await r.t.try('folder.getFiles', { path: { folderId: channelIdOf(folder) }, query: { nodeId: r.channel } });
    const copy = ((listed.exchange.response?.json as { files?: ListedRecord[] } | undefined)?.files ?? []).find((x) => x.id === copyId);
    if (typeof copy?.name !== 'string') stop(r, 'MCH-02', `${this.did}: the channel no longer lists the copy #${copyId}`, listed.exchange);
    const data = new TextEncoder().encode('replaced in the channel\n');
    this.did += `, then createSimple overwrite ${quote(copy.name)} into ${label(folder, channelIdOf(folder))} in channel ${r.channel}`;
    const { exchange } = await r.t.try('file.createSimple.raw', {
      query: { folderId: channelIdOf(folder), nodeId: r.channel, qqfile: copy.name, overwrite: true },
      raw: { contentType: 'application/octet-stream', data },
    });
    const body = success<'file.createSimple.raw'>(r, exchange, 'UPL-05', this.did);
    if (body.file?.id !== copyId || body.file.fileSize !== data.length)
      stop(
        r,
        'UPL-05',
        `${this.did}: the channel's file of that name is the copy #${copyId}, expected it replaced (id ${copyId}, fileSize ${data.length}), ` +
          `got id ${JSON.stringify(body.file?.id)}, fileSize ${JSON.stringify(body.file?.fileSize)}`,
        exchange,
      );
    this.did += ` → replaced #${copyId}`;
    throw new Unpredictable(`${this.did}: what the rename did to the copy is not shown`);
  }
}

/** Objects of a kind that could be localized, unlocalized or hidden: live, and never the test's own folder. */
function candidates(m: Model, kind: ObjectKind): ModelObject[] {
  return kind === 'folder' ? nonRoot(m) : liveFiles(m);
}

/** Localizes a file or folder in the test's channel and reads back the channel's view. */
export class Localize extends Step<{ index: number; kind: ObjectKind }, ModelObject> {
  protected targets(m: Model) {
    return pick(
      candidates(m, this.p.kind).filter((o) => !o.localized && visibleInChannel(m, o)),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, obj: ModelObject) {
    this.did = `localize ${obj.kind} ${label(obj)} in channel ${r.channel}`;
    const op = obj.kind === 'folder' ? 'folder.localize' : 'file.localize';
    const { exchange } = await r.t.try(op, { path: { id: obj.id }, json: { channelId: r.channel } });
    // The folder form's fields are "not shown" (4.2): a refusal of the file form's {channelId} changes nothing.
    if (obj.kind === 'folder' && isRefusal(exchange) && (exchange.response?.status ?? 0) < 500) {
      nothingToJudgeOnce(r.t, 'folder.localize refused the body {channelId} (open choice folder-localize-body)', exchange);
      this.did += ' → refused';
      return;
    }
    success(r, exchange, 'MCH-02', this.did);
    const q: ListingQuery = { folder: parentOf(m, obj)!.key, kind: obj.kind, view: 'channel', wastebin: 'exclude' };
    const listed = (await fetchListing(r, m, q, 'MCH-02'))!;
    // The copy's id is the target's choice: a new id listed under the object's name, or the master's id no longer inherited.
    const fresh = listed.records.filter(
      (x) => typeof x.id === 'number' && !objectById(m, x.id) && !m.retired.has(x.id) && x.name === obj.name,
    );
    const copyId = fresh.length === 1 ? (fresh[0]!.id as number) : copyIn(listed.records, obj) === obj.id ? obj.id : undefined;
    if (copyId === undefined) {
      // "localize (folder, file) makes a localized copy in the target channel; the channel's view shows it as not inherited"
      stop(
        r,
        'MCH-02',
        `${this.did}: the channel's listing of ${q.folder} shows no localized copy (no new id named ${quote(obj.name)}, ` +
          `and id ${obj.id} ${listed.records.some((x) => x.id === obj.id) ? 'is still inherited' : 'is gone'})`,
        listed.exchange,
      );
    }
    localize(obj, copyId);
    this.did += ` → copy #${copyId}`;
    divergeOn(
      r,
      problemFindings(diffListing(m, q, listing(m, q), listed.records), 'MCH-02', `after ${this.did}, in the channel`, listed.exchange),
    );
  }
}

/** Unlocalizes a localized copy and reads back the channel's view. */
export class Unlocalize extends Step<{ index: number }, ModelObject> {
  protected targets(m: Model) {
    return pick(
      [...nonRoot(m), ...liveFiles(m)].filter((o) => o.localized),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, obj: ModelObject) {
    this.did = `unlocalize ${obj.kind} ${label(obj)} (copy #${obj.localized!.id}) in channel ${r.channel}`;
    // By the master's id, else by the copy's (open choice unlocalize-id).
    const done = await eitherIdStep(r.t, 'file.unlocalize', [obj.id, obj.localized!.id], { channelId: r.channel });
    if (done.id === undefined) {
      divergeOn(r, checkNo5xx(done.exchange, 'MCH-03'));
      // Whether /file/unlocalize takes folders is open (open choice unlocalize-folders): refused, the folder stays localized.
      if (obj.kind === 'folder') {
        this.did += ' → refused';
        return nothingToJudgeOnce(
          r.t,
          "POST /file/unlocalize takes no folder here, by its id nor by its copy's (open choice unlocalize-folders)",
        );
      }
      stop(r, 'MCH-03', `${this.did}: expected success by the master's id or the copy's, got ${done.problem}`, done.exchange);
    }
    if (done.id !== obj.id) this.did += ` by #${done.id}`;
    unlocalize(m, obj);
    // "unlocalize removes the localized copy; the channel sees the inherited master again"
    await verify(
      r,
      m,
      { folder: parentOf(m, obj)!.key, kind: obj.kind, view: 'channel', wastebin: 'exclude' },
      'MCH-03',
      `after ${this.did}, in the channel`,
    );
    if (obj.kind === 'folder') await learnCopiesBelow(r, m, obj, this.did);
  }
}

/**
 * After a folder was unlocalized without `recursive`: whether the localized copies below it stay is open (open choice
 * unlocalize-folder-content). The channel's listings say, top down; the model takes what they show (a copy listed, or
 * the master again), and anything else is a finding.
 */
async function learnCopiesBelow(r: Real, m: Model, folder: ModelFolder, did: string): Promise<void> {
  const queue = [...childrenOf(m, folder.key, 'folder'), ...childrenOf(m, folder.key, 'file')];
  while (queue.length) {
    const o = queue.shift()!;
    if (o.kind === 'folder') queue.push(...childrenOf(m, o.key, 'folder'), ...childrenOf(m, o.key, 'file'));
    if (!o.localized || isDeleted(m, o) || !visibleInChannel(m, o)) continue;
    const parent = parentOf(m, o)!;
    const op = o.kind === 'folder' ? 'folder.getFolders' : 'folder.getFiles';
    const { exchange } = await r.t.try(op, {
      path: o.kind === 'folder' ? { id: channelIdOf(parent) } : { folderId: channelIdOf(parent) },
      query: { nodeId: r.channel },
    });
    const body = success(r, exchange, 'MCH-03', `${did}, then listing ${label(parent, channelIdOf(parent))} in the channel`);
    const ids = listOf<ListedRecord>(body, o.kind === 'folder' ? 'folders' : 'files').map((x) => x.id);
    if (ids.includes(o.localized.id)) continue;
    if (ids.includes(o.id)) unlocalize(m, o);
    else
      stop(
        r,
        'MCH-03',
        `${did}: the channel lists neither the localized copy #${o.localized.id} of ${label(o)} below it nor its master`,
        exchange,
      );
  }
}

type DisinheritMode = 'exclude' | 'include' | 'disinherit' | 'reinherit';

/** Excludes, includes, disinherits or reinherits an object for the test's channel and reads back what the channel sees. */
export class Disinherit extends Step<{ index: number; kind: ObjectKind; mode: DisinheritMode }, ModelObject> {
  protected targets(m: Model) {
    // With a localized copy in the channel the target may refuse ("unlocalize first"): the contract does not say. Whether
    // exclusion keeps the channels an object is disinherited for is open (open choice exclude-keeps-disinherit): a
    // disinherited object is not excluded, so that the model knows what the channel sees once it is included again.
    return pick(
      candidates(m, this.p.kind).filter(
        (o) => !o.localized && !(o.kind === 'folder' && hasLocalizedWithin(m, o)) && !(this.p.mode === 'exclude' && o.disinherited),
      ),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, obj: ModelObject) {
    const { mode } = this.p;
    const channel = r.channel!;
    const body = mode === 'exclude' || mode === 'include' ? { exclude: mode === 'exclude' } : { [mode]: [channel] };
    this.did = `${obj.kind === 'folder' ? 'folder' : 'file'} disinherit ${label(obj)} ${JSON.stringify(body)}`;
    const op = obj.kind === 'folder' ? 'folder.disinherit.set' : 'file.disinherit.set';
    const exchange =
      obj.kind === 'folder'
        ? (await r.t.try(op, { path: { id: obj.id }, json: body })).exchange
        : (await r.t.try(op, { query: { id: [obj.id] }, json: body })).exchange;
    const unchanged =
      mode === 'exclude' ? obj.excluded : mode === 'include' ? !obj.excluded : mode === 'disinherit' ? obj.disinherited : !obj.disinherited;
    if (isRefusal(exchange) && (unchanged || obj.kind === 'file')) {
      // A request that changes nothing may be refused (open choice disinherit-nothing-to-change), and /file/disinherit may take
      // no file ids (open choice file-disinherit-ids): either way nothing changed.
      divergeOn(r, checkNo5xx(exchange, 'MCH-05'));
      this.did += ' → refused';
      return nothingToJudgeOnce(
        r.t,
        unchanged
          ? 'a disinherit request that changed nothing was refused (open choice disinherit-nothing-to-change)'
          : '/file/disinherit takes no file ids here ("described as page IDs": open choice file-disinherit-ids)',
      );
    }
    success(r, exchange, 'MCH-05', this.did);
    if (mode === 'exclude' || mode === 'include') obj.excluded = mode === 'exclude';
    else obj.disinherited = mode === 'disinherit';
    // "an object excluded or disinherited for a channel is not visible in that channel's listings"
    const parent = parentOf(m, obj)!;
    if (visibleInChannel(m, parent))
      await verify(
        r,
        m,
        { folder: parent.key, kind: obj.kind, view: 'channel', wastebin: 'exclude' },
        'MCH-06',
        `after ${this.did}, in the channel`,
      );
  }
}

/**
 * A folder disinherited for the channel with `recursive`, then the status of everything below it read back, at
 * every depth: MCH-05 "disinherit POST (single and list) sets `exclude`, `disinherit`, `reinherit`, `recursive`,
 * `disinheritDefault`; the GET forms read back what was set".
 */
export class DisinheritRecursive extends Step<{ index: number }, ModelFolder> {
  protected targets(m: Model) {
    return pick(
      nonRoot(m).filter((f) => !hasLocalizedWithin(m, f) && childrenOf(m, f.key, 'folder').length > 0),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const channel = r.channel!;
    this.did = `folder disinherit ${label(folder)} {"disinherit":[${channel}],"recursive":true}`;
    const { exchange } = await r.t.try('folder.disinherit.set', {
      path: { id: folder.id },
      json: { disinherit: [channel], recursive: true },
    });
    const below: ModelObject[] = [];
    const walk = (f: ModelFolder): void => {
      for (const o of [...childrenOf(m, f.key, 'folder'), ...childrenOf(m, f.key, 'file')]) {
        below.push(o);
        if (o.kind === 'folder') walk(o);
      }
    };
    walk(folder);
    if (isRefusal(exchange) && [folder, ...below].every((o) => o.disinherited)) {
      // Everything was disinherited already: a request that changes nothing may be refused (open choice disinherit-nothing-to-change).
      divergeOn(r, checkNo5xx(exchange, 'MCH-05'));
      this.did += ' → refused';
      return nothingToJudgeOnce(r.t, 'a disinherit request that changed nothing was refused (open choice disinherit-nothing-to-change)');
    }
    success(r, exchange, 'MCH-05', this.did);
    for (const o of [folder, ...below]) o.disinherited = true;
    // Without recursive only the folder itself takes the setting: the content read back below shows the difference.
    if (below.length) r.t.judged('folder.disinherit.set', 'recursive');
    for (const o of below) {
      // What an excluded object reports in `disinherit` is open (open choice disinherit-while-excluded).
      if (o.excluded) continue;
      const { exchange: read } =
        o.kind === 'folder'
          ? await r.t.try('folder.disinherit.get', { path: { id: o.id } })
          : await r.t.try('file.disinherit.get', { query: { id: [o.id] } });
      if (o.kind === 'file' && isRefusal(read)) {
        divergeOn(r, checkNo5xx(read, 'MCH-05'));
        nothingToJudgeOnce(r.t, '/file/disinherit takes no file ids here ("described as page IDs": open choice file-disinherit-ids)', read);
        continue;
      }
      const status = success<'folder.disinherit.get'>(r, read, 'MCH-05', `${this.did}, then reading ${label(o)}`);
      if (!listOf(status, 'disinherit').includes(channel))
        stop(
          r,
          'MCH-05',
          `${this.did}: ${label(o)} lies below it, yet its status reads disinherit ${JSON.stringify(status.disinherit)}`,
          read,
        );
    }
  }
}

/**
 * A file disinherited for another channel than the test's, one the target names among the file's `inheritable`
 * channels: MCH-06 hides it only in "that channel's listings", so the test's channel lists it as before (MCH-01
 * "an object of the master appears in the channel's listings"). Without a second channel there is nothing to do.
 */
export class DisinheritOther extends Step<{ index: number }, ModelFile> {
  protected targets(m: Model) {
    return pick(
      liveFiles(m).filter((f) => !f.localized && visibleInChannel(m, f)),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, file: ModelFile) {
    const { exchange: read, body } = await r.t.try('file.disinherit.get', { query: { id: [file.id] } });
    const other = listOf(body, 'inheritable').find((c) => typeof c === 'number' && c !== r.channel);
    this.did = `file disinherit ${label(file)} for channel ${JSON.stringify(other)}`;
    if (typeof other !== 'number')
      return nothingToJudgeOnce(
        r.t,
        `the target names no second channel that a file is inherited into (${body ? 'inheritable' : 'GET /file/disinherit refused'}): ` +
          "another channel's disinheritance is not judged",
        read,
      );
    const { exchange } = await r.t.try('file.disinherit.set', { query: { id: [file.id] }, json: { disinherit: [other] } });
    // A channel the target offered may still be refused; then there is nothing to judge.
    if (isRefusal(exchange)) {
      divergeOn(r, checkNo5xx(exchange, 'MCH-06'));
      this.did += ' → refused';
      return nothingToJudgeOnce(
        r.t,
        `the target refused to disinherit a file for channel ${other}, which it names in inheritable`,
        exchange,
      );
    }
    await verify(
      r,
      m,
      { folder: file.folder, kind: 'file', view: 'channel', wastebin: 'exclude' },
      'MCH-06',
      `after ${this.did}, in channel ${r.channel}`,
    );
    // The model knows only the test's channel: the other one's setting is taken back at once.
    await r.t.try('file.disinherit.set', { query: { id: [file.id] }, json: { reinherit: [other] } });
  }
}

/** A listing's parameters: `first`/`size` are skipCount/maxItems (Group L) or page-1/pageSize (Group P). */
interface ListParams {
  folder: number;
  kind: ObjectKind;
  style: ListStyle;
  view: ViewName;
  wastebin: WastebinMode;
  recursive: boolean;
  first: number;
  size: number;
}

/** Lists a model folder (a view, a wastebin mode, a style, a window) and compares the listing with the model. */
export class List extends Step<ListParams, ModelFolder> {
  protected targets(m: Model) {
    return pick(m.folders, this.p.folder);
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const { kind, style, view, wastebin, recursive, first, size } = this.p;
    const q: ListingQuery = { folder: folder.key, kind, view, wastebin, recursive };
    const prediction = listing(m, q);
    const total = prediction.entries.length;
    // The window is resolved against the predicted total, so it mostly lands inside the list (and at most one step past it).
    const skip = first % (total + 2);
    const pageNo = 1 + (size > 0 ? first % (Math.ceil(total / size) + 1) : first);
    const paging: Record<string, number> = style === 'legacy' ? { skipCount: skip, maxItems: size } : { page: pageNo, pageSize: size };
    const paged = first !== 0 || size !== -1;
    const op = listOperation(kind, style);
    this.did = `list ${op} ${label(folder, prediction.folderId)} (${view}, wastebin=${wastebin}${recursive ? ', recursive' : ''}${
      paged
        ? `, ${Object.entries(paging)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')}`
        : ''
    })`;
    const full = await fetchListing(r, m, q, r.t.requirement, style);
    if (!full) return;
    // A recursive listing that differs without a rule of its own breaks FLT-06 "recursive=true includes objects of all sub-folders".
    const findings = problemFindings(
      diffListing(m, q, prediction, full.records),
      recursive ? 'FLT-06' : r.t.requirement,
      this.did,
      full.exchange,
    );
    // "numItems is the number of items matching the filters before paging"; unpaged, nothing lies beyond the list.
    if (full.numItems !== total)
      findings.push(finding('PAG-05', 'model', `${this.did}: numItems ${JSON.stringify(full.numItems)}, expected ${total}`, full.exchange));
    if (full.hasMoreItems !== false)
      findings.push(
        finding(
          style === 'legacy' ? 'PAG-06' : 'PAG-01',
          'model',
          `${this.did}: the unpaged listing answers hasMoreItems ${JSON.stringify(full.hasMoreItems)}, expected false`,
          full.exchange,
        ),
      );
    divergeOn(r, findings);
    if (!paged) return;
    const page = (await fetchListing(r, m, q, r.t.requirement, style, paging))!;
    const slice = style === 'legacy' ? legacySlice(total, skip, size) : pageSlice(total, pageNo, size);
    const want = full.records.slice(slice.start, slice.end).map((x) => x.id);
    const got = page.records.map((x) => x.id);
    const rule = style === 'legacy' ? 'PAG-07' : size === 0 ? 'PAG-02' : 'PAG-03';
    const checks: Finding[] = [];
    // PAG-07 "returns items s+1 .. s+m of the full ordered list"; PAG-03 "returns items (k-1)n+1 .. kn"
    if (JSON.stringify(got) !== JSON.stringify(want))
      checks.push(
        finding(
          rule,
          'model',
          `${this.did}: expected ids ${JSON.stringify(want)} ` +
            `(items ${slice.start + 1}..${slice.end} of the unpaged ${JSON.stringify(full.records.map((x) => x.id))}), ` +
            `got ${JSON.stringify(got)}`,
          page.exchange,
        ),
      );
    // PAG-05 "hasMoreItems is true exactly when items exist beyond the returned slice"
    if (page.numItems !== total)
      checks.push(
        finding(
          'PAG-05',
          'model',
          `${this.did}: numItems ${JSON.stringify(page.numItems)}, expected ${total} (before paging)`,
          page.exchange,
        ),
      );
    if (page.hasMoreItems !== slice.hasMoreItems)
      checks.push(
        finding(
          'PAG-05',
          'model',
          `${this.did}: hasMoreItems ${JSON.stringify(page.hasMoreItems)}, ` +
            `expected ${slice.hasMoreItems} (${total - slice.end} items beyond the slice)`,
          page.exchange,
        ),
      );
    divergeOn(r, checks);
  }
}

/** Counts a model folder's objects and compares the counts with the model. */
export class Count extends Step<{ folder: number; view: ViewName; wastebin: WastebinMode; recursive: boolean }, ModelFolder> {
  protected targets(m: Model) {
    return pick(m.folders, this.p.folder);
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const { view, wastebin, recursive } = this.p;
    const q = (kind: ObjectKind, mode = wastebin): ListingQuery => ({ folder: folder.key, kind, view, wastebin: mode, recursive });
    const folders = listing(m, q('folder'));
    const files = listing(m, q('file'));
    this.did = `count ${label(folder, folders.folderId)} (${view}, wastebin=${wastebin}${recursive ? ', recursive' : ''})`;
    const query = {
      ...(view === 'channel' ? { nodeId: r.channel } : {}),
      ...(wastebin === 'exclude' ? {} : { wastebin }),
      ...(recursive ? { recursive } : {}),
    };
    const { exchange } = await r.t.try('folder.count', { path: { id: folders.folderId }, query });
    const counted = (body: ResponseOf['folder.count']) => `folders ${JSON.stringify(body.folders)}, files ${JSON.stringify(body.files)}`;
    if (!folders.listable) {
      divergeOn(r, checkNo5xx(exchange, r.t.requirement));
      const body = exchange.response?.json as ResponseOf['folder.count'] | undefined;
      if (isRefusal(exchange) || !body || (!body.folders && !body.files)) return;
      const rule = folders.unlistable === 'deleted' ? 'WST-04' : 'MCH-06';
      stop(
        r,
        rule,
        `${this.did}: the folder is ${folders.unlistable === 'deleted' ? 'deleted' : 'not visible in the channel'}, ` +
          `so a refusal or zero counts were expected, got ${counted(body)}`,
        exchange,
      );
    }
    if (isRefusal(exchange) && isDeleted(m, folder)) {
      divergeOn(r, checkNo5xx(exchange, r.t.requirement));
      return nothingToJudgeOnce(r.t, DELETED_BY_ID, exchange);
    }
    const body = success<'folder.count'>(r, exchange, 'FLD-06', this.did);
    // The model's counts differ between views, wastebin modes and depths.
    r.t.judged('folder.count', 'nodeId', 'wastebin', 'recursive');
    if (body.folders === folders.entries.length && body.files === files.entries.length) return;
    // FLD-06 "count reports folders, ..., files of the folder, matching what the listings return"; WST-04 leaves deleted items out
    const withDeleted =
      body.folders === listing(m, q('folder', 'include')).entries.length && body.files === listing(m, q('file', 'include')).entries.length;
    const rule = wastebin !== 'exclude' ? 'WST-04a' : withDeleted ? 'WST-04' : 'FLD-06';
    stop(
      r,
      rule,
      `${this.did}: expected folders ${folders.entries.length}, files ${files.entries.length} as the model lists them, ` +
        `got ${counted(body)}`,
      exchange,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Generators and the tests

const index = fc.nat({ max: 15 });
const fileNames = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('report.txt', 'Report.txt', 'notes.md', 'data.bin', 'Übersicht 2024.pdf') },
  { weight: 1, arbitrary: fileName() },
);
const folderNames = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('Alpha', 'alpha', 'Beta', 'Café') },
  { weight: 1, arbitrary: folderName() },
);
// Never empty: whether a server stores a file of no bytes, and how a record shows a size of 0, is not the point of these sequences.
const contents = fc.uint8Array({ minLength: 1, maxLength: 64 });
const kinds = fc.constantFrom<ObjectKind>('folder', 'file');

/** The commands, each over the model's objects by index (a pure precondition skips what cannot run). */
export const createFolder = fc.record({ parent: index, name: folderNames, failOnDuplicate: fc.boolean() }).map((p) => new CreateFolder(p));
const payload = fc.record({ name: fileNames, content: contents });
export const upload = fc.record({ folder: index, files: fc.tuple(payload), raw: fc.boolean() }).map((p) => new Upload(p));
/** A few files at once, to give listings something to page (at most ~150 files per test with the default runs). */
export const uploadBatch = fc
  .record({ folder: index, files: fc.array(payload, { minLength: 2, maxLength: 4 }), raw: fc.boolean() })
  .map((p) => new Upload(p));
export const copy = fc.record({ file: index, folder: index, newName: fc.option(fileNames, { nil: undefined }) }).map((p) => new Copy(p));
export const move = fc.record({ file: index, folder: index }).map((p) => new Move(p));
export const save = fc
  .record({
    file: index,
    name: fc.option(fc.oneof(fileNames, index), { nil: undefined }),
    // Words without blanks around them: whether a server keeps an empty or padded description as sent is not the point here.
    description: fc.option(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,-]{0,28}[A-Za-z0-9.]$/), { nil: undefined }),
    failOnDuplicate: fc.boolean(),
  })
  .map((p) => new Save(p));
export const saveContent = fc.record({ file: index, content: contents }).map((p) => new SaveContent(p));
export const remove = fc.record({ folder: index }).map((p) => new Delete(p));
export const removeInChannel = fc.record({ folder: index }).map((p) => new DeleteInChannel(p));
export const localizeCmd = fc.record({ index, kind: kinds }).map((p) => new Localize(p));
export const unlocalizeCmd = fc.record({ index }).map((p) => new Unlocalize(p));
export const disinherit = fc
  .record({ index, kind: kinds, mode: fc.constantFrom<DisinheritMode>('exclude', 'include', 'disinherit', 'reinherit') })
  .map((p) => new Disinherit(p));

/** What listings and counts may vary: views, wastebin modes, styles, paging. */
interface ListVariety {
  views: ViewName[];
  wastebins: WastebinMode[];
  styles?: ListStyle[];
  paging?: boolean;
  recursive?: boolean;
}

/** The list commands of a variety of views, wastebin modes, styles and windows. */
export function list(v: ListVariety): fc.Arbitrary<List> {
  const window = v.paging
    ? fc.oneof(
        { weight: 1, arbitrary: fc.constant({ first: 0, size: -1 }) },
        { weight: 5, arbitrary: fc.record({ first: fc.nat({ max: 3 }), size: fc.integer({ min: -1, max: 3 }) }) },
      )
    : fc.constant({ first: 0, size: -1 });
  return fc
    .record({
      folder: index,
      kind: kinds,
      style: fc.constantFrom(...(v.styles ?? ['legacy'])),
      view: fc.constantFrom(...v.views),
      wastebin: fc.constantFrom(...v.wastebins),
      recursive: v.recursive ? fc.boolean() : fc.constant(false),
      window,
    })
    .map(({ window: w, ...p }) => new List({ ...p, ...w, wastebin: p.view === 'channel' ? 'exclude' : p.wastebin }));
}

/** The count commands of a variety of views and wastebin modes. */
export function count(v: ListVariety): fc.Arbitrary<Count> {
  return fc
    .record({ folder: index, view: fc.constantFrom(...v.views), wastebin: fc.constantFrom(...v.wastebins), recursive: fc.boolean() })
    .map((p) => new Count({ ...p, wastebin: p.view === 'channel' ? 'exclude' : p.wastebin }));
}

/** The views and wastebin modes the target offers: the channel with multichannelling, include/only with the wastebin feature. */
export function variety(t: ConformanceContext, extra: Partial<ListVariety> = {}): ListVariety {
  const features = t.config.target.features;
  return {
    views: features.includes('multichannelling') && t.fixture.channelNodeId !== undefined ? ['master', 'channel'] : ['master'],
    wastebins: features.includes('wastebin') ? ['exclude', 'include', 'only'] : ['exclude'],
    ...extra,
  };
}

/**
 * The world every sequence starts from, so that most generated commands find something to act on: D0
 * (a fresh sandbox folder) holding folder D1 "Start" and file f1 "start.txt", and f2 "Start 2.bin" in D1.
 */
function start(): Step<unknown, unknown>[] {
  return [
    new CreateFolder({ parent: 0, name: 'Start', failOnDuplicate: false }),
    new Upload({ folder: 0, files: [{ name: 'start.txt', content: new TextEncoder().encode('start\n') }], raw: false }),
    new Upload({ folder: 1, files: [{ name: 'Start 2.bin', content: Uint8Array.of(0, 1, 2, 255) }], raw: true }),
  ] as Step<unknown, unknown>[];
}

/** A cover listing: a legacy listing of the test folder without the wastebin, whole unless `first`/`size` say otherwise. */
export function coverList(p: Pick<ListParams, 'kind' | 'view' | 'recursive'> & Partial<Pick<ListParams, 'first' | 'size'>>): List {
  return new List({ folder: 0, style: 'legacy', wastebin: 'exclude', first: 0, size: -1, ...p });
}

/**
 * Runs generated command sequences, each from a fresh start world in the sandbox, and records the findings of the shrunk failure;
 * the `cover` sequences run first in every run (t.property's cover).
 */
export async function sequences(
  t: ConformanceContext,
  commands: fc.Arbitrary<fc.AsyncCommand<Model, Real>>[],
  cover: fc.AsyncCommand<Model, Real>[][] = [],
): Promise<void> {
  const channel = t.config.target.features.includes('multichannelling') ? t.fixture.channelNodeId : undefined;
  // The start world is made alike in every run, in a fresh folder: after the first run its read-backs would repeat
  // the first run's, and prove nothing more. Its answers are still judged, and the sequence reads everything back.
  let made = 0;
  await t.property(
    fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'max' }),
    async (cmds) => {
      const real: Real = { t, channel, findings: [], quiet: made++ > 0 };
      const model = createModel(await t.folder());
      try {
        for (const step of start()) await step.run(model, real);
        real.quiet = false;
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } catch (err) {
        if (!(err instanceof Diverged)) throw err;
      } finally {
        await undoChannelState(real, model);
      }
      return real.findings;
    },
    // Half the runs: each run is a sequence of up to MAX_COMMANDS commands over every kind of change, so ten sequences
    // try each command in the outcomes the model tells apart (created, renamed, refused, hidden), and the cover
    // sequences make the rare ones certain; every planted fault is found as with twenty (BENCHMARKS 2026-11-27).
    { cover, runs: Math.ceil(t.config.runs / 2) },
  );
}

/**
 * Takes back what a run localized, excluded or disinherited for the channel, so that the suite files that list after it
 * find nothing of it hidden or localized (and a target that deletes no master with copies can remove the sandbox). Best
 * effort: refusals are no findings here.
 */
async function undoChannelState(r: Real, m: Model): Promise<void> {
  if (r.channel === undefined) return;
  const live = [...liveFiles(m), ...liveFolders(m)];
  for (const o of live.filter((x) => x.localized))
    await eitherIdStep(r.t, 'file.unlocalize', [o.id, o.localized!.id], {
      channelId: r.channel,
      ...(o.kind === 'folder' ? { recursive: true } : {}),
    });
  for (const o of live.filter((x) => x.excluded || x.disinherited)) {
    const json = { ...(o.excluded ? { exclude: false } : {}), ...(o.disinherited ? { reinherit: [r.channel] } : {}) };
    if (o.kind === 'folder') await r.t.try('folder.disinherit.set', { path: { id: o.id }, json });
    else await r.t.try('file.disinherit.set', { query: { id: [o.id] }, json });
  }
}

/**
 * A sequence that gives one name to several objects of a folder (file f1, a deleted folder and a live
 * one), then renames f1: the duplicate rules must still see every live holder of each name. FIL-03
 * "`failOnDuplicate` refuses a name already used in the folder" and FLD-02 "`failOnDuplicate=true`
 * refuses a name already used by a sibling" hold whatever else shares the name, after a rename for
 * the new name, and never count the file being renamed; UPL-05 "`overwrite=true` replaces a file of
 * the same name in the folder" finds the file among the others of its name, and in an empty folder
 * just creates it.
 */
export function sharedNames(): Step<unknown, unknown>[] {
  // Model order of the changeable files: f1 "start.txt" (D0), f2 (D1), f3 "other.txt" (D0); f3's only sibling is f1.
  const [f1, f3, siblingF1] = [0, 2, 0];
  // Live folders once D2 is deleted: D0, D1 "Start", D3.
  const [d0, d3] = [0, 2];
  const text = (name: string) => ({ name, content: new TextEncoder().encode(`${name}\n`) });
  return [
    new Save({ file: f1, name: 'Start.txt', description: undefined, failOnDuplicate: true }),
    new CreateFolder({ parent: d0, name: 'start.txt', failOnDuplicate: false }),
    new Delete({ folder: 1 }),
    new CreateFolder({ parent: d0, name: 'start.txt', failOnDuplicate: false }),
    new Upload({ folder: d0, files: [text('Start.txt')], raw: true, overwrite: true }),
    new Upload({ folder: d0, files: [text('other.txt')], raw: false }),
    new Save({ file: f3, name: siblingF1, description: undefined, failOnDuplicate: true }),
    new Upload({ folder: d3, files: [text('inner.txt')], raw: true, overwrite: true }),
    new Save({ file: f1, name: 'renamed.txt', description: undefined, failOnDuplicate: false }),
    new CreateFolder({ parent: d0, name: 'start.txt', failOnDuplicate: true }),
    new Save({ file: f3, name: siblingF1, description: undefined, failOnDuplicate: true }),
  ] as Step<unknown, unknown>[];
}
