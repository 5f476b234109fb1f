/** The catalogue of every planted fault of the reference server: HTTP-level and semantic. */
import { httpFaults, shapeFaults } from './faults-http.ts';
import { paramShapeFaults } from './faults-params.ts';
import { semanticFaults } from './faults-semantic.ts';
import type { FaultDef } from './types.ts';

/** Every planted fault: HTTP-level, semantic, shape faults under one parameter value, then one shape fault per response type; sorted by name within each. */
export const faults: readonly FaultDef[] = [
  ...[...httpFaults].sort((a, b) => a.name.localeCompare(b.name)),
  ...[...semanticFaults].sort((a, b) => a.name.localeCompare(b.name)),
  ...[...paramShapeFaults].sort((a, b) => a.name.localeCompare(b.name)),
  ...[...shapeFaults].sort((a, b) => a.name.localeCompare(b.name)),
];

const byName = new Map(faults.map((f) => [f.name, f]));
if (byName.size !== faults.length) throw new Error('planted fault names must be unique across layers');

/** Returns the planted fault with that name, or undefined. */
export function getFault(name: string): FaultDef | undefined {
  return byName.get(name);
}
