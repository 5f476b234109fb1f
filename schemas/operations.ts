/**
 * The operation catalogue (schemas/operations.json): every operation of contract section 4 with its
 * method, path template, parameters (groups F, L and P expanded), request body and success response.
 */
import { readFileSync } from 'node:fs';
import type { Feature } from './requirements.ts';

/** How a path id is described: "local or global" (either form accepted), "(int)", or not said. */
export type IdKind = 'local-or-global' | 'int' | 'unspecified';

/** The contract's parameter groups of section 4.1: object filters, legacy paging, new-style paging. */
export type ParameterGroup = 'F' | 'L' | 'P';

/** One path or query parameter of an operation. */
export interface Parameter {
  name: string;
  in: 'path' | 'query';
  /** The value type; for a multivalued parameter, the type of each value. */
  type: 'integer' | 'boolean' | 'string' | 'number';
  /** Path parameters only. */
  idKind?: IdKind;
  /** Present (true) only where the contract says required, and on every path parameter. */
  required?: true;
  /** May be given several times (contract 2.1). */
  multivalued?: true;
  /** A closed enumeration given by the contract. */
  enum?: string[];
  /** Values the contract names for an open parameter (other values are ignored, not refused). */
  knownValues?: string[];
  /** The contract's default; absent where it gives none or "(unset)". */
  default?: string | number | boolean;
  /** The shared group of contract 4.1 the parameter comes from. */
  group?: ParameterGroup;
  description?: string;
}

/** The request body an operation takes. */
export interface RequestBody {
  /** `application/json`, `multipart/form-data`, or `*` + `/*` for the raw form. */
  contentTypes: string[];
  /** Schema path relative to schemas/ (e.g. `requests/DisinheritRequest.json`); null where not shown. */
  schema: string | null;
  /** The body is taken as raw bytes (createSimple raw form). */
  raw?: true;
}

/** One operation of the contract: one method, path template and request form. */
export interface Operation {
  /** Stable id, e.g. `folder.getFiles`; the requirement `OP-<id>` covers it. */
  id: string;
  method: 'GET' | 'POST';
  /** Path template relative to `{base_url}`, e.g. `/folder/getFiles/{folderId}`. */
  path: string;
  /** Contract section describing it. */
  section: string;
  summary: string;
  /** The feature the target must declare for the operation to be tested, or null. */
  feature: Feature | null;
  /** False where the contract says the parameters are "not shown" (only the path parameter is listed). */
  parametersShown?: false;
  parameters: Parameter[];
  requestBody: RequestBody | null;
  /** Success status (200 for GET, 201 for POST) and response schema path relative to schemas/. */
  response: { status: 200 | 201; schema: string };
}

const catalogue = JSON.parse(readFileSync(new URL('./operations.json', import.meta.url), 'utf8')) as {
  operations: Operation[];
};

/** Every operation, in the order of the requirement catalogue's operation table. */
export const operations: readonly Operation[] = catalogue.operations;

const byId = new Map(operations.map((op) => [op.id, op]));

/** Whether an operation only reads: every GET, and getFolders by body (FLD-04: it "answers as GET /folder/getFolders/{id}"). */
export function onlyReads(op: Pick<Operation, 'method' | 'id'>): boolean {
  return op.method === 'GET' || op.id === 'folder.getFolders.post';
}

/** Returns the operation with this id; throws on an unknown id (the catalogue is closed). */
export function getOperation(id: string): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`unknown operation id: ${id}`);
  return op;
}

// Every answer the judge sees and every request the reference server takes is matched against the
// templates: each is split once, not per call.
const templates = new Map<string, ReadonlyArray<string | { param: string }>>();

/** A path template's segments: literal text, or the name of a path parameter. */
function segmentsOf(template: string): ReadonlyArray<string | { param: string }> {
  let segments = templates.get(template);
  if (!segments) {
    segments = template.split('/').map((s) => {
      const name = /^\{(.+)\}$/.exec(s)?.[1];
      return name === undefined ? s : { param: name };
    });
    templates.set(template, segments);
  }
  return segments;
}

/** Matches a concrete path (query string ignored) against a template; returns the decoded path parameters or undefined. */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = segmentsOf(template);
  const end = path.indexOf('?');
  const got = (end < 0 ? path : path.slice(0, end)).split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    const value = got[i] ?? '';
    if (typeof segment === 'string') {
      if (segment !== value) return undefined;
    } else {
      const name = segment.param;
      if (value === '') return undefined;
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
  }
  return params;
}

/** The media type of a Content-Type header value, lower-cased, without parameters. */
function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Finds the operation for a method and concrete path (e.g. `/folder/getFiles/12`); where several
 * forms share the path (file.create, file.createSimple, file.save) the Content-Type picks one: its
 * exact media type, else the raw form, else the first form (whose body parsing will then refuse);
 * without a Content-Type, the first form.
 */
export function findOperation(method: string, path: string, contentType?: string): Operation | undefined {
  const upper = method.toUpperCase();
  const forms = operations.filter((op) => op.method === upper && matchPath(op.path, path));
  if (forms.length <= 1 || contentType === undefined) return forms[0];
  const type = mediaType(contentType);
  return forms.find((op) => op.requestBody?.contentTypes.includes(type)) ?? forms.find((op) => op.requestBody?.raw) ?? forms[0];
}
