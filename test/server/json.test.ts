/** Response bodies written from kept record texts are exactly what JSON.stringify without null members writes. */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../server/faults.ts';
import { bodyJson, keepJson, releaseBody } from '../../server/json.ts';
import { call, freshState, ids, named } from './helpers.ts';

const withoutNulls = (_key: string, value: unknown) => (value === null ? undefined : value);

describe('bodyJson', () => {
  test.prop([fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 4 })])(
    'writes what JSON.stringify with the null-dropping replacer writes, kept records or not',
    (body, records) => {
      const kept = records.map((r) => keepJson(structuredClone(r)));
      const whole = { ...body, kept, '12': null, '3': { a: null, b: [null, 1] }, gone: undefined };
      expect(bodyJson(whole).toString()).toBe(JSON.stringify(whole, withoutNulls));
      // A map of kept values (the perms map of a listing), alone or beside kept records; keys need escaping too.
      const map = Object.fromEntries(kept.map((r, i) => [`${i}"\\${Object.keys(body)[i] ?? ''}`, r]));
      // Keyed by ids, inserted out of order: JSON.stringify writes indices ascending, and so must bodyJson.
      const byId = Object.fromEntries(kept.map((r, i) => [String((i * 7919) % 100_003), r]));
      for (const withMap of [
        { ...body, perms: map },
        { ...whole, perms: map },
        { ...whole, perms: byId, mixed: { ...byId, ...map } },
      ])
        expect(bodyJson(withMap).toString()).toBe(JSON.stringify(withMap, withoutNulls));
      expect(bodyJson(body).toString()).toBe(JSON.stringify(body, withoutNulls));
    },
  );

  it('a large body is written into a buffer used again only after it is given back, and only once', () => {
    // About 100 KB: pooled.
    const records = Array.from({ length: 100 }, (_, i) => keepJson({ id: i, name: `file-${i}`, pad: 'x'.repeat(1000) }));
    const page = { files: records, numItems: 100 };
    const text = JSON.stringify(page);
    const first = bodyJson(page) as Buffer;
    const held = bodyJson(page) as Buffer;
    expect(first.buffer).not.toBe(held.buffer);
    releaseBody(first);
    releaseBody(first);
    const again = bodyJson(page) as Buffer;
    const fresh = bodyJson(page) as Buffer;
    // The given-back buffer serves the next body, the one still held is never handed out, a second give-back is ignored.
    expect(again.buffer).toBe(first.buffer);
    expect(new Set([again.buffer, fresh.buffer, held.buffer]).size).toBe(3);
    for (const body of [again, fresh, held]) expect(body.toString()).toBe(text);
    // Small bodies are not pooled: giving one back changes nothing.
    const small = bodyJson({ files: records.slice(0, 2) }) as Buffer;
    releaseBody(small);
    const next = bodyJson({ files: records.slice(0, 2) }) as Buffer;
    // (Small buffers share Node's own pool: the same memory is the same buffer at the same offset.)
    expect(next.buffer === small.buffer && next.byteOffset === small.byteOffset).toBe(false);
  });

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

  it('page records of getPages are kept per add-on, until the store changes, and fresh where faults may reshape them', async () => {
    const s = freshState();
    const id = ids(s).pagesFolderId;
    const pages = async (query: Record<string, unknown> = {}, faults: FaultName[] = []) =>
      (await call(s, 'folder.getPages', { path: { id }, query: query as never }, faults)).pages as object[];
    const clean = await pages();
    expect(clean.length).toBeGreaterThan(0);
    expect(clean.every((r) => Object.isFrozen(r))).toBe(true);
    expect((await pages())[0]).toBe(clean[0]);
    // An add-on makes another record, kept apart from the plain one.
    const withTemplate = await pages({ template: true });
    expect(withTemplate[0]).not.toBe(clean[0]);
    expect(withTemplate[0]).toHaveProperty('template');
    expect((await pages({ template: true }))[0]).toBe(withTemplate[0]);
    expect((await pages())[0]).toBe(clean[0]);
    // A change of the store (a new folder) makes every record anew.
    await call(s, 'folder.create', { body: { motherId: ids(s).masterRootFolderId, name: 'Changed' } as never });
    const after = await pages();
    expect(after[0]).not.toBe(clean[0]);
    expect(after[0]).toEqual(clean[0]);
    expect((await pages({}, ['page-drops-readonly'])).some((r) => Object.isFrozen(r))).toBe(false);
  });
});
