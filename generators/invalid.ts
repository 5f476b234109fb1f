/**
 * Named invalid inputs for the negative suite: values of a JSON type a schema does not allow, request
 * bodies with one member of the wrong type, texts that are not JSON, and query values that do not parse
 * as their parameter's type. A wrong-type body member says whether it converts to the member's type
 * the way the deployed server's JSON reader converts scalars (reference notes, "What the server
 * accepts"), since NEG-04 lets a server accept those; the other inputs are client mistakes in every
 * JSON dialect.
 */
import * as fc from 'fast-check';
import { readScalar } from '../schemas/coercion.ts';
import { SCHEMA_BASE, followRef, resolveSchemaId, schemasById, type JsonSchema, type LocatedSchema } from '../schemas/index.ts';
import type { Parameter } from '../schemas/operations.ts';
import { fromSchema } from './fromSchema.ts';

/** The JSON types of the project's schemas (null is never sent: servers read it as "absent"). */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

type Located = LocatedSchema;

/** A request body with one member of the wrong type: where (a JSON pointer) and what was put there. */
export interface InvalidBody {
  pointer: string;
  value: unknown;
  body: Record<string, unknown>;
  /**
   * The value a server that converts scalars stores for `value`, when it converts (a number for a
   * string member reads as its decimal text); absent when it cannot be converted (`"x"` for an
   * integer, an object for a string), which a server must refuse.
   */
  converted?: string | number | boolean;
}

const follow = followRef;

function typeOf(schema: JsonSchema): JsonType | undefined {
  const t: unknown = schema.type;
  return typeof t === 'string' ? (t as JsonType) : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One value of every JSON type other than `type`. Numbers stand in for strings (`name: 5`, which a
 * server may read as "5"); `false` for booleans, so a server that coerces it to an id gets 0, which
 * names nothing; integers get no fractional numbers, which common parsers truncate.
 */
function otherTypes(type: JsonType | undefined, current: unknown): unknown[] {
  // A string holding an id becomes the same id as a number: coerced back, it still names the test's own object.
  const number = typeof current === 'string' && /^\d+$/.test(current) ? Number(current) : 5;
  const all: [JsonType[], unknown][] = [
    [['string'], 'x'],
    [['number', 'integer'], number],
    [['boolean'], false],
    [['object'], { wrong: 'type' }],
    [['array'], ['x']],
  ];
  return all.filter(([types]) => type === undefined || !types.includes(type)).map(([, v]) => v);
}

/**
 * What a scalar of the wrong JSON type converts to for a member of `type`, or undefined when it cannot
 * be converted. Reference notes: "A JSON number is accepted for a string member (`"motherId": 110`
 * reads as `"110"`), an integer-valued string for an integer member (`"folderId": "7"`), and
 * `"true"`/`"false"` for a boolean. A value that cannot be converted (`"folderId": "x"`, an object
 * for a string) is refused". The rules are the reference server's own (schemas/coercion.ts); objects
 * and arrays never convert to a scalar, nor scalars to an object or array.
 */
export function convertedValue(type: JsonType | undefined, value: unknown): string | number | boolean | undefined {
  if (type !== 'string' && type !== 'integer' && type !== 'number' && type !== 'boolean') return undefined;
  const read = readScalar(type, value);
  return 'value' in read ? read.value : undefined;
}

/** Values of a JSON type the schema does not allow (a `$ref` resolves against `base`); `current` is the valid value they replace. */
export function wrongTypeValues(schema: JsonSchema, current?: unknown, base = `${SCHEMA_BASE}requests/`): unknown[] {
  return otherTypes(typeOf(follow({ schema, base }).schema), current);
}

/** Arbitrary of a value of a JSON type the schema does not allow. */
export function wrongTypeValue(schema: JsonSchema, current?: unknown): fc.Arbitrary<unknown> {
  return fc.constantFrom(...wrongTypeValues(schema, current));
}

function setPointer(body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...body, [head]: value };
  const inner = body[head];
  if (Array.isArray(inner) || rest[0] === '0') return { ...body, [head]: [value] };
  return { ...body, [head]: setPointer(isRecord(inner) ? inner : {}, rest, value) };
}

/**
 * Every body a request schema refuses because one member has the wrong type: `base` (a valid body)
 * with one top-level member, or one member of a nested object, map value or array item, replaced by
 * a value of another JSON type; each says what that value converts to, if it does.
 */
export function invalidBodies(schemaRef: string, base: Record<string, unknown>): InvalidBody[] {
  const root = follow({ schema: schemasById.get(resolveSchemaId(schemaRef))!, base: resolveSchemaId(schemaRef) });
  const out: InvalidBody[] = [];
  const add = (path: string[], schema: Located, current: unknown) => {
    const type = typeOf(follow(schema).schema);
    for (const value of otherTypes(type, current)) {
      const converted = convertedValue(type, value);
      out.push({
        pointer: `/${path.join('/')}`,
        value,
        body: setPointer(base, path, value),
        ...(converted === undefined ? {} : { converted }),
      });
    }
  };
  for (const [name, raw] of Object.entries((root.schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const member = follow({ schema: raw, base: root.base });
    const current = base[name];
    add([name], member, current);
    const s = member.schema;
    if (isRecord(s.properties)) {
      for (const [inner, sub] of Object.entries(s.properties as Record<string, JsonSchema>)) {
        add([name, inner], { schema: sub, base: member.base }, isRecord(current) ? current[inner] : undefined);
      }
    }
    if (isRecord(s.additionalProperties)) add([name, 'x'], { schema: s.additionalProperties, base: member.base }, undefined);
    if (isRecord(s.items)) add([name, '0'], { schema: s.items, base: member.base }, undefined);
  }
  return out;
}

/** Arbitrary of a body with one member of the wrong type (see invalidBodies); shrinks towards the first member. */
export function invalidBody(schemaRef: string, base: Record<string, unknown>): fc.Arbitrary<InvalidBody> {
  return fc.constantFrom(...invalidBodies(schemaRef, base));
}

/** Texts no JSON parser accepts, whatever its leniency options. */
export const MALFORMED_JSON_TEXTS: readonly string[] = [
  '{"name": }',
  '{"name" "x"}',
  '{"name": "x",, "description": "y"}',
  '{"name": ["x"}',
  '{"name": "unterminated}',
  '{{}}',
  '<folder><name>x</name></folder>',
  'name=x&folderId=1',
];

/** Arbitrary of a text that is not JSON: a valid body of the schema cut short or broken, or a text in another format. */
export function malformedJson(schemaRef: string): fc.Arbitrary<string> {
  const valid = fromSchema<Record<string, unknown>>(schemaRef).map((body) => JSON.stringify(body));
  // A strict prefix of an object text never closes its first brace.
  const truncated = valid.chain((text) => fc.integer({ min: 1, max: text.length - 1 }).map((n) => text.slice(0, n)));
  const broken = fc.tuple(valid, fc.constantFrom('comma', 'bracket', 'prefix')).map(([text, how]) => {
    if (how === 'comma') return `{,${text.slice(1)}`;
    if (how === 'bracket') return `${text.slice(0, -1)}]`;
    return `)]}'\n${text}`;
  });
  return fc.oneof(truncated, broken, fc.constantFrom(...MALFORMED_JSON_TEXTS));
}

/**
 * Query values that do not parse as the parameter's type; none for strings. Integers also get a
 * fraction, an empty value (which a server may read as absent), a number beyond 64 bits, and a hex
 * literal that a lenient parser (JavaScript's Number) takes as 16. Booleans also get words that
 * only start or end with `false`, which a parser anchored at one end takes as false: on a parameter
 * whose default is true, that shows.
 */
export const BAD_QUERY_VALUES: Readonly<Record<Parameter['type'], readonly string[]>> = {
  integer: ['abc', '1.5', '', '99999999999999999999', '0x10'],
  number: ['abc', ''],
  boolean: ['maybe', 'falsey', 'nonfalse'],
  string: [],
};

/** Arbitrary of a query value of the wrong type for a parameter type that has any (not string). */
export function badQueryValue(type: Exclude<Parameter['type'], 'string'>): fc.Arbitrary<string> {
  return fc.constantFrom(...BAD_QUERY_VALUES[type]);
}
