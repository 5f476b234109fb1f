// Run by kept-threads.test.ts (not by `npm test`): says which thread ran it and how often its module was evaluated there.
import { threadId } from 'node:worker_threads';
import { test } from 'vitest';
import { evaluations } from './loaded.ts';

declare module 'vitest' {
  interface TaskMeta {
    probe?: { threadId: number; evaluations: number };
  }
}

test('probe', ({ task }) => {
  task.meta.probe = { threadId, evaluations: evaluations() };
});
