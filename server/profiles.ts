/**
 * Profiles of the reference server: the contract as written (`default`), and the deployed open-source
 * server as reference-notes.md describes it (`field`), so that a run can show the suite fails a
 * field-shaped server for its real deviations and for nothing else.
 */
import type { RefusalStyle } from './app.ts';
import type { FaultName } from './faults.ts';

/** A named way the reference server behaves. */
export interface ProfileDef {
  name: string;
  description: string;
  /** How refusals are answered. */
  refusalStyle: RefusalStyle;
  /** Planted faults the profile switches on: the deviations from the contract it carries. */
  deviations: FaultName[];
  /** Whether the multichannelling operations exist (and the target declares the feature). */
  multichannelling: boolean;
  /**
   * Planted faults the profile's own deviations hide, with the reason: `prove --profile` reports them
   * as removed. (Faults of an absent feature need no entry: their tests skip.)
   */
  masks: Partial<Record<FaultName, string>>;
}

/** Every profile; `default` first. */
export const profiles: readonly ProfileDef[] = [
  {
    name: 'default',
    description: 'the contract as written: refusals with a 4xx status, every feature',
    refusalStyle: 'status',
    deviations: [],
    multichannelling: true,
    masks: {},
  },
  {
    name: 'field',
    description:
      'the deployed open-source server (reference notes): refusals as 200 with the code in the body, successful POSTs as 200, ' +
      'no responseInfo on successful findFiles, findPages and getExternalLinks, no multichannelling endpoints',
    refusalStyle: 'body',
    deviations: ['post-answers-200', 'success-without-responseinfo'],
    multichannelling: false,
    masks: {},
  },
];

/** The profile of that name, or undefined. */
export function getProfile(name: string): ProfileDef | undefined {
  return profiles.find((p) => p.name === name);
}
