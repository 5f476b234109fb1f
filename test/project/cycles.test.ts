/**
 * No two files of the project import each other, directly or through others: in a circle of imports the
 * order modules load in decides what a file sees at its top level, and no file of the circle can be read,
 * tested or moved without the rest. Type-only imports count too: they tie the files as tightly for
 * whoever reads or moves them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { circles, cyclesIn, importGraph, importsOf, type ImportEdge } from '../support/imports.ts';

/**
 * Imports allowed to close a circle: a dynamic import only (loaded when code runs, never at load), each
 * with its reason. None is needed today.
 */
const DELIBERATE: readonly { from: string; to: string; reason: string }[] = [];

const isDeliberate = (e: ImportEdge) => e.kind === 'dynamic' && DELIBERATE.some((d) => d.from === e.from && d.to === e.to);

/** Edges written `a>b` for the synthetic graphs below. */
const graph = (...pairs: string[]): ImportEdge[] =>
  pairs.map((p) => {
    const [from, to] = p.split('>') as [string, string];
    return { from, to, specifier: `./${to}`, kind: 'static' };
  });

describe('the import walk', () => {
  it('reads static, type-only, re-exported and dynamic imports, and none in a comment or a string', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "import { type C, type D } from './cd.ts';",
      "import { type E, f } from './ef.ts';",
      "export { g } from './g.js';",
      "export type { H } from './h.ts';",
      "type I = typeof import('./i.ts');",
      "const j = () => import('./j.mjs');",
      "import { k } from 'node:fs';",
      "// import { l } from './l.ts';",
      'const m = "import(\'./m.ts\')";',
    ].join('\n');
    expect(importsOf(text, 'x.ts')).toEqual([
      { specifier: './a.ts', kind: 'static' },
      { specifier: '../b.ts', kind: 'type' },
      { specifier: './cd.ts', kind: 'static' },
      { specifier: './ef.ts', kind: 'static' },
      { specifier: './g.js', kind: 'static' },
      { specifier: './h.ts', kind: 'type' },
      { specifier: './i.ts', kind: 'type' },
      { specifier: './j.mjs', kind: 'dynamic' },
    ]);
  });

  it('names every cycle of a circle, and nothing outside circles', () => {
    expect(circles(graph('a>b', 'b>c', 'c>d'))).toEqual([]);
    expect(circles(graph('s>s'))).toEqual([['s']]);
    const edges = graph('a>b', 'b>a', 'b>c', 'c>a', 'c>d', 'x>y');
    expect(circles(edges)).toEqual([['a', 'b', 'c']]);
    expect(cyclesIn(['a', 'b', 'c'], edges)).toEqual(['a -> b -> a', 'a -> b -> c -> a']);
  });
});

describe('the import graph of the sources', () => {
  let edges: ImportEdge[] = [];
  let unresolved: string[] = [];
  beforeAll(() => void ({ edges, unresolved } = importGraph()));

  it('resolves every relative import of code to a file of the project', () => {
    expect(unresolved).toEqual([]);
    // Each kind is met in the sources: the suite engine is imported for its types and loaded lazily.
    expect(edges.find((e) => e.from === 'cli/run.ts' && e.to === 'cli/project.ts')?.kind).toBe('static');
    expect(edges.filter((e) => e.from === 'cli/load-engine.ts' && e.to === 'cli/engine.ts').map((e) => e.kind)).toEqual([
      'type',
      'dynamic',
    ]);
  });

  it('has no circle: no file reaches itself through its imports', () => {
    const kept = edges.filter((e) => !isDeliberate(e));
    const named = circles(kept).flatMap((component) => cyclesIn(component, kept));
    expect(named, 'a circle of imports; break it by moving what both sides need to a file of its own').toEqual([]);
    // A rule outlives no import of its own.
    expect(DELIBERATE.filter((d) => !edges.some((e) => e.from === d.from && e.to === d.to && e.kind === 'dynamic'))).toEqual([]);
  });
});
