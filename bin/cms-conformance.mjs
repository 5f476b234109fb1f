#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx registers its loader, then the CLI is imported.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';

const command = process.argv[2] ?? '';
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map((g) => g.replace(/_/g, '-'));

// V8 keeps four helper threads (optimizing compiler, parallel GC) whatever the machine. A run or a proof keeps
// three JavaScript threads busy (the embedded servers and two suite workers), and on a small machine the helpers
// take cores from them at every young-generation collection: with fewer, a default run sends more requests
// per second, and a proof ends sooner for the same CPU (BENCHMARKS.md). The pool's size is fixed when
// Node starts, so the CLI starts itself again with a smaller one; a size the user gives wins. The gain was
// measured on two cores only; from six cores on, V8 keeps its four.
// Not on Windows, where a child in a process group of its own would open a console window of its own.
const helpers = Math.min(4, Math.max(1, availableParallelism() - 2));
// The young generation of a run's and prove's isolates (see workerFlags below).
const YOUNG = '--max-semi-space-size=4';
// The CLI started again below keeps a channel to the process that started it: when that one is gone without handing a
// signal on (killed outright: SIGKILL), the run stops as on SIGTERM and removes its sandbox, instead of running on alone.
const RESTARTED = 'CMS_CONFORMANCE_RESTARTED';
if (process.env[RESTARTED] && process.channel) {
  delete process.env[RESTARTED];
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
if (
  ['run', 'prove'].includes(command) &&
  helpers < 4 &&
  process.platform !== 'win32' &&
  !given.some((g) => g.startsWith('--v8-pool-size'))
) {
  // A process group of its own: a Ctrl-C reaches this process alone, which hands it on once (a second
  // SIGINT during the child's clean-up would stop it before its sandbox is removed).
  // A run's main thread, which serves the embedded server, gets its workers' young generation too: the server loses
  // nothing by it, and the run's peak memory keeps under its target (BENCHMARKS.md).
  const young = command === 'run' && !given.some((g) => g.startsWith(YOUNG.split('=')[0])) ? [YOUNG] : [];
  const child = spawn(process.execPath, [...process.execArgv, `--v8-pool-size=${helpers}`, ...young, ...process.argv.slice(1)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
    env: { ...process.env, [RESTARTED]: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const [code, signal] = await new Promise((resolve) => child.on('exit', (...end) => resolve(end)));
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
}

// The worker threads of a run and of prove, made later, get young generations of 4 MB (V8 grows them up to 16):
// far less memory at their peak than with V8's own, and larger ones made a run no quicker. V8 reads the flag when it
// makes a heap, so it is set before any worker starts; flags the user gives win. Smaller still (and heaps that grow
// little at a time) saved a run little memory for more time and CPU, and cost prove more CPU. Serve and proxy start
// no suite workers. The measurements are in BENCHMARKS.md (2026-11-28 05:50-07:00).
const workerFlags = new Map([
  ['run', [YOUNG]],
  ['prove', [YOUNG]],
]).get(command);
if (workerFlags) {
  for (const flag of workerFlags) if (!given.some((g) => g.startsWith(flag.split('=')[0]))) setFlagsFromString(flag);
}
// Imported here, not above: the process that only starts the CLI again loads none of it. An installed package
// ships the compiled JavaScript (dist/, built by prepack) and no TypeScript: it runs natively. A checkout
// runs its sources through tsx, so that a dist/ left from an earlier build is never run in their place.
const sources = new URL('../cli/main.ts', import.meta.url);
let cli;
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  let unregister = register();
  cli = await import(sources.href);
  // Vitest's node API is large: through tsx's loader it costs several times the start-up time and more memory
  // than natively. So it is imported with the loader set aside, once a command is about to start Vitest (never for a
  // usage error or help), and the loader is set again for the sources the engine imports then.
  cli.setVitestImport(async () => {
    await unregister();
    try {
      return await import('vitest/node');
    } finally {
      unregister = register();
    }
  });
} else cli = await import('../dist/cli/main.js');
const { main, survivePipeClose } = cli;
survivePipeClose();
process.exitCode = await main(process.argv.slice(2));
