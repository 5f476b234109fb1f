/**
 * What a suite file may import: the harness, the generators, the schemas and its own folder's helpers, never another
 * suite's folder (what two suites share goes to harness/) nor server/ (the suites judge any target, the reference
 * server being one). Static: every import specifier of every file under suites/, as TypeScript reads them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../cli/project.ts';

const suitesDir = join(projectRoot, 'suites');

/** Every file below a folder, as paths relative to the project root. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesBelow(join(dir, e.name)) : [relative(projectRoot, join(dir, e.name))],
  );
}

/** The imports of a suite file that break the rule, as `file: specifier (why)`. */
function forbiddenImports(file: string, source: string): string[] {
  const folder = file.split(sep).slice(0, 2).join('/');
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((i) => i.fileName)
    .flatMap((specifier) => {
      // A package (fast-check, node:fs) is no folder of the project.
      if (!specifier.startsWith('.')) return [];
      const target = relative(projectRoot, resolve(projectRoot, dirname(file), specifier)).split(sep);
      if (target[0] === 'server') return [`${file}: ${specifier} (server/)`];
      if (target[0] === 'suites' && `suites/${target[1]}` !== folder) return [`${file}: ${specifier} (another suite's folder)`];
      return [];
    });
}

describe('the suites import', () => {
  const files = filesBelow(suitesDir).filter((f) => /\.[cm]?[jt]s$/.test(f));

  it('finds the suite files', () => {
    expect(files.filter((f) => f.endsWith('.suite.ts')).length).toBeGreaterThan(20);
  });

  it("nothing from server/ nor from another suite's folder", () => {
    expect(files.flatMap((f) => forbiddenImports(f, readFileSync(join(projectRoot, f), 'utf8')))).toEqual([]);
  });

  it('reports a file and its import where the rule is broken', () => {
    const file = join('suites', 'records', 'example.suite.ts');
    const source = [
      "import { a } from '../wastebin/deletion.ts';",
      "import type { B } from '../../server/types.ts';",
      "const c = await import('../../suites/paging/x.ts');",
      "export { d } from './own.ts';",
      "import { e } from '../../harness/steps.ts';",
      "import fc from 'fast-check';",
    ].join('\n');
    expect(forbiddenImports(file, source)).toEqual([
      `${file}: ../wastebin/deletion.ts (another suite's folder)`,
      `${file}: ../../server/types.ts (server/)`,
      `${file}: ../../suites/paging/x.ts (another suite's folder)`,
    ]);
  });
});
