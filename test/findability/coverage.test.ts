/**
 * Every requirement id, the OP ids among them, is named by a planted fault (issue 15), so the
 * findability tests can show that each of its own tests fails on a server that breaks it. Static: no server runs.
 */
import { describe, expect, it } from 'vitest';
import { requirements } from '../../schemas/requirements.ts';
import { faults } from '../../server/faults.ts';

const named = new Set(faults.flatMap((f) => f.breaks));

describe('requirement coverage by planted faults', () => {
  it.each(requirements.map((r) => r.id))('%s is named by a planted fault', (id) => {
    expect(named.has(id), `no planted fault names ${id}: plant one (server/faults-semantic.ts) that its own tests kill`).toBe(true);
  });
});
