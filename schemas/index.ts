/**
 * The project's schemas and their validators: every schema under schemas/{records,requests,responses}
 * (the contract) and schemas/{results,inputs} (the project's own files), looked up by its `$id` or short
 * name. Their validators come precompiled (schemas/validators.js, `npm run gen:validators`): every
 * suite worker and every server judges with them, and compiling them anew cost every thread CPU at its
 * start (BENCHMARKS.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, AnySchemaObject, CodeOptions, ValidateFunction } from 'ajv/dist/2020.js';
import precompiledValidators from './validators.js';

/** Base of every schema `$id`; a schema file `records/Folder.json` has `$id` SCHEMA_BASE + 'records/Folder.json'. */
export const SCHEMA_BASE = 'https://cms-conformance.dev/schemas/';

/** The folders holding the contract's schema files, in the order they are loaded. */
export const SCHEMA_DIRS = ['records', 'requests', 'responses'] as const;

/** The folders holding the schemas of the project's own files: results.json, target, expectation and fixture files. */
export const FILE_SCHEMA_DIRS = ['results', 'inputs'] as const;

/** A JSON Schema as this project writes it (object form, draft 2020-12). */
export type JsonSchema = AnySchemaObject;

const here = dirname(fileURLToPath(import.meta.url));

// Ajv itself is loaded only when an Ajv is made (createAjv): a run judges with the precompiled validators,
// and loading Ajv's modules would lengthen the start-up of every thread of it (runner, workers, server).
const require = createRequire(import.meta.url);

function loadSchemaFiles(dirs: readonly string[]): Map<string, JsonSchema> {
  const byId = new Map<string, JsonSchema>();
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(join(here, dir))
        .filter((n) => n.endsWith('.json'))
        .sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const schema = JSON.parse(readFileSync(join(here, dir, name), 'utf8')) as JsonSchema;
      const expected = `${SCHEMA_BASE}${dir}/${name}`;
      if (schema.$id !== expected) {
        throw new Error(`schemas/${dir}/${name}: $id must be ${expected}, found ${String(schema.$id)}`);
      }
      byId.set(expected, schema);
    }
  }
  return byId;
}

/** Every schema of the contract keyed by `$id` (what generators, types and the OpenAPI document are built from). */
export const schemasById: ReadonlyMap<string, JsonSchema> = loadSchemaFiles(SCHEMA_DIRS);

// Kept apart from the contract's map so that generators, types and OpenAPI never see them.
/** Every schema of the project's own files keyed by `$id`. */
export const fileSchemasById: ReadonlyMap<string, JsonSchema> = loadSchemaFiles(FILE_SCHEMA_DIRS);

/**
 * Creates an Ajv with the project's configuration (strict on our schemas, all errors kept, formats
 * added) over every schema of the contract and of the project's files; `code` is passed on to Ajv
 * (scripts/gen-validators.ts asks for the validators' source).
 */
export function createAjv(code?: CodeOptions): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats is CommonJS with a default export, which its module object also is.
  const formats = require('ajv-formats') as { default?: unknown };
  const addFormats = (formats.default ?? formats) as (ajv: Ajv2020) => Ajv2020;
  const instance = new Ajv({
    strict: true,
    allErrors: true,
    // Open enumerations ("complete enumeration: not shown") list the values seen; they annotate, never fail.
    // The project's file schemas say in words what a pattern or a choice means, for one-line errors (schemas/files.ts).
    keywords: [
      { keyword: 'x-knownValues', schemaType: 'array' },
      { keyword: 'x-mustBe', schemaType: 'string' },
    ],
    ...(code ? { code } : {}),
  });
  addFormats(instance);
  for (const schema of [...schemasById.values(), ...fileSchemasById.values()]) instance.addSchema(schema);
  return instance;
}

let instance: Ajv2020 | undefined;

/**
 * An Ajv over every schema, made on first use, for what the precompiled validators do not give: a schema
 * not (yet) in schemas/validators.js, and Ajv's error text. Making it checks every schema against the
 * meta-schema, which a run does not need to do again.
 */
export function getAjv(): Ajv2020 {
  instance ??= createAjv();
  return instance;
}

const shortNames = new Map<string, string>();
for (const id of schemasById.keys()) {
  const rel = id.slice(SCHEMA_BASE.length); // e.g. records/Folder.json
  shortNames.set(rel, id);
  shortNames.set(rel.replace(/\.json$/, ''), id);
  const base = rel
    .split('/')
    .pop()!
    .replace(/\.json$/, '');
  // A bare type name resolves only when it is unambiguous across the folders.
  shortNames.set(base, shortNames.has(base) ? '' : id);
}
// The project's own files are named with their folder only (`results/results`), never bare.
for (const id of fileSchemasById.keys()) {
  const rel = id.slice(SCHEMA_BASE.length);
  shortNames.set(rel, id);
  shortNames.set(rel.replace(/\.json$/, ''), id);
}

/** Resolves a schema reference given as full `$id`, `dir/Name(.json)` or a unique bare `Name`. */
export function resolveSchemaId(ref: string): string {
  if (schemasById.has(ref) || fileSchemasById.has(ref)) return ref;
  const id = shortNames.get(ref);
  if (!id) throw new Error(`unknown or ambiguous schema: ${ref}`);
  return id;
}

/** Returns the schema object for a reference (see resolveSchemaId). */
export function getSchema(ref: string): JsonSchema {
  const id = resolveSchemaId(ref);
  return (schemasById.get(id) ?? fileSchemasById.get(id))!;
}

/** Returns the validator for a schema reference: precompiled (schemas/validators.js), else compiled once. */
export function getValidator<T = unknown>(ref: string): ValidateFunction<T> {
  const id = resolveSchemaId(ref);
  const precompiled = precompiledValidators[id];
  if (precompiled) return precompiled as ValidateFunction<T>;
  const existing = getAjv().getSchema<T>(id);
  if (!existing) throw new Error(`schema not compiled: ${id}`);
  return existing;
}

/** A schema node with the `$id` its relative `$ref`s resolve against. */
export interface LocatedSchema {
  schema: JsonSchema;
  base: string;
}

/** Follows a chain of `$ref`s to the schema that says what the value is (server coercion and invalid-input generation share it). */
export function followRef(loc: LocatedSchema): LocatedSchema {
  let cur = loc;
  for (let hops = 0; typeof cur.schema.$ref === 'string' && hops < 10; hops++) {
    const url = new URL(cur.schema.$ref, cur.base).href;
    const target = schemasById.get(url);
    if (!target) throw new Error(`unresolvable $ref ${cur.schema.$ref} from ${cur.base}`);
    cur = { schema: target, base: url };
  }
  return cur;
}
