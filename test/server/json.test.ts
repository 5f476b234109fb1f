/** Response bodies written from kept record texts are exactly what JSON.stringify without null members writes. */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { bodyJson, keepJson } from '../../server/json.ts';
import { call, freshState, named } from './helpers.ts';

const withoutNulls = (_key: string, value: unknown) => (value === null ? undefined : value);

describe('bodyJson', () => {
  test.prop([fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 4 })])(
    'writes what JSON.stringify with the null-dropping replacer writes, kept records or not',
    (body, records) => {
      const kept = records.map((r) => keepJson(structuredClone(r)));
      const whole = { ...body, kept, '12': null, '3': { a: null, b: [null, 1] }, gone: undefined };
      expect(bodyJson(whole).toString()).toBe(JSON.stringify(whole, withoutNulls));
      expect(bodyJson(body).toString()).toBe(JSON.stringify(body, withoutNulls));
    },
  );

  it('listing records are kept frozen on a clean server, and fresh where faults may reshape them', async () => {
    const s = freshState();
    const folderId = named(s, 'folder', 'Downloads').id;
    const clean = (await call(s, 'folder.getFiles', { path: { folderId } })).files;
    expect(clean.length).toBeGreaterThan(0);
    expect(clean.every((r: object) => Object.isFrozen(r))).toBe(true);
    expect((await call(s, 'folder.getFiles', { path: { folderId } })).files[0]).toBe(clean[0]);
    const faulty = (await call(s, 'folder.getFiles', { path: { folderId } }, ['alternateurls-unsorted'])).files;
    expect(faulty.some((r: object) => Object.isFrozen(r))).toBe(false);
  });
});
