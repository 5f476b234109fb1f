/**
 * The setup of the mutation run's suites: each suite file gets a reference server of its own, started
 * in the Vitest worker itself, where Stryker switches its mutants on and counts which test reached
 * which mutant. A server per file keeps a mutant that corrupts the server's state from reaching the
 * next file's tests, and the embedded run's defaults (seed, runs, a token to require) keep the verdict
 * of a clean server that of `npm start`.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { openSession, type Session } from '../../cli/session.ts';
import { DEFAULT_SEED, RUN_DEFAULTS } from '../../harness/config.ts';
import { runInWorker, shareThrough } from '../../harness/suite.ts';
import { FIXTURE_ENV, SILENT_FILE, seenByWarning } from './score.ts';
// The server's modules, evaluated as the worker starts, outside every test: their module-level code (tables,
// constants, handlers made by other functions) runs once per worker, so a mutant of it must be switched on before
// they load. Stryker runs such a mutant, reached outside every test, with the worker reloaded and against every test;
// imported later, inside the first test, the module would keep the code of the first run it was loaded in. A mutant
// that makes the modules fail to load must fail every test: a setup file that throws runs no test, which Stryker
// counts as a survivor (handlers/index.ts, `wrapped` mapping every handler to undefined, survived so).
let serverUnloadable: unknown;
try {
  await import('../../server/index.ts');
} catch (err) {
  serverUnloadable = err;
}

const { runs: RUNS, timeoutMs: TIMEOUT_MS, embeddedConcurrency: CONCURRENCY } = RUN_DEFAULTS;

/** What Stryker's instrumented code and its Vitest setup keep on globalThis, the members read here. */
interface StrykerGlobal {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { perTest: Record<string, Record<string, number>> };
}
const stryker = (): StrykerGlobal | undefined => (globalThis as { __stryker__?: StrykerGlobal }).__stryker__;

// Tests share answers (a sample of every operation, the pages collected once, the fixture's tree): the test
// that judges a shared answer reached none of the server code that made it, so Stryker would never run it
// against that code's mutants. While Stryker counts coverage (its dry run: a current test id is set), the
// code a shared value's making reached is counted as reached by every test that uses the value.
const madeBy = new WeakMap<object, { test: string; reached: Promise<string[]> }>();
shareThrough({
  make(make) {
    const s = stryker();
    const test = s?.currentTestId;
    if (!s || test === undefined) return make();
    const before = { ...s.mutantCoverage?.perTest[test] };
    const value = make();
    const reached = () => {
      const after = stryker()?.mutantCoverage?.perTest[test] ?? {};
      return Object.keys(after).filter((m) => after[m]! > (before[m] ?? 0));
    };
    if (typeof value === 'object' && value !== null) madeBy.set(value, { test, reached: Promise.resolve(value).then(reached, reached) });
    return value;
  },
  use(value) {
    const test = stryker()?.currentTestId;
    const made = typeof value === 'object' && value !== null ? madeBy.get(value) : undefined;
    if (test === undefined || !made || made.test === test) return;
    void made.reached.then((mutants) => {
      const perTest = stryker()?.mutantCoverage?.perTest;
      if (!perTest) return;
      const mine = (perTest[test] ??= {});
      for (const m of mutants) mine[m] = (mine[m] ?? 0) + 1;
    });
  },
});

let session: Session | undefined;

/** The mutants the worker's server start-ups reached: the data set loaded into a store, the app built. */
const reachedByStartUp = new Set<string>();

// Started by the file's first test, not before it, so that Stryker does not take the start-up for code reached
// outside every test (whose mutants it runs with a reloaded worker each). But every test stands on the store the
// start-up loaded: what it reached counts as reached by every test of the worker.
beforeEach(async () => {
  if (serverUnloadable !== undefined) throw serverUnloadable;
  const s = stryker();
  const test = s?.currentTestId;
  if (!session) {
    const before = test === undefined ? undefined : { ...s?.mutantCoverage?.perTest[test] };
    // The data set the mutants run against: the default one, or the one run.ts --fixture names (varied:SEED).
    const fixture = process.env[FIXTURE_ENV];
    session = await openSession({ timeoutMs: TIMEOUT_MS, concurrency: CONCURRENCY, ...(fixture ? { fixture } : {}) });
    if (before) {
      const after = stryker()?.mutantCoverage?.perTest[test!] ?? {};
      for (const [m, n] of Object.entries(after)) if (n > (before[m] ?? 0)) reachedByStartUp.add(m);
    }
    runInWorker({
      target: session.target,
      replayArgs: [],
      seed: DEFAULT_SEED,
      runs: RUNS,
      strict: false,
      timeoutMs: TIMEOUT_MS,
      concurrency: CONCURRENCY,
      sandboxFolderId: session.sandboxFolderId,
      runId: randomUUID(),
    });
  }
  const perTest = stryker()?.mutantCoverage?.perTest;
  if (test === undefined || !perTest || !reachedByStartUp.size) return;
  const mine = (perTest[test] ??= {});
  for (const m of reachedByStartUp) mine[m] = (mine[m] ?? 0) + 1;
});

// A test that had nothing to judge passes, so a mutant that takes its data away survives unseen: each such test
// of a mutant's run is written down (SILENT_FILE, set by run.ts), and score.ts names them beside the survivor.
const silentFile = process.env[SILENT_FILE];
afterEach(({ task }) => {
  const mutant = stryker()?.activeMutant;
  if (!silentFile || mutant === undefined) return;
  if (task.meta.cms?.findings.some((f) => f.check === 'fixture'))
    appendFileSync(silentFile, `${JSON.stringify({ mutant, test: task.name })}\n`);
});

// A warning is a deviation the suite reports without failing the run (seenByWarning says which warnings are). The
// suite saw the mutant then, so the test fails here, where Stryker counts it. On the clean server a default run has
// no warning at all, so Stryker's first run, which must pass, proves none of these is noise.
afterEach(({ task }) => {
  const seen = task.meta.cms?.findings.filter(seenByWarning);
  if (seen?.length) throw new Error(`the suite warned: ${seen.map((f) => `${f.requirement} ${f.check}: ${f.message}`).join('; ')}`);
});

// The server is thrown away with its state, so the sandbox is not removed: a removal run after the file's
// last test would reach the delete code outside every test, and Stryker runs each mutant reached there
// against the whole suite, reloaded.
afterAll(async () => {
  runInWorker(undefined);
  await session?.discard();
  session = undefined;
});
