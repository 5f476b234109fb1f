/**
 * Reading a record as contract 2.1 lets a server write it: "required/optional flags for all records
 * other than the page record: not shown", so any member but the page record's required fields and an
 * item's `cdate` and `edate` may be absent. A server that leaves out what is empty (Jackson's NON_EMPTY
 * and NON_DEFAULT) writes no false boolean, empty string, empty array or empty map: absent reads as that
 * empty value here. Where absence says nothing (a member that names something), the test says it had
 * nothing to judge instead of reading a value into it.
 */
import { isRecord } from './rules/answer.ts';

/** A boolean member: true only when the record says true (absent reads as false). */
export function flag(record: unknown, member: string): boolean {
  return isRecord(record) && record[member] === true;
}

/** A string member: absent (or of another type) reads as the empty string. */
export function text(record: unknown, member: string): string {
  const value = isRecord(record) ? record[member] : undefined;
  return typeof value === 'string' ? value : '';
}

/** An array member: absent reads as empty; elements are kept as they came. */
export function listOf<T = unknown>(record: unknown, member: string): T[] {
  const value = isRecord(record) ? record[member] : undefined;
  return Array.isArray(value) ? (value as T[]) : [];
}

/** A map member: absent reads as empty. */
export function mapOf<T = unknown>(record: unknown, member: string): Record<string, T> {
  const value = isRecord(record) ? record[member] : undefined;
  return isRecord(value) ? (value as Record<string, T>) : {};
}

/**
 * The records of a list and every record nested in them under `member` (a flat listing may still carry
 * `subfolders`: open choice flat-listing-subfolders), each once, outermost first.
 */
export function withNested<T>(records: readonly T[] | undefined, member: string): T[] {
  const out: T[] = [];
  const walk = (list: readonly T[]) => {
    for (const r of list) {
      out.push(r);
      walk(listOf<T>(r, member));
    }
  };
  walk(records ?? []);
  return out;
}
