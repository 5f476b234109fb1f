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
// Prove's workers run test after test against a hundred servers in one run: with a run's flags the field
// profile's proof took a quarter more CPU (54 against 43 CPU-s) to peak at 480 MB instead of 840; with
// young generations of 4 MB alone it takes no more (41 CPU-s, 26 s) and peaks at 710 to 790 MB (in
// alternation). Serve and proxy start no suite workers.
const workerFlags = new Map([
  ['run', ['--max-semi-space-size=1', '--heap-growing-percent=10']],
  ['prove', ['--max-semi-space-size=4']],
]).get(process.argv[2] ?? '');
if (workerFlags) {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map((g) => g.replace(/_/g, '-'));
  for (const flag of workerFlags) if (!given.some((g) => g.startsWith(flag.split('=')[0]))) setFlagsFromString(flag);
}
register();
const { main, survivePipeClose } = await import('../cli/main.ts');
survivePipeClose();
process.exitCode = await main(process.argv.slice(2));
