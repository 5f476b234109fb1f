/** `cms-conformance openapi`: prints the OpenAPI 3.1 document built from the catalogue and schemas. */
import { writeFileSync } from 'node:fs';
import { parseOptions, UsageError, type Command, type OptionTable } from './args.ts';
import { buildOpenApi } from '../schemas/openapi.ts';

const OPTIONS = {
  out: { type: 'string', value: 'FILE', byDefault: 'stdout', description: 'write the document to FILE', example: '--out openapi.json' },
  'refusals-in-2xx': {
    type: 'boolean',
    description:
      'document refusals answered with a 2xx status inside the 2xx responses (for a validating proxy in front of a server that answers so); by default they are noted beside each success (x-refusal-in-2xx), so that generated clients type a success as its body alone',
    example: '--refusals-in-2xx --out openapi.json',
  },
} as const satisfies OptionTable;

export const command: Command = {
  summary: 'print an OpenAPI 3.1 document of the contract (operations, every conforming answer, schemas)',
  options: OPTIONS,
  about: [],
  exit: '0 printed or written, 2 usage error or a file that cannot be written.',
  async run(args) {
    const { values } = parseOptions(args, OPTIONS);
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
