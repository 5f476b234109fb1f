/** The index of declared tests (cli/collect.ts): used only while every source it was made from is unchanged. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredTests, sourceKey } from '../../cli/collect.ts';
import type { DeclaredTest } from '../../cli/project.ts';

/** A project of a few files in a fresh folder. */
function project(): { root: string; write: (path: string, text: string) => void } {
  const root = mkdtempSync(join(tmpdir(), 'cms-collect-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('package-lock.json', '{}');
  write('suites/a.suite.ts', "it('OP-a one')");
  write('harness/h.ts', 'export {}');
  return { root, write };
}

const test = (id: string): DeclaredTest => ({ id, requirement: id.split(' ')[0]!, file: 'suites/a.suite.ts' });

describe('declaredTests', () => {
  it('collects once, then answers from the index until a source changes', async () => {
    const { root, write } = project();
    let collected = 0;
    const collect = (ids: string[]) => async () => {
      collected++;
      return ids.map(test);
    };
    expect(await declaredTests(collect(['OP-a one']), root)).toEqual([test('OP-a one')]);
    expect(collected).toBe(1);
    expect(await declaredTests(collect(['OP-a other']), root)).toEqual([test('OP-a one')]);
    expect(collected).toBe(1);
    // Reports are not sources; a suite, a module it imports and the locked packages are.
    write('reports/out/results.json', '{}');
    expect(await declaredTests(collect(['OP-a other']), root)).toEqual([test('OP-a one')]);
    write('suites/a.suite.ts', "it('OP-a two')");
    expect(await declaredTests(collect(['OP-a two']), root)).toEqual([test('OP-a two')]);
    write('harness/h.ts', 'export const x = 1;');
    expect(await declaredTests(collect(['OP-a three']), root)).toEqual([test('OP-a three')]);
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(await declaredTests(collect(['OP-a four']), root)).toEqual([test('OP-a four')]);
    expect(collected).toBe(4);
    // An index that does not parse is collected anew.
    write('node_modules/.cache/cms-conformance/declared-tests.json', '{"key":');
    expect(await declaredTests(collect(['OP-a five']), root)).toEqual([test('OP-a five')]);
    expect(collected).toBe(5);
  });

  it('a source added or renamed changes the key, the same sources give the same key', () => {
    const { root, write } = project();
    const before = sourceKey(root);
    expect(sourceKey(root)).toBe(before);
    write('generators/new.ts', '');
    const added = sourceKey(root);
    expect(added).not.toBe(before);
    write('generators/new.ts', '');
    expect(sourceKey(root)).toBe(added);
  });
});
