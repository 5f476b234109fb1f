/**
 * Changes shared by several operations: recursive deletion, copying an object (localize, file copy),
 * unique file names. Callers validate everything first: these never refuse.
 */
import type { DatasetTag } from '../dataset-format.ts';
import {
  allocateId,
  allocateTagId,
  globalIdFor,
  insertObject,
  setsBelow,
  type DeleteMark,
  type Obj,
  type State,
  type TakenNames,
} from '../state.ts';

/**
 * Puts a folder channel set into the wastebin with everything in it: every variant (master, localized
 * copies) and every object below, in every node, gets `deleted` (reference notes: "Deleting puts the
 * object (and, for a folder, everything in it, recursively) in the wastebin").
 */
export function deleteRecursively(state: State, setId: number, mark: DeleteMark): void {
  for (const set of [setId, ...[...setsBelow(state, setId)].map((c) => c.set)]) {
    for (const v of state.sets.get(set) ?? []) v.deleted ??= { ...mark };
  }
}

/** Copies of tags with fresh ids (a copied object owns its tags). */
export function cloneTags(state: State, tags: readonly DatasetTag[] | undefined): DatasetTag[] | undefined {
  return tags?.map((t) => ({ ...structuredClone(t), id: allocateTagId(state) }));
}

/**
 * A copy of an object with a fresh id, created now by the requesting user. `changes` set what differs
 * (node, channel set, master, parent, name, ...); multichannel settings are not copied.
 */
export function copyObject<T extends Obj>(state: State, source: T, changes: Partial<T>): T {
  const id = allocateId(state);
  const now = Math.floor(state.now() / 1000);
  const copy = {
    ...source,
    id,
    globalId: globalIdFor(id),
    channelSetId: id,
    cdate: now,
    edate: now,
    creatorId: state.requesterId,
    editorId: state.requesterId,
    tags: cloneTags(state, source.tags),
    ...changes,
  } as T;
  for (const key of ['deleted', 'excluded', 'disinherit', 'disinheritDefault', 'masterId'] as const) {
    if (!(key in changes)) delete copy[key];
  }
  if (copy.tags === undefined) delete copy.tags;
  if (copy.kind === 'template' && source.kind === 'template') copy.templateTags = cloneTags(state, source.templateTags) ?? [];
  insertObject(state, copy);
  return copy;
}

/** `name` made unique against lower-cased taken names as `base_1.ext`, `base_2.ext` (reference notes). */
export function uniqueFileName(name: string, taken: TakenNames): string {
  const lower = name.toLowerCase();
  if (!taken.has(lower)) return name;
  const dot = name.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  // Suffixes below the hint are known to be taken; only those found taken are told back (the caller may not use the name).
  for (let i = taken.firstSuffix?.(lower) ?? 1; ; i++) {
    const candidate = `${base}_${i}${ext}`;
    if (!taken.has(candidate.toLowerCase())) {
      if (i > 1) taken.suffixesTaken?.(lower, i - 1);
      return candidate;
    }
  }
}
