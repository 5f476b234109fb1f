/**
 * Random requests of every kind against the reference server: methods, operation paths with good, odd
 * and malformed ids, query values of every shape, JSON and non-JSON bodies, content types. Bad input
 * never crashes it: each answer is the envelope, a refusal carries a non-OK responseCode, nothing is a
 * 5xx, and the store still answers whole afterwards. A planted 500 shows the campaign can fail.
 */
import fc from 'fast-check';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { getValidator } from '../../schemas/index.ts';
import { getOperation, operations } from '../../schemas/operations.ts';
import { startReferenceServer } from '../../server/index.ts';

/** Ids and id-like values: the fixture's, unknown ones, global ids, and what a parser may trip on. */
const IDS = ['1', '2', '100', '101', '110', '262', '0', '-1', '999999', 'A547.1', '', ' 100', '1e2', '0x64', '100.0', '9007199254740993'];
const ODD = [
  'NaN',
  'null',
  '%00',
  '..',
  '__proto__',
  'constructor',
  'ü',
  '100,101',
  'true',
  'TRUE',
  '-0',
  '[]',
  '{}',
  'desc',
  '-name',
  '*',
];

const queryValue = fc.oneof(fc.constantFrom(...IDS, ...ODD, 'x'.repeat(5000)), fc.string({ maxLength: 12 }), fc.integer().map(String));
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, '', '100', 'A547.1', [], {}),
    fc.string({ maxLength: 8 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom('id', 'name', 'motherId', 'folderId', 'nodeId', 'ids', 'file', 'exclude', 'disinherit', 'reinherit', '__proto__'),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;
const body = fc.oneof(
  json.map((v) => JSON.stringify(v) ?? ''),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '{', '{"name":', '[1,', '--XX\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n100\r\n--XX--\r\n'),
);

const exchange = fc.record({
  op: fc.constantFrom(...operations),
  method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'), { nil: undefined }),
  id: fc.constantFrom(...IDS, ...ODD),
  query: fc.array(fc.tuple(fc.option(fc.string({ maxLength: 6 }), { nil: undefined }), queryValue, fc.nat()), { maxLength: 5 }),
  body,
  contentType: fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=XX', 'application/octet-stream', ''),
});

/** Sends `runs` random requests; returns what went wrong, one line per request. */
async function campaign(baseUrl: string, runs: number): Promise<string[]> {
  const wrong: string[] = [];
  await fc.assert(
    fc.asyncProperty(exchange, async (x) => {
      const path = x.op.path.replace(/\{[^}]+\}/, encodeURIComponent(x.id));
      const params = new URLSearchParams();
      // A name of the operation's own, chosen by the third member, unless the pair brings a name of its own.
      const names = x.op.parameters.map((p) => p.name);
      for (const [name, value, pick] of x.query) params.append(name ?? names[pick % Math.max(1, names.length)] ?? 'x', value);
      const method = x.method ?? x.op.method;
      const res = await request(`${baseUrl}${path}${params.size ? `?${params}` : ''}`, {
        method,
        headers: x.contentType ? { 'content-type': x.contentType } : {},
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: x.body }),
      });
      const text = await res.body.text();
      const what = `${method} ${path}?${params} (${x.contentType || 'no content type'}) answered ${res.statusCode}`;
      // ENV-08: a 5xx is never an acceptable answer; reference notes: refusals come in the envelope with a non-OK code.
      if (res.statusCode >= 500) wrong.push(`${what}: ${text.slice(0, 200)}`);
      if (method === 'HEAD' || res.statusCode === 204) return;
      let answer: { responseInfo?: { responseCode?: unknown } } | undefined;
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        wrong.push(`${what} with a body that is not JSON: ${text.slice(0, 100)}`);
        return;
      }
      const code = answer?.responseInfo?.responseCode;
      if (res.statusCode >= 400 && (typeof code !== 'string' || code === 'OK'))
        wrong.push(`${what} without a non-OK responseCode: ${text.slice(0, 200)}`);
    }),
    { numRuns: runs, seed: 20260101 },
  );
  return wrong;
}

describe('random requests', () => {
  it.each(['default', 'field'])(
    'the %s profile answers each in the envelope, never with a 5xx, and its store still answers whole',
    async (profile) => {
      const server = await startReferenceServer({ profile });
      try {
        expect(await campaign(server.baseUrl, 500)).toEqual([]);
        // Nothing the campaign sent broke the store: the whole master tree still lists, and validates.
        const root = server.target.fixture.masterRootFolderId;
        const res = await request(`${server.baseUrl}/folder/getFiles/${root}?recursive=true&maxItems=-1`);
        expect(res.statusCode).toBe(200);
        const validate = getValidator(getOperation('folder.getFiles').response.schema);
        expect(validate(await res.body.json()), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      } finally {
        await server.close();
      }
    },
  );

  it('finds a planted 500: the campaign can fail', async () => {
    const server = await startReferenceServer({ faults: ['wrong-type-500'] });
    try {
      expect((await campaign(server.baseUrl, 500)).length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
