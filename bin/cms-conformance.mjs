#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx registers its loader, then the CLI is imported.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';

const command = process.argv[2] ?? '';
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map((g) => g.replace(/_/g, '-'));

// V8 keeps four helper threads (optimizing compiler, parallel GC) whatever the machine. A run keeps three
// JavaScript threads busy (the embedded server and two suite workers): on two cores, four helpers more
// took cores from them at every young-generation collection. With one helper a default run sent 15% more
// requests per second (12 runs in alternation, 11 faster: 654 against 569 requests/s). Prove was no
// faster (25 s either way, 2 runs each). The pool's size is fixed when Node starts, so the CLI starts
// itself again with it; a size the user gives wins. Measured on two cores only: from six on, V8 keeps its four.
// Not on Windows, where a child in a process group of its own would open a console window of its own.
const helpers = Math.min(4, Math.max(1, availableParallelism() - 2));
if (command === 'run' && helpers < 4 && process.platform !== 'win32' && !given.some((g) => g.startsWith('--v8-pool-size'))) {
  // A process group of its own: a Ctrl-C reaches this process alone, which hands it on once (a second
  // SIGINT during the child's clean-up would stop it before its sandbox is removed).
  const child = spawn(process.execPath, [...process.execArgv, `--v8-pool-size=${helpers}`, ...process.argv.slice(1)], {
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const [code, signal] = await new Promise((resolve) => child.on('exit', (...end) => resolve(end)));
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
}

// Vitest's node API is large: loaded through tsx's loader it costs about 165 MB and a second more than
// loaded natively, so the commands that start Vitest load it first, before the loader is registered.
// Help needs none of it: the commands import their engine only when they start one.
if (['run', 'prove', 'requirements'].includes(command)) await import('vitest/node');

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
]).get(command);
if (workerFlags) {
  for (const flag of workerFlags) if (!given.some((g) => g.startsWith(flag.split('=')[0]))) setFlagsFromString(flag);
}
// Imported here, not above: the process that only starts the CLI again loads none of it.
const { register } = await import('tsx/esm/api');
register();
const { main, survivePipeClose } = await import('../cli/main.ts');
survivePipeClose();
process.exitCode = await main(process.argv.slice(2));
