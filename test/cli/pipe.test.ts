/** The CLI's output survives a closed pipe (`cms-conformance ... | head`): no EPIPE stack trace, the command's own exit code. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { bin } from '../support/cli.ts';

vi.setConfig({ testTimeout: 120_000 });

/** Runs the CLI with one of its output streams closed before it writes a byte; returns its exit code and the other stream. */
function withClosed(closed: 'stdout' | 'stderr', args: string[]): Promise<{ code: number | null; other: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Closing our end before the child has started writing makes its first write meet a pipe without a reader.
    child[closed].destroy();
    let other = '';
    child[closed === 'stdout' ? 'stderr' : 'stdout'].on('data', (d: Buffer) => (other += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, other }));
  });
}

describe('a closed pipe', () => {
  it.each([
    ['serve --list-faults', ['serve', '--list-faults']],
    ['requirements', ['requirements']],
    ['openapi', ['openapi']],
    ['help', ['help', 'run']],
    ['run --dry-run', ['run', '--dry-run']],
  ])('ends %s quietly with exit 0 when stdout is closed', async (_name, args) => {
    const r = await withClosed('stdout', args);
    expect(r.other).toBe('');
    expect(r.code).toBe(0);
  });

  it('keeps the exit code of a usage error when stderr is closed', async () => {
    const r = await withClosed('stderr', ['run', '--frobnicate']);
    expect(r.other).toBe('');
    expect(r.code).toBe(2);
  });

  it('finishes a run and writes its reports when stdout is closed', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cms-pipe-')), 'out');
    const r = await withClosed('stdout', ['run', '--only', 'OP-folder.load', '--runs', '2', '--out', out]);
    expect(r.other).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'results.json'))).toBe(true);
  });
});
