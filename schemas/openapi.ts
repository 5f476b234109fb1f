/**
 * Builds an OpenAPI 3.1 document from the operation catalogue and the JSON Schemas, for tools that
 * speak OpenAPI (client generators, mock servers, validating proxies). The catalogue stays the source
 * of truth. It documents every answer a conforming server may give, refusals included, so that a
 * validating proxy fed the document flags only real contract breaks.
 */
import { SUITE_VERSION } from './version.ts';
import { SCHEMA_BASE, schemasById, type JsonSchema } from './index.ts';
import { operations, type Operation, type Parameter } from './operations.ts';
import { requirements, type Requirement } from './requirements.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** How the export documents the refusals a server answers with a 2xx status (the deployed implementation's habit). */
export interface OpenApiOptions {
  /**
   * true: inside the 2xx responses (the success status answers `anyOf` success body or Refusal, and a POST's
   * 200 a Refusal), for validating proxies (Prism) in front of such a server. false (the default): noted in
   * each success response's description and its `x-refusal-in-2xx` extension, so that a client generated
   * from the export types a success as the success body alone and reads it without a check.
   */
  refusalsIn2xx?: boolean;
}

/** The generated component for a refusal answered with a 2xx status; no schema file has this name. */
export const REFUSAL_COMPONENT = 'Refusal';

/**
 * The refusal in a 2xx answer. INTERPRETING.md: "a refusal is HTTP status >= 400 or
 * responseInfo.responseCode other than OK"; reference notes: "Most refusals come back as HTTP 200
 * with a non-OK responseCode in the body". Members beyond the envelope stay allowed (a failed upload
 * answers `success: false`).
 */
function refusalSchema(envelopeRef: string): JsonObject {
  return {
    title: REFUSAL_COMPONENT,
    description:
      'A refusal answered with a 2xx status: the envelope with responseInfo.responseCode present and other than OK ' +
      '(not generated from a schema file; see INTERPRETING.md, "a refusal").',
    type: 'object',
    allOf: [{ $ref: envelopeRef }],
    required: ['responseInfo'],
    properties: {
      responseInfo: { type: 'object', required: ['responseCode'], properties: { responseCode: { type: 'string', not: { const: 'OK' } } } },
    },
  };
}

// The contract does not show the multipart part names (4.1, 4.3); these are the deployed
// implementation's (reference notes, "Files and uploads"), which the reference server follows.
const DATA_PARTS = ['fileBinaryData', 'Filedata', 'files[]', 'qqfile'];
const TEXT_PARTS: Record<string, JsonObject> = {
  folderId: { type: 'string', description: 'the folder to save the file in (local or global id)' },
  nodeId: { type: 'integer', description: 'the node (channel) to save in; 0 or absent: none' },
  fileName: { type: 'string', description: "the file's name; else the data part's filename, else new_file" },
  description: { type: 'string' },
  overwrite: { type: 'boolean', default: false, description: 'replace a file of the same name in the folder' },
  failOnDuplicate: { type: 'boolean', default: false, description: 'refuse a name already used in the folder' },
  databodypart: { type: 'string', description: 'a custom name for the data part' },
};
const TEXT_PARTS_BY_FORM: Record<string, string[]> = {
  'file.create.multipart': Object.keys(TEXT_PARTS),
  'file.createSimple.multipart': Object.keys(TEXT_PARTS),
  'file.save.multipart': ['nodeId', 'description', 'databodypart'],
};

/** The multipart/form-data media type object of a form: its parts as properties, their media types as encodings. */
function multipartMedia(op: Operation): JsonObject {
  const texts = TEXT_PARTS_BY_FORM[op.id];
  if (!texts) throw new Error(`${op.id}: a multipart form without documented parts`);
  const properties: JsonObject = {};
  const encoding: JsonObject = {};
  for (const name of DATA_PARTS) {
    properties[name] = { description: "the file data (any bytes); the part's media type becomes the file's fileType" };
    encoding[name] = { contentType: '*/*' };
  }
  for (const name of texts) {
    properties[name] = TEXT_PARTS[name]!;
    encoding[name] = { contentType: 'text/plain' };
  }
  return {
    schema: {
      type: 'object',
      description:
        `The data part is named ${DATA_PARTS.join(', ')} (compared ignoring case) or as databodypart says; ` +
        'part names from the reference notes, the contract does not show them (4.3).',
      properties,
    },
    encoding,
  };
}

// Operation names that prose also uses as ordinary words ("a localized copy", "loadable").
const PLAIN_WORDS = new Set(['load', 'create', 'copy', 'move', 'save', 'count', 'delete']);

/** The name prose uses for an operation: its path below the area without parameters (`getFiles`, `usage/file`), or ''. */
function proseName(op: Operation): string {
  return op.path
    .split('/')
    .slice(2)
    .filter((s) => !s.startsWith('{'))
    .join('/');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` holds `word` as a whole word; `inPaths` also counts it as a path segment (`findFiles/findPages`). */
function holdsWord(text: string, word: string, inPaths: boolean): boolean {
  const bound = inPaths ? '[^\\w{]' : '[^\\w/{]';
  return new RegExp(`(^|${bound})${escapeRegExp(word)}($|${bound})`).test(text);
}

/**
 * The requirements naming one catalogue operation: its `OP-` id, the requirements whose `operation`
 * is it, and those whose statement names it by method and path (`POST /file/create`) or by its
 * name (`getFiles`, `usage/file`, `localize`). Names that are ordinary words (`load`, `copy`) count
 * only in requirements of the operation's own contract section, since prose elsewhere uses them
 * as words; names shared by folder and file operations count for the area the statement names.
 */
function requirementsNaming(op: Operation, all: readonly Requirement[]): string[] {
  const area = op.path.split('/')[1]!;
  const name = proseName(op);
  const shared = name !== '' && operations.some((o) => o.path.split('/')[1] !== area && proseName(o) === name);
  return all
    .filter((r) => {
      if (r.id === `OP-${op.id}` || r.operation === op.id) return true;
      const text = r.statement;
      if (new RegExp(`${op.method} ${escapeRegExp(op.path)}($|[^\\w/])`).test(text)) return true;
      if (name === '' || !holdsWord(text, name, true)) return false;
      if (PLAIN_WORDS.has(name)) return r.section === op.section;
      if (!shared) return true;
      const names = { folder: holdsWord(text, 'folder', false), file: holdsWord(text, 'file', false) };
      return names[area as 'folder' | 'file'] || (!names.folder && !names.file);
    })
    .map((r) => r.id);
}

/** Component names by schema `$id`: the bare type name, or `dir.Name` where two folders share a name. */
function componentNames(): Map<string, string> {
  const rel = [...schemasById.keys()].map((id) => id.slice(SCHEMA_BASE.length).replace(/\.json$/, ''));
  const base = (r: string) => r.split('/').pop()!;
  const counts = new Map<string, number>();
  for (const r of rel) counts.set(base(r), (counts.get(base(r)) ?? 0) + 1);
  return new Map(rel.map((r) => [`${SCHEMA_BASE}${r}.json`, counts.get(base(r)) === 1 ? base(r) : r.replace('/', '.')]));
}

/** Copies a schema, rewriting every `$ref` (relative or absolute, with or without fragment) to its component. */
function rewriteRefs(node: Json, baseId: string, names: Map<string, string>): Json {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, baseId, names));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const url = new URL(value, baseId);
      const fragment = decodeURIComponent(url.hash.slice(1));
      url.hash = '';
      const name = names.get(url.href);
      if (!name) throw new Error(`${baseId}: $ref ${value} points outside the project's schemas`);
      out[key] = `#/components/schemas/${name}${fragment}`;
    } else {
      out[key] = rewriteRefs(value, baseId, names);
    }
  }
  return out;
}

/** The OpenAPI schema of one catalogue parameter (an array for a multivalued one). */
function parameterSchema(p: Parameter): JsonObject {
  const value: JsonObject = { type: p.type };
  if (p.enum) value.enum = p.enum;
  if (p.knownValues) value['x-knownValues'] = p.knownValues;
  if (p.default !== undefined) value.default = p.default;
  return p.multivalued ? { type: 'array', items: value } : value;
}

/** Describes a parameter for one request form, used where the forms sharing a path disagree. */
function describeForm(p: Parameter): string {
  const parts: string[] = [p.type];
  if (p.required) parts.push('required');
  if (p.default !== undefined) parts.push(`default ${JSON.stringify(p.default)}`);
  const words = wordsOf(p);
  return words ? `${parts.join(', ')}; ${words}` : parts.join(', ');
}

const formName = (op: Operation) => op.requestBody?.contentTypes.join(', ') ?? op.id;

// What the contract says of parameters the catalogue gives no words of their own (4.1's groups, 4.2, 4.3).
const PARAMETER_WORDS: Record<string, string> = {
  id: 'the object the operation acts on: its id (a local number, or a global id where the contract allows one)',
  nodeId: 'node (channel) ID when multichannelling is used (contract 4.1, Group F)',
  folderId: 'Folder ID (contract 4.1, Group F)',
  recursive: 'fetch recursively (contract 4.1, Group F)',
  wastebin: 'deleted-item handling: exclude, include or only (contract 4.1, Group F)',
  package: 'staging package name (contract 4.1, Group F)',
  language: 'the language to count the pages of (contract 4.2)',
  skipCount: 'legacy paging: how many items to skip (contract 4.1, Group L)',
  maxItems: 'legacy paging: at most this many items, -1 for all (contract 4.1, Group L)',
  sortby: 'legacy sorting: the attribute to sort by (contract 4.1, Group L)',
  sortorder: 'legacy sorting: asc or desc, other strings ignored (contract 4.1, Group L)',
  links: 'named by the contract (4.2) for the find operations; its effect: not shown',
  privileges: 'add the privileges to the folder record(s) (contract 4.2)',
  addPrivileges: 'add the privileges to the folder records (contract 4.2)',
  privilegeMap: 'add the privilege map to the folder records (contract 4.2)',
  recursiveIds: 'folders whose children are fetched, ignored if recursive is false; ids may be nodeId/folderId (contract 4.2)',
  tree: 'returns trees with sub-folders attached to their parents, meaningful only when recursive is true (contract 4.2)',
  checkPermission: 'named by the contract (4.2) for getTemplates; its effect: not shown',
  description: 'the description of the file created (contract 4.3)',
};

/** A parameter's words: the catalogue's, else what the contract says of its name. */
const wordsOf = (p: Parameter): string | undefined => p.description ?? PARAMETER_WORDS[p.name];

/**
 * Whether a parameter the contract marks required is a boolean query parameter: the deployed server takes
 * false when it is absent (reference notes: a Java primitive "takes its zero value ... instead of being
 * refused"; "the vendor client calls localizationinfo with nodeId only"), so the export leaves it optional.
 */
const zeroWhenAbsent = (p: Parameter): boolean => p.in === 'query' && p.type === 'boolean' && p.required === true;

/** The parameters of the forms sharing one method and path; a parameter they define differently gets `anyOf`. */
function parametersOf(forms: Operation[]): JsonObject[] {
  const keys = [...new Set(forms.flatMap((op) => op.parameters.map((p) => `${p.in} ${p.name}`)))];
  return keys.map((key) => {
    const defs = forms.flatMap((op) => op.parameters.filter((p) => `${p.in} ${p.name}` === key).map((p) => ({ op, p })));
    const first = defs[0]!.p;
    const schemas = defs.map(({ p }) => parameterSchema(p));
    const same = defs.length === forms.length && schemas.every((s) => JSON.stringify(s) === JSON.stringify(schemas[0]));
    const param: JsonObject = { name: first.name, in: first.in };
    if (first.in === 'path' || (defs.length === forms.length && defs.every(({ p }) => p.required && !zeroWhenAbsent(p))))
      param.required = true;
    if (same) {
      const words = wordsOf(first);
      const zero = zeroWhenAbsent(first)
        ? ' Required by the contract; a server takes false when it is absent (reference notes), so clients may leave it out.'
        : '';
      if (words || zero) param.description = `${words ?? ''}${zero}`.trim();
      param.schema = schemas[0]!;
    } else {
      param.description = defs.map(({ op, p }) => `${formName(op)}: ${describeForm(p)}`).join(' | ');
      param.schema = { anyOf: schemas };
    }
    if (first.multivalued) Object.assign(param, { style: 'form', explode: true });
    return param;
  });
}

/** The longest common dotted prefix of the ids of merged forms, e.g. `file.create`. */
function commonId(ids: string[]): string {
  const split = ids.map((id) => id.split('.'));
  const prefix: string[] = [];
  for (const [i, part] of split[0]!.entries()) {
    if (split.some((s) => s[i] !== part)) break;
    prefix.push(part);
  }
  return prefix.join('.');
}

/** The OpenAPI operation object for the catalogue operations sharing one method and path. */
function operationObject(forms: Operation[], names: Map<string, string>, refusalsIn2xx: boolean): JsonObject {
  const op = forms[0]!;
  const ref = (schemaPath: string) => ({ $ref: `#/components/schemas/${names.get(SCHEMA_BASE + schemaPath)!}` });
  if (forms.some((f) => JSON.stringify(f.response) !== JSON.stringify(op.response))) {
    throw new Error(`${op.method} ${op.path}: forms sharing a path must share their response`);
  }
  const merged = forms.length > 1;
  const result: JsonObject = {
    operationId: merged ? commonId(forms.map((f) => f.id)) : op.id,
    summary: forms.map((f) => f.summary).join('; '),
    description: `Contract section ${op.section}.${forms.some((f) => f.parametersShown === false) ? ' Its parameters: not shown.' : ''}`,
    tags: [op.path.split('/')[1]!],
    parameters: parametersOf(forms),
  };
  if (merged) result['x-operationIds'] = Object.fromEntries(forms.map((f) => [formName(f), f.id]));
  const features = [...new Set(forms.map((f) => f.feature))];
  if (features.length === 1 && features[0]) result['x-feature'] = features[0];
  else if (features.some(Boolean)) result['x-features'] = Object.fromEntries(forms.map((f) => [f.id, f.feature]));
  result['x-requirements'] = [...new Set(forms.flatMap((f) => requirementsNaming(f, requirements)))];
  const content: JsonObject = {};
  for (const form of forms) {
    const body = form.requestBody;
    if (!body) continue;
    for (const type of body.contentTypes) {
      content[type] = body.schema
        ? { schema: ref(body.schema) }
        : body.raw
          ? { schema: { description: 'the raw file data: the whole body, any bytes, is the file content' } }
          : multipartMedia(form);
    }
  }
  if (Object.keys(content).length) result.requestBody = { required: true, content };
  const json = (schema: JsonObject) => ({ 'application/json': { schema } });
  const refusal = { $ref: `#/components/schemas/${REFUSAL_COMPONENT}` };
  const responses: JsonObject = refusalsIn2xx
    ? {
        [String(op.response.status)]: {
          description:
            'success (contract 4: 200 for GET, 201 for POST), or a refusal answered with this status: the envelope with a responseCode other than OK',
          content: json({ anyOf: [ref(op.response.schema), refusal] }),
        },
      }
    : {
        [String(op.response.status)]: {
          description:
            'success (contract 4: 200 for GET, 201 for POST). A server may also answer a refusal with a 2xx status: the envelope ' +
            'with a responseCode other than OK (x-refusal-in-2xx; reference notes); check responseInfo.responseCode before reading.',
          content: json(ref(op.response.schema)),
          // Inline: a component referenced from an extension alone counts as unused to linters.
          'x-refusal-in-2xx': refusalSchema(`#/components/schemas/${names.get(`${SCHEMA_BASE}responses/Envelope.json`)!}`),
        },
      };
  // Field servers answer refusals of POSTs as 200 too (reference notes), which the refusal definition allows.
  if (refusalsIn2xx && op.response.status !== 200) {
    responses['200'] = { description: 'a refusal: the envelope with a responseCode other than OK', content: json(refusal) };
  }
  // No 5XX: a 5xx is never an acceptable answer (ENV-08), so a validating proxy must flag it.
  responses['4XX'] = {
    description: 'a refusal (the status codes are not shown by the contract, 7)',
    content: json(ref('responses/Envelope.json')),
  };
  result.responses = responses;
  return result;
}

/** Builds the OpenAPI 3.1 document: every catalogue operation, every schema as a component. */
export function buildOpenApi(options: OpenApiOptions = {}): JsonObject {
  const refusalsIn2xx = options.refusalsIn2xx ?? false;
  const names = componentNames();
  if ([...names.values()].includes(REFUSAL_COMPONENT)) throw new Error(`a schema file takes the generated name ${REFUSAL_COMPONENT}`);
  const schemas: JsonObject = {};
  for (const [id, schema] of schemasById) {
    const { $id: _id, $schema: _schema, ...rest } = schema as JsonSchema & JsonObject;
    schemas[names.get(id)!] = rewriteRefs(rest as JsonObject, id, names);
  }
  if (refusalsIn2xx)
    schemas[REFUSAL_COMPONENT] = refusalSchema(`#/components/schemas/${names.get(`${SCHEMA_BASE}responses/Envelope.json`)!}`);
  const paths: Record<string, JsonObject> = {};
  const groups = new Map<string, Operation[]>();
  for (const op of operations) {
    const key = `${op.method} ${op.path}`;
    groups.set(key, [...(groups.get(key) ?? []), op]);
  }
  for (const forms of groups.values()) {
    const { method, path } = forms[0]!;
    (paths[path] ??= {})[method.toLowerCase()] = operationObject(forms, names, refusalsIn2xx);
  }
  return {
    openapi: '3.1.0',
    // Without it, tools assume the OpenAPI dialect and some (Prism) read the schemas as draft-07.
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Content Management Service: folder and file resources',
      version: SUITE_VERSION,
      description:
        'Generated by cms-conformance from schemas/operations.json and the JSON Schemas under schemas/. ' +
        'Forms sharing a method and path (chosen by Content-Type) are merged; x-operationIds names the catalogue id of each. ' +
        'x-requirements lists the requirement ids (schemas/requirements.json) that name the operation. ' +
        'Every answer a conforming server may give is documented: the success status and schema, refusals as 4XX with the envelope, ' +
        (refusalsIn2xx
          ? 'and refusals answered as 200 (or as the success status) with a responseCode other than OK. '
          : 'and, in x-refusal-in-2xx beside each success, the refusal a server may answer with a 2xx status (a responseCode other than OK; ' +
            '`cms-conformance openapi --refusals-in-2xx` documents it inside the 2xx responses, for validating proxies). ') +
        'A 5xx is never conforming (ENV-08).',
      contact: { name: 'the cms-conformance maintainers' },
      // The project's licence (LICENSE, package.json): OpenAPI 3.1 takes an SPDX identifier in place of a url.
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [
      {
        url: '{base_url}',
        description: 'All paths are appended to the base address (contract 2.1).',
        variables: { base_url: { default: 'http://127.0.0.1:8080/rest', description: 'the base address of the service' } },
      },
    ],
    tags: [
      { name: 'folder', description: 'Folder operations (contract 4.2)' },
      { name: 'file', description: 'File operations (contract 4.3)' },
    ],
    // Authentication is not shown by the contract (5): credentials are optional here; the deployed
    // implementation takes a `sid` query parameter (reference notes), the reference server also a bearer token.
    security: [{}, { sid: [] }, { bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        sid: { type: 'apiKey', in: 'query', name: 'sid', description: 'session id (reference notes)' },
        bearer: { type: 'http', scheme: 'bearer', description: 'the reference server accepts its token this way too' },
      },
    },
  };
}
