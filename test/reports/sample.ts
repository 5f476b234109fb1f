/** A hand-made run for the report tests: passes, failures with exchanges (hostile bodies, an echoed credential), skips and warnings. */
import { summarize } from '../../reports/results.ts';
import type { ReportedFinding, Results, TestResult } from '../../schemas/results.ts';

/** The target's credential; a careless server echoes it. */
export const SECRET = 'sk-live-7f3a9c2e';

/** A server body that would run script in a report that forgot to escape it. */
export const HOSTILE = '<script>window.__xss = 1; alert("xss")</script><img src=x onerror="alert(2)">';

const replay = (req: string) => `npx cms-conformance run --only ${req} --seed 42`;

function finding(requirement: string, over: Partial<ReportedFinding> = {}): ReportedFinding {
  return { requirement, check: 'status', severity: 'error', message: 'expected status 200, got 500', replay: replay(requirement), ...over };
}

/** The warning a test records when the target's data gave it nothing to judge (harness/suite.ts nothingToJudge). */
export function nothingToJudge(requirement: string): ReportedFinding {
  return finding(requirement, { check: 'fixture', severity: 'warning', message: 'nothing to judge: the pages folder holds no page' });
}

function test(id: string, status: TestResult['status'], over: Partial<TestResult> = {}): TestResult {
  const requirement = id.split(' ')[0] ?? id;
  return {
    id,
    title: id.slice(requirement.length + 1),
    file: 'suites/sample.suite.ts',
    requirement,
    family: requirement.split('-')[0] ?? '',
    status,
    durationMs: 12,
    findings: [],
    ...over,
  };
}

const htmlFailure = finding('PAG-01', {
  message: `the body is not JSON: ${HOSTILE}`,
  exchange: {
    seq: 3,
    request: { method: 'GET', url: 'http://cms.example/rest/folder/getFolders/7', headers: { accept: 'application/json' } },
    response: {
      status: 500,
      headers: { 'content-type': 'text/html', 'x-echo-sid': SECRET },
      text: `${HOSTILE}<p>session ${SECRET}</p>`,
      truncated: false,
    },
    durationMs: 8,
  },
  curl: 'curl -sS -X GET "http://cms.example/rest/folder/getFolders/7?sid=$CMS_AUTH_SID"',
});

const jsonFailure = finding('PAG-02', {
  check: 'items',
  message: 'pageSize=0 returned 3 folders',
  exchange: {
    seq: 4,
    request: {
      method: 'POST',
      url: 'http://cms.example/rest/folder/create',
      headers: { 'content-type': 'application/json' },
      body: { kind: 'json', text: '{"motherId":7,"name":"a"}' },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify({ folders: [1, 2, 3], echo: `sid=${encodeURIComponent(SECRET)}` }),
      truncated: false,
    },
    durationMs: 5,
  },
});

/**
 * The sample run's tests, one of each kind a report must show; a fresh copy each call, so a test that
 * changes its copy (a long body, a status) changes no other test's, also in the same worker.
 */
export function sampleTests(): TestResult[] {
  return structuredClone([
    test('ENV-01 every body has the envelope', 'passed', {
      findings: [finding('ENV-01', { severity: 'warning', check: 'unknownMember', message: 'member "extra" is not in the contract' })],
    }),
    test('MCH-01 master objects appear in the channel', 'skipped', {
      reason: 'the target does not declare the feature "multichannelling"',
      operation: 'folder.getFolders',
    }),
    test('OP-folder.load a valid request gets 200 and a FolderLoadResponse', 'passed', { operation: 'folder.load' }),
    test('PAG-01 without pageSize every item comes back', 'failed', { operation: 'folder.getFolders', findings: [htmlFailure] }),
    test('PAG-02 pageSize 0 returns no items', 'failed', { findings: [jsonFailure] }),
    test('UPL-01 multipart create keeps the bytes', 'failed', {
      operation: 'file.create',
      reason: 'setup failed: the sandbox folder could not be created',
    }),
  ]);
}

/** The sample run: every count derived from its tests. */
export function sampleResults(tests: TestResult[] = sampleTests()): Results {
  return {
    tool: { name: 'cms-conformance', version: '0.1.0' },
    target: { baseUrl: 'http://cms.example/rest', features: ['wastebin', 'pages'], embedded: false },
    seed: 42,
    runs: 20,
    startedAt: '2026-03-01T10:00:00.000Z',
    durationMs: 65_400,
    summary: summarize(tests),
    tests,
  };
}

/** The key of the repeated run's unknown member: the judge's, without the array position (harness/judge.ts fromSchema). */
const REPEATED_KEY = 'OP-folder.getFolders|folder.getFolders|unknownMember|responses/LegacyFolderListResponse.json#|extra';

/**
 * A run with one deviation met again and again: 40 passing tests with 5 warnings each of the unknown
 * member `extra` (200 warnings of one key, each message naming its own array position), one test with
 * a warning that has no key, and two tests with notes of one open-enumeration value.
 */
export function repeatedTests(): TestResult[] {
  const unknown = (i: number) =>
    finding('OP-folder.getFolders', {
      check: 'schema',
      severity: 'warning',
      message: `folder.getFolders: /folders/${i}/extra is not a member the contract names for Folder`,
      key: REPEATED_KEY,
    });
  const unseen = finding('OP-folder.getPages', {
    check: 'schema',
    severity: 'note',
    message: 'folder.getPages: /pages/0/tags/t/properties/p/type has the value "FILE", not among the values the contract shows',
    key: 'OP-folder.getPages|folder.getPages|unseenValue|records/Property.json#/properties/type/x-knownValues|"FILE"',
  });
  return [
    ...Array.from({ length: 40 }, (_, t) =>
      test(`FLD-01 listing ${String(t).padStart(2, '0')}`, 'passed', { findings: Array.from({ length: 5 }, (_, i) => unknown(i)) }),
    ),
    test('PGE-01 every page record', 'passed', { findings: [nothingToJudge('PGE-01')] }),
    test('PGE-02 pages with tags', 'passed', { findings: [unseen, { ...unseen, message: unseen.message.replace('/0/', '/1/') }] }),
    test('PGE-03 pages with templates', 'passed', { findings: [unseen] }),
  ];
}
