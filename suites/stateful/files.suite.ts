/**
 * Model-based tests of files and counts: copy, move and save sequences, and counts after random changes; the commands are in sequences.ts.
 *
 * Where tests go (test/suites.test.ts): suites/stateful is grouped by how its tests judge, not by family: random command
 * sequences judged by one model, whatever the requirement.
 */
import { conformance } from '../../harness/suite.ts';
import {
  Count,
  copy,
  count,
  createFolder,
  list,
  move,
  remove,
  save,
  saveContent,
  sequences,
  sharedNames,
  upload,
  variety,
} from './sequences.ts';

conformance('FIL-02', 'copy, move and save sequences keep every listing as the model predicts', async (t) => {
  await sequences(
    t,
    [createFolder, upload, upload, copy, move, move, save, saveContent, list({ views: ['master'], wastebins: ['exclude'] })],
    [sharedNames()],
  );
});

conformance('FLD-06', 'counts after random creations, moves and deletions agree with the model', async (t) => {
  // In every run: the test folder counted with its sub-folder D1 and the file in it, then without.
  const counted = (recursive: boolean) => new Count({ folder: 0, view: 'master', wastebin: 'exclude', recursive });
  await sequences(
    t,
    [createFolder, createFolder, upload, upload, copy, move, remove, count(variety(t)), count(variety(t))],
    [[counted(true), counted(false)]],
  );
});
