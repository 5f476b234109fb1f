/**
 * Large answers are written into buffers the server uses again (server/json.ts): over real HTTP, an
 * answer still waiting for a slow client keeps its buffer, and many different large pages in flight at
 * once each arrive whole and as themselves.
 */
import { connect } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';

let server: ReferenceServer;
let pool: Pool;
let base: string;
let folderId: number;
/** Enough files for a listing of several MB: more than loopback sockets take before the server's write waits. */
const FILES = 6000;

beforeAll(async () => {
  server = await startReferenceServer();
  const url = new URL(server.baseUrl);
  base = url.pathname;
  pool = new Pool(url.origin, { connections: 16 });
  const created = await pool.request({
    method: 'POST',
    path: `${base}/folder/create`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ motherId: String(server.target.fixture.sandboxParentFolderId), name: 'many files' }),
  });
  folderId = ((await created.body.json()) as { folder: { id: number } }).folder.id;
  let next = 0;
  const create = async () => {
    for (let i = next++; i < FILES; i = next++) {
      const res = await pool.request({
        method: 'POST',
        path: `${base}/file/createSimple?folderId=${folderId}&qqfile=f${String(i).padStart(4, '0')}.txt`,
        headers: { 'content-type': 'application/octet-stream' },
        body: `content of file ${i}`,
      });
      await res.body.dump();
    }
  };
  await Promise.all(Array.from({ length: 16 }, create));
});

afterAll(async () => {
  await pool.close();
  await server.close();
});

/** The body of one GET sent on a socket of its own that reads nothing until `readAfter` has run. */
async function slowlyRead(path: string, readAfter: () => Promise<void>): Promise<string> {
  const { hostname, port } = new URL(server.baseUrl);
  const socket = connect(Number(port), hostname);
  socket.pause();
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
  // Long enough for the server to have written what the socket takes and to wait for the rest.
  await new Promise((resolve) => setTimeout(resolve, 200));
  await readAfter();
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.resume();
  await new Promise((resolve) => socket.once('end', resolve));
  const raw = Buffer.concat(chunks).toString();
  return raw.slice(raw.indexOf('\r\n\r\n') + 4);
}

const names = (skip: number, count: number) => Array.from({ length: count }, (_, k) => `f${String(skip + k).padStart(4, '0')}.txt`);

describe('large answers', () => {
  it('an answer whose client reads slowly keeps its buffer while other answers of its size are written', async () => {
    const pagePath = (skip: number) => `${base}/folder/getFiles/${folderId}?maxItems=5000&skipCount=${skip}`;
    const body = await slowlyRead(pagePath(0), async () => {
      // Other lists of the same size, written while the first still waits for its client.
      await Promise.all([1, 2, 3, 4].map(async (skip) => (await pool.request({ method: 'GET', path: pagePath(skip) })).body.dump()));
    });
    expect(body.length).toBeGreaterThan(4 * 1024 * 1024);
    expect((JSON.parse(body) as { files: { name: string }[] }).files.map((f) => f.name)).toEqual(names(0, 5000));
  });

  it('pages of 100 to 400 KB, 16 in flight again and again, each arrive whole and with their own files', async () => {
    // Larger than a socket takes at once: the server's write waits for the client, its buffer still in use.
    const page = async (skip: number) => {
      const res = await pool.request({ method: 'GET', path: `${base}/folder/getFiles/${folderId}?maxItems=400&skipCount=${skip}` });
      return (await res.body.json()) as { files: { name: string }[] };
    };
    const skips = Array.from({ length: 96 }, (_, i) => (i * 37) % 500);
    const pages = await Promise.all(skips.map(page));
    expect(JSON.stringify(pages[0]).length).toBeGreaterThan(256 * 1024);
    pages.forEach((p, i) => {
      const skip = skips[i]!;
      expect(p.files.map((f) => f.name)).toEqual(names(skip, 400));
    });
  });
});
