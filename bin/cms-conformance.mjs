#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx registers its loader, then the CLI is imported.
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';

// Vitest's node API is large: loaded through tsx's loader it costs about 165 MB and a second more than
// loaded natively, so the commands that start Vitest load it first, before the loader is registered.
// Help needs none of it: the commands import their engine only when they start one.
if (['run', 'prove', 'requirements'].includes(process.argv[2] ?? '')) await import('vitest/node');

// A run's worker threads, made later, get young generations of 1 MB and heaps that grow by a tenth at a
// time: a default run peaks at about 390 MB instead of 600 MB, in the same time (measured in
// alternation; the main thread, which serves the embedded server, keeps its young generation). V8 reads
// these when it makes a heap, so they are set before any worker starts; flags the user gives win.
// Prove keeps V8's defaults: its workers run test after test against two dozen servers, and with these
// flags the field profile's proof took 15% more CPU and 13% more time (70 against 60 CPU-s, in
// alternation) to peak at 410 MB instead of 600. Serve and proxy start no suite workers.
if (process.argv[2] === 'run') {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map((g) => g.replace(/_/g, '-'));
  for (const flag of ['--max-semi-space-size=1', '--heap-growing-percent=10'])
    if (!given.some((g) => g.startsWith(flag.split('=')[0]))) setFlagsFromString(flag);
}
register();
const { main, survivePipeClose } = await import('../cli/main.ts');
survivePipeClose();
process.exitCode = await main(process.argv.slice(2));
