/**
 * The one Ajv instance of the project: every schema under schemas/{records,requests,responses}
 * is added once, compiled once on first use, and looked up by its `$id` or short name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type AnySchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** Base of every schema `$id`; a schema file `records/Folder.json` has `$id` SCHEMA_BASE + 'records/Folder.json'. */
export const SCHEMA_BASE = 'https://cms-conformance.dev/schemas/';

/** The folders holding schema files, in the order they are loaded. */
export const SCHEMA_DIRS = ['records', 'requests', 'responses'] as const;

/** A JSON Schema as this project writes it (object form, draft 2020-12). */
export type JsonSchema = AnySchemaObject;

const here = dirname(fileURLToPath(import.meta.url));

// ajv-formats is CommonJS with a default export; under NodeNext the namespace may wrap it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

function loadSchemaFiles(): Map<string, JsonSchema> {
  const byId = new Map<string, JsonSchema>();
  for (const dir of SCHEMA_DIRS) {
    let names: string[];
    try {
      names = readdirSync(join(here, dir)).filter((n) => n.endsWith('.json')).sort();
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

/** Every schema of the project keyed by `$id`. */
export const schemasById: ReadonlyMap<string, JsonSchema> = loadSchemaFiles();

/** Creates the project's Ajv configuration: strict on our schemas, all errors kept, formats added. */
function createAjv(): Ajv2020 {
  const instance = new Ajv2020({
    strict: true,
    allErrors: true,
    // Open enumerations ("complete enumeration: not shown") list the values seen; they annotate, never fail.
    keywords: [{ keyword: 'x-knownValues', schemaType: 'array' }],
  });
  addFormats(instance);
  for (const schema of schemasById.values()) instance.addSchema(schema);
  return instance;
}

/** The single Ajv instance; schemas are compiled lazily, once each, by getValidator. */
export const ajv: Ajv2020 = createAjv();

const shortNames = new Map<string, string>();
for (const id of schemasById.keys()) {
  const rel = id.slice(SCHEMA_BASE.length); // e.g. records/Folder.json
  shortNames.set(rel, id);
  shortNames.set(rel.replace(/\.json$/, ''), id);
  const base = rel.split('/').pop()!.replace(/\.json$/, '');
  // A bare type name resolves only when it is unambiguous across the folders.
  shortNames.set(base, shortNames.has(base) ? '' : id);
}

/** Resolves a schema reference given as full `$id`, `dir/Name(.json)` or a unique bare `Name`. */
export function resolveSchemaId(ref: string): string {
  if (schemasById.has(ref)) return ref;
  const id = shortNames.get(ref);
  if (!id) throw new Error(`unknown or ambiguous schema: ${ref}`);
  return id;
}

/** Returns the schema object for a reference (see resolveSchemaId). */
export function getSchema(ref: string): JsonSchema {
  return schemasById.get(resolveSchemaId(ref))!;
}

/** Returns the compiled validator for a schema reference; compiles at most once per schema. */
export function getValidator<T = unknown>(ref: string): ValidateFunction<T> {
  const id = resolveSchemaId(ref);
  const existing = ajv.getSchema<T>(id);
  if (!existing) throw new Error(`schema not compiled: ${id}`);
  return existing;
}
