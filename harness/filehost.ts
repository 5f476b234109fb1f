/**
 * The suite's own file host, for uploads from a `sourceURL` (feature sourceUrl): a node:http server in
 * the test worker that serves given bytes at unguessable paths and counts the downloads. The target
 * must reach it: CMS_CONFORMANCE_FILEHOST names the address to bind and advertise (default 127.0.0.1),
 * for a target on another machine.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the host answers for one path. */
export interface HostedFile {
  data: Uint8Array;
  contentType: string;
  /** The status of the answer (default 200); 204 answers with no body at all. */
  status?: number;
}

/** A running file host. */
export interface FileHost {
  /** The host's origin, e.g. `http://127.0.0.1:40123`; paths under it reach the fallback. */
  url: string;
  /** Serves `data` under a fresh random path ending in `name` (with `status`, default 200) and returns its URL. */
  serve(name: string, data: Uint8Array, contentType?: string, status?: number): string;
  /** How many times the URL was downloaded (a GET answered with the bytes). */
  downloads(url: string): number;
  close(): Promise<void>;
}

/** Options of a file host. */
export interface FileHostOptions {
  /** The address to bind and put into URLs; default CMS_CONFORMANCE_FILEHOST, else 127.0.0.1. */
  host?: string;
  /** Answers paths that were not served explicitly (e.g. content derived from the path); default 404. */
  fallback?: (path: string) => HostedFile | undefined;
}

/** The address the file host binds and advertises: CMS_CONFORMANCE_FILEHOST, else 127.0.0.1. */
export function fileHostAddress(env: NodeJS.ProcessEnv = process.env): string {
  return env.CMS_CONFORMANCE_FILEHOST?.trim() || '127.0.0.1';
}

/** Starts a file host on a free port; close it when the test ends. */
export async function startFileHost(options: FileHostOptions = {}): Promise<FileHost> {
  const host = options.host ?? fileHostAddress();
  const files = new Map<string, HostedFile>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const file = files.get(path) ?? options.fallback?.(path);
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (file.status === 204) {
      if (req.method === 'GET') counts.set(path, (counts.get(path) ?? 0) + 1);
      res.writeHead(204).end();
      return;
    }
    res.writeHead(file.status ?? 200, { 'content-type': file.contentType, 'content-length': file.data.byteLength });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    counts.set(path, (counts.get(path) ?? 0) + 1);
    res.end(file.data);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // An IPv6 literal needs brackets in a URL.
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const pathOf = (url: string): string => (url.startsWith(origin) ? url.slice(origin.length) : url);
  return {
    url: origin,
    serve(name, data, contentType = 'application/octet-stream', status = 200) {
      const path = `/${randomBytes(8).toString('hex')}/${encodeURIComponent(name)}`;
      files.set(path, { data, contentType, status });
      return origin + path;
    },
    downloads: (url) => counts.get(pathOf(url)) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
