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
import { runInWorker } from '../../harness/suite.ts';
import { SILENT_FILE } from './score.ts';

const { runs: RUNS, timeoutMs: TIMEOUT_MS, embeddedConcurrency: CONCURRENCY } = RUN_DEFAULTS;

let session: Session | undefined;

// Started by the file's first test, not before it: Stryker counts the code a test reaches while it runs, so
// the server's start-up is the first test's, and a mutant of it runs the tests of every file's first test
// instead of the whole suite (a mutant reached outside every test is run against all of them).
beforeEach(async () => {
  if (session) return;
  session = await openSession({ timeoutMs: TIMEOUT_MS, concurrency: CONCURRENCY });
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
});

// A test that had nothing to judge passes, so a mutant that takes its data away survives unseen: each such test
// of a mutant's run is written down (SILENT_FILE, set by run.ts), and score.ts names them beside the survivor.
const silentFile = process.env[SILENT_FILE];
afterEach(({ task }) => {
  const mutant = (globalThis as { __stryker__?: { activeMutant?: string } }).__stryker__?.activeMutant;
  if (!silentFile || mutant === undefined) return;
  if (task.meta.cms?.findings.some((f) => f.check === 'fixture'))
    appendFileSync(silentFile, `${JSON.stringify({ mutant, test: task.name })}\n`);
});

// The server is thrown away with its state, so the sandbox is not removed: a removal run after the file's
// last test would reach the delete code outside every test, and Stryker runs each mutant reached there
// against the whole suite, reloaded.
afterAll(async () => {
  runInWorker(undefined);
  await session?.discard();
  session = undefined;
});
