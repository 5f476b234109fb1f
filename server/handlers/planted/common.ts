/**
 * The planted faults and variations of the helpers every handler shares (server/handlers/common.ts), one plan per
 * helper that asks a switch: qWastebin and resolveObject.
 *
 * A helper asks for its plan with the switches its caller hands it (`const plan = planted.resolveObject(o.faults)`)
 * and consults it at named points of the contract's code: a hook takes the value the contract computed there and
 * returns the one the helper goes on with, or (a hook that returns nothing) may throw where a fault does. With every
 * switch off each hook gives back what it was given and does nothing else, so common.ts reads as the contract, and
 * this file, which only ever differs from the contract, is left out of the mutation run (scripts/mutation). The
 * wastebin hooks are generic over the mode's type (common.ts `Wastebin`): importing it from there would close a
 * circle of imports (test/project/cycles.test.ts).
 */
import { Refusal, type FaultSet } from '../../types.ts';

/** The hooks of the `wastebin` parameter's reading (qWastebin). */
export interface WastebinPlan {
  /** The mode as read; the contract: `mode`, the one asked (an unknown value read as exclude). */
  mode<M extends string>(mode: M): M | 'include';
}

/** The hooks of resolving an id to an object (resolveObject). */
export interface ResolvePlan {
  /** Before the id `text` is looked up; `what` and `property` name it in a refusal. */
  lookingUp(text: string, what: string, property: string | undefined): void;
  /** The wastebin mode the object is resolved under; the contract: `wastebin`, the one the caller gives. */
  wastebin<M extends string>(wastebin: M): M | 'exclude';
  /** Whether an object in the wastebin is refused NOTFOUND; the contract: `refused`. */
  refusesDeleted(refused: boolean, property: string | undefined): boolean;
}

/** The plan of qWastebin. */
export function qWastebin(faults: FaultSet): WastebinPlan {
  return {
    // Planted (wastebin-only-ignored): wastebin=only is read as include, so live objects are listed with the deleted ones.
    mode: (mode) => (mode === 'only' && faults.has('wastebin-only-ignored') ? 'include' : mode),
  };
}

/** The plan of resolveObject. */
export function resolveObject(faults: FaultSet): ResolvePlan {
  return {
    lookingUp: (text, what, property) => {
      // Planted (globalid-not-accepted): only a numeric local id is looked up; a global id is not found.
      if (faults.has('globalid-not-accepted') && !/^\d+$/.test(text)) throw new Refusal('NOTFOUND', `${what} ${text} not found`, property);
    },
    // Variation (deleted-folder-not-found): an object in the wastebin is not found by id, whatever `wastebin` says;
    // a listing reaches its content through a folder that is not deleted (reference notes: "Loading a deleted object by id gives NOTFOUND").
    wastebin: (wastebin) => (faults.has('deleted-folder-not-found') ? 'exclude' : wastebin),
    // Planted (deleted-folder-takes-content): a deleted folder named as the place of a create or a move is taken, and what goes
    // there lands in the wastebin with it.
    refusesDeleted: (refused, property) =>
      refused && !(faults.has('deleted-folder-takes-content') && (property === 'motherId' || property === 'folderId')),
  };
}
