// Tests whose verdict depends on the configuration they run against: prove runs each test against the
// server of every case that needs it, in one run. They send nothing.
import { expect } from 'vitest';
import { finding } from '../../../../harness/checks.ts';
import { PerRun, conformance } from '../../../../harness/suite.ts';

/** Which seed's test made the reading of its configuration. */
const reading = new PerRun<number>();

conformance('ENV-01', 'fails against an odd seed', async (t) => {
  t.record([finding('ENV-01', 'seed', `seed ${t.config.seed}`, undefined, t.config.seed % 2 ? 'error' : 'warning')]);
});

conformance('ENV-02', 'reads once per configuration', async (t) => {
  expect(reading.get(() => t.config.seed)).toBe(t.config.seed);
});

conformance(
  'PGE-01',
  'needs pages',
  async (t) => {
    t.record([finding('PGE-01', 'pages', 'ran', undefined, 'warning')]);
  },
  { feature: 'pages' },
);
