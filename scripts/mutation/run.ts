/**
 * `npm run mutation [-- STRYKER OPTIONS]`: Stryker over the reference server's contract logic with the
 * conformance suites as the test (stryker.config.mjs), then the score against the classified survivors
 * (score.ts). Options go to Stryker as given: `--incremental` reuses the last run's results for code and
 * tests that did not change, `--mutate server/handlers/usage.ts` narrows the run to one file.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const stryker = spawnSync(
  process.execPath,
  [
    fileURLToPath(new URL('../../node_modules/@stryker-mutator/core/bin/stryker.js', import.meta.url)),
    'run',
    'scripts/mutation/stryker.config.mjs',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
if (stryker.status !== 0) process.exit(stryker.status ?? 1);
const scored = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./score.ts', import.meta.url))], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(scored.status ?? 1);
