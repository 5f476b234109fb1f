/** `cms-conformance openapi`: prints the OpenAPI 3.1 document built from the catalogue and schemas. */
import { writeFileSync } from 'node:fs';
import { parseOptions, UsageError, type Command } from './args.ts';
import { buildOpenApi } from '../schemas/openapi.ts';

export const command: Command = {
  summary: 'print an OpenAPI 3.1 document of the contract (operations, every conforming answer, schemas)',
  usage: [
    'usage: cms-conformance openapi [--out FILE] [--refusals-in-2xx]',
    '',
    '  --out FILE          write the document to FILE instead of stdout',
    '  --refusals-in-2xx   document refusals answered with a 2xx status inside the 2xx responses (for a validating',
    '                      proxy in front of a server that answers so); by default they are noted beside each success',
    '                      (x-refusal-in-2xx), so that generated clients type a success as its body alone',
  ].join('\n'),
  async run(args) {
    const { values } = parseOptions(args, { out: { type: 'string' }, 'refusals-in-2xx': { type: 'boolean' } });
    const text = `${JSON.stringify(buildOpenApi({ refusalsIn2xx: values['refusals-in-2xx'] ?? false }), null, 2)}\n`;
    if (!values.out) {
      process.stdout.write(text);
      return 0;
    }
    try {
      writeFileSync(values.out, text);
    } catch (err) {
      throw new UsageError(`--out ${values.out}: ${(err as Error).message}`);
    }
    return 0;
  },
};
