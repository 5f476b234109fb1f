/**
 * Checks: small pure functions of an exchange (and what the suite expected) returning findings.
 * They never throw and never send anything; suites decide what to send and which checks apply.
 */
import type { Exchange } from './transport.ts';
import type { Severity } from '../schemas/results.ts';

/** One failed (or warned) check, with the exchange that shows it. */
export interface Finding {
  requirement: string;
  /** Name of the check, e.g. `status`, `schema`, `refusal`, `model`. */
  check: string;
  severity: Severity;
  message: string;
  exchange?: Exchange;
  /** What makes two findings one deviation (the judge's: operation, schema location, value), for reporting it once per test. */
  key?: string;
}

/** Builds a finding: the one way suites, steps and the judge make them. */
export function finding(
  requirement: string,
  check: string,
  message: string,
  exchange?: Exchange,
  severity: Finding['severity'] = 'error',
): Finding {
  return { requirement, check, severity, message, exchange };
}

/** How much of an answer's text a reported finding keeps. */
const MAX_REPORTED_TEXT = 4000;

/** The exchange as a reported finding carries it (in the suite's findings and the proxy's alike): the parsed body left out, long text cut. */
export function reportedExchange(exchange: Exchange): Exchange {
  if (!exchange.response) return exchange;
  const { json: _parsed, ...response } = exchange.response;
  const cut = response.text.length > MAX_REPORTED_TEXT;
  return {
    ...exchange,
    response: {
      ...response,
      text: cut ? `${response.text.slice(0, MAX_REPORTED_TEXT)}…` : response.text,
      truncated: response.truncated || cut,
    },
  };
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

/** NEG-06: a request without the configured credentials "is refused with 401/403 or AUTHREQUIRED/PERMISSION." */
export function refusesAccess(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  const code = responseCode(exchange);
  return status === 401 || status === 403 || code === 'AUTHREQUIRED' || code === 'PERMISSION';
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
  if (status !== undefined && status >= 500)
    return [finding(requirement, 'no5xx', `answered ${status}: a server error, never acceptable`, exchange)];
  return checkAnswered(exchange, requirement);
}

/**
 * A valid request of an operation was served: "a valid request gets the success status ..., a JSON
 * body" (OP-<id>). Only that it was answered and not refused: the judge has judged status, content
 * type, envelope and schema of every answer already.
 */
export function checkSucceeded(exchange: Exchange, requirement: string): Finding[] {
  const answered = checkAnswered(exchange, requirement);
  if (answered.length || !exchange.response) return answered;
  const { status, json, jsonError } = exchange.response;
  if (status >= 500 || jsonError !== undefined) return []; // ENV-08 and ENV-01, found by the judge
  if (!isRefusal(exchange)) return [];
  const message = (json as { responseInfo?: { responseMessage?: unknown } } | null)?.responseInfo?.responseMessage;
  return [
    finding(
      requirement,
      'refused',
      `a valid request was refused: status ${status}, responseCode ${JSON.stringify(responseCode(exchange))}` +
        `${message ? `, "${String(message)}"` : ''}`,
      exchange,
    ),
  ];
}

/**
 * A request the contract (or robustness) says must be refused: status >= 400 or a non-OK code, and
 * never a 5xx. `what` says why it should have been refused, for the message.
 */
export function checkRefused(exchange: Exchange, requirement: string, what: string): Finding[] {
  const answered = checkNo5xx(exchange, requirement);
  if (answered.length) return answered;
  if (!isRefusal(exchange))
    return [
      finding(
        requirement,
        'refusal',
        `${what}, but the request succeeded (status ${exchange.response!.status}, responseCode ${JSON.stringify(responseCode(exchange))})`,
        exchange,
      ),
    ];
  return [];
}

/** A request that may be refused or served (robustness: "refused or ignored") but never with a 5xx or a non-JSON answer. */
export function checkHandled(exchange: Exchange, requirement: string): Finding[] {
  const answered = checkNo5xx(exchange, requirement);
  if (answered.length) return answered;
  if (exchange.response!.jsonError !== undefined)
    return [finding(requirement, 'json', `answered ${exchange.response!.status} with a body that is not JSON`, exchange)];
  return [];
}
