/**
 * Paging arithmetic: which part of a full ordered list a paged listing returns, by the contract's two
 * paging groups. Read by the paging rules, the list helpers and the answer rules alike, so on its own,
 * apart from the model (model.ts), whose imports reach the answer rules.
 */

/** The slice a listing returns: indexes start..end of the full ordered list, and hasMoreItems. */
export interface Slice {
  start: number;
  end: number;
  hasMoreItems: boolean;
}

/** Group L: "skipCount=s&maxItems=m returns items s+1 .. s+m"; -1 is all, 0 none (PAG-05, PAG-07). */
export function legacySlice(total: number, skipCount: number, maxItems: number): Slice {
  const start = Math.min(Math.max(skipCount, 0), total);
  const end = maxItems < 0 ? total : Math.min(total, start + maxItems);
  return { start, end, hasMoreItems: end < total };
}

/** Group P: "page=k&pageSize=n returns items (k-1)n+1 .. kn"; pageSize -1 is all, 0 none (PAG-01..05). */
export function pageSlice(total: number, page: number, pageSize: number): Slice {
  if (pageSize < 0) return { start: 0, end: total, hasMoreItems: false };
  const start = Math.min((Math.max(page, 1) - 1) * pageSize, total);
  const end = Math.min(total, start + pageSize);
  return { start, end, hasMoreItems: end < total };
}
