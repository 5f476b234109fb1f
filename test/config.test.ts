/** The project's test configuration: the files it starts first exist (a renamed file would quietly run last again). */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLOWEST_FIRST } from '../vitest.config.ts';

describe('vitest.config.ts', () => {
  it.each(SLOWEST_FIRST)('starts %s first, and it exists', (file) => {
    expect(existsSync(new URL(`../${file}`, import.meta.url)), `${file} is listed in SLOWEST_FIRST but does not exist`).toBe(true);
  });
});
