/**
 * The requirement catalogue (schemas/requirements.json): every id of the shared catalogue
 * (contract/requirements.md), finer ids split from them (`WST-04a`), and one `OP-<operation id>`
 * per operation. Ids never change meaning once published: results and expectations are keyed on them.
 */
import { readFileSync } from 'node:fs';

/** MUST: the contract states it; SHOULD: robustness where the contract is silent (a warning, never a failure). */
export type Level = 'MUST' | 'SHOULD';

/** Features a target declares; a requirement tagged with one is skipped on targets without it. */
export type Feature = 'multichannelling' | 'wastebin' | 'pages' | 'templates' | 'sourceUrl' | 'auth';

/** One testable requirement. */
export interface Requirement {
  /** Stable id, e.g. `PAG-03`, `WST-04a`, `OP-folder.getFiles`. */
  id: string;
  /** The id's prefix: `OP`, `ENV`, `PAG`, `SRT`, `FLT`, `WST`, `DEL`, `UPL`, `FIL`, `FLD`, `MCH`, `USE`, `PGE`, `NEG`. */
  family: string;
  /** Contract section the requirement comes from, e.g. `4.1`. */
  section: string;
  level: Level;
  feature: Feature | null;
  /** The operation id, for `OP-` requirements only. */
  operation?: string;
  /** One line. */
  statement: string;
}

const catalogue = JSON.parse(readFileSync(new URL('./requirements.json', import.meta.url), 'utf8')) as {
  requirements: Requirement[];
};

/** Every requirement, in catalogue order (operations first, then the families of requirements.md). */
export const requirements: readonly Requirement[] = catalogue.requirements;

const byId = new Map(requirements.map((r) => [r.id, r]));

/** Returns the requirement with this id; throws on an unknown id (the catalogue is closed). */
export function getRequirement(id: string): Requirement {
  const req = byId.get(id);
  if (!req) throw new Error(`unknown requirement id: ${id}`);
  return req;
}

/**
 * Whether `id` is `pattern` or lies under it: `PAG` covers `PAG-01`, `PAG-03` covers its split
 * `PAG-03a`, `OP-folder.disinherit` covers `OP-folder.disinherit.get`.
 */
function covers(pattern: string, id: string): boolean {
  if (id === pattern) return true;
  if (!id.startsWith(pattern)) return false;
  const next = id[pattern.length] ?? '';
  return next === '-' || next === '.' || (/\d$/.test(pattern) && /^[a-z]$/.test(next));
}

/**
 * Returns the requirements matched by any of the patterns (ids or prefixes such as `PAG` or
 * `OP-folder.load`), in catalogue order; throws naming a pattern that matches nothing, so a typo
 * never silently selects no tests.
 */
export function matchRequirements(patterns: readonly string[]): Requirement[] {
  const unmatched = patterns.filter((p) => !requirements.some((r) => covers(p, r.id)));
  if (unmatched.length) throw new Error(`no requirement matches: ${unmatched.join(', ')}`);
  return requirements.filter((r) => patterns.some((p) => covers(p, r.id)));
}
