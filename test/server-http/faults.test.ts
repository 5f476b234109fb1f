/** Every HTTP-level planted fault changes exactly the behaviour it claims, and the catalogue is sound. */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AppOptions } from '../../server/app.ts';
import { httpFaults, shapeFaults, type ShapeFaultName } from '../../server/faults-http.ts';
import { faultNamesOf, faults, getFault, type FaultName } from '../../server/faults.ts';
import { json, stubApp, type StubState } from './helpers.ts';

interface FaultCase {
  options?: Partial<AppOptions<StubState>>;
  request: InjectOptions;
  /** What the response looks like with the fault off, and with it on. */
  off: (res: LightMyRequestResponse, state: StubState) => void;
  on: (res: LightMyRequestResponse, state: StubState) => void;
}

const createFolder: InjectOptions = {
  method: 'POST',
  url: '/rest/folder/create',
  headers: { 'content-type': 'application/json' },
  payload: { name: 'N' },
};
const loadFolder: InjectOptions = { method: 'GET', url: '/rest/folder/load/1' };
const status = (expected: number) => (res: LightMyRequestResponse) => expect(res.statusCode).toBe(expected);

const cases: Record<string, FaultCase> = {
  'post-answers-200': { request: createFolder, off: status(201), on: status(200) },
  'json-charset-refused': {
    request: { ...createFolder, headers: { 'content-type': 'application/json; charset=utf-8' } },
    off: status(201),
    on: status(415),
  },
  'json-charset-ascii-refused': {
    request: { ...createFolder, headers: { 'content-type': 'application/json; charset=us-ascii' } },
    off: status(201),
    on: status(415),
  },
  'content-type-text-plain': {
    request: loadFolder,
    off: (res) => expect(res.headers['content-type']).toMatch(/^application\/json/),
    on: (res) => expect(res.headers['content-type']).toMatch(/^text\/plain/),
  },
  'envelope-missing-messages': {
    request: loadFolder,
    off: (res) => expect(json(res)).toHaveProperty('messages'),
    on: (res) => expect(json(res)).not.toHaveProperty('messages'),
  },
  'success-without-responseinfo': {
    request: { method: 'GET', url: '/rest/folder/findFiles?folderId=1' },
    off: (res) => expect(json(res)).toHaveProperty('responseInfo'),
    on: (res) => expect(json(res)).not.toHaveProperty('responseInfo'),
  },
  'response-code-lowercase': {
    request: loadFolder,
    off: (res) => expect(json(res).responseInfo.responseCode).toBe('OK'),
    on: (res) => expect(json(res).responseInfo.responseCode).toBe('ok'),
  },
  'malformed-json-500': { request: { ...createFolder, payload: '{"name":' }, off: status(400), on: status(500) },
  'null-body-500': { request: { ...createFolder, payload: 'null' }, off: status(400), on: status(500) },
  'body-parser-refusal-500': {
    request: { ...createFolder, headers: { 'content-type': 'json' }, payload: '{"motherId":"1","name":"x"}' },
    off: status(415),
    on: status(500),
  },
  'out-of-range-number-500': {
    request: { ...createFolder, payload: '{"motherId":"1","name":1e400,"description":null}' },
    off: status(400),
    on: status(500),
  },
  'decimal-query-truncated': {
    request: { method: 'GET', url: '/rest/folder/getFiles/1?maxItems=1.5' },
    off: status(400),
    on: status(200),
  },
  'wrong-type-500': { request: { method: 'GET', url: '/rest/folder/getFiles/1?maxItems=abc' }, off: status(400), on: status(500) },
  'unknown-id-500': { request: { method: 'GET', url: '/rest/folder/load/999' }, off: status(404), on: status(500) },
  // An empty value counts as not sent.
  'empty-query-value-500': { request: { method: 'GET', url: '/rest/folder/getFiles/1?maxItems=' }, off: status(200), on: status(500) },
  'long-query-value-500': {
    request: { method: 'GET', url: `/rest/folder/getFiles/1?search=${'x'.repeat(5000)}` },
    off: status(200),
    on: status(500),
  },
  'deep-json-500': {
    request: { ...createFolder, payload: `{"name":"N","x":${'['.repeat(2000)}${']'.repeat(2000)}}` },
    off: (res) => expect(res.statusCode).toBeLessThan(500),
    on: status(500),
  },
  'unknown-wastebin-500': { request: { method: 'GET', url: '/rest/folder/getFiles/1?wastebin=all' }, off: status(400), on: status(500) },
  // `name: 5` converts ("What the server accepts", reference notes); an object for a string cannot.
  'invalid-body-500': { request: { ...createFolder, payload: { name: { wrong: 'type' } } }, off: status(400), on: status(500) },
  'refused-create-applied': {
    request: { ...createFolder, payload: { name: 'N', description: { wrong: 'type' } } },
    off: (res, state) => {
      expect(res.statusCode).toBe(400);
      expect(state.calls).toEqual([]);
    },
    on: (res, state) => {
      expect(res.statusCode).toBe(400);
      expect(state.calls.map((c) => [c.operationId, c.body])).toEqual([['folder.create', { name: 'N' }]]);
    },
  },
  'oversized-body-500': {
    options: { limits: { bodyBytes: 512 } },
    request: { ...createFolder, payload: { name: 'x'.repeat(1024) } },
    off: status(413),
    on: status(500),
  },
  'multipart-malformed-500': {
    request: { method: 'POST', url: '/rest/file/create', headers: { 'content-type': 'multipart/form-data' }, payload: 'x' },
    off: status(400),
    on: status(500),
  },
  'multipart-cut-taken': {
    request: {
      method: 'POST',
      url: '/rest/file/create',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      // A data part, then more fields than the part limit (100): the reader stops before the file's name.
      payload: [
        '--b\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n1',
        '--b\r\nContent-Disposition: form-data; name="fileBinaryData"; filename="d.bin"\r\nContent-Type: text/plain\r\n\r\nd',
        ...Array.from({ length: 100 }, (_, i) => `--b\r\nContent-Disposition: form-data; name="n${i}"\r\n\r\nx`),
        '--b\r\nContent-Disposition: form-data; name="fileName"\r\n\r\nwanted.txt',
        '--b--\r\n',
      ].join('\r\n'),
    },
    off: status(400),
    on: status(201),
  },
  'no-auth-check': { options: { authToken: 'tok' }, request: loadFolder, off: status(401), on: status(200) },
};

describe('HTTP-level planted faults', () => {
  it('has a behaviour case for every HTTP fault, and at least six faults', () => {
    expect(Object.keys(cases).sort()).toEqual(httpFaults.map((f) => f.name).sort());
    expect(httpFaults.length).toBeGreaterThanOrEqual(6);
  });

  it.each(httpFaults.map((f) => [f.name, f] as const))('%s changes the behaviour it claims', async (name) => {
    const c = cases[name]!;
    const { app: clean, state: cleanState } = stubApp(c.options);
    const { app: faulty, state: faultyState } = stubApp({ ...c.options, faults: new Set([name]) });
    c.off(await clean.inject(c.request), cleanState);
    c.on(await faulty.inject(c.request), faultyState);
    await Promise.all([clean.close(), faulty.close()]);
  });
});

describe('fault catalogue', () => {
  it('names every fault once, with requirement ids and a description', () => {
    expect(new Set(faults.map((f) => f.name)).size).toBe(faults.length);
    for (const fault of faults) {
      expect(fault.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(fault.breaks.length).toBeGreaterThan(0);
      for (const id of fault.breaks) expect(id).toMatch(/^[A-Z]{2,4}-\d{2}[a-z]?$|^OP-/);
      expect(fault.description).not.toBe('');
    }
  });

  it('finds faults by name', () => {
    expect(getFault('post-answers-200')?.breaks).toEqual(['ENV-03']);
    expect(getFault('no-such-fault')).toBeUndefined();
  });

  it('checks names given as text, naming the known faults', () => {
    expect(faultNamesOf(['post-answers-200', 'skipcount-ignored'])).toEqual(['post-answers-200', 'skipcount-ignored']);
    expect(() => faultNamesOf(['post-answers-200', 'no-such-fault'])).toThrow(
      /^unknown fault no-such-fault; known faults: .*post-answers-200/,
    );
  });

  // Checked by `tsc --noEmit`: the name types follow the catalogue, so a misspelt name does not compile.
  it('types fault names by the catalogue, shape faults spelt as shapeFaultName spells them at run time', () => {
    expectTypeOf<'post-answers-200' | 'skipcount-ignored' | 'shape-getpages-langvars'>().toExtend<FaultName>();
    expectTypeOf<'post-answers-201'>().not.toExtend<FaultName>();
    expectTypeOf<'shape-referenced-syncable-objects-list-response' | 'shape-folder-load-response'>().toExtend<ShapeFaultName>();
    expectTypeOf<'shape-referencedsyncableobjectslistresponse'>().not.toExtend<ShapeFaultName>();
    expect(shapeFaults.map((f) => f.name)).toEqual(
      expect.arrayContaining(['shape-referenced-syncable-objects-list-response', 'shape-folder-load-response']),
    );
  });
});
