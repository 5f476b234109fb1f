/**
 * Metamorphic oracles: relations between answers that hold for any data, so the suite can judge the
 * target's own fixture, which it did not create. Where the contract leaves a detail open (collation of
 * names, order of equal keys), every reasonable answer is accepted.
 */

/** Sort direction of a listing. */
export type Direction = 'asc' | 'desc';

/** The string orders a server may reasonably use for names: code point, case-insensitive, locale. */
const STRING_ORDERS: ((a: string, b: string) => number)[] = [
  (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  (a, b) => {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  },
  (a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }),
  (a, b) => a.localeCompare(b),
];

function ordered<T>(values: readonly T[], dir: Direction, cmp: (a: T, b: T) => number): boolean {
  for (let i = 1; i < values.length; i++) {
    const c = cmp(values[i - 1]!, values[i]!);
    if (dir === 'asc' ? c > 0 : c < 0) return false;
  }
  return true;
}

/** True when the strings are in the given direction under at least one reasonable collation. */
export function stringsOrdered(values: readonly string[], dir: Direction): boolean {
  return STRING_ORDERS.some((cmp) => ordered(values, dir, cmp));
}

/** True when the numbers (or booleans, false < true) are in the given direction; equal values may come in any order. */
export function numbersOrdered(values: readonly (number | boolean)[], dir: Direction): boolean {
  return ordered(values.map(Number), dir, (a, b) => a - b);
}

/**
 * True when values of any comparable kind are ordered: strings by a reasonable collation, else numerically. Missing values are
 * left out.
 */
export function valuesOrdered(values: readonly unknown[], dir: Direction): boolean {
  const present = values.filter((v) => v !== undefined && v !== null);
  if (present.every((v) => typeof v === 'string')) return stringsOrdered(present as string[], dir);
  if (present.every((v) => typeof v === 'number' || typeof v === 'boolean')) return numbersOrdered(present as (number | boolean)[], dir);
  return false;
}

/** The first index where two id lists differ, for messages; -1 when equal. */
export function firstDifference<T>(a: readonly T[], b: readonly T[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Elements of `a` missing from `b` and elements of `b` missing from `a`. */
export function setDifference<T>(a: readonly T[], b: readonly T[]): { missing: T[]; extra: T[] } {
  const sa = new Set(a);
  const sb = new Set(b);
  return { missing: a.filter((x) => !sb.has(x)), extra: b.filter((x) => !sa.has(x)) };
}

/** True when the lists hold the same elements, ignoring order (and duplicates must match too). */
export function sameMultiset<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  const counts = new Map<T, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  for (const x of b) {
    const c = counts.get(x);
    if (!c) return false;
    counts.set(x, c - 1);
  }
  return true;
}

/** The elements that occur more than once. */
export function duplicates<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  const dup = new Set<T>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

/**
 * A part of a text to search for: `length` code points from `start`, or from late enough that two
 * remain. Cut by code points, never by UTF-16 units: a part of a name holding an emoji must not end in
 * half of it, a lone surrogate that goes on the wire as U+FFFD and matches nothing.
 */
export function partOf(text: string, start: number, length: number): string {
  const chars = Array.from(text);
  const from = Math.max(0, Math.min(start, chars.length - 2));
  return chars.slice(from, from + length).join('');
}

/** Shortens a list for a message: the first few elements and how many more. */
export function brief(values: readonly unknown[], max = 8): string {
  const shown = values
    .slice(0, max)
    .map((v) => JSON.stringify(v))
    .join(', ');
  return values.length > max ? `[${shown}, … ${values.length - max} more]` : `[${shown}]`;
}

/** The numeric ids of records; records without a numeric id are left out. */
export function idsOf(records: readonly { id?: unknown }[] | undefined): number[] {
  return (records ?? []).map((r) => r.id).filter((id): id is number => typeof id === 'number');
}
