/**
 * What the proxy keeps of one exchange passing through: a capped copy of each body, the request's
 * target with its credentials taken out, the request body in the forms the suite's transport records,
 * and the answer's bytes decoded. Nothing here forwards or judges.
 */
import { createHash, type Hash } from 'node:crypto';
import type http from 'node:http';
import zlib from 'node:zlib';
import { REDACTED } from '../reports/redact.ts';
import type { RecordedBody } from '../schemas/results.ts';

/** The most of a body kept for judging and the HAR (the suite's transport cuts answers at the same size). */
export const CAPTURE_BYTES = 8 * 1024 * 1024;

// HTTP's own credential headers: redacted whatever the target file names.
export const SECRET_REQUEST_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
export const SECRET_RESPONSE_HEADERS = new Set(['set-cookie']);
// The session parameter of the deployed server (and the reference server's token): redacted even without a target file.
export const DEFAULT_SECRET_QUERY = ['sid'];
// Shorter cookie values are words (lang=en), not secrets: scrubbing them would scrub the reports.
export const MIN_COOKIE_SECRET = 8;

/**
 * A capped copy of a body passing through: the first `cap` bytes for judging, the total size, and the
 * sha256 of the whole body (a running digest once the body outgrows the cap, so nothing is held whole).
 */
export class Tee {
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

/** The upstream's answer as it came: status, reason phrase, raw header pairs, and the headers by lower-case name. */
export interface Answer {
  statusCode: number;
  statusMessage: string;
  rawHeaders: string[];
  headers: Record<string, string | string[] | undefined>;
}

/** A header's value as one string (repeated headers joined), or undefined. */
export const headerText = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);

/** The media type of a Content-Type value, lower-cased, without parameters. */
export const mediaType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** Whether a media type is text, so a body of it is kept as a string rather than as size and digest. */
export const textual = (type: string): boolean =>
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
export function recordedBody(tee: Tee, contentType: string | undefined): RecordedBody | undefined {
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
export function decoded(tee: Tee, encoding: string | undefined): Buffer | undefined {
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

/** A name/value pair, as HAR 1.2 writes query parameters and headers. */
export interface HarPair {
  name: string;
  value: string;
}

/** Splits a request target into the path forwarded (as sent) and the recorded forms: credentials left out, and as `<redacted>` for the HAR. */
export function requestTarget(
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

/** The request target as requestTarget splits it. */
export type RequestTarget = ReturnType<typeof requestTarget>;

/** What one forwarded exchange was: the recorded exchange, its judgement and its HAR entry. */
export interface Finished {
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
  target: RequestTarget;
  error: { code: string; message: string } | undefined;
}
