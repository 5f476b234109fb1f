import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_BASE, getValidator, resolveSchemaId, schemasById, type JsonSchema } from '../schemas/index.ts';

/** One case of a case file, JSON-Schema-Test-Suite style. */
interface SchemaCase {
  description: string;
  data: unknown;
  valid: boolean;
}

const CASES_DIR = new URL('./schema-cases/', import.meta.url);
const ALLOWED = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'title',
  'description',
  'type',
  'properties',
  'required',
  'items',
  'additionalProperties',
  'allOf',
  'enum',
  'const',
  'minimum',
  'maximum',
  'x-knownValues',
]);
const MAIN_RECORDS = ['Folder', 'File', 'Page', 'Node', 'Template', 'Tag', 'Item', 'User', 'DeleteInfo'];

/** Every subschema of a schema with its JSON pointer, the schema itself first. */
function* subschemas(schema: JsonSchema, pointer = ''): Generator<[string, JsonSchema]> {
  yield [pointer, schema];
  for (const key of ['properties', '$defs'] as const) {
    for (const [name, sub] of Object.entries((schema[key] ?? {}) as Record<string, JsonSchema>)) {
      yield* subschemas(sub, `${pointer}/${key}/${name}`);
    }
  }
  for (const key of ['items', 'additionalProperties'] as const) {
    const sub: unknown = schema[key];
    if (sub && typeof sub === 'object') yield* subschemas(sub as JsonSchema, `${pointer}/${key}`);
  }
  for (const [i, sub] of ((schema.allOf ?? []) as JsonSchema[]).entries()) {
    yield* subschemas(sub, `${pointer}/allOf/${i}`);
  }
}

const entries = [...schemasById].map(([id, schema]) => ({ id, schema, rel: id.slice(SCHEMA_BASE.length) }));
const byFile = entries.map((e) => [e.rel, e] as const);

describe('schema files', () => {
  it('exist for records, requests and responses', () => {
    for (const dir of ['records', 'requests', 'responses']) {
      expect(entries.filter((e) => e.rel.startsWith(`${dir}/`)).length, dir).toBeGreaterThan(0);
    }
  });

  it.each(byFile)('%s compiles in strict mode with $schema, $id, title and description', (rel, { id, schema }) => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(id);
    expect(schema.title).toBe(
      rel
        .split('/')
        .pop()!
        .replace(/\.json$/, ''),
    );
    expect(typeof schema.description === 'string' && schema.description.length > 0).toBe(true);
    expect(typeof getValidator(id)).toBe('function');
  });

  it.each(byFile)('%s uses only the agreed keywords and resolvable $refs', (rel, { id, schema }) => {
    for (const [pointer, sub] of subschemas(schema)) {
      for (const key of Object.keys(sub)) expect(ALLOWED.has(key), `${rel}#${pointer}: keyword ${key}`).toBe(true);
      if (typeof sub.$ref === 'string') {
        expect(schemasById.has(new URL(sub.$ref, id).href), `${rel}#${pointer}: $ref ${sub.$ref}`).toBe(true);
      }
      if (Array.isArray(sub['x-knownValues'])) {
        expect(sub.type, `${rel}#${pointer}: open enumerations are strings`).toBe('string');
      }
    }
  });

  // "The request fields of all bodies are exactly those listed below" (contract 4.1); records and
  // responses stay open because unknown members are warnings reported elsewhere, not schema failures.
  it.each(byFile)('%s closes exactly the request bodies', (rel, { schema }) => {
    const closed = [...subschemas(schema)].filter(([, sub]) => sub.additionalProperties === false).map(([p]) => p);
    expect(closed).toEqual(rel.startsWith('requests/') ? [''] : []);
  });
});

const caseFiles = readdirSync(CASES_DIR)
  .filter((n) => n.endsWith('.json'))
  .sort();

describe('schema case files', () => {
  it('cover every request and response schema and the main records', () => {
    const names = new Set(caseFiles.map((n) => n.replace(/\.json$/, '')));
    const wanted = [...entries.filter((e) => !e.rel.startsWith('records/')).map((e) => String(e.schema.title)), ...MAIN_RECORDS];
    expect(wanted.filter((n) => !names.has(n))).toEqual([]);
  });

  for (const fileName of caseFiles) {
    const name = fileName.replace(/\.json$/, '');
    const cases = JSON.parse(readFileSync(new URL(fileName, CASES_DIR), 'utf8')) as SchemaCase[];

    it(`${name}: has valid and invalid cases with distinct descriptions`, () => {
      expect(() => resolveSchemaId(name)).not.toThrow();
      expect(cases.some((c) => c.valid)).toBe(true);
      expect(cases.some((c) => !c.valid)).toBe(true);
      expect(new Set(cases.map((c) => c.description)).size).toBe(cases.length);
    });

    for (const c of cases) {
      it(`${name}: ${c.description}`, () => {
        const validate = getValidator(name);
        const ok = validate(c.data);
        expect(ok, JSON.stringify(validate.errors)).toBe(c.valid);
      });
    }
  }
});
