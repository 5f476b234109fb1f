/**
 * Parameter coverage (issue 31 item 5): every parameter of every operation (its query parameters and
 * the top-level members of its JSON request body, from schemas/operations.json and the request
 * schemas), which of them a request sent with a value other than the default, the catalogue of the
 * parameters the contract gives no effect (parameter-effects.json) and the known gaps, parameters the
 * contract gives an effect that no test judges yet (parameter-gaps.json).
 */
import { readFileSync } from 'node:fs';
import { getSchema } from './index.ts';
import { operations, type Operation } from './operations.ts';
import type { Exchange } from './results.ts';

/** One parameter of an operation as coverage counts it. */
export interface OperationParameter {
  operation: string;
  name: string;
  in: 'query' | 'body';
  /** The catalogue's default; absent where it gives none (then any value sent counts as non-default). */
  default?: string | number | boolean;
}

/** The key of a parameter in results.json and the reports: `operation:parameter`. */
export const parameterKey = (operation: string, name: string): string => `${operation}:${name}`;

/** The JSON request body's top-level members: the request schema's properties (the contract lists "exactly those"). */
function bodyMembers(op: Operation): string[] {
  const schema = op.requestBody?.schema;
  if (!schema || !op.requestBody?.contentTypes.includes('application/json')) return [];
  return Object.keys((getSchema(schema).properties ?? {}) as object);
}

const byOperation = new Map<string, OperationParameter[]>(
  operations.map((op) => [
    op.id,
    [
      ...op.parameters
        .filter((p) => p.in === 'query')
        .map((p): OperationParameter => ({
          operation: op.id,
          name: p.name,
          in: 'query',
          ...(p.default !== undefined ? { default: p.default } : {}),
        })),
      ...bodyMembers(op).map((name): OperationParameter => ({ operation: op.id, name, in: 'body' })),
    ],
  ]),
);

/** The parameters of an operation: query parameters in catalogue order, then body members in schema order. */
export function parametersOf(operation: string): readonly OperationParameter[] {
  return byOperation.get(operation) ?? [];
}

/** Every parameter of every operation, in catalogue order. */
export function allParameters(): OperationParameter[] {
  return [...byOperation.values()].flat();
}

/** Whether a value sent (as text for a query value, as JSON for a body member) differs from the parameter's default. */
function nonDefault(p: OperationParameter, value: unknown): boolean {
  if (p.default === undefined) return true;
  return typeof value === 'string' ? value !== String(p.default) : value !== p.default;
}

/**
 * The parameters of an operation a request sent with a value other than its default (any value when it
 * has none): query parameters by name (a repeated one counts when any of its values differs), JSON body
 * members by their presence.
 */
export function sentParameters(exchange: Exchange, operation: string): string[] {
  const params = parametersOf(operation);
  if (!params.length) return [];
  const sent = new Set<string>();
  const byName = new Map(params.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  const q = exchange.request.url.indexOf('?');
  if (q >= 0 && byName.size) {
    for (const [name, value] of new URLSearchParams(exchange.request.url.slice(q + 1))) {
      const p = byName.get(name);
      if (p && nonDefault(p, value)) sent.add(name);
    }
  }
  const body = exchange.request.body;
  if (body?.kind === 'json' && params.some((p) => p.in === 'body')) {
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      // A malformed body (NEG-01's probes) sends no member.
    }
    if (typeof json === 'object' && json !== null && !Array.isArray(json))
      for (const p of params) if (p.in === 'body' && Object.hasOwn(json, p.name)) sent.add(p.name);
  }
  return [...sent];
}

/** How the contract leaves a parameter without an effect a test could judge. */
export type NoEffect = 'none' | 'not shown';

/** One entry of the no-effect catalogue: the parameter, what the contract gives it, and where it says so. */
export interface ParameterEffect {
  operation: string;
  parameter: string;
  /** `none`: the contract gives it no effect on the answer or the state; `not shown`: its effect is not stated. */
  effect: NoEffect;
  section: string;
  /** The contract's own words that leave it without an effect. */
  sentence: string;
  /** How we read the sentence, where the quote alone does not say it. */
  why?: string;
}

/** A parameter the contract gives an effect that no test judges yet, and why: accepted by the project's tests until a check judges it. */
export interface ParameterGap {
  operation: string;
  parameter: string;
  why: string;
}

const readJson = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as T;

/** The parameters the contract gives no effect (schemas/parameter-effects.json). */
export const parameterEffects: readonly ParameterEffect[] = readJson<{ parameters: ParameterEffect[] }>(
  './parameter-effects.json',
).parameters;

/** The known gaps (schemas/parameter-gaps.json, one line per `operation:parameter`); the goal is an empty list. */
export const parameterGaps: readonly ParameterGap[] = Object.entries(
  readJson<{ gaps: Record<string, string> }>('./parameter-gaps.json').gaps,
).map(([key, why]) => ({ operation: key.slice(0, key.indexOf(':')), parameter: key.slice(key.indexOf(':') + 1), why }));
