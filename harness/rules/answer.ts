/**
 * What a registered rule sees of one listing answer, and what it knows of the operation: both read
 * from schemas/operations.json and the response schemas, never from a table of our own, so that an
 * operation added to the catalogue is judged by every rule whose parameters it takes.
 */
import { getSchema } from '../../schemas/index.ts';
import { operations, type Operation } from '../../schemas/operations.ts';
import { finding, type Finding } from '../checks.ts';
import { brief } from '../oracles.ts';
import type { Slice } from '../slices.ts';
import type { Exchange } from '../transport.ts';

/** A listed record as it came: only the members a rule reads are looked at, each by its JSON type. */
export type Rec = Record<string, unknown>;

/**
 * How a listing pages: Group P (`page`, `pageSize`), Group L (`skipCount`, `maxItems`, default all),
 * the find operations (their own `skipCount` and `maxItems`, default 100: contract 8) and the usage
 * lists (their own `skipCount` and `maxItems`, default all: USE-03 "obey Group L paging").
 */
export type Paging = 'P' | 'L' | 'find' | 'usage';

/** What the catalogue says of a listing operation. */
export interface ListingSpec {
  /** The response member holding the list (the array of records of the response schema). */
  member: string;
  paging: Paging;
  /** The query parameters it takes (for a JSON-body listing, those its body members stand for). */
  parameters: ReadonlySet<string>;
  /** The path parameter naming the folder listed, if the folder is in the path. */
  folderPath?: string;
  /** For a listing whose parameters come as a JSON body: body member to query parameter name. */
  body?: ReadonlyMap<string, string>;
}

/** The array member of a response schema whose items are records of the contract. */
function listMember(op: Operation): string | undefined {
  const props = (getSchema(op.response.schema).properties ?? {}) as Record<string, { type?: string; items?: { $ref?: string } }>;
  return Object.keys(props).find((m) => props[m]!.type === 'array' && /\/records\//.test(props[m]!.items?.$ref ?? ''));
}

/** Every query parameter name of the catalogue, lower-cased, for reading JSON bodies under the names the query form uses. */
const QUERY_NAMES = new Map(
  operations.flatMap((op) => op.parameters.filter((p) => p.in === 'query').map((p) => [p.name.toLowerCase(), p.name])),
);

/** The listing spec of an operation, derived from its catalogue entry; undefined for an operation that does not page a list. */
function deriveListing(op: Operation): ListingSpec | undefined {
  const member = listMember(op);
  if (!member) return undefined;
  const byName = new Map(op.parameters.map((p) => [p.name, p]));
  let body: Map<string, string> | undefined;
  if (op.requestBody?.schema && op.requestBody.contentTypes.includes('application/json')) {
    const props = Object.keys((getSchema(op.requestBody.schema).properties ?? {}) as object);
    body = new Map(props.flatMap((m) => (QUERY_NAMES.has(m.toLowerCase()) ? [[m, QUERY_NAMES.get(m.toLowerCase())!]] : [])));
  }
  const names = new Set([...byName.keys(), ...(body?.values() ?? [])]);
  let paging: Paging | undefined;
  if (byName.get('pageSize')?.group === 'P') paging = 'P';
  else if (byName.get('skipCount')?.group === 'L' || (body && names.has('skipCount'))) paging = 'L';
  else if (byName.has('skipCount')) paging = byName.get('maxItems')?.default === 100 ? 'find' : 'usage';
  if (!paging) return undefined;
  const folderPath = /\{(\w+)\}/.exec(op.path)?.[1];
  return {
    member,
    paging,
    parameters: names,
    ...(folderPath ? { folderPath } : {}),
    ...(body ? { body } : {}),
  };
}

const LISTINGS = new Map(
  operations.flatMap((op) => {
    const spec = deriveListing(op);
    return spec ? [[op.id, spec] as const] : [];
  }),
);

/** The listing spec of an operation (undefined for one that lists nothing pageable). */
export function listingOf(operation: string): ListingSpec | undefined {
  return LISTINGS.get(operation);
}

/** The ids of every listing operation of the catalogue. */
export function listingOperations(): string[] {
  return [...LISTINGS.keys()];
}

export const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A member of a nested record, e.g. `template.name`, when both levels are there. */
export const nested = (v: unknown, member: string): unknown => (isRecord(v) ? v[member] : undefined);

/**
 * The parameters of a listing request, from its query or its JSON body. A parameter given twice, or
 * with a value of the wrong form, reads as `null`: not judged, since what a server makes of it is
 * robustness (NEG-02), not the rule a check enforces.
 */
export class ListParams {
  private constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  /** The parameters of an exchange's request; undefined when its body cannot be read. */
  static of(exchange: Exchange, spec: ListingSpec): ListParams | undefined {
    const values = new Map<string, string[]>();
    const add = (name: string, value: string) => values.set(name, [...(values.get(name) ?? []), value]);
    if (spec.body) {
      const body = exchange.request.body;
      if (body?.kind !== 'json') return undefined;
      let json: unknown;
      try {
        json = JSON.parse(body.text);
      } catch {
        return undefined;
      }
      if (!isRecord(json)) return undefined;
      for (const [member, name] of spec.body) {
        const v = json[member];
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') add(name, String(v));
      }
      return new ListParams(values);
    }
    let url: URL;
    try {
      url = new URL(exchange.request.url);
    } catch {
      return undefined;
    }
    for (const [name, value] of url.searchParams) add(name, value);
    return new ListParams(values);
  }

  /** Parameters from a plain map (tests). */
  static from(query: Record<string, string | readonly string[]>): ListParams {
    return new ListParams(new Map(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? [v] : [...v]])));
  }

  /** The one value of a parameter; undefined when absent, null when given more than once. */
  text(name: string): string | undefined | null {
    const v = this.values.get(name);
    if (!v) return undefined;
    return v.length === 1 ? v[0]! : null;
  }

  /** An integer parameter; null when repeated or not an integer. */
  int(name: string): number | undefined | null {
    const v = this.text(name);
    if (v === undefined || v === null) return v;
    return /^-?\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : null;
  }

  /** A boolean parameter (`true` or `false`); null for any other spelling. */
  bool(name: string): boolean | undefined | null {
    const v = this.text(name);
    if (v === undefined || v === null) return v;
    return v === 'true' ? true : v === 'false' ? false : null;
  }

  /** A multivalued integer parameter (contract 2.1: "may be given several times"); null when a value is not an integer. */
  ints(name: string): number[] | undefined | null {
    const v = this.values.get(name);
    if (!v) return undefined;
    return v.every((x) => /^-?\d+$/.test(x)) ? v.map(Number) : null;
  }
}

/** One served listing answer, as every rule reads it. */
export interface ListAnswer {
  op: string;
  spec: ListingSpec;
  exchange: Exchange;
  params: ListParams;
  /** The length of the list member as sent, and its elements that are records. */
  length: number;
  records: Rec[];
  numItems?: number;
  hasMoreItems?: boolean;
}

/**
 * One rule one listing answer can refute, registered under its requirement with the contract sentence
 * it enforces. `applies` says whether the answer can show the rule at all (an answer it cannot show is
 * not counted as judged); `refute` returns what is wrong, one message per deviation, or none.
 */
export interface Rule {
  requirement: string;
  /** The finding's check name: the parameter or property judged (`slice`, `order`, `online`). */
  check: string;
  /** The contract's words, as the requirement catalogue or the contract's parameter tables give them. */
  sentence: string;
  /**
   * The query parameters whose effect the rule judges (a JSON-body listing's members stand for them):
   * an answer it applies to whose request sent one of them with a non-default value judged that parameter.
   */
  parameters: readonly string[];
  /**
   * Whether this answer could show the effect of one of those parameters: what a server that ignored it
   * would have answered is something the rule refutes. Absent: whenever the rule applies.
   */
  shows?(a: ListAnswer, parameter: string): boolean;
  applies(a: ListAnswer): boolean;
  refute(a: ListAnswer): string[];
}

/** A rule's finding on an answer: one deviation per operation and check, whatever the values (the key leaves them out). */
export function ruleFinding(rule: Rule, a: ListAnswer, message: string): Finding {
  return {
    ...finding(rule.requirement, rule.check, `${a.op}: ${message}`, a.exchange),
    key: `${rule.requirement}|${a.op}|${rule.check}`,
  };
}

/** Record ids for messages. */
export const idsOf = (records: readonly Rec[]): string => brief(records.map((r) => r.id ?? r.name ?? '?'));

/** The positions a slice covers, for messages: "items 3..5 (3 items)", "no items". */
export function positions(slice: Slice): string {
  const n = slice.end - slice.start;
  if (n === 0) return 'no items';
  return n === 1 ? `item ${slice.end} (1 item)` : `items ${slice.start + 1}..${slice.end} (${n} items)`;
}
