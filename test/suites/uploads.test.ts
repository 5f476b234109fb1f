import { describe, expect, test } from 'vitest';
import { fileHostAddress, startFileHost } from '../../harness/filehost.ts';
import { boundaryFor, formParts, multipartBody, multipartType, type BodyPart } from '../../harness/multipart.ts';
import { boundaryLookalike, truncatedBody } from '../../suites/uploads/lookalikes.ts';

/** Parses a multipart body with the platform's own parser (undici's), an independent oracle. */
async function parse(body: Uint8Array, boundary: string): Promise<FormData> {
  return new Response(body, { headers: { 'content-type': multipartType(boundary) } }).formData();
}

const bytesOf = async (value: unknown): Promise<Uint8Array> => new Uint8Array(await (value as Blob).arrayBuffer());

describe('multipart bodies', () => {
  test('a built body parses back to its fields and exact data bytes', async () => {
    const data = Uint8Array.from([0, 13, 10, 45, 45, 0xff, 0x80, 13, 10]);
    const parts = [
      { name: 'folderId', data: '42' },
      { name: 'fileBinaryData', filename: 'x.bin', contentType: 'application/octet-stream', data },
    ];
    const boundary = boundaryFor(parts);
    const form = await parse(multipartBody(parts, boundary), boundary);
    expect(form.get('folderId')).toBe('42');
    expect(await bytesOf(form.get('fileBinaryData'))).toEqual(data);
  });

  test('the boundary lookalike holds no delimiter of its boundary and survives a round trip', async () => {
    const boundary = boundaryFor([{ name: 'fileName', data: 'x.txt' }]);
    const data = boundaryLookalike(boundary);
    expect(Buffer.from(data).includes(boundary)).toBe(false);
    expect(Buffer.from(data).includes(`--${boundary.slice(0, -1)}`)).toBe(true);
    const form = await parse(multipartBody([{ name: 'fileBinaryData', filename: 'x.txt', data }], boundary), boundary);
    expect(await bytesOf(form.get('fileBinaryData'))).toEqual(data);
  });

  test('a truncated body ends inside its last part and does not parse', async () => {
    const parts = [{ name: 'fileBinaryData', filename: 'x.txt', data: 'abcdefgh' }];
    const boundary = boundaryFor(parts);
    const body = multipartBody(parts, boundary);
    const cut = truncatedBody(body, boundary);
    expect(Buffer.from(cut).toString('latin1').endsWith('abcdef')).toBe(true);
    await expect(parse(cut, boundary)).rejects.toThrow();
  });

  test('a form reads as a browser sends it: names escaped, text lines CRLF, a file typed by default', async () => {
    const data = Uint8Array.of(0, 1, 2);
    const parts = formParts({ 'odd"name': 'a\nb' }, [{ name: 'fileBinaryData', filename: 'x"y.bin', data }]);
    const boundary = boundaryFor(parts);
    const body = multipartBody(parts, boundary);
    const text = body.toString('latin1');
    expect(text).toContain('name="odd%22name"');
    expect(text).toContain('filename="x%22y.bin"\r\nContent-Type: application/octet-stream');
    const form = await parse(body, boundary);
    expect(form.get('odd"name')).toBe('a\r\nb');
    expect(await bytesOf(form.get('fileBinaryData'))).toEqual(data);
  });
});

describe('the boundary of a form', () => {
  const form = (data: string | Uint8Array): BodyPart[] => [
    { name: 'folderId', data: '42' },
    { name: 'fileBinaryData', filename: 'x.bin', contentType: 'application/octet-stream', data },
  ];

  test('is the same for the same form, so a run sends the same bytes every time', () => {
    expect(boundaryFor(form('abc'))).toBe(boundaryFor(form(Buffer.from('abc'))));
    expect(boundaryFor(form('abc'))).toMatch(/^----CmsConformance[0-9a-f]{16}$/);
    const large = Buffer.alloc(200_000, 0x61);
    expect(boundaryFor(form(large))).toBe(boundaryFor(form(Buffer.from(large))));
    expect(boundaryFor(form(large))).not.toBe(boundaryFor(form(large.subarray(1))));
  });

  test('differs between forms, also where only the split between parts moves', () => {
    expect(boundaryFor(form('abc'))).not.toBe(boundaryFor(form('abd')));
    const split = (a: string, b: string): BodyPart[] => [
      { name: 'a', data: a },
      { name: 'b', data: b },
    ];
    expect(boundaryFor(split('ab', 'c'))).not.toBe(boundaryFor(split('a', 'bc')));
  });

  test('never occurs in the form it separates', () => {
    // Content holding the boundary of a form of the same shape: the form's own boundary is another.
    const other = boundaryFor(form('seed'));
    const parts = form(`--${other}\r\n${other}`);
    const boundary = boundaryFor(parts);
    expect(boundary).not.toBe(other);
    expect(multipartBody(parts, boundary).toString('latin1').split(boundary)).toHaveLength(parts.length + 2);
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
