/**
 * A relay that makes a server ignore one parameter of one operation: it forwards every request to the
 * upstream unchanged except that, in requests of that operation, the parameter is removed (a query
 * parameter from the query, a body member from the JSON body). The parameter proof
 * (cli/prove-parameters.ts) runs the tests that claim to judge the parameter through it: a claim is
 * true only when one of them then fails.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import { findOperation } from '../schemas/operations.ts';
import { HOP_BY_HOP } from './proxy-relay.ts';

/** The parameter a relay removes: a query parameter or a top-level JSON body member of one operation. */
export interface DroppedParameter {
  operation: string;
  parameter: string;
  in: 'query' | 'body';
}

/** A running parameter relay. */
export interface ParameterRelay {
  /** The base URL to give the suite: the upstream's, with the relay's origin. */
  baseUrl: string;
  /** Requests whose parameter the relay removed so far. */
  readonly dropped: number;
  close(): Promise<void>;
}

/** The request target with the parameter removed when the request belongs to the operation; undefined when it does not. */
export function withoutParameter(
  method: string,
  target: string,
  basePath: string,
  contentType: string | undefined,
  drop: DroppedParameter,
): string | undefined {
  const q = target.indexOf('?');
  if (q < 0 || !ofOperation(method, target, basePath, contentType, drop)) return undefined;
  const path = target.slice(0, q);
  const params = new URLSearchParams(target.slice(q + 1));
  if (!params.has(drop.parameter)) return undefined;
  params.delete(drop.parameter);
  const rest = params.toString();
  return rest ? `${path}?${rest}` : path;
}

/** Whether a request belongs to the operation whose parameter the relay removes. */
function ofOperation(method: string, target: string, basePath: string, contentType: string | undefined, drop: DroppedParameter): boolean {
  const path = target.split('?')[0]!;
  return path.startsWith(basePath) && findOperation(method, path.slice(basePath.length), contentType)?.id === drop.operation;
}

/** A JSON body without the member; undefined when it is no JSON object or has no such member. */
export function withoutMember(body: string, member: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !Object.hasOwn(json, member)) return undefined;
  const { [member]: _dropped, ...rest } = json as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** The whole body of a request. */
async function bodyOf(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a relay in front of `upstream` (a base URL such as `http://127.0.0.1:4000/rest`) that removes one parameter. */
export async function startParameterRelay(upstream: string, drop: DroppedParameter): Promise<ParameterRelay> {
  const base = new URL(upstream);
  const basePath = base.pathname.replace(/\/+$/, '');
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  let dropped = 0;
  /** The request's body as it goes on: streamed, or, for the operation's JSON bodies when a member goes, read and rewritten. */
  const bodyFor = async (req: http.IncomingMessage, headers: Record<string, string | string[]>): Promise<http.IncomingMessage | string> => {
    const type = req.headers['content-type'];
    if (
      drop.in !== 'body' ||
      !/^application\/json/i.test(type ?? '') ||
      !ofOperation(req.method ?? 'GET', req.url ?? '/', basePath, type, drop)
    )
      return req;
    const text = (await bodyOf(req)).toString('utf8');
    const changed = withoutMember(text, drop.parameter);
    if (changed !== undefined) dropped++;
    delete headers['transfer-encoding'];
    headers['content-length'] = String(Buffer.byteLength(changed ?? text));
    return changed ?? text;
  };
  const server = http.createServer((req, res) => {
    const target = req.url ?? '/';
    const changed =
      drop.in === 'query' ? withoutParameter(req.method ?? 'GET', target, basePath, req.headers['content-type'], drop) : undefined;
    if (changed !== undefined) dropped++;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'host') headers[name] = value;
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    (hasBody ? bodyFor(req, headers) : Promise.resolve(undefined))
      .then((body) =>
        request(new URL(changed ?? target, base.origin), {
          dispatcher: agent,
          method: (req.method ?? 'GET') as 'GET',
          headers,
          ...(body !== undefined ? { body } : {}),
        }),
      )
      .then(async (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
        res.writeHead(answer.statusCode, out);
        await pipeline(answer.body, res);
      })
      .catch((err: Error) => {
        // No answer from the upstream at all: the suite sees a gateway error, as it would behind any proxy.
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`parameter relay: ${err.message}`);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    get dropped() {
      return dropped;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}
