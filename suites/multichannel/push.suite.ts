/**
 * Multichannelling (MCH-07): push2master of a channel's localized copy, by either id, and of a file local to the channel.
 */
import { stepFinding } from '../../harness/api.ts';
import { finding, type Finding } from '../../harness/checks.ts';
import { brief } from '../../harness/oracles.ts';
import { flag, listOf, text } from '../../harness/records.ts';
import {
  channelOf,
  eitherIdStep,
  localizeStep,
  nothingToJudgeOnce,
  tryCreateInChannelStep,
  NO_CHANNEL_CREATE,
} from '../../harness/steps.ts';
import { conformance } from '../../harness/suite.ts';
import type { File } from '../../schemas/types.ts';
import { namesFor, create, listings, listedIn, copyIdOf, undoLocalized } from './channel.ts';

/** How a push names the file: by the channel's copy (its own id), or by the master's id with the channel in channelId. */
const PUSHES = [
  { address: 'copy', title: "push2master copies the channel's saved version of a localized file into the master" },
  {
    address: 'master',
    title: "push2master addressed by the master file's id copies the version of the channel channelId names into the master",
  },
] as const;

conformance('MCH-07', "a push naming the copy and another node in the body leaves the master's content", async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const file = await create(t, 'file', top, 'mch07-other-node.txt', undefined, 'master version\n');
  await localizeStep(t, file.kind, file.id, channel);
  const copyId = await copyIdOf(t, top, file, channel);
  const content = new TextEncoder().encode('the channel version, which no push of this channel was asked for\n');
  await t.must('file.save.multipart', {
    path: { id: copyId },
    multipart: { files: [{ name: 'fileBinaryData', filename: file.name, contentType: 'text/plain', data: content }] },
  });
  // "POST /file/push2master/{id}: push a file from a channel into its master", the channel in the body's channelId: here the master
  // node, which is no channel and has nothing of its own to push. Refused, or answered changing nothing: the master keeps its content.
  await t.try('file.push2master', { path: { id: copyId }, json: { channelId: t.fixture.masterNodeId } });
  const after = await t.call('file.load', { path: { id: file.id } });
  const size = after.body?.file?.fileSize;
  if (size === content.byteLength)
    t.record([
      finding(
        t.requirement,
        'model',
        `POST /file/push2master/${copyId} {"channelId": ${t.fixture.masterNodeId}} named the master node, yet the master file ${file.id} ` +
          `now has the size of channel ${channel}'s version (${size})`,
        after.exchange,
      ),
    ]);
  await undoLocalized(t, [{ obj: file, parent: top, channel }]);
});

for (const { address, title } of PUSHES) {
  conformance('MCH-07', title, async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const file = await create(t, 'file', top, namesFor(t, 'file', 1)[0]!, undefined, 'master version\n');
    const before = await t.must('file.load', { path: { id: file.id } });
    await localizeStep(t, file.kind, file.id, channel);
    const copyId = await copyIdOf(t, top, file, channel);
    const [newName] = namesFor(t, 'file', 1, 7);
    const content = new TextEncoder().encode('the channel version, saved in the channel, is longer\n');
    const description = 'saved in the channel';
    await t.must('file.save.json', { path: { id: copyId }, json: { file: { id: copyId, name: newName, description } } });
    await t.must('file.save.multipart', {
      path: { id: copyId },
      multipart: { files: [{ name: 'fileBinaryData', filename: newName, contentType: 'text/plain', data: content }] },
    });
    const saved = await t.must('file.load', { path: { id: copyId } });
    const fileSize = saved.file?.fileSize ?? content.byteLength;
    // Contract 4.3: "POST /file/push2master/{id}: push a file from a channel into its master", the body naming the channel
    // (`channelId`; the channel's master is implied, so `masterId` is left out): addressed by the master's id, only channelId
    // says which channel's version goes. Which id the target takes is open (open choice push2master-id): the other form is
    // tried where one is refused.
    const ids = address === 'copy' ? [copyId, file.id] : [file.id, copyId];
    const pushed = await eitherIdStep(t, 'file.push2master', ids, { channelId: channel });
    if (pushed.id === undefined)
      return void t.record([
        stepFinding(t.requirement, 'file.push2master', pushed.exchange, `by the copy's id and by the master's: ${pushed.problem}`),
      ]);
    if (pushed.id !== ids[0])
      nothingToJudgeOnce(
        t,
        `push2master does not take the ${address === 'copy' ? "copy's" : "master's"} id (open choice push2master-id): the push was addressed by the other`,
        pushed.exchange,
      );
    const after = await t.call('file.load', { path: { id: file.id } });
    if (!after.body) return;
    const got: File = after.body.file ?? ({} as File);
    const findings: Finding[] = [];
    const by = pushed.id === copyId ? `copy ${copyId}` : `file ${file.id} from channel ${channel}`;
    // MCH-07 "push2master copies the channel's version of a file into the master": its content. Whether the name and the
    // description go along is open (open choice push2master-metadata): the master's own, or the channel's.
    if (got.fileSize !== fileSize)
      findings.push(
        finding(
          t.requirement,
          'model',
          `after push2master of ${by}, the master file ${file.id} has fileSize ${JSON.stringify(got.fileSize)}, ` +
            `expected the channel's ${fileSize}`,
          after.exchange,
        ),
      );
    for (const [key, channelValue] of [
      ['name', text(saved.file, 'name') || newName!],
      ['description', text(saved.file, 'description') || description],
    ] as const) {
      const either = [channelValue, text(before.file, key)];
      if (!either.includes(text(got, key)))
        findings.push(
          finding(
            t.requirement,
            'model',
            `after push2master of ${by}, the master file ${file.id} has ${key} ${JSON.stringify(got[key])}, ` +
              `expected the channel's ${JSON.stringify(either[0])} or the master's own ${JSON.stringify(either[1])}`,
            after.exchange,
          ),
        );
    }
    // "into its master": the master's file takes the content and stays the master's file, under its id, in the master node.
    if (got.id !== file.id)
      findings.push(
        finding(
          t.requirement,
          'model',
          `after push2master, loading the master file ${file.id} answers a file with id ${got.id}`,
          after.exchange,
        ),
      );
    for (const list of (await listings(t, top)).filter((l) => l.kind === 'file')) {
      if (!list.items.some((i) => i.id === file.id && !flag(i, 'inherited')))
        findings.push(
          finding(
            t.requirement,
            'model',
            `after push2master, ${list.what} no longer lists the master file ${file.id}; listed: ${brief(list.items.map((i) => i.id))}`,
            list.exchange,
          ),
        );
    }
    t.record(findings);
    // Whether the channel keeps its copy is open (open choice push2master-channel-copy): one that stays is taken back.
    await undoLocalized(t, [{ obj: { ...file, name: text(saved.file, 'name') || newName! }, parent: top, channel }]);
  });
}

conformance('MCH-07', 'push2master of a file local to the channel puts the file into the master', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const local = await tryCreateInChannelStep(t, 'file', top, namesFor(t, 'file', 1, 9)[0]!, channel, 'made in the channel\n');
  if (!local) return t.nothingToJudge(NO_CHANNEL_CREATE);
  // Contract 4.3: "push a file from a channel into its master"; MCH-07: "copies the channel's version of a file into the
  // master". A file the channel made itself has only the channel's version: afterwards the master has the file. Whether a
  // file with no master can be pushed at all is open (open choice push2master-local-file).
  const pushed = await t.try('file.push2master', { path: { id: local.id }, json: { channelId: channel } });
  if (pushed.problem)
    return t.nothingToJudge(
      'push2master takes no file that exists only in the channel (open choice push2master-local-file)',
      pushed.exchange,
    );
  const findings: Finding[] = [];
  listedIn(t, await listings(t, top), { kind: 'file', ...local }, findings);
  t.record(findings);
});

// ---- MCH-08 ----------------------------------------------------------------------------------

conformance(
  'MCH-07',
  'push2master of a file local to the channel in a folder only the channel has puts the file where the master lists it',
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const folder = await tryCreateInChannelStep(t, 'folder', top, namesFor(t, 'folder', 1, 9)[0]!, channel);
    if (!folder) return t.nothingToJudge(NO_CHANNEL_CREATE);
    const local = await tryCreateInChannelStep(t, 'file', folder.id, namesFor(t, 'file', 1, 10)[0]!, channel, 'made in the channel\n');
    if (!local) return t.nothingToJudge(NO_CHANNEL_CREATE);
    // Contract 4.3: "push a file from a channel into its master". The master has no folder to hold this one: a server may
    // refuse (push the folder first; open choice push2master-local-file), or push the folder along; what it may not do is
    // answer OK and leave the file where the master lists it nowhere. Refused, the test does what the refusal asks, as a
    // client would: the folder first (alone), then the file, unless the folder's push took it along.
    const pushed = await t.try('file.push2master', { path: { id: local.id }, json: { channelId: channel } });
    if (pushed.problem) {
      const folderPushed = await t.try('file.push2master', { path: { id: folder.id }, json: { channelId: channel } });
      if (folderPushed.problem)
        return t.nothingToJudge(
          'push2master takes neither a file nor a folder that exists only in the channel (open choice push2master-local-file)',
          folderPushed.exchange,
        );
      const withFolder = await t.call('folder.getFiles', { path: { folderId: top }, query: { recursive: true } });
      const carried = withFolder.body && listOf<File>(withFolder.body, 'files').some((f) => f.name === local.name);
      const again = carried ? undefined : await t.try('file.push2master', { path: { id: local.id }, json: { channelId: channel } });
      if (again?.problem) return t.nothingToJudge('push2master of the file, its folder pushed first, was refused too', again.exchange);
    }
    const listed = await t.call('folder.getFiles', { path: { folderId: top }, query: { recursive: true } });
    if (listed.body && !listOf<File>(listed.body, 'files').some((f) => f.name === local.name))
      t.record([
        finding(
          t.requirement,
          'model',
          `push2master of file "${local.name}" (made in channel ${channel} inside its own folder "${folder.name}") answered OK, but ` +
            `GET /folder/getFiles/${top}?recursive=true in the master lists no file of that name: ` +
            brief(listOf<File>(listed.body, 'files').map((f) => f.name)),
          listed.exchange,
        ),
      ]);
  },
);
