/**
 * Harmless variations: ways a correct server may differ from the reference server's defaults where
 * the contract leaves room. They are NOT faults: the suite must pass every one of them
 * (`cms-conformance prove` checks it). Each names the requirements its difference touches, which are
 * the tests that could wrongly fail on it.
 */

/** A harmless variation of the reference server. */
export interface VariationDef<Name extends string = VariationName> {
  name: Name;
  /** Requirement ids or prefixes whose tests meet the difference. */
  touches: string[];
  description: string;
}

/** Returns the variation definitions as given, typed with their literal names: VariationName derives from them. */
function variationDefs<Name extends string>(defs: VariationDef<Name>[]): readonly VariationDef<Name>[] {
  return defs;
}

/** Every harmless variation. */
export const variations = variationDefs([
  {
    name: 'refusals-as-200',
    touches: ['NEG', 'DEL', 'FLD-02', 'FIL-03', 'UPL', 'WST-06', 'MCH'],
    description: 'refusals answered with HTTP 200 and a non-OK responseCode, as the deployed implementation does',
  },
  {
    name: 'extra-members',
    touches: ['OP', 'ENV'],
    description: 'every object of every answer carries members the contract does not name (@class, x-vendor)',
  },
  {
    name: 'reordered-members',
    touches: ['OP', 'ENV', 'PGE'],
    description: 'the members of every object come in reverse order',
  },
  {
    name: 'deleted-at-zero',
    touches: ['OP', 'WST', 'DEL', 'ENV'],
    description: 'live items carry deleted: {at: 0} without by, as the deployed implementation may',
  },
  {
    name: 'name-order-codepoint',
    touches: ['SRT', 'PAG'],
    description: 'names sort by code point (uppercase before lowercase) instead of ignoring case',
  },
]);

/** The name of a harmless variation, as `prove --variation NAME` and `startReferenceServer({ variations })` take it. */
export type VariationName = (typeof variations)[number]['name'];

/** Returns the variation with that name, or undefined. */
export function getVariation(name: string): VariationDef | undefined {
  return variations.find((v) => v.name === name);
}

function isItem(value: Record<string, unknown>): boolean {
  return typeof value.cdate === 'number' && typeof value.edate === 'number';
}

/** Applies the body-level variations to an answer before it is serialised (a deep copy where needed). */
export function varyBody(body: unknown, on: ReadonlySet<string>): unknown {
  if (!on.has('extra-members') && !on.has('reordered-members') && !on.has('deleted-at-zero')) return body;
  const walk = (value: unknown, top = false): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (typeof value !== 'object' || value === null) return value;
    let entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v)] as [string, unknown]);
    const record = value as Record<string, unknown>;
    if (on.has('deleted-at-zero') && isItem(record) && record.deleted === undefined) entries.push(['deleted', { at: 0 }]);
    // Records (the answer itself, anything with an id or item dates) get extra members; maps keep their value type.
    if (on.has('extra-members') && (top || 'id' in record || isItem(record)))
      entries.push(['@class', 'com.example.cms.Record'], ['x-vendor', { revision: 7, flags: ['a'] }]);
    if (on.has('reordered-members')) entries = entries.reverse();
    return Object.fromEntries(entries);
  };
  return walk(body, true);
}
