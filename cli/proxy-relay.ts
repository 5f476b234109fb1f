/**
 * The relay: forwards a client's requests to the upstream and the answers back, byte for byte and
 * streamed both ways, keeping a capped copy of each body on the side (proxy-capture.ts); once an answer
 * has gone out, the exchange is recorded without its credentials and judged by the one judge and the
 * check registry (harness/registry.ts).
 */
import http from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { Transform } from 'node:stream';
import { Agent, type buildConnector, type Dispatcher } from 'undici';
import { operationOfExchange } from '../harness/judge.ts';
import { observe, type Observation } from '../harness/registry.ts';
import { REDACTED, redact } from '../reports/redact.ts';
import type { Exchange } from '../schemas/results.ts';
import {
  CAPTURE_BYTES,
  DEFAULT_SECRET_QUERY,
  MIN_COOKIE_SECRET,
  SECRET_REQUEST_HEADERS,
  SECRET_RESPONSE_HEADERS,
  Tee,
  decoded,
  headerText,
  recordedBody,
  requestTarget,
  type Answer,
  type CredentialNames,
  type Finished,
  type HarPair,
} from './proxy-capture.ts';
import { harEntry, type HarEntry } from './proxy-har.ts';

/** RFC 9110 7.6.1: these belong to one connection, not to the message; expect is answered by the proxy itself. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/** Raw header pairs without the hop-by-hop ones and those the Connection header names. */
function endToEnd(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

// Errors that mean no server could be reached at all (as opposed to one that broke a connection).
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
// Errors of a write to a peer that stopped reading: its answer may still be waiting to be read.
const BROKEN_WRITE = new Set(['EPIPE', 'ECONNRESET']);
// How long a socket whose writes broke keeps reading for the answer before it gives up.
const PATIENCE_MS = 2000;

/**
 * A socket to the upstream that outlives a broken write. A server may answer before it has read the
 * whole body (a 413 for a body over its limit) and hang up; the next write of the body then fails,
 * and an HTTP client that hears of it destroys the socket, dropping the answer that already arrived.
 * Here a write that fails because the server stopped reading is taken as done and later writes are
 * dropped: the socket reads on, the client library parses the answer, and the proxy forwards it as it
 * came. A server that hung up without answering is given up on after PATIENCE_MS.
 */
class PatientSocket extends Socket {
  private broken: Error | undefined;

  override _write(chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.broken) return callback();
    super._write(chunk, encoding, (error) => this.written(error, callback));
  }

  override _writev(chunks: { chunk: unknown; encoding: BufferEncoding }[], callback: (error?: Error | null) => void): void {
    if (this.broken) return callback();
    super._writev!(chunks, (error) => this.written(error, callback));
  }

  private written(error: Error | null | undefined, callback: (error?: Error | null) => void): void {
    const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
    if (!error || code === undefined || !BROKEN_WRITE.has(code)) return callback(error);
    this.broken = error;
    setTimeout(() => {
      if (!this.destroyed) this.destroy(error);
    }, PATIENCE_MS).unref();
    callback();
  }
}

/** undici's connector for plain HTTP upstreams, with patient sockets. */
function patientConnector(options: buildConnector.Options, callback: buildConnector.Callback): void {
  const socket = new PatientSocket();
  socket.setNoDelay(true);
  const failed = (err: Error) => callback(err, null);
  socket.once('error', failed);
  socket.connect(
    { host: options.hostname, port: Number(options.port) || 80, ...(options.localAddress ? { localAddress: options.localAddress } : {}) },
    () => {
      socket.off('error', failed);
      callback(null, socket);
    },
  );
}

/** One exchange the proxy forwarded, once judged. */
export interface SeenExchange {
  /** The exchange as reports show it: upstream URL, no credentials, upload bodies as size and digest. */
  exchange: Exchange;
  /** What the judge and the stateless checks found; undefined for a path the contract does not have, or no answer. */
  observation?: Observation;
  /** The exchange as HAR, credentials redacted. */
  har: HarEntry;
  /** The credential values the request carried, to scrub wherever a server echoes them. */
  secrets: string[];
  /** The credentials the request carried, by name: a curl line asks for them as shell variables. */
  credentials: { query: string[]; headers: string[] };
}

/** How to run a proxy. */
export interface ProxyOptions {
  /** The server to forward to. */
  upstream: URL;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  strict?: boolean;
  credentials?: CredentialNames;
  /** Bytes of each body kept for judging (default CAPTURE_BYTES). */
  captureBytes?: number;
  /** Called with every exchange once judged, after its answer went to the client. */
  onExchange?: (seen: SeenExchange) => void;
}

/** A running proxy. */
export interface RunningProxy {
  /** e.g. `http://127.0.0.1:8081`: the origin clients talk to. */
  url: string;
  /** Requests forwarded and not yet answered in full. */
  readonly inFlight: number;
  /** Resolves once every exchange answered so far has been judged. */
  idle(): Promise<void>;
  /**
   * Stops accepting, lets requests in flight finish for up to `graceMs`, then cuts the rest; resolves
   * when all is judged. A later call with a shorter grace cuts sooner.
   */
  close(graceMs?: number): Promise<void>;
}

/** What the relay shares between the requests it forwards. */
interface Relay {
  upstream: URL;
  agent: Agent;
  /** Bytes of each body kept. */
  cap: number;
  /** Query parameters and request headers (lower-case) that carry credentials. */
  queryNames: ReadonlySet<string>;
  headerNames: ReadonlySet<string>;
  strict: boolean;
  /** Counts a request in; returns its number. */
  begin(): number;
  /** Counts a request out and hands its exchange over to be recorded and judged. */
  end(f: Finished): void;
}

/** Forwards one request and its answer, and hands the finished exchange to the relay once, however it ended. */
function forward(relay: Relay, req: http.IncomingMessage, res: http.ServerResponse): void {
  const number = relay.begin();
  const startedAt = new Date();
  const t0 = performance.now();
  let ttfb = 0;
  const target = requestTarget(req.url ?? '/', relay.queryNames);
  const reqTee = new Tee(relay.cap);
  const resTee = new Tee(relay.cap);
  let answer: Answer | undefined;
  let error: { code: string; message: string } | undefined;
  let controller: Dispatcher.DispatchController | undefined;
  let done = false;
  let ended = false;

  const rawHeaders = endToEnd(req.rawHeaders);
  // The upstream's own name, as a reverse proxy sends it, so name-based virtual hosts answer.
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') rawHeaders[i + 1] = relay.upstream.host;
  if (!rawHeaders.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')) rawHeaders.push('Host', relay.upstream.host);

  const finish = () => {
    if (done) return;
    done = true;
    const durationMs = performance.now() - t0;
    relay.end({ number, startedAt, durationMs, ttfb, req, headers: rawHeaders, res: answer, reqTee, resTee, target, error });
  };
  res.on('finish', () => {
    // An answer sent before the whole body was read (a 413): the rest is read and dropped, so that the
    // client can finish sending and its connection stays usable, as a server that lingers would do.
    if (!req.complete) {
      req.unpipe(tee);
      req.resume();
    }
    finish();
  });
  res.on('close', () => {
    if (!res.writableFinished) error ??= { code: 'ECONNRESET', message: 'the client closed the connection before the answer was complete' };
    finish();
    // A client that went away mid-exchange: the upstream request goes with it.
    if (!res.writableFinished) controller?.abort(new Error('the client closed the connection'));
  });

  const hasBody =
    req.headers['transfer-encoding'] !== undefined ||
    (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
  if (!hasBody) req.resume();
  // The body is handed on chunk by chunk as it arrives, with backpressure both ways: never held whole.
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      reqTee.add(chunk);
      callback(null, chunk);
    },
  });
  if (hasBody) req.pipe(tee);
  // undici's dispatch gives the answer's raw headers and reason phrase as sent, and lets the answer's
  // pace follow the client's (pause and resume); the patient sockets keep an early answer readable.
  relay.agent.dispatch(
    {
      origin: relay.upstream.origin,
      path: target.path,
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: rawHeaders,
      body: hasBody ? tee : null,
    },
    {
      onRequestStart(c) {
        controller = c;
      },
      onResponseStart(c, statusCode, headers, statusMessage) {
        if (statusCode < 200) return;
        ttfb = performance.now() - t0;
        const raw = (c.rawHeaders ?? []) as (Buffer | string)[];
        const pairs = Array.isArray(raw) ? raw.map((h) => (typeof h === 'string' ? h : h.toString('latin1'))) : [];
        answer = { statusCode, statusMessage: statusMessage ?? '', rawHeaders: pairs, headers: headers as Answer['headers'] };
        res.writeHead(statusCode, statusMessage ?? '', endToEnd(pairs));
      },
      onResponseData(c, chunk) {
        resTee.add(chunk);
        if (!res.write(chunk)) {
          c.pause();
          res.once('drain', () => c.resume());
        }
      },
      onResponseEnd() {
        ended = true;
        res.end();
      },
      onResponseError(_c, err: Error & { code?: string }) {
        // An answer already complete stays complete, whatever the connection does after it.
        if (done || ended) return;
        // The body will not be sent on: read and drop the rest, so the client is not left sending.
        if (hasBody) {
          req.unpipe(tee);
          req.resume();
        }
        error = { code: err.code ?? err.name, message: err.message };
        if (!res.headersSent && UNREACHABLE.has(error.code)) {
          // No server to answer: say so as a gateway would; this is no answer of the server to judge.
          res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`cms-conformance proxy: ${relay.upstream.origin} did not answer (${error.code}: ${error.message})\n`);
        } else {
          // The server broke the connection: the client sees it broken too, not a status nobody sent.
          res.destroy();
        }
      },
    },
  );
}

/** The recorded exchange of a forwarded request (credentials out), judged, and its HAR entry. */
function recordExchange(f: Finished, relay: Pick<Relay, 'upstream' | 'cap' | 'headerNames' | 'strict'>): SeenExchange {
  const secrets = f.target.secrets.filter(Boolean);
  const credentialHeaders: string[] = [];
  const requestHeaders: Record<string, string> = {};
  const harRequestHeaders: HarPair[] = [];
  for (let i = 0; i < f.headers.length; i += 2) {
    const name = f.headers[i]!;
    const value = f.headers[i + 1]!;
    const lower = name.toLowerCase();
    if (relay.headerNames.has(lower)) {
      if (lower === 'cookie') {
        for (const c of value.split(';'))
          if (c.slice(c.indexOf('=') + 1).trim().length >= MIN_COOKIE_SECRET) secrets.push(c.slice(c.indexOf('=') + 1).trim());
      } else {
        credentialHeaders.push(lower);
        if (value) secrets.push(value);
      }
      harRequestHeaders.push({ name, value: REDACTED });
      continue;
    }
    harRequestHeaders.push({ name, value });
    // A curl line computes these itself.
    if (lower === 'host' || lower === 'content-length') continue;
    requestHeaders[lower] = requestHeaders[lower] === undefined ? value : `${requestHeaders[lower]}, ${value}`;
  }
  const body = recordedBody(f.reqTee, f.req.headers['content-type']);
  const exchange: Exchange = {
    seq: f.number,
    request: {
      method: (f.req.method ?? 'GET').toUpperCase(),
      url: `${relay.upstream.origin}${f.target.recorded}`,
      headers: requestHeaders,
      ...(body ? { body } : {}),
    },
    durationMs: Math.round(f.durationMs),
  };
  const res = f.res;
  let bytes: Buffer | undefined;
  if (res && !f.error) {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined && !SECRET_RESPONSE_HEADERS.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    bytes = decoded(f.resTee, headerText(res.headers['content-encoding']));
    exchange.response = { status: res.statusCode, headers, text: bytes?.toString('utf8') ?? '', truncated: bytes === undefined };
  } else if (f.error) exchange.error = f.error;
  let observation: Observation | undefined;
  // Only answers to operations of the contract are parsed and judged: a page's scripts and images are not the contract's.
  if (exchange.response && operationOfExchange(exchange)) {
    try {
      exchange.response.json = JSON.parse(exchange.response.text);
    } catch (err) {
      exchange.response.jsonError = (err as Error).message;
    }
    observation = observe(exchange, { strict: relay.strict });
  }
  const har = harEntry(f, body, bytes, exchange, harRequestHeaders, relay.upstream, relay.cap);
  return {
    exchange,
    ...(observation ? { observation } : {}),
    // A server may echo a credential (in a message, a redirect): the HAR is scrubbed of every form of it.
    har: secrets.length ? redact(har, secrets) : har,
    secrets,
    credentials: { query: [...new Set(f.target.found)], headers: [...new Set(credentialHeaders)] },
  };
}

/** Starts a proxy to `options.upstream`; resolves once it listens. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = options.upstream;
  // Keep-alive connections to the upstream, as many as the clients' requests in flight need.
  const agent = new Agent({ keepAliveTimeout: 10_000, ...(upstream.protocol === 'http:' ? { connect: patientConnector } : {}) });
  let seq = 0;
  let inFlight = 0;
  let judging = 0;
  let waiters: (() => void)[] = [];
  const settle = () => {
    if (inFlight > 0 || judging > 0) return;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
  };
  const relay: Relay = {
    upstream,
    agent,
    cap: options.captureBytes ?? CAPTURE_BYTES,
    queryNames: new Set([...DEFAULT_SECRET_QUERY, ...(options.credentials?.query ?? [])]),
    headerNames: new Set([...SECRET_REQUEST_HEADERS, ...(options.credentials?.headers ?? []).map((h) => h.toLowerCase())]),
    strict: options.strict ?? false,
    begin() {
      inFlight++;
      return ++seq;
    },
    end(f) {
      inFlight--;
      // Judged beside the forwarding: it runs after the answer has gone out.
      judging++;
      setImmediate(() => {
        try {
          options.onExchange?.(recordExchange(f, relay));
        } finally {
          judging--;
          settle();
        }
      });
      settle();
    },
  };
  const server = http.createServer({ requestTimeout: 0 }, (req, res) => forward(relay, req, res));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  const idle = () =>
    new Promise<void>((resolve) => {
      waiters.push(resolve);
      settle();
    });
  return {
    url: `http://${host}:${address.port}`,
    get inFlight() {
      return inFlight;
    },
    idle,
    close(graceMs = 5000) {
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await idle();
        await agent.close();
      })();
      return closing.finally(() => clearTimeout(cut));
    },
  };
}
