/**
 * `cms-conformance proxy`: a transparent HTTP proxy in front of a server that judges the traffic a
 * real client sends through it. Requests and answers are piped byte for byte in both directions (a
 * capped copy is kept on the side); once an answer has been sent, the exchange goes through the one
 * judge and the checks one exchange allows (harness/exchange-checks.ts), and each new finding is
 * printed. On SIGINT or SIGTERM the usual reports are written, and the traffic as HAR with --har.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import http from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { relative } from 'node:path';
import { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, type buildConnector, type Dispatcher } from 'undici';
import { intOption, outDirOption, parseOptions, UsageError, type Command } from './args.ts';
import { reportedExchange, type Finding } from '../harness/checks.ts';
import { DEFAULT_SEED } from '../harness/config.ts';
import { exchangeLine, findingLine, observe, type Observation } from '../harness/exchange-checks.ts';
import { operationOfExchange, severityIn } from '../harness/judge.ts';
import { curlCommand, runLine } from '../harness/replay.ts';
import { loadTargetFile, TargetError } from '../harness/target.ts';
import { finishRun } from '../reports/index.ts';
import { REDACTED, redact } from '../reports/redact.ts';
import { exchangeTotals, familyOf, summarize } from '../reports/results.ts';
import { verdictOf } from '../reports/expectations.ts';
import type { Exchange, RecordedBody, ReportedFinding, Results, TestResult } from '../schemas/results.ts';
import type { Target } from '../schemas/target.ts';

const usage = `usage: cms-conformance proxy --upstream URL [--port P] [--host HOST] [--target FILE] [--out DIR]
                             [--har FILE] [--strict]

A transparent HTTP proxy in front of a server: point a client or a browser at it and every exchange
passing through is judged by the suite's judge (status, content type, envelope, response schema,
unknown members, no 5xx) and by the checks one answer allows (paging slices and numItems/hasMoreItems,
order against sortby/sortorder/sort, wastebin marks, filters the records refute). Each new finding is
printed as it is seen. Bodies pass byte for byte and are streamed; headers and status pass unchanged.
Paths are forwarded as they are: with --upstream http://host:8080/rest, point the client at
http://127.0.0.1:P/rest. Stop it with Ctrl-C (SIGINT) or SIGTERM: it writes the reports.

options:
  --upstream URL   the server to forward to (required); its path is the contract's base URL
  --port P         port to listen on, 0 picks a free one (default 8081)
  --host HOST      interface to listen on (default 127.0.0.1)
  --target FILE    the server's target file: the names of its credentials (auth.query, auth.headers),
                   which never appear in a report or the HAR, and its features
  --out DIR        where the reports go (default reports/out/proxy): results.json (one test per
                   operation and per requirement seen), junit.xml, report.html, summary.md
  --har FILE       also write the traffic seen as HAR 1.2, credentials redacted
  --strict         members the contract does not name are errors, not warnings

Exit (after SIGINT/SIGTERM): 0 no error finding, 1 an error finding was seen, 2 usage error.`;

/** The most of a body kept for judging and the HAR (the suite's transport cuts answers at the same size). */
export const CAPTURE_BYTES = 8 * 1024 * 1024;

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

// HTTP's own credential headers: redacted whatever the target file names.
const SECRET_REQUEST_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
const SECRET_RESPONSE_HEADERS = new Set(['set-cookie']);
// The session parameter of the deployed server (and the reference server's token): redacted even without a target file.
const DEFAULT_SECRET_QUERY = ['sid'];
// Shorter cookie values are words (lang=en), not secrets: scrubbing them would scrub the reports.
const MIN_COOKIE_SECRET = 8;

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

/**
 * A capped copy of a body passing through: the first `cap` bytes for judging, the total size, and the
 * sha256 of the whole body (a running digest once the body outgrows the cap, so nothing is held whole).
 */
class Tee {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private hash: Hash | undefined;
  size = 0;

  constructor(private readonly cap: number) {}

  add(chunk: Buffer): void {
    const before = this.size;
    this.size += chunk.length;
    if (this.kept < this.cap) {
      const take = chunk.subarray(0, this.cap - this.kept);
      this.chunks.push(take);
      this.kept += take.length;
    }
    if (this.size <= this.cap) return;
    if (!this.hash) {
      this.hash = createHash('sha256');
      for (const c of this.chunks) this.hash.update(c);
      this.hash.update(chunk.subarray(Math.max(0, this.cap - before)));
    } else this.hash.update(chunk);
  }

  get truncated(): boolean {
    return this.size > this.cap;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  sha256(): string {
    return this.hash ? this.hash.digest('hex') : createHash('sha256').update(this.bytes()).digest('hex');
  }
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

/** The upstream's answer as it came: status, reason phrase, raw header pairs, and the headers by lower-case name. */
interface Answer {
  statusCode: number;
  statusMessage: string;
  rawHeaders: string[];
  headers: Record<string, string | string[] | undefined>;
}

/** A header's value as one string (repeated headers joined), or undefined. */
const headerText = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);

/** The media type of a Content-Type value, lower-cased, without parameters. */
const mediaType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
const textual = (type: string): boolean =>
  /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/.test(type);

/** A complete multipart/form-data body as the exchange records it: fields verbatim, files as size and digest; undefined when it does not parse. */
function multipartOf(data: Buffer, contentType: string): Extract<RecordedBody, { kind: 'multipart' }> | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const between = Buffer.from(`\r\n--${boundary}`);
  const fields: Record<string, string> = {};
  const files: { name: string; filename?: string; contentType: string; size: number; sha256: string }[] = [];
  let pos = data.indexOf(delimiter);
  if (pos < 0) return undefined;
  for (;;) {
    pos += delimiter.length;
    if (data.subarray(pos, pos + 2).toString('latin1') === '--') break;
    if (data.subarray(pos, pos + 2).toString('latin1') !== '\r\n') return undefined;
    const headEnd = data.indexOf('\r\n\r\n', pos + 2);
    if (headEnd < 0) return undefined;
    const next = data.indexOf(between, headEnd + 4);
    if (next < 0) return undefined;
    const head = data.subarray(pos + 2, headEnd).toString('utf8');
    const content = data.subarray(headEnd + 4, next);
    const name = /;\s*name="([^"]*)"/i.exec(head)?.[1] ?? '';
    const filename = /;\s*filename="([^"]*)"/i.exec(head)?.[1];
    const type = /^content-type:\s*(.+)$/im.exec(head)?.[1]?.trim();
    if (filename === undefined) fields[name] = content.toString('utf8');
    else
      files.push({
        name,
        ...(filename !== undefined ? { filename } : {}),
        contentType: type ?? 'application/octet-stream',
        size: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
      });
    pos = next + 2;
  }
  return { kind: 'multipart', fields, files };
}

/** A request body as the exchange records it (the suite transport's forms): JSON and text verbatim, multipart by parts, else size and digest. */
function recordedBody(tee: Tee, contentType: string | undefined): RecordedBody | undefined {
  if (tee.size === 0) return undefined;
  const type = mediaType(contentType);
  const whole = !tee.truncated;
  if (whole && type === 'application/json') return { kind: 'json', text: tee.bytes().toString('utf8') };
  if (whole && type === 'multipart/form-data') {
    const parts = multipartOf(tee.bytes(), contentType!);
    if (parts) return parts;
  }
  if (whole && textual(type)) return { kind: 'text', contentType: contentType!, text: tee.bytes().toString('utf8') };
  return { kind: 'binary', contentType: contentType ?? 'application/octet-stream', size: tee.size, sha256: tee.sha256() };
}

/** The decoded bytes of a captured answer (gzip, deflate, br undone); undefined when the capture was cut or does not decode. */
function decoded(tee: Tee, encoding: string | undefined): Buffer | undefined {
  if (tee.truncated) return undefined;
  const raw = tee.bytes();
  const coding = (encoding ?? '').trim().toLowerCase();
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return zlib.gunzipSync(raw);
    if (coding === 'deflate') return zlib.inflateSync(raw);
    if (coding === 'br') return zlib.brotliDecompressSync(raw);
  } catch {
    return undefined;
  }
  return coding === '' || coding === 'identity' ? raw : undefined;
}

/** The names of the credentials the proxy keeps out of what it records. */
export interface CredentialNames {
  /** Query parameters (exact names). */
  query: readonly string[];
  /** Request headers (any case). */
  headers: readonly string[];
}

/** A HAR 1.2 name/value pair. */
interface HarPair {
  name: string;
  value: string;
}

/** One HAR 1.2 entry as the proxy writes it. */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    queryString: HarPair[];
    postData?: {
      mimeType: string;
      text?: string;
      params?: { name: string; value?: string; fileName?: string; contentType?: string }[];
      comment?: string;
    };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    content: { size: number; mimeType: string; text?: string; encoding?: string; comment?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    comment?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
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

/** Splits a request target into the path forwarded (as sent) and the recorded forms: credentials left out, and as `<redacted>` for the HAR. */
function requestTarget(
  raw: string,
  names: ReadonlySet<string>,
): { path: string; recorded: string; redacted: string; query: HarPair[]; secrets: string[]; found: string[] } {
  // An absolute-form target (a client that treats us as a forward proxy) is forwarded by its path.
  const path = /^https?:\/\//i.test(raw) ? raw.replace(/^https?:\/\/[^/?#]*/i, '') || '/' : raw;
  const q = path.indexOf('?');
  if (q < 0) return { path, recorded: path, redacted: path, query: [], secrets: [], found: [] };
  const keptPairs: string[] = [];
  const redactedPairs: string[] = [];
  const query: HarPair[] = [];
  const secrets: string[] = [];
  const found: string[] = [];
  for (const pair of path.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    if (pair !== '' && names.has(name)) {
      secrets.push(value);
      found.push(name);
      redactedPairs.push(`${pair.slice(0, eq < 0 ? pair.length : eq)}=${encodeURIComponent(REDACTED)}`);
      query.push({ name, value: REDACTED });
    } else {
      keptPairs.push(pair);
      redactedPairs.push(pair);
      if (pair !== '') query.push({ name, value });
    }
  }
  const base = path.slice(0, q);
  const recorded = keptPairs.filter(Boolean).length ? `${base}?${keptPairs.join('&')}` : base;
  return { path, recorded: found.length ? recorded : path, redacted: `${base}?${redactedPairs.join('&')}`, query, secrets, found };
}

/** Starts a proxy to `options.upstream`; resolves once it listens. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = options.upstream;
  // Keep-alive connections to the upstream, as many as the clients' requests in flight need.
  const agent = new Agent({ keepAliveTimeout: 10_000, ...(upstream.protocol === 'http:' ? { connect: patientConnector } : {}) });
  const cap = options.captureBytes ?? CAPTURE_BYTES;
  const queryNames = new Set([...DEFAULT_SECRET_QUERY, ...(options.credentials?.query ?? [])]);
  const headerNames = new Set([...SECRET_REQUEST_HEADERS, ...(options.credentials?.headers ?? []).map((h) => h.toLowerCase())]);
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

  /** Judges one finished exchange, beside the forwarding: it runs after the answer has gone out. */
  const judgeLater = (build: () => SeenExchange) => {
    judging++;
    setImmediate(() => {
      try {
        options.onExchange?.(build());
      } finally {
        judging--;
        settle();
      }
    });
  };

  const server = http.createServer({ requestTimeout: 0 }, (req, res) => {
    inFlight++;
    const number = ++seq;
    const startedAt = new Date();
    const t0 = performance.now();
    let ttfb = 0;
    const target = requestTarget(req.url ?? '/', queryNames);
    const reqTee = new Tee(cap);
    const resTee = new Tee(cap);
    let answer: Answer | undefined;
    let error: { code: string; message: string } | undefined;
    let controller: Dispatcher.DispatchController | undefined;
    let done = false;
    let ended = false;

    const rawHeaders = endToEnd(req.rawHeaders);
    // The upstream's own name, as a reverse proxy sends it, so name-based virtual hosts answer.
    for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') rawHeaders[i + 1] = upstream.host;
    if (!rawHeaders.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')) rawHeaders.push('Host', upstream.host);

    const finish = () => {
      if (done) return;
      done = true;
      inFlight--;
      const durationMs = performance.now() - t0;
      judgeLater(() =>
        record({ number, startedAt, durationMs, ttfb, req, headers: rawHeaders, res: answer, reqTee, resTee, target, error }),
      );
      settle();
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
      if (!res.writableFinished)
        error ??= { code: 'ECONNRESET', message: 'the client closed the connection before the answer was complete' };
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
    agent.dispatch(
      {
        origin: upstream.origin,
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
            res.end(`cms-conformance proxy: ${upstream.origin} did not answer (${error.code}: ${error.message})\n`);
          } else {
            // The server broke the connection: the client sees it broken too, not a status nobody sent.
            res.destroy();
          }
        },
      },
    );
  });

  /** What one forwarded exchange was: the recorded exchange, its judgement and its HAR entry. */
  interface Finished {
    number: number;
    startedAt: Date;
    durationMs: number;
    ttfb: number;
    req: http.IncomingMessage;
    /** The request headers as forwarded (raw pairs): end to end, the upstream's host. */
    headers: string[];
    res: Answer | undefined;
    reqTee: Tee;
    resTee: Tee;
    target: ReturnType<typeof requestTarget>;
    error: { code: string; message: string } | undefined;
  }

  const record = (f: Finished): SeenExchange => {
    const secrets = f.target.secrets.filter(Boolean);
    const credentialHeaders: string[] = [];
    const requestHeaders: Record<string, string> = {};
    const harRequestHeaders: HarPair[] = [];
    for (let i = 0; i < f.headers.length; i += 2) {
      const name = f.headers[i]!;
      const value = f.headers[i + 1]!;
      const lower = name.toLowerCase();
      if (headerNames.has(lower)) {
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
        url: `${upstream.origin}${f.target.recorded}`,
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
      observation = observe(exchange, { strict: options.strict ?? false });
    }
    const har = harEntry(f, body, bytes, exchange, harRequestHeaders);
    return {
      exchange,
      ...(observation ? { observation } : {}),
      // A server may echo a credential (in a message, a redirect): the HAR is scrubbed of every form of it.
      har: secrets.length ? redact(har, secrets) : har,
      secrets,
      credentials: { query: [...new Set(f.target.found)], headers: [...new Set(credentialHeaders)] },
    };
  };

  const harEntry = (
    f: Finished,
    body: RecordedBody | undefined,
    bytes: Buffer | undefined,
    exchange: Exchange,
    headers: HarPair[],
  ): HarEntry => {
    const contentType = f.req.headers['content-type'];
    let postData: HarEntry['request']['postData'];
    if (body?.kind === 'json' || body?.kind === 'text') postData = { mimeType: contentType ?? '', text: body.text };
    else if (body?.kind === 'multipart') {
      postData = {
        mimeType: contentType ?? 'multipart/form-data',
        params: [
          ...Object.entries(body.fields).map(([name, value]) => ({ name, value })),
          ...body.files.map((p) => ({
            name: p.name,
            ...(p.filename !== undefined ? { fileName: p.filename } : {}),
            contentType: p.contentType,
          })),
        ],
        comment: body.files.map((p) => `${p.name}: ${p.size} bytes, sha256 ${p.sha256}`).join('; '),
      };
    } else if (body?.kind === 'binary') postData = { mimeType: body.contentType, comment: `${body.size} bytes, sha256 ${body.sha256}` };
    const res = f.res;
    const resType = headerText(res?.headers['content-type']) ?? '';
    const content: HarEntry['response']['content'] = { size: bytes ? bytes.length : f.resTee.size, mimeType: resType };
    if (bytes && textual(mediaType(resType))) content.text = bytes.toString('utf8');
    else if (bytes && bytes.length > 0) {
      content.text = bytes.toString('base64');
      content.encoding = 'base64';
    } else if (f.resTee.size > 0)
      content.comment = `body of ${f.resTee.size} bytes not kept (over ${cap} bytes, or an encoding the proxy does not decode)`;
    const responseHeaders: HarPair[] = [];
    for (let i = 0; i < (res?.rawHeaders.length ?? 0); i += 2) {
      const name = res!.rawHeaders[i]!;
      responseHeaders.push({ name, value: SECRET_RESPONSE_HEADERS.has(name.toLowerCase()) ? REDACTED : res!.rawHeaders[i + 1]! });
    }
    return {
      startedDateTime: f.startedAt.toISOString(),
      time: Math.round(f.durationMs),
      request: {
        method: exchange.request.method,
        url: `${upstream.origin}${f.target.redacted}`,
        httpVersion: `HTTP/${f.req.httpVersion}`,
        cookies: [],
        headers,
        queryString: f.target.query,
        ...(postData ? { postData } : {}),
        headersSize: -1,
        bodySize: f.reqTee.size,
      },
      response: {
        status: res?.statusCode ?? 0,
        statusText: res?.statusMessage ?? '',
        httpVersion: res ? 'HTTP/1.1' : '',
        cookies: [],
        headers: responseHeaders,
        content,
        redirectURL: headerText(res?.headers.location) ?? '',
        headersSize: -1,
        bodySize: f.resTee.size,
        ...(exchange.error ? { comment: `no answer: ${exchange.error.code}: ${exchange.error.message}` } : {}),
      },
      cache: {},
      timings: { send: 0, wait: Math.round(f.ttfb), receive: Math.max(0, Math.round(f.durationMs - f.ttfb)) },
    };
  };

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

// ---------------------------------------------------------------------------------------------
// Reports

/** One test of the observed traffic, while it is being gathered. */
interface Tally {
  requirement: string;
  operation?: string;
  findings: ReportedFinding[];
  keys: Set<string>;
  requests: number;
  answers: number;
  jsonAnswers: number;
  validated: number;
  durationMs: number;
}

/** The id of the test gathering the traffic of an operation or the findings of a requirement: stable, no generated value. */
export const observedTestId = (requirement: string): string => `${requirement} observed traffic`;

/**
 * What the proxy saw, as the tests of a run: one per operation (every judge finding of its answers,
 * the counts of requests and validated answers) and one per requirement seen (every finding naming
 * it, and the exchanges a check of it applied to).
 */
export class TrafficReport {
  private readonly tallies = new Map<string, Tally>();
  /** How often each deviation was seen, by its key. */
  private readonly occurrences = new Map<string, { finding: Finding; count: number }>();
  readonly secrets = new Set<string>();
  exchanges = 0;
  judged = 0;
  failedUpstream = 0;

  constructor(private readonly replay: (requirement: string) => string) {}

  private tally(requirement: string, operation?: string): Tally {
    const id = observedTestId(requirement);
    let t = this.tallies.get(id);
    if (!t) {
      t = {
        requirement,
        ...(operation ? { operation } : {}),
        findings: [],
        keys: new Set(),
        requests: 0,
        answers: 0,
        jsonAnswers: 0,
        validated: 0,
        durationMs: 0,
      };
      this.tallies.set(id, t);
    }
    return t;
  }

  private count(t: Tally, seen: SeenExchange, validated: boolean): void {
    const res = seen.exchange.response;
    t.requests++;
    if (res) t.answers++;
    if (res && res.jsonError === undefined) t.jsonAnswers++;
    if (validated) t.validated++;
    t.durationMs += seen.exchange.durationMs;
  }

  private add(t: Tally, f: Finding, seen: SeenExchange): void {
    const key = f.key ?? `${f.requirement}|${f.check}|${f.message}`;
    if (t.keys.has(key)) return;
    t.keys.add(key);
    const auth = {
      query: Object.fromEntries(seen.credentials.query.map((n) => [n, ''])),
      headers: Object.fromEntries(seen.credentials.headers.map((n) => [n, ''])),
    };
    t.findings.push({
      requirement: f.requirement,
      check: f.check,
      severity: f.severity,
      message: f.message,
      exchange: reportedExchange(seen.exchange),
      curl: curlCommand(seen.exchange, auth),
      replay: this.replay(t.requirement),
    });
  }

  /** Adds one judged exchange; returns the findings not seen before (one per deviation), for printing. */
  addExchange(seen: SeenExchange): Finding[] {
    this.exchanges++;
    for (const s of seen.secrets) this.secrets.add(s);
    if (seen.exchange.error) this.failedUpstream++;
    const o = seen.observation;
    if (!o) return [];
    this.judged++;
    const op = o.operation.id;
    const own = `OP-${op}`;
    const opTest = this.tally(own, op);
    this.count(opTest, seen, o.validated);
    const touched = new Set<Tally>();
    for (const f of o.judged) {
      this.add(opTest, { ...f, severity: severityIn(f, own, op) }, seen);
      if (f.requirement === own) continue;
      // A convention's finding is an error in the convention's own test, as in the suite (severityIn).
      const t = this.tally(f.requirement);
      touched.add(t);
      this.add(t, { ...f, severity: severityIn(f, f.requirement, op) }, seen);
    }
    for (const requirement of o.checked) touched.add(this.tally(requirement));
    for (const f of o.checks) {
      const t = this.tally(f.requirement);
      touched.add(t);
      this.add(t, f, seen);
    }
    for (const t of touched) t.requests++;
    const fresh: Finding[] = [];
    for (const f of o.findings) {
      const key = f.key ?? `${f.requirement}|${f.check}|${f.message}`;
      const seenBefore = this.occurrences.get(key);
      if (seenBefore) seenBefore.count++;
      else {
        this.occurrences.set(key, { finding: f, count: 1 });
        fresh.push(f);
      }
    }
    return fresh;
  }

  /** Deviations seen more than once, with their counts, for the closing summary. */
  repeated(): { finding: Finding; count: number }[] {
    return [...this.occurrences.values()].filter((o) => o.count > 1);
  }

  /** The tests of the traffic seen, sorted by id. */
  tests(): TestResult[] {
    return [...this.tallies.entries()]
      .map(([id, t]): TestResult => ({
        id,
        title: 'observed traffic',
        file: 'proxy',
        requirement: t.requirement,
        family: familyOf(t.requirement),
        ...(t.operation ? { operation: t.operation } : {}),
        status: t.findings.some((f) => f.severity === 'error') ? 'failed' : 'passed',
        durationMs: Math.round(t.durationMs),
        // Exchanges are counted in the operation's test only, so that the run's totals count each answer once.
        ...(t.operation
          ? { requests: t.requests, answers: t.answers, jsonAnswers: t.jsonAnswers, validated: t.validated, retries: 0 }
          : {}),
        findings: t.findings,
      }))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  /** The requirements seen beyond the operations', with the number of answers each was judged on. */
  requirementsSeen(): { requirement: string; answers: number }[] {
    return [...this.tallies.values()]
      .filter((t) => !t.operation)
      .map((t) => ({ requirement: t.requirement, answers: t.requests }))
      .sort((a, b) => a.requirement.localeCompare(b.requirement));
  }

  /** The run's results: the upstream as the target, the tests of the traffic seen. */
  results(upstream: string, features: readonly string[], startedAt: Date): Results {
    const tests = this.tests();
    return {
      tool: { name: 'cms-conformance', version: '0.1.0' },
      target: { baseUrl: upstream, features: [...features], embedded: false },
      seed: DEFAULT_SEED,
      runs: 1,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      summary: summarize(tests),
      tests,
    };
  }
}

/** Writes HAR 1.2 as entries come, so a long session holds no traffic in memory. */
class HarWriter {
  private readonly stream: WriteStream;
  private first = true;

  constructor(readonly path: string) {
    // Opened here, so that a path that cannot be written is a usage error before anything starts.
    this.stream = createWriteStream(path, { fd: openSync(path, 'w') });
    this.stream.write(`{"log":{"version":"1.2","creator":{"name":"cms-conformance proxy","version":"0.1.0"},"entries":[\n`);
  }

  add(entry: HarEntry): void {
    this.stream.write(`${this.first ? '' : ',\n'}${JSON.stringify(entry)}`);
    this.first = false;
  }

  /** Closes the entries array and the file. */
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.stream.on('error', reject);
      this.stream.end('\n]}}\n', () => resolve());
    });
  }
}

/** Resolves with the first SIGINT or SIGTERM; a second one calls `again`. */
function stopSignal(again: () => void): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let first: NodeJS.Signals | undefined;
    const stop = (signal: NodeJS.Signals) => {
      if (first) return again();
      first = signal;
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

const shown = (p: string): string => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p));

/** The proxy subcommand. */
export const command: Command = {
  summary: 'a transparent proxy that judges the traffic of a real client against the contract',
  usage,
  async run(args) {
    const { values } = parseOptions(args, {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      target: { type: 'string' },
      out: { type: 'string' },
      har: { type: 'string' },
      strict: { type: 'boolean' },
    });
    if (!values.upstream) throw new UsageError('--upstream URL is required (the server to forward to)');
    let upstream: URL;
    try {
      upstream = new URL(values.upstream);
    } catch {
      throw new UsageError(`--upstream must be an http(s) URL, got "${values.upstream}"`);
    }
    if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
      throw new UsageError(`--upstream must be an http(s) URL, got "${values.upstream}"`);
    const port = intOption('port', values.port, 8081, 0);
    if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
    let target: Target | undefined;
    if (values.target) {
      try {
        target = loadTargetFile(values.target);
      } catch (err) {
        if (err instanceof TargetError) throw new UsageError(err.message);
        throw err;
      }
    }
    const outDir = outDirOption(values.out, 'reports/out/proxy');
    const basePath = upstream.pathname.replace(/\/+$/, '');
    const upstreamBase = `${upstream.origin}${basePath}`;
    const replayArgs = values.target ? ['--target', values.target] : undefined;
    const report = new TrafficReport((requirement) =>
      replayArgs
        ? runLine({ requirement, seed: DEFAULT_SEED, args: replayArgs })
        : `seen by cms-conformance proxy: repeat the request with the curl line, or run the suite's tests of it: npx cms-conformance run --only ${requirement} --target <target file of ${upstreamBase}>`,
    );
    for (const v of [...Object.values(target?.auth.query ?? {}), ...Object.values(target?.auth.headers ?? {})]) report.secrets.add(v);
    let har: HarWriter | undefined;
    if (values.har) {
      try {
        har = new HarWriter(values.har);
      } catch (err) {
        throw new UsageError(`--har ${values.har}: ${(err as Error).message}`);
      }
    }
    const startedAt = new Date();
    let proxy: RunningProxy;
    try {
      proxy = await startProxy({
        upstream,
        port,
        ...(values.host ? { host: values.host } : {}),
        strict: values.strict ?? false,
        credentials: { query: Object.keys(target?.auth.query ?? {}), headers: Object.keys(target?.auth.headers ?? {}) },
        onExchange(seen) {
          har?.add(seen.har);
          for (const f of report.addExchange(seen)) console.log(`${findingLine(f)}\n    ${exchangeLine(seen.exchange)}`);
          if (seen.exchange.error) console.log(`no answer: ${exchangeLine(seen.exchange)}: ${seen.exchange.error.message}`);
        },
      });
    } catch (err) {
      throw new UsageError(`cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${(err as Error).message}`);
    }
    console.log(
      `cms-conformance proxy: listening on ${proxy.url}, forwarding to ${upstream.origin}; point the client at ${proxy.url}${basePath} (Ctrl-C writes the reports)`,
    );
    // A second Ctrl-C does not wait for the requests in flight.
    const signal = await stopSignal(() => proxy.close(0));
    console.log(`cms-conformance proxy: ${signal}: stopping${proxy.inFlight ? `, finishing ${proxy.inFlight} requests in flight` : ''}`);
    await proxy.close(5000);
    await har?.close();

    const results = report.results(upstreamBase, target?.features ?? [], startedAt);
    const done = finishRun(results, { outDir, secrets: [...report.secrets] });
    const s = done.results.summary;
    const lines = [
      '',
      `cms-conformance proxy: ${report.exchanges} exchanges seen, ${report.judged} of them operations of the contract${report.failedUpstream ? `, ${report.failedUpstream} without an answer` : ''}`,
    ];
    if (!report.judged && report.exchanges)
      lines.push("  no exchange matched an operation of the contract: is the client pointed at the upstream's base path?");
    lines.push(
      `  ${s.total} tests (one per operation and requirement seen): ${s.passed} passed, ${s.failed} failed, ${s.warnings} warnings`,
    );
    const seenReqs = report.requirementsSeen();
    if (seenReqs.length)
      lines.push(`  requirements judged (answers): ${seenReqs.map((r) => `${r.requirement} (${r.answers})`).join(', ')}`);
    // Errors seen again and again are worth a line; repeated warnings (unknown members) would drown them.
    for (const { finding, count } of report
      .repeated()
      .filter((r) => r.finding.severity === 'error')
      .slice(0, 10))
      lines.push(
        `  seen ${count} times: ${finding.requirement} ${finding.check}: ${finding.message.length > 120 ? `${finding.message.slice(0, 120)}…` : finding.message}`,
      );
    const totals = exchangeTotals(s);
    if (totals) lines.push(`  ${totals}`);
    lines.push(`  reports: ${[...done.paths, ...(har ? [har.path] : [])].map(shown).join(', ')}`);
    lines.push(`VERDICT: ${report.judged ? verdictOf(done.results).text : 'no exchange of the contract was seen'}`);
    console.log(lines.join('\n'));
    return done.exitCode;
  },
};
