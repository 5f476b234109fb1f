/**
 * The clean check: one function per schema, generated from it on first use, that says in one pass
 * whether a body is valid and has nothing the annotation walk would note (no member the contract does
 * not name, no unseen value of an open enumeration). Nearly every answer of a run is clean, and for it
 * this is the whole judgement: Ajv and the walk together cost far more than Ajv alone (the bench's
 * validation row; BENCHMARKS.md). A body it does not call clean is judged by Ajv and the walk as before, so every
 * finding, message and path still comes from them.
 *
 * It must never call clean a body that Ajv rejects or the walk notes (test/clean.test.ts holds
 * it to that on generated and broken bodies of every schema). So it knows only the keywords the
 * project's schemas may use (test/schemas.test.ts), and a schema with any other keyword is never clean:
 * sound, but slow, and the test then fails on that schema's generated bodies, so that the keyword is
 * taught here.
 */
import { resolveSchemaId } from './index.ts';
import { flatten, isPlainObject, resolveRef, rootLocation, type Located } from './locate.ts';

/** Says whether a body is clean: valid against its schema, and nothing in it for the walk to note. */
export type CleanCheck = (body: unknown) => boolean;

/** Keywords that constrain nothing. */
const ANNOTATIONS = new Set(['$schema', '$id', '$defs', 'title', 'description']);

/** The keywords the check knows: those test/schemas.test.ts allows the project's schemas, and the open enumerations. */
const KNOWN_KEYWORDS = new Set([
  ...ANNOTATIONS,
  '$ref',
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

/** The test of each JSON type, as Ajv writes it (an integer is a finite number without a fraction), parenthesised to be negated. */
const TYPE_TESTS: Readonly<Record<string, (v: string) => string>> = {
  object: (v) => `(typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v}))`,
  array: (v) => `Array.isArray(${v})`,
  string: (v) => `(typeof ${v} === "string")`,
  integer: (v) => `(typeof ${v} === "number" && ${v} % 1 === 0 && isFinite(${v}))`,
  number: (v) => `(typeof ${v} === "number" && isFinite(${v}))`,
  boolean: (v) => `(typeof ${v} === "boolean")`,
  null: (v) => `(${v} === null)`,
};

const NEVER = 'never';

/** A test that `v` is one of the values (JSON scalars), parenthesised to be negated; false for none. */
const isOneOf = (v: string, values: readonly unknown[]): string =>
  `(${values.map((x) => `${v} === ${JSON.stringify(x)}`).join(' || ') || 'false'})`;

/** Writes the functions of one root schema: one per schema location, named by the location's path. */
class Generator {
  private readonly names = new Map<string, string>();
  private readonly functions: string[] = [`function ${NEVER}() { return false; }`];
  /** Member-name sets of the generated code (the declared members an `additionalProperties` skips), passed in as K. */
  readonly sets: ReadonlySet<string>[] = [];

  /** The name of a location's function, written on first use (a recursive schema meets its own name). */
  nameOf(loc: Located): string {
    if (!isPlainObject(loc.schema)) return NEVER;
    // A member that only refers to a record shares the record's function (Page's creator, editor, publisher: User).
    if (typeof loc.schema.$ref === 'string' && Object.keys(loc.schema).every((k) => k === '$ref' || ANNOTATIONS.has(k))) {
      return this.nameOf(resolveRef(loc.schema.$ref, loc.base));
    }
    let name = this.names.get(loc.path);
    if (name === undefined) {
      name = `c${this.names.size}`;
      this.names.set(loc.path, name);
      this.functions.push(this.render(name, loc));
    }
    return name;
  }

  /** The source of every function written, returning the root's. */
  source(root: string): string {
    return `"use strict";\n${this.functions.join('\n')}\nreturn ${root};`;
  }

  /** A test of `v` against a location: inline for a scalar leaf, else a call of its function. */
  private test(loc: Located, v: string): string {
    const { schema } = loc;
    const leaf =
      isPlainObject(schema) && typeof schema.type === 'string' && schema.type !== 'object' && schema.type !== 'array'
        ? TYPE_TESTS[schema.type]
        : undefined;
    if (leaf && Object.keys(schema).every((k) => k === 'type' || ANNOTATIONS.has(k))) return leaf(v);
    return `${this.nameOf(loc)}(${v})`;
  }

  private render(name: string, loc: Located): string {
    const never = `function ${name}(d) { return false; }`;
    const parts = flatten(loc);
    // flatten drops boolean schemas (an allOf member `true` or `false`): such a location is never clean.
    if (parts.some((p) => Array.isArray(p.schema.allOf) && p.schema.allOf.some((s: unknown) => !isPlainObject(s)))) return never;
    if (parts.some((p) => Object.keys(p.schema).some((k) => !KNOWN_KEYWORDS.has(k)))) return never;
    const body: string[] = [];

    const types = new Set<string>();
    for (const { schema } of parts) {
      if (schema.type === undefined) continue;
      const test = typeof schema.type === 'string' ? TYPE_TESTS[schema.type] : undefined;
      if (!test) return never;
      types.add(schema.type);
      body.push(`if (!${test('d')}) return false;`);
    }
    // Once the type is tested, the keywords of objects and arrays need no guard of their own.
    const when = (type: string, lines: string[]): string[] =>
      types.has(type) ? lines : [`if (${TYPE_TESTS[type]!('d')}) {`, ...lines.map((l) => `  ${l}`), '}'];

    for (const { schema } of parts) {
      if (schema.enum === undefined) continue;
      if (!Array.isArray(schema.enum) || schema.enum.some((v: unknown) => typeof v === 'object' && v !== null)) return never;
      body.push(`if (!${isOneOf('d', schema.enum)}) return false;`);
    }

    for (const { schema } of parts) {
      if (schema.const === undefined) continue;
      if (typeof schema.const === 'object' && schema.const !== null) return never;
      body.push(`if (d !== ${JSON.stringify(schema.const)}) return false;`);
    }

    // As Ajv: a bound applies to numbers, and says nothing of other values.
    for (const { schema } of parts) {
      for (const [keyword, holds] of [
        ['minimum', '>='],
        ['maximum', '<='],
      ] as const) {
        const bound: unknown = schema[keyword];
        if (bound === undefined) continue;
        if (typeof bound !== 'number' || !Number.isFinite(bound)) return never;
        body.push(`if (typeof d === "number" && !(d ${holds} ${bound})) return false;`);
      }
    }

    // The walk notes a string outside any open enumeration's list as an unseen value.
    for (const { schema } of parts) {
      const known = schema['x-knownValues'];
      if (known === undefined) continue;
      if (!Array.isArray(known)) return never;
      const strings = known.filter((v): v is string => typeof v === 'string');
      body.push(`if (typeof d === "string" && !${isOneOf('d', strings)}) return false;`);
    }

    const items = parts.filter((p) => p.schema.items !== undefined);
    if (items.length) {
      const tests = items.map((p) => this.test({ schema: p.schema.items, base: p.base, path: `${p.path}/items` }, 'x'));
      body.push(...when('array', [`for (let i = 0; i < d.length; i++) { const x = d[i]; if (!(${tests.join(' && ')})) return false; }`]));
    }

    const object = this.objectTests(parts);
    if (object === undefined) return never;
    if (object.length) body.push(...when('object', object));

    return `function ${name}(d) {\n  ${body.join('\n  ')}\n  return true;\n}`;
  }

  /** The tests of an object's members, or undefined when the location can never be clean. */
  private objectTests(parts: readonly Located[]): string[] | undefined {
    const declared = new Map<string, Located[]>();
    const required = new Set<string>();
    let open = false;
    let mapValues = false;
    for (const p of parts) {
      const { properties, additionalProperties } = p.schema;
      if (properties !== undefined) {
        if (!isPlainObject(properties)) return undefined;
        for (const [key, sub] of Object.entries(properties)) {
          const list = declared.get(key) ?? [];
          list.push({ schema: sub as Located['schema'], base: p.base, path: `${p.path}/properties/${key}` });
          declared.set(key, list);
        }
      }
      if (p.schema.required !== undefined) {
        if (!Array.isArray(p.schema.required)) return undefined;
        for (const key of p.schema.required) required.add(String(key));
      }
      if (additionalProperties === true) open = true;
      else if (isPlainObject(additionalProperties)) mapValues = true;
      else if (additionalProperties !== undefined && additionalProperties !== false) return undefined;
    }
    // d.constructor would read the prototype, where Ajv's `data.x !== undefined` reads it too: never clean.
    if ([...declared.keys(), ...required].some((key) => key in Object.prototype)) return undefined;

    const lines: string[] = [];
    for (const key of required) lines.push(`if (d[${JSON.stringify(key)}] === undefined) return false;`);
    // As the walk: a record that names its members and takes no others has no member it does not name.
    const counted = declared.size > 0 && !open && !mapValues;
    if (counted) lines.push('let n = 0;');
    let i = 0;
    for (const [key, locs] of declared) {
      const v = `v${i++}`;
      const tests = locs.map((loc) => this.test(loc, v)).join(' && ');
      lines.push(
        `const ${v} = d[${JSON.stringify(key)}];`,
        `if (${v} !== undefined) { ${counted ? 'n++; ' : ''}if (!(${tests})) return false; }`,
      );
    }
    // JSON holds no undefined value, so n counts the members present that the record names; any other
    // key (own or inherited, as Ajv's for...in sees them) makes the count differ.
    if (counted) lines.push('let k = 0;', 'for (const key in d) k++;', 'if (k !== n) return false;');
    for (const p of parts) {
      const extra = p.schema.additionalProperties;
      if (extra === undefined || extra === true) continue;
      // Ajv's additionalProperties applies to the keys its own schema object does not list.
      const own = isPlainObject(p.schema.properties) ? Object.keys(p.schema.properties) : [];
      const skip = own.length ? `if (K[${this.sets.push(new Set(own)) - 1}].has(key)) continue; ` : '';
      const test = extra === false ? 'false' : this.test({ schema: extra, base: p.base, path: `${p.path}/additionalProperties` }, 'd[key]');
      lines.push(`for (const key in d) { ${skip}if (!(${test})) return false; }`);
    }
    return lines;
  }
}

/** The clean check of one schema location, and its source. */
export function compileClean(loc: Located): { check: CleanCheck; source: string } {
  const generator = new Generator();
  const source = generator.source(generator.nameOf(loc));
  return { check: new Function('K', source)(generator.sets) as CleanCheck, source };
}

const checks = new Map<string, CleanCheck>();

/** The clean check of a schema reference (see resolveSchemaId), generated once per thread. */
export function cleanCheck(schemaRef: string): CleanCheck {
  const id = resolveSchemaId(schemaRef);
  let check = checks.get(id);
  if (!check) {
    check = compileClean(rootLocation(id)).check;
    checks.set(id, check);
  }
  return check;
}
