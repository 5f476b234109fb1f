/**
 * Pure relations of the usage suite: how a page of a usage list must relate to the unpaged list, and
 * which objects a tag map refers to. The usage data is the target's fixture, so these are
 * metamorphic: they relate answers to each other, never to known content.
 */
import { brief, duplicates } from '../../harness/oracles.ts';
import type { Tag } from '../../schemas/types.ts';

/** One listed object as the relations see it: its id and its sort key. */
export interface Keyed {
  id: unknown;
  key: unknown;
}

/** Group L: `skipCount` items skipped (negative as 0), then at most `maxItems` (negative: all). */
export function legacySlice<T>(full: readonly T[], skip: number, max: number): T[] {
  const from = Math.max(0, skip);
  return max < 0 ? full.slice(from) : full.slice(from, from + max);
}

/**
 * Why a page of a list does not agree with the unpaged list in the same order, or undefined when it
 * does: position by position the same sort key as the expected slice (objects with equal keys may
 * trade places, the contract orders by key only), every id from the full list, none twice.
 */
export function sliceDisagreement(full: readonly Keyed[], page: readonly Keyed[], skip: number, max: number): string | undefined {
  const expected = legacySlice(full, skip, max);
  const ids = page.map((p) => p.id);
  if (page.length !== expected.length) return `${page.length} items instead of the ${expected.length} at positions ${skip + 1}.. of the ${full.length} listed without paging`;
  const twice = duplicates(ids);
  if (twice.length) return `ids listed twice: ${brief(twice)}`;
  const known = new Set(full.map((f) => f.id));
  const strangers = ids.filter((id) => !known.has(id));
  if (strangers.length) return `ids that the unpaged list does not hold: ${brief(strangers)}`;
  const at = page.findIndex((p, i) => p.key !== expected[i]!.key);
  if (at >= 0) return `position ${skip + at + 1} holds ${JSON.stringify(page[at]!.key)} where the unpaged list has ${JSON.stringify(expected[at]!.key)}`;
  return undefined;
}

/** Objects a tag map refers to through its properties: page, file and image ids (folders and templates are not linked objects). */
export function tagReferences(tags: Readonly<Record<string, Tag>> | undefined): { pages: number[]; files: number[]; images: number[] } {
  const out = { pages: new Set<number>(), files: new Set<number>(), images: new Set<number>() };
  for (const tag of Object.values(tags ?? {})) {
    for (const p of Object.values(tag.properties ?? {})) {
      if (typeof p.pageId === 'number' && p.pageId > 0) out.pages.add(p.pageId);
      if (typeof p.fileId === 'number' && p.fileId > 0) out.files.add(p.fileId);
      if (typeof p.imageId === 'number' && p.imageId > 0) out.images.add(p.imageId);
    }
  }
  return { pages: [...out.pages], files: [...out.files], images: [...out.images] };
}

/** Splits ids into chunks, so a query with many repeated `id` parameters stays a reasonable URL. */
export function chunks<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}
