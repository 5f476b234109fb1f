/**
 * The deletion information of a localized copy whose master was deleted (contract 2.2 `masterDeleted`): a sandbox folder
 * localized into the channel, then deleted in the master, and the channel's copy listed with `wastebin=include`.
 */
import { finding } from '../../harness/checks.ts';
import { hasFeature } from '../../harness/fixture.ts';
import { conformance } from '../../harness/suite.ts';
import { createFolderStep } from '../../harness/steps.ts';
import { marksDeletion } from '../wastebin/deletion.ts';

conformance(
  'WST-05',
  'a localized copy whose master was deleted carries masterDeleted when the channel lists it with include',
  async (t) => {
    const channel = t.fixture.channelNodeId;
    if (!hasFeature(t, 'multichannelling') || channel === undefined)
      return t.nothingToJudge('the target has no channel in which to localize a folder');
    const top = await t.folder();
    const master = await createFolderStep(t, top, 'Localized master');
    await t.must('folder.localize', { path: { id: master.id }, json: { channelId: channel } });
    const before = await t.must('folder.getFolders', { path: { id: top }, query: { nodeId: channel } });
    const copy = (before.folders ?? []).find((f) => f.name === master.name && f.inherited === false && f.id !== undefined);
    if (!copy) return t.nothingToJudge(`channel ${channel} lists no localized copy of folder ${master.id} after localizing it there`);
    // Contract 3: an inherited folder "performed in the master" is deleted, and "the deletion is reflected in the channels".
    await t.must('folder.delete', { path: { id: master.id } });
    const after = await t.call('folder.getFolders', { path: { id: top }, query: { nodeId: channel, wastebin: 'include' } });
    if (!after.body) return;
    const listed = (after.body.folders ?? []).find((f) => f.id === copy.id);
    if (!listed)
      return t.nothingToJudge(`channel ${channel} no longer lists the copy ${copy.id} of the deleted folder ${master.id}`, after.exchange);
    // Contract 2.2: "masterDeleted: Deletion information about the master (if the object is not a master itself)".
    if (!marksDeletion(listed.masterDeleted))
      t.record([
        finding(
          t.requirement,
          'masterDeleted',
          `folder ${master.id} was deleted in the master; channel ${channel} lists its localized copy ${copy.id} with include, ` +
            `carrying masterDeleted ${JSON.stringify(listed.masterDeleted ?? null)}, not the deletion information about its master`,
          after.exchange,
        ),
      ]);
  },
  { operation: 'folder.getFolders' },
);
