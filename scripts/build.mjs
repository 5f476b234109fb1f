#!/usr/bin/env node
// `npm run build` (and `prepack`): the package's JavaScript in dist/, so that an installed cms-conformance
// needs no TypeScript compiler at run time. tsc compiles the runtime modules (tsconfig.build.json, imports
// rewritten from .ts to .js); the schemas and catalogues they read beside them are copied. The sources
// themselves never run from dist/: bin/cms-conformance.mjs uses it only where cli/main.ts is absent.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
// What the modules read at run time besides code: every JSON file of schemas/ (the catalogues, the schemas)
// and the precompiled validators.
cpSync(join(root, 'schemas'), join(dist, 'schemas'), {
  recursive: true,
  filter: (src) => !/\.ts$/.test(src) && !src.endsWith('.d.ts'),
});
const count = (dir) => readdirSync(dir, { recursive: true }).filter((f) => /\.(js|json)$/.test(String(f))).length;
console.log(`build: dist/ holds ${count(dist)} modules and data files`);
