import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cms-validate-'));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const envelope = { messages: [], responseInfo: { responseCode: 'OK' } };
const good = file('good.json', { ...envelope, folders: [{ id: 1, cdate: 1, edate: 2, name: 'a' }], numItems: 1, hasMoreItems: false });
const bad = file('bad.json', { ...envelope, folders: [{ id: '1', cdate: 1, edate: 2 }] });

describe('cms-conformance validate', () => {
  it('prints PASS per valid file and exits 0', async () => {
    const r = await cli('validate', '--operation', 'folder.getFolders', good);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`PASS ${good}`);
  });

  it('prints FAIL with indented findings and exits 1 when any file fails', async () => {
    const r = await cli('validate', '--operation', 'folder.getFolders', good, bad);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`PASS ${good}`);
    expect(lines[1]).toBe(`FAIL ${bad}`);
    expect(lines[2]).toMatch(/^\s+error ENV-07 schema: folder\.getFolders: \/folders\/0\/id must be integer/);
  });

  it.each([
    ['an unknown operation', ['--operation', 'folder.nope', good], /unknown operation "folder.nope"/],
    ['an unreadable file', ['--operation', 'folder.load', join(dir, 'missing.json')], /cannot read .*missing.json: ENOENT/],
    ['a file that is not JSON', ['--operation', 'folder.load', file('broken.json', '{"messages": [')], /broken.json is not valid JSON/],
    ['body files without an operation', [good], /need --operation/],
  ])('exits 2 with one clear line for %s', async (_what, args, message) => {
    const r = await cli('validate', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('validates every exchange of a HAR capture that matches an operation', async () => {
    const entry = (method: string, url: string, status: number, body: unknown, contentType = 'application/json') => ({
      request: { method, url, headers: [] },
      response: {
        status,
        headers: [{ name: 'Content-Type', value: contentType }],
        content: { mimeType: contentType, text: JSON.stringify(body) },
      },
    });
    const har = file('capture.har', {
      log: {
        entries: [
          entry('GET', 'http://cms.example/rest/folder/getFolders/12?recursive=true', 200, { ...envelope, folders: [] }),
          entry('GET', 'http://cms.example/rest/folder/load/12', 200, { ...envelope, folder: { id: 12, cdate: 1 } }),
          entry('POST', 'http://cms.example/rest/folder/delete/12', 200, envelope),
          entry('GET', 'http://cms.example/rest/folder/load/99', 404, { messages: [], responseInfo: { responseCode: 'NOTFOUND' } }),
          entry('GET', 'http://cms.example/static/logo.png', 200, {}),
        ],
      },
    });
    const r = await cli('validate', '--har', har);
    expect(r.code).toBe(1);
    const verdicts = r.stdout.split('\n').filter((l) => /^(PASS|FAIL) /.test(l));
    expect(verdicts.map((l) => l.slice(0, 4) + ' ' + /\(([^)]+)\)/.exec(l)![1])).toEqual([
      'PASS folder.getFolders',
      'FAIL folder.load',
      'FAIL folder.delete',
      'PASS folder.load',
    ]);
    expect(r.stdout).toMatch(/error ENV-03 status: folder\.delete: status 200, expected 201/);
  });
});
