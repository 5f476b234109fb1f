// A suite file that loads and passes, beside the broken one: its test still runs and is reported.
import { expect, test } from 'vitest';

test('ENV-01 a test of a suite file that loads', () => {
  expect(1 + 1).toBe(2);
});
