import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand, runLine } from '../../harness/replay.ts';
import { Transport } from '../../harness/transport.ts';
import type { Target } from '../../schemas/target.ts';

const run = promisify(execFile);
const seen: { url: string; auth?: string; body: string; contentType?: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization, body, contentType: req.headers['content-type'] });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ messages: [], responseInfo: { responseCode: 'OK' } }));
  });
});
let target: Target;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  target = {
    baseUrl: `http://127.0.0.1:${port}/rest`,
    auth: { query: { sid: 'S3CR3T' }, headers: { Authorization: 'Bearer T0K3N' } },
    features: [],
    fixture: { masterNodeId: 1, masterRootFolderId: 1, sandboxParentFolderId: 1 },
  };
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('replay lines', () => {
  it('keep credentials out of the recorded exchange and the curl line, which still reproduces the request', async () => {
    const transport = new Transport(target);
    const ex = await transport.send({
      method: 'POST',
      path: '/folder/create',
      query: { nodeId: 1 },
      json: { name: "it's", motherId: '1' },
    });
    await transport.close();
    const curl = curlCommand(ex, target.auth);
    for (const text of [JSON.stringify(ex), curl]) {
      expect(text).not.toContain('S3CR3T');
      expect(text).not.toContain('T0K3N');
    }
    expect(curl).toContain('$CMS_AUTH_SID');
    expect(curl).toContain('$CMS_AUTH_AUTHORIZATION');
    seen.length = 0;
    await run('sh', ['-c', curl], { env: { ...process.env, CMS_AUTH_SID: 'S3CR3T', CMS_AUTH_AUTHORIZATION: 'Bearer T0K3N' } });
    expect(seen).toEqual([
      {
        url: '/rest/folder/create?nodeId=1&sid=S3CR3T',
        auth: 'Bearer T0K3N',
        body: JSON.stringify({ name: "it's", motherId: '1' }),
        contentType: 'application/json',
      },
    ]);
  });

  it('record upload bodies as size and digest, never their bytes', async () => {
    const transport = new Transport(target);
    const data = new Uint8Array([0, 13, 10, 45, 45, 255]);
    const ex = await transport.send({
      method: 'POST',
      path: '/file/create',
      multipart: { fields: { folderId: '5' }, files: [{ name: 'fileBinaryData', filename: 'a.bin', data }] },
    });
    await transport.close();
    expect(ex.request.body).toEqual({
      kind: 'multipart',
      fields: { folderId: '5' },
      files: [
        {
          name: 'fileBinaryData',
          filename: 'a.bin',
          contentType: 'application/octet-stream',
          size: 6,
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      ],
    });
    expect(curlCommand(ex)).toMatch(/-F 'fileBinaryData=@FILE;filename=a.bin;type=application\/octet-stream'.* # FILE: 6 bytes, sha256 /);
  });

  it('name the requirement, seed and fast-check path of the case to replay', () => {
    expect(runLine({ requirement: 'PAG-03', seed: 42, path: '3:1:0', args: ['--target', 'vendor target.json', '--strict'] })).toBe(
      "npx cms-conformance run --only PAG-03 --seed 42 --replay-path '3:1:0' --target 'vendor target.json' --strict",
    );
  });
});
