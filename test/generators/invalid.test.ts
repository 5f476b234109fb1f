import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromSchema } from '../../generators/fromSchema.ts';
import {
  BAD_QUERY_VALUES,
  MALFORMED_JSON_TEXTS,
  badQueryValue,
  convertedValue,
  invalidBodies,
  invalidBody,
  malformedJson,
  wrongTypeValue,
  wrongTypeValues,
} from '../../generators/invalid.ts';
import { SCHEMA_BASE, schemasById } from '../../schemas/index.ts';
import { validateBody } from '../../schemas/validate.ts';

const SEED = 20_240_601;
const requestSchemas = [...schemasById.keys()]
  .filter((id) => id.startsWith(`${SCHEMA_BASE}requests/`))
  .map((id) => id.slice(SCHEMA_BASE.length));
const isInvalid = (schemaRef: string, body: unknown) => validateBody(schemaRef, body, 'NEG-04').some((f) => f.severity === 'error');
const notJson = (text: string) => {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
};

describe('invalid inputs', () => {
  it('covers every request schema', () => {
    expect(requestSchemas.length).toBeGreaterThanOrEqual(10);
  });

  it.each(requestSchemas)('invalidBodies(%s): every body is refused by the request schema, and the valid base is not', (ref) => {
    for (const base of fc.sample(fromSchema<Record<string, unknown>>(ref), { numRuns: 20, seed: SEED })) {
      expect(isInvalid(ref, base)).toBe(false);
      const cases = invalidBodies(ref, base);
      expect(cases.length).toBeGreaterThan(0);
      for (const c of cases) {
        expect(c.value).not.toBeNull();
        expect(isInvalid(ref, c.body), `${ref} ${c.pointer} = ${JSON.stringify(c.value)}`).toBe(true);
      }
    }
  });

  it('invalidBodies: one case per wrong type of every member, nested members included, the rest of the body kept', () => {
    const base = { motherId: '42', name: 'News' };
    const cases = invalidBodies('requests/FolderCreateRequest.json', base);
    expect(cases.filter((c) => c.pointer === '/name').map((c) => c.value)).toEqual([5, false, { wrong: 'type' }, ['x']]);
    // An id held in a string turns into the same id as a number.
    expect(cases.find((c) => c.pointer === '/motherId' && typeof c.value === 'number')?.value).toBe(42);
    expect(cases.find((c) => c.pointer === '/nameI18n/x')?.body).toEqual({ ...base, nameI18n: { x: 5 } });
    const copy = invalidBodies('requests/FileCopyRequest.json', { file: { id: 1 }, targetFolder: { id: 2 } });
    expect(copy.find((c) => c.pointer === '/targetFolder/id' && c.value === 'x')?.body).toEqual({
      file: { id: 1 },
      targetFolder: { id: 'x' },
    });
    const disinherit = invalidBodies('requests/DisinheritRequest.json', {});
    expect(disinherit.find((c) => c.pointer === '/disinherit/0' && c.value === 'x')?.body).toEqual({ disinherit: ['x'] });
  });

  it('invalidBody and wrongTypeValue: arbitraries over the same values', () => {
    const bodies = fc.sample(invalidBody('requests/LocalizeRequest.json', { channelId: 2 }), { numRuns: 50, seed: SEED });
    for (const b of bodies) expect(isInvalid('requests/LocalizeRequest.json', b.body)).toBe(true);
    const values = fc.sample(wrongTypeValue({ type: 'integer' }), { numRuns: 50, seed: SEED });
    expect(values.every((v) => typeof v !== 'number' && v !== null)).toBe(true);
    expect(wrongTypeValues({ $ref: '../records/TargetFolder.json' })).toEqual(['x', 5, false, ['x']]);
  });

  it.each(requestSchemas)('malformedJson(%s): no text parses as JSON', (ref) => {
    for (const text of fc.sample(malformedJson(ref), { numRuns: 200, seed: SEED })) expect(notJson(text), text).toBe(true);
  });

  it('MALFORMED_JSON_TEXTS: none parses as JSON', () => {
    for (const text of MALFORMED_JSON_TEXTS) expect(notJson(text), text).toBe(true);
  });

  it('bad query values never parse as their type', () => {
    for (const v of BAD_QUERY_VALUES.integer) expect(/^[+-]?\d+$/.test(v) && Number.isSafeInteger(Number(v))).toBe(false);
    for (const v of BAD_QUERY_VALUES.number) expect(v.trim() !== '' && Number.isFinite(Number(v))).toBe(false);
    for (const v of BAD_QUERY_VALUES.boolean) expect(/^(true|false)$/i.test(v)).toBe(false);
    for (const v of fc.sample(badQueryValue('boolean'), { numRuns: 5, seed: SEED })) expect(BAD_QUERY_VALUES.boolean).toContain(v);
    // Each end-anchored-only reading of an integer or a boolean takes one of the values.
    expect(BAD_QUERY_VALUES.integer.some((v) => /^[+-]?\d+/.test(v) && Number.isSafeInteger(Number(v)))).toBe(true);
    expect(BAD_QUERY_VALUES.integer.some((v) => /[+-]?\d+$/.test(v) && Number.isSafeInteger(Number(v)))).toBe(true);
    expect(BAD_QUERY_VALUES.boolean.some((v) => /^(true|false)/i.test(v))).toBe(true);
    expect(BAD_QUERY_VALUES.boolean.some((v) => /(true|false)$/i.test(v))).toBe(true);
  });
});

describe('convertible wrong-type members', () => {
  it('convertedValue: numbers and booleans read as text for a string, integer strings for an integer, true/false and integers for a boolean', () => {
    expect(convertedValue('string', 5)).toBe('5');
    expect(convertedValue('string', false)).toBe('false');
    expect(convertedValue('integer', '7')).toBe(7);
    expect(convertedValue('number', '1.5')).toBe(1.5);
    expect(convertedValue('boolean', 'true')).toBe(true);
    expect(convertedValue('boolean', 5)).toBe(true);
    expect(convertedValue('boolean', 0)).toBe(false);
  });

  it('convertedValue: what cannot be converted has no converted value', () => {
    for (const [type, value] of [
      ['integer', 'x'],
      ['integer', '1.5'],
      ['integer', false],
      ['number', 'abc'],
      ['boolean', 'x'],
      ['boolean', 1.5],
      ['string', { wrong: 'type' }],
      ['string', ['x']],
      ['object', 'x'],
      ['array', 5],
    ] as const) {
      expect(convertedValue(type, value), `${type} ${JSON.stringify(value)}`).toBeUndefined();
    }
  });

  it('invalidBodies: each case says what its value converts to, if it does', () => {
    const cases = invalidBodies('requests/FolderCreateRequest.json', { motherId: '42', name: 'News' });
    expect(cases.filter((c) => c.pointer === '/name').map((c) => c.converted)).toEqual(['5', 'false', undefined, undefined]);
    expect(cases.find((c) => c.pointer === '/motherId' && c.value === 42)?.converted).toBe('42');
    expect(cases.filter((c) => c.pointer === '/failOnDuplicate').map((c) => [c.value, c.converted])).toEqual([
      ['x', undefined],
      [5, true],
      [{ wrong: 'type' }, undefined],
      [['x'], undefined],
    ]);
    expect(cases.filter((c) => c.pointer === '/nodeId').every((c) => c.converted === undefined)).toBe(true);
  });
});
