/**
 * Checks: small pure functions of an exchange (and what the suite expected) returning findings.
 * They never throw and never send anything; suites decide what to send and which checks apply.
 */
import { validateResponse } from '../schemas/validate.ts';
import type { Exchange } from './transport.ts';

/** One failed (or warned) check, with the exchange that shows it. */
export interface Finding {
  requirement: string;
  /** Name of the check, e.g. `status`, `schema`, `refusal`, `model`. */
  check: string;
  severity: 'error' | 'warning';
  message: string;
  exchange?: Exchange;
}

/** Options that change how strict the response checks are. */
export interface CheckOptions {
  /** Unknown members become errors instead of warnings (`--strict`). */
  strict?: boolean;
}

function finding(requirement: string, check: string, message: string, exchange?: Exchange, severity: Finding['severity'] = 'error'): Finding {
  return { requirement, check, severity, message, exchange };
}

/** The responseCode of a JSON answer, if it has one. */
export function responseCode(exchange: Exchange): unknown {
  const json = exchange.response?.json as { responseInfo?: { responseCode?: unknown } } | undefined;
  return json?.responseInfo?.responseCode;
}

/** Requirements catalogue: "Refusal ... HTTP status >= 400, or responseInfo.responseCode other than OK." */
export function isRefusal(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  if (status === undefined) return false;
  return status >= 400 || (responseCode(exchange) !== undefined && responseCode(exchange) !== 'OK');
}

/** A transport failure (timeout, reset, refused connection) is a finding of the test that sent the request. */
export function checkAnswered(exchange: Exchange, requirement: string): Finding[] {
  if (!exchange.error) return [];
  const what = exchange.error.code === 'TIMEOUT' ? 'timed out' : `failed (${exchange.error.code})`;
  return [finding(requirement, 'transport', `the request ${what}: ${exchange.error.message}`, exchange)];
}

/** "A 5xx status is never an acceptable refusal of a client mistake." */
export function checkNo5xx(exchange: Exchange, requirement: string): Finding[] {
  const status = exchange.response?.status;
  if (status !== undefined && status >= 500) return [finding(requirement, 'no5xx', `answered ${status}: a server error, never acceptable`, exchange)];
  return checkAnswered(exchange, requirement);
}

/**
 * A valid request of an operation succeeded as the contract says: "a valid request gets the success
 * status (200 for GET, 201 for POST), a JSON body, and that body validates against the operation's
 * response schema". Findings carry ENV-xx where the envelope or conventions are at fault.
 */
export function checkSuccess(exchange: Exchange, operationId: string, options: CheckOptions = {}): Finding[] {
  const requirement = `OP-${operationId}`;
  const transport = checkAnswered(exchange, requirement);
  if (transport.length || !exchange.response) return transport;
  const { status, headers, json, jsonError, truncated } = exchange.response;
  if (truncated) return [finding(requirement, 'bodySize', 'the response body exceeded the size cap and was cut', exchange)];
  if (jsonError !== undefined) {
    return [finding('ENV-01', 'json', `the body is not JSON (${jsonError}); status ${status}`, exchange)];
  }
  if (status >= 500) return checkNo5xx(exchange, requirement);
  if (isRefusal(exchange)) {
    const message = (json as { responseInfo?: { responseMessage?: unknown } } | null)?.responseInfo?.responseMessage;
    return [finding(requirement, 'refused', `a valid request was refused: status ${status}, responseCode ${JSON.stringify(responseCode(exchange))}${message ? `, "${String(message)}"` : ''}`, exchange)];
  }
  return validateResponse(operationId, { status, headers, body: json }, options).map((f) =>
    finding(f.requirement, f.keyword === 'status' || f.keyword === 'contentType' || f.keyword === 'responseCode' ? f.keyword : 'schema', `${f.message}${f.schemaPath ? ` (${f.schemaPath})` : ''}`, exchange, f.severity),
  );
}

/**
 * A request the contract (or robustness) says must be refused: status >= 400 or a non-OK code, and
 * never a 5xx. `what` says why it should have been refused, for the message.
 */
export function checkRefused(exchange: Exchange, requirement: string, what: string): Finding[] {
  const answered = checkNo5xx(exchange, requirement);
  if (answered.length) return answered;
  if (!isRefusal(exchange)) return [finding(requirement, 'refusal', `${what}, but the request succeeded (status ${exchange.response!.status}, responseCode ${JSON.stringify(responseCode(exchange))})`, exchange)];
  return [];
}

/** A request that may be refused or served (robustness: "refused or ignored") but never with a 5xx or a non-JSON answer. */
export function checkHandled(exchange: Exchange, requirement: string): Finding[] {
  const answered = checkNo5xx(exchange, requirement);
  if (answered.length) return answered;
  if (exchange.response!.jsonError !== undefined) return [finding(requirement, 'json', `answered ${exchange.response!.status} with a body that is not JSON`, exchange)];
  return [];
}
