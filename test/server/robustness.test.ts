/**
 * Client mistakes are refused, never crashes: every handler, fed random requests of the catalogue's
 * shapes (ids from the fixture, unknown, global and garbage; bodies from the request schemas), either
 * answers or throws a Refusal ("an unexpected exception becomes a 5xx, which is a bug"), and a refusal
 * leaves the store as it was ("Refusals never change state"). State persists across the runs, so
 * refusals and successes interleave with earlier changes.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromSchema } from '../../generators/fromSchema.ts';
import { operations, type Operation, type Parameter } from '../../schemas/operations.ts';
import { handlers } from '../../server/handlers/index.ts';
import type { State } from '../../server/state.ts';
import { Refusal, type OpRequest, type ParamValue, type UploadPart } from '../../server/types.ts';
import { freshState } from './helpers.ts';

/** Ids worth trying: objects of every kind, channel copies, nodes, and ids nothing has. */
function idPool(s: State): fc.Arbitrary<string> {
  const objects = [...s.objects.values()];
  const sample = objects.filter((_, i) => i % 7 === 0).flatMap((o) => [String(o.id), o.globalId]);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...sample) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '0',
        '1',
        '2',
        '3',
        '-1',
        '987654',
        'abc',
        '',
        'A547.nope',
        '1e3',
        '99999999999999999999',
        '../1',
        ' 100 ',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
}

function valueOf(p: Parameter, ids: fc.Arbitrary<string>): fc.Arbitrary<string | number | boolean> {
  if (p.enum) return fc.constantFrom(...p.enum);
  switch (p.type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return fc.oneof(
        fc.integer({ min: -3, max: 5 }),
        ids.map((x) => (/^\d{1,9}$/.test(x) ? Number(x) : 0)),
        fc.integer(),
      );
    case 'string':
      return fc.oneof(
        ids,
        fc.constantFrom('([', '.*', '^/down', 'name', '-name,+id', 'desc', 'DESC', 'frontend', 'de', 'en', '0'),
        fc.string({ maxLength: 8 }),
      );
  }
}

/** A random request of an operation's shape. */
function requestOf(op: Operation, s: State): fc.Arbitrary<OpRequest> {
  const ids = idPool(s);
  const query: Record<string, fc.Arbitrary<ParamValue | undefined>> = {};
  const path: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.parameters) {
    if (p.in === 'path') path[p.name] = ids;
    else if (p.multivalued) query[p.name] = fc.array(valueOf(p, ids), { maxLength: 3 }) as fc.Arbitrary<ParamValue>;
    else query[p.name] = fc.option(valueOf(p, ids), { nil: undefined, freq: 3 });
  }
  const idNumber = ids.map((x) => (/^\d{1,9}$/.test(x) ? Number(x) : 1));
  const overrides = {
    id: idNumber,
    folderId: idNumber,
    channelId: fc.constantFrom(0, 1, 2, 3, 9),
    nodeId: fc.constantFrom(0, 1, 2, 3, 9),
    masterId: fc.constantFrom(1, 2, 3),
    motherId: ids,
  };
  const body = op.requestBody?.schema ? fromSchema(op.requestBody.schema, { overrides }) : fc.constant(undefined);
  const part = fc.record({
    fieldName: fc.constantFrom('fileBinaryData', 'Filedata', 'qqfile', 'other', 'folderId'),
    mimeType: fc.constantFrom('text/plain', 'application/octet-stream', 'image/png'),
    data: fc.uint8Array({ maxLength: 16 }).map((a) => Buffer.from(a)),
  }) as fc.Arbitrary<UploadPart>;
  const multipart = fc.record({
    fields: fc.record(
      {
        folderId: ids,
        fileName: fc.oneof(fc.constantFrom('a.txt', '../x', 'new'), fc.string({ maxLength: 6 })),
        overwrite: fc.constantFrom('true', 'false', 'x'),
      },
      { requiredKeys: [] },
    ),
    files: fc.array(part, { maxLength: 2 }),
  });
  return fc.record({ path: fc.record(path), query: fc.record(query), body, multipart, raw: fc.uint8Array({ maxLength: 8 }) }).map((r) => {
    const rawQuery: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(r.query)) if (v !== undefined) rawQuery[k] = (Array.isArray(v) ? v : [v]).map(String);
    const isMultipart = op.requestBody?.contentTypes.includes('multipart/form-data');
    return {
      operationId: op.id,
      path: r.path,
      query: Object.fromEntries(Object.entries(r.query).filter(([, v]) => v !== undefined)),
      rawQuery,
      ...(r.body === undefined ? {} : { body: r.body }),
      ...(isMultipart ? { multipart: { fields: r.multipart.fields as Record<string, string>, files: r.multipart.files } } : {}),
      ...(op.requestBody?.raw ? { raw: { contentType: 'application/octet-stream', data: Buffer.from(r.raw) } } : {}),
    } as OpRequest;
  });
}

/** Everything a request could change, as one string. */
function fingerprint(s: State): string {
  const sets = (m: Map<number, Set<number>>) => [...m].map(([k, v]) => [k, [...v]]);
  return JSON.stringify({
    objects: [...s.objects.values()].map((o) => ('data' in o ? { ...o, data: o.data?.toString('base64') } : o)),
    nextId: s.nextId,
    nextTagId: s.nextTagId,
    links: sets(s.templateLinks),
    refs: sets(s.referrers),
    children: [...s.children].map(([k, v]) => [k, Object.values(v).map((x) => [...x])]),
  });
}

describe('robustness', () => {
  // file.create.json fetches URLs; its refusals are covered in uploads.test.ts.
  const tested = operations.filter((op) => op.id !== 'file.create.json');

  it.each(tested.map((op) => [op.id, op] as const))('%s answers or refuses random requests, never crashing', async (_id, op) => {
    const s = freshState();
    await fc.assert(
      fc.asyncProperty(requestOf(op, s), async (req) => {
        const before = fingerprint(s);
        try {
          await handlers[op.id]!(s, req, { faults: new Set() });
        } catch (err) {
          const what = `${op.id} ${JSON.stringify({ path: req.path, query: req.query, body: req.body })}`;
          expect(err, what).toBeInstanceOf(Refusal);
          expect(fingerprint(s), what).toBe(before);
        }
      }),
      { numRuns: 30, seed: 4242 },
    );
  });
});
