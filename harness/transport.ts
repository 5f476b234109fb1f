/**
 * The suite's only way to the network: sends requests to the target over undici with keep-alive,
 * adds the target's credentials at the last moment, and records every exchange (without the
 * credentials, and with upload bodies as size and digest) so a finding can show it and replay it.
 */
import { createHash } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { boundaryFor, formParts, multipartBody, multipartType } from './multipart.ts';
import type { Exchange, RecordedBody } from '../schemas/results.ts';
import type { Target } from '../schemas/target.ts';

/** A query value; arrays repeat the parameter (multivalued). */
export type QueryValue = string | number | boolean | ReadonlyArray<string | number | boolean>;

/** One file part of a multipart body. */
export interface FilePart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Uint8Array;
}

/** What a suite asks to send. Exactly one body form at most. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path relative to the target's base URL, e.g. `/folder/load/12`. */
  path: string;
  query?: Record<string, QueryValue | undefined>;
  json?: unknown;
  /** A body sent as is, for malformed JSON and raw uploads. */
  raw?: { contentType: string; data: Uint8Array | string };
  multipart?: { fields?: Record<string, string>; files?: FilePart[] };
  headers?: Record<string, string>;
  /** Leave the target's credentials out (to check that the target refuses such requests). */
  withoutCredentials?: boolean;
}

// The recorded exchange is part of the results format; it lives there so reports need no harness internals.
export type { Exchange, RecordedBody } from '../schemas/results.ts';

/** The answer size cap without --max-body: bodies over it are cut and not judged, so memory stays bounded. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 2 ** 20;

/** Limits of a transport; the defaults suit the embedded reference server. */
export interface TransportOptions {
  timeoutMs?: number;
  /** Bodies above this many bytes are cut (and the exchange says so). */
  maxBodyBytes?: number;
  /** At most this many requests per second (0: no cap). */
  rate?: number;
  /** At most this many requests in flight (default 16). */
  concurrency?: number;
  /** How often one request is repeated after a 429 (any method) or a 503 with Retry-After (GET only). */
  maxRetries?: number;
  /** The most one request waits in all for Retry-After, in milliseconds; a wait beyond it is not made and the answer stands. */
  maxRetryWaitMs?: number;
}

/** Default of TransportOptions.maxRetries. */
export const DEFAULT_MAX_RETRIES = 5;
/** Default of TransportOptions.maxRetryWaitMs. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;
// A 429 without a usable Retry-After still asks us to slow down; one second is what servers commonly mean.
const DEFAULT_429_WAIT_MS = 1000;

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before sending a request again after this answer, or undefined when it must not be
 * sent again: a 429 says the server did not act, so every method is repeated; a 503 does not say so,
 * so only a GET is.
 */
export function retryWaitMs(method: string, response: Exchange['response'], now = Date.now()): number | undefined {
  if (response?.status === 429) return retryAfterMs(response.headers['retry-after'], now) ?? DEFAULT_429_WAIT_MS;
  if (response?.status === 503 && method === 'GET') return retryAfterMs(response.headers['retry-after'], now);
  return undefined;
}

/** Connection failures in a row after which the target counts as unreachable. */
export const UNREACHABLE_AFTER = 3;

// Errors that mean no server is there any more (as opposed to a server that misbehaves).
const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const textual = /^(application\/(json|xml|x-www-form-urlencoded)|text\/)/i;

function digest(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Turns a spec's query into search parameters, skipping undefined values and repeating arrays. */
export function toSearchParams(query: RequestSpec['query'] = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
  }
  return params;
}

function recordBody(spec: RequestSpec): RecordedBody | undefined {
  if (spec.json !== undefined) return { kind: 'json', text: JSON.stringify(spec.json) };
  if (spec.raw) {
    const { contentType, data } = spec.raw;
    if (typeof data === 'string' && textual.test(contentType)) return { kind: 'text', contentType, text: data };
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    return { kind: 'binary', contentType, size: bytes.byteLength, sha256: digest(bytes) };
  }
  if (spec.multipart) {
    return {
      kind: 'multipart',
      fields: { ...spec.multipart.fields },
      files: (spec.multipart.files ?? []).map((f) => ({
        name: f.name,
        filename: f.filename,
        contentType: f.contentType ?? 'application/octet-stream',
        size: f.data.byteLength,
        sha256: digest(f.data),
      })),
    };
  }
  return undefined;
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** What a transport has sent and received so far; a test's own counts are the difference over its run. */
export interface TransportCounts {
  /** Requests asked to send (a retried request counts once). */
  requests: number;
  /** Requests that got an answer (any status). */
  answers: number;
  /** Answers whose body is JSON. */
  json: number;
  /** Repeated attempts after a 429 or 503 with Retry-After. */
  retries: number;
}

/** Sends requests to one target; the exchange goes back to the sender, which keeps what a finding needs. */
export class Transport {
  /** Running totals of this transport, read by the suite wrapper per test. */
  readonly counts: TransportCounts = { requests: 0, answers: 0, json: 0, retries: 0 };
  private seq = 0;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly minIntervalMs: number;
  private nextSlot = 0;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly concurrency: number;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;
  /** Connection failures in a row; past UNREACHABLE_AFTER the target counts as gone. */
  private connectFailures = 0;
  /** Set by `interrupt`: the run is stopping, and no request is sent any more. */
  private interrupted = false;
  /** Ends each attempt in flight at once (see `interrupt`). */
  private readonly endAttempts = new Set<(err: Error) => void>();

  constructor(
    readonly target: Target,
    options: TransportOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.concurrency = Math.max(1, options.concurrency ?? 16);
    this.minIntervalMs = options.rate ? 1000 / options.rate : 0;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: this.concurrency });
  }

  /**
   * Stops this transport for a run that is told to stop: attempts in flight end at once as INTERRUPTED, and
   * later requests are never sent. Against a target that takes seconds to answer, a test would otherwise
   * keep the run (and the sandbox's removal) waiting for every request it still has to send.
   */
  interrupt(): void {
    if (this.interrupted) return;
    this.interrupted = true;
    const err = Object.assign(new Error('the run was interrupted; the request was abandoned'), { code: 'INTERRUPTED' });
    for (const end of [...this.endAttempts]) end(err);
  }

  /** Waits for a free slot under the concurrency cap and the rate cap. */
  private async acquire(): Promise<void> {
    if (this.inFlight >= this.concurrency) await new Promise<void>((r) => this.waiting.push(r));
    this.inFlight++;
    if (this.minIntervalMs) {
      const now = performance.now();
      const slot = Math.max(now, this.nextSlot);
      this.nextSlot = slot + this.minIntervalMs;
      if (slot > now) await sleep(slot - now);
    }
  }

  private release(): void {
    this.inFlight--;
    this.waiting.shift()?.();
  }

  /** The URL as recorded and replayed: base URL, path and query, never the credentials. */
  urlOf(spec: Pick<RequestSpec, 'path' | 'query'>): string {
    const qs = toSearchParams(spec.query).toString();
    return `${this.target.baseUrl}${spec.path}${qs ? `?${qs}` : ''}`;
  }

  /** True once the target refused connections UNREACHABLE_AFTER times in a row: later requests fail fast. */
  get unreachable(): boolean {
    return this.connectFailures >= UNREACHABLE_AFTER;
  }

  /** Sends one request and returns its exchange; never throws for network trouble (the exchange carries the error). */
  async send(spec: RequestSpec): Promise<Exchange> {
    const url = this.urlOf(spec);
    const headers: Record<string, string> = { accept: 'application/json', ...lower(spec.headers) };
    let body: string | Uint8Array | undefined;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] ??= 'application/json';
    } else if (spec.raw) {
      body = spec.raw.data;
      headers['content-type'] = spec.raw.contentType;
    } else if (spec.multipart) {
      // One contiguous body: undici's FormData streams Blobs through web streams, several times slower.
      const parts = formParts(spec.multipart.fields ?? {}, spec.multipart.files ?? []);
      const boundary = boundaryFor(parts);
      body = multipartBody(parts, boundary);
      headers['content-type'] = multipartType(boundary);
    }
    const exchange: Exchange = {
      seq: ++this.seq,
      request: { method: spec.method, url, headers: { ...headers }, body: recordBody(spec) },
      durationMs: 0,
    };
    // Credentials join only the wire request, never the recorded one.
    let wireUrl = url;
    if (!spec.withoutCredentials) {
      const auth = toSearchParams(this.target.auth.query).toString();
      if (auth) wireUrl += (url.includes('?') ? '&' : '?') + auth;
      Object.assign(headers, lower(this.target.auth.headers));
    }
    const started = performance.now();
    let waited = 0;
    // A target that died mid-run: the remaining tests fail fast instead of each waiting for timeouts.
    for (
      let attempt = 0;
      !this.unreachable ||
      ((exchange.error = {
        code: 'UNREACHABLE',
        message: `target unreachable: ${this.connectFailures} connections in a row failed; the request was not sent`,
      }),
      false);
      attempt++
    ) {
      await this.acquire();
      try {
        if (this.interrupted) exchange.error = { code: 'INTERRUPTED', message: 'the run was interrupted; the request was not sent' };
        else await this.attempt(exchange, wireUrl, spec.method, headers, body);
      } finally {
        this.release();
      }
      if (this.interrupted) break;
      this.connectFailures = exchange.error && CONNECT_ERRORS.has(exchange.error.code) ? this.connectFailures + 1 : 0;
      // Politeness: a server that asks us to wait gets its wait, within bounds, so a throttled run does not stall.
      const wait = retryWaitMs(spec.method, exchange.response);
      if (wait === undefined || attempt >= this.maxRetries || waited + wait > this.maxRetryWaitMs) break;
      waited += wait;
      exchange.retries = attempt + 1;
      await sleep(wait);
    }
    exchange.durationMs = Math.round(performance.now() - started);
    this.counts.requests++;
    this.counts.retries += exchange.retries ?? 0;
    if (exchange.response) {
      this.counts.answers++;
      if (exchange.response.jsonError === undefined) this.counts.json++;
    }
    return exchange;
  }

  /**
   * One attempt of a request: fills the exchange's response or error. Undici's dispatch with a handler
   * of our own, not its `request`, which streams every answer through a Readable, an async iterator and
   * an abort signal: each of those costs CPU on every request (BENCHMARKS.md).
   */
  private attempt(
    exchange: Exchange,
    wireUrl: string,
    method: RequestSpec['method'],
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
  ): Promise<void> {
    delete exchange.response;
    delete exchange.error;
    const { timeoutMs, maxBodyBytes } = this;
    return new Promise<void>((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let status = 0;
      let responseHeaders: Record<string, string> = {};
      let controller: Dispatcher.DispatchController | undefined;
      let done = false;
      const settle = (outcome: Pick<Exchange, 'response' | 'error'>) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.endAttempts.delete(end);
        Object.assign(exchange, outcome);
        resolve();
      };
      const fail = (err: Error & { code?: string }) =>
        settle({
          error: {
            code:
              err.name === 'TimeoutError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT'
                ? 'TIMEOUT'
                : (err.code ?? err.name),
            message: err.message,
          },
        });
      const answer = (truncated: boolean) => {
        const bytes = Buffer.concat(chunks, size);
        const text = (truncated ? bytes.subarray(0, maxBodyBytes) : bytes).toString('utf8');
        const response: NonNullable<Exchange['response']> = { status, headers: responseHeaders, text, truncated };
        try {
          response.json = JSON.parse(text);
        } catch (err) {
          response.jsonError = (err as Error).message;
        }
        settle({ response });
      };
      // The whole exchange is bounded, not only the waits for headers and for each piece of the body: a
      // server that trickles its answer ends as a timeout too.
      const timer = setTimeout(() => {
        const err = Object.assign(new Error(`no complete answer in ${timeoutMs} ms`), { name: 'TimeoutError' });
        fail(err);
        controller?.abort(err);
      }, timeoutMs);
      const end = (err: Error) => {
        fail(err);
        controller?.abort(err);
      };
      this.endAttempts.add(end);
      let url: URL;
      try {
        url = new URL(wireUrl);
      } catch (err) {
        return fail(err as Error);
      }
      this.agent.dispatch(
        { origin: url.origin, path: url.pathname + url.search, method, headers, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
        {
          onRequestStart(c) {
            controller = c;
            if (done) c.abort(new Error('the attempt has ended'));
          },
          // Called again for the final answer after informational 1xx ones (and for an attempt undici
          // starts again on a fresh connection): the last one stands, with only its own body.
          onResponseStart(_c, statusCode, h) {
            status = statusCode;
            responseHeaders = flatHeaders(h);
            chunks.length = 0;
            size = 0;
          },
          onResponseData(c, chunk) {
            if (done) return;
            chunks.push(chunk);
            size += chunk.byteLength;
            if (size > maxBodyBytes) {
              answer(true);
              c.abort(new Error(`body cut at ${maxBodyBytes} bytes`));
            }
          },
          onResponseEnd() {
            if (!done) answer(false);
          },
          onResponseError(_c, err) {
            fail(err);
          },
        },
      );
    });
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}
