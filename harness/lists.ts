/**
 * List checks the paging, sorting, filtering and usage suites share: reading one listing of any
 * Group P / Group L / find operation into records, ids and paging members; comparing id lists with
 * messages that say what differs; partitions and timestamp bounds of filters; order relations over
 * several keys; slices of paged lists; and sandbox names whose order every collation agrees on.
 */
import fc from 'fast-check';
import type { ListRecordOf } from '../schemas/types.ts';
import { SetupError, stepFinding } from './api.ts';
import { finding, type Finding } from './checks.ts';
import { legacySlice } from './slices.ts';
import { listingOf } from './rules/answer.ts';
import { brief, duplicates, firstDifference, setDifference } from './oracles.ts';
import type { ConformanceContext } from './suite.ts';
import type { Exchange, QueryValue } from './transport.ts';

/** A listing the suites fetch with a query: every paging listing of the catalogue but the POST form, which takes a body. */
export type ListOp = Exclude<keyof ListRecordOf, 'folder.getFolders.post'>;

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
export async function fetchList<K extends ListOp>(
  t: ConformanceContext,
  op: K,
  folderId: number | undefined,
  query: Query = {},
): Promise<Listing<ListRecordOf[K]> | Finding> {
  // Where the listing takes its folder (a path parameter or the folderId query) and which member holds the list: the catalogue's word.
  const spec = listingOf(op)!;
  const path = spec.folderPath ? { [spec.folderPath]: folderId ?? 0 } : undefined;
  const { exchange, body, problem } = await t.try(op, {
    path,
    query: spec.folderPath || folderId === undefined ? query : { folderId, ...query },
  });
  if (!body) return stepFinding(t.requirement, op, exchange, problem ?? '');
  const answer = body as unknown as Record<string, unknown>;
  const list = answer[spec.member];
  const records = (Array.isArray(list) ? list : []) as ListRecordOf[K][];
  return {
    records,
    ids: records.map((r) => r.id ?? Number.NaN),
    numItems: typeof answer.numItems === 'number' ? answer.numItems : undefined,
    hasMoreItems: typeof answer.hasMoreItems === 'boolean' ? answer.hasMoreItems : undefined,
    exchange,
  };
}

/** Lists with one operation the test relies on; a refusal ends the test with the step finding. */
export async function mustList<K extends ListOp>(
  t: ConformanceContext,
  op: K,
  folderId: number | undefined,
  query: Query = {},
): Promise<Listing<ListRecordOf[K]>> {
  const result = await fetchList(t, op, folderId, query);
  if (isListing(result)) return result;
  throw new SetupError(result.message, result.exchange);
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

/** A request as a short text for messages: method, operation path and query. */
export function described(exchange: Exchange): string {
  const url = new URL(exchange.request.url);
  // The base URL's own path (e.g. /rest) is left out: the operation path starts at /folder or /file.
  return `${exchange.request.method} ${url.pathname.replace(/^.*?(?=\/(?:folder|file)(?:\/|$))/, '')}${url.search}`;
}

/** The listing must hold exactly `expected`, in that order. */
export function expectSequence(
  requirement: string,
  check: string,
  expected: readonly number[],
  actual: Listing<unknown>,
  why: string,
): Finding[] {
  const i = firstDifference(expected, actual.ids);
  if (i < 0) return [];
  return [
    finding(
      requirement,
      check,
      `${why}: expected ids ${brief(expected)}, got ${brief(actual.ids)} ` +
        `(first difference at position ${i + 1}) from ${described(actual.exchange)}`,
      actual.exchange,
    ),
  ];
}

/** The listing must hold exactly the ids of `expected`, each once, in any order. */
export function expectSet(
  requirement: string,
  check: string,
  expected: readonly number[],
  actual: Listing<unknown>,
  why: string,
): Finding[] {
  const { missing, extra } = setDifference(expected, actual.ids);
  const dup = duplicates(actual.ids);
  if (!missing.length && !extra.length && !dup.length) return [];
  const parts = [
    missing.length ? `missing ${brief(missing)}` : '',
    extra.length ? `unexpected ${brief(extra)}` : '',
    dup.length ? `listed twice ${brief(dup)}` : '',
  ].filter(Boolean);
  return [
    finding(
      requirement,
      check,
      `${why}: ${parts.join(', ')} (expected ${expected.length} items, got ${actual.ids.length}) from ${described(actual.exchange)}`,
      actual.exchange,
    ),
  ];
}

/** Every id of the listing must be one of `allowed` (a subset check, for filters judged by soundness). */
export function expectSubset(
  requirement: string,
  check: string,
  allowed: readonly number[],
  actual: Listing<unknown>,
  why: string,
): Finding[] {
  const extra = setDifference(allowed, actual.ids).extra;
  if (!extra.length) return [];
  return [finding(requirement, check, `${why}: unexpected ${brief(extra)} from ${described(actual.exchange)}`, actual.exchange)];
}

/** Every id of `required` must be in the listing. */
export function expectIncludes(
  requirement: string,
  check: string,
  required: readonly number[],
  actual: Listing<unknown>,
  why: string,
): Finding[] {
  const missing = setDifference(required, actual.ids).missing;
  if (!missing.length) return [];
  return [finding(requirement, check, `${why}: missing ${brief(missing)} from ${described(actual.exchange)}`, actual.exchange)];
}

/**
 * A boolean filter partitions the unfiltered list: "true: only ..., false: only ..., unset: both". The
 * true and false listings are disjoint and together hold exactly the unset listing's items.
 */
export function partitionFindings(
  requirement: string,
  name: string,
  unset: Listing<unknown>,
  yes: Listing<unknown>,
  no: Listing<unknown>,
  /** The contract's words for the filter unset (getPages' flags say "unset: both", insync "unset: ignore"). */
  unsetSays = 'unset: both',
): Finding[] {
  const out: Finding[] = [];
  const both = yes.ids.filter((id) => no.ids.includes(id));
  if (both.length)
    out.push(
      finding(
        requirement,
        'partition',
        `${name}=true and ${name}=false both list ${brief(both)}; a filter and its negation must not overlap (${described(yes.exchange)})`,
        yes.exchange,
      ),
    );
  const union = [...yes.ids, ...no.ids.filter((id) => !yes.ids.includes(id))];
  const { missing, extra } = setDifference(unset.ids, union);
  if (missing.length)
    out.push(
      finding(
        requirement,
        'partition',
        `${brief(missing)} listed without ${name} but neither with ${name}=true nor with ${name}=false (${described(no.exchange)})`,
        no.exchange,
      ),
    );
  if (extra.length)
    out.push(
      finding(
        requirement,
        'partition',
        `${brief(extra)} listed with ${name}=true or false but not without ${name}, "${unsetSays}" (${described(unset.exchange)})`,
        unset.exchange,
      ),
    );
  return out;
}

/** Ids of the records that satisfy a predicate. */
export const idsWhere = <R extends { id?: number }>(records: readonly R[], keep: (r: R) => boolean): number[] =>
  records.filter(keep).map((r) => r.id!);

/**
 * A timestamp bound: "since" keeps later items and drops earlier ones, "before" the reverse; an item
 * stamped exactly at the bound may go either way (the contract does not say whether bounds are inclusive).
 */
export function boundFindings<R extends { id?: number }>(
  requirement: string,
  what: string,
  records: readonly R[],
  stamp: (r: R) => number | undefined,
  bound: number,
  since: boolean,
  l: Listing<unknown>,
): Finding[] {
  const judgedRecords = records.filter((r) => typeof stamp(r) === 'number');
  const inside = idsWhere(judgedRecords, (r) => (since ? stamp(r)! > bound : stamp(r)! < bound));
  const outside = idsWhere(judgedRecords, (r) => (since ? stamp(r)! < bound : stamp(r)! > bound));
  const out = expectIncludes(
    requirement,
    'bound',
    inside,
    l,
    `${what}=${bound} must keep the items stamped ${since ? 'after' : 'before'} ${bound}`,
  );
  const wrong = l.ids.filter((id) => outside.includes(id));
  if (wrong.length)
    out.push(
      finding(
        requirement,
        'bound',
        `${what}=${bound} must drop the items stamped ${since ? 'before' : 'after'} ${bound}, ` +
          `but lists ${brief(wrong)} (${described(l.exchange)})`,
        l.exchange,
      ),
    );
  return out;
}

// ---------------------------------------------------------------------------------------------
// The fixture apart from the sandbox

/** The sandbox folders of the run: the folder the target names for them and the run's own below it. */
const sandboxesOf = (t: ConformanceContext): number[] => [t.fixture.sandboxParentFolderId, t.config.sandboxFolderId];

/**
 * Whether a folder holds the run's sandbox (is it, or has it below): listings of such a folder read recursively
 * change while they are read, since tests running beside the reader create and delete objects there. Told by the
 * folder's recursive listing, not by `motherId`, which a record may leave out (contract 2.1).
 */
export async function holdsSandbox(t: ConformanceContext, folderId: number, nodeId?: number): Promise<boolean> {
  const sandboxes = sandboxesOf(t);
  if (sandboxes.includes(folderId)) return true;
  const below = await mustList(t, 'folder.getFolders', folderId, {
    recursive: true,
    maxItems: -1,
    ...(nodeId === undefined ? {} : { nodeId }),
  });
  return below.ids.some((id) => sandboxes.includes(id));
}

/** One top folder of the fixture and the ids of every folder below it. */
export interface FixtureTop {
  id: number;
  below: number[];
}

/**
 * The folders directly below `root` that hold no sandbox, each with every folder below it, from recursive listings
 * (never `motherId`): what a test may read recursively while other tests change the sandbox.
 */
export async function fixtureTops(t: ConformanceContext, root: number, nodeId?: number): Promise<FixtureTop[]> {
  const view = nodeId === undefined ? {} : { nodeId };
  const sandboxes = sandboxesOf(t);
  const out: FixtureTop[] = [];
  for (const id of (await mustList(t, 'folder.getFolders', root, { maxItems: -1, ...view })).ids) {
    if (sandboxes.includes(id)) continue;
    const below = (await mustList(t, 'folder.getFolders', id, { recursive: true, maxItems: -1, ...view })).ids;
    if (!below.some((b) => sandboxes.includes(b))) out.push({ id, below });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Paging slices

/** One listed object as the slice relation sees it: its id and its sort key. */
export interface Keyed {
  id: unknown;
  key: unknown;
}

/** Group L: `skipCount` items skipped (negative as 0), then at most `maxItems` (negative: all); the slice rule of the model. */
export function legacyPage<T>(full: readonly T[], skip: number, max: number): T[] {
  const { start, end } = legacySlice(full.length, skip, max);
  return full.slice(start, end);
}

/**
 * Why a page of a list does not agree with the unpaged list in the same order, or undefined when it
 * does: position by position the same sort key as the expected slice (objects with equal keys may
 * trade places, the contract orders by key only), every id from the full list, none twice.
 */
export function sliceDisagreement(full: readonly Keyed[], page: readonly Keyed[], skip: number, max: number): string | undefined {
  const expected = legacyPage(full, skip, max);
  const ids = page.map((p) => p.id);
  if (page.length !== expected.length)
    return `${page.length} items instead of the ${expected.length} at positions ${skip + 1}.. of the ${full.length} listed without paging`;
  const twice = duplicates(ids);
  if (twice.length) return `ids listed twice: ${brief(twice)}`;
  const known = new Set(full.map((f) => f.id));
  const strangers = ids.filter((id) => !known.has(id));
  if (strangers.length) return `ids that the unpaged list does not hold: ${brief(strangers)}`;
  const at = page.findIndex((p, i) => p.key !== expected[i]!.key);
  if (at >= 0)
    return (
      `position ${skip + at + 1} holds ${JSON.stringify(page[at]!.key)} ` +
      `where the unpaged list has ${JSON.stringify(expected[at]!.key)}`
    );
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Names for sandbox lists

/**
 * `count` distinct names in mixed case: each starts with a different letter, the initial of every
 * second name (alphabetically) upper-cased, so that code point order (upper-case initials first) and
 * case-insensitive order differ and a listing shows which collation it follows; the rest is lower-case.
 */
export function mixedCaseNames(seed: number, count: number): string[] {
  const letters = fc.sample(fc.shuffledSubarray([...'abcdefghijklmnopqrstuvwxyz'], { minLength: count, maxLength: count }), {
    seed,
    numRuns: 1,
  })[0]!;
  const tails = fc.sample(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 4, maxLength: 4 }), {
    seed: seed + 1,
    numRuns: count,
  });
  const initials = [...letters].sort();
  return letters.map((l, i) => `${initials.indexOf(l) % 2 === 1 ? l.toUpperCase() : l}${tails[i]!}`);
}

/** `count` distinct lower-case words of `length` letters (none contains another), from the seed. */
export function words(seed: number, count: number, length = 7): string[] {
  const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
  return fc.sample(
    fc.uniqueArray(fc.string({ unit: letter, minLength: length, maxLength: length }), { minLength: count, maxLength: count }),
    { seed, numRuns: 1 },
  )[0]!;
}
