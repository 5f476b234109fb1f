/**
 * The machinery of the model-based tests' commands (sequences.ts): the real side a command acts on, how it stops a
 * sequence where the target diverges from the model, the listings it reads back, and the base class of every command.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { problemOf, type CallSpec, type OperationId } from '../../harness/api.ts';
import { listOf } from '../../harness/records.ts';
import { nothingToJudgeOnce } from '../../harness/steps.ts';
import type { ResponseOf } from '../../schemas/types.ts';
import { checkNo5xx, checkRefused, finding, isRefusal, type Finding } from '../../harness/checks.ts';
import {
  diffListing,
  folderByKey,
  isDeleted,
  listing,
  liveFolders,
  type ListedRecord,
  type ListingQuery,
  type Model,
  type ModelObject,
  type ObjectKind,
  type Problem,
} from '../../harness/model.ts';
import type { ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';

/** What one run of a sequence works with. */
export interface Real {
  t: ConformanceContext;
  /** The channel whose view the commands check (feature multichannelling), else undefined. */
  channel: number | undefined;
  findings: Finding[];
  /** Read nothing back: the start world is being made again, as every run makes it (see `sequences`). */
  quiet?: boolean;
}

/** The target diverged from the model: the findings say how; the sequence stops so fast-check can shrink it. */
export class Diverged extends Error {
  override name = 'Diverged';
}

/** The model cannot follow the target past this step (what it did is not shown): the sequence ends without a finding. */
export class Unpredictable extends Diverged {
  override name = 'Unpredictable';
}

/** Records the findings and, when there are any, ends the sequence. */
export function divergeOn(r: Real, findings: Finding[]): void {
  if (!findings.length) return;
  r.findings.push(...findings);
  throw new Diverged(findings[0]!.message);
}

export function stop(r: Real, requirement: string, message: string, exchange?: Exchange): never {
  r.findings.push(finding(requirement, 'model', message, exchange));
  throw new Diverged(message);
}

/** Problems of the model turned into findings: those without a rule of their own belong to `requirement`. */
export function problemFindings(problems: Problem[], requirement: string, context: string, exchange: Exchange): Finding[] {
  return problems.map((p) => finding(p.requirement ?? requirement, 'model', `${context}: ${p.message}`, exchange));
}

/** The typed body of a request the contract says succeeds; otherwise a finding of `requirement` ends the sequence. */
export function success<K extends OperationId = OperationId>(
  r: Real,
  exchange: Exchange,
  requirement: string,
  what: string,
): ResponseOf[K] {
  const problem = problemOf(exchange);
  if (problem) stop(r, requirement, `${what}: expected success, got ${problem}`, exchange);
  return (exchange.response!.json ?? {}) as ResponseOf[K];
}

/** A refusal the contract requires: never a 5xx, never a success. */
export function refused(r: Real, exchange: Exchange, requirement: string, why: string): void {
  divergeOn(r, checkRefused(exchange, requirement, why));
}

export const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
export const quote = (name: string): string => JSON.stringify(name.length > 40 ? `${name.slice(0, 37)}...` : name);
export const label = (o: ModelObject, id = o.id): string => `${o.key}#${id}`;

// ---------------------------------------------------------------------------------------------
// Listings

export type ListStyle = 'legacy' | 'paged';

/** The listing operation of a kind: Group L (getFolders, getFiles) or Group P (GET /folder, GET /file). */
export function listOperation(kind: ObjectKind, style: ListStyle): 'folder.getFolders' | 'folder.getFiles' | 'folder.list' | 'file.list' {
  if (style === 'legacy') return kind === 'folder' ? 'folder.getFolders' : 'folder.getFiles';
  return kind === 'folder' ? 'folder.list' : 'file.list';
}

export function listSpec(r: Real, q: ListingQuery, folderId: number, style: ListStyle, paging: Record<string, number>): CallSpec {
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
export interface Listed {
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
export async function fetchListing(
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
export const DELETED_BY_ID =
  'the target does not find a deleted folder by its id with wastebin=include or only (open choice deleted-folder-by-id): its content is not listed through it';

/** Lists a folder (unpaged) and compares it with the model; differences are findings of `requirement` unless they name their own rule. */
export async function verify(r: Real, m: Model, q: ListingQuery, requirement: string, context: string): Promise<void> {
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
export abstract class Step<P, T> implements fc.AsyncCommand<Model, Real> {
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
export function pick<T>(list: readonly T[], index: number): T | undefined {
  return list.length ? list[index % list.length] : undefined;
}

export const nonRoot = (m: Model) => liveFolders(m).filter((f) => f.key !== 'D0');
