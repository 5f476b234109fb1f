/**
 * Pure helpers of the folders suite: a model of a folder tree the test created, what getFolders must
 * answer for `recursive`, `tree` and `recursiveIds`, and a canonical form of nested answers.
 */

/** A folder tree the test created: children ids per folder id. */
export type TreeModel = ReadonlyMap<number, readonly number[]>;

/** A folder with the sub-folders attached to it, as a tree answer nests them. */
export interface Shape {
  id: number;
  sub: Shape[];
}

/** The getFolders parameters the model predicts. */
export interface FolderQuery {
  recursive: boolean;
  tree: boolean;
  /** Folders whose children are fetched; empty: all. */
  recursiveIds: readonly number[];
}

function descends(q: FolderQuery, id: number): boolean {
  return q.recursiveIds.length === 0 || q.recursiveIds.includes(id);
}

/**
 * The predicted answer of getFolders on `top`: "`recursive` lists all descendants; `tree=true` nests
 * them under `subfolders`; `recursiveIds` limits which folders' children are fetched" (FLD-03). Flat
 * answers are shapes without sub-folders; `tree` is "meaningful only when `recursive` is true".
 */
export function predictFolders(model: TreeModel, top: number, q: FolderQuery): Shape[] {
  const children = (id: number) => [...(model.get(id) ?? [])];
  if (!q.recursive) return children(top).map((id) => ({ id, sub: [] }));
  if (q.tree) {
    const nest = (id: number): Shape => ({ id, sub: descends(q, id) ? children(id).map(nest) : [] });
    return children(top).map(nest);
  }
  const flat: Shape[] = [];
  const walk = (id: number) => {
    for (const c of children(id)) {
      flat.push({ id: c, sub: [] });
      if (descends(q, c)) walk(c);
    }
  };
  walk(top);
  return flat;
}

/** Folder records as shapes; `nested` follows `subfolders` (absent counts as none). */
export function shapesOf(folders: readonly { id?: unknown; subfolders?: unknown }[] | undefined, nested: boolean): Shape[] {
  return (folders ?? []).map((f) => ({
    id: typeof f.id === 'number' ? f.id : Number.NaN,
    sub: nested && Array.isArray(f.subfolders) ? shapesOf(f.subfolders as { id?: unknown; subfolders?: unknown }[], true) : [],
  }));
}

/** A canonical text of shapes, ignoring order at every level: `1(2,3(4))`. */
export function canonical(shapes: readonly Shape[]): string {
  const one = (s: Shape): string => (s.sub.length ? `${s.id}(${canonical(s.sub)})` : String(s.id));
  return shapes.map(one).sort().join(',');
}

/** The ids on the path from `top` (excluded) down to every folder of the model. */
export function ancestorsWithin(model: TreeModel, top: number): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const walk = (id: number, path: number[]) => {
    for (const c of model.get(id) ?? []) {
      out.set(c, path);
      walk(c, [...path, c]);
    }
  };
  walk(top, []);
  return out;
}

/** `ids` with every ancestor below `top` added, and `top` itself: a recursiveIds list every reading agrees on. */
export function closeUnderAncestors(model: TreeModel, top: number, ids: readonly number[]): number[] {
  const ancestors = ancestorsWithin(model, top);
  const closed = new Set<number>([top]);
  for (const id of ids) for (const a of [...(ancestors.get(id) ?? []), id]) closed.add(a);
  return [...closed];
}
