/**
 * JSON Schema (draft 2020-12, exactly the keywords the project's schemas use) -> fast-check arbitrary.
 * Every value is built from fast-check combinators (no filter), so failures shrink.
 */
import * as fc from 'fast-check';
import { SCHEMA_BASE, resolveSchemaId, schemasById, type JsonSchema } from '../schemas/index.ts';

/** Options of fromSchema; the defaults keep generated values small. */
export interface FromSchemaOptions {
  /** How often a recursive type may nest inside itself (Group.children, Folder.subfolders, ...); default 2. */
  maxDepth?: number;
  /** Upper bound of every generated array and map; default 3. */
  maxArrayLength?: number;
  /** Add a few unknown members to open objects (no `additionalProperties`); default false. */
  extraMembers?: boolean;
  /**
   * Arbitraries replacing generated members, which must produce values valid for that member. A key
   * starting with '/' is a JSON Pointer into the value ("/folder/name"; a `*` segment matches any array
   * index or map key); any other key is a property name, matched at every depth ("name"). Compiled
   * arbitraries are cached per overrides object: reuse the object rather than a fresh literal per call.
   */
  overrides?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
}

type SchemaObject = { readonly [keyword: string]: unknown };
type Schema = boolean | SchemaObject;

const TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null']);
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', '$defs']);
const KEYWORDS = new Set([
  ...ANNOTATIONS,
  '$ref',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'allOf',
  'x-knownValues',
]);
const ABSENT = Symbol('absent');
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

const isObject = (v: unknown): v is SchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
// -0 is not a JSON value (it serialises as 0); `+ 0` turns it into 0 and leaves every other number alone.
const noNegativeZero = (x: number): number => x + 0;

/**
 * Copies a schema document with every `$ref` made absolute, so subschemas can be merged across files
 * without carrying their base; rejects any keyword the generator does not implement.
 */
function absolutize(node: unknown, base: string, where: string): Schema {
  if (typeof node === 'boolean') return node;
  if (!isObject(node)) throw new Error(`fromSchema: not a schema at ${where}`);
  const out: Record<string, unknown> = {};
  const sub = (v: unknown, path: string): Schema => absolutize(v, base, `${where}/${path}`);
  const subMap = (v: unknown, kw: string): Record<string, Schema> => {
    if (!isObject(v)) throw new Error(`fromSchema: "${kw}" must be an object at ${where}`);
    return Object.fromEntries(Object.entries(v).map(([k, s]) => [k, sub(s, `${kw}/${escapePointer(k)}`)]));
  };
  for (const [kw, v] of Object.entries(node)) {
    if (!KEYWORDS.has(kw)) throw new Error(`fromSchema: unsupported keyword "${kw}" in schema ${where}`);
    if (kw === '$id' && where !== `${base}#`) throw new Error(`fromSchema: nested $id is not supported at ${where}`);
    switch (kw) {
      case '$ref':
        out[kw] = new URL(String(v), base).href;
        break;
      case 'properties':
      case '$defs':
        out[kw] = subMap(v, kw);
        break;
      case 'items':
      case 'additionalProperties':
        out[kw] = sub(v, kw);
        break;
      case 'allOf':
        if (!Array.isArray(v)) throw new Error(`fromSchema: "allOf" must be an array at ${where}`);
        out[kw] = v.map((s, i) => sub(s, `allOf/${i}`));
        break;
      case 'type':
        for (const t of Array.isArray(v) ? v : [v]) {
          if (!TYPES.has(String(t))) throw new Error(`fromSchema: unsupported type "${String(t)}" in schema ${where}`);
        }
        out[kw] = v;
        break;
      default:
        out[kw] = v;
    }
  }
  return out;
}

// Project documents, absolutized once per process (they never change at run time).
const projectDocs = new Map<string, Schema>();

/** Intersects two `type` keywords (undefined = any type); integer is a subset of number. */
function intersectTypes(a: unknown, b: unknown, where: string): string[] | undefined {
  if (a === undefined && b === undefined) return undefined;
  const as = ([] as string[]).concat((a ?? b) as string);
  const bs = ([] as string[]).concat((b ?? a) as string);
  const admits = (list: string[], t: string): boolean => list.includes(t) || (t === 'integer' && list.includes('number'));
  const types = [...new Set([...as.filter((t) => admits(bs, t)), ...bs.filter((t) => admits(as, t))])];
  if (types.length === 0) throw new Error(`fromSchema: allOf with disjoint types in ${where}`);
  return types;
}

/** Combines two member schemas (undefined = unconstrained) as allOf, keeping false and dropping true. */
function both(a: Schema | undefined, b: Schema | undefined): Schema | undefined {
  if (a === undefined || a === true) return b;
  if (b === undefined || b === true) return a;
  if (a === false || b === false) return false;
  return { allOf: [a, b] };
}

/** Merges two schemas without $ref/allOf into one that accepts exactly what both accept. */
function merge(a: Schema, b: Schema, where: string): Schema {
  if (a === true) return b;
  if (b === true) return a;
  if (a === false || b === false) return false;
  const out: Record<string, unknown> = { ...a, ...b };
  const type = intersectTypes(a.type, b.type, where);
  if (type) out.type = type;
  if (a.enum !== undefined && b.enum !== undefined) {
    out.enum = (a.enum as unknown[]).filter((x) => (b.enum as unknown[]).some((y) => sameJson(x, y)));
  }
  if (a.minimum !== undefined && b.minimum !== undefined) out.minimum = Math.max(a.minimum as number, b.minimum as number);
  if (a.maximum !== undefined && b.maximum !== undefined) out.maximum = Math.min(a.maximum as number, b.maximum as number);
  if (a.required !== undefined || b.required !== undefined) {
    out.required = [...new Set([...((a.required ?? []) as string[]), ...((b.required ?? []) as string[])])];
  }
  if (a['x-knownValues'] !== undefined && b['x-knownValues'] !== undefined) {
    out['x-knownValues'] = [...new Set([...(a['x-knownValues'] as string[]), ...(b['x-knownValues'] as string[])])];
  }
  const items = both(a.items as Schema | undefined, b.items as Schema | undefined);
  if (items !== undefined) out.items = items;
  // A member declared on one side only must also satisfy the other side's additionalProperties.
  const pa = (a.properties ?? {}) as Record<string, Schema>;
  const pb = (b.properties ?? {}) as Record<string, Schema>;
  const apA = a.additionalProperties as Schema | undefined;
  const apB = b.additionalProperties as Schema | undefined;
  const names = [...new Set([...Object.keys(pa), ...Object.keys(pb)])];
  if (names.length > 0) {
    out.properties = Object.fromEntries(
      names.map((n) => [n, both(Object.hasOwn(pa, n) ? pa[n] : apA, Object.hasOwn(pb, n) ? pb[n] : apB) ?? true]),
    );
  }
  const ap = both(apA, apB);
  if (ap === undefined) delete out.additionalProperties;
  else out.additionalProperties = ap;
  return out;
}

interface Context {
  /** Refs being expanded, outermost first: the recursion stack. */
  readonly stack: readonly string[];
  /** Instance path of the value being generated (`*` for array items and map values). */
  readonly path: readonly string[];
  readonly where: string;
}

/** Compiles one root schema; holds the per-compilation memo of ref arbitraries. */
class Compiler {
  private readonly maxDepth: number;
  private readonly maxArrayLength: number;
  private readonly extraMembers: boolean;
  private readonly byName = new Map<string, fc.Arbitrary<unknown>>();
  private readonly byPointer: { pattern: string[]; arb: fc.Arbitrary<unknown> }[] = [];
  private readonly memo = new Map<string, fc.Arbitrary<unknown> | null>();
  private readonly refsCache = new Map<string, string[]>();
  private readonly reachCache = new Map<string, Set<string>>();
  private readonly depth = fc.createDepthIdentifier();

  constructor(
    options: FromSchemaOptions,
    private readonly localDocs: ReadonlyMap<string, Schema>,
  ) {
    this.maxDepth = options.maxDepth ?? 2;
    this.maxArrayLength = options.maxArrayLength ?? 3;
    this.extraMembers = options.extraMembers ?? false;
    for (const [key, arb] of Object.entries(options.overrides ?? {})) {
      if (key.startsWith('/')) this.byPointer.push({ pattern: key.slice(1).split('/').map(unescapePointer), arb });
      else this.byName.set(key, arb);
    }
  }

  /** Arbitrary for the document or subschema at an absolute URL. */
  root(url: string): fc.Arbitrary<unknown> {
    const arb = this.compileRef(url, { stack: [], path: [], where: url });
    if (!arb) {
      throw new Error(`fromSchema: ${url} admits no value (an impossible required member or recursion beyond maxDepth)`);
    }
    return arb;
  }

  private document(url: string): Schema {
    const local = this.localDocs.get(url);
    if (local !== undefined) return local;
    let doc = projectDocs.get(url);
    if (doc === undefined) {
      const raw = schemasById.get(url);
      if (raw === undefined) throw new Error(`fromSchema: $ref to unknown schema ${url}`);
      doc = absolutize(raw, url, `${url}#`);
      projectDocs.set(url, doc);
    }
    return doc;
  }

  private resolve(url: string): Schema {
    const hash = url.indexOf('#');
    const docUrl = hash < 0 ? url : url.slice(0, hash);
    const fragment = hash < 0 ? '' : url.slice(hash + 1);
    let node: unknown = this.document(docUrl);
    if (fragment === '') return node as Schema;
    if (!fragment.startsWith('/')) throw new Error(`fromSchema: only JSON Pointer fragments are supported: ${url}`);
    for (const segment of fragment
      .slice(1)
      .split('/')
      .map((p) => unescapePointer(decodeURIComponent(p)))) {
      node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[segment] : undefined;
      if (node === undefined) throw new Error(`fromSchema: $ref does not resolve: ${url}`);
    }
    return node as Schema;
  }

  /** The refs written inside a ref target (not following them). */
  private directRefs(url: string): string[] {
    const cached = this.refsCache.get(url);
    if (cached) return cached;
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (isObject(node)) {
        if (typeof node.$ref === 'string') refs.push(node.$ref);
        for (const [k, v] of Object.entries(node)) if (k !== 'enum' && k !== 'const') walk(v);
      }
    };
    walk(this.resolve(url));
    this.refsCache.set(url, refs);
    return refs;
  }

  /** Every ref reachable from a ref target: the only stack entries its arbitrary can depend on. */
  private reach(url: string): Set<string> {
    const cached = this.reachCache.get(url);
    if (cached) return cached;
    const found = new Set<string>();
    const queue = [...this.directRefs(url)];
    while (queue.length > 0) {
      const ref = queue.pop()!;
      if (!found.has(ref)) {
        found.add(ref);
        queue.push(...this.directRefs(ref));
      }
    }
    this.reachCache.set(url, found);
    return found;
  }

  /** Flattens $ref and allOf into one schema; refs met here are inlined (recursion runs through members). */
  private effective(schema: Schema, where: string, hops = 0): Schema {
    if (typeof schema === 'boolean') return schema;
    if (hops > 64) throw new Error(`fromSchema: $ref/allOf cycle without a member in between at ${where}`);
    const { $ref, allOf, const: constant, ...rest } = schema;
    let out: Schema = { ...rest };
    if (constant !== undefined) out = merge(out, { enum: [constant] }, where);
    for (const annotation of ANNOTATIONS) delete (out as Record<string, unknown>)[annotation];
    const parts: Schema[] = typeof $ref === 'string' ? [this.resolve($ref)] : [];
    if (Array.isArray(allOf)) parts.push(...(allOf as Schema[]));
    for (const part of parts) out = merge(out, this.effective(part, where, hops + 1), where);
    return out;
  }

  private compile(schema: Schema, ctx: Context): fc.Arbitrary<unknown> | null {
    if (isObject(schema) && typeof schema.$ref === 'string') {
      const ref = schema.$ref;
      if (Object.keys(schema).every((k) => k === '$ref' || ANNOTATIONS.has(k))) return this.compileRef(ref, ctx);
      if (ctx.stack.filter((u) => u === ref).length > this.maxDepth) return null;
      return this.compileEffective(this.effective(schema, ctx.where), { ...ctx, stack: [...ctx.stack, ref] });
    }
    return this.compileEffective(this.effective(schema, ctx.where), ctx);
  }

  private compileRef(url: string, ctx: Context): fc.Arbitrary<unknown> | null {
    if (ctx.stack.filter((u) => u === url).length > this.maxDepth) return null;
    // Depth-aware memo: the arbitrary depends only on how deep each ref it can reach is already nested.
    const reach = this.reach(url);
    const depths = ctx.stack
      .filter((u) => reach.has(u))
      .sort()
      .join(' ');
    const key = `${url}|${depths}|${this.byPointer.length > 0 ? ctx.path.join('/') : ''}`;
    if (this.memo.has(key)) return this.memo.get(key)!;
    const arb = this.compile(this.resolve(url), { stack: [...ctx.stack, url], path: ctx.path, where: url });
    this.memo.set(key, arb);
    return arb;
  }

  private compileEffective(schema: Schema, ctx: Context): fc.Arbitrary<unknown> | null {
    if (schema === false) return null;
    if (schema === true || Object.keys(schema).length === 0) return anyJson;
    const types = schema.type === undefined ? undefined : ([] as string[]).concat(schema.type as string);
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.filter((v) => this.accepts(schema, types, v));
      if (values.length === 0) throw new Error(`fromSchema: enum admits no value in ${ctx.where}`);
      return fc.constantFrom(...values);
    }
    const arbs = (types ?? this.inferTypes(schema))
      .map((t) => this.compileType(t, schema, ctx))
      .filter((a): a is fc.Arbitrary<unknown> => a !== null);
    if (arbs.length === 0) return null;
    return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
  }

  /** The types a schema without `type` can produce, from the keywords it carries. */
  private inferTypes(schema: SchemaObject): string[] {
    if (['properties', 'required', 'additionalProperties'].some((k) => k in schema)) return ['object'];
    if ('items' in schema) return ['array'];
    if ('minimum' in schema || 'maximum' in schema) return ['number'];
    if ('x-knownValues' in schema) return ['string'];
    return [...TYPES];
  }

  /** Static check of an enum value against the scalar keywords beside it. */
  private accepts(schema: SchemaObject, types: string[] | undefined, v: unknown): boolean {
    const typeOf = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;
    const ok =
      types === undefined ||
      types.includes(typeOf) ||
      (typeof v === 'number' && (types.includes('number') || (types.includes('integer') && Number.isInteger(v))));
    if (!ok || typeof v !== 'number') return ok;
    const { minimum = -Infinity, maximum = Infinity } = schema as { minimum?: number; maximum?: number };
    return v >= minimum && v <= maximum;
  }

  private compileType(type: string, schema: SchemaObject, ctx: Context): fc.Arbitrary<unknown> | null {
    const min = schema.minimum as number | undefined;
    const max = schema.maximum as number | undefined;
    const lo = Math.ceil(min ?? Number.MIN_SAFE_INTEGER);
    const hi = Math.floor(max ?? Number.MAX_SAFE_INTEGER);
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integerBetween(lo, hi, ctx.where);
      case 'number': {
        const whole = integerBetween(lo, hi, null);
        const real = fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map(noNegativeZero);
        // Most numbers the service sends are whole (sizes, counters); fractions still occur.
        return whole ? fc.oneof({ arbitrary: whole, weight: 3 }, { arbitrary: real, weight: 1 }) : real;
      }
      case 'string': {
        const known = ((schema['x-knownValues'] ?? []) as unknown[]).filter((v): v is string => typeof v === 'string');
        // An open enumeration: mostly a value seen, sometimes one nobody listed.
        return known.length > 0
          ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 4 }, { arbitrary: anyString, weight: 1 })
          : anyString;
      }
      case 'array': {
        const items = this.compile((schema.items ?? true) as Schema, this.child(ctx, '*', 'items'));
        return items ? fc.array(items, { maxLength: this.maxArrayLength, depthIdentifier: this.depth }) : fc.constant([]);
      }
      default:
        return this.compileObject(schema, ctx);
    }
  }

  private child(ctx: Context, member: string, keyword: string): Context {
    return { stack: ctx.stack, path: [...ctx.path, member], where: `${ctx.where}/${keyword}` };
  }

  private override(ctx: Context, name: string): fc.Arbitrary<unknown> | undefined {
    const path = [...ctx.path, name];
    const byPointer = this.byPointer.find(
      ({ pattern }) => pattern.length === path.length && pattern.every((p, i) => p === '*' || p === path[i]),
    );
    return byPointer?.arb ?? this.byName.get(name);
  }

  private compileObject(schema: SchemaObject, ctx: Context): fc.Arbitrary<unknown> | null {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema.required ?? []) as string[]);
    const additional = schema.additionalProperties as Schema | undefined;
    const members: [string, Schema][] = Object.entries(properties);
    for (const name of required) {
      if (!Object.hasOwn(properties, name)) members.push([name, additional ?? true]);
    }
    const names: string[] = [];
    const arbs: fc.Arbitrary<unknown>[] = [];
    for (const [name, member] of members) {
      const arb = this.override(ctx, name) ?? this.compile(member, this.child(ctx, name, `properties/${escapePointer(name)}`));
      if (arb === null) {
        if (required.has(name)) return null;
        continue;
      }
      names.push(name);
      // Half the optional members at the top, fewer the deeper the object: values stay small.
      const optional = { nil: ABSENT, freq: 2, depthIdentifier: this.depth, depthSize: 'xsmall' } as const;
      arbs.push(required.has(name) ? arb : fc.option(arb, optional));
    }
    const declared = new Set(members.map(([name]) => name));
    const extra = this.extraEntries(additional, ctx);
    return fc.tuple(fc.tuple(...arbs), extra).map(([values, extras]) => {
      // Built without a prototype, then given Object's: such an object keeps its members in a dictionary.
      // Built as `{}`, each set of present members is a shape of its own, and V8 made a new hidden class
      // for nearly every member of every value, a large share of the generated-values sweep's time. And
      // without a prototype, a member named "__proto__" is a member like any other.
      const out: Record<string, unknown> = Object.create(null);
      for (let i = 0; i < values.length; i++) {
        if (values[i] !== ABSENT) out[names[i]!] = values[i];
      }
      // A generated key equal to a declared member would be judged by that member's schema: drop it.
      for (const [key, value] of extras) if (!declared.has(key)) out[key] = value;
      return Object.setPrototypeOf(out, Object.prototype);
    });
  }

  /** Members beyond the declared ones: map entries for an additionalProperties schema, unknown members on request. */
  private extraEntries(additional: Schema | undefined, ctx: Context): fc.Arbitrary<[string, unknown][]> {
    const none = fc.constant<[string, unknown][]>([]);
    if (isObject(additional)) {
      const value = this.compile(additional, this.child(ctx, '*', 'additionalProperties'));
      return value ? fc.array(fc.tuple(anyString, value), { maxLength: this.maxArrayLength, depthIdentifier: this.depth }) : none;
    }
    if (additional === false || !this.extraMembers) return none;
    return fc.array(fc.tuple(unknownMemberName, anyJson), { minLength: 1, maxLength: 3 });
  }
}

/** Integers in [min, max]; whole safe range when unbounded, 32-bit values preferred. */
function integerBetween(min: number, max: number, where: string | null): fc.Arbitrary<number> | null {
  if (min > max) {
    if (where === null) return null;
    throw new Error(`fromSchema: minimum above maximum in ${where}`);
  }
  if (min >= INT32_MIN && max <= INT32_MAX) return fc.integer({ min, max });
  const wide = fc.bigInt(BigInt(min), BigInt(max)).map(Number);
  const lo = Math.max(min, INT32_MIN);
  const hi = Math.min(max, INT32_MAX);
  if (lo > hi) return wide;
  return fc.oneof({ arbitrary: fc.integer({ min: lo, max: hi }), weight: 4 }, { arbitrary: wide, weight: 1 });
}

const anyString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }), weight: 1 },
);
// A JSON round trip keeps exactly what survives the wire (no -0).
const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)));
const unknownMemberName = fc.oneof(fc.constantFrom('@class', 'inBackground', 'x-vendor'), fc.string({ minLength: 1, maxLength: 10 }));

// Compiled arbitraries: per overrides object (by identity), then per schema and options.
const NO_OVERRIDES = {};
const compiled = new WeakMap<object, Map<string, fc.Arbitrary<unknown>>>();
const inlineNumbers = new WeakMap<object, number>();
let inlineCount = 0;

/**
 * Arbitrary of values valid for a schema: a project schema reference (see resolveSchemaId) or a schema
 * object; an object without `$id` is addressed as SCHEMA_BASE + "inline/N.json", so "../records/User.json"
 * reaches the project's records from it.
 */
export function fromSchema<T>(ref: string, options?: FromSchemaOptions): fc.Arbitrary<T>;
export function fromSchema(schema: string | JsonSchema, options?: FromSchemaOptions): fc.Arbitrary<unknown>;
export function fromSchema(schema: string | JsonSchema, options: FromSchemaOptions = {}): fc.Arbitrary<unknown> {
  const byKey = compiled.get(options.overrides ?? NO_OVERRIDES) ?? new Map<string, fc.Arbitrary<unknown>>();
  compiled.set(options.overrides ?? NO_OVERRIDES, byKey);
  let inline = typeof schema === 'string' ? undefined : inlineNumbers.get(schema);
  if (typeof schema !== 'string' && inline === undefined) inlineNumbers.set(schema, (inline = ++inlineCount));
  const source = typeof schema === 'string' ? resolveSchemaId(schema) : `inline ${inline}`;
  const key = `${source}|${options.maxDepth ?? 2}|${options.maxArrayLength ?? 3}|${options.extraMembers ?? false}`;
  let arb = byKey.get(key);
  if (arb) return arb;
  if (typeof schema === 'string') {
    arb = new Compiler(options, new Map()).root(source);
  } else {
    const url = new URL(typeof schema.$id === 'string' ? schema.$id : `inline/${inline}.json`, SCHEMA_BASE).href;
    arb = new Compiler(options, new Map([[url, absolutize(schema, url, `${url}#`)]])).root(url);
  }
  byKey.set(key, arb);
  return arb;
}
