import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import {
  bytesClasses,
  description,
  fileContent,
  fileName,
  folderName,
  partClasses,
  searchTerm,
  textClasses,
  userLogin,
} from '../../generators/faker.ts';

const SEED = 20_240_601;
const sample = <T>(arb: fc.Arbitrary<T>, numRuns = 1000): T[] => fc.sample(arb, { numRuns, seed: SEED });
const share = <T>(values: T[], predicate: (v: T) => boolean): number => values.filter(predicate).length / values.length;

const NON_ASCII_LETTER = /[\u00c0-\u024f\u0370-\u04ff\u3040-\u30ff\u4e00-\u9fff]/;
const SYMBOL = /[✓★→☂♫©§±]/;
const invalidUtf8 = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
};
const includesBytes = (haystack: Uint8Array, needle: number[]): boolean =>
  haystack.some((_, i) => needle.every((b, j) => haystack[i + j] === b));

describe('faker arbitraries', () => {
  it('folderName: never "/" or NUL, NFC, within the Basic Multilingual Plane, at most 60 characters, with spaces, accents and symbols', () => {
    const names = sample(folderName(), 2000);
    for (const name of names) {
      expect(name).not.toMatch(/[/\u0000]/);
      expect(name.length).toBeGreaterThan(0);
      expect(name.length).toBeLessThanOrEqual(60);
      expect(name).toBe(name.trim());
      expect(name).toBe(name.normalize('NFC'));
      // No emoji: a three-byte UTF-8 column (MySQL utf8) cannot store them, and the contract names no alphabet.
      expect(name).not.toMatch(/[^\u0000-\uffff]/u);
    }
    expect(share(names, (n) => n.includes(' '))).toBeGreaterThan(0.3);
    expect(share(names, (n) => NON_ASCII_LETTER.test(n))).toBeGreaterThan(0.2);
    expect(share(names, (n) => SYMBOL.test(n))).toBeGreaterThan(0.05);
    expect(share(names, (n) => n.length > 40)).toBeGreaterThan(0.03);
  });

  it('fileName: an extension, never "/" or NUL, sometimes spaces and accents', () => {
    const names = sample(fileName(), 2000);
    for (const name of names) {
      expect(name).toMatch(/^[^/\u0000]+\.[A-Za-z0-9]+$/);
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).not.toMatch(/\.(jpe?g|png|gif|svg|webp)$/i);
    }
    expect(share(names, (n) => n.includes(' '))).toBeGreaterThan(0.1);
    expect(share(names, (n) => NON_ASCII_LETTER.test(n))).toBeGreaterThan(0.05);
    expect(new Set(names.map((n) => n.split('.').pop()!.toLowerCase())).size).toBeGreaterThan(10);
  });

  it('fileContent: never empty; NUL, CRLF, invalid UTF-8, boundary look-alikes and sizes up to 1 MiB, weighted small', () => {
    const contents = sample(fileContent(), 2000);
    const sizes = contents.map((c) => c.length).sort((a, b) => a - b);
    expect(contents.every((c) => c instanceof Uint8Array)).toBe(true);
    expect(sizes.at(-1)).toBeLessThanOrEqual(1024 * 1024);
    expect(sizes.at(-1)).toBeGreaterThan(512 * 1024);
    expect(sizes[Math.floor(sizes.length / 2)]).toBeLessThan(1024);
    expect(contents.filter((c) => c.length === 0)).toEqual([]);
    expect(share(contents, (c) => c.includes(0))).toBeGreaterThan(0.1);
    expect(share(contents, (c) => includesBytes(c, [13, 10]))).toBeGreaterThan(0.1);
    expect(share(contents, (c) => c.length > 0 && c.length < 1024 && invalidUtf8(c))).toBeGreaterThan(0.1);
    const boundary = new TextEncoder().encode('\r\n--');
    expect(share(contents, (c) => includesBytes(c, [...boundary]))).toBeGreaterThan(0.05);
  });

  it('userLogin and searchTerm: non-empty, logins without whitespace', () => {
    for (const login of sample(userLogin())) expect(login).toMatch(/^\S+$/);
    const terms = sample(searchTerm());
    expect(terms.every((t) => t.length > 0)).toBe(true);
    expect(terms.some((t) => /[%_*\\]/.test(t))).toBe(true);
    expect(terms.some((t) => /^\d+$/.test(t))).toBe(true);
  });

  it('description: empty, single-line and multi-line texts', () => {
    const texts = sample(description());
    expect(texts.some((t) => t === '')).toBe(true);
    expect(texts.some((t) => t.includes('\n'))).toBe(true);
    expect(texts.some((t) => t.length > 0 && !t.includes('\n'))).toBe(true);
  });

  it('replays the same values from the same seed', () => {
    for (const arb of [folderName(), description(), fileName(), fileContent(), userLogin(), searchTerm()]) {
      const run = (): unknown[] => fc.sample(arb as fc.Arbitrary<unknown>, { numRuns: 100, seed: 11 });
      expect(run()).toEqual(run());
    }
  });

  it('shrinks deterministically: the same seed reports the same counterexample', () => {
    const check = () =>
      fc.check(
        fc.property(folderName(), (name) => name.length < 30),
        { seed: SEED },
      );
    const first = check();
    expect(first.failed).toBe(true);
    expect(check().counterexample).toEqual(first.counterexample);
  });
});

describe('input classes of generated values', () => {
  it('textClasses tells the kinds of generated names apart', () => {
    expect(textClasses('')).toEqual(['empty']);
    expect(textClasses('Akte')).toEqual(['short', 'upper', 'lower']);
    expect(textClasses('Straße 📁')).toEqual(expect.arrayContaining(['latin', 'space', 'astral']));
    expect(textClasses('Q&A')).toContain('ascii:&');
    expect(textClasses('a.v2.final.pdf')).toContain('dots');
    expect(textClasses('x'.repeat(255))).toContain('longest');
    expect(textClasses('eins\nzwei')).toContain('lines');
  });

  it('every branch of folderName shows in the classes of a sample', () => {
    const classes = new Set(sample(folderName(), 300).flatMap(textClasses));
    for (const c of ['latin', 'medium', 'short', 'space']) expect(classes).toContain(c);
    expect(classes).not.toContain('astral');
  });

  it('bytesClasses tells the generated contents apart', () => {
    expect(bytesClasses(new Uint8Array(0))).toEqual(['empty']);
    expect(bytesClasses(new TextEncoder().encode('a\r\nb'))).toEqual(['bytes', 'cr', 'utf-8']);
    expect(bytesClasses(Uint8Array.of(0x61, 0, 0xff))).toEqual(['bytes', 'nul', 'not-utf-8']);
    expect(bytesClasses(new TextEncoder().encode('--XYZ\r\npart'))).toContain('boundary');
    const classes = new Set(sample(fileContent(), 300).flatMap(bytesClasses));
    for (const c of ['kilobytes', 'nul', 'cr', 'not-utf-8', 'boundary']) expect(classes).toContain(c);
  });

  it('partClasses names each class by its part', () => {
    expect(partClasses({ name: ['short'], data: ['empty'] })).toEqual(['name:short', 'data:empty']);
  });
});
