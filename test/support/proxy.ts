/** A proxy in front of a reference server, for tests that watch or break what a target answers. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReferenceServer } from '../../server/index.ts';

/** Sees each request with its whole body; answers it itself and returns true, or returns false to forward it. */
export type Intercept = (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean;

/**
 * Starts the proxy and writes a target file naming it (the upstream's fixture and credentials). The
 * upstream may be given as a function, asked at each request: one proxy then serves servers in turn.
 */
export async function startProxy(
  upstream: ReferenceServer | (() => ReferenceServer),
  intercept: Intercept,
  /** Each forwarded request waits this long first: a slow target. */
  delayMs = 0,
): Promise<{ server: Server; targetFile: string }> {
  const current = typeof upstream === 'function' ? upstream : () => upstream;
  const server = createServer((req, res) => {
    const up = new URL(current().baseUrl);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (intercept(req, res, body)) return;
      const forward = () => {
        const fwd = request({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        fwd.on('error', () => res.destroy());
        fwd.end(body);
      };
      if (delayMs) setTimeout(forward, delayMs);
      else forward();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const targetFile = join(mkdtempSync(join(tmpdir(), 'cms-proxy-')), 'target.json');
  writeFileSync(targetFile, JSON.stringify({ ...current().target, baseUrl: `http://127.0.0.1:${port}/rest` }));
  return { server, targetFile };
}
