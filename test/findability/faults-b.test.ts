// The second half of the fault catalogue, in its own file so the two halves run in parallel.
process.env.CMS_FINDABILITY_HALF = 'b';
await import('./faults.test.ts');
