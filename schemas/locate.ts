/**
 * Schema locations for the walks over the contract's schemas (the annotation walk and the clean check
 * of schemas/validate.ts and schemas/clean-check.ts): a schema node with the `$id` its relative refs resolve
 * against and its printable path, and the list of nodes that together describe one value.
 */
import { schemasById, type JsonSchema } from './index.ts';

/** A schema with the $id its relative refs resolve against, and its path for messages (file#pointer). */
export interface Located {
  schema: JsonSchema;
  base: string;
  path: string;
}

/** A schema's `$id` as printed: its file under schemas/ (responses/X.json). */
export function shortId(id: string): string {
  return id.replace(/^.*\/schemas\//, '');
}

/** The location of a schema of the contract, by its `$id`. */
export function rootLocation(id: string): Located {
  return { schema: schemasById.get(id)!, base: id, path: `${shortId(id)}#` };
}

/** The location a `$ref` names, resolved against the `$id` of the schema it appears in. */
export function resolveRef(ref: string, base: string): Located {
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
export function flatten(loc: Located, out: Located[] = []): Located[] {
  const { schema } = loc;
  if (typeof schema !== 'object' || schema === null) return out;
  out.push(loc);
  if (typeof schema.$ref === 'string') flatten(resolveRef(schema.$ref, loc.base), out);
  if (Array.isArray(schema.allOf)) {
    schema.allOf.forEach((sub: JsonSchema, i: number) => flatten({ schema: sub, base: loc.base, path: `${loc.path}/allOf/${i}` }, out));
  }
  return out;
}

/** True for a JSON object (not an array, not null). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
