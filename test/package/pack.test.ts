/**
 * The package a vendor installs: `npm pack` (which builds dist/ through prepack) gives a tarball of the
 * compiled CLI without the project's tests, scripts or TypeScript sources; installed in an empty folder,
 * `npx cms-conformance run` works against the bundled reference server with no TypeScript compiler.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import type { Results } from '../../schemas/results.ts';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

it('packs the compiled CLI alone, installs from the tarball, and runs one operation against the bundled server', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-pack-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, maxBuffer: 64 * 2 ** 20 });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const paths = packed!.files.map((f) => f.path);
  expect(paths).toContain('dist/cli/main.js');
  expect(paths).toContain('dist/schemas/requirements.json');
  // README links to docs/ and LICENSE: an installed package has what its front page points at.
  for (const doc of ['LICENSE', 'docs/cli.md', 'docs/target-file.md', 'docs/examples/target.json']) expect(paths).toContain(doc);
  expect(paths.filter((p) => /^(test|scripts|suites|cli|server|harness|reports|schemas|generators)\//.test(p))).toEqual([]);
  expect(paths.filter((p) => p.endsWith('.ts'))).toEqual([]);

  const app = join(dir, 'app');
  await exec('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'vendor-app', version: '1.0.0', private: true }));
  // From the local cache where it has the packages (npm ci filled it); the registry only for what it lacks.
  await exec('npm', ['i', '-D', '--prefer-offline', '--no-audit', '--no-fund', join(dir, packed!.filename)], { cwd: app });
  const run = await exec('npx', ['cms-conformance', 'run', '--only', 'OP-folder.load'], { cwd: app }).catch(
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
  expect('code' in run ? run.code : 0, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/VERDICT: the target conforms/);
  // Reports beside where it was called, not inside the installed package.
  const results = JSON.parse(readFileSync(join(app, 'reports/out/results.json'), 'utf8')) as Results;
  expect(results.tests.map((t) => [t.requirement, t.status])).toEqual([['OP-folder.load', 'passed']]);
  expect(results.tool.version).toBe((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version);
}, 600_000);
