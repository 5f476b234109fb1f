import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxTime } from '../../cli/clean.ts';
import { createFolder, sandboxName } from '../../harness/sandbox.ts';
import { Transport } from '../../harness/transport.ts';
import { cli } from '../support/cli.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';

let server: ReferenceServer;
let transport: Transport;
let targetFile: string;

beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  transport = new Transport(server.target);
  targetFile = join(mkdtempSync(join(tmpdir(), 'cms-clean-')), 'target.json');
  writeFileSync(targetFile, JSON.stringify(server.target));
});
afterAll(async () => {
  await transport.close();
  await server.close();
});

async function childNames(): Promise<string[]> {
  const ex = await transport.send({ method: 'GET', path: `/folder/getFolders/${server.target.fixture.sandboxParentFolderId}` });
  return ((ex.response?.json as { folders?: { name?: string }[] }).folders ?? []).map((f) => f.name ?? '');
}

describe('cms-conformance clean', () => {
  it('reads the time a sandbox name carries and ignores other names', () => {
    expect(sandboxTime(sandboxName(new Date('2026-01-02T03:04:05.678Z')))).toEqual(new Date('2026-01-02T03:04:05Z'));
    expect(sandboxTime('News')).toBeUndefined();
  });

  it('removes old sandboxes, keeps recent ones and everything else', async () => {
    const parent = server.target.fixture.sandboxParentFolderId;
    const old = sandboxName(new Date(Date.now() - 3 * 3600_000));
    const fresh = sandboxName();
    await createFolder((spec) => transport.send(spec), parent, old);
    await createFolder((spec) => transport.send(spec), parent, fresh);
    await createFolder((spec) => transport.send(spec), parent, 'cmsconf-kept-not-a-timestamp');
    const dry = await cli('clean', '--target', targetFile, '--dry-run');
    expect(dry.stdout).toMatch(new RegExp(`would remove \\d+ ${old}`));
    expect(await childNames()).toContain(old);
    const { stdout, code } = await cli('clean', '--target', targetFile);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`removed \\d+ ${old}`));
    const names = await childNames();
    expect(names).not.toContain(old);
    expect(names).toContain(fresh);
    expect(names).toContain('cmsconf-kept-not-a-timestamp');
  });

  it('removes the one sandbox --name names, whatever its age, and nothing else', async () => {
    const parent = server.target.fixture.sandboxParentFolderId;
    const [named, other] = [sandboxName(), sandboxName()];
    await createFolder((spec) => transport.send(spec), parent, named);
    await createFolder((spec) => transport.send(spec), parent, other);
    const { stdout, code } = await cli('clean', '--target', targetFile, '--name', named);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`removed \\d+ ${named}`));
    expect(await childNames()).not.toContain(named);
    expect(await childNames()).toContain(other);
    // Asked again, there is nothing left to remove, which is what was asked.
    expect(await cli('clean', '--target', targetFile, '--name', named)).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/nothing to remove/),
    });
  });

  it('refuses a --name that is not a sandbox name, and --name with --older-than', async () => {
    expect(await cli('clean', '--target', targetFile, '--name', 'News')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--name must be a sandbox's name/),
    });
    expect(await cli('clean', '--target', targetFile, '--name', sandboxName(), '--older-than', '0')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--name and --older-than do not go together/),
    });
  });

  it('needs a target file', async () => {
    expect(await cli('clean')).toMatchObject({ code: 2, stderr: expect.stringMatching(/clean needs --target FILE/) });
  });
});
