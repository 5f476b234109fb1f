/**
 * The one multipart/form-data encoder (RFC 7578): the transport builds every multipart request with
 * it, and the upload suites build the bodies they need to control byte for byte (a known boundary,
 * content that imitates it, malformed bodies). One contiguous body, so the request goes out with a
 * Content-Length and no stream machinery.
 */
import { createHash } from 'node:crypto';

/** One part of a multipart/form-data body, written as given (no escaping). */
export interface BodyPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Uint8Array | string;
}

/** The bytes as a Buffer, not copied. */
const view = (data: Uint8Array): Buffer => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/** A multipart/form-data body with the given boundary; its Content-Type is `multipartType(boundary)`. */
export function multipartBody(parts: readonly BodyPart[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      typeof part.data === 'string' ? Buffer.from(part.data) : view(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** The Content-Type of a multipart body with this boundary. */
export function multipartType(boundary: string): string {
  return `multipart/form-data; boundary=${boundary}`;
}

/** Bytes of each end of a large part that its boundary is derived from. */
const HASHED_END = 32 * 1024;

/**
 * A boundary of the kind browsers send, derived from the parts it separates: the same form is the same
 * bytes in every run (a random boundary made each run's requests differ, and a server that trips on some
 * boundaries would pass or fail by chance). RFC 2046 asks that the boundary not occur in the parts; a
 * digest of them could occur in them only by accident, and is then taken again with a counter.
 */
export function boundaryFor(parts: readonly BodyPart[]): string {
  for (let attempt = 0; ; attempt++) {
    const hash = createHash('sha256').update(String(attempt));
    // Each part's head and length before its data: two forms whose bytes run together differently differ.
    // Of a large part only its two ends: the boundary has to be the same for the same form, not unique
    // to it (the search below keeps it out of the form), and NEG-05 sends 32 MB.
    for (const part of parts) {
      const data = typeof part.data === 'string' ? Buffer.from(part.data) : view(part.data);
      hash.update(JSON.stringify([part.name, part.filename ?? null, part.contentType ?? null, data.byteLength]));
      if (data.byteLength <= 2 * HASHED_END) hash.update(data);
      else hash.update(data.subarray(0, HASHED_END)).update(data.subarray(data.byteLength - HASHED_END));
    }
    const boundary = `----CmsConformance${hash.digest('hex').slice(0, 16)}`;
    const occurs = parts.some(
      (part) =>
        `${part.name}\0${part.filename ?? ''}\0${part.contentType ?? ''}`.includes(boundary) ||
        (typeof part.data === 'string' ? part.data.includes(boundary) : view(part.data).includes(boundary)),
    );
    if (!occurs) return boundary;
  }
}

// How a browser's form encoding writes names and text values (WHATWG HTML, "multipart/form-data
// encoding algorithm"), so a request reads as a real client's.
const escape = (text: string): string => text.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
const normalizeLines = (value: string): string => value.replace(/\r?\n|\r/g, '\r\n');

/** The parts a browser sends for a form of text fields and files (names escaped, text lines CRLF, a file's type defaulted). */
export function formParts(
  fields: Readonly<Record<string, string>>,
  files: ReadonlyArray<{ name: string; filename?: string; contentType?: string; data: Uint8Array }>,
): BodyPart[] {
  return [
    ...Object.entries(fields).map(([name, value]) => ({ name: escape(normalizeLines(name)), data: normalizeLines(value) })),
    ...files.map((f) => ({
      name: escape(normalizeLines(f.name)),
      filename: escape(f.filename ?? 'file'),
      contentType: f.contentType ?? 'application/octet-stream',
      data: f.data,
    })),
  ];
}
