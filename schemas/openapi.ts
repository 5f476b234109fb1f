/**
 * Builds an OpenAPI 3.1 document from the operation catalogue and the JSON Schemas, for tools that
 * speak OpenAPI (client generators, other fuzzers). The catalogue stays the source of truth.
 */
import { readFileSync } from 'node:fs';
import { SCHEMA_BASE, schemasById, type JsonSchema } from './index.ts';
import { operations, type Operation, type Parameter } from './operations.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Component names by schema `$id`: the bare type name, or `dir.Name` where two folders share a name. */
function componentNames(): Map<string, string> {
  const rel = [...schemasById.keys()].map((id) => id.slice(SCHEMA_BASE.length).replace(/\.json$/, ''));
  const base = (r: string) => r.split('/').pop()!;
  const counts = new Map<string, number>();
  for (const r of rel) counts.set(base(r), (counts.get(base(r)) ?? 0) + 1);
  return new Map(rel.map((r) => [`${SCHEMA_BASE}${r}.json`, counts.get(base(r)) === 1 ? base(r) : r.replace('/', '.')]));
}

/** Copies a schema, rewriting every `$ref` (relative or absolute, with or without fragment) to its component. */
function rewriteRefs(node: Json, baseId: string, names: Map<string, string>): Json {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, baseId, names));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const url = new URL(value, baseId);
      const fragment = decodeURIComponent(url.hash.slice(1));
      url.hash = '';
      const name = names.get(url.href);
      if (!name) throw new Error(`${baseId}: $ref ${value} points outside the project's schemas`);
      out[key] = `#/components/schemas/${name}${fragment}`;
    } else {
      out[key] = rewriteRefs(value, baseId, names);
    }
  }
  return out;
}

/** The OpenAPI schema of one catalogue parameter (an array for a multivalued one). */
function parameterSchema(p: Parameter): JsonObject {
  const value: JsonObject = { type: p.type };
  if (p.enum) value.enum = p.enum;
  if (p.knownValues) value['x-knownValues'] = p.knownValues;
  if (p.default !== undefined) value.default = p.default;
  return p.multivalued ? { type: 'array', items: value } : value;
}

/** Describes a parameter for one request form, used where the forms sharing a path disagree. */
function describeForm(p: Parameter): string {
  const parts: string[] = [p.type];
  if (p.required) parts.push('required');
  if (p.default !== undefined) parts.push(`default ${JSON.stringify(p.default)}`);
  return p.description ? `${parts.join(', ')}; ${p.description}` : parts.join(', ');
}

const formName = (op: Operation) => op.requestBody?.contentTypes.join(', ') ?? op.id;

/** The parameters of the forms sharing one method and path; a parameter they define differently gets `anyOf`. */
function parametersOf(forms: Operation[]): JsonObject[] {
  const keys = [...new Set(forms.flatMap((op) => op.parameters.map((p) => `${p.in} ${p.name}`)))];
  return keys.map((key) => {
    const defs = forms.flatMap((op) => op.parameters.filter((p) => `${p.in} ${p.name}` === key).map((p) => ({ op, p })));
    const first = defs[0]!.p;
    const schemas = defs.map(({ p }) => parameterSchema(p));
    const same = defs.length === forms.length && schemas.every((s) => JSON.stringify(s) === JSON.stringify(schemas[0]));
    const param: JsonObject = { name: first.name, in: first.in };
    if (first.in === 'path' || (defs.length === forms.length && defs.every(({ p }) => p.required))) param.required = true;
    if (same) {
      if (first.description) param.description = first.description;
      param.schema = schemas[0]!;
    } else {
      param.description = defs.map(({ op, p }) => `${formName(op)}: ${describeForm(p)}`).join(' | ');
      param.schema = { anyOf: schemas };
    }
    if (first.multivalued) Object.assign(param, { style: 'form', explode: true });
    return param;
  });
}

/** The longest common dotted prefix of the ids of merged forms, e.g. `file.create`. */
function commonId(ids: string[]): string {
  const split = ids.map((id) => id.split('.'));
  const prefix: string[] = [];
  for (const [i, part] of split[0]!.entries()) {
    if (split.some((s) => s[i] !== part)) break;
    prefix.push(part);
  }
  return prefix.join('.');
}

/** The OpenAPI operation object for the catalogue operations sharing one method and path. */
function operationObject(forms: Operation[], names: Map<string, string>): JsonObject {
  const op = forms[0]!;
  const ref = (schemaPath: string) => ({ $ref: `#/components/schemas/${names.get(SCHEMA_BASE + schemaPath)!}` });
  if (forms.some((f) => JSON.stringify(f.response) !== JSON.stringify(op.response))) {
    throw new Error(`${op.method} ${op.path}: forms sharing a path must share their response`);
  }
  const merged = forms.length > 1;
  const result: JsonObject = {
    operationId: merged ? commonId(forms.map((f) => f.id)) : op.id,
    summary: forms.map((f) => f.summary).join('; '),
    description: `Contract section ${op.section}.${forms.some((f) => f.parametersShown === false) ? ' Its parameters: not shown.' : ''}`,
    tags: [op.path.split('/')[1]!],
    parameters: parametersOf(forms),
  };
  if (merged) result['x-operationIds'] = Object.fromEntries(forms.map((f) => [formName(f), f.id]));
  const features = [...new Set(forms.map((f) => f.feature))];
  if (features.length === 1 && features[0]) result['x-feature'] = features[0];
  else if (features.some(Boolean)) result['x-features'] = Object.fromEntries(forms.map((f) => [f.id, f.feature]));
  const content: JsonObject = {};
  for (const form of forms) {
    const body = form.requestBody;
    if (!body) continue;
    for (const type of body.contentTypes) {
      content[type] = {
        schema: body.schema
          ? ref(body.schema)
          : body.raw
            ? { description: 'the raw file data' }
            : { type: 'object', description: 'part names: not shown (contract 4.1)' },
      };
    }
  }
  if (Object.keys(content).length) result.requestBody = { required: true, content };
  result.responses = {
    [String(op.response.status)]: {
      description: 'success (contract 4: 200 for GET, 201 for POST)',
      content: { 'application/json': { schema: ref(op.response.schema) } },
    },
  };
  return result;
}

/** Builds the OpenAPI 3.1 document: every catalogue operation, every schema as a component. */
export function buildOpenApi(): JsonObject {
  const names = componentNames();
  const schemas: JsonObject = {};
  for (const [id, schema] of schemasById) {
    const { $id: _id, $schema: _schema, ...rest } = schema as JsonSchema & JsonObject;
    schemas[names.get(id)!] = rewriteRefs(rest as JsonObject, id, names);
  }
  const paths: Record<string, JsonObject> = {};
  const groups = new Map<string, Operation[]>();
  for (const op of operations) {
    const key = `${op.method} ${op.path}`;
    groups.set(key, [...(groups.get(key) ?? []), op]);
  }
  for (const forms of groups.values()) {
    const { method, path } = forms[0]!;
    (paths[path] ??= {})[method.toLowerCase()] = operationObject(forms, names);
  }
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Content Management Service: folder and file resources',
      version: pkg.version,
      description:
        'Generated by cms-conformance from schemas/operations.json and the JSON Schemas under schemas/. ' +
        'Forms sharing a method and path (chosen by Content-Type) are merged; x-operationIds names the catalogue id of each.',
    },
    servers: [
      {
        url: '{base_url}',
        description: 'All paths are appended to the base address (contract 2.1).',
        variables: { base_url: { default: 'http://127.0.0.1:8080/rest', description: 'the base address of the service' } },
      },
    ],
    tags: [
      { name: 'folder', description: 'Folder operations (contract 4.2)' },
      { name: 'file', description: 'File operations (contract 4.3)' },
    ],
    paths,
    components: { schemas },
  };
}
