/**
 * How a planted fault is declared: the fault layers (faults-http.ts, faults-semantic.ts,
 * faults-params.ts) declare theirs with `faultDefs`, and faults.ts derives the union of their names.
 * Kept apart from faults.ts so that the layers do not import the catalogue they are part of.
 */
import type { Feature } from '../schemas/requirements.ts';

/** A planted fault: a deliberate, realistic deviation from the named requirements. */
export interface FaultDef<Name extends string = string> {
  name: Name;
  /** Requirement ids the fault breaks, e.g. ['PAG-05']. */
  breaks: string[];
  description: string;
  /** The feature the fault's code path needs: on a server without it the fault cannot show (prove --profile removes it). */
  needs?: Feature;
  /**
   * The data set the fault shows on, where the default one cannot show it (a --fixture value, `varied:1`): prove
   * serves it for this fault, and beside it a clean server of the same data.
   */
  data?: string;
  /**
   * A request whose answer the fault changes, for test/server/faults.test.ts to show the switch is no
   * no-op before any suite runs: the operation, the default data set's folder (by name) it lists, and
   * query parameters. A fault without one has a probe written in that test.
   */
  probe?: FaultProbe;
}

/** A probe request of a fault: an operation on a folder of the default data set, named, with query parameters. */
export interface FaultProbe {
  op: string;
  folder: string;
  query?: Record<string, string | number | boolean>;
}

/** Returns a list of fault definitions as given, typed with their literal names: FaultName derives from them. */
export function faultDefs<Name extends string>(defs: FaultDef<Name>[]): FaultDef<Name>[] {
  return defs;
}
