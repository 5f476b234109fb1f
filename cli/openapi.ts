/** `cms-conformance openapi`: prints the OpenAPI 3.1 document built from the catalogue and schemas. */
import { writeFileSync } from 'node:fs';
import { parseOptions, UsageError, type Command } from './args.ts';
import { buildOpenApi } from '../schemas/openapi.ts';

export const command: Command = {
  summary: 'print an OpenAPI 3.1 document of the contract (operations, every conforming answer, schemas)',
  usage: ['usage: cms-conformance openapi [--out FILE]', '', '  --out FILE   write the document to FILE instead of stdout'].join('\n'),
  async run(args) {
    const { values } = parseOptions(args, { out: { type: 'string' } });
    const text = `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
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
