/** Planted faults of the reference server's semantics (placeholder until the semantics helper fills it). */
import type { FaultDef } from './types.ts';

/** The semantic layer's planted faults. */
export const semanticFaults: FaultDef[] = [];
