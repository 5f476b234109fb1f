/** The generated OpenAPI document is valid OpenAPI 3.1 and carries the catalogue faithfully. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../cli/main.ts';
import { schemasById } from '../schemas/index.ts';
import { buildOpenApi, REFUSAL_COMPONENT } from '../schemas/openapi.ts';
import { operations } from '../schemas/operations.ts';
import { requirements } from '../schemas/requirements.ts';

interface OaSchema {
  type?: string;
  default?: unknown;
  enum?: string[];
  items?: OaSchema;
  anyOf?: OaSchema[];
  $ref?: string;
  properties?: Record<string, OaSchema>;
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
  'x-requirements': string[];
  requestBody?: { content: Record<string, { schema: OaSchema; encoding?: Record<string, { contentType: string }> }> };
  responses: Record<string, { content: { 'application/json': { schema: OaSchema } } }>;
}
interface OaDocument {
  jsonSchemaDialect: string;
  paths: Record<string, Record<string, OaOperation>>;
  components: { schemas: Record<string, unknown> };
}

// The flavour for validating proxies documents every answer inside the responses; most tests read it.
const doc = buildOpenApi({ refusalsIn2xx: true });
const typed = doc as unknown as OaDocument;
// The default flavour, for clients: a success typed as its body alone.
const forClients = buildOpenApi();
const clientTyped = forClients as unknown as OaDocument;
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

  it('answers each operation with its success status: its response schema or a refusal in a 2xx', () => {
    for (const op of operations) {
      const name = op.response.schema.replace(/^responses\/|\.json$/g, '');
      const response = operationAt(op.method, op.path).responses[String(op.response.status)];
      expect(response?.content['application/json'].schema.anyOf, op.id).toEqual([
        { $ref: `#/components/schemas/${name}` },
        { $ref: `#/components/schemas/${REFUSAL_COMPONENT}` },
      ]);
    }
  });

  it('documents every refusal a conforming server may give, and no 5xx (ENV-08)', () => {
    // INTERPRETING.md: "a refusal is HTTP status >= 400 or responseInfo.responseCode other than OK".
    for (const op of operations) {
      const { responses } = operationAt(op.method, op.path);
      expect(responses['4XX']?.content['application/json'].schema.$ref, op.id).toBe('#/components/schemas/Envelope');
      // Reference notes: "Most refusals come back as HTTP 200", for POSTs too.
      const expected = op.method === 'POST' ? ['200', '201', '4XX'] : ['200', '4XX'];
      expect(Object.keys(responses).sort(), op.id).toEqual(expected);
      if (op.method === 'POST')
        expect(responses['200']!.content['application/json'].schema.$ref, op.id).toBe(`#/components/schemas/${REFUSAL_COMPONENT}`);
    }
  });

  it('tells a refusal in a 2xx from a success by its responseCode', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'https://cms-conformance.dev/openapi.json', components: typed.components });
    const refusal = ajv.compile({ $ref: `https://cms-conformance.dev/openapi.json#/components/schemas/${REFUSAL_COMPONENT}` });
    const envelope = (responseCode?: string) => ({ messages: [], responseInfo: responseCode === undefined ? {} : { responseCode } });
    expect(refusal(envelope('NOTFOUND'))).toBe(true);
    expect(refusal({ ...envelope('INVALIDDATA'), success: false })).toBe(true);
    expect(refusal(envelope('OK'))).toBe(false);
    expect(refusal(envelope())).toBe(false);
    expect(refusal({ responseInfo: { responseCode: 'NOTFOUND' } })).toBe(false);
  });

  it('declares the JSON Schema dialect of the schemas, so that tools do not read them as draft-07', () => {
    expect(typed.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('documents the parts of the multipart forms and the raw createSimple body', () => {
    for (const op of operations.filter((o) => o.requestBody?.contentTypes.includes('multipart/form-data'))) {
      const media = operationAt(op.method, op.path).requestBody!.content['multipart/form-data']!;
      const parts = Object.keys(media.schema.properties ?? {});
      // Reference notes: the data part is fileBinaryData, Filedata, files[] or qqfile (or databodypart's name).
      expect(parts, op.id).toEqual(
        expect.arrayContaining(['fileBinaryData', 'Filedata', 'files[]', 'qqfile', 'databodypart', 'description', 'nodeId']),
      );
      expect(media.encoding?.fileBinaryData?.contentType, op.id).toBe('*/*');
    }
    const create = operationAt('POST', '/file/create').requestBody!.content['multipart/form-data']!;
    expect(Object.keys(create.schema.properties!)).toEqual(
      expect.arrayContaining(['folderId', 'fileName', 'overwrite', 'failOnDuplicate']),
    );
    expect(create.schema.properties!.overwrite).toMatchObject({ type: 'boolean', default: false });
    expect(operationAt('POST', '/file/createSimple').requestBody!.content['*/*']).toBeDefined();
  });

  it('names the requirement ids of each operation in x-requirements', () => {
    const ids = new Set(requirements.map((r) => r.id));
    for (const op of operations) {
      const listed = operationAt(op.method, op.path)['x-requirements'];
      expect(listed, op.id).toContain(`OP-${op.id}`);
      expect(
        listed.filter((id) => !ids.has(id)),
        op.id,
      ).toEqual([]);
    }
    // Named by method and path, by name, by a name shared between areas, and not by an ordinary word used as a word.
    expect(operationAt('POST', '/file/create')['x-requirements']).toEqual(expect.arrayContaining(['UPL-01', 'UPL-02']));
    expect(operationAt('GET', '/folder/getFiles/{folderId}')['x-requirements']).toEqual(expect.arrayContaining(['FLT-07', 'USE-05']));
    expect(operationAt('GET', '/folder/findPages')['x-requirements']).toEqual(expect.arrayContaining(['PAG-08', 'FLT-10']));
    expect(operationAt('POST', '/file/localize/{id}')['x-requirements']).toContain('MCH-02');
    expect(operationAt('GET', '/file/usage/folder')['x-requirements']).toContain('USE-01');
    expect(operationAt('POST', '/file/copy')['x-requirements']).not.toContain('MCH-02');
  });

  it('holds every project schema as a component, and the refusal, with references rewritten to components', () => {
    expect(Object.keys(typed.components.schemas)).toHaveLength(schemasById.size + 1);
    expect(typed.components.schemas[REFUSAL_COMPONENT]).toBeDefined();
    const text = JSON.stringify(typed.components.schemas);
    expect(text).not.toMatch(/"\$ref":"(?!#\/components\/schemas\/)/);
    expect(text).not.toContain('"$id"');
  });

  it('is printed by cms-conformance openapi, to stdout or to --out', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await main(['openapi'])).toBe(0);
    const printed = write.mock.calls.map((c) => String(c[0])).find((chunk) => chunk.startsWith('{'));
    expect(JSON.parse(printed ?? '')).toEqual(forClients);
    write.mockRestore();
    const file = join(mkdtempSync(join(tmpdir(), 'cms-openapi-')), 'openapi.json');
    expect(await main(['openapi', '--out', file, '--refusals-in-2xx'])).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(doc);
  });
});

describe('OpenAPI document for clients (the default)', () => {
  const at = (method: string, path: string) =>
    clientTyped.paths[path]![method.toLowerCase()]! as OaOperation & {
      responses: Record<string, { 'x-refusal-in-2xx'?: OaSchema }>;
    };

  it('answers each operation with its success body alone, the refusal in a 2xx beside it in x-refusal-in-2xx', () => {
    for (const op of operations) {
      const name = op.response.schema.replace(/^responses\/|\.json$/g, '');
      const { responses } = at(op.method, op.path);
      expect(Object.keys(responses).sort(), op.id).toEqual([String(op.response.status), '4XX'].sort());
      const success = responses[String(op.response.status)]!;
      expect(success.content['application/json'].schema, op.id).toEqual({ $ref: `#/components/schemas/${name}` });
      expect(JSON.stringify(success['x-refusal-in-2xx']), op.id).toContain('"not":{"const":"OK"}');
    }
    expect(clientTyped.components.schemas[REFUSAL_COMPONENT]).toBeUndefined();
  });

  it('describes every parameter, leaves a boolean the deployed server takes as false optional, and names contact and licence', () => {
    for (const [path, methods] of Object.entries(clientTyped.paths))
      for (const [method, op] of Object.entries(methods))
        for (const p of op.parameters) expect((p as { description?: string }).description, `${method} ${path} ${p.name}`).toBeTruthy();
    const recursive = at('GET', '/folder/localizationinfo/{id}').parameters.find((p) => p.name === 'recursive');
    expect(recursive?.required).toBeUndefined();
    expect(JSON.stringify(recursive)).toMatch(/Required by the contract/);
    const info = (forClients as { info: { contact?: unknown; license?: { identifier?: string } } }).info;
    expect(info.contact).toBeDefined();
    expect(info.license?.identifier).toBe('Apache-2.0');
  });
});
