#!/usr/bin/env node
// `npm run build` (and `prepack`): the package's JavaScript in dist/, so that an installed cms-conformance
// needs no TypeScript compiler at run time. Each runtime module (the files tsconfig.build.json names) is
// transpiled on its own, imports rewritten from .ts to .js, as tsx and Vitest run the sources: the project's
// verbatimModuleSyntax makes that the same JavaScript tsc writes (compared byte for byte, BENCHMARKS.md
// 2026-11-28), in far less time and CPU. Types are checked where the sources are, by `npm test`
// (tsc --noEmit). The schemas and catalogues the modules read beside them are copied. The sources themselves
// never run from dist/: bin/cms-conformance.mjs uses it only where cli/main.ts is absent.
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const config = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.build.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
if (!config) process.exit(1);
// What makes a file's JavaScript its own alone (type-only imports marked as such): without it, one file at a time
// could keep an import that tsc would drop.
if (!config.options.verbatimModuleSyntax) throw new Error('build: tsconfig.json must keep verbatimModuleSyntax');
// One file at a time knows no package.json: the package is ESM ("type": "module"), which NodeNext would infer.
const options = { ...config.options, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
let failed = false;
for (const file of config.fileNames.filter((f) => !f.endsWith('.d.ts'))) {
  const { outputText, diagnostics = [] } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: options,
    fileName: file,
    reportDiagnostics: true,
  });
  for (const d of diagnostics) {
    failed = true;
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    console.error(
      `${relative(root, file)}${at ? `:${at.line + 1}:${at.character + 1}` : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
  }
  const out = join(dist, relative(config.options.rootDir ?? root, file)).replace(/\.ts$/, '.js');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, outputText);
}
if (failed) process.exit(1);
// What the modules read at run time besides code: every JSON file of schemas/ (the catalogues, the schemas)
// and the precompiled validators.
cpSync(join(root, 'schemas'), join(dist, 'schemas'), {
  recursive: true,
  filter: (src) => !/\.ts$/.test(src) && !src.endsWith('.d.ts'),
});
const count = (dir) => readdirSync(dir, { recursive: true }).filter((f) => /\.(js|json)$/.test(String(f))).length;
console.log(`build: dist/ holds ${count(dist)} modules and data files`);
