/**
 * The project's own files (results.json, target, expectation and fixture files) checked against their
 * schemas (schemas/results/, schemas/inputs/) in the one Ajv instance. A person fixes such a file by
 * hand, so a problem is one line naming the member by JSON pointer: `/fixture/masterNodeId must be integer`.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { getSchema, getValidator, type JsonSchema } from './index.ts';

/** The schemas of the project's own files, by the reference getValidator takes. */
export const FILE_SCHEMAS = {
  results: 'results/results',
  statement: 'results/statement',
  target: 'inputs/target',
  expectations: 'inputs/expectations',
  fixture: 'inputs/fixture',
} as const;

/** One of the project's own file formats. */
export type FileKind = keyof typeof FILE_SCHEMAS;

const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const segment of pointer.split('/').slice(1).map(unescape)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows a same-file `$ref` (every file schema keeps its definitions inside itself). */
function deref(root: JsonSchema, node: Node): Node {
  let current = node;
  for (let hops = 0; typeof current.$ref === 'string' && current.$ref.startsWith('#') && hops < 16; hops++) {
    const next = at(root, current.$ref.slice(1));
    if (!isNode(next)) break;
    current = next;
  }
  return current;
}

/** The schema describing the member at an instance pointer: what says in words what the member must be. */
function schemaAt(root: JsonSchema, pointer: string): Node | undefined {
  let node: Node | undefined = deref(root, root);
  for (const segment of pointer.split('/').slice(1).map(unescape)) {
    if (!node) return undefined;
    const here: Node = node;
    const branches = [here, ...(Array.isArray(here.allOf) ? here.allOf.filter(isNode).map((b) => deref(root, b)) : [])];
    const named = branches.map((b) => (isNode(b.properties) ? b.properties[segment] : undefined)).find(isNode);
    const next = named ?? (isNode(here.additionalProperties) ? here.additionalProperties : isNode(here.items) ? here.items : undefined);
    node = next && deref(root, next);
  }
  return node;
}

/** The error a reader should see: a failing choice speaks for its branches, and `if` only points at its `then`. */
function firstError(errors: readonly ErrorObject[]): ErrorObject {
  const choices = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const relevant = errors.filter((e) => e.keyword !== 'if' && !choices.some((c) => e.schemaPath.startsWith(`${c.schemaPath}/`)));
  return relevant[0] ?? errors[0]!;
}

function got(value: unknown): string {
  if (value === undefined || (typeof value === 'object' && value !== null)) return '';
  const text = JSON.stringify(value);
  return `, got ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
}

function describe(err: ErrorObject, schema: JsonSchema, data: unknown): string {
  const where = err.instancePath || 'the file';
  if (err.keyword === 'required') return `${err.instancePath}/${String(err.params.missingProperty)} is missing`;
  if (err.keyword === 'additionalProperties') return `${err.instancePath}/${String(err.params.additionalProperty)} is not a known member`;
  const mustBe = schemaAt(schema, err.instancePath)?.['x-mustBe'];
  let what: string;
  if (typeof mustBe === 'string') what = `must be ${mustBe}`;
  else if (err.keyword === 'enum') what = `must be one of ${(err.params.allowedValues as unknown[]).map(String).join(', ')}`;
  else if (err.keyword === 'const') what = `must be ${JSON.stringify(err.params.allowedValue)}`;
  else what = err.message ?? `fails ${err.keyword}`;
  return `${where} ${what}${got(at(data, err.instancePath))}`;
}

/** The first problem of `data` as a file of the given kind (`/member must ...`), or undefined when it is valid. */
export function fileProblem(kind: FileKind, data: unknown): string | undefined {
  const validate = getValidator(FILE_SCHEMAS[kind]);
  if (validate(data)) return undefined;
  return describe(firstError(validate.errors ?? []), getSchema(FILE_SCHEMAS[kind]), data);
}
