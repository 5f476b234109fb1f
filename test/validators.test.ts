import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_BASE, createAjv, fileSchemasById, getValidator, schemasById } from '../schemas/index.ts';
import precompiled from '../schemas/validators.js';
import { VALIDATORS_PATH, renderValidators } from '../scripts/gen-validators.ts';

describe('schemas/validators.js', () => {
  it('is exactly what npm run gen:validators generates from the schemas', () => {
    // A schema changed without the file regenerated would be judged by its old validator.
    expect(readFileSync(VALIDATORS_PATH, 'utf8') === renderValidators(), 'run npm run gen:validators').toBe(true);
  });

  it('holds a validator for every schema, and getValidator hands it out', () => {
    const ids = [...schemasById.keys(), ...fileSchemasById.keys()];
    expect(Object.keys(precompiled).sort()).toEqual(ids.sort());
    for (const id of ids) expect(getValidator(id), id).toBe(precompiled[id]);
  });

  // The formats and helpers Ajv's code takes from its runtime come in through `require`: these cases use them.
  it.each([
    ['records/BreadcrumbEntry.json', [{ id: 1, globalId: 'g', name: 'n' }, { id: 'x', name: 2 }, []]],
    [
      'inputs/expectations.json',
      [
        { 'PAG-01 x': { expected: ['PASS', 'FAIL'], reason: 'r', until: '2026-12-01', seeds: { PASS: [1], FAIL: [2] } } },
        { 'PAG-01 x': { expected: 'FAIL', reason: 'r', until: '2026-13-01' } },
        { 'PAG-01 x': { expected: ['FAIL', 'PASS'], reason: '', seeds: { PASS: [1, 1] } } },
      ],
    ],
  ])('%s judges as the validator Ajv compiles at run time, errors included', (ref, bodies) => {
    const ajv = createAjv();
    const id = `${SCHEMA_BASE}${ref}`;
    const verdicts = bodies.map((body) => {
      const compiled = ajv.getSchema(id)!;
      const valid = compiled(body);
      expect(precompiled[id]!(body)).toBe(valid);
      expect(precompiled[id]!.errors ?? null).toEqual(compiled.errors ?? null);
      return valid;
    });
    expect(verdicts).toEqual([true, false, false]);
  });
});
