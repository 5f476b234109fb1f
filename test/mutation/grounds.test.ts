/**
 * A survivor is beyond the contract only on a ground someone else can check: the open choice it falls under, or the
 * contract's own words that leave the behaviour open. An entry on no ground is a gap, and the score counts it so.
 */
import { describe, expect, it } from 'vitest';
import { getOpenChoice, quotedParts } from '../../schemas/open-choices.ts';
import { isGap, loadClassified, score, type Classified } from '../../scripts/mutation/score.ts';
import { SHARED_ABSENT, hasShared, readShared } from '../support/shared.ts';

// The contract wraps long sentences over lines: compared with whitespace runs as one space.
const flat = (text: string) => text.replace(/\s+/g, ' ');
const contract = flat(readShared('content-management-service.md'));
const entries = loadClassified();

describe('the grounds of the classified survivors', () => {
  it('names an open choice of the catalogue wherever an entry rests on one', () => {
    const unknown = entries.flatMap((c) =>
      c.ground && 'choice' in c.ground && !getOpenChoice(c.ground.choice) ? [`${c.key}: ${c.ground.choice}`] : [],
    );
    expect(unknown).toEqual([]);
  });

  it("quotes the contract's own words wherever an entry rests on a sentence", ({ skip }) => {
    skip(!hasShared, SHARED_ABSENT);
    const unquoted = entries.flatMap((c) =>
      c.ground && 'quote' in c.ground
        ? quotedParts(c.ground.quote)
            .filter((part) => !contract.includes(flat(part)))
            .map((part) => `${c.key}: "${part}"`)
        : [],
    );
    expect(unquoted).toEqual([]);
  });

  it('gives a ground only to what is beyond the contract, and says what a check must catch of a gap', () => {
    expect(entries.filter((c) => c.ground && c.class !== 'beyond-contract').map((c) => c.key)).toEqual([]);
    for (const c of entries.filter((e) => e.class === 'gap')) expect(c.reason.length, c.key).toBeGreaterThan(20);
  });

  it('counts an entry beyond the contract on no ground as a gap against the score', () => {
    const key = 'server/x.ts|EqualityOperator|a >= 0|a > 0';
    const report = {
      files: {
        'server/x.ts': {
          source: 'const a = 1;\nexport const f = () => a > 0;\n',
          mutants: [
            {
              id: '1',
              mutatorName: 'EqualityOperator',
              replacement: 'a >= 0',
              status: 'Survived' as const,
              location: { start: { line: 2, column: 24 }, end: { line: 2, column: 29 } },
            },
            {
              id: '2',
              mutatorName: 'BooleanLiteral',
              replacement: 'true',
              status: 'Killed' as const,
              location: { start: { line: 2, column: 24 }, end: { line: 2, column: 29 } },
            },
          ],
        },
      },
    };
    const entry = (extra: Partial<Classified>): Classified[] => [{ key, class: 'beyond-contract', reason: 'r', section: '2', ...extra }];
    const grounded = score(report, entry({ ground: { choice: 'refusal-status' } }));
    const bare = score(report, entry({}));
    const gap = score(report, entry({ class: 'gap' }));
    expect([grounded.beyondContract, grounded.gaps.length, grounded.score]).toEqual([1, 0, 100]);
    expect([bare.beyondContract, bare.gaps, bare.score]).toEqual([0, [key], 50]);
    expect([gap.gaps, gap.score]).toEqual([[key], 50]);
    expect(isGap(entry({})[0]!)).toBe(true);
    // Killed by the run on the other data set (run.ts --fixture), a survivor of this report is killed: no gap, no class needed.
    const elsewhere = score(report, entry({}), new Set([key]));
    expect([elsewhere.killed, elsewhere.killedElsewhere, elsewhere.gaps, elsewhere.score]).toEqual([2, 1, [], 100]);
  });
});
