/**
 * Paging rules one answer can refute: the returned slice against skipCount/maxItems or page/pageSize,
 * numItems against the slice (PAG-05 alone: numItems is the count before paging), and hasMoreItems
 * against numItems and the slice. A skipCount or maxItems the contract
 * gives no meaning to (negative, below -1), or a parameter given twice, is not judged: robustness.
 */
import { legacySlice, pageSlice, type Slice } from '../slices.ts';
import { positions, type ListAnswer, type Rule } from './answer.ts';

/** The paging parameters whose effect the Group L, find and usage rules judge, and those of Group P. */
const LEGACY = ['skipCount', 'maxItems'] as const;
const PAGE = ['page', 'pageSize'] as const;

/** What a Group L, find or usage request asked for, and the requirement its slice is judged under. */
interface LegacyAsk {
  requirement: string;
  skip: number;
  max: number;
  asked: string;
}

/** The slice a Group L, find or usage answer was asked for; undefined when the request is not judged. */
function legacyAsk(a: ListAnswer): LegacyAsk | undefined {
  if (a.spec.paging === 'P') return undefined;
  const skip = a.params.int('skipCount');
  const max = a.params.int('maxItems');
  if (skip === null || max === null || (skip ?? 0) < 0 || (max ?? -1) < -1) return undefined;
  const find = a.spec.paging === 'find';
  // Contract 8: maxItems "default -1 (all items)" for Group L, "default 100; -1 returns all" for findFiles/findPages.
  const m = max ?? (find ? 100 : -1);
  // The defaults have requirements of their own (PAG-06, PAG-08, PAG-09); a skipCount or maxItems given is PAG-07's rule.
  let requirement = 'PAG-07';
  if (a.spec.paging === 'usage') requirement = 'USE-03';
  else if (find && skip === undefined && (max === undefined || max < 0)) requirement = 'PAG-08';
  else if (!find && skip === undefined && max === undefined)
    requirement = a.op === 'folder.getPages' || a.op === 'folder.getTemplates' ? 'PAG-09' : 'PAG-06';
  const asked = `skipCount=${skip ?? 0}${skip === undefined ? ' (default)' : ''}&maxItems=${m}${max === undefined ? ' (default)' : ''}`;
  return { requirement, skip: skip ?? 0, max: m, asked };
}

/** What a Group P request asked for; undefined when it is not judged. */
function pageAsk(a: ListAnswer): { page: number; size: number; asked: string } | undefined {
  if (a.spec.paging !== 'P') return undefined;
  const page = a.params.int('page');
  const size = a.params.int('pageSize');
  if (page === null || size === null || (page ?? 1) < 1 || (size ?? -1) < -1) return undefined;
  const k = page ?? 1;
  const z = size ?? -1;
  return {
    page: k,
    size: z,
    asked: `page=${k}${page === undefined ? ' (default)' : ''}&pageSize=${z}${size === undefined ? ' (default)' : ''}`,
  };
}

/** Whether two slices differ in what the slice and hasMoreItems rules read of an answer: its length, or hasMoreItems. */
const differ = (x: Slice, y: Slice): boolean => x.end - x.start !== y.end - y.start || x.hasMoreItems !== y.hasMoreItems;

/**
 * Whether a Group L, find or usage answer could show a paging parameter: with numItems, the slice a server
 * that ignored it (took its default) would answer has another length or hasMoreItems. Without numItems
 * the rules read too little to say.
 */
function legacyShows(a: ListAnswer, parameter: string): boolean {
  const q = legacyAsk(a);
  if (!q || a.numItems === undefined) return false;
  const ignored =
    parameter === 'skipCount' ? legacySlice(a.numItems, 0, q.max) : legacySlice(a.numItems, q.skip, a.spec.paging === 'find' ? 100 : -1);
  return differ(legacySlice(a.numItems, q.skip, q.max), ignored);
}

/** Whether a Group P answer could show `page` or `pageSize`, as legacyShows does for Group L. */
function pageShows(a: ListAnswer, parameter: string): boolean {
  const q = pageAsk(a);
  if (!q || a.numItems === undefined) return false;
  const ignored = parameter === 'page' ? pageSlice(a.numItems, 1, q.size) : pageSlice(a.numItems, q.page, -1);
  return differ(pageSlice(a.numItems, q.page, q.size), ignored);
}

/** The Group P requirement of a page size: PAG-01 unpaged, PAG-02 zero, PAG-03 a page. */
const pageRequirement = (size: number): string => (size < 0 ? 'PAG-01' : size === 0 ? 'PAG-02' : 'PAG-03');

/** The contract's words for a zero limit: "maxItems=0 returns none" (PAG-07), "pageSize=0: no items" (PAG-02). */
const ZERO = { maxItems: 'maxItems=0 returns none', pageSize: 'pageSize=0 returns no items' } as const;

/**
 * Why a slice of `length` items is not the one asked for, from the answer alone: more than the limit. What numItems
 * selects is PAG-05's rule (numItemsProblems): the other requirements do not lean on what numItems means.
 */
function sliceProblems(a: ListAnswer, limit: number, asked: string, param: keyof typeof ZERO): string[] {
  if (limit >= 0 && a.length > limit)
    return [
      limit === 0
        ? `${ZERO[param]}, but ${a.length} items were returned (${asked})`
        : `${a.length} items were returned, more than ${param}=${limit} (${asked})`,
    ];
  return [];
}

/** PAG-05: "numItems is the number of items matching the filters before paging", so the slice asked for is fixed by it. */
function numItemsProblems(a: ListAnswer, sliceOf: (total: number) => Slice, asked: string): string[] {
  if (a.numItems === undefined) return [];
  const slice = sliceOf(a.numItems);
  if (a.length === slice.end - slice.start) return [];
  return [
    `${a.length} items were returned, but with numItems ${a.numItems} (the items matching before paging) ${asked} selects ${positions(slice)}; either the slice or numItems is wrong`,
  ];
}

/** A slice rule of Group L, find or usage paging, under the requirement its request falls to. */
function legacySliceRule(requirement: string, sentence: string): Rule {
  return {
    requirement,
    check: 'slice',
    sentence,
    parameters: LEGACY,
    shows: legacyShows,
    applies: (a) => legacyAsk(a)?.requirement === requirement,
    refute: (a) => {
      const q = legacyAsk(a)!;
      return sliceProblems(a, q.max, q.asked, 'maxItems');
    },
  };
}

/** A slice rule of Group P paging, under the requirement of its page size. */
function pageSliceRule(requirement: string, sentence: string): Rule {
  return {
    requirement,
    check: 'slice',
    sentence,
    parameters: PAGE,
    shows: pageShows,
    applies: (a) => {
      const q = pageAsk(a);
      return q !== undefined && pageRequirement(q.size) === requirement;
    },
    refute: (a) => {
      const q = pageAsk(a)!;
      return sliceProblems(a, q.size, q.asked, 'pageSize');
    },
  };
}

/**
 * PAG-05: "hasMoreItems is true exactly when items exist beyond the returned slice." With numItems the
 * slice's end is known; without it, a true hasMoreItems still needs a full slice and a limit.
 */
function hasMoreItemsProblems(
  a: ListAnswer,
  sliceOf: (total: number) => Slice,
  limit: number,
  asked: string,
  unlimited: boolean,
): string[] {
  if (a.numItems !== undefined) {
    const slice = sliceOf(a.numItems);
    if (a.hasMoreItems === slice.hasMoreItems) return [];
    const beyond = slice.hasMoreItems ? `items ${slice.end + 1}..${a.numItems} lie beyond it` : 'no item lies beyond it';
    return [
      `hasMoreItems is ${a.hasMoreItems}, but with numItems ${a.numItems} the slice ${asked} ends at item ${slice.end}, so ${beyond}`,
    ];
  }
  if (a.hasMoreItems && unlimited)
    return [`hasMoreItems is true, but ${asked} sets no limit: every item from the first one asked for was returned`];
  if (a.hasMoreItems && limit >= 0 && a.length < limit)
    return [
      `hasMoreItems is true, but only ${a.length} items were returned of the ${limit} asked for (${asked}): a slice with items beyond it is full`,
    ];
  return [];
}

/** A Group L default that lists "all items" (PAG-06, PAG-09): no item lies beyond the answer, so hasMoreItems is false. */
function defaultAllRule(requirement: string, sentence: string): Rule {
  return {
    requirement,
    check: 'hasMoreItems',
    sentence,
    parameters: LEGACY,
    shows: legacyShows,
    applies: (a) => a.hasMoreItems !== undefined && legacyAsk(a)?.requirement === requirement,
    refute: (a) =>
      a.hasMoreItems
        ? [`hasMoreItems is true, but ${legacyAsk(a)!.asked} lists every item: without a limit no items lie beyond the answer`]
        : [],
  };
}

/** The paging rules, each under its requirement. */
export const PAGING_RULES: readonly Rule[] = [
  pageSliceRule('PAG-01', 'Group P, `pageSize` absent (= -1): all items, no paging'),
  {
    requirement: 'PAG-01',
    check: 'hasMoreItems',
    sentence: 'Group P, `pageSize` absent (= -1): all items, no paging; `hasMoreItems` false.',
    parameters: PAGE,
    shows: pageShows,
    applies: (a) => a.hasMoreItems !== undefined && (pageAsk(a)?.size ?? 0) < 0,
    refute: (a) =>
      a.hasMoreItems
        ? [`hasMoreItems is true on an unpaged list (${pageAsk(a)!.asked}): without paging no items lie beyond the answer`]
        : [],
  },
  pageSliceRule('PAG-02', 'Group P, `pageSize=0`: no items.'),
  pageSliceRule('PAG-03', 'Group P, paging starts at 1: `page=k&pageSize=n` returns items (k-1)n+1 .. kn of the full ordered list.'),
  legacySliceRule('PAG-06', 'Group L defaults: `skipCount` 0 and `maxItems` -1 (all items).'),
  legacySliceRule(
    'PAG-07',
    'Group L, `skipCount=s&maxItems=m` returns items s+1 .. s+m of the full ordered list; `maxItems=0` returns none.',
  ),
  legacySliceRule('PAG-08', 'findFiles/findPages: `maxItems` defaults to 100'),
  legacySliceRule('PAG-09', 'getPages and getTemplates default `maxItems` to -1 (all).'),
  legacySliceRule('USE-03', 'usage/file and usage/folder obey Group L paging (skipCount, maxItems)'),
  defaultAllRule('PAG-06', 'Group L defaults: `skipCount` 0 and `maxItems` -1 (all items).'),
  defaultAllRule('PAG-09', 'getPages and getTemplates default `maxItems` to -1 (all).'),
  {
    requirement: 'PAG-05',
    check: 'numItems',
    sentence: '`numItems` is the number of items matching the filters before paging',
    parameters: [...LEGACY, ...PAGE],
    shows: (a, parameter) => (pageAsk(a) ? pageShows(a, parameter) : legacyShows(a, parameter)),
    applies: (a) => a.numItems !== undefined && (pageAsk(a) !== undefined || legacyAsk(a) !== undefined),
    refute: (a) => {
      const p = pageAsk(a);
      if (p) return numItemsProblems(a, (total) => pageSlice(total, p.page, p.size), p.asked);
      const q = legacyAsk(a)!;
      return numItemsProblems(a, (total) => legacySlice(total, q.skip, q.max), q.asked);
    },
  },
  {
    requirement: 'PAG-05',
    check: 'hasMoreItems',
    sentence: '`hasMoreItems` is true exactly when items exist beyond the returned slice.',
    parameters: [...LEGACY, ...PAGE],
    shows: (a, parameter) => (pageAsk(a) ? pageShows(a, parameter) : legacyShows(a, parameter)),
    applies: (a) => {
      if (a.hasMoreItems === undefined) return false;
      const p = pageAsk(a);
      // Unpaged Group P lists are PAG-01's, Group L defaults PAG-06's and PAG-09's: "all items", so hasMoreItems false.
      if (p) return p.size >= 0;
      const q = legacyAsk(a);
      return q !== undefined && q.requirement !== 'PAG-06' && q.requirement !== 'PAG-09';
    },
    refute: (a) => {
      const p = pageAsk(a);
      if (p) return hasMoreItemsProblems(a, (total) => pageSlice(total, p.page, p.size), p.size, p.asked, false);
      const q = legacyAsk(a)!;
      return hasMoreItemsProblems(a, (total) => legacySlice(total, q.skip, q.max), q.max, q.asked, q.max < 0);
    },
  },
];
