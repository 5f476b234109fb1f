/**
 * `cms-conformance init` against the reference server (default and field profile, with and without a
 * token): the target file it writes agrees with the one `serve --write-target` writes, and a server that
 * does not answer like the contract gets one line and exit 3.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTarget } from '../../harness/target.ts';
import type { Target, TargetFixture } from '../../schemas/target.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { cli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cms-init-'));
const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** init's target file for a server, and what it printed. */
async function init(served: Target, name: string, extra: string[] = []): Promise<{ target: Target; stdout: string }> {
  const out = join(dir, `${name}.json`);
  const r = await cli('init', '--base-url', served.baseUrl, '--out', out, ...extra);
  expect(r.code, r.stderr).toBe(0);
  return { target: parseTarget(JSON.parse(readFileSync(out, 'utf8')), out), stdout: r.stdout };
}

/**
 * What init could learn agrees with the served target file: every id it wrote, and the features but sourceUrl (a write)
 * and disposable (what the server is, not what it answers).
 */
function expectAgreement(found: Target, served: Target, stdout: string): void {
  expect(found.baseUrl).toBe(served.baseUrl);
  for (const [key, id] of Object.entries(found.fixture)) expect(id, key).toBe(served.fixture[key as keyof TargetFixture]);
  expect([...found.features].sort()).toEqual(served.features.filter((f) => f !== 'sourceUrl' && f !== 'disposable').sort());
  expect(stdout).toMatch(/sourceUrl: .*write/);
  expect(stdout).toMatch(/disposable: .*throwaway/);
}

describe('cms-conformance init', () => {
  it.each([['default'], ['field']] as const)('writes the target file serve --write-target writes (%s profile)', async (profile) => {
    const server = await startReferenceServer({ port: 0, profile });
    servers.push(server);
    const { target, stdout } = await init(server.target, profile);
    expectAgreement(target, server.target, stdout);
    // The ids a declared feature needs are all there (parseTarget checked), and the sandbox parent is the served one.
    expect(target.fixture.sandboxParentFolderId).toBe(server.target.fixture.sandboxParentFolderId);
    if (profile === 'field') expect(stdout).toMatch(/multichannelling: .* not declared/);
  });

  it('declares auth when the server refuses a read without the credentials given', async () => {
    const server = await startReferenceServer({ port: 0, authToken: 'init-test-token' });
    servers.push(server);
    const { target, stdout } = await init(server.target, 'auth', ['--query', 'sid=init-test-token']);
    expectAgreement(target, server.target, stdout);
    expect(target.features).toContain('auth');
    expect(target.auth.query).toEqual({ sid: 'init-test-token' });
    // Without the credentials it says so in one line and writes nothing.
    const bare = await cli('init', '--base-url', server.target.baseUrl, '--out', join(dir, 'bare.json'));
    expect(bare.code).toBe(3);
    expect(bare.stderr.trim().split('\n')).toEqual([expect.stringMatching(/asks for credentials/)]);
  });

  it('says in one line that a server does not answer like the contract (exit 3), and refuses bad options (exit 2)', async () => {
    const html = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
    await new Promise<void>((ok) => html.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(html.address() as AddressInfo).port}/rest`;
      const r = await cli('init', '--base-url', url, '--out', join(dir, 'html.json'));
      expect(r.code).toBe(3);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/does not answer like the contract/)]);
    } finally {
      await new Promise((ok) => html.close(ok));
    }
    expect((await cli('init', '--out', join(dir, 'x.json'))).code).toBe(2);
    expect((await cli('init', '--base-url', 'http://127.0.0.1:1/rest')).code).toBe(2);
    expect((await cli('init', '--base-url', 'http://127.0.0.1:1/rest', '--out', join(dir, 'y.json'), '--query', 'nosign')).code).toBe(2);
  });
});
