/**
 * The one judge. Every answer the suite receives goes through `judge`, whoever sent the request (a
 * conformance test, a step, a model command, the operation sweep, a bad-input probe, `validate
 * --har`): status class, content type, envelope, the operation's response schema for a success or
 * the envelope for a refusal, the unknown-member walk, and ENV-08 for a 5xx. Tests add their own
 * semantic findings on top; none of them judges the shape of an answer again.
 */
import { findOperation, getOperation, type Operation } from '../schemas/operations.ts';
import { headerValue, validateBody, validateResponse, walkAnnotations, type SchemaFinding } from '../schemas/validate.ts';
import { TOO_LARGE } from './api.ts';
import { finding, isRefusal, type Finding } from './checks.ts';
import type { Exchange } from './transport.ts';

/** What the judge made of one exchange. */
export interface Judgement {
  /** The operation of the contract the request belongs to; undefined for a path the contract does not have. */
  operation?: Operation;
  findings: Finding[];
  /** True when the body was judged against a schema (every JSON answer below 500). */
  validated: boolean;
}

/** Options of the judge. */
export interface JudgeOptions {
  /** The operation, when the sender knows it; otherwise found from the method, path and body form. */
  operation?: string;
  /** Unknown members are errors (`--strict`), not warnings. */
  strict?: boolean;
}

/**
 * The conventions that have tests of their own (envelope, responseCode, exact success status, content
 * type). Their findings fail those tests and the operation's own test; elsewhere they are warnings, so
 * that one deviation of a server fails the tests that name it instead of every test that meets it.
 */
export const CONVENTIONS: ReadonlySet<string> = new Set(['ENV-01', 'ENV-02', 'ENV-03', 'ENV-04']);

/** The media type a recorded request was sent with: multipart and JSON bodies are known by their form. */
function requestContentType(exchange: Exchange): string | undefined {
  const body = exchange.request.body;
  if (body?.kind === 'json') return 'application/json';
  if (body?.kind === 'multipart') return 'multipart/form-data';
  if (body?.kind === 'text' || body?.kind === 'binary') return body.contentType;
  return headerValue(exchange.request.headers, 'content-type');
}

/**
 * The operation of a method and URL. The base URL of a recorded exchange is not always known (a HAR
 * capture, a proxy behind a path prefix), so each path suffix is tried, longest first.
 */
export function operationOfUrl(method: string, url: string, contentType?: string): Operation | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const segments = pathname.split('/').filter(Boolean);
  for (let i = 0; i < segments.length; i++) {
    const op = findOperation(method, `/${segments.slice(i).join('/')}`, contentType);
    if (op) return op;
  }
  return undefined;
}

/** The operation an exchange belongs to: the sender's word, else its method, path and body form. */
export function operationOfExchange(exchange: Exchange, operation?: string): Operation | undefined {
  if (operation) return getOperation(operation);
  return operationOfUrl(exchange.request.method, exchange.request.url, requestContentType(exchange));
}

/** A schema finding as the suite reports it: check `schema` (or the convention's keyword), naming the operation and the JSON path. */
function fromSchema(f: SchemaFinding, label: string, exchange: Exchange): Finding {
  const check = f.keyword === 'status' || f.keyword === 'contentType' || f.keyword === 'responseCode' ? f.keyword : 'schema';
  // Array positions and map keys vary from answer to answer; the schema location and the member name do not.
  const member =
    f.keyword === 'unknownMember'
      ? f.instancePath.replace(/^.*\//, '')
      : f.keyword === 'unseenValue'
        ? f.message.replace(/^.* has the value (".*?"), .*$/, '$1')
        : '';
  return {
    ...finding(f.requirement, check, `${label}: ${f.message}${f.schemaPath ? ` (${f.schemaPath})` : ''}`, exchange, f.severity),
    key: `${f.requirement}|${label}|${f.keyword}|${f.schemaPath}|${member}`,
  };
}

/** Judges one exchange once: every finding its answer shows, whatever the test wanted of it. */
export function judge(exchange: Exchange, options: JudgeOptions = {}): Judgement {
  const operation = operationOfExchange(exchange, options.operation);
  const res = exchange.response;
  if (!res) return { operation, findings: [], validated: false };
  const label = operation ? operation.id : `${exchange.request.method} ${new URL(exchange.request.url).pathname}`;
  if (res.status >= 500) {
    // ENV-08: "no request the suite sends, valid or not, is answered with a 5xx status."
    return {
      operation,
      findings: [
        finding('ENV-08', 'no5xx', `${label} answered ${res.status}: a server error, never an acceptable answer to any request`, exchange),
      ],
      validated: false,
    };
  }
  if (res.truncated)
    // The cap is the run's (--max-body), not the contract's: an answer over it is not judged, and no fault.
    return {
      operation,
      findings: [finding(operation ? `OP-${operation.id}` : 'ENV-01', 'bodySize', `${label}: ${TOO_LARGE}`, exchange, 'warning')],
      validated: false,
    };
  if (res.jsonError !== undefined) {
    // Contract 7: "Every response carries `responseInfo` ... and `messages`", which a body that is not JSON cannot.
    return {
      operation,
      findings: [finding('ENV-01', 'json', `${label}: status ${res.status} with a body that is not JSON (${res.jsonError})`, exchange)],
      validated: false,
    };
  }
  const strict = { strict: options.strict ?? false };
  let found: SchemaFinding[];
  if (isRefusal(exchange) || !operation) {
    // A refusal's body is not shown beyond the envelope (contract 7); neither is an answer to a path the
    // contract lacks. Members the operation's answer names (a failed upload's `success`) are not unknown there.
    found = validateBody('responses/Envelope.json', res.json, 'ENV-01').filter((f) => f.severity === 'error');
    if (operation) {
      for (const note of walkAnnotations(operation.response.schema, res.json)) {
        if (note.keyword === 'unknownMember')
          found.push({ requirement: `OP-${operation.id}`, severity: options.strict ? 'error' : 'warning', ...note });
      }
    }
    const type = headerValue(res.headers, 'content-type');
    // ENV-04: "responses to Accept: application/json carry Content-Type: application/json."
    if (!type || !/^application\/json\s*(;|$)/i.test(type)) {
      found.push({
        requirement: 'ENV-04',
        severity: 'error',
        instancePath: '',
        schemaPath: '',
        keyword: 'contentType',
        message: `Content-Type is ${type ? `"${type}"` : 'missing'}, expected application/json`,
      });
    }
  } else {
    found = validateResponse(operation.id, { status: res.status, headers: res.headers, body: res.json }, strict);
  }
  return { operation, findings: found.map((f) => fromSchema(f, label, exchange)), validated: true };
}

/**
 * The severity a judge finding has in a test of `requirement`: a convention's finding is an error in
 * the convention's own tests and the operation's test, a warning elsewhere; every other finding
 * (a record's shape, ENV-07 types, ENV-08) fails whichever test received the answer.
 */
export function severityIn(f: Finding, requirement: string, operation: string | undefined): Finding['severity'] {
  // Only an error depends on the test: a warning or a note weighs the same in every test.
  if (f.severity !== 'error' || !CONVENTIONS.has(f.requirement)) return f.severity;
  return requirement === f.requirement || (operation !== undefined && requirement === `OP-${operation}`) ? 'error' : 'warning';
}
