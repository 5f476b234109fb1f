/**
 * Parameter coverage (issue 31 item 5): every query parameter and JSON body member of every operation
 * is judged by a test of a default run, or listed in schemas/parameter-effects.json as a parameter the
 * contract gives no effect, or a known gap of schemas/parameter-gaps.json. And every claim is true: with
 * the parameter removed by a relay (`prove --parameters`), one of the tests that claim it fails.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { withoutMember, withoutParameter } from '../cli/param-relay.ts';
import type { ProofCase } from '../cli/prove-file.ts';
import { parameterCoverage, parameterVerdict, type ParameterCoverage } from '../reports/parameters.ts';
import { allParameters, parameterEffects, parameterGaps, parameterKey } from '../schemas/parameters.ts';
import type { Results } from '../schemas/results.ts';
import { cli } from './support/cli.ts';
import { SHARED_ABSENT, hasShared, readShared } from './support/shared.ts';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

// A clone of the project alone has no shared contract: the quotes' check skips there.
const contract = readShared('content-management-service.md');

const keyOf = (c: { operation: string; name: string }) => parameterKey(c.operation, c.name);

describe('the parameter relay', () => {
  const drop = { operation: 'folder.getFiles', parameter: 'sortorder', in: 'query' } as const;

  it('removes the parameter from requests of its operation, every value of it, and keeps the rest', () => {
    expect(withoutParameter('GET', '/rest/folder/getFiles/7?sortorder=desc&sid=s&sortorder=asc', '/rest', undefined, drop)).toBe(
      '/rest/folder/getFiles/7?sid=s',
    );
    expect(withoutParameter('GET', '/rest/folder/getFiles/7?sortorder=desc', '/rest', undefined, drop)).toBe('/rest/folder/getFiles/7');
  });

  it('leaves other operations, requests without the parameter and paths outside the base alone', () => {
    expect(withoutParameter('GET', '/rest/folder/getFolders/7?sortorder=desc', '/rest', undefined, drop)).toBeUndefined();
    expect(withoutParameter('GET', '/rest/folder/getFiles/7?sortby=name', '/rest', undefined, drop)).toBeUndefined();
    expect(withoutParameter('GET', '/other/folder/getFiles/7?sortorder=desc', '/rest', undefined, drop)).toBeUndefined();
  });

  it('removes a member from a JSON body and leaves bodies without it alone', () => {
    expect(withoutMember('{"id":"7","tree":true,"recursive":true}', 'tree')).toBe('{"id":"7","recursive":true}');
    expect(withoutMember('{"id":"7"}', 'tree')).toBeUndefined();
    expect(withoutMember('not json', 'tree')).toBeUndefined();
  });
});

describe('the catalogue of parameters without effect', () => {
  const known = new Set(allParameters().map(keyOf));

  it('names parameters of the operation catalogue, each once', () => {
    const keys = parameterEffects.map((e) => parameterKey(e.operation, e.parameter));
    expect(keys.filter((k) => !known.has(k))).toEqual([]);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it("quotes the contract's own words", ({ skip }) => {
    skip(!hasShared, SHARED_ABSENT);
    const unquoted = parameterEffects.flatMap((e) =>
      e.sentence
        .split('...')
        .map((part) => part.trim().replace(/^[;,.]\s*|[;,]$/g, ''))
        .filter((part) => part && !contract.includes(part))
        .map((part) => `${e.operation}:${e.parameter}: "${part}"`),
    );
    expect(unquoted).toEqual([]);
  });

  it('names no parameter the gap list names', () => {
    const gaps = new Set(parameterGaps.map((g) => parameterKey(g.operation, g.parameter)));
    expect(parameterEffects.map((e) => parameterKey(e.operation, e.parameter)).filter((k) => gaps.has(k))).toEqual([]);
    expect([...gaps].filter((k) => !known.has(k))).toEqual([]);
  });
});

describe('parameter coverage of a default run', () => {
  let dir = '';
  let results: Results;
  let coverage: ParameterCoverage[] = [];
  let output = '';

  // One default run serves every test below: its results carry what each test sent and judged.
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-parameters-'));
    const run = await cli('run', '--out', join(dir, 'run'));
    output = run.stdout.slice(-3000) + run.stderr.slice(-2000);
    results = JSON.parse(readFileSync(join(dir, 'run', 'results.json'), 'utf8')) as Results;
    coverage = parameterCoverage(results);
  });

  it('records what each test sent and judged', () => {
    expect(results.tests.filter((t) => t.parameters).length, output).toBeGreaterThan(100);
  });

  it('judges every parameter, or the catalogue says the contract gives it no effect, or a known gap names it', () => {
    const open = coverage.filter((c) => parameterVerdict(c) === 'NOT JUDGED' && !c.gap);
    const said = open.map(
      (c) =>
        `${keyOf(c)} (${c.in}, sent with a non-default value by ${c.sent} requests) is NOT JUDGED: judge it in a test (t.judged), ` +
        'or list it in schemas/parameter-effects.json with the contract sentence that gives it no effect, or in schemas/parameter-gaps.json',
    );
    expect(said).toEqual([]);
  });

  it('names no known gap that a test now judges: its line goes', () => {
    const closed = coverage.filter((c) => c.gap && c.judgedBy.length).map((c) => `${keyOf(c)} is judged by ${c.judgedBy.join('; ')}`);
    expect(closed).toEqual([]);
  });

  it('judges no parameter the catalogue says the contract gives no effect', () => {
    const both = coverage
      .filter((c) => c.effect && c.judgedBy.length)
      .map((c) => `${keyOf(c)}: judged by ${c.judgedBy.join('; ')}, yet listed as ${c.effect!.effect} (contract ${c.effect!.section})`);
    expect(both).toEqual([]);
  });

  it('proves every claim: with the parameter removed, a test that claims to judge it fails', async () => {
    const json = join(dir, 'prove.json');
    const proof = await cli('prove', '--parameters', '--results', join(dir, 'run'), '--json', json);
    const cases = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as { cases: ProofCase[] }).cases : [];
    expect(cases.length, proof.stdout.slice(-3000) + proof.stderr.slice(-2000)).toBeGreaterThan(100);
    // A false claim: list it in schemas/parameter-gaps.json and remove the t.judged that made it (or make the test tell).
    expect(cases.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
  });
});
