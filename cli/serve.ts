/** `cms-conformance serve`: runs the bundled reference server until SIGINT or SIGTERM. */
import { writeFileSync } from 'node:fs';
import { getProfile, profiles } from '../server/profiles.ts';
import { intOption, outFileOption, parseOptions, UsageError, type Command, type OptionTable } from './args.ts';

/** The --profile option of serve and run, checked against the reference server's profiles. */
export function profileOption(value: string | undefined): string {
  const name = value ?? 'default';
  if (!getProfile(name)) throw new UsageError(`--profile must be one of ${profiles.map((p) => p.name).join(', ')}, got "${name}"`);
  return name;
}

const OPTIONS = {
  host: { type: 'string', value: 'HOST', byDefault: '127.0.0.1', description: 'interface to listen on', example: '--host 0.0.0.0' },
  port: { type: 'string', value: 'N', byDefault: '8080', description: 'port to listen on; 0 picks a free one', example: '--port 0' },
  fixture: {
    type: 'string',
    value: 'default|varied:SEED|FILE',
    byDefault: 'default',
    description:
      'the data set to serve (docs/glossary.md): the default one, the varied one of a seed (ids of many digits, deep and wide trees, names in many scripts), or a data-set file',
    example: '--fixture varied:7',
  },
  'write-target': {
    type: 'string',
    value: 'FILE',
    byDefault: 'none',
    description: 'write the target file for this server (for `run --target`)',
    example: '--port 0 --write-target target.json',
  },
  fault: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    byDefault: 'none',
    description: 'switch on a planted fault (see --list-faults)',
    example: '--fault post-answers-200',
  },
  'list-faults': {
    type: 'boolean',
    description: 'print the planted faults (name, requirement ids, description) and exit',
    example: '--list-faults',
  },
  variation: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    byDefault: 'none',
    description: 'play an answer the contract leaves open otherwise than by default (see --list-variations and schemas/open-choices.json)',
    example: '--variation usage-files-only',
  },
  'list-variations': {
    type: 'boolean',
    description: 'print the variations (name, open choice, description) and exit',
    example: '--list-variations',
  },
  'refusal-style': {
    type: 'string',
    value: 'status|body',
    byDefault: 'status',
    description: 'answer refusals with 4xx statuses, or with 200 and the code in the body, as the deployed implementation does',
    example: '--refusal-style body',
  },
  'auth-token': {
    type: 'string',
    value: 'TOKEN',
    byDefault: 'none: no credentials asked',
    description: 'refuse requests without sid=TOKEN or Authorization: Bearer TOKEN',
    example: '--auth-token s3cret',
  },
  profile: {
    type: 'string',
    value: 'default|field',
    byDefault: 'default',
    description:
      'default: the contract as written; field: the deployed open-source server (refusals as 200, successful POSTs as 200, no responseInfo on successful findFiles/findPages/getExternalLinks, no multichannelling endpoints)',
    example: '--profile field',
  },
  latency: {
    type: 'string',
    value: 'MS',
    byDefault: '0',
    description: 'wait MS milliseconds before answering each request, like a server farther away',
    example: '--latency 20',
  },
  capacity: {
    type: 'string',
    value: 'N',
    byDefault: 'no limit',
    description: 'serve at most N requests at once; the others wait their turn',
    example: '--capacity 4',
  },
  shed: {
    type: 'boolean',
    description: 'with --capacity: answer a request that finds every slot taken with 429 and Retry-After, instead of letting it wait',
    example: '--capacity 4 --shed',
  },
} as const satisfies OptionTable;

/** Resolves with the first SIGINT or SIGTERM. */
function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** The serve subcommand. */
export const command: Command = {
  summary: 'run the bundled reference server',
  options: OPTIONS,
  about: [
    'Starts the bundled reference server (an in-memory implementation of the contract) and prints its base URL. Stops cleanly on SIGINT or SIGTERM.',
  ],
  exit: '0 stopped by SIGINT or SIGTERM (or a list printed), 2 usage error or an address it cannot listen on.',
  async run(args) {
    const { values } = parseOptions(args, OPTIONS);
    // Loaded here so that `serve --help` and usage errors do not pay for the server.
    const { faults, isFaultName } = await import('../server/faults.ts');
    const { variations, variationNamesOf } = await import('../server/variations.ts');
    if (values['list-faults']) {
      for (const fault of faults) console.log([fault.name, fault.breaks.join(','), fault.description].join('\t'));
      return 0;
    }
    if (values['list-variations']) {
      for (const v of variations) console.log([v.name, v.choice, v.description].join('\t'));
      return 0;
    }
    const port = intOption('port', values.port, 8080, 0);
    if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
    const profile = profileOption(values.profile);
    const refusalStyle = values['refusal-style'];
    if (refusalStyle !== undefined && refusalStyle !== 'status' && refusalStyle !== 'body') {
      throw new UsageError(`--refusal-style must be status or body, got "${refusalStyle}"`);
    }
    const faultNames = (values.fault ?? []).map((name) => {
      if (!isFaultName(name)) throw new UsageError(`unknown fault "${name}" (known: ${faults.map((f) => f.name).join(', ')})`);
      return name;
    });
    let variationNames;
    try {
      variationNames = variationNamesOf(values.variation ?? []);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const authToken = values['auth-token'];
    if (authToken === '') throw new UsageError('--auth-token must not be empty');
    const latencyMs = intOption('latency', values.latency, 0, 0);
    const capacity = values.capacity === undefined ? undefined : intOption('capacity', values.capacity, 1, 1);
    if (values.shed && capacity === undefined)
      throw new UsageError('--shed needs --capacity: with no limit, no request is ever turned away');

    const { datasetOf, startReferenceServer } = await import('../server/index.ts');
    let fixture;
    try {
      fixture = datasetOf(values.fixture ?? 'default');
    } catch (err) {
      // datasetOf names the file and the member already: `fixture FILE: /folders/1/name must be string`.
      throw new UsageError((err as Error).message);
    }
    let server;
    try {
      server = await startReferenceServer({
        host: values.host,
        port,
        fixture,
        profile,
        faults: faultNames,
        variations: variationNames,
        ...(refusalStyle ? { refusalStyle } : {}),
        authToken,
        logger: true,
        pace: { latencyMs, ...(capacity ? { capacity } : {}), shed: values.shed ?? false },
      });
    } catch (err) {
      throw new UsageError(`cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${(err as Error).message}`);
    }
    const targetFile = values['write-target'];
    if (targetFile !== undefined) {
      try {
        writeFileSync(outFileOption('write-target', targetFile), `${JSON.stringify(server.target, null, 2)}\n`);
      } catch (err) {
        await server.close();
        throw err instanceof UsageError ? err : new UsageError(`--write-target ${targetFile}: ${(err as Error).message}`);
      }
    }
    const stopped = nextStopSignal();
    console.log(`cms-conformance reference server listening on ${server.baseUrl}`);
    await stopped;
    await server.close();
    return 0;
  },
};
