/**
 * Planted faults of the HTTP layer (server/app.ts): realistic transport-level deviations, off by
 * default, that the suite's self-tests switch on one at a time to prove the named requirement catches them.
 */
import { getSchema } from '../schemas/index.ts';
import { operations, type Operation } from '../schemas/operations.ts';
import type { Feature } from '../schemas/requirements.ts';
import type { ResponseTypeName } from '../schemas/types.ts';
import { faultDefs, type FaultDef } from './fault-def.ts';

/** The HTTP layer's planted faults. */
export const httpFaults = faultDefs([
  {
    name: 'post-answers-200',
    breaks: ['ENV-03'],
    description: 'successful POSTs answer 200 instead of 201, as the deployed implementation does',
  },
  {
    name: 'content-type-text-plain',
    breaks: ['ENV-04'],
    description: 'JSON answers are labelled Content-Type: text/plain',
  },
  {
    name: 'json-charset-refused',
    breaks: ['ENV-02'],
    description:
      'a JSON body labelled `application/json; charset=utf-8`, as browsers and Java clients label it, is refused 415: the media type is compared with its parameters',
  },
  {
    name: 'json-charset-ascii-refused',
    breaks: ['ENV-02'],
    description:
      'a JSON body labelled `application/json; charset=us-ascii` is refused 415: UTF-8 alone is taken, though ASCII is its subset',
  },
  {
    name: 'envelope-missing-messages',
    breaks: ['ENV-01'],
    description: 'successful answers leave out the messages member of the envelope',
  },
  {
    name: 'success-without-responseinfo',
    breaks: ['ENV-01'],
    description: 'successful findFiles, findPages and getExternalLinks answers leave out responseInfo, as the deployed implementation does',
  },
  {
    name: 'response-code-lowercase',
    breaks: ['ENV-02'],
    description: 'successful answers carry responseCode "ok" instead of "OK"',
  },
  {
    name: 'malformed-json-500',
    breaks: ['NEG-01', 'ENV-08'],
    description: 'an unparsable JSON body escapes as a 500 FAILURE instead of a 400 refusal',
  },
  {
    name: 'body-parser-refusal-500',
    breaks: ['NEG-01', 'ENV-08'],
    description: 'a body the parser refuses before the handler (a Content-Type that is no media type: 415) escapes as a 500 FAILURE',
  },
  {
    name: 'out-of-range-number-500',
    breaks: ['ENV-08'],
    description: 'a JSON member beyond a double (1e400) escapes as a 500 FAILURE instead of being refused',
  },
  {
    name: 'multipart-cut-taken',
    breaks: ['UPL-01'],
    description:
      'a multipart create the reader stops in (more than 100 parts) goes on with the parts read: the file named after its data part',
  },
  {
    name: 'null-body-500',
    breaks: ['ENV-08'],
    description: 'a JSON body that is `null` is read as an object and escapes as a 500 FAILURE',
  },
  {
    name: 'decimal-query-truncated',
    breaks: ['NEG-02'],
    description: 'a decimal for an integer query parameter (maxItems=1.5) is taken, cut to an integer, instead of refused or ignored',
  },
  {
    name: 'wrong-type-500',
    breaks: ['NEG-02', 'ENV-08'],
    description: 'a query value of the wrong type (maxItems=abc) escapes as a 500 FAILURE',
  },
  {
    name: 'empty-query-value-500',
    breaks: ['NEG-02', 'ENV-08'],
    description: 'an empty value of a number or boolean query parameter (nodeId=) escapes as a 500 FAILURE instead of counting as not sent',
  },
  {
    name: 'unknown-wastebin-500',
    breaks: ['WST-06', 'ENV-08'],
    description: 'an unknown wastebin query value (wastebin=all) escapes as a 500 FAILURE instead of a refusal',
  },
  {
    name: 'unknown-id-500',
    breaks: ['NEG-03', 'ENV-08'],
    description: 'a not-found refusal escapes as a 500 FAILURE (a null dereference in the handler)',
  },
  {
    name: 'invalid-body-500',
    breaks: ['NEG-04'],
    description: 'a JSON body member of the wrong type escapes as a 500 FAILURE instead of a 400 refusal',
  },
  {
    name: 'refused-create-applied',
    breaks: ['NEG-04'],
    description: 'a folder.create refused for one body member of the wrong type still creates the folder from the other members',
  },
  {
    name: 'deep-json-500',
    breaks: ['NEG-05', 'ENV-08'],
    description: 'a JSON body nested more than 1,000 levels deep escapes as a 500 FAILURE (a recursive reader out of stack)',
  },
  {
    name: 'long-query-value-500',
    breaks: ['NEG-05', 'ENV-08'],
    description: 'a query value of more than 4,096 characters escapes as a 500 FAILURE',
  },
  {
    name: 'oversized-body-500',
    breaks: ['NEG-05'],
    description: 'a body over the size limit escapes as a 500 FAILURE instead of a 413 refusal',
  },
  {
    name: 'multipart-malformed-500',
    breaks: ['UPL-08'],
    description: 'a malformed multipart body (no boundary, truncated) escapes as a 500 FAILURE',
  },
  {
    name: 'no-auth-check',
    breaks: ['NEG-06'],
    description: 'requests without the configured credentials are served as if authenticated',
  },
]);

/** Whether a character is a capital letter (true) or a small one (false); neither for digits and signs. */
type IsCapital<C extends string> = C extends Lowercase<C> ? (C extends Uppercase<C> ? 'neither' : false) : true;

/** A type name in kebab case as shapeFaultName writes it: a hyphen where a small letter meets a capital, then all small. */
type Kebab<S extends string, Prev extends string = ''> = S extends `${infer C}${infer Rest}`
  ? `${IsCapital<Prev> extends false ? (IsCapital<C> extends true ? '-' : '') : ''}${Lowercase<C>}${Kebab<Rest, C>}`
  : '';

/** The name of a response type's shape fault, e.g. `shape-legacy-file-list-response`. */
export type ShapeFaultName = `shape-${Kebab<ResponseTypeName>}`;

const shapeNames = new Map<string, ShapeFaultName>();

/** The name of the shape fault of a response type, e.g. `shape-legacy-file-list-response` (asked on every answer). */
export function shapeFaultName(responseSchema: string): ShapeFaultName {
  let name = shapeNames.get(responseSchema);
  if (name === undefined) {
    const title = responseSchema.replace(/^.*\//, '').replace(/\.json$/, '');
    // Kebab's spelling at run time; test/server-http/faults.test.ts holds the two to the same names.
    name = `shape-${title.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}` as ShapeFaultName;
    shapeNames.set(responseSchema, name);
  }
  return name;
}

/** The feature every one of these operations belongs to, if they share one: a shape fault of theirs needs it. */
function neededBy(ops: readonly Operation[]): { needs?: Feature } {
  const feature = ops[0]?.feature;
  return feature && ops.every((op) => op.feature === feature) ? { needs: feature } : {};
}

/**
 * One shape fault per response type: the answer's members are serialised with the wrong JSON type
 * (a field serialised as a string, a list as text), which every operation answering that type breaks.
 */
export const shapeFaults: FaultDef<ShapeFaultName>[] = [...new Set(operations.map((op) => op.response.schema))].map((schema) => ({
  name: shapeFaultName(schema),
  ...neededBy(operations.filter((op) => op.response.schema === schema)),
  breaks: [
    ...operations.filter((op) => op.response.schema === schema).map((op) => `OP-${op.id}`),
    // An answer that is only the envelope has nothing else to misshape: its responseInfo goes out as text.
    ...(Object.keys(getSchema(schema).properties ?? {}).length === 0 && (getSchema(schema).allOf ?? []).length <= 1 ? ['ENV-01'] : []),
  ],
  description: `${schema.replace(/^.*\//, '').replace(/\.json$/, '')} answers carry their members with the wrong JSON type (numbers and lists as strings)`,
}));
