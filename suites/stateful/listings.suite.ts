/**
 * Model-based tests of listings: deleted folders leave every default listing, and paging slices listings after random changes; the commands are in sequences.ts.
 *
 * Where tests go (test/suites.test.ts): suites/stateful is grouped by how its tests judge, not by family: random command
 * sequences judged by one model, whatever the requirement.
 */
import { conformance } from '../../harness/suite.ts';
import { Upload, copy, coverList, createFolder, list, move, remove, sequences, upload, uploadBatch, variety } from './sequences.ts';

conformance('WST-01', 'after random deletions, deleted folders and their content leave every default listing', async (t) => {
  await sequences(t, [
    createFolder,
    createFolder,
    upload,
    upload,
    copy,
    move,
    remove,
    remove,
    list(variety(t, { recursive: true })),
    list(variety(t, { recursive: true })),
  ]);
});

conformance('PAG-07', 'skipCount and maxItems slice listings correctly after random changes', async (t) => {
  // Mostly live items, so that pages have something to slice.
  const paging = list({
    ...variety(t),
    views: ['master'],
    styles: ['legacy', 'paged'],
    paging: true,
    wastebins: t.config.target.features.includes('wastebin') ? ['exclude', 'exclude', 'exclude', 'include', 'only'] : ['exclude'],
  });
  // In every run: two more files beside start.txt, then the second of the three alone, and all but the first.
  const text = (name: string) => ({ name, content: new TextEncoder().encode(`${name}\n`) });
  const files = (first: number, size: number) => coverList({ kind: 'file', view: 'master', recursive: false, first, size });
  const cover = [[new Upload({ folder: 0, files: [text('paged b.txt'), text('paged c.txt')], raw: false }), files(1, 1), files(1, -1)]];
  await sequences(t, [createFolder, upload, uploadBatch, remove, paging, paging, paging], cover);
});
