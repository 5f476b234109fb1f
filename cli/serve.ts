/** `cms-conformance serve`: runs the bundled reference server until SIGINT or SIGTERM. */
import { writeFileSync } from 'node:fs';
import { getProfile, profiles } from '../server/profiles.ts';
import { intOption, parseOptions, UsageError, type Command } from './args.ts';

/** The --profile option of serve and run, checked against the reference server's profiles. */
export function profileOption(value: string | undefined): string {
  const name = value ?? 'default';
  if (!getProfile(name)) throw new UsageError(`--profile must be one of ${profiles.map((p) => p.name).join(', ')}, got "${name}"`);
  return name;
}

const usage = `usage: cms-conformance serve [options]

Starts the bundled reference server (an in-memory implementation of the contract) and prints its
base URL. Stops cleanly on SIGINT or SIGTERM.

options:
  --host HOST                   interface to listen on (default 127.0.0.1)
  --port N                      port to listen on, 0 picks a free one (default 8080)
  --fixture default|varied:SEED|FILE
                                dataset to serve: the built-in fixture, the varied one of a seed (ids of
                                many digits, deep and wide trees, names in many scripts), or a dataset JSON file
  --write-target FILE           write the target file for this server (for cms-conformance run --target)
  --fault NAME                  switch on a planted fault; repeatable (see --list-faults)
  --list-faults                 print the planted faults (name, requirement ids, description) and exit
  --variation NAME              play an answer the contract leaves open otherwise than by default;
                                repeatable (see --list-variations and schemas/open-choices.json)
  --list-variations             print the variations (name, open choice, description) and exit
  --profile default|field       default: the contract as written; field: the deployed open-source server
                                (refusals as 200, successful POSTs as 200, no responseInfo on successful
                                findFiles/findPages/getExternalLinks, no multichannelling endpoints)
  --refusal-style status|body   answer refusals with 4xx statuses (default) or with 200 and the code in
                                the body, as the deployed implementation does
  --auth-token TOKEN            refuse requests without sid=TOKEN or Authorization: Bearer TOKEN
  --latency MS                  wait MS milliseconds before answering each request, like a server farther
                                away (default 0)
  --capacity N                  serve at most N requests at once; the others wait their turn (default: no limit)
  --shed                        with --capacity: answer a request that finds every slot taken with 429 and
                                Retry-After, instead of letting it wait`;

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
  usage,
  async run(args) {
    const { values } = parseOptions(args, {
      host: { type: 'string' },
      port: { type: 'string' },
      fixture: { type: 'string' },
      'write-target': { type: 'string' },
      fault: { type: 'string', multiple: true },
      'list-faults': { type: 'boolean' },
      variation: { type: 'string', multiple: true },
      'list-variations': { type: 'boolean' },
      'refusal-style': { type: 'string' },
      'auth-token': { type: 'string' },
      profile: { type: 'string' },
      latency: { type: 'string' },
      capacity: { type: 'string' },
      shed: { type: 'boolean' },
    });
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
        writeFileSync(targetFile, `${JSON.stringify(server.target, null, 2)}\n`);
      } catch (err) {
        await server.close();
        throw new UsageError(`--write-target ${targetFile}: ${(err as Error).message}`);
      }
    }
    const stopped = nextStopSignal();
    console.log(`cms-conformance reference server listening on ${server.baseUrl}`);
    await stopped;
    await server.close();
    return 0;
  },
};
