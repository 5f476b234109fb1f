import { describe, expect, test } from 'vitest';
import { fileHostAddress, startFileHost } from '../../harness/filehost.ts';
import { formParts, freshBoundary, multipartBody, multipartType } from '../../harness/multipart.ts';
import { boundaryLookalike, truncatedBody } from '../../suites/uploads/multipart.ts';

/** Parses a multipart body with the platform's own parser (undici's), an independent oracle. */
async function parse(body: Uint8Array, boundary: string): Promise<FormData> {
  return new Response(body, { headers: { 'content-type': multipartType(boundary) } }).formData();
}

const bytesOf = async (value: unknown): Promise<Uint8Array> => new Uint8Array(await (value as Blob).arrayBuffer());

describe('multipart bodies', () => {
  test('a built body parses back to its fields and exact data bytes', async () => {
    const boundary = freshBoundary();
    const data = Uint8Array.from([0, 13, 10, 45, 45, 0xff, 0x80, 13, 10]);
    const form = await parse(
      multipartBody(
        [
          { name: 'folderId', data: '42' },
          { name: 'fileBinaryData', filename: 'x.bin', contentType: 'application/octet-stream', data },
        ],
        boundary,
      ),
      boundary,
    );
    expect(form.get('folderId')).toBe('42');
    expect(await bytesOf(form.get('fileBinaryData'))).toEqual(data);
  });

  test('the boundary lookalike holds no delimiter of its boundary and survives a round trip', async () => {
    const boundary = freshBoundary();
    const data = boundaryLookalike(boundary);
    expect(Buffer.from(data).includes(boundary)).toBe(false);
    expect(Buffer.from(data).includes(`--${boundary.slice(0, -1)}`)).toBe(true);
    const form = await parse(multipartBody([{ name: 'fileBinaryData', filename: 'x.txt', data }], boundary), boundary);
    expect(await bytesOf(form.get('fileBinaryData'))).toEqual(data);
  });

  test('a truncated body ends inside its last part and does not parse', async () => {
    const boundary = freshBoundary();
    const body = multipartBody([{ name: 'fileBinaryData', filename: 'x.txt', data: 'abcdefgh' }], boundary);
    const cut = truncatedBody(body, boundary);
    expect(Buffer.from(cut).toString('latin1').endsWith('abcdef')).toBe(true);
    await expect(parse(cut, boundary)).rejects.toThrow();
  });

  test('a form reads as a browser sends it: names escaped, text lines CRLF, a file typed by default', async () => {
    const boundary = freshBoundary();
    const data = Uint8Array.of(0, 1, 2);
    const body = multipartBody(formParts({ 'odd"name': 'a\nb' }, [{ name: 'fileBinaryData', filename: 'x"y.bin', data }]), boundary);
    const text = body.toString('latin1');
    expect(text).toContain('name="odd%22name"');
    expect(text).toContain('filename="x%22y.bin"\r\nContent-Type: application/octet-stream');
    const form = await parse(body, boundary);
    expect(form.get('odd"name')).toBe('a\r\nb');
    expect(await bytesOf(form.get('fileBinaryData'))).toEqual(data);
  });
});

describe('file host', () => {
  test('serves the given bytes at its URL, counts downloads and answers 404 elsewhere', async () => {
    const host = await startFileHost();
    try {
      const data = Uint8Array.from([0, 1, 2, 255]);
      const url = host.serve('a b.bin', data, 'application/x-test');
      expect(host.downloads(url)).toBe(0);
      const res = await fetch(url);
      expect(res.headers.get('content-type')).toBe('application/x-test');
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(data);
      expect(host.downloads(url)).toBe(1);
      expect((await fetch(new URL('/elsewhere', url))).status).toBe(404);
    } finally {
      await host.close();
    }
  });

  test('serves derived content through the fallback', async () => {
    const host = await startFileHost({ fallback: (path) => ({ data: new TextEncoder().encode(path), contentType: 'text/plain' }) });
    try {
      const url = new URL('/derived/x.txt', host.serve('unused', new Uint8Array(0)));
      expect(await (await fetch(url)).text()).toBe('/derived/x.txt');
    } finally {
      await host.close();
    }
  });

  test('binds and advertises CMS_CONFORMANCE_FILEHOST, else 127.0.0.1', () => {
    expect(fileHostAddress({})).toBe('127.0.0.1');
    expect(fileHostAddress({ CMS_CONFORMANCE_FILEHOST: ' 10.0.0.5 ' })).toBe('10.0.0.5');
  });
});
