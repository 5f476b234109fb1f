/**
 * Reading JSON request bodies as the deployed implementation does. Reference notes, "What the server
 * accepts": "The deployed server parses JSON bodies with Jackson's default settings ... A faithful
 * reference server accepts what it accepts, or real clients break against it". So before a body is
 * validated against its request schema (schemas/requests/*.json), every member the schema types is
 * converted the way Jackson's default scalar coercion converts it; what cannot be converted is
 * refused with INVALIDDATA naming the member (NEG-04: "a body field whose value cannot be converted
 * to the field's type ... is refused"). The conversion is driven by the schemas alone, so every member
 * of every request schema follows the same rules.
 */
import { readScalar, kindOf, type ScalarType } from '../schemas/coercion.ts';
import { followRef, getValidator, resolveSchemaId, schemasById, type JsonSchema, type LocatedSchema } from '../schemas/index.ts';
import { Refusal } from './types.ts';

type Located = LocatedSchema;
const follow = followRef;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const SCALARS: readonly string[] = ['string', 'integer', 'number', 'boolean'];

/** A refusal of one member: INVALIDDATA, the dotted member path as `property` and in the message. */
function memberRefusal(path: string, why: string): Refusal {
  return new Refusal('INVALIDDATA', `${path}: ${why}`, path);
}

/**
 * Null and absence. Jackson reads `null` for an object or string member as null, which the handlers
 * treat as absent; for a Java primitive member it gives the zero value. The contract does not say which
 * members are primitives ("Which of them are mandatory: not shown", 4.1), and where a handler has a
 * default for an absent member it is that zero value (false, no channel for nodeId 0) or the contract's
 * default (maxItems -1), so `null` reads as absent for every member. The deployed server sends null the
 * same way: "Members whose value is null are left out of the JSON" (reference notes).
 */
function coerceValue(loc: Located, value: unknown, path: string): { value: unknown } | { absent: true } {
  const { schema, base } = follow(loc);
  const type: unknown = schema.type;
  if (value === null) return { absent: true };
  if (typeof type === 'string' && SCALARS.includes(type)) {
    const read = readScalar(type as ScalarType, value);
    if ('refused' in read) throw memberRefusal(path, read.refused);
    return read;
  }
  if (type === 'array') {
    // Jackson's defaults accept neither a single value as an array nor an array for a single value.
    if (!Array.isArray(value)) throw memberRefusal(path, `must be an array, not ${kindOf(value)}`);
    if (!isRecord(schema.items)) return { value };
    const items = value.map((item, i) => {
      const read = coerceValue({ schema: schema.items as JsonSchema, base }, item, `${path}.${i}`);
      // A null entry of a list of ids names nothing: refused rather than kept as a hole.
      if ('absent' in read) throw memberRefusal(`${path}.${i}`, 'an array entry must not be null or empty');
      return read.value;
    });
    return { value: items };
  }
  if (type === 'object') {
    if (!isRecord(value)) throw memberRefusal(path, `must be an object, not ${kindOf(value)}`);
    return { value: coerceObject({ schema, base }, value, path) };
  }
  return { value };
}

/** Converts the members of an object the schema describes; members it does not describe stay for the validator to judge. */
function coerceObject(loc: Located, value: Record<string, unknown>, path: string): Record<string, unknown> {
  const properties = isRecord(loc.schema.properties) ? (loc.schema.properties as Record<string, JsonSchema>) : {};
  const extra = isRecord(loc.schema.additionalProperties) ? (loc.schema.additionalProperties as JsonSchema) : undefined;
  const entries: [string, unknown][] = [];
  for (const [key, member] of Object.entries(value)) {
    const schema = Object.hasOwn(properties, key) ? properties[key] : extra;
    if (!schema) {
      entries.push([key, member]);
      continue;
    }
    const read = coerceValue({ schema, base: loc.base }, member, path === '' ? key : `${path}.${key}`);
    if ('value' in read) entries.push([key, read.value]);
  }
  // fromEntries defines own properties, so a member named __proto__ stays a member.
  return Object.fromEntries(entries);
}

/** The request field an Ajv error is about, as a dotted path (`file.name`), or undefined for the whole body. */
function errorProperty(error: { instancePath: string; keyword: string; params: Record<string, unknown> }): string | undefined {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  return segments.length > 0 ? segments.join('.') : undefined;
}

/**
 * Reads a parsed JSON body against a request schema (`requests/FolderCreateRequest.json`): scalars
 * converted, nulls dropped, then validated (unknown members and enumerations). Returns the body the
 * handler sees, or throws a Refusal INVALIDDATA naming the member in `property` and the message.
 */
export function readRequestBody(schemaRef: string, body: unknown): Record<string, unknown> {
  const id = resolveSchemaId(schemaRef);
  const root: Located = { schema: schemasById.get(id)!, base: id };
  if (!isRecord(body)) throw new Refusal('INVALIDDATA', `request body: must be an object, not ${kindOf(body)}`);
  const coerced = coerceObject(root, body, '');
  const validate = getValidator(id);
  if (validate(coerced)) return coerced;
  const error = validate.errors?.[0];
  const property = error ? errorProperty(error) : undefined;
  throw new Refusal('INVALIDDATA', `${property ?? 'request body'}: ${error?.message ?? 'is invalid'}`, property);
}
