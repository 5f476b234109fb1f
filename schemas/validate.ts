/**
 * The validator: judges a response body (and, when known, its status and headers) against an
 * operation's response schema. Ajv decides validity; a second walk over the same schema reports what
 * ajv cannot: members the contract does not name and values of open enumerations not seen before. A
 * body the clean check (schemas/clean-check.ts) passes has nothing for either to find, and skips both.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { getValidator, resolveSchemaId, type JsonSchema } from './index.ts';
import { cleanCheck, type CleanCheck } from './clean-check.ts';
import { flatten, isPlainObject, rootLocation, type Located } from './locate.ts';
import { getOperation } from './operations.ts';
import type { Severity } from './results.ts';

/** One problem found in a response, tied to the requirement it breaks. */
export interface SchemaFinding {
  requirement: string;
  severity: Severity;
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

/** Each schema reference validated so far, resolved once: every answer of a run passes here. */
const validators = new Map<string, { id: string; validate: ValidateFunction; clean: CleanCheck }>();

/** Validates a body against a schema reference; every ajv error becomes an error finding for `requirement`. */
export function validateBody(schemaRef: string, body: unknown, requirement: string, options: ValidateOptions = {}): SchemaFinding[] {
  let compiled = validators.get(schemaRef);
  if (!compiled) {
    const id = resolveSchemaId(schemaRef);
    compiled = { id, validate: getValidator(id), clean: cleanCheck(id) };
    validators.set(schemaRef, compiled);
  }
  const { id, validate, clean } = compiled;
  const findings: SchemaFinding[] = [];
  // A clean body is valid with nothing to note: Ajv and the walk would find nothing (schemas/clean-check.ts).
  if (clean(body)) return findings;
  if (!validate(body)) {
    for (const err of validate.errors ?? []) {
      findings.push({
        requirement: requirementOf(err, requirement),
        severity: 'error',
        instancePath: err.instancePath,
        schemaPath: `${locate(id, err.instancePath)}/${err.keyword}`,
        keyword: err.keyword,
        message:
          `${err.instancePath || '(body)'} ${err.message ?? 'is invalid'}` +
          `${err.params && 'allowedValues' in err.params ? `: ${JSON.stringify(err.params.allowedValues)}` : ''}`,
      });
    }
  }
  for (const note of walkAnnotations(id, body)) {
    // Every open enumeration is one the contract leaves open ("the complete enumeration: not shown"), so a
    // value outside it is allowed: a note, also under --strict. An unknown member is a deviation worth a warning.
    const severity: Severity = note.keyword === 'unseenValue' ? 'note' : options.strict ? 'error' : 'warning';
    findings.push({ requirement, severity, ...note });
  }
  return findings;
}

let validatedResponses = 0;

/** How many responses validateResponse judged in this thread so far (the benchmark's validated exchanges). */
export function validatedCount(): number {
  return validatedResponses;
}

/** An error finding about the whole response (its status, headers or response code). */
function at(requirement: string, keyword: string, message: string): SchemaFinding {
  return { requirement, severity: 'error', instancePath: '', schemaPath: '', keyword, message };
}

/** Judges one response of an operation: status (ENV-03), content type (ENV-04), envelope and code (ENV-01/02), schema (OP-id). */
export function validateResponse(operationId: string, response: ResponseUnderTest, options: ValidateOptions = {}): SchemaFinding[] {
  const op = getOperation(operationId);
  validatedResponses++;
  const requirement = `OP-${op.id}`;
  const findings: SchemaFinding[] = [];
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

/**
 * What the walk needs of one schema location, computed once: the walk runs on every answer the suite
 * receives, and following $ref and allOf (URL resolution included) for every value of every answer
 * cost many times what ajv's own validation does (BENCHMARKS.md).
 */
class Plan {
  /** Open enumerations of a string value: the values the contract shows, with their schema path. */
  readonly known: { values: readonly unknown[]; schemaPath: string }[] = [];
  /** The first part's `items`, for arrays. */
  items?: Located;
  /** Declared members, the first part naming a member winning. */
  readonly declared = new Map<string, Located>();
  /** The last part's `additionalProperties` schema, for maps. */
  mapValues?: Located;
  /** True when some part lists properties: other members are unknown, unless the record is open. */
  describesObject = false;
  /**
   * True when a part allows any further member (`additionalProperties: true`): the contract says the
   * record has fields it does not show (the syncable-objects Image record), so they are not unknown.
   */
  open = false;
  /** True when nothing can be noted at or below this value (a scalar without an open enumeration): the walk skips it. */
  readonly inert: boolean;
  readonly schemaPath: string;
  readonly title: string;
  private readonly children = new Map<string, Plan>();
  private itemPlan?: Plan;
  private mapPlan?: Plan;
  /** The last few key lists of objects seen here, each with what its members need (see `shape`). */
  private readonly shapes: Shape[] = [];

  constructor(loc: Located) {
    const parts = flatten(loc);
    this.schemaPath = parts[0]!.path;
    this.title = String(parts.find((p) => p.schema.title)?.schema.title ?? 'this object');
    for (const p of parts) {
      const known = p.schema['x-knownValues'];
      if (Array.isArray(known)) this.known.push({ values: known, schemaPath: `${p.path}/x-knownValues` });
      if (this.items === undefined && p.schema.items !== undefined)
        this.items = { schema: p.schema.items, base: p.base, path: `${p.path}/items` };
      if (isPlainObject(p.schema.properties)) {
        this.describesObject = true;
        for (const [name, sub] of Object.entries(p.schema.properties)) {
          if (!this.declared.has(name))
            this.declared.set(name, { schema: sub as JsonSchema, base: p.base, path: `${p.path}/properties/${name}` });
        }
      }
      if (p.schema.additionalProperties === true) this.open = true;
      if (isPlainObject(p.schema.additionalProperties)) {
        this.mapValues = { schema: p.schema.additionalProperties, base: p.base, path: `${p.path}/additionalProperties` };
      }
    }
    // A schema without members, items or map values says nothing of an object's members either.
    this.inert = this.known.length === 0 && !this.items && !this.describesObject && !this.mapValues;
  }

  /** The plan of a member's value: a declared member's, else the map values', else none (an unknown member). */
  member(key: string): Plan | undefined {
    const known = this.children.get(key);
    if (known) return known;
    const loc = this.declared.get(key);
    if (loc) {
      const plan = planOf(loc);
      this.children.set(key, plan);
      return plan;
    }
    return this.values();
  }

  /** The plan of a map's values: map keys are data (ids, languages), so one plan serves them all, never one per key. */
  values(): Plan | undefined {
    if (this.mapValues && !this.mapPlan) this.mapPlan = planOf(this.mapValues);
    return this.mapPlan;
  }

  /**
   * What an object with these keys needs: its members that are unknown, and those whose value the walk
   * must enter. Records of one kind parsed from one server share their key list, and JSON.parse gives
   * them the same key strings, so a list seen before is recognised by comparing strings by identity.
   */
  shape(keys: readonly string[]): Shape {
    for (const s of this.shapes) {
      if (s.keys.length !== keys.length) continue;
      let same = true;
      for (let i = 0; i < keys.length && same; i++) same = s.keys[i] === keys[i];
      if (same) return s;
    }
    const shape: Shape = { keys, unknown: [], enter: [] };
    for (const key of keys) {
      const sub = this.member(key);
      if (sub) {
        if (!sub.inert) shape.enter.push([key, sub]);
      } else if (!this.open) shape.unknown.push(key);
    }
    if (this.shapes.length >= 8) this.shapes.pop();
    this.shapes.unshift(shape);
    return shape;
  }

  /** The plan of an array's items, if the schema gives them. */
  item(): Plan | undefined {
    if (this.items && !this.itemPlan) this.itemPlan = planOf(this.items);
    return this.itemPlan;
  }
}

/** What the members of objects with one key list need of the walk. */
interface Shape {
  keys: readonly string[];
  /** Members the schema does not name (noted when the schema describes an object). */
  unknown: string[];
  /** Members whose values can hold something to note, with their plans. */
  enter: [string, Plan][];
}

const plans = new Map<string, Plan>();

/** The plan of a schema location, made on first use (recursive schemas meet their own plan again). */
function planOf(loc: Located): Plan {
  let plan = plans.get(loc.path);
  if (!plan) {
    plan = new Plan(loc);
    plans.set(loc.path, plan);
  }
  return plan;
}

/** The JSON pointer of the value the walk is at; built only when a note needs it. */
function pointerOf(keys: readonly (string | number)[]): string {
  let out = '';
  for (const key of keys) out += `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return out;
}

// The walk runs over every member of every answer: it skips inert values without a call, and reads an
// object's own keys with Object.keys (faster than for...in with hasOwnProperty on parsed JSON).
function walk(plan: Plan, data: unknown, keys: (string | number)[], notes: Note[]): void {
  if (typeof data === 'string') {
    if (plan.known.length === 0) return;
    for (const k of plan.known) {
      if (!k.values.includes(data)) {
        const instancePath = pointerOf(keys);
        notes.push({
          instancePath,
          schemaPath: k.schemaPath,
          keyword: 'unseenValue',
          message:
            `${instancePath} has the value ${JSON.stringify(data)}, ` +
            'not among the values the contract shows (allowed: the enumeration is open)',
        });
      }
    }
    return;
  }
  if (typeof data !== 'object' || data === null) return;
  if (Array.isArray(data)) {
    const item = plan.item();
    if (!item || item.inert) return;
    for (let i = 0; i < data.length; i++) {
      keys.push(i);
      walk(item, data[i], keys, notes);
      keys.pop();
    }
    return;
  }
  if (!plan.describesObject) {
    const values = plan.values();
    if (!values || values.inert) return;
    for (const key of Object.keys(data)) {
      keys.push(key);
      walk(values, (data as Record<string, unknown>)[key], keys, notes);
      keys.pop();
    }
    return;
  }
  const shape = plan.shape(Object.keys(data));
  for (const key of shape.unknown) {
    keys.push(key);
    const instancePath = pointerOf(keys);
    notes.push({
      instancePath,
      schemaPath: plan.schemaPath,
      keyword: 'unknownMember',
      message: `${instancePath} is not a member the contract names for ${plan.title}`,
    });
    keys.pop();
  }
  for (const [key, sub] of shape.enter) {
    keys.push(key);
    walk(sub, (data as Record<string, unknown>)[key], keys, notes);
    keys.pop();
  }
}

/**
 * Names the schema (file and pointer) that describes the value at an instance path: ajv's own
 * schemaPath is relative to whichever referenced file failed, which a reader cannot tell apart.
 */
function locate(id: string, instancePath: string): string {
  let loc: Located = rootLocation(id);
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

/** Lists unknown members (warnings, errors under --strict) and unseen open-enumeration values (notes) of a body. */
export function walkAnnotations(schemaRef: string, data: unknown): Note[] {
  let root = rootPlans.get(schemaRef);
  if (!root) {
    const id = resolveSchemaId(schemaRef);
    root = planOf(rootLocation(id));
    rootPlans.set(schemaRef, root);
  }
  const notes: Note[] = [];
  walk(root, data, [], notes);
  return notes;
}

/** The plan of each schema reference the walk was asked for (a reference is resolved once). */
const rootPlans = new Map<string, Plan>();
