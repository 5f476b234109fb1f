/**
 * "The same server gets the same verdict every run": two runs of one seed against two fresh reference
 * servers send the same requests, byte for byte, apart from what each run makes anew (its sandbox's
 * name, the port and unguessable paths of the file host that serves sourceURL content). A generator,
 * name or multipart boundary that came from the clock or Math.random would show here.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fileHostAddress } from '../../harness/filehost.ts';
import { SANDBOX_PREFIX } from '../../harness/sandbox.ts';
import { startReferenceServer } from '../../server/index.ts';
import { cli } from '../support/cli.ts';
import { startProxy } from '../support/proxy.ts';

vi.setConfig({ testTimeout: 300_000 });

const dir = mkdtempSync(join(tmpdir(), 'cms-determinism-'));

// Tests of one suite file, to keep this cheap: generated contents, multipart and raw uploads, generated
// names, a sourceURL download.
const ONLY = 'UPL-02,UPL-02a,UPL-04,UPL-07';

// The file host's address as it appears in URLs (harness/filehost.ts: an IPv6 literal in brackets), as a pattern.
const address = fileHostAddress();
const HOST = (address.includes(':') ? `[${address}]` : address).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a run makes anew (the sandbox's name, the file host's address and its unguessable paths), written one way. */
function normalized(text: string): string {
  return text
    .replace(new RegExp(`${SANDBOX_PREFIX}[0-9A-Za-z-]+`, 'g'), `${SANDBOX_PREFIX}SANDBOX`)
    .replace(new RegExp(`${HOST}:\\d+(/[0-9a-f]{16}/)?`, 'g'), 'FILEHOST/');
}

// A multipart body that names the file host has a boundary derived from its address: of such a request
// only the form of the boundary is compared.
const anyBoundary = (text: string): string => text.replace(/----CmsConformance[0-9a-f]{16}/g, '----CmsConformanceBOUNDARY');

/** The requests one run sends, in order, each as its method, URL, content type and body digest. */
async function requestsOfRun(name: string): Promise<string[]> {
  const server = await startReferenceServer();
  const seen: string[] = [];
  const { server: proxy, targetFile } = await startProxy(server, (req, _res, body) => {
    const text = body.toString('latin1');
    const namesHost = new RegExp(`${HOST}:\\d+`).test(text);
    const type = namesHost ? anyBoundary(req.headers['content-type'] ?? '') : (req.headers['content-type'] ?? '');
    const digest = createHash('sha256')
      .update(namesHost ? anyBoundary(normalized(text)) : normalized(text))
      .digest('hex')
      .slice(0, 16);
    seen.push(`${req.method} ${normalized(req.url ?? '')} ${type} ${body.length} ${digest}`);
    return false;
  });
  try {
    const run = await cli('run', '--target', targetFile, '--only', ONLY, '--runs', '3', '--concurrency', '1', '--out', join(dir, name));
    expect(run.code, run.stdout.slice(-2000)).toBe(0);
    return seen;
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
    await server.close();
  }
}

describe('determinism', () => {
  it('two runs of one seed against fresh servers send the same requests, byte for byte', async () => {
    const first = await requestsOfRun('first');
    const second = await requestsOfRun('second');
    expect(first.filter((r) => r.startsWith('POST ') && r.includes('multipart/form-data; boundary=')).length).toBeGreaterThan(10);
    expect(second).toEqual(first);
  });
});
