/** The entry point's dispatch: what a mistyped command gets. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';

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
