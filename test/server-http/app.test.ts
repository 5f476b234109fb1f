/** The HTTP layer over stub semantics: envelope, statuses, refusal styles, auth, parsing of every body form. */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { operations } from '../../schemas/operations.ts';
import { zeroValue } from '../../server/app.ts';
import { expectRefusal, json, multipartBody, stubApp } from './helpers.ts';

const apps: FastifyInstance[] = [];
function app(options: Parameters<typeof stubApp>[0] = {}) {
  const built = stubApp(options);
  apps.push(built.app);
  return built;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const JSON_HEADERS = { 'content-type': 'application/json' };
const BOUNDARY = 'cmsBoundary7MA4YWxk';
const MULTIPART_HEADERS = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

describe('envelope and success statuses', () => {
  it('answers a GET with 200, application/json and the envelope with responseCode OK', async () => {
    const res = await app().app.inject({ method: 'GET', url: '/rest/folder/load/1' });
    // Contract 4: "All success statuses: 200 for GET, 201 for POST."
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(json(res)).toMatchObject({ messages: [], responseInfo: { responseCode: 'OK' }, folder: { id: 1, name: 'Root' } });
  });

  it('answers a successful POST with 201', async () => {
    const res = await app().app.inject({ method: 'POST', url: '/rest/folder/create', headers: JSON_HEADERS, payload: { name: 'News' } });
    expect(res.statusCode).toBe(201);
    expect(json(res)).toMatchObject({ folder: { name: 'News' }, responseInfo: { responseCode: 'OK' } });
  });

  it('leaves out members whose value is null', async () => {
    const res = await app().app.inject({ method: 'GET', url: '/rest/folder/load/1' });
    expect(json(res)).not.toHaveProperty('description');
  });
});

describe('refusal styles', () => {
  it('status style answers a handler refusal with the status of its code', async () => {
    expectRefusal(await app().app.inject({ method: 'GET', url: '/rest/folder/load/999' }), 404, 'NOTFOUND');
  });

  it('status style uses the status a refusal names', async () => {
    expectRefusal(await app().app.inject({ method: 'POST', url: '/rest/folder/delete/1' }), 409, 'FAILURE');
  });

  it('status style refuses with property and fieldName naming the field', async () => {
    const res = await app().app.inject({ method: 'POST', url: '/rest/folder/create', headers: JSON_HEADERS, payload: { name: 'taken' } });
    expectRefusal(res, 400, 'INVALIDDATA', 'name');
    expect(json(res).messages).toEqual([expect.objectContaining({ fieldName: 'name' })]);
  });

  it('body style answers a handler refusal with 200 and the code in the body', async () => {
    const { app: a } = app({ refusalStyle: 'body' });
    expectRefusal(await a.inject({ method: 'GET', url: '/rest/folder/load/999' }), 200, 'NOTFOUND');
    expectRefusal(await a.inject({ method: 'POST', url: '/rest/folder/delete/1' }), 200, 'FAILURE');
  });

  it('body style keeps a real status for requests refused before any handler ran', async () => {
    const { app: a } = app({ refusalStyle: 'body' });
    expectRefusal(
      await a.inject({ method: 'POST', url: '/rest/folder/create', headers: JSON_HEADERS, payload: '{"name":' }),
      400,
      'INVALIDDATA',
    );
    expectRefusal(await a.inject({ method: 'GET', url: '/rest/nothing/here' }), 404, 'NOTFOUND');
  });

  it('adds success false to a refused upload', async () => {
    const res = await app().app.inject({
      method: 'POST',
      url: '/rest/file/create',
      headers: MULTIPART_HEADERS,
      payload: multipartBody([{ name: 'folderId', data: '1' }]),
    });
    expectRefusal(res, 400, 'INVALIDDATA', 'fileBinaryData');
    expect(json(res).success).toBe(false);
  });

  it('answers an exception that is not a Refusal with a 500 FAILURE envelope, as a last resort', async () => {
    expectRefusal(await app().app.inject({ method: 'GET', url: '/rest/folder/count/1' }), 500, 'FAILURE');
  });

  it('answers an operation without a handler with 501', async () => {
    expectRefusal(await app().app.inject({ method: 'GET', url: '/rest/file/usage/file' }), 501, 'FAILURE');
  });
});

describe('unknown paths', () => {
  it('answers an unknown path with a 404 NOTFOUND envelope', async () => {
    expectRefusal(await app().app.inject({ method: 'GET', url: '/rest/folder/nope/1' }), 404, 'NOTFOUND');
    expectRefusal(await app().app.inject({ method: 'GET', url: '/elsewhere' }), 404, 'NOTFOUND');
  });

  it('answers a known path with the wrong method with 404', async () => {
    expectRefusal(await app().app.inject({ method: 'GET', url: '/rest/folder/create' }), 404, 'NOTFOUND');
  });

  it('refuses a path with a broken percent-encoding with 400, not 5xx', async () => {
    expectRefusal(await app().app.inject({ method: 'GET', url: '/rest/folder/load/%E0%A4%A' }), 400, 'INVALIDDATA');
  });
});

describe('auth', () => {
  const token = 'secret-token';

  it('refuses a request without credentials with 401 AUTHREQUIRED, in both refusal styles', async () => {
    expectRefusal(await app({ authToken: token }).app.inject({ method: 'GET', url: '/rest/folder/load/1' }), 401, 'AUTHREQUIRED');
    expectRefusal(
      await app({ authToken: token, refusalStyle: 'body' }).app.inject({ method: 'GET', url: '/rest/folder/load/1' }),
      401,
      'AUTHREQUIRED',
    );
  });

  it('refuses a wrong sid and a wrong bearer token', async () => {
    const { app: a } = app({ authToken: token });
    expectRefusal(await a.inject({ method: 'GET', url: '/rest/folder/load/1?sid=guess' }), 401, 'AUTHREQUIRED');
    expectRefusal(
      await a.inject({ method: 'GET', url: '/rest/folder/load/1', headers: { authorization: 'Bearer guess' } }),
      401,
      'AUTHREQUIRED',
    );
  });

  it('accepts the token as sid query parameter or as bearer token', async () => {
    const { app: a } = app({ authToken: token });
    expect((await a.inject({ method: 'GET', url: `/rest/folder/load/1?sid=${token}` })).statusCode).toBe(200);
    expect((await a.inject({ method: 'GET', url: '/rest/folder/load/1', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(
      200,
    );
  });

  it('checks credentials before routing, so unknown paths are 401 too', async () => {
    expectRefusal(await app({ authToken: token }).app.inject({ method: 'GET', url: '/rest/nope' }), 401, 'AUTHREQUIRED');
  });
});

describe('query parameters', () => {
  it('applies the contract defaults and passes multivalued parameters as arrays', async () => {
    const res = await app().app.inject({ method: 'GET', url: '/rest/folder/getFiles/1?usedIn=3&usedIn=4' });
    // Contract 4.1 Group L: "skipCount (int, 0), maxItems (int, -1 means all)"; Group F: "recursive boolean false".
    expect(json(res).query).toMatchObject({
      skipCount: 0,
      maxItems: -1,
      recursive: false,
      wastebin: 'exclude',
      usedIn: [3, 4],
      creatorId: [],
    });
    expect(json(res).query).not.toHaveProperty('online');
  });

  it('parses integers, booleans ignoring case, and strings', async () => {
    const res = await app().app.inject({
      method: 'GET',
      url: '/rest/folder/getFiles/1?maxItems=25&recursive=TRUE&search=a%20b&sortorder=desc',
    });
    expect(json(res).query).toMatchObject({ maxItems: 25, recursive: true, search: 'a b', sortorder: 'desc' });
  });

  it('treats an empty value of a typed parameter as not sent', async () => {
    const res = await app().app.inject({ method: 'GET', url: '/rest/folder/getFiles/1?maxItems=&online=' });
    expect(json(res).query).toMatchObject({ maxItems: -1 });
    expect(json(res).query).not.toHaveProperty('online');
  });

  it('keeps every parameter as sent in rawQuery, undeclared ones included', async () => {
    const { app: a, state } = app();
    await a.inject({ method: 'GET', url: '/rest/folder/getFiles/1?maxItems=5&toString=x&toString=y' });
    expect({ ...state.calls[0]?.rawQuery }).toEqual({ maxItems: ['5'], toString: ['x', 'y'] });
  });

  it.each([
    ['maxItems=abc', 'maxItems'],
    ['maxItems=1.5', 'maxItems'],
    ['maxItems=99999999999999999999', 'maxItems'],
    ['recursive=maybe', 'recursive'],
    ['usedIn=3&usedIn=x', 'usedIn'],
    ['wastebin=everything', 'wastebin'],
  ])('refuses %s with 400 INVALIDDATA naming the parameter, never 5xx', async (query, property) => {
    // NEG-02: "a query value of the wrong type (maxItems=abc, recursive=maybe) is refused or ignored, never a 5xx."
    const { app: a, state } = app();
    expectRefusal(await a.inject({ method: 'GET', url: `/rest/folder/getFiles/1?${query}` }), 400, 'INVALIDDATA', property);
    expect(state.calls).toHaveLength(0);
  });

  it('refuses an unknown value of an enumerated multivalued parameter', async () => {
    expectRefusal(
      await app().app.inject({ method: 'GET', url: '/rest/folder/getPages/1?permission=view&permission=fly' }),
      400,
      'INVALIDDATA',
      'permission',
    );
  });

  it('gives an absent required integer parameter its zero value instead of refusing it', async () => {
    // Contract 4.3 createSimple raw body: "folderId (required int)". Reference notes: "A query parameter declared as a
    // Java primitive (`boolean`, `int`) that is absent takes its zero value (`false`, `0`) instead of being refused".
    const { app: a, state } = app();
    const res = await a.inject({
      method: 'POST',
      url: '/rest/file/createSimple?qqfile=a.txt',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(res.statusCode).toBe(201);
    expect(state.calls[0]?.query.folderId).toBe(0);
  });

  it('still refuses a required integer parameter that is sent but does not parse', async () => {
    const { app: a, state } = app();
    const res = await a.inject({
      method: 'POST',
      url: '/rest/file/createSimple?qqfile=a.txt&folderId=x',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expectRefusal(res, 400, 'INVALIDDATA', 'folderId');
    expect(state.calls).toHaveLength(0);
  });

  it('has a zero value for the primitive types only: an absent required string parameter stays refused', () => {
    // Reference notes: the zero value is for "a Java primitive (`boolean`, `int`)"; a string is none.
    expect(zeroValue({ name: 'p', in: 'query', type: 'integer', required: true })).toBe(0);
    expect(zeroValue({ name: 'p', in: 'query', type: 'number', required: true })).toBe(0);
    expect(zeroValue({ name: 'p', in: 'query', type: 'boolean', required: true })).toBe(false);
    expect(zeroValue({ name: 'p', in: 'query', type: 'string', required: true })).toBeUndefined();
  });

  it('refuses every absent required string parameter of the catalogue and zeroes every primitive one', async () => {
    const required = operations.flatMap((op) => op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => ({ op, p })));
    expect(required.length).toBeGreaterThan(0);
    for (const { op, p } of required) {
      const url = `/rest${op.path.replace(/\{\w+\}/g, '1')}`;
      const headers = op.requestBody?.raw ? { 'content-type': 'text/plain' } : op.requestBody ? { 'content-type': 'application/json' } : {};
      const { app: a, state } = app();
      const res = await a.inject({
        method: op.method,
        url,
        headers,
        ...(op.requestBody ? { payload: op.requestBody.raw ? 'x' : '{}' } : {}),
      });
      const where = `${op.id} ${p.name}`;
      if (p.type === 'string') {
        expect(json(res).responseInfo.property, where).toBe(p.name);
        expect(state.calls, where).toHaveLength(0);
      } else {
        // Operations without a stub handler answer 501 after parsing; parsing must not have refused.
        expect(json(res).responseInfo.property, where).not.toBe(p.name);
        if (state.calls.length > 0) expect(state.calls[0]?.query[p.name], where).toBe(p.type === 'boolean' ? false : 0);
      }
    }
  });
});

describe('JSON bodies', () => {
  it.each([
    ['a truncated object', '{"name":'],
    ['a bare word', 'folder'],
    ['an empty body', ''],
  ])('refuses malformed JSON (%s) with 400 INVALIDDATA and creates nothing', async (_what, payload) => {
    // NEG-01: "malformed JSON body is refused, not a 5xx, and changes nothing."
    const { app: a, state } = app();
    expectRefusal(await a.inject({ method: 'POST', url: '/rest/folder/create', headers: JSON_HEADERS, payload }), 400, 'INVALIDDATA');
    expect(state.folders.size).toBe(1);
  });

  it.each([
    ['an object for a string member', { name: { wrong: 'type' } }, 'name'],
    ['an array for a string member', { name: ['x'] }, 'name'],
    ['a string that is no integer for an integer member', { name: 'x', nodeId: 'x' }, 'nodeId'],
    ['a fractional number for an integer member', { name: 'x', nodeId: 1.5 }, 'nodeId'],
    ['a boolean for an integer member', { name: 'x', templateId: true }, 'templateId'],
    ['a string other than true or false for a boolean member', { name: 'x', failOnDuplicate: 'yes' }, 'failOnDuplicate'],
    ['a numeric string for a boolean member', { name: 'x', startpage: '1' }, 'startpage'],
    ['a member the request does not define', { name: 'x', colour: 'red' }, 'colour'],
    ['an object for a map value', { name: 'x', nameI18n: { de: {} } }, 'nameI18n.de'],
    ['a string for a map', { name: 'x', nameI18n: 'x' }, 'nameI18n'],
    ['a value outside an enumeration after conversion', { id: '1', wastebin: 5 }, 'wastebin'],
  ])('refuses %s with 400 INVALIDDATA naming the field', async (_what, payload, property) => {
    // NEG-04: "a body field whose value cannot be converted to the field's type (`folderId: "x"`, `name: {}`) is refused and
    // changes nothing"; contract 4.1: "The request fields of all bodies are exactly those listed".
    const { app: a, state } = app();
    const url = 'wastebin' in payload ? '/rest/folder/getFolders' : '/rest/folder/create';
    const res = await a.inject({ method: 'POST', url, headers: JSON_HEADERS, payload });
    expectRefusal(res, 400, 'INVALIDDATA', property);
    expect(json(res).responseInfo.responseMessage).toContain(property);
    expect(state.folders.size).toBe(1);
    expect(state.calls).toHaveLength(0);
  });

  it.each([
    ['a number for a string member as its decimal text', { name: 5, motherId: 110 }, { name: '5', motherId: '110' }],
    ['a boolean for a string member as its text', { name: true }, { name: 'true' }],
    [
      'an integer-valued string for an integer member',
      { name: 'x', nodeId: '7', templateId: ' -3 ' },
      { name: 'x', nodeId: 7, templateId: -3 },
    ],
    [
      'true and false in any of the cases Jackson knows for a boolean member',
      { name: 'x', failOnDuplicate: 'TRUE', startpage: 'False' },
      { name: 'x', failOnDuplicate: true, startpage: false },
    ],
    [
      'an integer for a boolean member as non-zero',
      { name: 'x', failOnDuplicate: 1, startpage: 0 },
      { name: 'x', failOnDuplicate: true, startpage: false },
    ],
    ['a number for a map value of strings', { name: 'x', nameI18n: { de: 1 } }, { name: 'x', nameI18n: { de: '1' } }],
    ['null as an absent member', { name: 'x', description: null, nodeId: null, failOnDuplicate: null }, { name: 'x' }],
    [
      'an empty string as an absent non-string member, and as text for a string member',
      { name: '', nodeId: '', failOnDuplicate: ' ' },
      { name: '' },
    ],
  ])('accepts %s and hands the converted value to the handler', async (_what, payload, converted) => {
    // Reference notes, "What the server accepts": "A JSON number is accepted for a string member (`"motherId": 110` reads as
    // `"110"`), an integer-valued string for an integer member (`"folderId": "7"`), and `"true"`/`"false"` for a boolean."
    const { app: a, state } = app();
    const res = await a.inject({ method: 'POST', url: '/rest/folder/create', headers: JSON_HEADERS, payload });
    expect(res.statusCode).toBe(201);
    expect({ ...(state.calls[0]?.body as object) }).toEqual(converted);
  });

  it("reads the vendor client's folder create with a numeric motherId", async () => {
    const { app: a, state } = app();
    const res = await a.inject({
      method: 'POST',
      url: '/rest/folder/create',
      headers: JSON_HEADERS,
      payload: '{"motherId": 110, "name": "x"}',
    });
    expect(res.statusCode).toBe(201);
    expect(state.calls[0]?.body).toEqual({ motherId: '110', name: 'x' });
  });

  it('converts members of a referenced record and items of an array', async () => {
    const { app: a, state } = app({ handlers: { 'file.copy': (st, req) => (st.calls.push(req), { success: true }) } });
    const payload = { file: { id: 7 }, targetFolder: { id: '12', channelId: '2' }, nodeId: '0', newFilename: 3 };
    expect((await a.inject({ method: 'POST', url: '/rest/file/copy', headers: JSON_HEADERS, payload })).statusCode).toBe(201);
    expect(state.calls[0]?.body).toEqual({ file: { id: 7 }, targetFolder: { id: 12, channelId: 2 }, nodeId: 0, newFilename: '3' });
    const { app: b, state: st2 } = app({ handlers: { 'file.disinherit.set': (st, req) => (st.calls.push(req), {}) } });
    expect(
      (
        await b.inject({
          method: 'POST',
          url: '/rest/file/disinherit?id=1',
          headers: JSON_HEADERS,
          payload: { disinherit: ['2', 3], exclude: 'false' },
        })
      ).statusCode,
    ).toBe(201);
    expect(st2.calls[0]?.body).toEqual({ disinherit: [2, 3], exclude: false });
    expectRefusal(
      await b.inject({ method: 'POST', url: '/rest/file/disinherit?id=1', headers: JSON_HEADERS, payload: { disinherit: [2, 'x'] } }),
      400,
      'INVALIDDATA',
      'disinherit.1',
    );
    expectRefusal(
      await b.inject({ method: 'POST', url: '/rest/file/disinherit?id=1', headers: JSON_HEADERS, payload: { disinherit: [null] } }),
      400,
      'INVALIDDATA',
      'disinherit.0',
    );
    expectRefusal(
      await b.inject({ method: 'POST', url: '/rest/file/disinherit?id=1', headers: JSON_HEADERS, payload: { disinherit: 2 } }),
      400,
      'INVALIDDATA',
      'disinherit',
    );
  });

  it('keeps a member named like an Object prototype member an own, unknown member', async () => {
    const res = await app().app.inject({
      method: 'POST',
      url: '/rest/folder/create',
      headers: JSON_HEADERS,
      payload: '{"name":"x","__proto__":{"name":5}}',
    });
    expectRefusal(res, 400, 'INVALIDDATA', '__proto__');
  });

  it('refuses a body that is not an object', async () => {
    expectRefusal(
      await app().app.inject({ method: 'POST', url: '/rest/folder/create', headers: JSON_HEADERS, payload: '[1,2]' }),
      400,
      'INVALIDDATA',
    );
  });

  it('refuses a JSON operation called with another content type with 415', async () => {
    const res = await app().app.inject({
      method: 'POST',
      url: '/rest/folder/create',
      headers: { 'content-type': 'text/plain' },
      payload: '{"name":"x"}',
    });
    expectRefusal(res, 415, 'INVALIDDATA');
  });

  it('refuses a JSON body declared in a charset other than UTF-8 with 415, and reads UTF-8 and ASCII', async () => {
    const post = (type: string, payload: string | Buffer) =>
      app().app.inject({ method: 'POST', url: '/rest/folder/create', headers: { 'content-type': type }, payload });
    expectRefusal(await post('application/json; charset=utf-16', Buffer.from('{"name":"x"}', 'utf16le')), 415, 'INVALIDDATA');
    expect((await post('application/json; charset="UTF-8"', '{"name":"x"}')).statusCode).toBe(201);
    expect((await post('application/json;charset=us-ascii', '{"name":"x"}')).statusCode).toBe(201);
  });

  it('refuses a number too large for a double, naming the member, instead of storing "Infinity"', async () => {
    const res = await app().app.inject({ method: 'POST', url: '/rest/folder/create', headers: JSON_HEADERS, payload: '{"name":1e400}' });
    expectRefusal(res, 400, 'INVALIDDATA', 'name');
  });

  it('times out a request body that never finishes', () => {
    expect(app().app.server.requestTimeout).toBe(60_000);
  });

  it('refuses very deep nesting with 400, not a crash', async () => {
    const depth = 100_000;
    const payload = `{"name":"x","nameI18n":{"de":${'{"a":['.repeat(depth)}{}${']}'.repeat(depth)}}}`;
    expectRefusal(
      await app().app.inject({ method: 'POST', url: '/rest/folder/create', headers: JSON_HEADERS, payload }),
      400,
      'INVALIDDATA',
      'nameI18n.de',
    );
  });
});

describe('multipart bodies', () => {
  const binary = Buffer.from([0, 1, 2, 0xff, 0xfe, 13, 10, 45, 45, 13, 10, 0x80]);

  it('buffers the parts: data bytes exactly, filename, media type and text fields', async () => {
    const payload = multipartBody([
      { name: 'folderId', data: '7' },
      { name: 'description', data: 'Grüße' },
      { name: 'fileBinaryData', filename: 'blob.bin', contentType: 'application/x-test', data: binary },
    ]);
    const res = await app().app.inject({ method: 'POST', url: '/rest/file/create', headers: MULTIPART_HEADERS, payload });
    expect(res.statusCode).toBe(201);
    expect(json(res)).toMatchObject({
      success: true,
      file: { name: 'blob.bin', fileSize: binary.length, fileType: 'application/x-test' },
      fields: { folderId: '7', description: 'Grüße' },
    });
  });

  it('keeps a data part sent without a filename as a file part too', async () => {
    const payload = multipartBody([{ name: 'fileBinaryData', data: binary }]);
    const { app: a, state } = app();
    expect((await a.inject({ method: 'POST', url: '/rest/file/create', headers: MULTIPART_HEADERS, payload })).statusCode).toBe(201);
    expect(state.calls[0]?.multipart?.files[0]?.data.equals(binary)).toBe(true);
  });

  it('hands the parts over when the multipart body is empty, so the handler refuses the missing data part', async () => {
    const res = await app().app.inject({ method: 'POST', url: '/rest/file/create', headers: MULTIPART_HEADERS, payload: '' });
    expectRefusal(res, 400, 'INVALIDDATA', 'fileBinaryData');
  });

  it.each([
    ['no boundary', { 'content-type': 'multipart/form-data' }, multipartBody([{ name: 'fileBinaryData', filename: 'a', data: 'abc' }])],
    ['a truncated part', MULTIPART_HEADERS, multipartBody([{ name: 'fileBinaryData', filename: 'a', data: 'abcdef' }]).subarray(0, 110)],
    [
      'a missing closing boundary',
      MULTIPART_HEADERS,
      multipartBody([{ name: 'fileBinaryData', filename: 'a', data: 'abc' }]).subarray(0, -8),
    ],
    ['no parts at all, only garbage', MULTIPART_HEADERS, Buffer.from('this is not multipart')],
    [
      'a part named after an Object prototype member',
      MULTIPART_HEADERS,
      multipartBody([{ name: 'constructor', filename: 'a', data: 'abc' }]),
    ],
  ])('refuses a malformed multipart body (%s) with 400 INVALIDDATA and calls no handler', async (_what, headers, payload) => {
    // UPL-08: "a malformed multipart body (no boundary, truncated part, missing data part) is refused, creates nothing, and is never a 5xx."
    const { app: a, state } = app();
    expectRefusal(await a.inject({ method: 'POST', url: '/rest/file/create', headers, payload }), 400, 'INVALIDDATA');
    expect(state.calls).toHaveLength(0);
  });

  it('refuses more parts than the limit with 400', async () => {
    const payload = multipartBody(Array.from({ length: 5 }, (_, i) => ({ name: `p${i}`, data: 'x' })));
    const { app: a } = app({ limits: { parts: 3 } });
    expectRefusal(await a.inject({ method: 'POST', url: '/rest/file/create', headers: MULTIPART_HEADERS, payload }), 400, 'INVALIDDATA');
  });

  it('refuses a part larger than the limit with 413', async () => {
    const payload = multipartBody([{ name: 'fileBinaryData', filename: 'big', data: Buffer.alloc(2048) }]);
    const { app: a, state } = app({ limits: { fileBytes: 1024 } });
    expectRefusal(await a.inject({ method: 'POST', url: '/rest/file/create', headers: MULTIPART_HEADERS, payload }), 413, 'INVALIDDATA');
    expect(state.calls).toHaveLength(0);
  });

  it('refuses a multipart body larger than the body limit with 413', async () => {
    const payload = multipartBody([{ name: 'fileBinaryData', filename: 'big', data: Buffer.alloc(4096) }]);
    const { app: a } = app({ limits: { bodyBytes: 1024 } });
    expectRefusal(await a.inject({ method: 'POST', url: '/rest/file/create', headers: MULTIPART_HEADERS, payload }), 413, 'INVALIDDATA');
  });

  it('refuses a multipart operation called with another content type with 415', async () => {
    const res = await app().app.inject({
      method: 'POST',
      url: '/rest/file/create',
      headers: { 'content-type': 'text/plain' },
      payload: 'abc',
    });
    expectRefusal(res, 415, 'INVALIDDATA');
  });
});

describe('raw bodies', () => {
  it('passes any other content type to the raw form as exact bytes', async () => {
    const bytes = Buffer.from([0, 0xff, 13, 10, 0x7b]);
    const res = await app().app.inject({
      method: 'POST',
      url: '/rest/file/createSimple?folderId=1&qqfile=a.png',
      headers: { 'content-type': 'image/png' },
      payload: bytes,
    });
    expect(res.statusCode).toBe(201);
    expect(json(res).file).toEqual({ name: 'a.png', fileSize: 5, fileType: 'image/png', hex: bytes.toString('hex') });
  });

  it('takes a JSON-labelled body as raw data where the path has no JSON form', async () => {
    const res = await app().app.inject({
      method: 'POST',
      url: '/rest/file/createSimple?folderId=1&qqfile=a.json',
      headers: JSON_HEADERS,
      payload: '{"broken":',
    });
    expect(res.statusCode).toBe(201);
    expect(json(res).file).toMatchObject({ fileSize: 10, fileType: 'application/json' });
  });

  it('gives an empty raw body as zero bytes', async () => {
    const res = await app().app.inject({
      method: 'POST',
      url: '/rest/file/createSimple?folderId=1&qqfile=a',
      headers: { 'content-type': 'text/plain' },
    });
    expect(json(res).file).toMatchObject({ fileSize: 0 });
  });
});

describe('oversized bodies', () => {
  it('refuses a JSON body over the limit with 413 and the envelope, and keeps answering', async () => {
    // NEG-05: "oversized input ... is refused or handled, never a 5xx, and the server keeps answering."
    const { app: a, state } = app({ limits: { bodyBytes: 1024 } });
    const payload = JSON.stringify({ name: 'x'.repeat(2048) });
    expectRefusal(await a.inject({ method: 'POST', url: '/rest/folder/create', headers: JSON_HEADERS, payload }), 413, 'INVALIDDATA');
    expect(state.folders.size).toBe(1);
    expect((await a.inject({ method: 'GET', url: '/rest/folder/load/1' })).statusCode).toBe(200);
  });

  it('refuses a raw body over the limit with 413', async () => {
    const { app: a } = app({ limits: { bodyBytes: 1024 } });
    const res = await a.inject({
      method: 'POST',
      url: '/rest/file/createSimple?folderId=1&qqfile=a',
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(4096),
    });
    expectRefusal(res, 413, 'INVALIDDATA');
  });
});
