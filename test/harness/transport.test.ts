import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport, retryAfterMs } from '../../harness/transport.ts';
import type { Target } from '../../schemas/target.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number, body: string) => void;

/** A loopback server whose answers the test scripts; it counts requests, notes their arrival times and hands over their bodies. */
async function scripted(handler: Handler): Promise<{ target: Target; arrivals: number[]; close: () => Promise<void> }> {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    const n = arrivals.length;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, n, Buffer.concat(chunks).toString('latin1')));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const target: Target = {
    baseUrl: `http://127.0.0.1:${port}/rest`,
    auth: { query: {}, headers: {} },
    features: [],
    fixture: { masterNodeId: 1, masterRootFolderId: 1, sandboxParentFolderId: 1 },
  };
  return {
    target,
    arrivals,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const json = (res: ServerResponse, status: number, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end('{"messages":[],"responseInfo":{"responseCode":"OK"}}');
};

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

async function setup(handler: Handler, options: ConstructorParameters<typeof Transport>[1] = {}) {
  const s = await scripted(handler);
  const transport = new Transport(s.target, options);
  cleanup.push(() => transport.close(), s.close);
  return { ...s, transport };
}

describe('Transport politeness', () => {
  it('waits for a 429 with Retry-After and retries a GET', async () => {
    const { transport, arrivals } = await setup((_q, res, n) => (n === 1 ? json(res, 429, { 'retry-after': '0' }) : json(res, 200)));
    const ex = await transport.send({ method: 'GET', path: '/folder/load/1' });
    expect(ex.response?.status).toBe(200);
    expect(ex.retries).toBe(1);
    expect(arrivals).toHaveLength(2);
  });

  it('retries a POST after a 429, which says the server did not act, with the same body', async () => {
    const bodies: string[] = [];
    const { transport, arrivals } = await setup((_q, res, n, body) => {
      bodies.push(body);
      if (n === 1) json(res, 429, { 'retry-after': '0' });
      else json(res, 201);
    });
    const ex = await transport.send({ method: 'POST', path: '/folder/create', json: { name: 'a' } });
    expect(ex.response?.status).toBe(201);
    expect(ex.retries).toBe(1);
    expect(arrivals).toHaveLength(2);
    expect(bodies).toEqual(['{"name":"a"}', '{"name":"a"}']);
    expect(transport.counts).toMatchObject({ requests: 1, answers: 1, retries: 1 });
  });

  it('sends a multipart upload again whole after a 429', async () => {
    const sizes: number[] = [];
    const { transport } = await setup((_q, res, n, body) => {
      sizes.push(body.length);
      if (n === 1) json(res, 429, { 'retry-after': '0' });
      else json(res, 201);
    });
    const data = new Uint8Array(50_000).fill(7);
    const ex = await transport.send({
      method: 'POST',
      path: '/file/create',
      multipart: { fields: { folderId: '1' }, files: [{ name: 'fileBinaryData', filename: 'a.bin', data }] },
    });
    expect(ex.response?.status).toBe(201);
    expect(sizes).toHaveLength(2);
    expect(sizes[1]).toBe(sizes[0]);
    expect(sizes[0]).toBeGreaterThan(data.byteLength);
  });

  it('does not repeat a POST answered 503, which may have acted', async () => {
    const { transport, arrivals } = await setup((_q, res) => json(res, 503, { 'retry-after': '0' }));
    const ex = await transport.send({ method: 'POST', path: '/folder/create', json: {} });
    expect(ex.response?.status).toBe(503);
    expect(ex.retries).toBeUndefined();
    expect(arrivals).toHaveLength(1);
  });

  it('gives up after the bounded number of retries and does not retry other statuses', async () => {
    const { transport, arrivals } = await setup((_q, res, n) => json(res, n <= 10 ? 503 : 500, { 'retry-after': '0' }), { maxRetries: 2 });
    expect((await transport.send({ method: 'GET', path: '/file' })).response?.status).toBe(503);
    expect(arrivals).toHaveLength(3);
    const plain = await setup((_q, res) => json(res, 500));
    await plain.transport.send({ method: 'GET', path: '/file' });
    expect(plain.arrivals).toHaveLength(1);
  });

  it('retries a 429 of any method up to the bounded number of times', async () => {
    const { transport, arrivals } = await setup((_q, res) => json(res, 429, { 'retry-after': '0' }), { maxRetries: 3 });
    const ex = await transport.send({ method: 'POST', path: '/folder/delete/1' });
    expect(ex.response?.status).toBe(429);
    expect(ex.retries).toBe(3);
    expect(arrivals).toHaveLength(4);
    expect(transport.counts.retries).toBe(3);
  });

  it('waits until the HTTP date a Retry-After names', async () => {
    // Whole seconds, as HTTP dates have them, at least one second ahead.
    const at = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    const seen: number[] = [];
    const { transport } = await setup((_q, res, n) => {
      seen.push(Date.now());
      if (n === 1) json(res, 429, { 'retry-after': new Date(at).toUTCString() });
      else json(res, 200);
    });
    const ex = await transport.send({ method: 'POST', path: '/file/copy', json: {} });
    expect(ex.response?.status).toBe(200);
    expect(seen).toHaveLength(2);
    // Timers may fire a little early; the second attempt must not come noticeably before the date.
    expect(seen[1]!).toBeGreaterThanOrEqual(at - 20);
  });

  it('waits a default second after a 429 without Retry-After', async () => {
    const { transport, arrivals } = await setup((_q, res, n) => (n === 1 ? json(res, 429) : json(res, 200)));
    const ex = await transport.send({ method: 'GET', path: '/file' });
    expect(ex.response?.status).toBe(200);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(980);
  });

  it('stops retrying when the next wait would pass the cap on the total wait, and keeps the 429', async () => {
    const { transport, arrivals } = await setup((_q, res) => json(res, 429, { 'retry-after': '1' }), {
      maxRetries: 10,
      maxRetryWaitMs: 2500,
    });
    const started = performance.now();
    const ex = await transport.send({ method: 'GET', path: '/file' });
    expect(ex.response?.status).toBe(429);
    expect(ex.retries).toBe(2);
    expect(arrivals).toHaveLength(3);
    expect(performance.now() - started).toBeLessThan(2500);
  });

  it('does not wait at all for a Retry-After beyond the cap', async () => {
    const { transport, arrivals } = await setup((_q, res) => json(res, 503, { 'retry-after': '3600' }));
    const ex = await transport.send({ method: 'GET', path: '/file' });
    expect(ex.response?.status).toBe(503);
    expect(ex.retries).toBeUndefined();
    expect(arrivals).toHaveLength(1);
  });

  it('spaces requests by the rate cap', async () => {
    const { transport, arrivals } = await setup((_q, res) => json(res, 200), { rate: 20 });
    const start = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => transport.send({ method: 'GET', path: '/file' })));
    // 20 per second: the fifth request leaves four intervals of 50 ms after the first. Measured from the
    // start, not from the first arrival: a loaded machine delays arrivals, which only lengthens this span.
    expect(arrivals[4]! - start).toBeGreaterThanOrEqual(195);
  });

  it('keeps at most the concurrency cap in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const { transport } = await setup(
      (_q, res) => {
        inFlight++;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight--;
          json(res, 200);
        }, 20);
      },
      { concurrency: 2 },
    );
    await Promise.all(Array.from({ length: 6 }, () => transport.send({ method: 'GET', path: '/file' })));
    expect(most).toBe(2);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('Transport robustness', () => {
  it('turns a hung request into a TIMEOUT exchange instead of hanging', async () => {
    const { transport } = await setup(() => undefined, { timeoutMs: 200 });
    const ex = await transport.send({ method: 'GET', path: '/folder/load/1' });
    expect(ex.error?.code).toBe('TIMEOUT');
    expect(ex.response).toBeUndefined();
  });

  it('caps a huge body and says it was cut', async () => {
    const { transport } = await setup(
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('x'.repeat(100_000));
      },
      { maxBodyBytes: 1000 },
    );
    const ex = await transport.send({ method: 'GET', path: '/file' });
    expect(ex.response?.truncated).toBe(true);
    expect(ex.response?.text).toHaveLength(1000);
  });

  it('bounds the whole exchange: an answer that trickles in past the timeout is a TIMEOUT', async () => {
    const { transport } = await setup(
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        // Each piece comes well within the wait for the next piece, so only the bound on the whole can end it.
        const drip = setInterval(() => res.write(' '), 20);
        res.on('close', () => clearInterval(drip));
      },
      { timeoutMs: 300 },
    );
    const started = performance.now();
    const ex = await transport.send({ method: 'GET', path: '/file' });
    expect(ex.error?.code).toBe('TIMEOUT');
    expect(ex.response).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('reads the final answer after informational 1xx answers', async () => {
    const { transport } = await setup((_q, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      json(res, 201, { 'x-final': 'yes' });
    });
    const ex = await transport.send({ method: 'GET', path: '/file' });
    expect(ex.response?.status).toBe(201);
    expect(ex.response?.headers['x-final']).toBe('yes');
    expect(ex.response?.json).toEqual({ messages: [], responseInfo: { responseCode: 'OK' } });
  });

  it('answers the next request after a body it cut', async () => {
    const { transport } = await setup(
      (req, res) => {
        if (req.url?.includes('big')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('x'.repeat(100_000));
        } else json(res, 200);
      },
      { maxBodyBytes: 1000 },
    );
    expect((await transport.send({ method: 'GET', path: '/big' })).response?.truncated).toBe(true);
    const next = await transport.send({ method: 'GET', path: '/file' });
    expect(next.response?.status).toBe(200);
    expect(next.response?.truncated).toBe(false);
  });

  it('records a request undici refuses to send (a header value with a line break) as an error of the exchange', async () => {
    const { transport } = await setup((_q, res) => json(res, 200));
    const ex = await transport.send({ method: 'GET', path: '/file', headers: { 'x-bad': 'a\r\nb' } });
    expect(ex.error?.code).toBeDefined();
    expect(ex.response).toBeUndefined();
  });

  it('records a reset connection as an error of the exchange', async () => {
    const { transport } = await setup((req) => req.socket.destroy());
    const ex = await transport.send({ method: 'GET', path: '/file' });
    expect(ex.error?.code).toMatch(/^(UND_ERR_SOCKET|ECONNRESET|UND_ERR_CLOSED)/);
  });
});
