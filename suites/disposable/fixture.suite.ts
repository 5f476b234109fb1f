/**
 * What only the target's own fixture objects can show, on a target that declares `disposable` (a throwaway instance):
 * these tests change fixture objects, which the suite never does otherwise. The engine runs this folder after every
 * other suite (cli/project.ts DISPOSABLE_SUITES), so nothing they change is seen by a test still running; each test
 * says which objects it changes (`changesFixture`). Without the feature each is skipped with that reason.
 *
 * Why a sandbox object cannot do: no operation of the contract sets object tags or creates a file forced online, and
 * the sandbox's tagged files are copies, whose tags are open (FileCopyRequest says nothing of them): a server whose
 * copies carry none leaves the sandbox nothing tagged to localize.
 */
import { SetupError } from '../../harness/api.ts';
import { finding } from '../../harness/checks.ts';
import { fixtureFileFolders } from '../../harness/fixture.ts';
import { idsOf } from '../../harness/oracles.ts';
import { channelOf, copyIdStep, eitherIdStep, listedCopy, undoLocalizeStep } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';

/** usage/file of one file in the master's view, all of it; relied on (a refusal is this test's step finding). */
const fileUsers = async (t: ConformanceContext, id: number) => {
  const { exchange, body } = await t.call('file.usage.file', { query: { id: [id], nodeId: t.fixture.masterNodeId, maxItems: -1 } });
  if (!body) throw new SetupError('usage/file failed');
  return { exchange, list: body.files ?? [] };
};

conformance(
  'FIL-03',
  "a save of a fixture file's own name and description keeps the file forced online",
  async (t) => {
    const listed = (await fixtureFileFolders(t)).flatMap((f) => f.files).filter((f) => f.forceOnline === true);
    const id = listed.sort((a, b) => (a.id ?? 0) - (b.id ?? 0))[0]?.id;
    if (id === undefined) return t.nothingToJudge('no file of the fixture folders is listed with forceOnline true');
    // Judged load against load: a record may leave forceOnline out (contract 2.1: which members a record carries is not shown).
    const before = (await t.must('file.load', { path: { id } })).file;
    if (before?.forceOnline !== true)
      return t.nothingToJudge(`file ${id} is listed forced online, but its load does not say forceOnline true`);
    // Its own name and description, saved again (a server may want the name in every save: open choice save-partial-record):
    // the file changes in nothing but what the save itself records (editor, date).
    const file = { id, name: before.name, ...(before.description === undefined ? {} : { description: before.description }) };
    const saved = await t.try('file.save.json', { path: { id }, json: { file } });
    if (saved.problem) return t.nothingToJudge(`the save of fixture file ${id} was refused (${saved.problem})`, saved.exchange);
    const loaded = await t.call('file.load', { path: { id } });
    if (!loaded.body?.file || loaded.body.file.forceOnline === true) return;
    // FIL-03 (MUST): "save (JSON) updates the given fields (name, description), visible on load": forceOnline was not given.
    t.record([
      finding(
        t.requirement,
        'model',
        `file ${id} ("${before.name}") loaded with forceOnline true; a save giving only its own name and description left it ` +
          `${loaded.body.file.forceOnline === undefined ? 'without forceOnline' : 'with forceOnline false'} on load`,
        loaded.exchange,
      ),
    ]);
    // Best effort: the throwaway instance gets the file as it was.
    await t.try('file.save.json', { path: { id }, json: { file: { id, name: before.name, forceOnline: true } } });
  },
  { changesFixture: 'a save of a fixture file forced online, with the name and description it has' },
);

conformance(
  'MCH-07',
  "a push of a fixture file's localized copy, changed by nothing, leaves the master using what it used",
  async (t) => {
    const channel = channelOf(t);
    const used = t.fixture.usedFileId;
    if (used === undefined) return t.nothingToJudge('the target file names no usedFileId');
    const before = await fileUsers(t, used);
    // The first user the channel has not localized and takes a localization of (one excluded or disinherited is refused).
    for (const user of [...before.list].sort((a, b) => (a.id ?? 0) - (b.id ?? 0)).slice(0, 3)) {
      const { id, folderId } = user;
      if (id === undefined || typeof folderId !== 'number' || typeof user.name !== 'string') continue;
      const master = { id, name: user.name };
      // A copy the fixture holds already may differ from its master on purpose, and is not this test's to take back.
      if ((await listedCopy(t, 'file', folderId, master, channel)) !== undefined) continue;
      if ((await t.try('file.localize', { path: { id }, json: { channelId: channel } })).problem) continue;
      try {
        const copy = await copyIdStep(t, 'file', folderId, master, channel);
        // "push a file from a channel into its master", by the copy's id or the master's (open choice push2master-id).
        const pushed = await eitherIdStep(t, 'file.push2master', [copy, id], { channelId: channel });
        if (pushed.problem)
          return t.nothingToJudge(`file.push2master of file ${id}'s copy in channel ${channel} was refused`, pushed.exchange);
        const after = await fileUsers(t, used);
        if (idsOf(after.list).includes(id)) return;
        // MCH-02 (MUST): localize "makes a localized copy"; MCH-07 (MUST): "push2master copies the channel's version of a
        // file into the master". Changed by no request, the channel's version is that copy of the master, object tags and
        // all: pushed back, the master uses what it used.
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
