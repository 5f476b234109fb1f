/**
 * The conformance tests the suites declare, collected without running them (for coverage, dry runs,
 * and the suite files a run narrowed by --only or a prove case loads), and kept as an index until a
 * source file changes.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { loadEngine } from './load-engine.ts';
import { projectRoot, type DeclaredTest } from './project.ts';

/** The suite files that hold these tests, each once. */
export function suiteFilesOf(tests: readonly DeclaredTest[]): string[] {
  return [...new Set(tests.map((t) => t.file))];
}

/** Folders whose files can change what the suites declare: the suites and everything they import. */
const SOURCE_DIRS = ['suites', 'harness', 'generators', 'schemas', 'server', 'cli', 'reports'];

/** The index of declared tests, under the installed packages: a new install starts without one, as Vitest's module cache does. */
const indexFile = (root: string) => join(root, 'node_modules/.cache/cms-conformance/declared-tests.json');

/**
 * A digest of everything the declared tests can depend on: Node's version, the locked packages and
 * every file of the source folders (reports/out excepted). Equal digests, equal declared tests.
 */
export function sourceKey(root = projectRoot): string {
  const hash = createHash('sha256').update(`${process.version}\0`);
  const add = (file: string) => {
    hash.update(`${relative(root, file)}\0`);
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update('(absent)');
    }
    hash.update('\0');
  };
  add(join(root, 'package-lock.json'));
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (relative(root, path) !== join('reports', 'out')) walk(path);
      } else if (e.isFile()) add(path);
    }
  };
  for (const dir of SOURCE_DIRS) walk(join(root, dir));
  return hash.digest('hex');
}

/**
 * The declared tests: from the index when it was made from these very sources, else from `collect`
 * (which imports every suite file), and then kept. A run that narrows its suite files by the index
 * loads only the files holding its tests, so a stale index would drop tests without a word: the
 * index is used only under the digest of every source it was made from (sourceKey).
 */
export async function declaredTests(collect: () => Promise<DeclaredTest[]>, root = projectRoot): Promise<DeclaredTest[]> {
  const key = sourceKey(root);
  const file = indexFile(root);
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown; tests?: unknown };
    if (kept.key === key && Array.isArray(kept.tests)) return kept.tests as DeclaredTest[];
  } catch {
    // No index yet, or one that does not parse: collected anew below.
  }
  const tests = await collect();
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Written aside and renamed: two runs that collect at once never leave half a file.
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, JSON.stringify({ key, tests }));
    renameSync(part, file);
  } catch {
    // A read-only install: the index is a saving, not a need.
  }
  return tests;
}

/** Every conformance test of the suites (collected when the sources changed: imports them, runs no test body, sends nothing). */
export async function collectTests(): Promise<DeclaredTest[]> {
  return declaredTests(async () => {
    // Imported here: only a collection that the index cannot answer starts Vitest.
    const { SuiteEngine } = await loadEngine();
    const engine = await SuiteEngine.create({ workers: 2, progress: null });
    try {
      return await engine.collect();
    } finally {
      await engine.close();
    }
  });
}
