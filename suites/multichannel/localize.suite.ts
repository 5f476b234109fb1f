/**
 * Multichannelling (MCH-01..04): objects of the master node seen through a channel, localized and unlocalized there, and
 * the localizations of an object. Every test builds what it changes in its own sandbox folder, created in the master and
 * so inherited into fixture.channelNodeId, predicts how master and channel must see it (model oracle) and compares. The
 * channel's root folder, which the suite did not create, is judged by relations between answers.
 *
 * Where tests go (test/suites.test.ts): a test sits in its requirement family's folder. ENV-08 (no server error) is the
 * exception: its tests sit with the requests they probe, here the channel requests a channel cannot carry out.
 */
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureTree } from '../../harness/fixture.ts';
import { brief } from '../../harness/oracles.ts';
import { flag, listOf, text } from '../../harness/records.ts';
import {
  channelOf,
  copyIn,
  localizeStep,
  nothingToJudgeOnce,
  tryCreateInChannelStep,
  tryFolderLocalize,
  unlocalizeStep,
  NO_CHANNEL_CREATE,
} from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { File, Folder, LocalizationCounters } from '../../schemas/types.ts';
import {
  type Item,
  type Created,
  namesFor,
  create,
  listings,
  listedIn,
  recordsOf,
  copyIdOf,
  type Localized,
  undoLocalized,
  entryOf,
} from './channel.ts';

/** The node names of the first group that has any, in order of trust; [] when no group names one. */
function nodeNames(groups: (string | undefined)[][]): string[] {
  for (const group of groups) {
    const names = group.filter((n): n is string => typeof n === 'string' && n !== '');
    if (names.length) return [...new Set(names)];
  }
  return [];
}

// ---- MCH-01 ----------------------------------------------------------------------------------

conformance('MCH-01', 'folders and files created in the master are listed in the channel as inherited from the master node', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const objs = [await create(t, 'folder', top, namesFor(t, 'folder', 1)[0]!), await create(t, 'file', top, namesFor(t, 'file', 1)[0]!)];
  const master = await listings(t, top);
  const inChannel = await listings(t, top, channel);
  // The master's own view lists its objects as not inherited: a listing that ignored nodeId would show that.
  for (const op of ['folder.getFolders', 'folder.list', 'folder.getFiles', 'file.list'] as const) t.judged(op, 'nodeId');
  const findings: Finding[] = [];
  for (const obj of objs) {
    // The master node's name as the target spells it: first as the master's own records name it.
    const names = nodeNames([
      recordsOf(master, obj).map((r) => text(r, 'masterNode')),
      recordsOf(master, obj).map((r) => text(r, 'inheritedFrom')),
      recordsOf(inChannel, obj).map((r) => text(r, 'masterNode')),
    ]);
    for (const { list, record } of listedIn(t, inChannel, obj, findings)) {
      // Contract 2.3/2.4: "inherited (boolean)"; requirements MCH-01: "inherited true". An absent boolean reads false (2.1).
      if (!flag(record, 'inherited'))
        findings.push(
          finding(
            t.requirement,
            'model',
            `${obj.kind} "${obj.name}" of the master is listed in ${list.what} ` +
              `with inherited ${JSON.stringify(record.inherited)}, expected true`,
            list.exchange,
          ),
        );
      // Contract 2.3: "inheritedFrom: string (name of the node it is inherited from)". A record without it names no node.
      const from = text(record, 'inheritedFrom');
      if (!from) {
        nothingToJudgeOnce(t, `records listed in the channel carry no inheritedFrom: the node they come from is not named`, list.exchange);
        continue;
      }
      if (names.length && !names.includes(from))
        findings.push(
          finding(
            t.requirement,
            'model',
            `${obj.kind} "${obj.name}" is listed in ${list.what} with inheritedFrom ${JSON.stringify(from)}, ` +
              `expected the master node ${brief(names)}`,
            list.exchange,
          ),
        );
    }
  }
  t.record(findings);
});

conformance('MCH-01', "inherited objects in the channel's root folder name the node they come from", async (t) => {
  const channel = channelOf(t);
  const root = t.fixture.channelRootFolderId!;
  const lists = (await listings(t, root, channel)).filter((l) => l.what.includes('/get'));
  const findings: Finding[] = [];
  let judged = 0;
  for (const list of lists) {
    for (const record of list.items.filter((i) => flag(i, 'inherited') && typeof i.id === 'number').slice(0, 12)) {
      // The same object in its own node's view (no nodeId) names that node as its master or origin.
      const { exchange, problem } = await t.try(list.kind === 'folder' ? 'folder.load' : 'file.load', { path: { id: record.id! } });
      if (problem) continue;
      const own = (exchange.response!.json as { folder?: Item; file?: Item })[list.kind];
      const names = nodeNames([[text(own, 'masterNode'), text(own, 'inheritedFrom')], [text(record, 'masterNode')]]);
      const from = text(record, 'inheritedFrom');
      // Nothing names the node on one side or the other: there is nothing to compare.
      if (!from || !names.length) continue;
      judged++;
      // Contract 2.3: "inheritedFrom: string (name of the node it is inherited from)".
      if (!names.includes(from)) {
        findings.push(
          finding(
            t.requirement,
            'metamorphic',
            `${list.kind} "${record.name}" is inherited in ${list.what} with inheritedFrom ${JSON.stringify(from)}, ` +
              `but the object itself names its node ${brief(names)}`,
            list.exchange,
          ),
        );
      }
    }
  }
  if (!judged)
    t.nothingToJudge(
      "no record of the channel's root folder says inherited: true and names the node it comes from, with the object loadable in its own node",
      lists[0]?.exchange,
    );
  t.record(findings);
});

conformance(
  'MCH-01',
  "the fixture's master folders are listed in the channel, unless hidden from it or localized there",
  async (t) => {
    const channel = channelOf(t);
    const { masterRootFolderId: root, channelRootFolderId } = t.fixture;
    const tree = await fixtureTree(t, root);
    // A bounded look, as FLD-08 takes: the first folders of the master's tree, grouped by the folder that lists them.
    const byParent = new Map<number, Folder[]>();
    for (const f of tree.folders.slice(0, 40)) {
      const p = tree.parentOf.get(f.id!)!;
      byParent.set(p, [...(byParent.get(p) ?? []), f]);
    }
    let judged = 0;
    for (const [parent, folders] of byParent) {
      // The channel's own root stands for the master's root there; a parent the channel cannot list hides its content too.
      const id = parent === root && channelRootFolderId !== undefined ? channelRootFolderId : parent;
      const listed = await t.try('folder.getFolders', { path: { id }, query: { nodeId: channel, maxItems: -1 } });
      if (!listed.body) continue;
      judged += folders.length;
      const seen = new Set((listed.body.folders ?? []).map((f) => f.id));
      for (const m of folders.filter((f) => !seen.has(f.id))) {
        // Contract 3: a master object leaves a channel's listings when excluded or disinherited for it (MCH-06), or when the channel
        // has localized it (then its copy is listed, which GET /folder/localizations names with the channel's node).
        if (flag(m, 'excluded') || flag(m, 'disinheritDefault')) continue;
        const status = await t.try('folder.disinherit.get', { path: { id: m.id! } });
        if (!status.body || flag(status.body, 'exclude') || flag(status.body, 'disinheritDefault')) continue;
        if ((status.body.disinherit ?? []).includes(channel)) continue;
        const copies = await t.try('folder.localizations', { path: { id: m.id! } });
        if (!copies.body) continue;
        if (Object.values(copies.body.nodeIds ?? {}).includes(channel)) continue;
        // MCH-01: "an object of the master appears in the channel's listings with inherited true".
        t.record([
          finding(
            'MCH-01',
            'inherited',
            `master folder ${m.id} "${m.name}" (in folder ${parent}) is not listed by GET /folder/getFolders/${id}?nodeId=${channel}, ` +
              `though GET /folder/disinherit/${m.id} says it is neither excluded nor disinherited for channel ${channel}, and ` +
              `GET /folder/localizations/${m.id} names no copy of it there (nodeIds ${JSON.stringify(copies.body.nodeIds ?? {})})`,
            listed.exchange,
          ),
        ]);
      }
    }
    if (!judged) t.nothingToJudge(`channel ${channel} lists none of the folders that hold the fixture's first master folders`);
  },
  { feature: 'multichannelling', operation: 'folder.localizations' },
);

// ---- MCH-02 ----------------------------------------------------------------------------------

conformance('MCH-02', 'a localized folder and file are listed in the channel as not inherited, and the master keeps its own', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const objs = [await create(t, 'folder', top, namesFor(t, 'folder', 1)[0]!), await create(t, 'file', top, namesFor(t, 'file', 1)[0]!)];
  for (const obj of objs) await localizeStep(t, obj.kind, obj.id, channel);
  t.judged('file.localize', 'channelId');
  const inChannel = await listings(t, top, channel);
  const master = await listings(t, top);
  const findings: Finding[] = [];
  for (const obj of objs) {
    for (const list of inChannel.filter((l) => l.kind === obj.kind)) {
      // Contract 3: "inherited or local object -> localized in that channel"; MCH-02: "the channel's view shows it as not
      // inherited": the channel lists its copy in the master's place. The copy is told by its id of its own (or by the master's
      // id no longer said inherited): what a copy says in `inherited` is open (open choice localized-copy-inherited).
      const named = list.items.filter((i) => i.name === obj.name);
      const copy = copyIn(named, obj);
      const still = named.some((i) => i.id === obj.id && copy !== obj.id);
      if (copy === undefined || still)
        findings.push(
          finding(
            t.requirement,
            'model',
            `${obj.kind} "${obj.name}" localized in channel ${channel} is listed in ${list.what} as ` +
              `${JSON.stringify(named.map((i) => ({ id: i.id, inherited: i.inherited })))}, expected its localized copy in place of ` +
              `the inherited master ${obj.id}`,
            list.exchange,
          ),
        );
    }
    for (const { list, record } of listedIn(t, master, obj, findings)) {
      // "makes a localized copy in the target channel": the master object stays what it was.
      if (record.id !== obj.id)
        findings.push(
          finding(
            t.requirement,
            'model',
            `after localizing, ${list.what} lists ${obj.kind} "${obj.name}" with id ${record.id}, expected the master's ${obj.id}`,
            list.exchange,
          ),
        );
    }
  }
  t.record(findings);
  await undoLocalized(
    t,
    objs.map((obj) => ({ obj, parent: top, channel })),
  );
});

conformance('MCH-02', 'localizationinfo counts a localized folder and file as localized in the channel', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const [folder, file] = [
    await create(t, 'folder', top, namesFor(t, 'folder', 1)[0]!),
    await create(t, 'file', top, namesFor(t, 'file', 1)[0]!),
  ];
  await localizeStep(t, folder.kind, folder.id, channel);
  await localizeStep(t, file.kind, file.id, channel);
  const made: Localized = [folder, file].map((obj) => ({ obj, parent: top, channel }));
  const findings: Finding[] = [];
  const info = await t.call('folder.localizationinfo', { path: { id: top }, query: { nodeId: channel, recursive: true } });
  const fileInfo = await t.call('file.localizationinfo', { path: { id: file.id }, query: { nodeId: channel } });
  for (const [res, what, kinds] of [
    [info, `folder ${top}`, { folder: 1, file: 1 }],
    [fileInfo, `file ${file.id}`, { file: 1 }],
  ] as const) {
    if (!res.body) continue;
    const entry = entryOf(res.body, channel);
    // Contract 2.9 LocalizationInfo: per channel "counters inherited, localized, local ... and the same three counters per object kind".
    if (!entry) {
      findings.push(finding(t.requirement, 'model', `the localization info of ${what} has no entry for channel ${channel}`, res.exchange));
      continue;
    }
    for (const [kind, n] of Object.entries(kinds)) {
      const got = (entry[kind] as LocalizationCounters | undefined)?.localized;
      if (got !== n)
        findings.push(
          finding(
            t.requirement,
            'model',
            `the localization info of ${what} counts ${JSON.stringify(got)} localized ${kind}s in channel ${channel}, ` +
              `expected ${n} (localized by this test)`,
            res.exchange,
          ),
        );
    }
  }
  t.record(findings);
  await undoLocalized(t, made);
});

// ---- MCH-03 ----------------------------------------------------------------------------------

/**
 * A channel of the master other than the fixture's, into which `obj` is inherited (DisinheritResponse
 * `inheritable`, read through the GET form of its kind); undefined when the target names none, or does not
 * read the status of such an object.
 */
async function otherChannel(t: ConformanceContext, obj: Created, channel: number): Promise<number | undefined> {
  const res =
    obj.kind === 'folder'
      ? await t.try('folder.disinherit.get', { path: { id: obj.id } })
      : await t.try('file.disinherit.get', { query: { id: [String(obj.id)] } });
  return listOf(res.body, 'inheritable').find((c): c is number => typeof c === 'number' && c !== channel && c !== t.fixture.masterNodeId);
}

for (const kind of ['file', 'folder'] as const) {
  conformance(
    'MCH-03',
    `unlocalizing a ${kind} in the channel named removes that channel's copy only and the channel lists the master's ${kind} again`,
    async (t) => {
      const channel = channelOf(t);
      const top = await t.folder();
      const obj = await create(t, kind, top, namesFor(t, kind, 1)[0]!);
      // A copy in another channel first, where the target has one: unlocalizing in one channel leaves the other's copy.
      const other = await otherChannel(t, obj, channel);
      let otherCopy: number | undefined;
      if (other !== undefined) {
        await localizeStep(t, obj.kind, obj.id, other);
        otherCopy = await copyIdOf(t, top, obj, other);
      } else
        t.nothingToJudge(`the target names no second channel that ${kind} ${obj.id} is inherited into: no other channel's copy to keep`);
      await localizeStep(t, obj.kind, obj.id, channel);
      const copyId = await copyIdOf(t, top, obj, channel);
      if (!(await unlocalizeStep(t, obj.kind, { master: obj.id, copy: copyId }, channel, { recursive: true }))) return;
      const findings: Finding[] = [];
      for (const { list, record } of listedIn(t, await listings(t, top, channel), obj, findings)) {
        // "not localized in that channel": the channel sees the inherited master again, not its copy.
        if (!flag(record, 'inherited') || record.id === copyId || record.id !== obj.id) {
          findings.push(
            finding(
              t.requirement,
              'model',
              `after unlocalizing ${kind} "${obj.name}" in channel ${channel} (copy ${copyId}), ${list.what} lists id ${record.id} ` +
                `with inherited ${JSON.stringify(record.inherited)}, expected the inherited master ${obj.id}`,
              list.exchange,
            ),
          );
        }
      }
      if (other !== undefined && otherCopy !== undefined) {
        // "not localized in that channel": the channel given, no other; the other channel's copy is still its own.
        for (const list of (await listings(t, top, other)).filter((l) => l.kind === kind && !l.items.some((i) => i.id === otherCopy)))
          findings.push(
            finding(
              t.requirement,
              'model',
              `after unlocalizing ${kind} "${obj.name}" in channel ${channel}, ${list.what} no longer lists channel ${other}'s copy ` +
                `${otherCopy}: ${brief(list.items.filter((i) => i.name === obj.name).map((i) => i.id))}`,
              list.exchange,
            ),
          );
        await undoLocalized(t, [{ obj, parent: top, channel: other }]);
      }
      t.record(findings);
    },
  );
}

conformance('MCH-03', 'unlocalizing a folder with recursive false leaves the localized copies inside it', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const [folderName] = namesFor(t, 'folder', 1);
  const [fileName] = namesFor(t, 'file', 1, 1);
  const folder = await create(t, 'folder', top, folderName!);
  const file = await create(t, 'file', folder.id, fileName!);
  await localizeStep(t, folder.kind, folder.id, channel);
  const folderCopy = await copyIdOf(t, top, folder, channel);
  await localizeStep(t, file.kind, file.id, channel);
  const fileCopy = await copyIdOf(t, folderCopy, file, channel);
  const made: Localized = [{ obj: file, parent: folder.id, channel }];
  // UnlocalizeRequest "`recursive` (boolean)": false unlocalizes the folder and not what lies inside it, so the file's
  // copy stays the channel's own (the table of contract 3: a localized object is "not localized in that channel" once
  // unlocalized itself, and only then).
  // No parameter claim: a body without `recursive` may keep the copies too, so removing it proves nothing either way.
  if (await unlocalizeStep(t, folder.kind, { master: folder.id, copy: folderCopy }, channel, { recursive: false })) {
    const listed = await t.call('folder.getFiles', { path: { folderId: folder.id }, query: { nodeId: channel } });
    if (listed.body && copyIn(listOf<File>(listed.body, 'files'), { id: file.id, name: file.name }) !== fileCopy)
      t.record([
        finding(
          'MCH-03',
          'model',
          `after unlocalizing folder "${folder.name}" with recursive false in channel ${channel}, GET /folder/getFiles/${folder.id} ` +
            `in the channel no longer lists the localized copy ${fileCopy} of file "${file.name}" inside it: ` +
            brief(listOf<File>(listed.body, 'files').map((f) => f.id)),
          listed.exchange,
        ),
      ]);
  } else made.push({ obj: folder, parent: top, channel });
  await undoLocalized(t, made);
});

conformance(
  'MCH-03',
  "unlocalizing a folder recursively leaves the master's content, another channel's copies and the channel's own files inside it",
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const folder = await create(t, 'folder', top, namesFor(t, 'folder', 1, 4)[0]!);
    const file = await create(t, 'file', folder.id, namesFor(t, 'file', 1, 4)[0]!);
    const made: Localized = [];
    // Another channel's copy first, so that it is stored before this channel's: a removal that takes the first copy it meets
    // below the folder, whichever channel it is in, takes that one.
    const other = await otherChannel(t, file, channel);
    let otherCopy: number | undefined;
    if (other !== undefined) {
      await localizeStep(t, file.kind, file.id, other);
      otherCopy = await copyIdOf(t, folder.id, file, other);
      made.push({ obj: file, parent: folder.id, channel: other });
    } else t.nothingToJudge(`the target names no second channel that file ${file.id} is inherited into: no other channel's copy to keep`);
    await localizeStep(t, folder.kind, folder.id, channel);
    const folderCopy = await copyIdOf(t, top, folder, channel);
    await localizeStep(t, file.kind, file.id, channel);
    // A file the channel made itself in its copy of the folder: no localized copy, so not the unlocalize's to take.
    const own = await tryCreateInChannelStep(t, 'file', folder.id, namesFor(t, 'file', 1, 13)[0]!, channel);
    if (!own) t.nothingToJudge(`${NO_CHANNEL_CREATE}: no file of the channel's own to keep`);
    // Contract 3: "| localized object | `POST /file/unlocalize/{id}` | channel given in the body | not localized in that
    // channel | none |": the channel's copies go, and nothing else; the master keeps its objects, another channel its copies,
    // the channel its own files.
    if (!(await unlocalizeStep(t, folder.kind, { master: folder.id, copy: folderCopy }, channel, { recursive: true }))) {
      made.push({ obj: file, parent: folder.id, channel }, { obj: folder, parent: top, channel });
      return undoLocalized(t, made);
    }
    const findings: Finding[] = [];
    const expect = async (nodeId: number | undefined, id: number, whose: string) => {
      const listed = await t.call('folder.getFiles', { path: { folderId: folder.id }, query: nodeId === undefined ? {} : { nodeId } });
      if (listed.body && !listOf<File>(listed.body, 'files').some((f) => f.id === id))
        findings.push(
          finding(
            t.requirement,
            'model',
            `after unlocalizing folder "${folder.name}" recursively in channel ${channel}, GET /folder/getFiles/${folder.id}` +
              `${nodeId === undefined ? '' : `?nodeId=${nodeId}`} no longer lists ${whose} (${id}): ` +
              brief(listOf<File>(listed.body, 'files').map((f) => f.id)),
            listed.exchange,
          ),
        );
    };
    await expect(undefined, file.id, `the master's own file "${file.name}"`);
    await expect(channel, file.id, `the master's file "${file.name}", inherited again`);
    if (other !== undefined && otherCopy !== undefined) await expect(other, otherCopy, `channel ${other}'s copy of file "${file.name}"`);
    if (own) await expect(channel, own.id, `the channel's own file "${own.name}"`);
    t.record(findings);
    await undoLocalized(t, made);
  },
);

conformance('MCH-03', "an unlocalize naming the copy and another node in the body leaves the channel's copy", async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const file = await create(t, 'file', top, 'mch03-other-node.txt');
  await localizeStep(t, file.kind, file.id, channel);
  const copyId = await copyIdOf(t, top, file, channel);
  // Contract 3: "| localized object | `POST /file/unlocalize/{id}` | channel given in the body | not localized in that channel |":
  // the body gives the master node, where nothing is localized. Refused, or answered changing nothing: the channel the body does
  // not name keeps its copy.
  await t.try('file.unlocalize', { path: { id: copyId }, json: { channelId: t.fixture.masterNodeId } });
  const listed = await t.call('folder.getFiles', { path: { folderId: top }, query: { nodeId: channel } });
  if (listed.body && !listOf<File>(listed.body, 'files').some((f) => f.id === copyId))
    t.record([
      finding(
        t.requirement,
        'model',
        `POST /file/unlocalize/${copyId} {"channelId": ${t.fixture.masterNodeId}} named the master node, yet channel ${channel} no longer ` +
          `lists its copy ${copyId}: ${brief(listOf<File>(listed.body, 'files').map((f) => f.id))}`,
        listed.exchange,
      ),
    ]);
  await undoLocalized(t, [{ obj: file, parent: top, channel }]);
});

conformance('MCH-03', 'a file localized twice in the channel is inherited again after one unlocalize', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const file = await create(t, 'file', top, namesFor(t, 'file', 1, 11)[0]!);
  await localizeStep(t, file.kind, file.id, channel);
  // Localized again: refused, or answered as done (open choice localize-already-localized); either way the channel holds
  // one copy ("localized in that channel"), which one unlocalize takes back ("not localized in that channel").
  await t.try('file.localize', { path: { id: file.id }, json: { channelId: channel } });
  const copyId = await copyIdOf(t, top, file, channel);
  if (!(await unlocalizeStep(t, file.kind, { master: file.id, copy: copyId }, channel, { recursive: true }))) return;
  const findings: Finding[] = [];
  for (const { list, record } of listedIn(t, await listings(t, top, channel), file, findings))
    if (!flag(record, 'inherited') || record.id !== file.id)
      findings.push(
        finding(
          t.requirement,
          'model',
          `after localizing file "${file.name}" twice in channel ${channel} and unlocalizing it once, ${list.what} lists id ` +
            `${record.id} with inherited ${JSON.stringify(record.inherited)}, expected the inherited master ${file.id}`,
          list.exchange,
        ),
      );
  t.record(findings);
});

conformance('MCH-03', 'unlocalizing a file the channel made itself leaves it listed in the channel', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const local = await tryCreateInChannelStep(t, 'file', top, namesFor(t, 'file', 1, 12)[0]!, channel);
  if (!local) return t.nothingToJudge(NO_CHANNEL_CREATE);
  // Contract 3 gives unlocalize to a "localized object"; this one is local to the channel (open choice
  // unlocalize-not-localized: refused, or answered changing nothing), and no operation removes an object outright.
  await t.try('file.unlocalize', { path: { id: local.id }, json: { channelId: channel } });
  const findings: Finding[] = [];
  listedIn(t, await listings(t, top, channel), { kind: 'file', ...local }, findings);
  t.record(findings);
});

conformance(
  'ENV-08',
  'multichannel requests a channel cannot carry out are answered, never with a server error',
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const [a, b, c] = namesFor(t, 'file', 3, 2);
    const excluded = await create(t, 'file', top, a!);
    const inherited = await create(t, 'file', top, b!);
    const folder = await create(t, 'folder', top, namesFor(t, 'folder', 1, 3)[0]!);
    const inside = await create(t, 'file', folder.id, c!);
    // The judge fails this test on any 5xx ("no request the suite sends, valid or not, is answered with a 5xx"): whether
    // each is carried out or refused is not this test's to say. A channel that is none, a file excluded from the channel, a
    // master that is no master of the channel, a file the channel only inherits, and a folder pushed with its content.
    const excludedHere = await t.try('file.disinherit.set', { query: { id: [String(excluded.id)] }, json: { exclude: true } });
    await t.try('file.localize', { path: { id: inherited.id }, json: { channelId: UNKNOWN_CHANNEL } });
    if (!excludedHere.problem) await t.try('file.localize', { path: { id: excluded.id }, json: { channelId: channel } });
    await t.try('file.push2master', { path: { id: inherited.id }, json: { channelId: channel } });
    const made: Localized = [];
    const folderCopy = await tryFolderLocalize(t, folder.id, channel);
    if (!folderCopy.problem) made.push({ obj: folder, parent: top, channel });
    await localizeStep(t, inside.kind, inside.id, channel);
    made.push({ obj: inside, parent: folder.id, channel });
    await t.try('file.push2master', { path: { id: inside.id }, json: { channelId: channel, masterId: UNKNOWN_CHANNEL } });
    for (const json of [
      { channelId: channel, recursive: true },
      { channelId: channel, recursive: true, types: ['file'] },
    ])
      await t.try('file.push2master', { path: { id: folder.id }, json });
    if (!excludedHere.problem) await t.try('file.disinherit.set', { query: { id: [String(excluded.id)] }, json: { exclude: false } });
    await undoLocalized(t, made);
  },
  { feature: 'multichannelling' },
);

/** A node id no target has: the suite's unknown id. */
const UNKNOWN_CHANNEL = 2_147_483_002;

// ---- MCH-04 ----------------------------------------------------------------------------------

for (const kind of ['file', 'folder'] as const) {
  conformance('MCH-04', `localizations lists the localized copy of a ${kind} with its channel, and none once unlocalized`, async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const obj = await create(t, kind, top, namesFor(t, kind, 1)[0]!);
    const op = kind === 'folder' ? 'folder.localizations' : 'file.localizations';
    const findings: Finding[] = [];
    /** Contract 2.9 LocalizationsResponse: "nodeIds (map string to number: localized-copy ID to node ID), total". */
    const checkLocalizations = async (expected: Record<string, number>, when: string) => {
      const res = await t.call(op, { path: { id: obj.id } });
      if (!res.body) return;
      const got = res.body.nodeIds ?? {};
      if (JSON.stringify(Object.entries(got).sort()) !== JSON.stringify(Object.entries(expected).sort())) {
        findings.push(
          finding(
            t.requirement,
            'model',
            `${when}, the localizations of ${kind} ${obj.id} map copies to nodes as ${JSON.stringify(got)}, ` +
              `expected ${JSON.stringify(expected)}`,
            res.exchange,
          ),
        );
      }
      if (res.body.total !== Object.keys(expected).length)
        findings.push(
          finding(
            t.requirement,
            'model',
            `${when}, the localizations of ${kind} ${obj.id} say total ${JSON.stringify(res.body.total)}, ` +
              `expected ${Object.keys(expected).length}`,
            res.exchange,
          ),
        );
      if (res.body.masterId !== undefined && res.body.masterId !== obj.id)
        findings.push(
          finding(
            t.requirement,
            'model',
            `${when}, the localizations of ${kind} ${obj.id} name masterId ${res.body.masterId}, expected ${obj.id}`,
            res.exchange,
          ),
        );
    };
    await checkLocalizations({}, 'before localizing');
    await localizeStep(t, obj.kind, obj.id, channel);
    const copyId = await copyIdOf(t, top, obj, channel);
    await checkLocalizations({ [String(copyId)]: channel }, `after localizing it in channel ${channel}`);
    if (await unlocalizeStep(t, obj.kind, { master: obj.id, copy: copyId }, channel, { recursive: true }))
      await checkLocalizations({}, 'after unlocalizing it');
    t.record(findings);
  });
}

// ---- MCH-05 ----------------------------------------------------------------------------------
