/**
 * The seam between the reference server's HTTP layer (server/app.ts: routing, parameter parsing,
 * envelopes, refusal styles, auth, uploads) and its semantics (server/state.ts and
 * server/handlers/: store, fixture, one handler per operation id of schemas/operations.json).
 */
import type { FaultName } from './faults.ts';
import type { VariationName } from './variations.ts';

/** responseInfo.responseCode values the deployed implementation uses (reference notes). */
export type ResponseCode =
  'OK' | 'INVALIDDATA' | 'PERMISSION' | 'MAINTENANCEMODE' | 'NOTFOUND' | 'FAILURE' | 'AUTHREQUIRED' | 'NOTLICENSED' | 'LOCKED';

/**
 * A refusal of a request: the HTTP layer answers it with the envelope, this code, the message and
 * `property` (the request field at fault). With --refusal-style status the HTTP status comes from
 * `status` or else from the code; with --refusal-style body it is 200.
 */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly code: Exclude<ResponseCode, 'OK'>,
    message: string,
    readonly property?: string,
    /** HTTP status under --refusal-style status; defaults by code (INVALIDDATA 400, NOTFOUND 404, ...). */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A query or path value after parsing against the operation catalogue. */
export type ParamValue = string | number | boolean | string[] | number[] | boolean[];

/** One uploaded part of a multipart body. */
export interface UploadPart {
  /** The part's name in the form, as sent. */
  fieldName: string;
  /** The filename of the part's Content-Disposition, if any. */
  filename?: string;
  /** The part's media type (application/octet-stream when the part gave none). */
  mimeType: string;
  data: Buffer;
}

/** A request as the handlers see it: already routed, authenticated and parsed. */
export interface OpRequest {
  /** Operation id from schemas/operations.json, e.g. `folder.getFiles`. */
  operationId: string;
  /** Path parameters, raw strings (an id may be local or global). */
  path: Record<string, string>;
  /**
   * Query parameters parsed by the catalogue's type (integer, boolean, string, enum) with the
   * contract's defaults applied; multivalued parameters are arrays (empty when absent). A parameter
   * without a default that was not sent is absent.
   */
  query: Record<string, ParamValue | undefined>;
  /** Every query parameter as sent, including ones the catalogue does not declare. */
  rawQuery: Record<string, string[]>;
  /** Parsed JSON body, validated against the operation's request schema. */
  body?: unknown;
  /** Multipart body: text fields and file parts. */
  multipart?: { fields: Record<string, string>; files: UploadPart[] };
  /** Raw body of `POST /file/createSimple` (any content type other than JSON and multipart). */
  raw?: { contentType: string; data: Buffer };
}

/**
 * The switches on: planted faults and harmless variations; handlers ask `faults.has(name)`. Asking takes
 * a catalogued name only, so a misspelt one in a handler is a type error.
 */
export interface FaultSet extends Iterable<string> {
  has(name: FaultName | VariationName): boolean;
  readonly size: number;
}

/** What a handler receives besides its request. */
export interface HandlerContext {
  faults: FaultSet;
}

/**
 * One operation's semantics: returns the response members beyond the envelope (the HTTP layer adds
 * `messages` and `responseInfo`), or throws a Refusal.
 */
export type Handler<S> = (state: S, req: OpRequest, ctx: HandlerContext) => Record<string, unknown> | Promise<Record<string, unknown>>;
