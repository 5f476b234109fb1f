/**
 * The traffic as HAR 1.2: one entry per forwarded exchange (credentials redacted, upload bodies as
 * size and digest), written as entries come so a long session holds no traffic in memory.
 */
import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { REDACTED } from '../reports/redact.ts';
import type { Exchange, RecordedBody } from '../schemas/results.ts';
import { headerText, mediaType, SECRET_RESPONSE_HEADERS, textual, type Finished, type HarPair } from './proxy-capture.ts';

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

/** The HAR entry of one forwarded exchange, credentials already redacted from its headers and query. */
export function harEntry(
  f: Finished,
  body: RecordedBody | undefined,
  bytes: Buffer | undefined,
  exchange: Exchange,
  headers: HarPair[],
  upstream: URL,
  cap: number,
): HarEntry {
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
}

/** Writes HAR 1.2 as entries come, so a long session holds no traffic in memory. */
export class HarWriter {
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
