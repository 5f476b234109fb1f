/**
 * The proxy is transparent: what a client gets through it is what it gets from the server directly
 * (status, headers, body bytes), uploads reach the server byte for byte, large bodies stream in both
 * directions instead of being held whole, connections are kept alive, and hop-by-hop headers stay on
 * their own connection.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startProxy, type RunningProxy, type SeenExchange } from '../../cli/proxy-relay.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { lookup } from '../../server/state.ts';

const sha = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** What a client got: status, headers (without the per-connection and per-second ones) and body bytes. */
interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

async function send(
  origin: string,
  path: string,
  options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Got> {
  const res = await request(`${origin}${path}`, { method: options.method ?? 'GET', headers: options.headers, body: options.body });
  const body = Buffer.from(await res.body.arrayBuffer());
  const headers = { ...res.headers };
  for (const h of ['date', 'connection', 'keep-alive', 'transfer-encoding']) delete headers[h];
  return { status: res.statusCode, headers, body };
}

/** A multipart/form-data body built byte by byte with a fixed boundary, so two sends are identical. */
function multipart(parts: { name: string; filename?: string; type?: string; data: Buffer | string }[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

describe('against the reference server: through the proxy as directly', () => {
  // Two servers with the same fixture and a fixed clock (their records' and their refusal messages')
  // answer the same requests with the same bytes: one is asked directly, the other through the proxy.
  let direct: ReferenceServer;
  let behind: ReferenceServer;
  let proxy: RunningProxy;
  const seen: SeenExchange[] = [];
  const limits = { bodyBytes: 64 * 2 ** 20, fileBytes: 64 * 2 ** 20 };
  const clock = () => 1_767_225_600_000;

  beforeAll(async () => {
    direct = await startReferenceServer({ limits });
    behind = await startReferenceServer({ limits });
    Object.assign(direct.state, { now: clock });
    Object.assign(behind.state, { now: clock });
    vi.spyOn(Date, 'now').mockImplementation(clock);
    proxy = await startProxy({ upstream: new URL(behind.baseUrl), port: 0, onExchange: (s) => seen.push(s) });
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await proxy?.close();
    await direct?.close();
    await behind?.close();
  });

  /** The bytes the server behind the proxy stored for an uploaded file (by id, or by the upload's answer). */
  function storedBytes(uploaded: number | Got): Buffer {
    const id = typeof uploaded === 'number' ? uploaded : (JSON.parse(uploaded.body.toString()) as { file: { id: number } }).file.id;
    const file = lookup(behind.state, id);
    return file && 'data' in file && file.data ? file.data : Buffer.alloc(0);
  }

  /** Sends the same request to both; returns both answers. */
  async function both(path: string, options: Parameters<typeof send>[2] = {}): Promise<[Got, Got]> {
    const d = await send(new URL(direct.baseUrl).origin, `/rest${path}`, options);
    const p = await send(proxy.url, `/rest${path}`, options);
    return [d, p];
  }

  it('answers curl-like GETs, refusals included, with the same status, headers and bytes', async () => {
    const root = direct.target.fixture.masterRootFolderId;
    for (const path of [
      `/folder/load/${root}`,
      `/folder/getFiles/${root}?recursive=true&maxItems=3&sortby=edate&sortorder=desc`,
      `/file?folderId=${root}&recursive=true&page=2&pageSize=2`,
      '/folder/load/99999',
      `/folder/getFiles/${root}?maxItems=abc`,
    ]) {
      const [d, p] = await both(path, { headers: { accept: 'application/json', 'user-agent': 'curl/8.5.0' } });
      expect(p.status, path).toBe(d.status);
      expect(p.headers, path).toEqual(d.headers);
      expect(p.body.equals(d.body), path).toBe(true);
    }
  });

  it('passes a JSON POST, a multipart upload and a raw upload byte for byte, and the server stores the same bytes', async () => {
    const folder = direct.target.fixture.sandboxParentFolderId;
    const [dc, pc] = await both('/folder/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ motherId: String(folder), name: 'through the proxy' }),
    });
    expect([pc.status, pc.body.toString()]).toEqual([dc.status, dc.body.toString()]);

    const image = randomBytes(200_000);
    const form = multipart(
      [
        { name: 'folderId', data: String(folder) },
        { name: 'fileName', data: 'photo.png' },
        { name: 'fileBinaryData', filename: 'photo.png', type: 'image/png', data: image },
      ],
      'proxyTestBoundary42',
    );
    const [dm, pm] = await both('/file/create', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=proxyTestBoundary42' },
      body: form,
    });
    expect(pm.status).toBe(201);
    expect([pm.status, pm.headers, pm.body.toString()]).toEqual([dm.status, dm.headers, dm.body.toString()]);
    const uploaded = (JSON.parse(pm.body.toString()) as { file: { id: number } }).file.id;
    expect(sha(storedBytes(uploaded))).toBe(sha(image));

    const raw = randomBytes(65_537);
    const [dr, pr] = await both(`/file/createSimple?folderId=${folder}&qqfile=blob.bin`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: raw,
    });
    expect(pr.status).toBe(201);
    expect([pr.status, pr.headers, pr.body.toString()]).toEqual([dr.status, dr.headers, dr.body.toString()]);
    expect(sha(storedBytes(pr))).toBe(sha(raw));
  });

  it('passes a 30 MB raw upload, which the server stores whole, and records it by size and digest', async () => {
    const folder = direct.target.fixture.sandboxParentFolderId;
    const big = randomBytes(30 * 2 ** 20);
    const [d, p] = await both(`/file/createSimple?folderId=${folder}&qqfile=big.bin`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: big,
    });
    expect(p.status).toBe(201);
    expect([p.status, p.headers, p.body.toString()]).toEqual([d.status, d.headers, d.body.toString()]);
    expect(sha(storedBytes(p))).toBe(sha(big));
    await proxy.idle();
    const recorded = seen.find((s) => s.exchange.request.url.includes('qqfile=big.bin'))!;
    expect(recorded.exchange.request.body).toEqual({
      kind: 'binary',
      contentType: 'application/octet-stream',
      size: big.length,
      sha256: sha(big),
    });
    expect(recorded.observation?.operation.id).toBe('file.createSimple.raw');
    expect(recorded.observation?.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});

describe('against a bare upstream: streaming, keep-alive, hop-by-hop headers', () => {
  let upstream: http.Server;
  let origin: string;
  let proxy: RunningProxy;
  /** What the upstream saw of each request: headers, body size and digest, and the proxy's socket port. */
  const received: { headers: http.IncomingHttpHeaders; size: number; sha256: string; port: number }[] = [];
  /** Resolved by the upstream on the first body byte of a streamed request. */
  let firstByte: (() => void) | undefined;
  /** Awaited by the upstream after the first chunk of a streamed answer, until the client has it. */
  let clientHasChunk: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      if (req.url === '/hangup') {
        req.socket.destroy();
        return;
      }
      if (req.url === '/early') {
        // A server that refuses a body by its announced size, answers at once and hangs up, as for a 413.
        res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' });
        res.end('too large');
        return;
      }
      const hash = createHash('sha256');
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        if (size === 0) firstByte?.();
        size += chunk.length;
        hash.update(chunk);
      });
      req.on('end', async () => {
        received.push({ headers: req.headers, size, sha256: hash.digest('hex'), port: req.socket.remotePort ?? 0 });
        if (req.url === '/stream-down') {
          const chunk = Buffer.alloc(2 ** 20, 7);
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          res.write(chunk);
          await clientHasChunk;
          for (let i = 0; i < 29; i++) res.write(chunk);
          res.end();
          return;
        }
        // An unusual answer: custom reason phrase, repeated headers, mixed-case names.
        res.writeHead(299, 'Quite Fine', [
          ['Set-Cookie', 'a=1; Path=/'],
          ['Set-Cookie', 'b=2; Path=/'],
          ['X-Mixed-Case', 'yes'],
          ['Content-Type', 'text/plain'],
        ]);
        res.end(String(size));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    proxy = await startProxy({ upstream: new URL(origin), port: 0 });
  });

  afterAll(async () => {
    await proxy?.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('keeps status text, repeated headers and header case as the upstream sent them', async () => {
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(`${proxy.url}/odd`, resolve).on('error', reject));
    answer.resume();
    expect([answer.statusCode, answer.statusMessage]).toEqual([299, 'Quite Fine']);
    expect(answer.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(answer.rawHeaders).toContain('X-Mixed-Case');
  });

  it('keeps hop-by-hop headers on their own connection and forwards the rest', async () => {
    received.length = 0;
    // node's client, not undici: undici keeps the Connection header to itself.
    await new Promise<void>((resolve, reject) => {
      const headers = { connection: 'keep-alive, x-hop', 'x-hop': 'only for the proxy', 'x-end-to-end': 'for the server', te: 'trailers' };
      http.get(`${proxy.url}/hop`, { headers }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
    const headers = received[0]!.headers;
    expect(headers['x-hop']).toBeUndefined();
    expect(headers.te).toBeUndefined();
    expect(headers['x-end-to-end']).toBe('for the server');
    expect(headers.host).toBe(new URL(origin).host);
  });

  it('passes an answer the upstream gives before the body is sent (a 413), not a gateway error', async () => {
    const big = randomBytes(8 * 2 ** 20);
    const direct = await send(origin, '/early', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: big,
    }).catch((err: Error) => err);
    const proxied = await send(proxy.url, '/early', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: big });
    expect(direct).not.toBeInstanceOf(Error);
    expect([proxied.status, proxied.body.toString()]).toEqual([(direct as Got).status, (direct as Got).body.toString()]);
  });

  it('passes a broken connection on as a broken connection, and answers 502 only when no server is there', async () => {
    await expect(send(origin, '/hangup')).rejects.toThrow();
    await expect(send(proxy.url, '/hangup')).rejects.toThrow();
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = await startProxy({ upstream: new URL(`http://127.0.0.1:${port}`), port: 0 });
    try {
      const got = await send(nowhere.url, '/folder/load/1');
      expect(got.status).toBe(502);
      expect(got.body.toString()).toMatch(/did not answer \(ECONNREFUSED/);
    } finally {
      await nowhere.close();
    }
  });

  it('keeps connections alive on both sides', async () => {
    received.length = 0;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${proxy.url}/again`, { agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('socket', (s) => sockets.add(s));
        req.on('error', reject);
      });
    }
    agent.destroy();
    expect(sockets.size).toBe(1);
    expect(new Set(received.map((r) => r.port)).size).toBe(1);
  });

  it('streams a 30 MB upload: the upstream has its first bytes before the client has sent the rest', async () => {
    received.length = 0;
    const chunk = randomBytes(2 ** 20);
    const total = createHash('sha256');
    const upstreamHasBytes = new Promise<void>((resolve) => (firstByte = resolve));
    const answer = new Promise<string>((resolve, reject) => {
      const req = http.request(
        `${proxy.url}/stream-up`,
        { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(30 * chunk.length) } },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.write(chunk);
      total.update(chunk);
      // Held whole, the body would never reach the upstream before it ended: this would wait forever.
      void upstreamHasBytes.then(() => {
        for (let i = 1; i < 30; i++) {
          req.write(chunk);
          total.update(chunk);
        }
        req.end();
      });
    });
    expect(await answer).toBe(String(30 * chunk.length));
    expect(received[0]).toMatchObject({ size: 30 * chunk.length, sha256: total.digest('hex') });
    firstByte = undefined;
  });

  it('streams a 30 MB answer: the client has its first bytes before the upstream sends the rest', async () => {
    let release: () => void = () => {};
    clientHasChunk = new Promise<void>((resolve) => (release = resolve));
    const size = await new Promise<number>((resolve, reject) => {
      http
        .get(`${proxy.url}/stream-down`, (res) => {
          let n = 0;
          res.on('data', (d: Buffer) => {
            n += d.length;
            release();
          });
          res.on('end', () => resolve(n));
        })
        .on('error', reject);
    });
    expect(size).toBe(30 * 2 ** 20);
  });
});
