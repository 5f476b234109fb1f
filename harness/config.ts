/** The configuration one run hands to every suite (through vitest's provide/inject). */
import type { Target } from '../schemas/target.ts';

/**
 * The seed of a run without --seed: fixed, so the same target and suite version get the same
 * verdict test by test (documented in `cms-conformance help run`, README.md and INTERPRETING.md).
 */
export const DEFAULT_SEED = 20260101;

/** What a run does unless told otherwise: the one place `run`, `prove` and the mutation run take it from. */
export const RUN_DEFAULTS = {
  /** fast-check runs per property. */
  runs: 20,
  /** Per-request timeout, milliseconds. */
  timeoutMs: 10_000,
  /** Requests in flight against the embedded server (a live target gets 1 unless told otherwise). */
  embeddedConcurrency: 8,
} as const;

/** Everything a suite needs to know about the run it belongs to. */
export interface RunConfig {
  target: Target;
  /** The options that select this target again (`--target F`, `--fault X`, `--strict`...), for replay lines. */
  replayArgs: string[];
  /** The run's seed: every property test derives its own seed from it and its test id. */
  seed: number;
  /** fast-check runs per property. */
  runs: number;
  strict: boolean;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  /** Requests per second each worker may send (the run's --rate divided among its workers); absent: no cap. */
  rate?: number;
  /** Requests each worker may have in flight (--concurrency). */
  concurrency: number;
  /** How often a throttled request is repeated (--retries); absent: the transport's default. */
  maxRetries?: number;
  /** The most one request waits for Retry-After in all, in milliseconds (--max-retry-wait); absent: the transport's default. */
  maxRetryWaitMs?: number;
  /** Answers over this many bytes are cut and not judged (--max-body); absent: the transport's default. */
  maxBodyBytes?: number;
  /** A fast-check path to replay one exact case (with --only and --seed). */
  replayPath?: string;
  /** The folder the run created for everything it mutates; suites create their folders inside it. */
  sandboxFolderId: number;
  /** Tells one run from the next in a worker that outlives it (set by the suite engine for each run). */
  runId?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    cmsRun: RunConfig;
    /**
     * Tests (by id) that run against configurations of their own, one after the other, not cmsRun's:
     * prove serves all its cases in one run, each test against the server of every case that needs it.
     */
    cmsRunByTest: Record<string, RunConfig[]>;
  }
}
