/**
 * Pure helpers of the wastebin suite and of the records suite's deleted masters: how a record says it is deleted, and what a listing
 * is predicted to hold in each `wastebin` mode.
 */
import type { DeleteInfo, Item } from '../schemas/types.ts';

/** The `wastebin` modes of contract 4.1 Group F. */
export type WastebinMode = 'exclude' | 'include' | 'only';

/** The three DeleteInfo members of the common item fields (contract 2.2). */
export const DELETION_MEMBERS = ['deleted', 'masterDeleted', 'folderDeleted'] as const;

/** One of the DeleteInfo members. */
export type DeletionMember = (typeof DELETION_MEMBERS)[number];

/**
 * Whether a DeleteInfo value marks a deletion. "deleted ... if the object was deleted" (contract 2.2);
 * live objects may carry `{at: 0}` (reference notes), which is no mark.
 */
export function marksDeletion(info: unknown): info is DeleteInfo {
  if (info === null || typeof info !== 'object' || Array.isArray(info)) return false;
  return (info as DeleteInfo).at !== 0;
}

/**
 * Contract 3: "deleted (a deleted, masterDeleted or folderDeleted DeleteInfo is present) or not deleted".
 * Returns the members that mark the record deleted.
 */
export function deletionMarks(item: Item): DeletionMember[] {
  return DELETION_MEMBERS.filter((m) => marksDeletion(item[m]));
}

/** True when a record is in the deleted state (contract 3). */
export function isMarkedDeleted(item: Item): boolean {
  return deletionMarks(item).length > 0;
}

/**
 * What is wrong with the DeleteInfo of a deleted record: "deleted ones carry `deleted` with `at` and
 * `by`" (WST-02). `at` is a timestamp (an integer, contract 2.1); `by` a User record where it is carried:
 * which members a record carries is not shown (contract 2.1, open choice deleted-by-carried).
 */
export function deleteInfoProblems(info: unknown): string[] {
  if (info === null || typeof info !== 'object' || Array.isArray(info)) return [`is ${JSON.stringify(info)}, not a DeleteInfo object`];
  const { at, by } = info as DeleteInfo;
  const problems: string[] = [];
  if (typeof at !== 'number' || !Number.isInteger(at) || at === 0) problems.push(`has at ${JSON.stringify(at)}, not a deletion timestamp`);
  if (by !== undefined && (by === null || typeof by !== 'object' || Array.isArray(by)))
    problems.push(`has by ${JSON.stringify(by)}, not a User record`);
  return problems;
}

/** The ids of objects the model knows, live and deleted, for one listing. */
export interface ListingModel {
  live: number[];
  deleted: number[];
}

/** The ids a listing must hold in a wastebin mode: exclude the live ones, only the deleted ones, include both. */
export function expectedIds(model: ListingModel, mode: WastebinMode): number[] {
  if (mode === 'exclude') return [...model.live];
  if (mode === 'only') return [...model.deleted];
  return [...model.live, ...model.deleted];
}
