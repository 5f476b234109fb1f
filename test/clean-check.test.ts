import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { fromSchema } from '../generators/fromSchema.ts';
import { cleanCheck, compileClean } from '../schemas/clean-check.ts';
import { SCHEMA_BASE, getAjv, getValidator, schemasById, type JsonSchema } from '../schemas/index.ts';
import { getOperation } from '../schemas/operations.ts';
import { validateBody, walkAnnotations } from '../schemas/validate.ts';
import { bodyJson } from '../server/json.ts';
import { call, freshState, validRequests } from './server/helpers.ts';

const SEED = 20_261_126;
const RUNS_PER_SCHEMA = 400;
const ids = [...schemasById.keys()];

/** What Ajv and the walk together say of a body: the verdict the clean check may only ever agree with. */
function judged(id: string, body: unknown): boolean {
  return getValidator(id)(body) && walkAnnotations(id, body).length === 0;
}

/** Every object and array of a value, with the container of each, so that a mutation can reach any depth. */
function nodes(value: unknown, out: (Record<string, unknown> | unknown[])[] = []): (Record<string, unknown> | unknown[])[] {
  if (typeof value === 'object' && value !== null) {
    out.push(value as Record<string, unknown> | unknown[]);
    for (const v of Object.values(value)) nodes(v, out);
  }
  return out;
}

const REPLACEMENTS: unknown[] = [null, 1.5, 7, -1, '', 'an unseen value', true, [], {}, [1], { id: 'x' }];

/** One change that can break a body: a member dropped, added or retyped, an item added or retyped. */
interface Mutation {
  node: number;
  member: number;
  kind: 'delete' | 'add' | 'proto' | 'replace';
  replacement: unknown;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  node: fc.nat(),
  member: fc.nat(),
  kind: fc.constantFrom('delete' as const, 'add' as const, 'proto' as const, 'replace' as const),
  replacement: fc.constantFrom(...REPLACEMENTS),
});

function mutate(value: unknown, m: Mutation): unknown {
  const copy = structuredClone(value);
  const all = nodes(copy);
  if (all.length === 0) return m.replacement;
  const node = all[m.node % all.length]!;
  if (Array.isArray(node)) {
    if (m.kind === 'add' || node.length === 0) node.push(structuredClone(m.replacement));
    else node[m.member % node.length] = structuredClone(m.replacement);
    return copy;
  }
  const keys = Object.keys(node);
  const key = keys.length ? keys[m.member % keys.length]! : 'id';
  if (m.kind === 'delete') delete node[key];
  else if (m.kind === 'add') node.zzNotInTheContract = structuredClone(m.replacement);
  // A member named __proto__, as JSON.parse makes it: an own member, not the prototype.
  else if (m.kind === 'proto') Object.defineProperty(node, '__proto__', { value: 1, enumerable: true, configurable: true, writable: true });
  else node[key] = structuredClone(m.replacement);
  return copy;
}

describe('the clean check', () => {
  it.each(ids.map((id) => [id.slice(SCHEMA_BASE.length), id]))(
    '%s: calls a generated body clean exactly when Ajv accepts it and the walk notes nothing',
    (_name, id) => {
      const clean = cleanCheck(id);
      let cleanOnes = 0;
      fc.assert(
        fc.property(fromSchema(id, { maxDepth: 2 }), (body) => {
          // Not clean where Ajv and the walk find nothing: the schema may use a keyword schemas/clean-check.ts does not know yet.
          expect(clean(body), `clean check against Ajv and the walk on ${JSON.stringify(body).slice(0, 200)}`).toBe(judged(id, body));
          if (clean(body)) cleanOnes++;
        }),
        { numRuns: RUNS_PER_SCHEMA, seed: SEED },
      );
      // The fast path is taken: a check that said no to everything would be sound and useless.
      expect(cleanOnes).toBeGreaterThan(0);
    },
  );

  it.each(ids.map((id) => [id.slice(SCHEMA_BASE.length), id]))(
    '%s: never calls a broken body clean that Ajv rejects or the walk notes',
    (_name, id) => {
      const clean = cleanCheck(id);
      fc.assert(
        fc.property(fromSchema(id, { maxDepth: 2 }), mutation, (body, m) => {
          const broken = mutate(body, m);
          if (clean(broken)) expect(judged(id, broken), `passed as clean: ${JSON.stringify(broken).slice(0, 200)}`).toBe(true);
        }),
        { numRuns: RUNS_PER_SCHEMA, seed: SEED },
      );
    },
  );

  it.each(Object.keys(validRequests))(
    '%s: agrees with Ajv and the walk on the reference server answer to a valid request',
    async (operationId) => {
      const state = freshState();
      const result = await call(state, operationId, validRequests[operationId]!(state));
      // As a client receives it: the envelope added, written as the server writes it (no null members), parsed.
      const answer: unknown = JSON.parse(
        String(bodyJson({ ...result, messages: [], responseInfo: { responseCode: 'OK', responseMessage: 'Success' } })),
      );
      const id = getOperation(operationId).response.schema;
      expect(cleanCheck(id)(answer)).toBe(judged(id, answer));
    },
  );

  const closed: JsonSchema = {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'integer' }, kind: { type: 'string', 'x-knownValues': ['page', 'file'] } },
  };
  const at = (schema: JsonSchema) => compileClean({ schema, base: `${SCHEMA_BASE}test.json`, path: 'test.json#' }).check;

  it('says no to a member the record does not name, to a missing required member and to an unseen value', () => {
    const clean = at(closed);
    expect(clean({ id: 1, kind: 'page' })).toBe(true);
    expect(clean({ id: 1, extra: 1 })).toBe(false);
    expect(clean({ kind: 'file' })).toBe(false);
    expect(clean({ id: 1, kind: 'template' })).toBe(false);
    expect(clean({ id: 1.5 })).toBe(false);
    expect(clean(JSON.parse('{"id": 1, "__proto__": 2}'))).toBe(false);
  });

  it('takes any further member of an open record, and checks every value of a map', () => {
    expect(at({ ...closed, additionalProperties: true })({ id: 1, extra: [1] })).toBe(true);
    const map = at({ type: 'object', additionalProperties: { type: 'integer' } });
    expect(map({ a: 1, b: 2 })).toBe(true);
    expect(map({ a: 1, b: 'two' })).toBe(false);
  });

  it('is never clean where a schema has a keyword it does not know', () => {
    expect(at({ type: 'integer', multipleOf: 3 })(6)).toBe(false);
    expect(at({ type: 'object', properties: { n: { type: 'integer', multipleOf: 3 } } })({})).toBe(true);
    expect(at({ type: 'object', properties: { n: { type: 'integer', multipleOf: 3 } } })({ n: 6 })).toBe(false);
  });

  it.each<[string, JsonSchema]>([
    ['const', { type: 'string', const: 'FILE' }],
    ['minimum and maximum', { type: 'number', minimum: -1.5, maximum: 3 }],
    ['a bound of an integer', { type: 'integer', minimum: 0 }],
    ['a bound beside a member', { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 9 }, k: { const: 2 } } }],
  ])('agrees with Ajv on %s, which no contract schema uses yet', (_what, schema) => {
    // The project's schemas may use these keywords (test/schemas.test.ts): the check knows them before they do.
    const clean = at(schema);
    const validate = getAjv().compile(schema);
    const values = fc.oneof(
      fc.constantFrom<unknown>('FILE', 'IMAGE', -1.5, -2, 0, 3, 3.5, 9, 10, 1.5, null, true, [], {}),
      fc.double(),
      fc.record(
        { n: fc.oneof(fc.integer({ min: -2, max: 11 }), fc.double(), fc.string()), k: fc.constantFrom<unknown>(2, 3, '2') },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(values, (value) => {
        expect(clean(value), JSON.stringify(value)).toBe(validate(value));
      }),
      { numRuns: 1000, seed: SEED },
    );
  });

  it('leaves the findings of a body that is not clean to Ajv and the walk', () => {
    const id = `${SCHEMA_BASE}records/User.json`;
    const body = { id: 'seven', login: 'jdoe', nickname: 'J' };
    expect(cleanCheck(id)(body)).toBe(false);
    expect(validateBody(id, body, 'OP-x').map((f) => [f.severity, f.keyword, f.instancePath])).toEqual([
      ['error', 'type', '/id'],
      ['warning', 'unknownMember', '/nickname'],
    ]);
  });
});
