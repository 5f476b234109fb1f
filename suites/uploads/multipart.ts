/**
 * Multipart bodies built by hand, for the upload suites: the transport's FormData picks its own
 * boundary, but content that imitates the boundary, and malformed bodies, need one the suite knows.
 */

/** One part of a hand-built multipart/form-data body. */
export interface BodyPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Uint8Array | string;
}

const encoder = new TextEncoder();
const bytesOf = (data: Uint8Array | string): Uint8Array => (typeof data === 'string' ? encoder.encode(data) : data);

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** A multipart/form-data body (RFC 7578) with the given boundary; its Content-Type is `multipartType(boundary)`. */
export function multipartBody(parts: readonly BodyPart[], boundary: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
    chunks.push(
      encoder.encode(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      bytesOf(part.data),
      encoder.encode('\r\n'),
    );
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return concatBytes(...chunks);
}

/** The Content-Type of a multipart body with this boundary. */
export function multipartType(boundary: string): string {
  return `multipart/form-data; boundary=${boundary}`;
}

/**
 * Content that imitates the body's own boundary without containing it (RFC 2046: a delimiter is CRLF,
 * "--" and the boundary): at the start of lines, the boundary with its last character changed, with a
 * closing "--", cut short, and bare "--" and CRLF lines. The exact boundary string never occurs, even
 * mid-line, where strict parsers accept it and lenient ones split.
 */
export function boundaryLookalike(boundary: string): Uint8Array {
  const near = `--${boundary.slice(0, -1)}${boundary.at(-1) === 'x' ? 'y' : 'x'}`;
  return encoder.encode(`${near}\r\n\r\n${near}--\r\n--${boundary.slice(0, -1)}\r\n--\r\n\r\n`);
}

/** The body cut inside the last part's data: no closing delimiter, as a client that died mid-upload sends it. */
export function truncatedBody(body: Uint8Array, boundary: string): Uint8Array {
  const closing = encoder.encode(`\r\n--${boundary}--`).byteLength;
  // Keep a little of the last part's data so the cut is inside a part, not between parts.
  return body.subarray(0, Math.max(0, body.byteLength - closing - 4));
}

/** A boundary of the kind browsers send, unique per call. */
export function freshBoundary(): string {
  return `----CmsConformance${Math.random().toString(36).slice(2, 12)}${Date.now().toString(36)}`;
}
