/** The generated OpenAPI document is valid OpenAPI 3.1 and carries the catalogue faithfully. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../cli/main.ts';
import { schemasById } from '../schemas/index.ts';
import { buildOpenApi } from '../schemas/openapi.ts';
import { operations } from '../schemas/operations.ts';

interface OaSchema {
  type?: string;
  default?: unknown;
  enum?: string[];
  items?: OaSchema;
  anyOf?: OaSchema[];
  $ref?: string;
}
interface OaParameter {
  name: string;
  in: string;
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema: OaSchema;
}
interface OaOperation {
  operationId: string;
  'x-operationIds'?: Record<string, string>;
  parameters: OaParameter[];
  requestBody?: { content: Record<string, { schema: OaSchema }> };
  responses: Record<string, { content: { 'application/json': { schema: OaSchema } } }>;
}
interface OaDocument {
  paths: Record<string, Record<string, OaOperation>>;
  components: { schemas: Record<string, unknown> };
}

const doc = buildOpenApi();
const typed = doc as unknown as OaDocument;
const operationAt = (method: string, path: string): OaOperation => typed.paths[path]![method.toLowerCase()]!;

describe('OpenAPI document', () => {
  it('passes the OpenAPI 3.1 schema validator', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('names all 43 catalogue operations', () => {
    const ids = Object.values(typed.paths)
      .flatMap((methods) => Object.values(methods))
      .flatMap((op) => (op['x-operationIds'] ? Object.values(op['x-operationIds']) : [op.operationId]));
    expect(ids.sort()).toEqual(operations.map((op) => op.id).sort());
  });

  it('merges the forms sharing a method and path into one request body with both content types', () => {
    // Contract 4.3: "The two forms share one path and are chosen by the request Content-Type."
    const create = operationAt('POST', '/file/create');
    expect(create.operationId).toBe('file.create');
    expect(Object.keys(create.requestBody!.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(create.requestBody!.content['application/json']!.schema.$ref).toBe('#/components/schemas/FileCreateRequest');
    expect(create['x-operationIds']).toEqual({ 'multipart/form-data': 'file.create.multipart', 'application/json': 'file.create.json' });
  });

  it('keeps every parameter default, enumeration and multivalued style of the catalogue', () => {
    for (const op of operations) {
      const params = operationAt(op.method, op.path).parameters;
      for (const p of op.parameters) {
        const where = `${op.id} ${p.in} ${p.name}`;
        const found = params.find((q) => q.name === p.name && q.in === p.in);
        expect(found, where).toBeDefined();
        // Forms disagreeing on a parameter (createSimple) give one anyOf branch per form.
        const candidates = found!.schema.anyOf ?? [found!.schema];
        const matches = candidates.filter((s) => {
          const value = p.multivalued ? s.items : s;
          return value?.type === p.type && value.default === p.default && JSON.stringify(value.enum) === JSON.stringify(p.enum);
        });
        expect(matches.length, where).toBeGreaterThan(0);
        if (p.multivalued) expect([found!.style, found!.explode], where).toEqual(['form', true]);
        if (p.in === 'path') expect(found!.required, where).toBe(true);
      }
    }
  });

  it('answers each operation with its success status and response schema', () => {
    for (const op of operations) {
      const name = op.response.schema.replace(/^responses\/|\.json$/g, '');
      const response = operationAt(op.method, op.path).responses[String(op.response.status)];
      expect(response?.content['application/json'].schema.$ref, op.id).toBe(`#/components/schemas/${name}`);
    }
  });

  it('holds every project schema as a component, with references rewritten to components', () => {
    expect(Object.keys(typed.components.schemas)).toHaveLength(schemasById.size);
    const text = JSON.stringify(typed.components.schemas);
    expect(text).not.toMatch(/"\$ref":"(?!#\/components\/schemas\/)/);
    expect(text).not.toContain('"$id"');
  });

  it('is printed by cms-conformance openapi, to stdout or to --out', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await main(['openapi'])).toBe(0);
    const printed = write.mock.calls.map((c) => String(c[0])).find((chunk) => chunk.startsWith('{'));
    expect(JSON.parse(printed ?? '')).toEqual(doc);
    write.mockRestore();
    const file = join(mkdtempSync(join(tmpdir(), 'cms-openapi-')), 'openapi.json');
    expect(await main(['openapi', '--out', file])).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(doc);
  });
});
