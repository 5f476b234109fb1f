/**
 * What only the target's own fixture objects can show, on a target that declares `disposable` (a throwaway instance):
 * these tests change fixture objects, which the suite never does otherwise. The engine runs this folder after every
 * other suite (cli/project.ts DISPOSABLE_SUITES), so nothing they change is seen by a test still running; each test
 * says which objects it changes (`changesFixture`). Without the feature each is skipped with that reason.
 *
 * Why a sandbox object cannot do: no operation of the contract sets object tags or creates a file forced online, and a
 * copy of a fixture object is made by the very code the tests judge (a copy made without tags shows nothing).
 */
import { SetupError } from '../../harness/api.ts';
import { finding } from '../../harness/checks.ts';
import { fixtureFileFolders } from '../../harness/fixture.ts';
import { idsOf } from '../../harness/oracles.ts';
import { text } from '../../harness/records.ts';
import { channelOf, copyIdStep, eitherIdStep, undoLocalizeStep } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';

/** usage/file of one file in the master's view, all of it; a refusal ends the test (USE-01 judges those). */
const fileUsers = async (t: ConformanceContext, id: number) => {
  const { exchange, body } = await t.call('file.usage.file', { query: { id: [id], nodeId: t.fixture.masterNodeId, maxItems: -1 } });
  if (!body) throw new SetupError('usage/file failed');
  return { exchange, list: body.files ?? [] };
};

conformance(
  'FIL-03',
  "a save of a fixture file's name and description alone keeps the file forced online",
  async (t) => {
    const forced = (await fixtureFileFolders(t)).flatMap((f) => f.files).filter((f) => f.forceOnline === true);
    const file = forced.sort((a, b) => (a.id ?? 0) - (b.id ?? 0))[0];
    if (file?.id === undefined) return t.nothingToJudge('no file of the fixture folders is listed with forceOnline true');
    const { id } = file;
    // The name and description it has, saved again (a server may want the name in every save: open choice save-partial-record):
    // the file changes in nothing but what the save itself records (editor, date).
    await t.must('file.save.json', { path: { id }, json: { file: { id, name: file.name, description: text(file, 'description') } } });
    const loaded = await t.call('file.load', { path: { id } });
    const after = loaded.body?.file?.forceOnline;
    // FIL-03 (MUST): "save (JSON) updates the given fields (name, description), visible on load": forceOnline was not given.
    if (after === false || (loaded.body?.file && after === undefined))
      t.record([
        finding(
          t.requirement,
          'model',
          `file ${id} ("${file.name}") was listed with forceOnline true; a save giving only its description left it ` +
            `${after === undefined ? 'without forceOnline' : 'with forceOnline false'} on load`,
          loaded.exchange,
        ),
      ]);
  },
  { changesFixture: 'a save of a fixture file forced online, with the description it has' },
);

conformance(
  'MCH-07',
  "a push of a fixture file's localized copy, changed by nothing, leaves the master using what it used",
  async (t) => {
    const channel = channelOf(t);
    const used = t.fixture.usedFileId;
    if (used === undefined) return t.nothingToJudge('the target file names no usedFileId');
    const before = await fileUsers(t, used);
    // The first user the channel takes a localization of (one excluded or disinherited there is refused).
    for (const user of [...before.list].sort((a, b) => (a.id ?? 0) - (b.id ?? 0)).slice(0, 3)) {
      const { id, folderId } = user;
      if (id === undefined || typeof folderId !== 'number') continue;
      if ((await t.try('file.localize', { path: { id }, json: { channelId: channel } })).problem) continue;
      const master = { id, name: text(user, 'name') };
      try {
        const copy = await copyIdStep(t, 'file', folderId, master, channel);
        // "push a file from a channel into its master", by the copy's id or the master's (open choice push2master-id).
        const pushed = await eitherIdStep(t, 'file.push2master', [copy, id], { channelId: channel });
        if (pushed.problem)
          return t.nothingToJudge(`file.push2master of file ${id}'s copy in channel ${channel} was refused`, pushed.exchange);
        const after = await fileUsers(t, used);
        // MCH-07 (MUST): "push2master copies the channel's version of a file into the master". That version is the
        // localized copy of the master, changed by no request: the master keeps the object tags it had.
        if (!idsOf(after.list).includes(id))
          t.record([
            finding(
              t.requirement,
              'model',
              `usage/file of file ${used} listed file ${id} ("${master.name}"); after POST /file/localize/${id} in channel ` +
                `${channel} and a push2master of that copy, changed by nothing in between, it no longer does: the master ` +
                'lost object tags no request removed',
              after.exchange,
            ),
          ]);
      } finally {
        await undoLocalizeStep(t, 'file', folderId, master, channel);
      }
      return;
    }
    t.nothingToJudge(`channel ${channel} took a localization of none of the files usage/file of file ${used} lists`, before.exchange);
  },
  { changesFixture: 'a localization of a fixture file that uses fixture.usedFileId, pushed to its master and taken back' },
);
