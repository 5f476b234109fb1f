import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromSchema } from '../../generators/fromSchema.ts';
import { SCHEMA_BASE, getSchema, schemasById, type JsonSchema } from '../../schemas/index.ts';

// A separate Ajv instance proves the generator against the test's own small schemas in isolation.
const ajv = new Ajv2020({ strict: true, keywords: [{ keyword: 'x-knownValues', schemaType: 'array' }] });
for (const schema of schemasById.values()) ajv.addSchema(schema);

const SEED = 20_240_601;
const sample = <T>(arb: fc.Arbitrary<T>, numRuns = 500): T[] => fc.sample(arb, { numRuns, seed: SEED });

/** Asserts that every sampled value is valid for the schema and returns the sample. */
function validSample(schema: JsonSchema, options = {}, numRuns = 500): unknown[] {
  const validate = ajv.compile(schema);
  const values = sample(fromSchema(schema, options), numRuns);
  for (const value of values) {
    if (!validate(value)) expect.fail(`${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
  }
  return values;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const depthOf = (v: unknown, member: string): number => {
  const kids = isObject(v) ? v[member] : undefined;
  return Array.isArray(kids) && kids.length > 0 ? 1 + Math.max(...kids.map((k) => depthOf(k, member))) : 0;
};

describe('fromSchema: keywords', () => {
  it('generates each scalar type', () => {
    for (const type of ['string', 'integer', 'number', 'boolean', 'null']) {
      const values = validSample({ type }, {}, 200);
      expect(new Set(values.map((v) => (v === null ? 'null' : typeof v))).size).toBe(1);
    }
    expect(validSample({ type: 'integer' }).every(Number.isInteger)).toBe(true);
  });

  it('honours minimum and maximum, also beyond 32 bits', () => {
    const wide = validSample({ type: 'integer', minimum: 2 ** 40, maximum: 2 ** 41 }) as number[];
    expect(wide.every((v) => v >= 2 ** 40 && v <= 2 ** 41)).toBe(true);
    validSample({ type: 'integer', minimum: -1, maximum: 1 });
    validSample({ type: 'number', minimum: 0.5, maximum: 0.75 });
    expect(validSample({ type: 'number', minimum: 0 }).some((v) => !Number.isInteger(v))).toBe(true);
  });

  it('generates only members of enum and const, filtered by type', () => {
    expect(new Set(validSample({ type: 'string', enum: ['exclude', 'include', 'only'] }))).toEqual(new Set(['exclude', 'include', 'only']));
    expect(new Set(validSample({ type: 'integer', enum: [1, 'a', 2.5, 3] }))).toEqual(new Set([1, 3]));
    expect(new Set(validSample({ const: 'OK' }))).toEqual(new Set(['OK']));
  });

  it('mostly picks a known value of an open enumeration, sometimes another string', () => {
    const known = ['folder', 'channel', 'node'];
    const values = validSample({ type: 'string', 'x-knownValues': known }, {}, 1000);
    const hits = values.filter((v) => known.includes(v as string)).length;
    expect(hits).toBeGreaterThan(600);
    expect(hits).toBeLessThan(1000);
  });

  it('generates arrays of types', () => {
    const values = validSample({ type: ['string', 'null'] });
    expect(values.some((v) => v === null) && values.some((v) => typeof v === 'string')).toBe(true);
  });

  it('generates any JSON value for {}', () => {
    const values = validSample({}, {}, 1000);
    const kinds = new Set(values.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)));
    expect(kinds).toEqual(new Set(['null', 'boolean', 'number', 'string', 'array', 'object']));
    for (const v of values) expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });

  it('always includes required members and sometimes each optional one', () => {
    const schema = {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer' }, name: { type: 'string' }, online: { type: 'boolean' } },
    };
    const values = validSample(schema) as Record<string, unknown>[];
    expect(values.every((v) => 'id' in v)).toBe(true);
    for (const member of ['name', 'online']) {
      expect(values.some((v) => member in v)).toBe(true);
      expect(values.some((v) => !(member in v))).toBe(true);
    }
  });

  const onlyMember = (values: unknown[], name: string): boolean => values.every((v) => Object.keys(v as object).every((k) => k === name));

  it('adds no unknown member to a closed object, even with extraMembers', () => {
    // Request bodies are closed: "The request fields of all bodies are exactly those listed below." (contract 4.1)
    const schema = { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } };
    expect(onlyMember(validSample(schema, { extraMembers: true }), 'a')).toBe(true);
  });

  it('adds unknown members to open objects only with extraMembers', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(onlyMember(validSample(schema), 'a')).toBe(true);
    expect(onlyMember(validSample(schema, { extraMembers: true }), 'a')).toBe(false);
  });

  it('generates maps for an additionalProperties schema, bounded by maxArrayLength', () => {
    const schema = { type: 'object', additionalProperties: { type: 'object', properties: { id: { type: 'integer' } } } };
    const values = validSample(schema, { maxArrayLength: 2 }) as object[];
    expect(Math.max(...values.map((v) => Object.keys(v).length))).toBe(2);
    expect(values.some((v) => Object.keys(v).length === 0)).toBe(true);
  });

  it('makes plain objects with own members only, also one named __proto__', () => {
    // Parsed, as schemas are: in an object literal, __proto__ would set the prototype instead.
    const schema = JSON.parse(
      '{"type":"object","required":["__proto__","a"],"properties":{"__proto__":{"type":"integer"},"a":{"type":"string"}}}',
    );
    for (const value of sample(fromSchema(schema), 100) as Record<string, unknown>[]) {
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).toEqual(['__proto__', 'a']);
      expect(typeof value.a).toBe('string');
      expect(JSON.parse(JSON.stringify(value))).toHaveProperty(['__proto__']);
    }
  });

  it('bounds arrays by maxArrayLength', () => {
    const values = validSample({ type: 'array', items: { type: 'integer' } }, { maxArrayLength: 4 }) as unknown[][];
    expect(Math.max(...values.map((v) => v.length))).toBe(4);
  });

  it('merges allOf, including a closed branch and members declared twice', () => {
    const schema = {
      $defs: {
        base: {
          type: 'object',
          required: ['cdate'],
          // `extra` is forbidden by the closed branch below, so it must never appear.
          properties: {
            cdate: { type: 'integer' },
            size: { type: 'number' },
            note: { type: 'string' },
            extra: { type: 'string' },
          },
        },
      },
      allOf: [
        { $ref: '#/$defs/base' },
        {
          type: 'object',
          properties: { size: { type: 'integer', minimum: 0, maximum: 10 }, cdate: {}, note: {} },
          additionalProperties: false,
        },
      ],
      type: 'object',
      properties: { size: { type: 'number', maximum: 5 } },
    };
    const values = validSample(schema) as Record<string, unknown>[];
    expect(values.some((v) => typeof v.size === 'number')).toBe(true);
    expect(values.every((v) => v.size === undefined || (Number.isInteger(v.size) && (v.size as number) <= 5))).toBe(true);
  });

  it('resolves a relative $ref across files against the $id of the schema it appears in', () => {
    const schema = {
      $id: `${SCHEMA_BASE}test/UserHolder.json`,
      type: 'object',
      required: ['user'],
      properties: { user: { $ref: '../records/User.json' } },
    };
    const values = validSample(schema) as { user: object }[];
    expect(values.some((v) => Object.keys(v.user).length > 0)).toBe(true);
  });

  it('resolves a project schema given by short name', () => {
    const validate = ajv.getSchema(`${SCHEMA_BASE}responses/FolderLoadResponse.json`)!;
    for (const v of sample(fromSchema('FolderLoadResponse'), 200)) expect(validate(v)).toBe(true);
  });
});

describe('fromSchema: recursion', () => {
  const tree = {
    $defs: {
      node: {
        type: 'object',
        properties: { id: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#/$defs/node' } } },
      },
    },
    $ref: '#/$defs/node',
  };

  it('nests a recursive type at most maxDepth times and reaches that depth', () => {
    for (const maxDepth of [0, 1, 2, 3]) {
      const depths = validSample(tree, { maxDepth }, 2000).map((v) => depthOf(v, 'kids'));
      expect(Math.max(...depths)).toBe(maxDepth);
    }
  });

  it('bounds the project recursive records (Group.children, Folder.subfolders)', () => {
    const groups = sample(fromSchema('records/Group', { maxDepth: 1 }), 2000);
    expect(Math.max(...groups.map((g) => depthOf(g, 'children')))).toBe(1);
    expect(Math.max(...sample(fromSchema('records/Folder'), 2000).map((f) => depthOf(f, 'subfolders')))).toBe(2);
  });

  it('refuses a schema whose required recursion cannot end', () => {
    const endless = {
      $defs: { n: { type: 'object', required: ['next'], properties: { next: { $ref: '#/$defs/n' } } } },
      $ref: '#/$defs/n',
    };
    expect(() => fromSchema(endless)).toThrow(/admits no value/);
  });
});

describe('fromSchema: options, determinism, shrinking, errors', () => {
  it('plugs override arbitraries by property name and by JSON Pointer', () => {
    const byName = sample(fromSchema('records/Group', { overrides: { name: fc.constant('Redaktion') } }), 500);
    const names = byName.flatMap(function collect(g: unknown): unknown[] {
      if (!isObject(g)) return [];
      return [...('name' in g ? [g.name] : []), ...((g.children as unknown[] | undefined) ?? []).flatMap(collect)];
    });
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['Redaktion']));

    type NamedGroup = { name?: string; children?: { name?: string }[] };
    const overrides = { '/children/*/name': fc.constant('Kind') };
    const byPointer = sample(fromSchema('records/Group', { overrides }), 500) as NamedGroup[];
    expect(byPointer.some((g) => g.children?.some((c) => c.name === 'Kind'))).toBe(true);
    expect(byPointer.every((g) => g.children?.every((c) => c.name === undefined || c.name === 'Kind') ?? true)).toBe(true);
    expect(byPointer.some((g) => typeof g.name === 'string' && g.name !== 'Kind')).toBe(true);
  });

  it('produces the same values from the same seed', () => {
    const first = fc.sample(fromSchema('records/Page'), { numRuns: 50, seed: 7 });
    // A fresh compilation (a copy of the schema object, not the cached arbitrary) replays the same values.
    const again = fc.sample(fromSchema(structuredClone(getSchema('records/Page'))), { numRuns: 50, seed: 7 });
    expect(again).toEqual(first);
    expect(fc.sample(fromSchema('records/Page'), { numRuns: 50, seed: 8 })).not.toEqual(first);
  });

  it('caches the compiled arbitrary per reference and options', () => {
    expect(fromSchema('records/Folder')).toBe(fromSchema(`${SCHEMA_BASE}records/Folder.json`, { maxDepth: 2 }));
    expect(fromSchema('records/Folder', { maxDepth: 1 })).not.toBe(fromSchema('records/Folder'));
  });

  it('shrinks a failing object to its smallest counterexample', () => {
    const schema = {
      type: 'object',
      required: ['count'],
      properties: { count: { type: 'integer' }, label: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    };
    const result = fc.check(
      fc.property(fromSchema(schema), (v) => (v as { count: number }).count < 1000),
      { seed: SEED },
    );
    expect(result.failed).toBe(true);
    expect(result.counterexample).toEqual([{ count: 1000 }]);
  });

  it('shrinks a failing recursive value to the smallest nesting', () => {
    const result = fc.check(
      fc.property(fromSchema('records/Group'), (g) => depthOf(g, 'children') < 2),
      { seed: SEED },
    );
    expect(result.failed).toBe(true);
    expect(result.counterexample).toEqual([{ children: [{ children: [{}] }] }]);
  });

  it('throws on an unknown keyword, naming the keyword and the schema', () => {
    expect(() => fromSchema({ type: 'string', format: 'email' })).toThrow(/unsupported keyword "format" in schema .*inline\/\d+\.json#/);
    const nested = { $id: `${SCHEMA_BASE}test/Nested.json`, $defs: { a: { type: 'array', minItems: 1 } }, $ref: '#/$defs/a' };
    expect(() => fromSchema(nested)).toThrow(`unsupported keyword "minItems" in schema ${SCHEMA_BASE}test/Nested.json#/$defs/a`);
    expect(() => fromSchema({ type: 'date' })).toThrow(/unsupported type "date"/);
  });
});
