// A suite file whose first test makes the shared reading: in every run, whichever file ran before it in its worker.
import { expect } from 'vitest';
import { conformance } from '../../../../harness/suite.ts';
import { reading } from './reading.ts';

conformance('ENV-01', 'file b reads first', async (t) => {
  expect(reading.get(() => t.id)).toBe(t.id);
});

conformance('ENV-02', 'file b reads again', async () => {
  expect(reading.get(() => 'a later test')).toBe('ENV-01 file b reads first');
});
