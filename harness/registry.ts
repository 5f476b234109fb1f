/**
 * The check registry: every rule that one answer can refute, registered under its requirement with the
 * contract sentence it enforces (harness/rules/). The suites (through ConformanceContext.send, on every
 * answer they receive), the `proxy` command and `validate --har` all judge with it, so a rule is
 * written once and reads the same wherever it finds something. What needs state (the model, command
 * sequences, relations between answers) stays in the suites, built on top.
 */
import type { Operation } from '../schemas/operations.ts';
import { parameterKey, sentParameters } from '../schemas/parameters.ts';
import { isRefusal, type Finding } from './checks.ts';
import { judge, operationOfExchange, type Judgement } from './judge.ts';
import { isRecord, ListParams, listingOf, ruleFinding, type ListAnswer, type Rule } from './rules/answer.ts';
import { FILTER_RULES } from './rules/filters.ts';
import { ORDERING_RULES } from './rules/ordering.ts';
import { PAGING_RULES } from './rules/paging.ts';
import { WASTEBIN_RULES } from './rules/wastebin.ts';
import type { Exchange } from './transport.ts';

/** Every registered rule, by area. */
export const RULES: readonly Rule[] = [...PAGING_RULES, ...ORDERING_RULES, ...WASTEBIN_RULES, ...FILTER_RULES];

/** What the registry found in one exchange, and which requirements its rules judged (found or not). */
export interface RuleResult {
  findings: Finding[];
  checked: string[];
  /** The parameters (`operation:parameter`) the request sent with a non-default value whose effect a rule that applied could show, with the rule's requirement. */
  parameters: { requirement: string; parameter: string }[];
}

const NOTHING: RuleResult = { findings: [], checked: [], parameters: [] };

/**
 * A served listing answer as the rules read it; undefined for a refusal, a body that is not a JSON
 * record, an operation that lists nothing pageable, or a tree (tree=true nests sub-folders under their
 * parents: the list is a tree, not the slice the rules speak of). Shapes are the judge's.
 */
export function listAnswer(exchange: Exchange, operation: string): ListAnswer | undefined {
  const spec = listingOf(operation);
  const res = exchange.response;
  if (!spec || !res || res.status >= 400 || res.truncated || res.jsonError !== undefined || isRefusal(exchange) || !isRecord(res.json))
    return undefined;
  // An absent list is an empty one (harness/records.ts): a server may leave an empty array out (contract 2.1).
  const list = res.json[spec.member] ?? [];
  const params = ListParams.of(exchange, spec);
  // A usage list asked for counts only (`files=false`, `folders=false`: "false returns counts only") holds no list to judge.
  if (!Array.isArray(list) || !params || params.bool('tree') === true || params.bool(spec.member) === false) return undefined;
  const numItems = res.json.numItems;
  return {
    op: operation,
    spec,
    exchange,
    params,
    length: list.length,
    records: list.filter(isRecord),
    ...(typeof numItems === 'number' && Number.isInteger(numItems) && numItems >= 0 ? { numItems } : {}),
    ...(typeof res.json.hasMoreItems === 'boolean' ? { hasMoreItems: res.json.hasMoreItems } : {}),
  };
}

/** Runs every registered rule over one exchange of an operation: each finding names its rule's requirement. */
export function checkExchange(exchange: Exchange, operation: string): RuleResult {
  const a = listAnswer(exchange, operation);
  if (!a) return NOTHING;
  const findings: Finding[] = [];
  const checked = new Set<string>();
  const parameters = new Map<string, { requirement: string; parameter: string }>();
  // Sent non-default parameters by the query name rules use, to the name the operation takes (a JSON body's member).
  const sent = new Map(sentParameters(exchange, operation).map((name) => [a.spec.body?.get(name) ?? name, name]));
  for (const rule of RULES) {
    if (!rule.applies(a)) continue;
    checked.add(rule.requirement);
    for (const p of rule.parameters) {
      if (!sent.has(p) || !(rule.shows?.(a, p) ?? true)) continue;
      const parameter = parameterKey(operation, sent.get(p)!);
      parameters.set(`${rule.requirement} ${parameter}`, { requirement: rule.requirement, parameter });
    }
    for (const message of rule.refute(a)) findings.push(ruleFinding(rule, a, message));
  }
  return { findings, checked: [...checked].sort(), parameters: [...parameters.values()] };
}

/** What the one judge and the registry made of an exchange someone else sent. */
export interface Observation {
  /** The operation of the contract the request belongs to. */
  operation: Operation;
  /** True when the judge validated the body against a schema. */
  validated: boolean;
  /** The judge's findings: status, content type, envelope, schema, unknown members, ENV-08. */
  judged: Finding[];
  /** The registry's findings. */
  checks: Finding[];
  /** Both, the judge's first. */
  findings: Finding[];
  /** Requirements whose rules applied to the exchange, whether they found something or not. */
  checked: string[];
}

/**
 * Judges an exchange the suite did not send (the proxy's traffic, a HAR capture): the one judge, then
 * the registry. Undefined for a request that is no operation of the contract (a page's assets, another
 * API under the same host): the contract says nothing about those answers.
 */
export function observe(exchange: Exchange, options: { strict?: boolean } = {}): Observation | undefined {
  const operation = operationOfExchange(exchange);
  if (!operation) return undefined;
  const judged: Judgement = judge(exchange, { operation: operation.id, strict: options.strict ?? false });
  const own = checkExchange(exchange, operation.id);
  return {
    operation,
    validated: judged.validated,
    judged: judged.findings,
    checks: own.findings,
    findings: [...judged.findings, ...own.findings],
    checked: own.checked,
  };
}

/** A finding as one line, the same in the proxy's live output and in `validate --har`: severity, requirement, check, message. */
export function findingLine(f: Finding): string {
  return `${f.severity} ${f.requirement} ${f.check}: ${f.message}`;
}

/** The exchange of a finding as one line: `METHOD URL -> status` (or the transport error). */
export function exchangeLine(exchange: Exchange): string {
  const outcome = exchange.response ? String(exchange.response.status) : (exchange.error?.code ?? 'no answer');
  return `${exchange.request.method} ${exchange.request.url} -> ${outcome}`;
}
