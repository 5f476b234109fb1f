/**
 * What the paging, sorting and filtering suites share: reading one listing of any Group P / Group L /
 * find operation into records, ids and paging members; comparing id lists with messages that say what
 * differs; order relations over several keys; sandbox names whose order every collation agrees on;
 * and the fixture's folders (outside the run's sandbox), found once per suite file.
 */
import fc from 'fast-check';
import { problemOf, requestOf, stepFinding } from '../../harness/api.ts';
import type { Finding } from '../../harness/checks.ts';
import { brief, duplicates, firstDifference, setDifference, type Direction } from '../../harness/oracles.ts';
import { StepFailed, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange, QueryValue } from '../../harness/transport.ts';
import type { File, Folder, Page, Template, User } from '../../schemas/types.ts';

/** The record type each listing operation returns. */
export interface RecordOf {
  'folder.list': Folder;
  'file.list': File;
  'folder.getFiles': File;
  'folder.getFolders': Folder;
  'folder.getPages': Page;
  'folder.getTemplates': Template;
  'folder.findFiles': File;
  'folder.findPages': Page;
}

/** A listing operation of the contract. */
export type ListOp = keyof RecordOf;

/** Where each listing takes its folder (a path parameter or the `folderId` query) and which member holds the list. */
const LISTS: Record<ListOp, { member: string; path?: string }> = {
  'folder.list': { member: 'items' },
  'file.list': { member: 'items' },
  'folder.getFiles': { member: 'files', path: 'folderId' },
  'folder.getFolders': { member: 'folders', path: 'id' },
  'folder.getPages': { member: 'pages', path: 'id' },
  'folder.getTemplates': { member: 'templates', path: 'folderId' },
  'folder.findFiles': { member: 'files' },
  'folder.findPages': { member: 'pages' },
};

/** A query of a listing; undefined values are left out. */
export type Query = Record<string, QueryValue | undefined>;

/** One answered listing: its records, their ids in order, and the paging members when present. */
export interface Listing<R> {
  records: R[];
  ids: number[];
  numItems?: number;
  hasMoreItems?: boolean;
  exchange: Exchange;
}

/**
 * Lists with one operation, returning the listing or, when the call is refused or unanswered, the
 * step finding (not recorded: inside a property only the smallest failing case is recorded).
 */
export async function fetchList<K extends ListOp>(t: ConformanceContext, op: K, folderId: number | undefined, query: Query = {}): Promise<Listing<RecordOf[K]> | Finding> {
  const spec = LISTS[op];
  const path = spec.path ? { [spec.path]: folderId ?? 0 } : undefined;
  const exchange = await t.send(requestOf(op, { path, query: spec.path || folderId === undefined ? query : { folderId, ...query } }));
  const problem = problemOf(exchange);
  if (problem) return stepFinding(t.requirement, op, exchange, problem);
  const body = exchange.response!.json as Record<string, unknown>;
  const list = body[spec.member];
  const records = (Array.isArray(list) ? list : []) as RecordOf[K][];
  return {
    records,
    ids: records.map((r) => r.id ?? Number.NaN),
    numItems: typeof body.numItems === 'number' ? body.numItems : undefined,
    hasMoreItems: typeof body.hasMoreItems === 'boolean' ? body.hasMoreItems : undefined,
    exchange,
  };
}

/** Lists with one operation the test relies on; a refusal is recorded as a step finding and ends the test. */
export async function mustList<K extends ListOp>(t: ConformanceContext, op: K, folderId: number | undefined, query: Query = {}): Promise<Listing<RecordOf[K]>> {
  const result = await fetchList(t, op, folderId, query);
  if ('records' in result) return result;
  t.record([result]);
  throw new StepFailed(result.message);
}

/** True when a fetchList result is a listing (not a step finding). */
export function isListing<R>(result: Listing<R> | Finding): result is Listing<R> {
  return 'records' in result;
}

/** Runs a check over a fetched listing, or returns the step finding when the listing was refused. */
export async function judged<R>(result: Promise<Listing<R> | Finding>, check: (l: Listing<R>) => Finding[]): Promise<Finding[]> {
  const l = await result;
  return isListing(l) ? check(l) : [l];
}

/** An error finding of a semantic check. */
export function fail(requirement: string, check: string, message: string, exchange?: Exchange): Finding {
  return { requirement, check, severity: 'error', message, exchange };
}

/** A request as a short text for messages: method, operation path and query. */
export function described(exchange: Exchange): string {
  const url = new URL(exchange.request.url);
  // The base URL's own path (e.g. /rest) is left out: the operation path starts at /folder or /file.
  return `${exchange.request.method} ${url.pathname.replace(/^.*?(?=\/(?:folder|file)(?:\/|$))/, '')}${url.search}`;
}

/** The listing must hold exactly `expected`, in that order. */
export function expectSequence(requirement: string, check: string, expected: readonly number[], actual: Listing<unknown>, why: string): Finding[] {
  const i = firstDifference(expected, actual.ids);
  if (i < 0) return [];
  return [fail(requirement, check, `${why}: expected ids ${brief(expected)}, got ${brief(actual.ids)} (first difference at position ${i + 1}) from ${described(actual.exchange)}`, actual.exchange)];
}

/** The listing must hold exactly the ids of `expected`, each once, in any order. */
export function expectSet(requirement: string, check: string, expected: readonly number[], actual: Listing<unknown>, why: string): Finding[] {
  const { missing, extra } = setDifference(expected, actual.ids);
  const dup = duplicates(actual.ids);
  if (!missing.length && !extra.length && !dup.length) return [];
  const parts = [missing.length ? `missing ${brief(missing)}` : '', extra.length ? `unexpected ${brief(extra)}` : '', dup.length ? `listed twice ${brief(dup)}` : ''].filter(Boolean);
  return [fail(requirement, check, `${why}: ${parts.join(', ')} (expected ${expected.length} items, got ${actual.ids.length}) from ${described(actual.exchange)}`, actual.exchange)];
}

/** Every id of the listing must be one of `allowed` (a subset check, for filters judged by soundness). */
export function expectSubset(requirement: string, check: string, allowed: readonly number[], actual: Listing<unknown>, why: string): Finding[] {
  const extra = setDifference(allowed, actual.ids).extra;
  if (!extra.length) return [];
  return [fail(requirement, check, `${why}: unexpected ${brief(extra)} from ${described(actual.exchange)}`, actual.exchange)];
}

/** Every id of `required` must be in the listing. */
export function expectIncludes(requirement: string, check: string, required: readonly number[], actual: Listing<unknown>, why: string): Finding[] {
  const missing = setDifference(required, actual.ids).missing;
  if (!missing.length) return [];
  return [fail(requirement, check, `${why}: missing ${brief(missing)} from ${described(actual.exchange)}`, actual.exchange)];
}

/**
 * A boolean filter partitions the unfiltered list: "true: only ..., false: only ..., unset: both". The
 * true and false listings are disjoint and together hold exactly the unset listing's items.
 */
export function partitionFindings(requirement: string, name: string, unset: Listing<unknown>, yes: Listing<unknown>, no: Listing<unknown>): Finding[] {
  const out: Finding[] = [];
  const both = yes.ids.filter((id) => no.ids.includes(id));
  if (both.length) out.push(fail(requirement, 'partition', `${name}=true and ${name}=false both list ${brief(both)}; a filter and its negation must not overlap (${described(yes.exchange)})`, yes.exchange));
  const union = [...yes.ids, ...no.ids.filter((id) => !yes.ids.includes(id))];
  const { missing, extra } = setDifference(unset.ids, union);
  if (missing.length) out.push(fail(requirement, 'partition', `${brief(missing)} listed without ${name} but neither with ${name}=true nor with ${name}=false (${described(no.exchange)})`, no.exchange));
  if (extra.length) out.push(fail(requirement, 'partition', `${brief(extra)} listed with ${name}=true or false but not without ${name}, "unset: both" (${described(unset.exchange)})`, unset.exchange));
  return out;
}

/** Ids of the records that satisfy a predicate. */
export const idsWhere = <R extends { id?: number }>(records: readonly R[], keep: (r: R) => boolean): number[] => records.filter(keep).map((r) => r.id!);

/** A search term (lower-case) matches a record: its id equals the term, or its name, description or an extra text contains it. */
export function termMatches(r: { id?: number; name?: string; description?: string }, term: string, extra: readonly (string | undefined)[] = []): boolean {
  return String(r.id) === term || [r.name, r.description, ...extra].some((s) => s?.toLowerCase().includes(term) ?? false);
}

/** The texts, lower-cased, a creator/editor pattern may be matched against: login, names, full name, e-mail. */
export function userTexts(u: User | undefined): string[] {
  return u ? [u.login, u.firstName, u.lastName, `${u.firstName ?? ''} ${u.lastName ?? ''}`, u.email].filter((s): s is string => !!s).map((s) => s.toLowerCase()) : [];
}

/**
 * A timestamp bound: "since" keeps later items and drops earlier ones, "before" the reverse; an item
 * stamped exactly at the bound may go either way (the contract does not say whether bounds are inclusive).
 */
export function boundFindings<R extends { id?: number }>(requirement: string, what: string, records: readonly R[], stamp: (r: R) => number | undefined, bound: number, since: boolean, l: Listing<unknown>): Finding[] {
  const judgedRecords = records.filter((r) => typeof stamp(r) === 'number');
  const inside = idsWhere(judgedRecords, (r) => (since ? stamp(r)! > bound : stamp(r)! < bound));
  const outside = idsWhere(judgedRecords, (r) => (since ? stamp(r)! < bound : stamp(r)! > bound));
  const out = expectIncludes(requirement, 'bound', inside, l, `${what}=${bound} must keep the items stamped ${since ? 'after' : 'before'} ${bound}`);
  const wrong = l.ids.filter((id) => outside.includes(id));
  if (wrong.length) out.push(fail(requirement, 'bound', `${what}=${bound} must drop the items stamped ${since ? 'before' : 'after'} ${bound}, but lists ${brief(wrong)} (${described(l.exchange)})`, l.exchange));
  return out;
}

/** A comparable key of a record; undefined when the record lacks it. */
export type Key<R> = (record: R) => string | number | boolean | undefined;

/** One attribute of a multi-key order, with its direction. */
export interface OrderSpec<R> {
  name: string;
  key: Key<R>;
  dir: Direction;
}

function compareKey(a: string | number | boolean | undefined, b: string | number | boolean | undefined): number {
  if (a === b) return 0;
  if (a === undefined || b === undefined) return 0;
  if (typeof a === 'string' && typeof b === 'string') {
    const [x, y] = [a.toLowerCase(), b.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a) - Number(b);
}

/**
 * The first position where consecutive records break a multi-key order (later keys break ties of
 * earlier ones; equal records may come in any order), or -1. Strings compare ignoring case: the
 * suites use it on lower-case names of one alphabet, where every collation agrees.
 */
export function orderViolation<R>(records: readonly R[], specs: readonly OrderSpec<R>[]): number {
  for (let i = 1; i < records.length; i++) {
    for (const s of specs) {
      const c = compareKey(s.key(records[i - 1]!), s.key(records[i]!));
      if (c === 0) continue;
      if (s.dir === 'asc' ? c > 0 : c < 0) return i;
      break;
    }
  }
  return -1;
}

/**
 * `count` distinct names in mixed case: each starts with a different letter, the initial of every
 * second name (alphabetically) upper-cased, so that code point order (upper-case initials first) and
 * case-insensitive order differ and a listing shows which collation it follows; the rest is lower-case.
 */
export function mixedCaseNames(seed: number, count: number): string[] {
  const letters = fc.sample(fc.shuffledSubarray([...'abcdefghijklmnopqrstuvwxyz'], { minLength: count, maxLength: count }), { seed, numRuns: 1 })[0]!;
  const tails = fc.sample(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 4, maxLength: 4 }), { seed: seed + 1, numRuns: count });
  const initials = [...letters].sort();
  return letters.map((l, i) => `${initials.indexOf(l) % 2 === 1 ? l.toUpperCase() : l}${tails[i]!}`);
}

/** `count` distinct lower-case words of `length` letters (none contains another), from the seed. */
export function words(seed: number, count: number, length = 7): string[] {
  const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
  return fc.sample(fc.uniqueArray(fc.string({ unit: letter, minLength: length, maxLength: length }), { minLength: count, maxLength: count }), { seed, numRuns: 1 })[0]!;
}

/** A size for sandbox lists: between min and max, from the test's seed. */
export function seededSize(seed: number, min: number, max: number): number {
  return fc.sample(fc.integer({ min, max }), { seed, numRuns: 1 })[0]!;
}

// ---------------------------------------------------------------------------------------------
// The fixture's folders

let fixtureFoldersOnce: Promise<Folder[]> | undefined;

/** A listing discovery relies on; a refusal fails every test that needs the discovery, loudly, never silently. */
async function discoveryList<K extends ListOp>(t: ConformanceContext, op: K, folderId: number, query: Query = {}): Promise<Listing<RecordOf[K]>> {
  const result = await fetchList(t, op, folderId, query);
  if (isListing(result)) return result;
  throw new Error(`reading the fixture's folders failed: ${result.message}`);
}

/**
 * The fixture's folders in the master view: the root's sub-folders and all their descendants, without
 * the sandbox parent and anything below it (other tests create and delete there while this runs).
 */
export function fixtureFolders(t: ConformanceContext): Promise<Folder[]> {
  fixtureFoldersOnce ??= (async () => {
    const { masterRootFolderId: root, sandboxParentFolderId: sandbox } = t.fixture;
    const top = (await discoveryList(t, 'folder.getFolders', root)).records.filter((f) => f.id !== sandbox);
    const all = [...top];
    for (const f of top) if (f.id !== undefined) all.push(...(await discoveryList(t, 'folder.getFolders', f.id, { recursive: true })).records);
    const mother = new Map(all.map((f) => [f.id, f.motherId]));
    const underSandbox = (f: Folder): boolean => {
      for (let id: number | undefined = f.id, depth = 0; id !== undefined && depth < 100; id = mother.get(id), depth++) if (id === sandbox) return true;
      return false;
    };
    const seen = new Set<number>();
    return all.filter((f) => f.id !== undefined && !underSandbox(f) && !seen.has(f.id) && Boolean(seen.add(f.id)));
  })();
  fixtureFoldersOnce.catch(() => (fixtureFoldersOnce = undefined));
  return fixtureFoldersOnce;
}

/** The fixture folder (outside the sandbox) with the most descendant folders, or undefined when no fixture folder has sub-folders. */
export async function fixtureFolderTree(t: ConformanceContext): Promise<number | undefined> {
  const folders = await fixtureFolders(t);
  const parent = new Map(folders.map((f) => [f.id!, f.motherId]));
  const count = new Map<number, number>();
  for (const f of folders) {
    for (let m = f.motherId, depth = 0; m !== undefined && parent.has(m) && depth < 100; m = parent.get(m), depth++) count.set(m, (count.get(m) ?? 0) + 1);
  }
  return [...count.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

let fileFoldersOnce: Promise<{ folderId: number; files: File[] }[]> | undefined;

/** Fixture folders that hold files (of the first 40 fixture folders), with their files (master view, unfiltered), most files first. */
export function fixtureFileFolders(t: ConformanceContext): Promise<{ folderId: number; files: File[] }[]> {
  fileFoldersOnce ??= (async () => {
    const out: { folderId: number; files: File[] }[] = [];
    // A bounded look: a vendor's fixture may hold thousands of folders.
    for (const f of (await fixtureFolders(t)).slice(0, 40)) {
      const files = await discoveryList(t, 'folder.getFiles', f.id!);
      if (files.records.length) out.push({ folderId: f.id!, files: files.records });
    }
    return out.sort((a, b) => b.files.length - a.files.length);
  })();
  fileFoldersOnce.catch(() => (fileFoldersOnce = undefined));
  return fileFoldersOnce;
}

/** A fixture folder with files to filter and sort: the fullest one holding at most `max` files (else the smallest), so lists stay quick. */
export async function fixtureFileFolder(t: ConformanceContext, max = 60): Promise<{ folderId: number; files: File[] } | undefined> {
  const folders = await fixtureFileFolders(t);
  return folders.find((f) => f.files.length <= max) ?? folders.at(-1);
}

/** Whether the target declares a feature (for checks inside a test that only some targets can answer). */
export function hasFeature(t: ConformanceContext, feature: ConformanceContext['config']['target']['features'][number]): boolean {
  return t.config.target.features.includes(feature);
}
