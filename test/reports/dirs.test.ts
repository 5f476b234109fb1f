/** The report folder: made with its parents, or refused with a line naming the part that cannot be made. */
import { existsSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDir } from '../../reports/dirs.ts';

const dir = mkdtempSync(join(tmpdir(), 'cms-dirs-'));
const file = join(dir, 'results.json');
writeFileSync(file, '{}');
const dangling = join(dir, 'unmounted');
symlinkSync(join(dir, 'nothing-here'), dangling);

describe('makeDir', () => {
  it('makes a folder and its missing parents, and accepts one that exists', () => {
    const deep = join(dir, 'a', 'b', 'c');
    makeDir(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(() => makeDir(deep)).not.toThrow();
  });

  it('refuses a path through a file, naming the file', () => {
    expect(() => makeDir(join(file, 'reports'))).toThrow(`${file} is a file, not a folder`);
    expect(() => makeDir(file)).toThrow(`${file} is a file, not a folder`);
  });

  // Node's own recursive mkdir spins forever on these two: each answer is ENOENT for the child, EEXIST for the parent.
  it('refuses a path through a link to nothing, naming the link', () => {
    expect(() => makeDir(join(dangling, 'reports'))).toThrow(`${dangling} is a link to ${join(dir, 'nothing-here')}, which does not exist`);
  });

  it.runIf(existsSync('/proc/self'))('refuses a folder under /proc', () => {
    expect(() => makeDir('/proc/cms-conformance/reports')).toThrow('cannot create /proc/cms-conformance (ENOENT)');
  });
});
