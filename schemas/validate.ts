/**
 * The validator: judges a response body (and, when known, its status and headers) against an
 * operation's response schema. Ajv decides validity; a second walk over the same schema reports what
 * ajv cannot: members the contract does not name and values of open enumerations not seen before.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { getValidator, resolveSchemaId, schemasById, type JsonSchema } from './index.ts';
import { getOperation } from './operations.ts';

/** One problem found in a response, tied to the requirement it breaks. */
export interface SchemaFinding {
  requirement: string;
  severity: 'error' | 'warning';
  /** JSON pointer into the body ('' for the body itself or for status and header findings). */
  instancePath: string;
  /** JSON pointer into the schema, prefixed by the schema's file (e.g. responses/X.json#/properties/a). */
  schemaPath: string;
  keyword: string;
  message: string;
}

/** Options of a validation: strict turns unknown members into errors. */
export interface ValidateOptions {
  strict?: boolean;
}

/** A response as far as it is known: status and headers may be missing for a recorded body. */
export interface ResponseUnderTest {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body: unknown;
}

function shortId(id: string): string {
  return id.replace(/^.*\/schemas\//, '');
}

/** Names the requirement an ajv error breaks: envelope shape, integer ids/timestamps, or the operation's schema. */
function requirementOf(err: ErrorObject, fallback: string): string {
  if (
    /^\/(messages|responseInfo)(\/|$)/.test(err.instancePath) ||
    (err.keyword === 'required' && /^(messages|responseInfo)$/.test(String(err.params.missingProperty)) && err.instancePath === '')
  ) {
    return 'ENV-01';
  }
  if (err.keyword === 'type' && err.params.type === 'integer') return 'ENV-07';
  return fallback;
}

/** Validates a body against a schema reference; every ajv error becomes an error finding for `requirement`. */
export function validateBody(schemaRef: string, body: unknown, requirement: string, options: ValidateOptions = {}): SchemaFinding[] {
  const id = resolveSchemaId(schemaRef);
  const validate = getValidator(id);
  const findings: SchemaFinding[] = [];
  if (!validate(body)) {
    for (const err of validate.errors ?? []) {
      findings.push({
        requirement: requirementOf(err, requirement),
        severity: 'error',
        instancePath: err.instancePath,
        schemaPath: `${locate(id, err.instancePath)}/${err.keyword}`,
        keyword: err.keyword,
        message: `${err.instancePath || '(body)'} ${err.message ?? 'is invalid'}${err.params && 'allowedValues' in err.params ? `: ${JSON.stringify(err.params.allowedValues)}` : ''}`,
      });
    }
  }
  for (const note of walkAnnotations(id, body)) {
    const severity = note.keyword === 'unknownMember' && options.strict ? 'error' : 'warning';
    findings.push({ requirement, severity, ...note });
  }
  return findings;
}

let validatedResponses = 0;

/** How many responses validateResponse judged in this thread so far (the benchmark's validated exchanges). */
export function validatedCount(): number {
  return validatedResponses;
}

/** Judges one response of an operation: status (ENV-03), content type (ENV-04), envelope and code (ENV-01/02), schema (OP-id). */
export function validateResponse(operationId: string, response: ResponseUnderTest, options: ValidateOptions = {}): SchemaFinding[] {
  const op = getOperation(operationId);
  validatedResponses++;
  const requirement = `OP-${op.id}`;
  const findings: SchemaFinding[] = [];
  const at = (req: string, keyword: string, message: string): SchemaFinding => ({
    requirement: req,
    severity: 'error',
    instancePath: '',
    schemaPath: '',
    keyword,
    message,
  });
  if (response.status !== undefined && response.status !== op.response.status) {
    // Contract 4: "All success statuses: 200 for GET, 201 for POST."
    findings.push(at('ENV-03', 'status', `status ${response.status}, expected ${op.response.status} for a successful ${op.method}`));
  }
  if (response.headers) {
    const raw = headerValue(response.headers, 'content-type');
    // Contract 2.1: "Every request asks for Accept: application/json"; the answer is JSON.
    if (!raw || !/^application\/json\s*(;|$)/i.test(raw)) {
      findings.push(at('ENV-04', 'contentType', `Content-Type is ${raw ? `"${raw}"` : 'missing'}, expected application/json`));
    }
  }
  findings.push(...validateBody(op.response.schema, response.body, requirement, options));
  const code = (response.body as { responseInfo?: { responseCode?: unknown } } | null)?.responseInfo?.responseCode;
  if (code !== undefined && code !== 'OK') {
    // Contract 2.1: responseCode "(string; the only value shown is OK)"; a success answers OK.
    findings.push(at('ENV-02', 'responseCode', `responseInfo.responseCode is ${JSON.stringify(code)}, expected "OK" on success`));
  }
  return findings;
}

/** Reads a header case-insensitively, joining repeated values. */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(', ') : v;
  }
  return undefined;
}

// ---- the annotation walk -------------------------------------------------------------------------

interface Note {
  instancePath: string;
  schemaPath: string;
  keyword: 'unknownMember' | 'unseenValue';
  message: string;
}

/** A schema with the $id its relative refs resolve against. */
interface Located {
  schema: JsonSchema;
  base: string;
  path: string;
}

function resolveRef(ref: string, base: string): Located {
  const url = new URL(ref, base);
  const fragment = decodeURIComponent(url.hash.replace(/^#/, ''));
  url.hash = '';
  const root = schemasById.get(url.href);
  if (!root) throw new Error(`unresolvable $ref ${ref} from ${base}`);
  let schema: JsonSchema = root;
  for (const part of fragment.split('/').filter(Boolean)) schema = (schema as Record<string, JsonSchema>)[part]!;
  return { schema, base: url.href, path: `${shortId(url.href)}#${fragment}` };
}

/** Follows $ref and allOf to the list of schema objects that together describe one value. */
function flatten(loc: Located, out: Located[] = []): Located[] {
  const { schema } = loc;
  if (typeof schema !== 'object' || schema === null) return out;
  out.push(loc);
  if (typeof schema.$ref === 'string') flatten(resolveRef(schema.$ref, loc.base), out);
  if (Array.isArray(schema.allOf)) {
    schema.allOf.forEach((sub: JsonSchema, i: number) => flatten({ schema: sub, base: loc.base, path: `${loc.path}/allOf/${i}` }, out));
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function walk(loc: Located, data: unknown, instancePath: string, notes: Note[]): void {
  const parts = flatten(loc);
  if (typeof data === 'string') {
    for (const p of parts) {
      const known = p.schema['x-knownValues'];
      if (Array.isArray(known) && !known.includes(data)) {
        notes.push({
          instancePath,
          schemaPath: `${p.path}/x-knownValues`,
          keyword: 'unseenValue',
          message: `${instancePath} has the value ${JSON.stringify(data)}, not among the values the contract shows (allowed: the enumeration is open)`,
        });
      }
    }
    return;
  }
  if (Array.isArray(data)) {
    for (const p of parts) {
      if (p.schema.items !== undefined) {
        data.forEach((item, i) =>
          walk({ schema: p.schema.items, base: p.base, path: `${p.path}/items` }, item, pointer(instancePath, i), notes),
        );
        return;
      }
    }
    return;
  }
  if (!isPlainObject(data)) return;
  const declared = new Map<string, Located>();
  let mapValues: Located | undefined;
  let describesObject = false;
  for (const p of parts) {
    if (isPlainObject(p.schema.properties)) {
      describesObject = true;
      for (const [name, sub] of Object.entries(p.schema.properties)) {
        if (!declared.has(name)) declared.set(name, { schema: sub as JsonSchema, base: p.base, path: `${p.path}/properties/${name}` });
      }
    }
    if (isPlainObject(p.schema.additionalProperties)) {
      mapValues = { schema: p.schema.additionalProperties, base: p.base, path: `${p.path}/additionalProperties` };
    }
  }
  for (const [key, value] of Object.entries(data)) {
    const sub = declared.get(key);
    if (sub) walk(sub, value, pointer(instancePath, key), notes);
    else if (mapValues) walk(mapValues, value, pointer(instancePath, key), notes);
    else if (describesObject) {
      notes.push({
        instancePath: pointer(instancePath, key),
        schemaPath: parts[0]!.path,
        keyword: 'unknownMember',
        message: `${pointer(instancePath, key)} is not a member the contract names for ${String(parts.find((p) => p.schema.title)?.schema.title ?? 'this object')}`,
      });
    }
  }
}

/**
 * Names the schema (file and pointer) that describes the value at an instance path: ajv's own
 * schemaPath is relative to whichever referenced file failed, which a reader cannot tell apart.
 */
function locate(id: string, instancePath: string): string {
  let loc: Located = { schema: schemasById.get(id)!, base: id, path: `${shortId(id)}#` };
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const parts = flatten(loc);
    const next =
      parts
        .map((p) =>
          isPlainObject(p.schema.properties) && key in p.schema.properties
            ? { schema: p.schema.properties[key] as JsonSchema, base: p.base, path: `${p.path}/properties/${key}` }
            : undefined,
        )
        .find(Boolean) ??
      parts
        .map((p) =>
          p.schema.items !== undefined && /^\d+$/.test(key)
            ? { schema: p.schema.items as JsonSchema, base: p.base, path: `${p.path}/items` }
            : undefined,
        )
        .find(Boolean) ??
      parts
        .map((p) =>
          isPlainObject(p.schema.additionalProperties)
            ? { schema: p.schema.additionalProperties, base: p.base, path: `${p.path}/additionalProperties` }
            : undefined,
        )
        .find(Boolean);
    if (!next) break;
    loc = next;
  }
  // The innermost $ref target is where the member's own keywords live.
  const parts = flatten(loc);
  return parts[parts.length - 1]!.path;
}

/** Lists unknown members and unseen open-enumeration values of a body, for warnings (or errors under --strict). */
export function walkAnnotations(schemaRef: string, data: unknown): Note[] {
  const id = resolveSchemaId(schemaRef);
  const notes: Note[] = [];
  walk({ schema: schemasById.get(id)!, base: id, path: `${shortId(id)}#` }, data, '', notes);
  return notes;
}
