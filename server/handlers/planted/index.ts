/**
 * The planted faults of the handler table (server/handlers/index.ts): the marking of the store as changed around every
 * handler that may change it.
 *
 * The wrapper asks for its plan with the request's switches (`planted.changing(ctx.faults)`) and consults it at a named
 * point of the contract's code: the hook takes what the contract uses there and returns what the wrapper goes on with.
 * With every switch off it gives back what it was given, so index.ts reads as the contract, and this file, which only
 * ever differs from the contract, is left out of the mutation run (scripts/mutation).
 */
import type { State } from '../../state.ts';
import type { FaultSet } from '../../types.ts';

/** How the store is marked changed (state.ts `touch`). */
type Mark = (state: State, onlyAdds: boolean) => void;

/** The hooks of the wrapper of a handler that may change the store (changing). */
export interface ChangingPlan {
  /** How the store is marked changed before and after the handler; the contract: `mark`, state.ts `touch`. */
  mark(mark: Mark): Mark;
}

/** Marks nothing. */
const markNothing: Mark = () => {};

/** The plan of changing. */
export function changing(faults: FaultSet): ChangingPlan {
  return {
    // Planted (kept-listing-after-change): only the store's primitives mark it changed, so a member changed in place leaves
    // kept listings as they were.
    mark: (mark) => (faults.has('kept-listing-after-change') ? markNothing : mark),
  };
}
