/**
 * A Vitest pool for Stryker's mutant runs whose worker thread serves run after run. Vitest stops a run's
 * worker at the run's end, so every mutant paid for a new thread and for the suites' and the server's
 * modules evaluated again, and its tests ran on code compiled cold: a whole mutation run took far longer
 * (BENCHMARKS 2026-11-27 20:02). A mutant switched on at run time changes no module-level code (Stryker's
 * instrumented code asks which mutant is active as it runs), so the modules a thread holds serve every such
 * mutant. A mutant switched on statically (module-level code, evaluated once) gets a thread of its own, thrown
 * away after its run, as does the dry run; a thread stopped by force or that exits (Stryker stops a test
 * runner that times out) is never handed on.
 */
import { Worker } from 'node:worker_threads';
import type { Plugin } from 'vitest/config';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';

declare module 'vitest' {
  /** What Stryker's Vitest runner provides to a run (its mutant-run options). */
  interface ProvidedContext {
    mode?: 'dry-run' | 'mutant';
    mutantActivation?: 'static' | 'runtime';
  }
}

const ENTRY = new URL('./kept-thread.mjs', import.meta.url);

/** The thread the last run left, waiting for the next. */
let kept: Worker | undefined;
/**
 * Settles when the last run to start has stopped. Vitest stops a run's worker without waiting (it waits at
 * its close), so the next run may start before the last has left its thread: it waits for that first.
 */
let lastStopped: Promise<void> = Promise.resolve();
/** The longest a run waits for the last to stop before it takes a thread of its own. */
const STOP_WAIT_MS = 10_000;

/** Whether a run may take the thread left by the last and leave its own: a mutant switched on at run time. */
function keepable(options: PoolOptions): boolean {
  const provided = options.project.getProvidedContext();
  return provided.mode === 'mutant' && provided.mutantActivation === 'runtime';
}

/** Forgets a kept thread that exits while it waits (a thread's 'exit' listener, one at a time). */
function forgetOnExit(this: Worker): void {
  if (kept === this) kept = undefined;
}

/** Leaves a thread for the next run, not holding the process open meanwhile. */
function leaveThread(thread: Worker): void {
  thread.unref();
  thread.once('exit', forgetOnExit);
  kept = thread;
}

/** The thread the last run left, if any, now the caller's. */
function takeKeptThread(): Worker | undefined {
  const thread = kept;
  kept = undefined;
  thread?.off('exit', forgetOnExit);
  return thread;
}

/** Ends the thread a run left, if any: when Vitest closes, or before a run that may not take it. */
async function dropKeptThread(): Promise<void> {
  await takeKeptThread()?.terminate();
}

/** One run's use of a thread: Vitest's own threads worker, except at start and stop. */
class KeptThreadWorker implements PoolWorker {
  readonly name = 'kept-threads';
  private thread: Worker | undefined;
  private stopped = (): void => {};
  /** Whether this run may leave its thread: read as it starts, since the next run's options are given before it stops. */
  private keep = false;
  /** Whether the thread has ended the run cleanly and still runs. */
  private handedBack = false;
  /** What the run's runner listens to on the thread, taken off when the run leaves it. */
  private readonly listeners: [string, (arg: unknown) => void][] = [];
  constructor(private readonly options: PoolOptions) {}
  private get live(): Worker {
    if (!this.thread) throw new Error('kept-threads: the thread was stopped or never started');
    return this.thread;
  }
  async start(): Promise<void> {
    if (this.thread) return;
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([lastStopped, new Promise((resolve) => (waited = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(waited);
    lastStopped = new Promise((resolve) => (this.stopped = resolve));
    this.keep = keepable(this.options);
    const left = this.keep ? takeKeptThread() : undefined;
    if (!left) await dropKeptThread();
    this.thread = left ?? new Worker(ENTRY, { env: this.options.env, execArgv: this.options.execArgv, stdout: true, stderr: true });
    this.thread.ref();
    const { outputStream, errorStream } = this.options.project.vitest.logger;
    this.thread.stdout.pipe(outputStream);
    this.thread.stderr.pipe(errorStream);
    // Only a thread that ended its run as Vitest ends one (its teardown done, no error) is left for the next: not
    // one stopped by force in the middle of a run, nor one that exited.
    this.handedBack = false;
    this.on('message', (message) => {
      const response = message as { type?: string; error?: unknown } | undefined;
      if (response?.type === 'stopped') this.handedBack = response.error === undefined;
    });
    this.on('exit', () => (this.handedBack = false));
  }
  on(event: string, callback: (arg: unknown) => void): void {
    this.listeners.push([event, callback]);
    this.live.on(event, callback);
  }
  off(event: string, callback: (arg: unknown) => void): void {
    this.live.off(event, callback);
  }
  send(message: WorkerRequest): void {
    this.live.postMessage(message);
  }
  deserialize(data: unknown): unknown {
    return data;
  }
  async stop(): Promise<void> {
    const thread = this.live;
    this.thread = undefined;
    try {
      for (const [event, callback] of this.listeners.splice(0)) thread.off(event, callback);
      thread.stdout.unpipe();
      thread.stderr.unpipe();
      if (!this.keep || !this.handedBack || kept) {
        await thread.terminate();
        return;
      }
      leaveThread(thread);
    } finally {
      this.stopped();
    }
  }
}

const keptThreads: PoolRunnerInitializer = {
  name: 'kept-threads',
  createPoolWorker: (options) => new KeptThreadWorker(options),
};

/**
 * Puts every project on the kept-threads pool. Stryker's runner asks for Vitest's threads pool in its own
 * options, which win over a configuration file's `pool`, so the pool is set once the projects are resolved.
 */
export function keptThreadsPlugin(): Plugin {
  return {
    name: 'cms-conformance:kept-threads',
    configureVitest({ vitest, project }) {
      project.config.pool = keptThreads.name;
      Object.assign(project.config, { poolRunner: keptThreads });
      vitest.onClose(dropKeptThread);
    },
  };
}
