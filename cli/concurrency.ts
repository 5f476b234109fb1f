/**
 * `--concurrency auto`, the default for a live target: how many requests in flight it takes. A target far
 * away answers each request late but may answer several at once; one that is busy answers later the more
 * it gets, or says so with 429 or 503. The run then sends that many at once: as many suite files side by
 * side, each with its own sandbox folder and one request at a time.
 */
import type { Exchange } from '../harness/transport.ts';

/** The in-flight ceiling of `--concurrency auto` without `--concurrency-max`. */
export const DEFAULT_CONCURRENCY_MAX = 8;

/** One level of the search: requests in flight, the median answer time, and whether the target pushed back. */
export interface Level {
  inFlight: number;
  medianMs: number;
  /** A 429 or a 503 came: the target asks for less. */
  pushedBack: boolean;
  /** Requests sent at this level. */
  requests: number;
}

/** What the search found: the requests in flight to use, and each level it tried. */
export interface Sizing {
  inFlight: number;
  levels: Level[];
}

/** Sequential requests that give the time at 1 in flight; each higher level sends this many rounds. */
const BASE_REQUESTS = 8;
const ROUNDS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Whether an answer says the target is too busy for what it gets. */
const pushesBack = (e: Exchange) => e.response?.status === 429 || e.response?.status === 503;

/**
 * Whether answers at a level come as fast as at 1 in flight: within a quarter, and 2 ms for the jitter
 * of a target on loopback, where a quarter of a millisecond is noise.
 */
export function asFast(level: Pick<Level, 'medianMs'>, base: Pick<Level, 'medianMs'>): boolean {
  return level.medianMs <= base.medianMs * 1.25 + 2;
}

/** Sends `rounds` rounds of `n` requests at once and measures them. */
async function measure(send: () => Promise<Exchange>, n: number, rounds: number): Promise<Level> {
  const times: number[] = [];
  let pushedBack = false;
  for (let r = 0; r < rounds && !pushedBack; r++) {
    const answers = await Promise.all(Array.from({ length: n }, () => send()));
    for (const e of answers) {
      times.push(e.durationMs);
      pushedBack ||= pushesBack(e);
    }
  }
  return { inFlight: n, medianMs: median(times), pushedBack, requests: times.length };
}

/**
 * Finds the requests in flight a target takes: starts at 1, doubles while answers stay as fast as at
 * 1 in flight and no 429 or 503 comes, and halves (back to the last level that held) on either; never
 * above `max`. `send` sends one harmless read with no retry, so that a 429 is seen, not waited out.
 */
export async function sizeConcurrency(send: () => Promise<Exchange>, max: number): Promise<Sizing> {
  const base = await measure(send, 1, BASE_REQUESTS);
  const levels = [base];
  let inFlight = 1;
  while (!base.pushedBack && inFlight < max) {
    const level = await measure(send, Math.min(max, inFlight * 2), ROUNDS);
    levels.push(level);
    if (level.pushedBack || !asFast(level, base)) break;
    inFlight = level.inFlight;
  }
  return { inFlight, levels };
}

/**
 * Answers at 1 in flight within this many milliseconds come from a target on this machine or next to it: the
 * run then waits little and is bound by this machine's own work.
 */
export const LOCAL_MS = 2;

/**
 * How many suite files to run side by side for a sizing: as many as the target takes in flight, but for a
 * target that answers within LOCAL_MS no more than this machine's cores. A file waits on the target only
 * while a request is out; when answers come that fast, files beyond the cores only share them, each with an
 * isolate of its own to start and fill (on two cores against the reference server on loopback, eight files side
 * by side took longer, more CPU and more memory than two: BENCHMARKS.md 2026-11-28).
 */
export function filesSideBySide(s: Sizing, cores: number): number {
  const base = s.levels[0];
  return base && base.medianMs <= LOCAL_MS ? Math.max(1, Math.min(s.inFlight, cores)) : s.inFlight;
}

/** The search in one line, for the run's output: each level's median, then what was chosen. */
export function sizingText(s: Sizing): string {
  const levels = s.levels.map((l) => `${l.inFlight} in flight ${l.medianMs.toFixed(1)} ms${l.pushedBack ? ' (pushed back)' : ''}`);
  return `${levels.join(', ')}: ${s.inFlight} in flight`;
}
