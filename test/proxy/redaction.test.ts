/**
 * A credential holding `+`, `/`, `=` and upper-case letters leaves no trace in what the proxy records,
 * however the server echoes it (issue 32): decoded with `+` as a space, JSON-escaped with `\/`,
 * lower-cased into a path, in base64.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startProxy, type SeenExchange } from '../../cli/proxy-relay.ts';
import { TrafficReport } from '../../cli/proxy-report.ts';
import { redact } from '../../reports/redact.ts';

const token = 'SecretToken+123/XYZ=';

describe('the proxy and a server that echoes a credential', () => {
  let upstream: Server;
  afterAll(() => new Promise((resolve) => upstream.close(resolve)));

  it('keeps every form of it out of the HAR and the reports', async () => {
    // The server echoes the sid it read (a form decoder reads + as a space) in the forms servers use.
    upstream = createServer((req, res) => {
      const sid = new URL(req.url ?? '/', 'http://x').searchParams.get('sid') ?? '';
      const phpJson = JSON.stringify({ sid }).replace(/\//g, '\\/');
      res.writeHead(200, { 'content-type': 'application/json', location: `/sandbox/n-${sid.toLowerCase().replace(/[^a-z0-9]/g, '')}/` });
      res.end(
        `{"messages":[{"message":${JSON.stringify(`bad sid ${sid} (${Buffer.from(token).toString('base64')})`)}}],"echo":${phpJson},"responseInfo":{"responseCode":"OK"}}`,
      );
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const seen: SeenExchange[] = [];
    const proxy = await startProxy({
      upstream: new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`),
      credentials: { query: ['sid'], headers: [] },
      onExchange: (s) => seen.push(s),
    });
    try {
      // The token sent raw: its + arrives as a space, / and = as they are.
      const res = await request(`${proxy.url}/rest/folder/load/1?sid=${token}`);
      await res.body.text();
      await proxy.idle();
    } finally {
      await proxy.close();
    }
    expect(seen).toHaveLength(1);
    const report = new TrafficReport(() => 'replay');
    report.addExchange(seen[0]!);
    const written = JSON.stringify([seen[0]!.har, redact(report.results('http://x', [], new Date()), [...report.secrets])]);
    for (const trace of ['secrettoken', 'SecretToken', Buffer.from(token).toString('base64')]) expect(written).not.toContain(trace);
    expect(written).toContain('<redacted>');
  });
});
