/**
 * Every requirement id other than the OP ids is named by a planted fault (issue 15), so the
 * findability tests can show that its own tests fail on a server that breaks it. Static: no server runs.
 */
import { describe, expect, it } from 'vitest';
import { requirements } from '../../schemas/requirements.ts';
import { faults } from '../../server/faults.ts';

/**
 * Requirement ids no planted fault can reach, with the reason. Each needs a change outside the
 * handlers; the test below fails once a fault names one, so the entry goes when the hole is closed.
 */
const UNPLANTABLE: Record<string, string> = {
  'WST-06':
    'server/app.ts refuses an unknown wastebin value (the enum check while parsing the query, the body schema for POST getFolders) ' +
    'before any handler runs, so neither a 5xx nor an answer other than exclude can be planted in a handler',
};

const named = new Set(faults.flatMap((f) => f.breaks));

describe('requirement coverage by planted faults', () => {
  it.each(requirements.filter((r) => r.family !== 'OP' && !Object.hasOwn(UNPLANTABLE, r.id)).map((r) => r.id))(
    '%s is named by a planted fault',
    (id) => {
      expect(named.has(id), `no planted fault names ${id}: plant one (server/faults-semantic.ts) that its own tests kill`).toBe(true);
    },
  );

  it.each(Object.entries(UNPLANTABLE))('%s has no planted fault yet: %s', (id) => {
    expect(
      requirements.some((r) => r.id === id),
      `${id} is not in the catalogue`,
    ).toBe(true);
    expect(named.has(id), `${id} has a planted fault now: remove it from UNPLANTABLE`).toBe(false);
  });
});
