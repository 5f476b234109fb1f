/** The suite's own version, from its package.json, wherever the modules run from (the sources, or dist/ in an installed package). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The version of the cms-conformance package these modules belong to. */
function packageVersion(): string {
  // Up from this module to the first package.json of cms-conformance: one level in the sources, two from dist/.
  for (let dir = dirname(fileURLToPath(import.meta.url)), hops = 0; hops < 4; dir = dirname(dir), hops++) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'cms-conformance' && pkg.version) return pkg.version;
  }
  throw new Error('cms-conformance: its package.json was not found above schemas/version');
}

/** The suite's version (package.json), as results.json, the OpenAPI export and a statement name it. */
export const SUITE_VERSION = packageVersion();
