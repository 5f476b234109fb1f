/** The open-choices catalogue agrees with the contract, the reference notes, the variations and the suites. */
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectTests } from '../cli/collect.ts';
import type { DeclaredTest } from '../cli/project.ts';
import { onlyPattern } from '../cli/run.ts';
import { openChoices, quotedParts } from '../schemas/open-choices.ts';
import { variations } from '../server/variations.ts';
import { SHARED_ABSENT, hasShared, readShared } from './support/shared.ts';

// The documents wrap long sentences over lines: compared with whitespace runs as one space.
const flat = (text: string) => text.replace(/\s+/g, ' ');
const contract = flat(readShared('content-management-service.md'));
const notes = flat(readShared('reference-notes.md'));

describe('the open-choices catalogue', () => {
  it('gives every choice a unique id, one default answer and a variation for every other answer', () => {
    const ids = openChoices.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const c of openChoices) {
      expect(c.alternatives.filter((a) => a.default).length, `${c.id}: one default answer`).toBe(1);
      for (const a of c.alternatives) expect(Boolean(a.default) !== Boolean(a.variation), `${c.id}: "${a.answer}"`).toBe(true);
      expect(c.alternatives.length, `${c.id}: an open choice has another answer`).toBeGreaterThan(1);
    }
  });

  it('names each variation of the reference server once, under the choice the variation says it plays', () => {
    const named = openChoices.flatMap((c) => c.alternatives.flatMap((a) => (a.variation ? [[a.variation, c.id] as const] : [])));
    const names = named.map(([v]) => v);
    expect(names.filter((v, i) => names.indexOf(v) !== i)).toEqual([]);
    expect(Object.fromEntries(named)).toEqual(Object.fromEntries(variations.map((v) => [v.name, v.choice])));
  });

  it('has a probe for every variation in the server tests, which shows it changes an answer', () => {
    const dir = new URL('./server/', import.meta.url);
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(new URL(f, dir), 'utf8'))
      .join('\n');
    expect(variations.map((v) => v.name).filter((name) => !sources.includes(`'${name}'`))).toEqual([]);
  });

  it("quotes the contract's and the reference notes' own words", ({ skip }) => {
    skip(!hasShared, SHARED_ABSENT);
    const unquoted = openChoices.flatMap((c) => [
      ...quotedParts(c.sentence)
        .filter((part) => !contract.includes(flat(part)))
        .map((part) => `${c.id} sentence: "${part}"`),
      ...quotedParts(c.notes ?? '')
        .filter((part) => !notes.includes(flat(part)))
        .map((part) => `${c.id} notes: "${part}"`),
    ]);
    expect(unquoted).toEqual([]);
  });

  it('names sections of the contract', ({ skip }) => {
    skip(!hasShared, SHARED_ABSENT);
    const sections = new Set(
      readShared('content-management-service.md')
        .split('\n')
        .flatMap((line) => /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(line)?.[1] ?? []),
    );
    expect(openChoices.filter((c) => !sections.has(c.section)).map((c) => `${c.id}: ${c.section}`)).toEqual([]);
  });

  it('puts every reading in the Readings table of INTERPRETING.md', () => {
    const interpreting = readFileSync(new URL('../INTERPRETING.md', import.meta.url), 'utf8');
    const table = interpreting.slice(interpreting.indexOf('## Readings'));
    expect(openChoices.filter((c) => c.kind === 'reading' && !table.includes(`\`${c.id}\``)).map((c) => c.id)).toEqual([]);
  });

  describe('tests', () => {
    let declared: DeclaredTest[] = [];
    beforeAll(async () => {
      declared = await collectTests();
    }, 120_000);

    it('names tests the suites declare', () => {
      const ids = new Set(declared.map((t) => t.id));
      const unknown = openChoices.flatMap((c) =>
        c.tests
          .filter((name) => !ids.has(name) && !declared.some((t) => onlyPattern([name])!.test(t.id)))
          .map((name) => `${c.id}: ${name}`),
      );
      expect(unknown).toEqual([]);
    });
  });
});
