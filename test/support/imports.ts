/**
 * The import graph of the project's sources: every relative import of a .ts, .js or .mjs file, read with
 * the TypeScript parser so that an import in a comment or a string is none, and a type-only import
 * (`import type`, `typeof import('./x.ts')`) or a dynamic `import('./x.ts')` is one, marked as such.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The project's root folder. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The folders whose files make the project's sources (test/ and bin/ stand outside: nothing imports them). */
export const SOURCE_DIRS = ['cli', 'harness', 'reports', 'schemas', 'server', 'suites', 'generators', 'scripts'];

/** How one file reaches another: at load (`static`), for types only (`type`), or when code runs (`dynamic`). */
export type ImportKind = 'static' | 'type' | 'dynamic';

/** One relative import: both files as paths from the root with `/`, the specifier as written. */
export interface ImportEdge {
  from: string;
  to: string;
  specifier: string;
  kind: ImportKind;
}

const CODE = /\.(ts|js|mjs)$/;

/** The code files (.ts, .js, .mjs; not .d.ts or .d.mts) under the source folders, as paths from the root. */
export function sourceFiles(dirs: readonly string[] = SOURCE_DIRS): string[] {
  return dirs
    .flatMap((dir) => (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).map((f) => join(dir, f)))
    .filter((f) => CODE.test(f) && !/\.d\.m?ts$/.test(f) && !f.split(sep).includes('node_modules'))
    .map((f) => f.split(sep).join('/'))
    .sort();
}

/** The relative specifiers a file imports, each with its kind, in the order they are written. */
export function importsOf(text: string, fileName: string): { specifier: string; kind: ImportKind }[] {
  const found: { specifier: string; kind: ImportKind }[] = [];
  // A file without a relative specifier anywhere (the large generated validators) is not parsed at all.
  if (!/['"`]\.\.?\//.test(text)) return found;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const add = (node: ts.Node | undefined, kind: ImportKind) => {
    if (node && ts.isStringLiteralLike(node) && node.text.startsWith('.')) found.push({ specifier: node.text, kind });
  };
  const visit = (node: ts.Node): void => {
    // `import { type A }` is no type-only import: under verbatimModuleSyntax it stays, as `import {}`, and loads the file.
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly ? 'type' : 'static');
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly ? 'type' : 'static');
    else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg)) add(arg.literal, 'type');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], 'dynamic');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names: itself, else its .ts source where it is written as .js (NodeNext style). */
function resolve(from: string, specifier: string): string | undefined {
  const target = join(dirname(from), specifier);
  const hit = [target, target.replace(/\.js$/, '.ts')].find((c) => existsSync(join(ROOT, c)));
  return hit?.split(sep).join('/');
}

/** Every relative import of code among the given files; `unresolved` lists the imports of code that name no file. */
export function importGraph(files: readonly string[] = sourceFiles()): { edges: ImportEdge[]; unresolved: string[] } {
  const edges: ImportEdge[] = [];
  const unresolved: string[] = [];
  for (const from of files) {
    for (const { specifier, kind } of importsOf(readFileSync(join(ROOT, from), 'utf8'), from)) {
      if (!CODE.test(specifier)) continue;
      const to = resolve(from, specifier);
      if (to === undefined) unresolved.push(`${from}: ${specifier}`);
      else edges.push({ from, to, specifier, kind });
    }
  }
  return { edges, unresolved };
}

/** The strongly connected components of a graph with more than one file, or one file importing itself (Tarjan). */
export function circles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (next.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort()) if (!index.has(v)) strong(v);
  return found;
}

/**
 * The cycles that make up one circle, written `a -> b -> a`: for every import between two of its files,
 * the shortest way back from the imported file, so each import that keeps the circle closed is named.
 */
export function cyclesIn(component: readonly string[], edges: readonly ImportEdge[]): string[] {
  const members = new Set(component);
  const inside = edges.filter((e) => members.has(e.from) && members.has(e.to));
  const next = (v: string) => [...new Set(inside.filter((e) => e.from === v).map((e) => e.to))].sort();
  const pathBack = (start: string, goal: string): string[] => {
    const before = new Map<string, string>([[start, start]]);
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      if (v === goal) break;
      for (const w of next(v)) {
        if (before.has(w)) continue;
        before.set(w, v);
        queue.push(w);
      }
    }
    const path = [goal];
    while (path[0] !== start) path.unshift(before.get(path[0]!)!);
    return path;
  };
  const cycles = new Set<string>();
  for (const e of inside) {
    const loop = e.from === e.to ? [e.from] : [e.from, ...pathBack(e.to, e.from).slice(0, -1)];
    // The same cycle found from any of its files is written from its smallest file.
    const first = loop.indexOf([...loop].sort()[0]!);
    const turned = [...loop.slice(first), ...loop.slice(0, first)];
    cycles.add([...turned, turned[0]].join(' -> '));
  }
  return [...cycles].sort();
}
