/**
 * The planted faults and variations of the HTTP layer (server/app.ts), one plan per stage: the query, the JSON body,
 * the answers and the routes, with the switches of buildApp itself.
 *
 * buildApp makes the plan of its switches once (`const plan = planted.app(faults, RequestRefusal)`) and hands each
 * stage its part; the stage consults it at named points of the contract's code: a hook takes the value the contract
 * computed there and returns the one the layer goes on with, or (a hook that returns nothing) may throw or change state
 * where a fault does. With every switch off each hook gives back what it was given and does nothing else, so app.ts
 * reads as the contract, and this file, which only ever differs from the contract, is left out of the mutation run
 * (scripts/mutation mutates server/app.ts alone of server/'s top level). The refusal class of the HTTP layer is handed
 * in: importing it from app.ts would close a circle of imports (test/project/cycles.test.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Operation, Parameter } from '../../schemas/operations.ts';
import { shapeFaultName } from '../faults-http.ts';
import { createAnyway, misshape, nestingDepth, WITHOUT_RESPONSEINFO } from '../faults-http-effects.ts';
import { Refusal, type FaultSet, type Handler, type ResponseCode } from '../types.ts';

/**
 * The planted faults that turn a refusal of the HTTP layer into a 500: each such refusal names its fault where it is
 * raised (server/app.ts RequestRefusal), and the answers' plan (`failure`) reads it.
 */
export type RequestFault =
  | 'malformed-json-500'
  | 'wrong-type-500'
  | 'empty-query-value-500'
  | 'invalid-body-500'
  | 'oversized-body-500'
  | 'multipart-malformed-500'
  | 'unknown-wastebin-500'
  | 'body-parser-refusal-500'
  | 'out-of-range-number-500';

/** A refusal raised before any handler ran (server/app.ts RequestRefusal): the planted fault that answers it with a 500. */
export interface RequestRefusal extends Refusal {
  readonly fault: RequestFault | undefined;
}

/** The class of RequestRefusal, as buildApp hands it in. */
export type RequestRefusalClass = new (
  fault: RequestFault | undefined,
  message: string,
  property?: string,
  status?: number,
  code?: Exclude<ResponseCode, 'OK'>,
) => RequestRefusal;

/** The hooks of the query's parsing (parseQuery, convert). */
export interface QueryPlan {
  /** Before the query `raw` (every value as sent) is parsed. */
  parsing(raw: Record<string, string[]>): void;
  /** Before the values of `param` (as sent; undefined when absent) are read. */
  reading(param: Parameter, values: string[] | undefined): void;
  /** Whether an integer parameter's `value` (as sent) is refused; the contract: `refused`, unless it is a safe integer. */
  refusesInteger(refused: boolean, value: string): boolean;
  /** The integer an integer parameter's `value` (as sent) is read as; the contract: `n`, its number. */
  integer(n: number, value: string): number;
}

/** The hooks of a JSON body's reading (parseJsonBody). */
export interface BodyPlan {
  /** The media type the request's Content-Type (of `headers`) is taken as; the contract: `type`, without its parameters. */
  mediaType(type: string, headers: IncomingHttpHeaders): string;
  /** The charsets a JSON body may declare; the contract: `charsets`, UTF-8 and its ASCII subset. */
  charsets(charsets: ReadonlySet<string>): ReadonlySet<string>;
  /** Before the body's `text` is parsed as JSON. */
  parsing(text: string): void;
  /** After the body of an operation parsed to `body`, before it is checked: the body as the server reads it. */
  parsed(body: unknown, operationId: string): unknown;
  /** A multipart body could not be read to its end; the contract throws `refusal`. */
  unreadable(refusal: Error): void;
}

/** The hooks of the answers (createResponder). */
export interface AnswerPlan {
  /** The Content-Type of every answer; the contract: `type`, JSON in UTF-8. */
  contentType(type: string): string;
  /** The exception answered for `err`, thrown while serving a request; the contract: `err`. */
  failure(err: unknown): unknown;
  /** The body of a success of `op` as sent; the contract: `body`, the result in its envelope. */
  successBody(body: Record<string, unknown>, op: Operation): Record<string, unknown>;
  /** The HTTP status of a success of `op`; the contract: `status`, the operation's. */
  successStatus(status: number, op: Operation): number;
}

/** The hooks of the routes (addRoutes). */
export interface RoutePlan {
  /** After a request of `op` was refused with `err` (its body as sent `raw`), before the refusal is answered. */
  refusing<S>(err: unknown, state: S, op: Operation, raw: unknown, handlers: Record<string, Handler<S>>): Promise<void>;
}

/** The plans of every stage of the HTTP layer, and the hooks of buildApp. */
export interface AppPlan {
  query: QueryPlan;
  body: BodyPlan;
  answer: AnswerPlan;
  route: RoutePlan;
  /** The token requests must carry; the contract: `token`, the one configured (none: no check). */
  authToken(token: string | undefined): string | undefined;
  /** How refusals are answered when the options say nothing; the contract: `style`, with their own status. */
  refusalStyle(style: 'status' | 'body'): 'status' | 'body';
}

/** A decimal query value (decimal-query-truncated cuts it to an integer). */
const DECIMAL = /^[+-]?\d+\.\d+$/;

/** A charset parameter of a Content-Type header (as parseJsonBody reads it). */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

function query(faults: FaultSet, RequestRefusal: RequestRefusalClass): QueryPlan {
  return {
    parsing: (raw) => {
      // Planted (long-query-value-500): a long value overruns a fixed buffer of the query parser.
      if (faults.has('long-query-value-500') && Object.values(raw).some((values) => values.some((v) => v.length > 4096)))
        throw new RangeError('query value exceeds the 4096 characters of the parse buffer');
    },
    reading: (param, values) => {
      // Planted (empty-query-value-500): an empty value of a number or boolean is parsed as one, like Integer.parseInt(""), and fails.
      if (faults.has('empty-query-value-500') && param.type !== 'string' && values?.includes(''))
        throw new RequestRefusal('empty-query-value-500', `${param.name}: "" is not a ${param.type}`, param.name);
    },
    // Planted (decimal-query-truncated): a decimal is cut to an integer (as a lenient parser might), neither refused nor ignored.
    refusesInteger: (refused, value) => refused && !(faults.has('decimal-query-truncated') && DECIMAL.test(value)),
    integer: (n, value) => (faults.has('decimal-query-truncated') && DECIMAL.test(value) ? Math.trunc(n) : n),
  };
}

function body(faults: FaultSet): BodyPlan {
  return {
    // Planted (json-charset-refused): a media type compared with its parameters, as a server matching the whole header
    // string does, so a JSON body that names its charset is refused 415.
    mediaType: (type, headers) => {
      const header = headers['content-type'] ?? '';
      return faults.has('json-charset-refused') && CHARSET.test(header) ? header : type;
    },
    // Planted (json-charset-ascii-refused): UTF-8 alone is taken, though an ASCII body is the same bytes in either.
    charsets: (charsets) => (faults.has('json-charset-ascii-refused') ? new Set([...charsets].filter((c) => c !== 'us-ascii')) : charsets),
    parsing: (text) => {
      // Planted (deep-json-500): a recursive JSON reader runs out of stack on deep nesting.
      if (faults.has('deep-json-500') && nestingDepth(text) > 1000) throw new RangeError('Maximum call stack size exceeded');
    },
    parsed: (body, operationId) => {
      // Planted (null-body-500): `null` read as an object whose members are then listed.
      if (body === null && faults.has('null-body-500')) throw new TypeError('Cannot convert undefined or null to object');
      if (operationId !== 'folder.localize' || !faults.has('folder-localize-other-body')) return body;
      // Variation (folder-localize-other-body): the folder form's fields are "not shown"; this server names the channel in
      // `nodeId` (read as the file form's `channelId`) and refuses `channelId` alone: a server that takes another member.
      const { nodeId, channelId: _fileForm, ...rest } = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      if (nodeId === undefined) throw new Refusal('INVALIDDATA', 'nodeId: the channel to localize the folder in is required', 'nodeId');
      return { ...rest, channelId: nodeId };
    },
    unreadable: (refusal) => {
      // Planted (multipart-cut-taken): the parts read before a part limit or a broken part make the form, as a reader that
      // stops at its limits and goes on with what it has.
      if (!faults.has('multipart-cut-taken')) throw refusal;
    },
  };
}

function answer(faults: FaultSet, RequestRefusal: RequestRefusalClass): AnswerPlan {
  return {
    // Planted (content-type-text-plain): JSON answers are labelled Content-Type: text/plain.
    contentType: (type) => (faults.has('content-type-text-plain') ? 'text/plain; charset=utf-8' : type),
    failure: (err) => {
      // Planted: a refusal of the HTTP layer escapes as a 500 where the fault it names is on (RequestFault), and a handler's
      // not-found refusal where unknown-id-500 is (a null dereference in the handler); answered as the exception it is.
      const planted500 =
        err instanceof RequestRefusal
          ? err.fault !== undefined && faults.has(err.fault)
          : err instanceof Refusal && err.code === 'NOTFOUND' && faults.has('unknown-id-500');
      return planted500 ? new Error((err as Error).message) : err;
    },
    successBody: (body, op) => {
      // Planted (response-code-lowercase): successful answers carry responseCode "ok" instead of "OK".
      if (faults.has('response-code-lowercase')) (body.responseInfo as { responseCode: string }).responseCode = 'ok';
      // Planted (envelope-missing-messages): successful answers leave out the messages member of the envelope.
      if (faults.has('envelope-missing-messages')) delete body.messages;
      // Reference notes: "findFiles, findPages and getExternalLinks omit responseInfo on success."
      if (faults.has('success-without-responseinfo') && WITHOUT_RESPONSEINFO.has(op.id)) delete body.responseInfo;
      // Planted (shape-...-response): the answers of one response type carry their members with the wrong JSON type.
      if (faults.has(shapeFaultName(op.response.schema))) misshape(body);
      return body;
    },
    // Planted (post-answers-200): successful POSTs answer 200 instead of 201, as the deployed implementation does.
    successStatus: (status, op) => (op.method === 'POST' && faults.has('post-answers-200') ? 200 : status),
  };
}

function route(faults: FaultSet, RequestRefusal: RequestRefusalClass): RoutePlan {
  return {
    refusing: async (err, state, op, raw, handlers) => {
      // Planted (refused-create-applied): a folder.create whose body is refused for one member still creates the folder from the others.
      if (faults.has('refused-create-applied') && err instanceof RequestRefusal && err.fault === 'invalid-body-500')
        await createAnyway(state, op, raw, err.property, handlers[op.id], faults);
    },
  };
}

/** The HTTP layer's plan of a switch set; `RequestRefusal` is app.ts's class of refusals raised before any handler. */
export function app(faults: FaultSet, RequestRefusal: RequestRefusalClass): AppPlan {
  return {
    query: query(faults, RequestRefusal),
    body: body(faults),
    answer: answer(faults, RequestRefusal),
    route: route(faults, RequestRefusal),
    // Planted (no-auth-check): requests without the configured credentials are served as if authenticated.
    authToken: (token) => (faults.has('no-auth-check') ? undefined : token),
    // Variation (refusals-as-200): refusals answered with HTTP 200 and a non-OK responseCode, as the deployed implementation does.
    refusalStyle: (style) => (faults.has('refusals-as-200') ? 'body' : style),
  };
}
