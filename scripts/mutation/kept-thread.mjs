// The entry of a kept worker thread (kept-threads.ts): Vitest's own threads worker, except that a run's end
// leaves it listening for the next run, so the modules it evaluated stay loaded.
import { parentPort } from 'node:worker_threads';
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';

if (!parentPort) throw new Error('kept-thread.mjs runs in a worker thread');
const port = parentPort;
/** Listeners of a run (its RPC channel), removed at its end; the first one, Vitest's message loop, stays. */
const ofRun = [];
let loop;
init({
  post: (response) => port.postMessage(response),
  on: (callback) => {
    if (loop) ofRun.push(callback);
    else loop = callback;
    port.on('message', callback);
  },
  off: (callback) => port.off('message', callback),
  teardown: () => {
    for (const callback of ofRun.splice(0)) port.off('message', callback);
  },
  runTests: (state, traces) => runBaseTests('run', state, traces),
  collectTests: (state, traces) => runBaseTests('collect', state, traces),
  setup: setupEnvironment,
});
