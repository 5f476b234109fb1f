/**
 * The reference server's HTTP layer: one fastify route per method and path of schemas/operations.json
 * under `/rest`, query parsing by the catalogue, JSON/multipart/raw bodies, the response envelope,
 * refusal styles, auth and size limits; the HTTP-level planted faults enter through its plan (server/planted/app.ts).
 * Semantics live in the handlers.
 */
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { readRequestBody } from './coerce.ts';
import { findOperation, operations, type Operation, type Parameter } from '../schemas/operations.ts';
import { Refusal, type FaultSet, type Handler, type OpRequest, type ParamValue, type ResponseCode, type UploadPart } from './types.ts';
import * as planted from './planted/app.ts';
import { varyBody, varyRequest } from './variations.ts';
import { bodyJson, releaseBody } from './json.ts';

/** Path prefix of the API: the target's baseUrl is `http://HOST:PORT/rest`. */
export const API_PREFIX = '/rest';

/** Request size limits (bytes, and the number of parts of a multipart body). */
export interface Limits {
  /** Largest request body; more is refused 413. */
  bodyBytes: number;
  /** Largest single part of a multipart body; more is refused 413. */
  fileBytes: number;
  /** Most parts in a multipart body; more is refused 400. */
  parts: number;
}

/** Limits used when the caller sets none. */
export const DEFAULT_LIMITS: Limits = { bodyBytes: 25 * 1024 * 1024, fileBytes: 20 * 1024 * 1024, parts: 100 };

/**
 * How handler refusals are answered: `status` with a 4xx status (INVALIDDATA 400, NOTFOUND 404, ...);
 * `body` with 200 and the code in `responseInfo`, as the deployed implementation does.
 */
export type RefusalStyle = 'status' | 'body';

/** What buildApp needs: the semantics (state and handlers) and the switches of the HTTP layer. */
export interface AppOptions<S> {
  state: S;
  handlers: Record<string, Handler<S>>;
  /** Names of the planted faults switched on (HTTP-level and semantic). */
  faults?: FaultSet;
  /** Names of the harmless variations switched on (server/variations.ts). */
  variations?: ReadonlySet<string>;
  refusalStyle?: RefusalStyle;
  /** When set, requests must carry `sid=TOKEN` or `Authorization: Bearer TOKEN`. */
  authToken?: string;
  /** False: the multichannelling operations are absent (404), as in the open-source edition (reference notes). */
  multichannelling?: boolean;
  limits?: Partial<Limits>;
  /** Log warnings and errors (our own 500s among them) to stdout. */
  logger?: boolean;
}

const STATUS_BY_CODE: Record<Exclude<ResponseCode, 'OK'>, number> = {
  INVALIDDATA: 400,
  AUTHREQUIRED: 401,
  PERMISSION: 403,
  NOTLICENSED: 403,
  NOTFOUND: 404,
  FAILURE: 409,
  LOCKED: 409,
  MAINTENANCEMODE: 503,
};

/**
 * A refusal raised before any handler ran (unparsable or invalid request, auth, size, unknown path).
 * It keeps its status under both refusal styles: the deployed implementation's container answers these
 * with a real status too (reference notes: 400 for unparsable JSON, 401 for a missing sid).
 */
class RequestRefusal extends Refusal {
  constructor(
    readonly fault: planted.RequestFault | undefined,
    message: string,
    property?: string,
    status = 400,
    code: Exclude<ResponseCode, 'OK'> = 'INVALIDDATA',
  ) {
    super(code, message, property, status);
  }
}

/** The charsets a JSON body may declare: UTF-8 and its ASCII subset. */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/** The media type of a Content-Type header, lower-cased, without parameters ('' when absent). */
function mediaType(contentType: string | undefined): string {
  return (contentType?.split(';')[0] ?? '').trim().toLowerCase();
}

/** Every query parameter as sent; a prototype-free object, since names are the client's. */
function rawQueryOf(url: string): Record<string, string[]> {
  const raw: Record<string, string[]> = Object.create(null);
  const at = url.indexOf('?');
  if (at < 0) return raw;
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) (raw[name] ??= []).push(value);
  return raw;
}

/** Converts one query value to the parameter's type, or throws a refusal naming the parameter. */
function convert(param: Parameter, value: string, plan: planted.QueryPlan): string | number | boolean {
  const wrong = (what: string) => new RequestRefusal('wrong-type-500', `${param.name}: "${value}" is not ${what}`, param.name);
  switch (param.type) {
    case 'integer': {
      const n = Number(value);
      if (plan.refusesInteger(!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(n), value)) throw wrong('an integer');
      return plan.integer(n, value);
    }
    case 'number': {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) throw wrong('a number');
      return n;
    }
    case 'boolean':
      if (!/^(true|false)$/i.test(value)) throw wrong('true or false');
      return value.toLowerCase() === 'true';
    case 'string':
      if (param.enum && !param.enum.includes(value)) {
        const fault = param.name === 'wastebin' ? 'unknown-wastebin-500' : undefined;
        throw new RequestRefusal(fault, `${param.name}: "${value}" is not one of ${param.enum.join(', ')}`, param.name);
      }
      return value;
  }
}

/**
 * Parses the declared query parameters: defaults applied, multivalued ones as arrays (empty when
 * absent), the first value of a single-valued one. An empty value of a non-string parameter counts
 * as not sent, as clients serialising an unset option send `maxItems=`.
 */
function parseQuery(op: Operation, rawQuery: Record<string, string[]>, plan: planted.QueryPlan): OpRequest['query'] {
  plan.parsing(rawQuery);
  const query: OpRequest['query'] = {};
  for (const param of op.parameters) {
    if (param.in !== 'query') continue;
    plan.reading(param, rawQuery[param.name]);
    const values = (rawQuery[param.name] ?? []).filter((v) => v !== '' || param.type === 'string');
    if (param.multivalued) query[param.name] = values.map((v) => convert(param, v, plan)) as ParamValue;
    else if (values[0] !== undefined) query[param.name] = convert(param, values[0], plan);
    else if (param.default !== undefined) query[param.name] = param.default;
    else if (param.required) {
      const zero = zeroValue(param);
      if (zero === undefined) throw new RequestRefusal(undefined, `${param.name}: required query parameter missing`, param.name);
      query[param.name] = zero;
    }
  }
  return query;
}

/**
 * The value an absent required parameter takes when it is a primitive. Reference notes: "A query
 * parameter declared as a Java primitive (`boolean`, `int`) that is absent takes its zero value
 * (`false`, `0`) instead of being refused; the contract's "(..., required)" marks such parameters."
 * A string is no primitive there, so an absent required string stays refused (undefined).
 */
export function zeroValue(param: Parameter): number | boolean | undefined {
  if (param.type === 'integer' || param.type === 'number') return 0;
  if (param.type === 'boolean') return false;
  return undefined;
}

/** Whether a parsed body holds a number that is not finite anywhere. Iterative: bodies nest deep. */
function hasNonFinite(body: unknown): boolean {
  const stack: unknown[] = [body];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'number' && !Number.isFinite(value)) return true;
    if (typeof value === 'object' && value !== null) for (const child of Object.values(value)) stack.push(child);
  }
  return false;
}

/**
 * The member (dotted path) of the first number that is not finite in a parsed body, '' for the body itself;
 * undefined when none is. Iterative: bodies nest deep. The paths are built only for a body that has such a
 * number: for every other body they were most of the time of this check (a path per member, 100,000 of
 * them for NEG-05's deepest bodies).
 */
function nonFiniteMember(body: unknown): string | undefined {
  if (!hasNonFinite(body)) return undefined;
  const stack: [unknown, string][] = [[body, '']];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'number' && !Number.isFinite(value)) return path;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) stack.push([child, path ? `${path}.${key}` : key]);
  }
  return undefined;
}

/**
 * Parses a JSON body and reads it against the operation's request schema: scalars converted as
 * Jackson's defaults convert them, what cannot be converted refused naming the member (server/coerce.ts).
 */
function parseJsonBody(op: Operation, schema: string | null, request: FastifyRequest, plan: planted.BodyPlan): unknown {
  if (plan.mediaType(mediaType(request.headers['content-type']), request.headers) !== 'application/json') {
    throw new RequestRefusal(undefined, `${op.method} ${op.path} takes Content-Type: application/json`, undefined, 415);
  }
  // RFC 8259 8.1: JSON between systems is UTF-8; a body declared in another charset would be misread.
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && !plan.charsets(UTF8_CHARSETS).has(charset))
    throw new RequestRefusal(undefined, `a JSON body in charset ${charset} cannot be read: send it as UTF-8`, undefined, 415);
  const text = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  plan.parsing(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new RequestRefusal('malformed-json-500', `malformed JSON body: ${(err as Error).message}`);
  }
  body = plan.parsed(body, op.id);
  // A number too large for a double (1e400) parses as Infinity: refused, never stored as "Infinity".
  const outOfRange = nonFiniteMember(body);
  if (outOfRange !== undefined)
    throw new RequestRefusal(
      'out-of-range-number-500',
      `member ${outOfRange || '(the body)'}: a number too large for a double`,
      outOfRange || undefined,
    );
  if (schema === null) return body;
  try {
    return readRequestBody(schema, body);
  } catch (err) {
    if (err instanceof Refusal) throw new RequestRefusal('invalid-body-500', err.message, err.property);
    throw err;
  }
}

/** Buffers every part of a multipart body; the parts without a filename are also the form's text fields. */
async function readMultipart(
  request: FastifyRequest,
  limits: Limits,
  plan: planted.BodyPlan,
): Promise<NonNullable<OpRequest['multipart']>> {
  if (!request.isMultipart()) {
    throw new RequestRefusal(undefined, 'this form takes Content-Type: multipart/form-data', undefined, 415);
  }
  if (Number(request.headers['content-length']) > limits.bodyBytes) throw bodyTooLarge(limits);
  const fields: Record<string, string> = Object.create(null);
  const files: UploadPart[] = [];
  try {
    for await (const part of request.parts()) {
      // isPartAFile makes every part a file part: a data part sent without a filename is still bytes.
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      files.push({ fieldName: part.fieldname, filename: part.filename || undefined, mimeType: part.mimetype, data });
      if (!part.filename) fields[part.fieldname] ??= data.toString('utf8');
    }
  } catch (err) {
    // The hook throws the refusal it is handed (with every switch off, always).
    plan.unreadable(
      (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE'
        ? new RequestRefusal('oversized-body-500', `a part of the multipart body exceeds ${limits.fileBytes} bytes`, undefined, 413)
        : new RequestRefusal('multipart-malformed-500', `malformed multipart body: ${(err as Error).message}`),
    );
  }
  return { fields, files };
}

function bodyTooLarge(limits: Limits): RequestRefusal {
  return new RequestRefusal('oversized-body-500', `request body exceeds ${limits.bodyBytes} bytes`, undefined, 413);
}

/** Builds the OpRequest a handler sees: path, query, and the body in the operation's form. */
async function parseRequest(op: Operation, request: FastifyRequest, limits: Limits, plan: planted.AppPlan): Promise<OpRequest> {
  const rawQuery = rawQueryOf(request.url);
  const req: OpRequest = {
    operationId: op.id,
    path: request.params as Record<string, string>,
    query: parseQuery(op, rawQuery, plan.query),
    rawQuery,
  };
  const form = op.requestBody;
  if (!form) return req;
  if (form.raw) {
    req.raw = {
      contentType: request.headers['content-type'] ?? 'application/octet-stream',
      data: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
    };
  } else if (form.contentTypes.includes('multipart/form-data')) {
    req.multipart = await readMultipart(request, limits, plan.body);
  } else {
    req.body = parseJsonBody(op, form.schema, request, plan.body);
  }
  return req;
}

/** The answer body of a refusal: a CRITICAL message and the code in responseInfo. */
function refusalBody(code: Exclude<ResponseCode, 'OK'>, message: string, property?: string): Record<string, unknown> {
  return {
    messages: [{ type: 'CRITICAL', message, ...(property === undefined ? {} : { fieldName: property }), timestamp: Date.now() }],
    responseInfo: { responseCode: code, responseMessage: message, ...(property === undefined ? {} : { property }) },
  };
}

/** Writes answers; every answer of the app, success or refusal, goes through one of these. */
interface Responder {
  send(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply;
  sendFailure(reply: FastifyReply, err: unknown, op?: Operation): FastifyReply;
  sendSuccess(reply: FastifyReply, op: Operation, result: Record<string, unknown>): FastifyReply;
}

/** The answer writers, bound to the switches of one app: its plan, variations and the refusal style. */
function createResponder(plan: planted.AnswerPlan, variations: ReadonlySet<string>, style: RefusalStyle): Responder {
  function send(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply {
    const type = plan.contentType('application/json; charset=utf-8');
    // Null members are left out (reference notes); server/json.ts writes large pages fast.
    const json = bodyJson(varyBody(body, variations) as Record<string, unknown>);
    // Written in full, the body's buffer serves another answer (server/json.ts); an answer cut off keeps it.
    if (typeof json !== 'string') reply.raw.once('finish', () => releaseBody(json));
    return reply.code(status).type(type).send(json);
  }

  function sendFailure(reply: FastifyReply, thrown: unknown, op?: Operation): FastifyReply {
    const err = plan.failure(thrown);
    if (!(err instanceof Refusal)) {
      // Only what the server raised itself is logged, not a refusal a planted fault answers as an exception.
      if (!(thrown instanceof Refusal))
        reply.log.error({ err, operationId: op?.id }, 'request failed with an exception that is not a Refusal');
      return send(reply, 500, refusalBody('FAILURE', `internal error: ${(err as Error).message}`));
    }
    const fromHandler = !(err instanceof RequestRefusal);
    const status = fromHandler && style === 'body' ? 200 : (err.status ?? STATUS_BY_CODE[err.code]);
    const body = refusalBody(err.code, err.message, err.property);
    // FileUploadResponse: "A failed upload answers success: false and no file member" (reference notes).
    if (op?.response.schema === 'responses/FileUploadResponse.json') body.success = false;
    return send(reply, status, body);
  }

  function sendSuccess(reply: FastifyReply, op: Operation, result: Record<string, unknown>): FastifyReply {
    const body = plan.successBody(
      {
        ...result,
        messages: Array.isArray(result.messages) ? result.messages : [],
        responseInfo: { responseCode: 'OK', responseMessage: 'Success' },
      },
      op,
    );
    return send(reply, plan.successStatus(op.response.status, op), body);
  }

  return { send, sendFailure, sendSuccess };
}

/** The bare fastify instance: body parsing set up, no routes or hooks yet. */
function createFastify(limits: Limits, logger: boolean | undefined, responder: Responder): FastifyInstance {
  const app = Fastify({
    logger: logger ? { level: 'warn' } : false,
    bodyLimit: limits.bodyBytes,
    // A client that sends its body slowly, or never finishes it, does not hold a connection forever.
    requestTimeout: 60_000,
    routerOptions: { maxParamLength: 2048 },
    frameworkErrors: (error, _request, reply) => {
      responder.sendFailure(reply, new RequestRefusal(undefined, error.message));
    },
  });

  // Bodies are taken as bytes and parsed after routing: the operation's form decides whether they are
  // JSON (parsed and validated), raw data (createSimple) or multipart (the plugin's own parser).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.register(fastifyMultipart, { isPartAFile: () => true, limits: { fileSize: limits.fileBytes, parts: limits.parts } });
  return app;
}

/** Answers errors raised outside the route handlers, and unknown paths, in the API's envelope. */
function handleAppErrors(app: FastifyInstance, limits: Limits, { sendFailure }: Responder): void {
  // Errors raised before the route handler: body parsing by fastify (size, content length, media type).
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 413) return sendFailure(reply, bodyTooLarge(limits));
    return sendFailure(
      reply,
      status >= 400 && status < 500 ? new RequestRefusal('body-parser-refusal-500', error.message, undefined, status) : error,
    );
  });

  app.setNotFoundHandler((request, reply) => {
    sendFailure(
      reply,
      new RequestRefusal(undefined, `no operation ${request.method} ${request.url.split('?')[0]}`, undefined, 404, 'NOTFOUND'),
    );
  });
}

/** Refuses every request that carries neither `sid=TOKEN` nor `Authorization: Bearer TOKEN`. */
function requireAuth(app: FastifyInstance, authToken: string, { sendFailure }: Responder): void {
  app.addHook('onRequest', async (request, reply) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer === authToken || rawQueryOf(request.url).sid?.includes(authToken)) return;
    return sendFailure(
      reply,
      new RequestRefusal(undefined, 'authentication required: send sid or a bearer token', undefined, 401, 'AUTHREQUIRED'),
    );
  });
}

/** One route per method and path; where forms share it, findOperation picks one by Content-Type. */
function addRoutes<S>(
  app: FastifyInstance,
  options: AppOptions<S>,
  limits: Limits,
  faults: FaultSet,
  plan: planted.AppPlan,
  responder: Responder,
): void {
  const { state, handlers } = options;
  const { send, sendFailure, sendSuccess } = responder;
  const served = operations.filter((op) => options.multichannelling !== false || op.feature !== 'multichannelling');
  const routes = new Map(served.map((op) => [`${op.method} ${op.path}`, op] as const));
  const formsOf = (op: Operation): number => served.filter((o) => o.method === op.method && o.path === op.path).length;
  for (const routeOp of routes.values()) {
    const shared = formsOf(routeOp) > 1;
    app.route({
      method: routeOp.method,
      url: API_PREFIX + routeOp.path.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (request, reply) => {
        const op = shared
          ? (findOperation(routeOp.method, request.url.slice(API_PREFIX.length), request.headers['content-type']) ?? routeOp)
          : routeOp;
        try {
          const req = varyRequest(await parseRequest(op, request, limits, plan), faults);
          const handler = handlers[op.id];
          if (!handler) return send(reply, 501, refusalBody('FAILURE', `operation ${op.id} is not implemented`));
          return sendSuccess(reply, op, await handler(state, req, { faults }));
        } catch (err) {
          await plan.route.refusing(err, state, op, request.body, handlers);
          return sendFailure(reply, err, op);
        }
      },
    });
  }
}

/** Builds the fastify app serving the operation catalogue under `/rest` with the given semantics. */
export function buildApp<S>(options: AppOptions<S>): FastifyInstance {
  const variations = options.variations ?? new Set<string>();
  // Handlers see faults and variations as one set of switches.
  const faults: FaultSet = new Set([...(options.faults ?? []), ...variations]);
  const plan = planted.app(faults, RequestRefusal);
  const authToken = plan.authToken(options.authToken);
  const style = options.refusalStyle ?? plan.refusalStyle('status');
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const responder = createResponder(plan.answer, variations, style);
  // The auth hook goes in before the routes, so that no route can be registered without it.
  const app = createFastify(limits, options.logger, responder);
  handleAppErrors(app, limits, responder);
  if (authToken !== undefined) requireAuth(app, authToken, responder);
  addRoutes(app, options, limits, faults, plan, responder);
  return app;
}
