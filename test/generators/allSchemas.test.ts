import { describe, it } from 'vitest';
import * as fc from 'fast-check';
import { fromSchema } from '../../generators/fromSchema.ts';
import { SCHEMA_BASE, getAjv, getValidator, schemasById } from '../../schemas/index.ts';

// Every schema the project has, whatever exists when the suite runs: generated values must validate.
const RUNS_PER_SCHEMA = 10_000;
const SEED = 20_240_601;
const ids = [...schemasById.keys()];

describe('fromSchema: every project schema', () => {
  it('has schemas to sweep', ({ expect }) => {
    expect(ids.length).toBeGreaterThan(0);
  });

  it.each(ids.map((id) => [id.slice(SCHEMA_BASE.length), id]))('%s: 10,000 generated values validate', (_name, id) => {
    const validate = getValidator(id);
    fc.assert(
      fc.property(fromSchema(id), (value) => {
        if (!validate(value)) throw new Error(getAjv().errorsText(validate.errors));
      }),
      { numRuns: RUNS_PER_SCHEMA, seed: SEED },
    );
  });
});
