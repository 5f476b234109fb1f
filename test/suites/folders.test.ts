import { describe, expect, it } from 'vitest';
import { canonical, closeUnderAncestors, predictFolders, shapesOf, type TreeModel } from '../../suites/folders/tree.ts';

// 1 -> 2 (-> 4 (-> 6), 5), 3
const model: TreeModel = new Map([
  [1, [2, 3]],
  [2, [4, 5]],
  [4, [6]],
]);

describe('getFolders model', () => {
  it('lists the children only without recursive, whatever tree and recursiveIds say', () => {
    expect(canonical(predictFolders(model, 1, { recursive: false, tree: true, recursiveIds: [1, 2] }))).toBe('2,3');
  });

  it('lists all descendants flat with recursive, nested with tree', () => {
    expect(canonical(predictFolders(model, 1, { recursive: true, tree: false, recursiveIds: [] }))).toBe(
      canonical(
        shapesOf(
          [2, 3, 4, 5, 6].map((id) => ({ id })),
          false,
        ),
      ),
    );
    expect(canonical(predictFolders(model, 1, { recursive: true, tree: true, recursiveIds: [] }))).toBe('2(4(6),5),3');
  });

  it('fetches the children of the recursiveIds folders only', () => {
    expect(canonical(predictFolders(model, 1, { recursive: true, tree: false, recursiveIds: [1, 2] }))).toBe('2,3,4,5');
    expect(canonical(predictFolders(model, 1, { recursive: true, tree: true, recursiveIds: [1, 2] }))).toBe('2(4,5),3');
  });

  it('closes a recursiveIds choice under its ancestors and adds the start folder', () => {
    expect(closeUnderAncestors(model, 1, [6]).sort()).toEqual([1, 2, 4, 6]);
    expect(closeUnderAncestors(model, 1, []).sort()).toEqual([1]);
  });
});

describe('answers as shapes', () => {
  it('follow subfolders only for tree answers and ignore the order of siblings', () => {
    const answer = [{ id: 3 }, { id: 2, subfolders: [{ id: 5 }, { id: 4, subfolders: [{ id: 6 }] }] }];
    expect(canonical(shapesOf(answer, true))).toBe('2(4(6),5),3');
    expect(canonical(shapesOf(answer, false))).toBe('2,3');
    expect(canonical(shapesOf([{ id: '2' }], false))).toBe('NaN');
  });
});
