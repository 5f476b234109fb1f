/** What a target file's features need of its fixture ids (the schema checks the file's shape; test/cli/inputs.test.ts the CLI's exit). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TargetError, loadTargetFile, parseTarget } from '../../harness/target.ts';

const fixture = { masterNodeId: 1, masterRootFolderId: 10, sandboxParentFolderId: 10 };
const target = (features: string[], over: Record<string, number> = {}) => ({
  baseUrl: 'http://127.0.0.1:9/rest/',
  features,
  fixture: { ...fixture, ...over },
});

describe('parseTarget', () => {
  it('takes a channel of the master for multichannelling, and the base URL without its trailing slash', () => {
    const t = parseTarget(target(['multichannelling'], { channelNodeId: 2, channelRootFolderId: 11 }), 't.json');
    expect(t.baseUrl).toBe('http://127.0.0.1:9/rest');
    expect(t.fixture.channelNodeId).toBe(2);
  });

  it('refuses multichannelling whose channel is the master node itself: every channel view would be judged wrong', () => {
    const run = () => parseTarget(target(['multichannelling'], { channelNodeId: 1, channelRootFolderId: 10 }), 't.json');
    expect(run).toThrow(TargetError);
    expect(run).toThrow('t.json: /fixture/channelNodeId 1 is the master node: feature "multichannelling" needs a channel of it');
    // Without the feature the ids are not used.
    expect(parseTarget(target([], { channelNodeId: 1 }), 't.json').features).toEqual([]);
  });

  it('refuses users of a used file without the used file, and keeps them with it', () => {
    const users = { ...target([]), fixture: { ...fixture, usedFileUsers: { files: [5] } } };
    expect(() => parseTarget(users, 't.json')).toThrow(
      't.json: /fixture/usedFileUsers names the users of /fixture/usedFileId, which is missing',
    );
    const declared = parseTarget({ ...users, fixture: { ...users.fixture, usedFileId: 4 } }, 't.json');
    expect(declared.fixture.usedFileUsers).toEqual({ files: [5] });
  });
});

describe('loadTargetFile', () => {
  it('reads a file that starts with a byte order mark, as JSON readers do', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cms-target-')), 'bom.json');
    writeFileSync(file, `\uFEFF${JSON.stringify(target([]))}`);
    expect(loadTargetFile(file).baseUrl).toBe('http://127.0.0.1:9/rest');
  });
});
