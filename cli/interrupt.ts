/**
 * How `run` stops when told to (SIGINT, SIGTERM), at any moment from its start: the suites are cancelled,
 * the reports of the tests that ended are written, marked interrupted, and the sandbox is removed before
 * the process exits. The wrap-up is bounded: past its limit, or at a second signal, the run exits at once
 * and says which sandbox may be left and how to remove it.
 */

/** How long a stopping run may take to write its reports and remove its sandbox. */
export const STOP_LIMIT_MS = 30_000;

/** The exit code of a run stopped by a signal: 128 and the signal's number, as a shell reports it. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** Calls a stop; one that fails (Vitest already closing, say) must not end the wrap-up as an unhandled rejection. */
function settle(stop: () => unknown): void {
  Promise.resolve()
    .then(stop)
    .catch(() => undefined);
}

/** A run's answer to SIGINT and SIGTERM, installed before the run opens its session. */
export class RunInterrupt {
  /** The signal that stopped the run, and when it came. */
  stopped?: { signal: NodeJS.Signals; at: Date };
  /** What stops the work under way (the suite engine's cancel); each is called once, at the first signal. */
  private readonly stops = new Set<() => unknown>();
  private deadline?: NodeJS.Timeout;
  private readonly onSignal = (signal: NodeJS.Signals) => this.signalled(signal);

  /**
   * `leftover` says, when the run must end before its wrap-up is done, what it may leave on the target
   * (the sandbox's name and the `clean` command that removes it); undefined when it leaves nothing.
   */
  constructor(
    private readonly leftover: () => string | undefined,
    private readonly limitMs = STOP_LIMIT_MS,
  ) {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }

  /** The exit code the stopped run ends with, or undefined while it was not stopped. */
  get exitCode(): number | undefined {
    return this.stopped && signalExitCode(this.stopped.signal);
  }

  /** Calls `stop` at the first signal (at once when it already came); returns what unregisters it. */
  onStop(stop: () => unknown): () => void {
    if (this.stopped) {
      settle(stop);
      return () => {};
    }
    this.stops.add(stop);
    return () => this.stops.delete(stop);
  }

  /** Removes the handlers (the run is over). */
  dispose(): void {
    clearTimeout(this.deadline);
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
  }

  private signalled(signal: NodeJS.Signals): void {
    if (this.stopped) return this.giveUp(`a second ${signal}`);
    this.stopped = { signal, at: new Date() };
    console.error(
      `cms-conformance: ${signal}: stopping; writing the reports of the tests that ended and removing the sandbox ` +
        `(at most ${this.limitMs / 1000} s; a second signal stops waiting)`,
    );
    this.deadline = setTimeout(() => this.giveUp(`no end after ${this.limitMs / 1000} s`), this.limitMs);
    // The process must not stay alive for the deadline alone once the wrap-up is done.
    this.deadline.unref();
    for (const stop of this.stops) settle(stop);
    this.stops.clear();
  }

  /** Ends the process now, saying what the run may have left behind. */
  private giveUp(why: string): never {
    const left = this.leftover();
    console.error(`cms-conformance: ${why}: stopped waiting${left ? `; ${left}` : ''}`);
    process.exit(this.exitCode ?? 130);
  }
}
