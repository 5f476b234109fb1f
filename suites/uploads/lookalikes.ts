/**
 * Upload content the upload suites need beside harness/multipart.ts: content that imitates a body's
 * own boundary, and a body cut short.
 */

const encoder = new TextEncoder();

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
