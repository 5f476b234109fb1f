/**
 * Targets whose data is not the bundled fixture's.
 *
 * A fresh install: its nodes and their root folders, the sandbox parent, an empty pages folder and the
 * templates, no file and no page. The tests that judge only the target's own pages and used files have
 * nothing to look at there: each must pass and say so (a `fixture` warning, "nothing to judge: ..."),
 * never pass in silence, which would claim a check it never made. The tests that make their own data in
 * the sandbox must judge it and say nothing of the kind. (That on the bundled fixture no test lacks
 * data, the findability halves check on their clean runs.)
 *
 * A data set without a channel, and page names outside the Basic Multilingual Plane: a correct server
 * with such data passes.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hadNothingToJudge } from '../../reports/results.ts';
import type { Results } from '../../schemas/results.ts';
import type { Dataset } from '../../server/dataset-format.ts';
import { defaultDataset } from '../../server/default-dataset.ts';
import { startReferenceServer, type ReferenceServer } from '../../server/index.ts';
import { cli, type CliResult } from '../support/cli.ts';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

/** The default fixture without its files, images, pages and every folder the roles do not name. */
function freshInstall(): Dataset {
  const ds = defaultDataset();
  // No file is left to be used, so the target file names none (fixture.usedFileId) and no user of it; a fresh install has no
  // staging package either.
  const { usedFileId: _used, usedFileUsers: _users, stagingPackage: _package, ...roles } = ds.roles ?? {};
  const kept = new Set([...ds.nodes.map((n) => n.rootFolderId), roles.sandboxParentFolderId, roles.pagesFolderId, roles.templatesFolderId]);
  return {
    ...ds,
    roles,
    stagingPackages: [],
    // Tags may refer to files and pages that are gone.
    folders: ds.folders.filter((f) => kept.has(f.id)).map(({ tags: _, ...f }) => f),
    templates: ds.templates.map(({ tags: _, templateTags: __, ...t }) => t),
    files: [],
    images: [],
    pages: [],
  };
}

// The suites whose tests read the target's own pages, files and usage, and their neighbours that make their own data.
const ONLY = 'PGE,FLT,FLD-09,FLD-10,SRT-03,USE,FIL-05';

/** Tests that judge only the target's own data: their requirement reads nothing else, or their title says where they look. */
const ownDataOnly = (id: string): boolean =>
  (/^(PGE-0[1-4]|FLT-07|FLT-09|FLD-09|FLD-10|USE-0[1-5]) /.test(id) ||
    /^FLT-06 getPages|^FLT-08 getPages niceurl|^FLT-10 findPages|^SRT-03 sortby (pdate|deletedat orders the deleted pages|values outside the contract's list)|^FIL-05 the target's own files/.test(
      id,
    )) &&
  // A usage test that asks about a file of its own.
  !/^USE-02 the counts-only answer for a file nothing uses/.test(id);

let server: ReferenceServer;
let run: CliResult;
let results: Results;

beforeAll(async () => {
  server = await startReferenceServer({ port: 0, fixture: freshInstall() });
  const dir = mkdtempSync(join(tmpdir(), 'cms-sparse-'));
  const target = join(dir, 'target.json');
  writeFileSync(target, JSON.stringify(server.target));
  run = await cli('run', '--target', target, '--only', ONLY, '--concurrency', '8', '--out', join(dir, 'out'));
  results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as Results;
});

afterAll(async () => {
  await server?.close();
});

/** The ids of the tests that said they had nothing to judge. */
const unjudged = () => results.tests.filter(hadNothingToJudge).map((t) => t.id);

describe('a target whose own data is a fresh install', () => {
  it('passes every test, and the verdict counts those that had nothing to judge', () => {
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(results.tests.filter((t) => t.status === 'failed').map((t) => t.id)).toEqual([]);
    expect(run.stdout).toContain(`${unjudged().length} tests had none of its own data to judge (see their warnings)`);
  });

  it('has every test that judges only its own pages and files say it had nothing to judge', () => {
    const expected = results.tests.filter((t) => t.status === 'passed' && ownDataOnly(t.id)).map((t) => t.id);
    expect(expected.length).toBeGreaterThan(25);
    expect(expected.filter((id) => !unjudged().includes(id))).toEqual([]);
    for (const t of results.tests.filter((x) => unjudged().includes(x.id)))
      for (const f of t.findings.filter((x) => x.check === 'fixture')) expect(f.message).toMatch(/^nothing to judge: \S/);
  });

  it('has the tests that make their own data judge it without a word of that kind', () => {
    const own = results.tests.filter((t) => t.status === 'passed' && !ownDataOnly(t.id)).map((t) => t.id);
    expect(own.length).toBeGreaterThan(10);
    expect(unjudged().filter((id) => own.includes(id))).toEqual([]);
  });
});

describe('a data set without a channel', () => {
  it('gives a target that declares no multichannelling and names no channel, instead of the master as its channel', async () => {
    const ds = freshInstall();
    const master = ds.nodes.find((n) => n.masterId === undefined)!;
    const inMaster = <T extends { nodeId: number }>(objects: T[]) => objects.filter((o) => o.nodeId === master.id);
    const lone: Dataset = { ...ds, nodes: [master], folders: inMaster(ds.folders), templates: inMaster(ds.templates), roles: {} };
    const s = await startReferenceServer({ port: 0, fixture: lone });
    try {
      expect(s.target.features).not.toContain('multichannelling');
      expect(s.target.features).toContain('pages');
      expect(s.target.fixture.channelNodeId).toBeUndefined();
      expect(s.target.fixture.channelRootFolderId).toBeUndefined();
    } finally {
      await s.close();
    }
    // The bundled data set has channels: its target declares multichannelling with a channel that is not the master.
    expect(server.target.features).toContain('multichannelling');
    expect(server.target.fixture.channelNodeId).not.toBe(server.target.fixture.masterNodeId);
  });
});

describe('a fixture whose page names are not ASCII', () => {
  it('passes the tests that search by parts of those names: no part ends in half an emoji', async () => {
    const ds = defaultDataset();
    // Every name and file name with characters outside the Basic Multilingual Plane, where a UTF-16 cut can halve one.
    const pages = ds.pages.map((p, i) => ({ ...p, name: `😀${i}Ü😀 ${p.name}`, fileName: `😀${i}-ü😀${p.fileName}` }));
    const s = await startReferenceServer({ port: 0, fixture: { ...ds, pages } });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'cms-emoji-'));
      const target = join(dir, 'target.json');
      writeFileSync(target, JSON.stringify(s.target));
      const r = await cli('run', '--target', target, '--only', 'FLT-09,FLT-10,PGE', '--concurrency', '8', '--out', join(dir, 'out'));
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
    } finally {
      await s.close();
    }
  });
});
