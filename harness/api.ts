/**
 * The suites' typed view of the API: `call(operationId, ...)` fills the path template of the
 * catalogue, sends the request and returns the body typed by the operation's response schema. A call
 * is a step the test relies on: if it is refused or unanswered, the test cannot judge, and says so.
 */
import { getOperation } from '../schemas/operations.ts';
import type { ResponseOf } from '../schemas/types.ts';
import { isRefusal, responseCode, type Finding } from './checks.ts';
import type { Exchange, RequestSpec } from './transport.ts';

/** An operation id of the catalogue. */
export type OperationId = keyof ResponseOf;

/** What a call sends besides the operation: path parameters by name, and the request parts. */
export interface CallSpec {
  path?: Record<string, string | number>;
  query?: RequestSpec['query'];
  json?: unknown;
  multipart?: RequestSpec['multipart'];
  raw?: RequestSpec['raw'];
}

/** The outcome of a call: the exchange, and the typed body when the call succeeded. */
export interface CallResult<T> {
  exchange: Exchange;
  body: T | undefined;
  /** Why the call did not succeed (refused, unanswered, not JSON); undefined on success. */
  problem?: string;
}

/** Builds the request of an operation: its method and its path template filled with the given values. */
export function requestOf(operationId: OperationId, spec: CallSpec = {}): RequestSpec {
  const op = getOperation(operationId);
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = spec.path?.[name];
    if (value === undefined) throw new Error(`${operationId}: path parameter ${name} missing`);
    return encodeURIComponent(String(value));
  });
  return { method: op.method, path, query: spec.query, json: spec.json, multipart: spec.multipart, raw: spec.raw };
}

/** Why an exchange is not a usable success: unanswered, a 5xx, a refusal or a body that is not JSON. */
export function problemOf(exchange: Exchange): string | undefined {
  if (exchange.error) return `no answer (${exchange.error.code}: ${exchange.error.message})`;
  const res = exchange.response!;
  if (res.truncated) return TOO_LARGE;
  if (res.jsonError !== undefined) return `status ${res.status} with a body that is not JSON`;
  if (isRefusal(exchange)) {
    const info = (res.json as { responseInfo?: { responseMessage?: unknown } }).responseInfo;
    return (
      `refused: status ${res.status}, responseCode ${JSON.stringify(responseCode(exchange))}` +
      `${info?.responseMessage ? `, "${String(info.responseMessage)}"` : ''}`
    );
  }
  return undefined;
}

/** Why an answer over the run's size cap is not judged: the cap's, not the server's (transport.ts cuts the answer). */
export const TOO_LARGE = "not judged: the answer is larger than the run's answer size cap (--max-body)";

/**
 * A step the test relies on (a setup request, a shared sample) failed: the test cannot judge its
 * requirement. The one setup error of the harness; the test wrapper turns it into a `step` finding
 * with the exchange that shows why.
 */
export class SetupError extends Error {
  override name = 'SetupError';
  constructor(
    message: string,
    readonly exchange?: Exchange,
    /**
     * The open choice (schemas/open-choices.json) under which the target refused the step: an answer the contract
     * allows, after which the test has nothing to judge, not a failure.
     */
    readonly choice?: string,
  ) {
    super(message);
  }

  /** True when the step's answer was only too large to read: the test could not judge, and the server is not at fault. */
  get unjudged(): boolean {
    return this.exchange?.response?.truncated === true;
  }
}

/** A finding for a step the test relied on and that failed: the test cannot judge its requirement. */
export function stepFinding(requirement: string, operationId: string, exchange: Exchange, problem: string): Finding {
  return {
    requirement,
    check: 'step',
    // An answer over the size cap tells nothing against the server: the test says it could not judge.
    severity: exchange.response?.truncated ? 'warning' : 'error',
    message: `${operationId} (a step this test relies on) failed: ${problem}`,
    exchange,
  };
}

/**
 * The id of a created object as a number, also when a target sends it as a numeric string: setup must
 * go on so that the requirement about id types (ENV-07) can judge it, instead of the run stopping first.
 */
export function idOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}
