/**
 * File operations (FIL-01..05): copy, move, save (JSON) and load, judged by the model oracle on files the
 * suite uploads into its own sandbox folders; FIL-05 also compares the target's own files across the
 * four operations that return them (metamorphic: the same file looks the same everywhere).
 *
 * Where tests go (test/suites.test.ts): a test sits in its requirement family's folder. ENV-08 (no server error) is the
 * exception: its tests sit with the requests they probe, here a save, copy or move onto a name the folder holds.
 */
import fc from 'fast-check';
import { bytesClasses, description, fileName, partClasses, textClasses } from '../../generators/faker.ts';
import { SetupError, idOf, stepFinding } from '../../harness/api.ts';
import { checkRefused, finding, isRefusal, type Finding } from '../../harness/checks.ts';
import { fixtureFolders, fixtureTree } from '../../harness/fixture.ts';
import {
  attempt,
  channelOf,
  copyIdStep,
  createFolderStep,
  deleteFolderStep,
  fileSummary,
  filesOf,
  localizeStep,
  undoLocalizeStep,
  tryCreateInChannelStep,
  uploadFileStep,
  NO_CHANNEL_CREATE,
} from '../../harness/steps.ts';
import { brief } from '../../harness/oracles.ts';
import { flag, listOf, text as readText } from '../../harness/records.ts';
import { createdId, refusedAsAllowed, uploadWith } from '../../harness/uploads.ts';
import { startFileHost } from '../../harness/filehost.ts';
import { conformance, novelClasses, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { File, Item } from '../../schemas/types.ts';

/** A file the suite created: uploadFileStep has checked that it has an id. */
type Created = File & { id: number };

/** Uploads a file into a sandbox folder (a step: the test ends if it fails). */
async function upload(t: ConformanceContext, folderId: number, name: string, data: Uint8Array | string): Promise<Created> {
  const file = await uploadFileStep(t, folderId, name, data);
  return { ...file, id: file.id! };
}

/** The members FIL-05 compares: "id, name, folderId, fileSize". */
const COMPARED = ['id', 'name', 'folderId', 'fileSize'] as const;

/**
 * The compared members that differ between two records of one file, among those both carry: contract 2.1 shows no presence
 * flags for the File record, so a member one record leaves out has nothing to be compared with.
 */
function differences(a: File, b: File): string[] {
  return COMPARED.filter((k) => a[k] !== undefined && b[k] !== undefined && a[k] !== b[k]).map(
    (k) => `${k} ${JSON.stringify(a[k])} vs ${JSON.stringify(b[k])}`,
  );
}

/** FIL-01 "the source is unchanged": the source loaded after a copy compared with the file as it was before. */
function sourceUnchanged(loaded: { body?: { file?: File }; exchange: Exchange }, source: Created): Finding[] {
  const kept = loaded.body?.file;
  if (!loaded.body || (kept && !differences(kept, source).length)) return [];
  return [
    finding('FIL-01', 'model', `after the copy the source is ${fileSummary(kept)}; before it was ${fileSummary(source)}`, loaded.exchange),
  ];
}

/** The record with this id in a listing, if listed. */
function listedIn(files: readonly File[] | undefined, id: number | undefined): File | undefined {
  return id === undefined ? undefined : files?.find((f) => f.id === id);
}

conformance('FIL-01', 'copy creates a new file named newFilename in the target folder and leaves the source unchanged', async (t) => {
  const [from, to] = [await t.folder(), await t.folder()];
  let run = 0;
  await t.property(
    // Never empty content: whether an empty file is taken is the open choice empty-upload, which UPL-07 asks on purpose.
    fc.tuple(fileName(), fc.uint8Array({ minLength: 1, maxLength: 4096 })),
    async ([wanted, data]) => {
      const newFilename = `${++run}-${wanted}`;
      const source = await upload(t, from, `fil01-source-${run}.bin`, data);
      // "POST /file/copy ... newFilename (string), file (File), targetFolder ({id, channelId})"
      const copied = await attempt(t, 'file.copy', { json: { file: { id: source.id }, newFilename, targetFolder: { id: to } } });
      if (!copied.body) return copied.findings;
      t.judged('file.copy', 'file', 'newFilename', 'targetFolder');
      const findings: Finding[] = [];
      const [target, origin, loaded] = [
        await filesOf(t, to),
        await filesOf(t, from),
        await attempt(t, 'file.load', { path: { id: source.id } }),
      ];
      findings.push(...target.findings, ...origin.findings, ...loaded.findings);
      // "Response 201 FileUploadResponse", whose `success` says the upload's outcome (UPL-01): a copy answered OK says true where it
      // carries the member.
      if (copied.body.success !== undefined && copied.body.success !== true)
        findings.push(
          finding(
            'FIL-01',
            'model',
            `copy answered OK with success ${JSON.stringify(copied.body.success)}: expected true`,
            copied.exchange,
          ),
        );
      // The answer's file (FileUploadResponse), or where a server answers without it (2.1 shows no presence flags) the file of
      // that name the target lists that is not the source.
      const copy = copied.body.file ?? target.body?.find((f) => f.name === newFilename && f.id !== source.id);
      // folderId and fileSize where the record carries them; the listing of the target shows where the copy is.
      if (
        !copy ||
        typeof copy.id !== 'number' ||
        copy.id === source.id ||
        copy.name !== newFilename ||
        (copy.folderId !== undefined && copy.folderId !== to) ||
        (copy.fileSize !== undefined && copy.fileSize !== data.byteLength)
      ) {
        findings.push(
          finding(
            'FIL-01',
            'model',
            `copy answered ${fileSummary(copy)}; expected a new id (not ${source.id}), name ${JSON.stringify(newFilename)}, ` +
              `folderId ${to}, fileSize ${data.byteLength}`,
            copied.exchange,
          ),
        );
      }
      if (copy && target.body && listedIn(target.body, copy.id)?.name !== newFilename) {
        findings.push(
          finding(
            'FIL-01',
            'model',
            `the target folder ${to} does not list the copy ${copy.id} named ${JSON.stringify(newFilename)}: ` +
              `${fileSummary(listedIn(target.body, copy.id))}`,
            target.exchange,
          ),
        );
      }
      // "the source is unchanged": same name, folder and size, and the copy did not land in the source folder.
      findings.push(...sourceUnchanged(loaded, source));
      if (copy && origin.body && listedIn(origin.body, copy.id))
        findings.push(
          finding(
            'FIL-01',
            'model',
            `the copy ${copy.id} is listed in the source folder ${from}, not only in the target ${to}`,
            origin.exchange,
          ),
        );
      return findings;
    },
    {
      runs: Math.min(t.config.runs, 10),
      novel: novelClasses(([wanted, data]) => partClasses({ name: textClasses(wanted), data: bytesClasses(data) })),
    },
  );
});

conformance(
  'FIL-01',
  'a copy made in a channel of the file it localized is a new file there, which an unlocalize leaves in place',
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const source = await upload(t, top, 'fil01-localized.txt', 'localized\n');
    const master = { id: source.id, name: source.name ?? 'fil01-localized.txt' };
    await localizeStep(t, 'file', source.id, channel);
    const localized = await copyIdStep(t, 'file', top, master, channel);
    try {
      // FIL-01: "copy creates a new file (new id) in the target folder": made in the channel from its localized copy, the new
      // file is the channel's own, no localized copy of anything.
      const newFilename = 'fil01-copy-in-channel.txt';
      const copied = await t.try('file.copy', {
        json: { file: { id: localized }, nodeId: channel, newFilename, targetFolder: { id: top, channelId: channel } },
      });
      if (!copied.body) {
        // Copying into a folder the channel only inherits is creating a file of the channel's own there.
        if (isRefusal(copied.exchange) && (copied.exchange.response?.status ?? 500) < 500)
          t.nothingToJudge(`${NO_CHANNEL_CREATE}: POST /file/copy into it with nodeId ${channel} was refused`, copied.exchange);
        else t.record([stepFinding('FIL-01', 'file.copy', copied.exchange, copied.problem ?? 'no answer')]);
        return;
      }
      // No claim on `nodeId`, which the contract gives no effect on a copy (schemas/parameter-effects.json).
      t.judged('file.copy', 'file', 'newFilename', 'targetFolder');
      const listed = listOf<File>((await t.call('folder.getFiles', { path: { folderId: top }, query: { nodeId: channel } })).body, 'files');
      const name = copied.body.file?.name ?? newFilename;
      const id = idOf(copied.body.file?.id) ?? listed.find((f) => f.name === name && f.id !== localized && f.id !== source.id)?.id;
      if (id === undefined) throw new SetupError(`channel ${channel} lists no copy named "${name}" in folder ${top}`, copied.exchange);
      // Contract 3: "| localized object | `POST /file/unlocalize/{id}` | channel given in the body | not localized in that channel |
      // none |". The new file is no localized object: the unlocalize is refused or answered OK changing nothing (open choice
      // unlocalize-not-localized), and the channel keeps listing the file either way.
      await t.try('file.unlocalize', { path: { id }, json: { channelId: channel } });
      const after = await t.call('folder.getFiles', { path: { folderId: top }, query: { nodeId: channel } });
      if (!after.body) return;
      if (!listOf<File>(after.body, 'files').some((f) => f.id === id))
        t.record([
          finding(
            'FIL-01',
            'model',
            `file ${id}, the copy channel ${channel} made of its localized file ${localized}, is gone from GET /folder/getFiles/${top}` +
              `?nodeId=${channel} after POST /file/unlocalize/${id} {"channelId": ${channel}}: a new file is no localized copy to take back`,
            after.exchange,
          ),
        ]);
    } finally {
      await undoLocalizeStep(t, 'file', top, master, channel);
    }
  },
  { feature: 'multichannelling' },
);

conformance('FIL-01', 'a copy is dated between the files created just before and just after it', async (t) => {
  const folderId = await t.folder();
  const before = await upload(t, folderId, 'fil01-dated-before.txt', 'before\n');
  const copied = await attempt(t, 'file.copy', {
    json: { file: { id: before.id }, newFilename: 'fil01-dated-copy.txt', targetFolder: { id: folderId } },
  });
  if (!copied.body) return void t.record(copied.findings);
  const after = await upload(t, folderId, 'fil01-dated-after.txt', 'after\n');
  const listed = await filesOf(t, folderId);
  if (!listed.body) return void t.record(listed.findings);
  const byId = (id: number | undefined) => listed.body!.find((f) => f.id === id);
  const copy = byId(copied.body.file?.id) ?? listed.body.find((f) => f.name === 'fil01-dated-copy.txt');
  const [first, last] = [byId(before.id), byId(after.id)];
  // 2.2: cdate is the "Creation date" and edate the "Edit date"; 2.1: "Timestamps are numbers (integers). Their unit and epoch:
  // not shown", one unit and epoch for all. The copy was made after the first file and before the last: its dates, its own or
  // the source's, lie between theirs, in whatever unit.
  const low = first?.cdate;
  const high = last?.cdate;
  if (typeof low !== 'number' || typeof high !== 'number' || !copy)
    return t.nothingToJudge(`folder ${folderId} lists the copy or the files around it without cdate`, listed.exchange);
  const outside = (['cdate', 'edate'] as const).filter((k) => typeof copy[k] === 'number' && (copy[k]! < low || copy[k]! > high));
  if (outside.length)
    t.record([
      finding(
        'FIL-01',
        'model',
        `the copy ${copy.id} carries ${outside.map((k) => `${k} ${copy[k]}`).join(', ')}, outside the cdates ${low} and ${high} of ` +
          `files ${before.id} and ${after.id} created just before and just after it: one unit and epoch for every timestamp`,
        listed.exchange,
      ),
    ]);
});

conformance('FIL-01', "copy without targetFolder makes a new file in the source's folder, or is refused and changes nothing", async (t) => {
  const from = await t.folder();
  const source = await upload(t, from, 'fil01-no-target.txt', 'no target\n');
  const before = await filesOf(t, from);
  if (!before.body) return void t.record(before.findings);
  const newFilename = 'fil01-no-target-copy.txt';
  // 4.3 FileCopyRequest: "Which of them are mandatory: not shown." Open choice copy-without-target: the copy goes into the
  // source's folder, or the request is refused. A 5xx is neither, and the judge fails this test on one (ENV-08).
  const copied = await t.try('file.copy', { json: { file: { id: source.id }, newFilename } });
  const [after, loaded] = [await filesOf(t, from), await attempt(t, 'file.load', { path: { id: source.id } })];
  const findings: Finding[] = [...after.findings, ...loaded.findings];
  if (!copied.body) {
    if (!isRefusal(copied.exchange) || (copied.exchange.response?.status ?? 500) >= 500)
      return void t.record([...findings, stepFinding('FIL-01', 'file.copy', copied.exchange, copied.problem ?? 'no answer')]);
    const ids = (files: readonly File[]) =>
      files
        .map((f) => f.id)
        .sort((a, b) => (a ?? 0) - (b ?? 0))
        .join(', ');
    if (after.body && ids(after.body) !== ids(before.body))
      findings.push(
        finding(
          'FIL-01',
          'model',
          `the copy of file ${source.id} without targetFolder was refused, yet folder ${from} lists files ${ids(after.body)}; before it listed ${ids(before.body)}`,
          after.exchange,
        ),
      );
  } else {
    t.judged('file.copy', 'file', 'newFilename');
    const copy = copied.body.file ?? after.body?.find((f) => f.name === newFilename && f.id !== source.id);
    if (after.body && (typeof copy?.id !== 'number' || copy.id === source.id || !listedIn(after.body, copy.id)))
      findings.push(
        finding(
          'FIL-01',
          'model',
          `copy of file ${source.id} without targetFolder answered ${fileSummary(copy)}; expected a new file in the source's folder ` +
            `${from}, which lists ${after.body.map(fileSummary).join(', ')}`,
          copied.exchange,
        ),
      );
  }
  // "the source is unchanged"
  findings.push(...sourceUnchanged(loaded, source));
  t.record(findings);
});

conformance('FIL-02', 'move takes the file out of its folder and into the target, keeping its id', async (t) => {
  const [from, to] = [await t.folder(), await t.folder()];
  const moved = await upload(t, from, 'fil02-moved.txt', 'moved\n');
  const stays = await upload(t, from, 'fil02-stays.txt', 'stays\n');
  // "POST /file/move/{id}: move a file to another folder. Body ObjectMoveRequest: folderId"
  await t.must('file.move', { path: { id: moved.id }, json: { folderId: to } });
  t.judged('file.move', 'folderId');
  const [origin, target, loaded] = [
    await filesOf(t, from),
    await filesOf(t, to),
    await attempt(t, 'file.load', { path: { id: moved.id } }),
  ];
  const findings: Finding[] = [...origin.findings, ...target.findings, ...loaded.findings];
  if (origin.body) {
    const ids = origin.body.map((f) => f.id);
    if (ids.includes(moved.id))
      findings.push(finding('FIL-02', 'model', `the moved file ${moved.id} is still listed in its old folder ${from}`, origin.exchange));
    if (!ids.includes(stays.id))
      findings.push(finding('FIL-02', 'model', `the file ${stays.id} that was not moved is gone from folder ${from}`, origin.exchange));
  }
  const arrived = listedIn(target.body, moved.id);
  if (target.body && (!arrived || arrived.name !== moved.name))
    findings.push(
      finding(
        'FIL-02',
        'model',
        `the target folder ${to} lists ${target.body.map(fileSummary).join(', ') || 'nothing'}; ` +
          `expected file ${moved.id} named ${JSON.stringify(moved.name)}`,
        target.exchange,
      ),
    );
  // The loaded folderId where the record carries it (2.1); the listings above show the move either way.
  if (loaded.body && loaded.body.file?.folderId !== undefined && loaded.body.file.folderId !== to)
    findings.push(
      finding('FIL-02', 'model', `after the move, load reports ${fileSummary(loaded.body.file)}; expected folderId ${to}`, loaded.exchange),
    );
  t.record(findings);
});

conformance(
  'FIL-02',
  'a file moved into a deleted folder is refused, or listed there by default',
  async (t) => {
    const top = await t.folder();
    const doomed = (await createFolderStep(t, top, 'fil02-deleted-target')).id;
    const file = await upload(t, top, 'fil02-moved-into-deleted.txt', 'moved\n');
    await deleteFolderStep(t, doomed);
    // FIL-02: "move changes the file's folder: it leaves the old folder's listing and appears in the new one"; in a deleted
    // folder it would be a deleted item, which leaves every default listing (WST-01): a server refuses, or puts the file where
    // the folder lists it. The contract does not say which refusal (7).
    const moved = await t.try('file.move', { path: { id: file.id }, json: { folderId: doomed } });
    if (!moved.body) return;
    const listed = await t.try('folder.getFiles', { path: { folderId: doomed } });
    if (!(listed.body?.files ?? []).some((f) => f.id === file.id))
      t.record([
        finding(
          'FIL-02',
          'model',
          `POST /file/move/${file.id} into folder ${doomed}, which was deleted, was answered OK, yet GET /folder/getFiles/${doomed} ` +
            `(wastebin absent) ${listed.body ? `lists ${(listed.body.files ?? []).map(fileSummary).join(', ') || 'nothing'}` : 'is refused'}: ` +
            'refuse the move, or list the file there',
          listed.exchange,
        ),
      ]);
  },
  { feature: 'wastebin', operation: 'file.move' },
);

for (const [named, title] of [
  ['master', "a move through a channel into a folder of the channel only leaves the master's file where the master lists it"],
  ['copy', "a channel's localized copy moved into a folder of the channel only leaves the master's file where the master lists it"],
] as const)
  conformance(
    'FIL-02',
    title,
    async (t) => {
      const channel = channelOf(t);
      const top = await t.folder();
      const fileName = `fil02-${named}-file.txt`;
      const file = await upload(t, top, fileName, 'master\n');
      const local = await tryCreateInChannelStep(t, 'folder', top, 'fil02-channel-only', channel);
      if (!local) return t.nothingToJudge(NO_CHANNEL_CREATE);
      if (named === 'copy') await localizeStep(t, 'file', file.id, channel);
      const id = named === 'copy' ? await copyIdStep(t, 'file', top, { id: file.id, name: fileName }, channel) : file.id;
      try {
        // "Body ObjectMoveRequest: folderId (number), nodeId (number)": whether a master's file, or the channel's copy of it, may
        // be moved through a channel into a folder only that channel has is not said, so a refusal and a move are both judged by
        // what the master then shows.
        const moved = await t.try('file.move', { path: { id }, json: { folderId: local.id, nodeId: channel } });
        // FIL-02: "it leaves the old folder's listing and appears in the new one"; MCH-01: "an object of the master appears in the
        // channel's listings with inherited true". The file is still the master's unless the channel now lists it as its own
        // (inherited false): then the master's tree of the sandbox must list it, or the master has a file no listing of its shows.
        const where = (nodeId: number) => t.call('folder.getFiles', { path: { folderId: top }, query: { recursive: true, nodeId } });
        const inMaster = await where(t.fixture.masterNodeId);
        if (!inMaster.body || (inMaster.body.files ?? []).some((f) => f.id === file.id)) return;
        const inChannel = await where(channel);
        if (!inChannel.body) return;
        const seen = (inChannel.body.files ?? []).find((f) => f.id === file.id);
        if (seen?.inherited === false) return;
        t.record([
          finding(
            'FIL-02',
            'model',
            `POST /file/move/${id}${named === 'copy' ? ` (channel ${channel}'s localized copy of file ${file.id})` : ''} into folder ` +
              `${local.id}, a folder of channel ${channel} only, with nodeId ${channel} was ${moved.body ? 'answered OK' : 'refused'}; ` +
              `the master's tree of folder ${top} no longer lists file ${file.id}, and channel ${channel} ` +
              `${seen ? `lists it as inherited (${fileSummary(seen)})` : 'does not list it'}: the master's file is in no listing of the master`,
            inMaster.exchange,
          ),
        ]);
      } finally {
        if (named === 'copy') await undoLocalizeStep(t, 'file', top, { id: file.id, name: fileName }, channel);
      }
    },
    { feature: 'multichannelling', operation: 'file.move' },
  );

conformance(
  'FIL-02',
  'a master file a channel has localized moves in the master like any other',
  async (t) => {
    const channel = channelOf(t);
    const [from, to] = [await t.folder(), await t.folder()];
    const file = await upload(t, from, 'fil02-localized.txt', 'localized\n');
    await localizeStep(t, 'file', file.id, channel);
    try {
      // "POST /file/move/{id}: move a file to another folder": nothing excepts a file with a localized copy, whose copy keeps the
      // file's name. Whether the copy follows is not said; the master's own listings must show the move (a 5xx fails it too).
      const moved = await t.try('file.move', { path: { id: file.id }, json: { folderId: to } });
      if (!moved.body) return;
      const [origin, target] = [await filesOf(t, from), await filesOf(t, to)];
      if (!origin.body || !target.body) return void t.record([...origin.findings, ...target.findings]);
      if (origin.body.some((f) => f.id === file.id) || !target.body.some((f) => f.id === file.id))
        t.record([
          finding(
            'FIL-02',
            'model',
            `POST /file/move/${file.id} {"folderId": ${to}} of a file localized in channel ${channel} was answered OK, yet the master's ` +
              `folder ${from} lists ${brief(origin.body.map((f) => f.id))} and folder ${to} lists ${brief(target.body.map((f) => f.id))}`,
            target.exchange,
          ),
        ]);
    } finally {
      await undoLocalizeStep(t, 'file', to, { id: file.id, name: 'fil02-localized.txt' }, channel);
    }
  },
  { feature: 'multichannelling', operation: 'file.move' },
);

conformance('FIL-03', 'save (JSON) updates name and description, visible on load', async (t) => {
  const folderId = await t.folder();
  let run = 0;
  await t.property(
    fc.tuple(fileName(), description()),
    async ([wanted, described]) => {
      const name = `${++run}-${wanted}`;
      const file = await upload(t, folderId, `fil03-${run}.bin`, `save ${run}\n`);
      // "POST /file/save/{id} (JSON): save a file. Body FileSaveRequest: file (File), failOnDuplicate"
      const saved = await attempt(t, 'file.save.json', {
        path: { id: file.id },
        json: { file: { id: file.id, name, description: described } },
      });
      if (!saved.body) return saved.findings;
      t.judged('file.save.json', 'file');
      const loaded = await attempt(t, 'file.load', { path: { id: file.id } });
      const now = loaded.body?.file;
      // An empty description may come back absent: a server may store it as no description (harness/records.ts).
      if (loaded.body && (now?.name !== name || readText(now, 'description') !== described)) {
        return [
          finding(
            'FIL-03',
            'model',
            `after saving name ${JSON.stringify(name)} and description ${JSON.stringify(described)}, ` +
              `load shows name ${JSON.stringify(now?.name)} and description ${JSON.stringify(now?.description)}`,
            loaded.exchange,
          ),
        ];
      }
      return loaded.findings;
    },
    {
      runs: Math.min(t.config.runs, 10),
      novel: novelClasses(([wanted, described]) => partClasses({ name: textClasses(wanted), description: textClasses(described) })),
    },
  );
});

conformance('FIL-03', 'save (JSON) with failOnDuplicate refuses a name used in the folder and changes nothing', async (t) => {
  const folderId = await t.folder();
  const taken = await upload(t, folderId, 'fil03-taken.txt', 'taken\n');
  const other = await upload(t, folderId, 'fil03-other.txt', 'other\n');
  const before = await filesOf(t, folderId);
  // "failOnDuplicate refuses a name already used in the folder"
  const { exchange: sent } = await t.try('file.save.json', {
    path: { id: other.id },
    json: { file: { id: other.id, name: taken.name, description: 'renamed' }, failOnDuplicate: true },
  });
  // Without failOnDuplicate the save renames the file (FIL-03's other test): the refusal shows the flag.
  t.judged('file.save.json', 'failOnDuplicate');
  const findings = checkRefused(
    sent,
    'FIL-03',
    `saving file ${other.id} under the name of file ${taken.id} with failOnDuplicate must be refused`,
  );
  const after = await filesOf(t, folderId);
  findings.push(...before.findings, ...after.findings);
  if (before.body && after.body) {
    const show = (files: File[]) => files.map(fileSummary).sort().join(', ');
    if (show(before.body) !== show(after.body))
      findings.push(
        finding(
          'FIL-03',
          'model',
          `the save with failOnDuplicate changed the folder: before ${show(before.body)}, after ${show(after.body)}`,
          after.exchange,
        ),
      );
  }
  t.record(findings);
});

/** The members of a File record that the save test gives, as load shows them (harness/records.ts: absent reads as empty). */
const SAVED_MEMBERS = {
  niceUrl: (f: Partial<File> | undefined) => readText(f, 'niceUrl'),
  alternateUrls: (f: Partial<File> | undefined) => JSON.stringify([...listOf<string>(f, 'alternateUrls')].sort()),
  fileType: (f: Partial<File> | undefined) => readText(f, 'fileType'),
  forceOnline: (f: Partial<File> | undefined) => flag(f, 'forceOnline'),
} as const;

/** The saved members of a record, each as SAVED_MEMBERS reads it. */
function savedMembers(file: Partial<File> | undefined): Record<keyof typeof SAVED_MEMBERS, string | boolean> {
  return {
    niceUrl: SAVED_MEMBERS.niceUrl(file),
    alternateUrls: SAVED_MEMBERS.alternateUrls(file),
    fileType: SAVED_MEMBERS.fileType(file),
    forceOnline: SAVED_MEMBERS.forceOnline(file),
  };
}

conformance(
  'FIL-03',
  'save (JSON) of niceUrl, alternateUrls, fileType and forceOnline stores or keeps each, and a later save keeps them',
  async (t) => {
    const folderId = await t.folder();
    const file = await upload(t, folderId, 'fil03-members.txt', 'members\n');
    const first = await attempt(t, 'file.load', { path: { id: file.id } });
    if (!first.body) return void t.record(first.findings);
    const before = savedMembers(first.body.file);
    const given = {
      niceUrl: `/fil03/${folderId}/members`,
      alternateUrls: [`/fil03/${folderId}/b`, `/fil03/${folderId}/a`],
      fileType: 'text/csv',
      forceOnline: before.forceOnline !== true,
    };
    const wanted = savedMembers(given);
    // FIL-03: "save (JSON) updates the given fields (name, description), visible on load": the fields it states. Whether a save
    // stores niceUrl, alternateUrls, fileType and forceOnline, which the File record (2.4) also has, the contract does not say
    // (open choices save-nice-urls, save-file-type): each is either what was given or what it was. The name goes with every
    // save (open choice save-partial-record).
    const saved = await attempt(t, 'file.save.json', { path: { id: file.id }, json: { file: { id: file.id, name: file.name, ...given } } });
    if (!saved.body) return void t.record(saved.findings);
    t.judged('file.save.json', 'file');
    const findings: Finding[] = [];
    const loaded = await attempt(t, 'file.load', { path: { id: file.id } });
    if (!loaded.body) return void t.record(loaded.findings);
    const after = savedMembers(loaded.body.file);
    const members = Object.keys(SAVED_MEMBERS) as (keyof typeof SAVED_MEMBERS)[];
    const neither = members.filter((m) => after[m] !== wanted[m] && after[m] !== before[m]);
    if (neither.length)
      findings.push(
        finding(
          'FIL-03',
          'model',
          `after saving ${JSON.stringify(wanted)} into file ${file.id} (before: ${JSON.stringify(before)}), load shows ` +
            `${JSON.stringify(after)}: ${neither.join(', ')} neither as given nor as before`,
          loaded.exchange,
        ),
      );
    const stored = members.filter((m) => after[m] === wanted[m] && wanted[m] !== before[m]);
    if (!stored.length) {
      t.nothingToJudge(
        `the save of file ${file.id} stored none of ${members.join(', ')}: no field a later save could keep`,
        loaded.exchange,
      );
      return void t.record(findings);
    }
    // "updates the given fields": a save that gives only the name and description leaves the fields it does not give as they were.
    const again = await attempt(t, 'file.save.json', {
      path: { id: file.id },
      json: { file: { id: file.id, name: file.name, description: 'only this' } },
    });
    if (!again.body) return void t.record([...findings, ...again.findings]);
    const reloaded = await attempt(t, 'file.load', { path: { id: file.id } });
    findings.push(...reloaded.findings);
    const kept = reloaded.body?.file;
    const changed = members.filter((m) => savedMembers(kept)[m] !== after[m]);
    if (reloaded.body && (changed.length || kept?.name !== file.name))
      findings.push(
        finding(
          'FIL-03',
          'model',
          `a later save of file ${file.id} giving only its name and description changed what it did not give: load shows ` +
            `${JSON.stringify({ name: kept?.name, ...savedMembers(kept) })}; expected name ${JSON.stringify(file.name)} and ${JSON.stringify(after)}`,
          reloaded.exchange,
        ),
      );
    t.record(findings);
  },
);

conformance(
  'FIL-03',
  'save (JSON) keeps the nice and alternate URLs a JSON create gave when it does not give them, and takes or ignores new ones',
  async (t) => {
    const folderId = await t.folder();
    const host = await startFileHost();
    try {
      // A file that has URLs without a save: FileCreateRequest carries "niceURL (string), alternateURLs (array of string)".
      const name = 'fil03-created-urls.txt';
      const sent = { niceURL: `/fil03/${folderId}/created`, alternateURLs: [`/fil03/${folderId}/y`, `/fil03/${folderId}/x`] };
      const sourceURL = host.serve('created-urls.txt', new TextEncoder().encode('created with URLs\n'));
      const created = await attempt(t, 'file.create.json', { json: { folderId, name, sourceURL, ...sent } });
      const { id, findings: unmade } = await createdId(t, 'FIL-03', created, folderId, name);
      if (id === undefined) return void t.record(unmade);
      const first = await attempt(t, 'file.load', { path: { id } });
      if (!first.body) return void t.record(first.findings);
      const before = savedMembers(first.body.file);
      if (before.niceUrl === '' && before.alternateUrls === '[]')
        return t.nothingToJudge(`file ${id}, created with niceURL and alternateURLs, loads with neither`, first.exchange);
      const findings: Finding[] = [];
      // FIL-03: "save (JSON) updates the given fields": a save giving the name and description leaves the URLs as they were.
      const described = await attempt(t, 'file.save.json', {
        path: { id },
        json: { file: { id, name, description: 'the URLs stay' } },
      });
      if (!described.body) return void t.record(described.findings);
      const kept = await attempt(t, 'file.load', { path: { id } });
      if (!kept.body) return void t.record(kept.findings);
      const after = savedMembers(kept.body.file);
      if (after.niceUrl !== before.niceUrl || after.alternateUrls !== before.alternateUrls)
        findings.push(
          finding(
            'FIL-03',
            'model',
            `a save of file ${id} giving only its name and description changed its URLs: load shows niceUrl ` +
              `${JSON.stringify(after.niceUrl)}, alternateUrls ${after.alternateUrls}; before niceUrl ` +
              `${JSON.stringify(before.niceUrl)}, alternateUrls ${before.alternateUrls}`,
            kept.exchange,
          ),
        );
      // Whether a save stores the alternateUrls it gives is open (save-nice-urls): they are the ones given or the ones before.
      const given = [`/fil03/${folderId}/z`];
      const replaced = await attempt(t, 'file.save.json', { path: { id }, json: { file: { id, name, alternateUrls: given } } });
      if (!replaced.body) return void t.record([...findings, ...replaced.findings]);
      const reloaded = await attempt(t, 'file.load', { path: { id } });
      findings.push(...reloaded.findings);
      const now = reloaded.body && savedMembers(reloaded.body.file);
      const wanted = savedMembers({ alternateUrls: given });
      if (
        now &&
        ((now.alternateUrls !== wanted.alternateUrls && now.alternateUrls !== after.alternateUrls) || now.niceUrl !== after.niceUrl)
      )
        findings.push(
          finding(
            'FIL-03',
            'model',
            `after saving alternateUrls ${wanted.alternateUrls} into file ${id} (before: ${after.alternateUrls}, niceUrl ` +
              `${JSON.stringify(after.niceUrl)}), load shows alternateUrls ${now.alternateUrls}, niceUrl ${JSON.stringify(now.niceUrl)}: ` +
              'the URLs given or those before, and the niceUrl it did not give kept',
            reloaded.exchange,
          ),
        );
      t.record(findings);
    } finally {
      await host.close();
    }
  },
  { feature: 'sourceUrl', operation: 'file.save.json' },
);

/** The first image getItems shows in the fixture's folders (of the first 40, master view), or undefined. */
async function fixtureImage(t: ConformanceContext): Promise<Item | undefined> {
  for (const folder of (await fixtureFolders(t)).slice(0, 40)) {
    const items = (await t.call('folder.getItems', { path: { folderId: folder.id! } })).body?.items ?? [];
    const image = items.find((i) => i.type === 'image' && typeof i.id === 'number' && typeof i.name === 'string');
    if (image) return image;
  }
  return undefined;
}

conformance('FIL-03', 'save (JSON) with failOnDuplicate refuses the name of an image in the folder', async (t) => {
  const image = await fixtureImage(t);
  if (!image) return t.nothingToJudge('getItems shows no image in the fixture folders');
  const folderId = await t.folder();
  // An image beside a file: the contract offers no image upload, but copy takes a file record, and an image is one (2.2 type `image`).
  const copied = await t.try('file.copy', { json: { file: { id: image.id }, targetFolder: { id: folderId } } });
  const itemsOf = () => attempt(t, 'folder.getItems', { path: { folderId } });
  const before = await itemsOf();
  if (!before.body) return void t.record(before.findings);
  const beside = (before.body.items ?? []).find((i) => i.type === 'image' && i.id === copied.body?.file?.id);
  if (!beside?.name) return t.nothingToJudge(`copying image ${image.id} into a sandbox folder put no image there`, copied.exchange);
  const other = await upload(t, folderId, 'fil03-beside-image.txt', 'other\n');
  const withFile = await itemsOf();
  // FIL-03: "failOnDuplicate refuses a name already used in the folder"; the image's name is used in the folder, where files
  // and images share names (open choice file-image-names).
  const { exchange: sent } = await t.try('file.save.json', {
    path: { id: other.id },
    json: { file: { id: other.id, name: beside.name }, failOnDuplicate: true },
  });
  t.judged('file.save.json', 'failOnDuplicate');
  if (sent.response && sent.response.status < 500 && !isRefusal(sent)) {
    // Taken: then the file has exactly the image's name, the server keeping the names of files and images apart; any other
    // name is a duplicate renamed where failOnDuplicate asked for a refusal.
    const loaded = await attempt(t, 'file.load', { path: { id: other.id } });
    if (!loaded.body) return void t.record(loaded.findings);
    if (loaded.body.file?.name !== beside.name)
      return void t.record([
        finding(
          'FIL-03',
          'model',
          `saving file ${other.id} under the name of image ${beside.id} with failOnDuplicate gave it the name ` +
            `${JSON.stringify(loaded.body.file?.name)}: a name used in the folder is refused, a free one taken as given`,
          loaded.exchange,
        ),
      ]);
    return t.nothingToJudge(
      `the save gave file ${other.id} the name of image ${beside.id}: files and images of a folder may have names of their own ` +
        '(open choice file-image-names)',
      sent,
    );
  }
  const findings = checkRefused(
    sent,
    'FIL-03',
    `saving file ${other.id} under the name of image ${beside.id} in its folder, with failOnDuplicate, must be refused`,
  );
  const saved = await itemsOf();
  findings.push(...withFile.findings, ...saved.findings);
  if (withFile.body && saved.body) {
    const show = (items: Item[] | undefined) =>
      (items ?? [])
        .map((i) => `${i.type} ${i.id} ${JSON.stringify(i.name)}`)
        .sort()
        .join(', ');
    if (show(withFile.body.items) !== show(saved.body.items))
      findings.push(
        finding(
          'FIL-03',
          'model',
          `the save with failOnDuplicate changed the folder: before ${show(withFile.body.items)}, after ${show(saved.body.items)}`,
          saved.exchange,
        ),
      );
  }
  t.record(findings);
});

conformance('ENV-08', 'a save, copy or move onto a name the folder holds already is answered, never with a server error', async (t) => {
  const top = await t.folder();
  const other = await t.folder('env-08 target');
  // Names a server may number (`b_1.txt`): the save below meets `b.txt` and `b_1.txt` taken, and the text a numbering
  // may fall back on, so that a numbering that loops or reads what is not there shows.
  const names = ['b.txt', 'b_1.txt', 'b_undefined.txt', 'b_NaN.txt', 'a.txt'];
  const files = new Map<string, number>();
  for (const name of names) files.set(name, (await uploadFileStep(t, top, name, `${name}\n`)).id!);
  await uploadFileStep(t, other, 'a.txt', 'a\n');
  const a = files.get('a.txt')!;
  // Whether each is carried out (the name numbered, or taken as it is) or refused is open (copy-name-collision,
  // upload-name-collision, move-to-same-folder); a 5xx is never an answer ("no request the suite sends, valid or not, is
  // answered with a 5xx"), and the judge fails this test on one.
  await t.try('file.save.json', { path: { id: a }, json: { file: { id: a, name: 'b.txt' } } });
  await t.try('file.copy', { json: { file: { id: files.get('b.txt')! }, targetFolder: { id: top } } });
  await t.try('file.copy', { json: { file: { id: files.get('b.txt')! }, targetFolder: { id: top }, newFilename: 'b_1.txt' } });
  await t.try('file.move', { path: { id: files.get('b_1.txt')! }, json: { folderId: other } });
  await t.try('file.move', { path: { id: a }, json: { folderId: other } });
});

conformance('FIL-04', 'load returns the file with its stagingStatus', async (t) => {
  const folderId = await t.folder();
  const file = await upload(t, folderId, 'fil04.txt', 'staging\n');
  // "GET /file/load/{id} ... Response: file (File), stagingStatus (one stagingStatus object), plus envelope."
  const { exchange, body } = await t.call('file.load', { path: { id: file.id } });
  if (!body) return;
  const findings: Finding[] = [];
  if (body.file?.id !== file.id)
    findings.push(finding('FIL-04', 'model', `load of file ${file.id} answered ${fileSummary(body.file)}`, exchange));
  // FIL-04: "`stagingStatus` ... is a stagingStatus object where the answer carries one" (open choice staging-status-carried).
  if (body.stagingStatus === undefined)
    t.nothingToJudge(`load of file ${file.id} carries no stagingStatus (none is carried where no staging package is named)`, exchange);
  else if (!isStagingStatus(body.stagingStatus)) {
    findings.push(
      finding(
        'FIL-04',
        'model',
        `load of file ${file.id} answered stagingStatus ${JSON.stringify(body.stagingStatus)}; expected one stagingStatus object ` +
          '{packageName (string), included (boolean)}, not the map of the list answers',
        exchange,
      ),
    );
  }
  t.record(findings);
});

/**
 * Whether a value has the shape of one stagingStatus object (2.9: "`{packageName (string), included (boolean)}`. In list
 * responses it is a map string to this shape"): an object whose packageName and included, where carried, are of their types,
 * and not a map of such objects.
 */
function isStagingStatus(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const status = value as Record<string, unknown>;
  if (status.packageName !== undefined && typeof status.packageName !== 'string') return false;
  if (status.included !== undefined && typeof status.included !== 'boolean') return false;
  const shaped = (v: unknown) => typeof v === 'object' && v !== null && ('included' in v || 'packageName' in v);
  return !Object.values(status).some(shaped);
}

/**
 * FIL-05 for one file: its records from load, GET /file, getFiles and findFiles (in its folder, by its
 * name) agree on id, name, folderId and fileSize with `expected`.
 */
async function compareViews(
  t: ConformanceContext,
  expected: Created & { folderId: number; name: string },
  listings: Listings,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const loaded = await attempt(t, 'file.load', { path: { id: expected.id } });
  const found = await attempt(t, 'folder.findFiles', {
    query: { folderId: expected.folderId, query: expected.name, recursive: false, maxItems: -1 },
  });
  findings.push(...loaded.findings, ...found.findings);
  const views: [string, File | undefined, Exchange, boolean][] = [
    ['file.load', loaded.body?.file, loaded.exchange, loaded.body !== undefined],
    ['GET /file', listedIn(listings.list.files, expected.id), listings.list.exchange, true],
    ['getFiles', listedIn(listings.legacy.files, expected.id), listings.legacy.exchange, true],
    ['findFiles', listedIn(found.body?.files, expected.id), found.exchange, found.body !== undefined],
  ];
  for (const [where, record, exchange, answered] of views) {
    if (!answered) continue;
    // "file records of one file agree across load, GET /file, getFiles and findFiles (id, name, folderId, fileSize)"
    if (!record) findings.push(finding('FIL-05', 'model', `${where} does not return file ${fileSummary(expected)}`, exchange));
    else if (differences(record, expected).length)
      findings.push(
        finding(
          'FIL-05',
          'model',
          `${where} shows file ${expected.id} with ${differences(record, expected).join(', ')} (${where} vs expected)`,
          exchange,
        ),
      );
  }
  return findings;
}

/** A folder's files from GET /file and from getFiles, with the exchanges that showed them. */
interface Listings {
  list: { files: File[]; exchange: Exchange };
  legacy: { files: File[]; exchange: Exchange };
}

/** The records of a folder from GET /file and getFiles, both unpaged. */
async function bothListings(t: ConformanceContext, folderId: number): Promise<Listings | undefined> {
  const list = await t.call('file.list', { query: { folderId } });
  const legacy = await t.call('folder.getFiles', { path: { folderId }, query: { maxItems: -1 } });
  if (!list.body || !legacy.body) return undefined;
  return {
    list: { files: list.body.items ?? [], exchange: list.exchange },
    legacy: { files: legacy.body.files ?? [], exchange: legacy.exchange },
  };
}

conformance('FIL-05', 'a file the suite uploaded looks the same through load, GET /file, getFiles and findFiles', async (t) => {
  const folderId = await t.folder();
  const sizes = [0, 1, 17, 4096, 70_001];
  const uploaded = await Promise.all(
    sizes.map(async (size, i) => {
      const name = `fil05-${i}-${size}.bin`;
      const created = await uploadWith(t, 'file.create.multipart', folderId, name, new Uint8Array(size).fill(i + 1));
      // An empty file on purpose: whether it is taken is the open choice empty-upload.
      if (size === 0 && refusedAsAllowed(t, created, 'an empty upload', 'empty-upload')) return undefined;
      const id = created.body?.file?.id;
      if (!created.body?.file || typeof id !== 'number')
        throw new SetupError(`file.create answered no file id for ${name}`, created.exchange);
      // The model: the folder and size the suite sent, and the name as the create answered it (the test is not about names).
      return { ...created.body.file, id, name: created.body.file.name ?? name, folderId, fileSize: size };
    }),
  );
  const listings = await bothListings(t, folderId);
  if (!listings) return;
  const findings: Finding[] = [];
  for (const expected of uploaded) if (expected) findings.push(...(await compareViews(t, expected, listings)));
  t.record(findings);
});

conformance('FIL-05', "the target's own files look the same through load, GET /file, getFiles and findFiles", async (t) => {
  const root = t.fixture.masterRootFolderId;
  // Files in the sandboxes come and go while this test reads: only the fixture's own are compared.
  const scope = (await fixtureTree(t, root)).ids;
  const all = await t.must('folder.getFiles', { path: { folderId: root }, query: { recursive: true, maxItems: -1 } });
  const files = (all.files ?? []).filter(
    (f): f is Created & { folderId: number; name: string } =>
      typeof f.id === 'number' && typeof f.folderId === 'number' && typeof f.name === 'string' && scope.has(f.folderId),
  );
  if (!files.length) return t.nothingToJudge('the master tree holds no files');
  // A sample spread over the tree (every k-th file) keeps the request count bounded on large fixtures.
  const stride = Math.max(1, Math.floor(files.length / 12));
  const sample = files.filter((_, i) => i % stride === 0).slice(0, 12);
  const findings: Finding[] = [];
  const byFolder = new Map<number, Listings | undefined>();
  for (const file of sample) {
    if (!byFolder.has(file.folderId)) byFolder.set(file.folderId, await bothListings(t, file.folderId));
    const listings = byFolder.get(file.folderId);
    // Metamorphic: the recursive listing's record is the reference the other views must agree with.
    if (listings) findings.push(...(await compareViews(t, file, listings)));
  }
  t.record(findings);
});

conformance('FIL-05', 'getFiles and GET /file with folder=true give each file the folder it is in', async (t) => {
  const folderId = await t.folder();
  const files = await Promise.all(
    ['with-folder-a.txt', 'with-folder-b.txt'].map((n) => uploadFileStep(t, folderId, n, `${n}\n`, 'text/plain')),
  );
  for (const op of ['folder.getFiles', 'file.list'] as const) {
    const got =
      op === 'folder.getFiles'
        ? await t.call(op, { path: { folderId }, query: { folder: true } })
        : await t.call(op, { query: { folderId: String(folderId), folder: true } });
    if (!got.body) continue;
    const body = got.body as { files?: File[]; items?: File[] };
    const listed = body.files ?? body.items ?? [];
    t.judged(op, 'folder');
    // "folder (boolean, false; add folder info)"; the File record's "folder | Folder (present when requested)" is the folder
    // the file is in, which its folderId names.
    const wrong = listed.filter((f) => files.some((c) => c.id === f.id) && f.folder?.id !== folderId);
    if (wrong.length || !listed.length)
      t.record([
        finding(
          'FIL-05',
          'folder',
          `${op} of folder ${folderId} with folder=true lists ${brief(wrong.map((f) => ({ id: f.id, folder: f.folder?.id })))} ` +
            `without that folder as their folder record`,
          got.exchange,
        ),
      ]);
  }
});
