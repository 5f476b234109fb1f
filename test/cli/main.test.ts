/** The entry point's dispatch: what a mistyped command gets, and what a command that ends early loads. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { loadEngine, setVitestImport } from '../../cli/load-engine.ts';

describe('cms-conformance <command>', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(['deploy', 'constructor', 'toString', '__proto__'])(
    'refuses the unknown command %s with exit code 2 and a usage line',
    async (name) => {
      // Names an object has from its prototype are no commands either: looked up as members, they crashed as an internal error.
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      expect(await main([name])).toBe(2);
      expect(error.mock.calls.map((c) => String(c[0]))).toEqual([
        `cms-conformance: unknown command "${name}" (try: cms-conformance --help)`,
      ]);
    },
  );

  it.each(['deploy', 'constructor'])('help for the unknown command %s says so in one line on stderr and exits 2', async (name) => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await main(['help', name])).toBe(2);
    expect(log).not.toHaveBeenCalled();
    expect(error.mock.calls.map((c) => String(c[0]))).toEqual([`cms-conformance: unknown command "${name}" (try: cms-conformance --help)`]);
  });
});

describe('what a command loads before it starts Vitest', () => {
  // Loading Vitest's node API is most of a short command's start-up (bin/cms-conformance.mjs): a command that ends
  // before it starts the suites must not pay for it.
  let calls = 0;
  let restore: (() => Promise<unknown>) | undefined;
  beforeEach(() => {
    calls = 0;
    restore = setVitestImport(async () => {
      calls++;
    });
  });
  afterEach(() => {
    if (restore) setVitestImport(restore);
    vi.restoreAllMocks();
  });

  it('the engine is loaded through the import it was given', async () => {
    // The check below can fail: the engine's loader goes through the import the tests replace.
    await loadEngine();
    expect(calls).toBe(1);
  });

  it.each([
    ['a usage error of run', ['run', '--concurrency', 'fast'], 2],
    ['a usage error of prove', ['prove', '--seed', 'x'], 2],
    ['help for run', ['help', 'run'], 0],
    ['run --help', ['run', '--help'], 0],
    ['a target file that is not one', ['run', '--target', 'package.json'], 2],
  ])('%s loads no Vitest', async (_what, argv, code) => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await main(argv)).toBe(code);
    expect(calls).toBe(0);
  });
});
