/**
 * The open-choices catalogue (schemas/open-choices.json): every point where a test touches what the
 * contract leaves open, with the answers a correct server may give and the variation of the reference
 * server that plays each answer it does not give by default.
 */
import { readFileSync } from 'node:fs';

/** What kind of openness a choice is (the contract shows no effect, no outcome, no member, ...). */
export type ChoiceKind = 'effect' | 'outcome' | 'member' | 'counter' | 'state' | 'value' | 'reading';

/** One answer a correct server may give to an open choice. */
export interface Alternative {
  answer: string;
  /** The reference server's own answer (the reference notes' where they speak): exactly one per choice. */
  default?: true;
  /** The variation that plays this answer (server/variations.ts): every answer but the default has one. */
  variation?: string;
}

/** One open choice. */
export interface OpenChoice {
  id: string;
  kind: ChoiceKind;
  question: string;
  /** The contract section of the sentence. */
  section: string;
  /** The contract's words that leave the point open, verbatim; ` ... ` joins quoted parts. */
  sentence: string;
  /** The reference notes' words, verbatim, where they speak of it. */
  notes?: string;
  alternatives: Alternative[];
  /** Test ids, or requirement ids and prefixes as `run --only` takes them. */
  tests: string[];
  /** How the suite reads the point, so that every answer passes. */
  judged: string;
}

const file = JSON.parse(readFileSync(new URL('./open-choices.json', import.meta.url), 'utf8')) as { choices: OpenChoice[] };

/** Every open choice, in the catalogue's order. */
export const openChoices: readonly OpenChoice[] = file.choices;

/** The open choice of that id, or undefined. */
export function getOpenChoice(id: string): OpenChoice | undefined {
  return openChoices.find((c) => c.id === id);
}

/** The quoted parts of a sentence (` ... ` joins them), each to be found verbatim in its source. */
export function quotedParts(sentence: string): string[] {
  return sentence
    .split(' ... ')
    .map((part) => part.trim())
    .filter(Boolean);
}
