/**
 * Model-based tests of multichannelling: localize, unlocalize, exclusion and disinheritance sequences; the commands are in sequences.ts.
 *
 * Where tests go (test/suites.test.ts): suites/stateful is grouped by how its tests judge, not by family: random command
 * sequences judged by one model, whatever the requirement.
 */
import type { ObjectKind } from '../../harness/model.ts';
import { conformance } from '../../harness/suite.ts';
import {
  Count,
  CreateFolder,
  Disinherit,
  DisinheritOther,
  DisinheritRecursive,
  DuplicateInChannel,
  List,
  Localize,
  OverwriteCopy,
  Save,
  Unlocalize,
  Upload,
  copy,
  count,
  coverList,
  createFolder,
  disinherit,
  list,
  localizeCmd,
  move,
  remove,
  removeInChannel,
  sequences,
  unlocalizeCmd,
  upload,
} from './sequences.ts';

conformance('MCH-02', 'localize and unlocalize sequences give the channel the view the model predicts', async (t) => {
  const views = list({ views: ['master', 'channel'], wastebins: ['exclude'] });
  // In every run: a file and a folder localized, each listing seen in the channel.
  const inChannel = (kind: ObjectKind) => coverList({ kind, view: 'channel', recursive: false });
  // Then f1 "start.txt" localized and unlocalized: the master keeps its name, so saving f3 "other.txt" (its only
  // sibling f1) under it with failOnDuplicate is refused, FIL-03 "`failOnDuplicate` refuses a name already used in the folder".
  const [f3, siblingF1] = [2, 0];
  const cover = [
    [new Localize({ index: 0, kind: 'file' }), inChannel('file'), new Localize({ index: 0, kind: 'folder' }), inChannel('folder')],
    [
      new Localize({ index: 0, kind: 'file' }),
      new Unlocalize({ index: 0 }),
      new Upload({ folder: 0, files: [{ name: 'other.txt', content: new TextEncoder().encode('other\n') }], raw: false }),
      new Save({ file: f3, name: siblingF1, description: undefined, failOnDuplicate: true }),
    ],
    // And in the channel, a folder named as D1 "Start", which the channel inherits.
    [new DuplicateInChannel({ parent: 0 })],
    // And f1 localized, its master renamed: the channel still finds its copy by the copy's name.
    [new Localize({ index: 0, kind: 'file' }), new OverwriteCopy({ index: 0 })],
  ];
  await sequences(t, [createFolder, upload, upload, localizeCmd, localizeCmd, unlocalizeCmd, removeInChannel, remove, views], cover);
});

conformance('MCH-06', 'exclusion and disinheritance sequences hide exactly what the model predicts in the channel', async (t) => {
  const views = list({ views: ['channel'], wastebins: ['exclude'], recursive: true });
  // In every run: a file excluded and a folder disinherited, each listing seen in the channel.
  const inChannel = (kind: ObjectKind) => coverList({ kind, view: 'channel', recursive: true });
  // Then a file two levels down (D2 in D1) once D1 is disinherited: MCH-06 hides D2 with D1, so the channel can list
  // and count nothing of D2 (a refusal or nothing), though D2 itself is neither excluded nor disinherited.
  const inD2 = (kind: ObjectKind) =>
    new List({ folder: 2, kind, style: 'legacy', view: 'channel', wastebin: 'exclude', recursive: false, first: 0, size: -1 });
  const cover = [
    [
      new Disinherit({ index: 0, kind: 'file', mode: 'exclude' }),
      inChannel('file'),
      new Disinherit({ index: 0, kind: 'folder', mode: 'disinherit' }),
      inChannel('folder'),
    ],
    [
      new CreateFolder({ parent: 1, name: 'Inner', failOnDuplicate: false }),
      new Upload({ folder: 2, files: [{ name: 'inner.txt', content: new TextEncoder().encode('inner\n') }], raw: false }),
      new Disinherit({ index: 0, kind: 'folder', mode: 'disinherit' }),
      inD2('file'),
      new Count({ folder: 2, view: 'channel', wastebin: 'exclude', recursive: false }),
    ],
    // And f1 disinherited for another channel only: the test's channel still lists it.
    [new DisinheritOther({ index: 0 })],
    // And D1 disinherited with recursive, the file two levels below it included.
    [
      new CreateFolder({ parent: 1, name: 'Inner', failOnDuplicate: false }),
      new Upload({ folder: 2, files: [{ name: 'inner.txt', content: new TextEncoder().encode('inner\n') }], raw: false }),
      new DisinheritRecursive({ index: 0 }),
    ],
  ];
  await sequences(
    t,
    [
      createFolder,
      createFolder,
      upload,
      upload,
      move,
      disinherit,
      disinherit,
      localizeCmd,
      unlocalizeCmd,
      views,
      count({ views: ['channel'], wastebins: ['exclude'] }),
    ],
    cover,
  );
});
