/** The catalogue of every planted fault of the reference server: HTTP-level and semantic. */
import { httpFaults, shapeFaults } from './faults-http.ts';
import { paramShapeFaults } from './faults-params.ts';
import { semanticFaults } from './faults-semantic.ts';
import type { FaultDef } from './fault-def.ts';

/** The name of a planted fault, as `serve --fault NAME` and `startReferenceServer({ faults })` take it. */
export type FaultName =
  | (typeof httpFaults)[number]['name']
  | (typeof semanticFaults)[number]['name']
  | (typeof paramShapeFaults)[number]['name']
  | (typeof shapeFaults)[number]['name'];

/** Every planted fault: HTTP-level, semantic, shape faults under one parameter value, then one shape fault per response type; sorted by name within each. */
export const faults: readonly FaultDef<FaultName>[] = [
  ...[...httpFaults].sort((a, b) => a.name.localeCompare(b.name)),
  ...[...semanticFaults].sort((a, b) => a.name.localeCompare(b.name)),
  ...[...paramShapeFaults].sort((a, b) => a.name.localeCompare(b.name)),
  ...[...shapeFaults].sort((a, b) => a.name.localeCompare(b.name)),
];

const byName = new Map<string, FaultDef<FaultName>>(faults.map((f) => [f.name, f]));
if (byName.size !== faults.length) throw new Error('planted fault names must be unique across layers');

/** Returns the planted fault with that name, or undefined. */
export function getFault(name: string): FaultDef<FaultName> | undefined {
  return byName.get(name);
}

/** Whether a name given as text (the command line, a JavaScript caller) is a planted fault's. */
export function isFaultName(name: string): name is FaultName {
  return byName.has(name);
}

/** Fault names given as text, checked against the catalogue: an unknown one is an error naming every known fault. */
export function faultNamesOf(names: readonly string[]): FaultName[] {
  const unknown = names.filter((name) => !isFaultName(name));
  if (unknown.length > 0) throw new Error(`unknown fault ${unknown.join(', ')}; known faults: ${faults.map((f) => f.name).join(', ')}`);
  return names.filter(isFaultName);
}
