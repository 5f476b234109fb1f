/**
 * The deletion information of a localized copy whose master was deleted (contract 2.2 `masterDeleted`): a sandbox folder
 * localized into the channel, then deleted in the master, and the channel's copy listed with `wastebin=include`.
 *
 * Where tests go (test/suites.test.ts): suites/records is grouped by how its tests judge, not by family: the target's own
 * records read against what contract 2 says they hold, whatever the requirement.
 */
import { finding } from '../../harness/checks.ts';
import { hasFeature } from '../../harness/fixture.ts';
import { copyIdStep, createFolderStep, localizeStep, undoLocalizeStep } from '../../harness/steps.ts';
import { conformance } from '../../harness/suite.ts';
import { DELETION_MEMBERS, deletionMarks } from '../../harness/deletion.ts';

conformance(
  'WST-05',
  'a localized copy whose master was deleted is marked deleted when the channel lists it with include',
  async (t) => {
    const channel = t.fixture.channelNodeId;
    if (!hasFeature(t, 'multichannelling') || channel === undefined)
      return t.nothingToJudge('the target has no channel in which to localize a folder');
    const top = await t.folder();
    const master = await createFolderStep(t, top, 'Localized master');
    await localizeStep(t, 'folder', master.id, channel);
    // The copy is told by its id of its own, not by what it says in `inherited` (open choice localized-copy-inherited).
    const copy = await copyIdStep(t, 'folder', top, { id: master.id, name: master.name ?? 'Localized master' }, channel);
    // Contract 3: an inherited folder "performed in the master" is deleted, and "the deletion is reflected in the channels".
    // Whether a master with localized copies may be deleted before they are unlocalized is open (open choice
    // delete-master-with-copies).
    const deleted = await t.try('folder.delete', { path: { id: master.id } });
    if (deleted.problem) {
      await undoLocalizeStep(t, 'folder', top, { id: master.id, name: master.name ?? 'Localized master' }, channel);
      return t.nothingToJudge(
        `the target refuses to delete folder ${master.id} in the master while channel ${channel} has it localized ` +
          '(open choice delete-master-with-copies)',
        deleted.exchange,
      );
    }
    const after = await t.call('folder.getFolders', { path: { id: top }, query: { nodeId: channel, wastebin: 'include' } });
    if (!after.body) return;
    const listed = (after.body.folders ?? []).find((f) => f.id === copy);
    if (!listed)
      return t.nothingToJudge(`channel ${channel} no longer lists the copy ${copy} of the deleted folder ${master.id}`, after.exchange);
    // Contract 2.2: "masterDeleted: Deletion information about the master (if the object is not a master itself)"; contract 3:
    // the deletion state is "a deleted, masterDeleted or folderDeleted DeleteInfo is present". Which of them the copy carries
    // is open (open choice master-deleted-mark); the judge reads `by` against the User record where a mark carries it.
    if (!deletionMarks(listed).length)
      t.record([
        finding(
          t.requirement,
          'masterDeleted',
          `folder ${master.id} was deleted in the master; channel ${channel} lists its localized copy ${copy} with include ` +
            `carrying ${JSON.stringify(Object.fromEntries(DELETION_MEMBERS.map((m) => [m, listed[m] ?? null])))}: no deletion information`,
          after.exchange,
        ),
      ]);
  },
  { operation: 'folder.getFolders' },
);
