// A module that counts its evaluations in its thread: once in a thread that Vitest keeps for run after run.
const thread = globalThis as { keptProbeEvaluations?: number };
thread.keptProbeEvaluations = (thread.keptProbeEvaluations ?? 0) + 1;

/** How often this module was evaluated in this thread. */
export const evaluations = (): number => thread.keptProbeEvaluations ?? 0;
