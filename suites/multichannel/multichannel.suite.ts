/**
 * Multichannelling (MCH-01..08): objects of the master node seen through a channel. Every test builds
 * what it changes in its own sandbox folder, created in the master and so inherited into
 * fixture.channelNodeId, predicts how master and channel must see it (model oracle) and compares. The
 * channel's root folder, which the suite did not create, is judged by relations between answers.
 *
 * Where tests go (test/suites.test.ts): a test sits in its requirement family's folder. ENV-08 (no server error) is the
 * exception: its tests sit with the requests they probe, here the channel requests a channel cannot carry out.
 */
import fc from 'fast-check';
import { uniqueFileName, uniqueFolderName } from '../../generators/requests.ts';
import { stepFinding } from '../../harness/api.ts';
import { finding, type Finding } from '../../harness/checks.ts';
import { brief } from '../../harness/oracles.ts';
import { flag, listOf, text } from '../../harness/records.ts';
import {
  attempt,
  channelOf,
  copyIdStep,
  copyIn,
  createFolderStep,
  eitherIdStep,
  localizeStep,
  nothingToJudgeOnce,
  tryCreateInChannelStep,
  undoLocalizeStep,
  unlocalizeStep,
  uploadFileStep,
} from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type {
  DisinheritResponse,
  File,
  Folder,
  LocalizationCounters,
  LocalizationInfoResponse,
  MultiDisinheritResponse,
} from '../../schemas/types.ts';

type Kind = 'folder' | 'file';
type Item = Folder | File;

/** One listing of a folder's content in one view: what was asked, the answer, the records. */
interface Listing {
  what: string;
  kind: Kind;
  exchange: Exchange;
  items: Item[];
}

/** An object the test created: its kind, id and name as the target answered them. */
interface Created {
  kind: Kind;
  id: number;
  name: string;
}

/** Distinct realistic names from the test's seed. */
function namesFor(t: ConformanceContext, kind: Kind, count: number, salt = 0): string[] {
  return fc.sample(kind === 'folder' ? uniqueFolderName() : uniqueFileName(), { seed: t.seed + salt, numRuns: count });
}

/** Creates a folder or a small file in `parent` (in the master unless nodeId) and returns it. */
async function create(
  t: ConformanceContext,
  kind: Kind,
  parent: number,
  name: string,
  nodeId?: number,
  data = `${name}\n`,
): Promise<Created> {
  const made =
    kind === 'folder'
      ? await createFolderStep(t, parent, name, nodeId === undefined ? {} : { nodeId })
      : await uploadFileStep(t, parent, name, data, 'text/plain', nodeId === undefined ? {} : { nodeId: String(nodeId) });
  return { kind, id: made.id!, name: made.name ?? name };
}

const where = (nodeId: number | undefined) => (nodeId === undefined ? 'the master' : `channel ${nodeId}`);

/** The four listings of a folder's direct content (legacy and new-style, folders and files) in one view; undefined nodeId: the master's. */
async function listings(t: ConformanceContext, folderId: number, nodeId?: number): Promise<Listing[]> {
  const view = nodeId === undefined ? {} : { nodeId };
  const out: Listing[] = [];
  const a = await t.call('folder.getFolders', { path: { id: folderId }, query: view });
  if (a.body)
    out.push({
      what: `GET /folder/getFolders/${folderId} in ${where(nodeId)}`,
      kind: 'folder',
      exchange: a.exchange,
      items: a.body.folders ?? [],
    });
  const b = await t.call('folder.list', { query: { folderId: String(folderId), ...view } });
  if (b.body)
    out.push({
      what: `GET /folder?folderId=${folderId} in ${where(nodeId)}`,
      kind: 'folder',
      exchange: b.exchange,
      items: b.body.items ?? [],
    });
  const c = await t.call('folder.getFiles', { path: { folderId }, query: view });
  if (c.body)
    out.push({
      what: `GET /folder/getFiles/${folderId} in ${where(nodeId)}`,
      kind: 'file',
      exchange: c.exchange,
      items: c.body.files ?? [],
    });
  const d = await t.call('file.list', { query: { folderId: String(folderId), ...view } });
  if (d.body)
    out.push({ what: `GET /file?folderId=${folderId} in ${where(nodeId)}`, kind: 'file', exchange: d.exchange, items: d.body.items ?? [] });
  return out;
}

/** The record named `name` in every listing of its kind; a finding for each listing that lacks it. */
function listedIn(t: ConformanceContext, lists: Listing[], obj: Created, findings: Finding[]): { list: Listing; record: Item }[] {
  const out: { list: Listing; record: Item }[] = [];
  for (const list of lists.filter((l) => l.kind === obj.kind)) {
    const record = list.items.find((i) => i.name === obj.name);
    if (record) out.push({ list, record });
    else
      findings.push(
        finding(
          t.requirement,
          'model',
          `${obj.kind} "${obj.name}" is missing from ${list.what}; listed: ${brief(list.items.map((i) => i.name))}`,
          list.exchange,
        ),
      );
  }
  return out;
}

/** The records of an object found by name in any listing of its kind (no finding when absent). */
function recordsOf(lists: Listing[], obj: Created): Item[] {
  return lists.filter((l) => l.kind === obj.kind).flatMap((l) => l.items.filter((i) => i.name === obj.name));
}

/** The id under which the channel lists its localized copy of an object: told by its id, not by `inherited` (harness/steps.ts copyIn). */
async function copyIdOf(t: ConformanceContext, parent: number, obj: Created, channel: number): Promise<number> {
  return copyIdStep(t, obj.kind, parent, obj, channel);
}

/** What a test localized, so that it takes it back at its end (the suite files that list after it find nothing localized). */
type Localized = { obj: Created; parent: number; channel: number }[];

/** Takes back what a test localized (harness/steps.ts undoLocalizeStep): folders last, for their copies below go with them. */
async function undoLocalized(t: ConformanceContext, made: Localized): Promise<void> {
  for (const { obj, parent, channel } of [...made].sort((a, b) => (a.obj.kind === b.obj.kind ? 0 : a.obj.kind === 'file' ? -1 : 1)))
    await undoLocalizeStep(t, obj.kind, parent, obj, channel);
}

/** Why a test cannot judge what a channel's own objects do: the target refuses to create them in a folder the channel inherits. */
const NO_CHANNEL_CREATE =
  'the target creates no folder or file of the channel in a folder the channel only inherits (open choice channel-create-in-inherited-folder)';

/** Why a test cannot judge the file forms of the disinherit operations: /file/disinherit refuses file ids. */
const NO_FILE_DISINHERIT = '/file/disinherit takes no file ids here ("described as page IDs": open choice file-disinherit-ids)';

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

/** The counters of one node in a localization info answer, or undefined. */
function entryOf(info: LocalizationInfoResponse, nodeId: number) {
  return info.channels?.find((c) => c.channelId === nodeId);
}

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
    const folderCopy = await t.try('folder.localize', { path: { id: folder.id }, json: { channelId: channel } });
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

/** What a DisinheritRequest sets: exclude, disinheritDefault, and the channels disinherited (undefined: the model cannot tell). */
interface Status {
  exclude: boolean;
  disinheritDefault: boolean | undefined;
  disinherit: number[] | undefined;
}

/** A DisinheritRequest as the suite sends it: the channel disinherited, reinherited or neither. */
interface Change {
  exclude?: boolean;
  disinheritDefault?: boolean;
  recursive?: boolean;
  channel: 'disinherit' | 'reinherit' | 'neither';
}

/** A change that names at least one member: an empty DisinheritRequest asks nothing (open choice disinherit-nothing-to-change). */
const changeArb: fc.Arbitrary<Change> = fc
  .record(
    { exclude: fc.boolean(), disinheritDefault: fc.boolean(), channel: fc.constantFrom('disinherit', 'reinherit', 'neither') },
    { requiredKeys: ['channel'] },
  )
  .map((c) => (c.channel === 'neither' && c.exclude === undefined && c.disinheritDefault === undefined ? { ...c, exclude: false } : c));

function bodyOf(change: Change, channel: number, recursive?: boolean) {
  return {
    ...(change.exclude === undefined ? {} : { exclude: change.exclude }),
    ...(change.disinheritDefault === undefined ? {} : { disinheritDefault: change.disinheritDefault }),
    ...(change.channel === 'disinherit' ? { disinherit: [channel] } : change.channel === 'reinherit' ? { reinherit: [channel] } : {}),
    ...(recursive === undefined ? {} : { recursive }),
  };
}

/**
 * The model: a change applies what it names and leaves the rest (MCH-05 "sets exclude, disinherit, reinherit, ...
 * disinheritDefault"). The objects are fresh, so the test's channel is the only one their list can name. Whether
 * exclusion keeps the per-channel list is open (open choice exclude-keeps-disinherit): after exclude true the model
 * no longer knows the list, until a change names the channel or the list is read back while not excluded.
 */
function apply(status: Status, change: Change, channel: number): Status {
  const kept = change.exclude === true ? undefined : status.disinherit;
  return {
    exclude: change.exclude ?? status.exclude,
    disinheritDefault: change.disinheritDefault ?? status.disinheritDefault,
    disinherit: change.channel === 'disinherit' ? [channel] : change.channel === 'reinherit' ? [] : kept,
  };
}

/** Whether a change may leave everything as it was: a server may refuse such a request (open choice disinherit-nothing-to-change). */
function mayChangeNothing(status: Status, change: Change): boolean {
  const same = <T>(asked: T | undefined, now: T | undefined) => asked === undefined || now === undefined || asked === now;
  const listed = status.disinherit === undefined ? undefined : status.disinherit.length > 0;
  return (
    same(change.exclude, status.exclude) &&
    same(change.disinheritDefault, status.disinheritDefault) &&
    (change.channel === 'neither' || same(change.channel === 'disinherit', listed))
  );
}

const sameSet = (a: readonly number[], b: readonly number[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/**
 * Compares a read-back status with the model. An
 * absent boolean reads false (contract 2.1). What an excluded object reports in `disinherit` is open (open choice
 * disinherit-while-excluded), so the list is judged only while the object is not excluded, and where the model knows it.
 */
function compareStatus(
  t: ConformanceContext,
  what: string,
  got: DisinheritResponse & MultiDisinheritResponse,
  want: Status,
  exchange: Exchange,
  after: string,
): Finding[] {
  const out: Finding[] = [];
  if (flag(got, 'exclude') !== want.exclude)
    out.push(
      finding(
        t.requirement,
        'model',
        `${after}, ${what} reads back exclude ${JSON.stringify(got.exclude)}, expected ${want.exclude}`,
        exchange,
      ),
    );
  // Only the one-object form (DisinheritResponse) carries disinheritDefault.
  if (want.disinheritDefault !== undefined && flag(got, 'disinheritDefault') !== want.disinheritDefault) {
    out.push(
      finding(
        t.requirement,
        'model',
        `${after}, ${what} reads back disinheritDefault ${JSON.stringify(got.disinheritDefault)}, expected ${want.disinheritDefault}`,
        exchange,
      ),
    );
  }
  if (!want.exclude && want.disinherit !== undefined && !sameSet(listOf<number>(got, 'disinherit'), want.disinherit))
    out.push(
      finding(
        t.requirement,
        'model',
        `${after}, ${what} reads back disinherit ${JSON.stringify(got.disinherit)}, expected ${JSON.stringify(want.disinherit)}`,
        exchange,
      ),
    );
  if (listOf(got, 'partialDisinherit').length > 0) {
    out.push(
      finding(
        t.requirement,
        'model',
        `${after}, ${what} reads back partialDisinherit ${JSON.stringify(got.partialDisinherit)} ` +
          'for objects that were all set alike, expected none',
        exchange,
      ),
    );
  }
  return out;
}

/** The three forms of the disinherit operations: one folder, several folders, several files. */
const FORMS = [
  { title: 'POST /folder/disinherit/{id} sets what GET /folder/disinherit/{id} reads back', kind: 'folder', many: false },
  { title: 'POST /folder/disinherit sets what GET /folder/disinherit reads back for several folders', kind: 'folder', many: true },
  { title: 'POST /file/disinherit sets what GET /file/disinherit reads back for several files', kind: 'file', many: true },
] as const;

for (const form of FORMS) {
  conformance('MCH-05', form.title, async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const setOp = form.many ? (form.kind === 'folder' ? 'folder.disinherit.setMany' : 'file.disinherit.set') : 'folder.disinherit.set';
    const getOp = form.many ? (form.kind === 'folder' ? 'folder.disinherit.getMany' : 'file.disinherit.get') : 'folder.disinherit.get';
    const set = (ids: number[], json: unknown) =>
      form.many ? t.try(setOp, { query: { id: ids.map(String) }, json }) : t.try(setOp, { path: { id: ids[0]! }, json });
    const read = (ids: number[]) =>
      form.many ? attempt(t, getOp, { query: { id: ids.map(String) } }) : attempt(t, getOp, { path: { id: ids[0]! } });
    // MultiDisinheritResponse has no disinheritDefault: the list forms' is read per object, from the one-folder form or the
    // file record (contract 2.4: "excluded, disinheritDefault, disinherited | boolean"; an absent boolean reads false).
    const defaults = async (ids: number[]) => {
      const out: { id: number; value: boolean; exchange: Exchange }[] = [];
      for (const id of ids) {
        const res =
          form.kind === 'folder' ? await t.try('folder.disinherit.get', { path: { id } }) : await t.try('file.load', { path: { id } });
        if (!res.body) continue;
        const body = res.body as { disinheritDefault?: unknown; file?: File };
        out.push({ id, value: flag(form.kind === 'folder' ? body : body.file, 'disinheritDefault'), exchange: res.exchange });
      }
      return out;
    };
    let unread = false;
    await t.property(
      fc.array(changeArb, { minLength: 1, maxLength: 4 }),
      async (changes) => {
        if (unread) return [];
        // Fresh objects in every run: each run starts from the objects as made, never from what an earlier run read back.
        const objs = await Promise.all(
          Array.from({ length: form.many ? 2 : 1 }, () =>
            create(t, form.kind, top, t.uniqueName(form.kind) + (form.kind === 'file' ? '.txt' : '')),
          ),
        );
        const ids = objs.map((o) => o.id);
        const what = `${form.kind}${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`;
        const first = await read(ids);
        if (!first.body) {
          if (form.kind === 'file' && first.exchange.response && first.exchange.response.status < 500) {
            unread = true;
            nothingToJudgeOnce(t, NO_FILE_DISINHERIT, first.exchange);
            return [];
          }
          return first.findings;
        }
        const firstDefault = form.many ? (await defaults(ids))[0]?.value : flag(first.body, 'disinheritDefault');
        let want: Status = {
          exclude: flag(first.body, 'exclude'),
          disinheritDefault: firstDefault,
          disinherit: flag(first.body, 'exclude') ? undefined : listOf<number>(first.body, 'disinherit'),
        };
        const found: Finding[] = [];
        try {
          for (const [i, change] of changes.entries()) {
            const body = bodyOf(change, channel);
            const after = `after change ${i + 1} ${JSON.stringify(body)}`;
            const res = await set(ids, body);
            if (res.problem) {
              // A request that may change nothing may be refused; it then changes nothing.
              if (mayChangeNothing(want, change)) {
                nothingToJudgeOnce(t, 'a disinherit request that changed nothing was refused (open choice disinherit-nothing-to-change)');
                continue;
              }
              return [...found, stepFinding(t.requirement, setOp, res.exchange, `${after.replace('after ', '')}: ${res.problem}`)];
            }
            want = apply(want, change, channel);
            t.judged(setOp, ...['exclude', 'disinherit', 'reinherit', 'disinheritDefault', ...(form.many ? ['id'] : [])]);
            if (form.many) t.judged(getOp, 'id');
            const got = await read(ids);
            if (!got.body) return [...found, ...got.findings];
            found.push(
              ...compareStatus(
                t,
                what,
                got.body,
                { ...want, disinheritDefault: form.many ? undefined : want.disinheritDefault },
                got.exchange,
                after,
              ),
            );
            // Read back while not excluded, the list is the object's: the model knows it again.
            if (!want.exclude && want.disinherit === undefined) want.disinherit = listOf<number>(got.body, 'disinherit');
            if (form.many && want.disinheritDefault !== undefined) {
              // DisinheritRequest "disinheritDefault (boolean)" set on every object the list names.
              for (const d of await defaults(ids))
                if (d.value !== want.disinheritDefault)
                  found.push(
                    finding(
                      t.requirement,
                      'model',
                      `${after}, ${form.kind} ${d.id} reads back disinheritDefault ${JSON.stringify(d.value)}, expected ${want.disinheritDefault}`,
                      d.exchange,
                    ),
                  );
            }
            if (found.length) return found;
          }
          return found;
        } finally {
          // Nothing of the run stays excluded or disinherited for the suite files that list after it.
          await set(ids, { exclude: false, reinherit: [channel], disinheritDefault: false });
        }
      },
      {
        // Half the runs: the changes are of six kinds (exclude on or off, disinherit, reinherit, disinheritDefault on or
        // off), up to four in a run: ten runs try every kind after most others.
        runs: Math.ceil(t.config.runs / 2),
        // A disinherit that is read back (not hidden by exclude), and undone, first in every run, with disinheritDefault set and
        // cleared.
        cover: [
          [
            { exclude: false, disinheritDefault: true, channel: 'disinherit' },
            { disinheritDefault: false, channel: 'reinherit' },
          ],
        ],
      },
    );
  });
}

conformance(
  'MCH-05',
  'POST /folder/disinherit/{id} sets disinheritDefault on a folder whose content is localized in a channel',
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const file = await create(t, 'file', top, 'localized.txt');
    await localizeStep(t, 'file', file.id, channel);
    // "DisinheritRequest: ... `recursive` (boolean), `disinheritDefault` (boolean)": neither hides the folder or its content from
    // the channel that holds the localized copy, so nothing stands in the way of setting them.
    for (const value of [true, false]) {
      const body = { disinheritDefault: value, recursive: true };
      const res = await t.try('folder.disinherit.set', { path: { id: top }, json: body });
      if (res.problem) {
        t.record([
          stepFinding(
            'MCH-05',
            'folder.disinherit.set',
            res.exchange,
            `${JSON.stringify(body)}, which hides nothing from channel ${channel}: ${res.problem}`,
          ),
        ]);
        return;
      }
      const got = await t.call('folder.disinherit.get', { path: { id: top } });
      if (!got.body) return;
      t.judged('folder.disinherit.set', 'disinheritDefault', 'recursive');
      if (flag(got.body, 'disinheritDefault') !== value)
        t.record([
          finding(
            'MCH-05',
            'model',
            `after ${JSON.stringify(body)}, GET /folder/disinherit/${top} reads back disinheritDefault ${JSON.stringify(got.body.disinheritDefault)}, expected ${value}`,
            got.exchange,
          ),
        ]);
    }
  },
);

/** The two forms that set a folder's status: one folder by path, several by the `id` query. */
const FOLDER_SETTERS = [
  { form: 'POST /folder/disinherit/{id}', op: 'folder.disinherit.set' },
  { form: 'POST /folder/disinherit', op: 'folder.disinherit.setMany' },
] as const;

for (const { form, op } of FOLDER_SETTERS) {
  conformance('MCH-05', `${form} with recursive sets the folder content alike, and without it leaves the content as it was`, async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const parent = await create(t, 'folder', top, namesFor(t, 'folder', 1)[0]!);
    const [sub, file] = [
      await create(t, 'folder', parent.id, namesFor(t, 'folder', 1, 1)[0]!),
      await create(t, 'file', parent.id, namesFor(t, 'file', 1)[0]!),
    ];
    const findings: Finding[] = [];
    // Without recursive the folder alone changes; with it, everything below the folder follows. What the content reads while
    // only the folder above it is disinherited is open (its own setting, or the folder's: open choice disinherit-content-status),
    // but a reinherit without recursive leaves the content's own setting as the recursive disinherit made it, whichever it reads.
    const steps = [
      { channel: 'disinherit', recursive: false, content: [[], [channel]] },
      { channel: 'disinherit', recursive: true, content: [[channel]] },
      { channel: 'reinherit', recursive: false, content: [[channel]] },
      { channel: 'reinherit', recursive: true, content: [[]] },
    ] as const;
    for (const step of steps) {
      const body = bodyOf({ channel: step.channel }, channel, step.recursive);
      if (op === 'folder.disinherit.set') await t.must(op, { path: { id: parent.id }, json: body });
      else await t.must(op, { query: { id: [String(parent.id)] }, json: body });
      const a = await t.call('folder.disinherit.get', { path: { id: sub.id } });
      const b = await t.try('file.disinherit.get', { query: { id: [String(file.id)] } });
      if (!b.body) nothingToJudgeOnce(t, NO_FILE_DISINHERIT, b.exchange);
      t.judged(op, 'recursive');
      for (const [res, what] of [
        [a, `sub-folder ${sub.id}`],
        [b, `file ${file.id}`],
      ] as const) {
        // DisinheritRequest "recursive (boolean)": with it the setting reaches everything below the folder, without it the
        // folder alone (MCH-05: the GET forms "read back what was set", and nothing was set on the content).
        if (res.body && !step.content.some((c) => sameSet(listOf<number>(res.body, 'disinherit'), c))) {
          findings.push(
            finding(
              t.requirement,
              'model',
              `after ${form} ${JSON.stringify(body)} on folder ${parent.id}, ${what} inside it ` +
                `reads back disinherit ${JSON.stringify(res.body.disinherit)}, expected ${step.content.map((c) => JSON.stringify(c)).join(' or ')}`,
              res.exchange,
            ),
          );
        }
      }
      if (findings.length) break;
    }
    t.record(findings);
    // Nothing stays disinherited for the suite files that list after this test.
    if (findings.length) await t.try('folder.disinherit.set', { path: { id: parent.id }, json: { reinherit: [channel], recursive: true } });
  });
}

// ---- MCH-06 ----------------------------------------------------------------------------------

/**
 * Creates an excluded, a disinherited and a plain folder and file in `top`; returns them by role. A file the target's
 * /file/disinherit does not take (open choice file-disinherit-ids) is left out of its role, said once.
 */
async function restricted(t: ConformanceContext, top: number, channel: number) {
  const [fx, fy, fz] = namesFor(t, 'folder', 3);
  const [gx, gy, gz] = namesFor(t, 'file', 3);
  const made = {
    excluded: [await create(t, 'folder', top, fx!), await create(t, 'file', top, gx!)],
    disinherited: [await create(t, 'folder', top, fy!), await create(t, 'file', top, gy!)],
    plain: [await create(t, 'folder', top, fz!), await create(t, 'file', top, gz!)],
  };
  for (const [role, body] of [
    ['excluded', { exclude: true }],
    ['disinherited', { disinherit: [channel] }],
  ] as const) {
    const [folder, file] = made[role] as [Created, Created];
    await t.must('folder.disinherit.set', { path: { id: folder.id }, json: body });
    const set = await t.try('file.disinherit.set', { query: { id: [String(file.id)] }, json: body });
    if (set.problem) {
      nothingToJudgeOnce(t, NO_FILE_DISINHERIT, set.exchange);
      made[role] = [folder];
    }
  }
  return made;
}

/** Takes back what `restricted` set, so that the suite files that list after the test find nothing hidden. */
async function unrestrict(t: ConformanceContext, made: Awaited<ReturnType<typeof restricted>>, channel: number): Promise<void> {
  for (const [role, body] of [
    ['excluded', { exclude: false }],
    ['disinherited', { reinherit: [channel] }],
  ] as const) {
    for (const obj of made[role]) {
      if (obj.kind === 'folder') await t.try('folder.disinherit.set', { path: { id: obj.id }, json: body });
      else await t.try('file.disinherit.set', { query: { id: [String(obj.id)] }, json: body });
    }
  }
}

/** Findings for every listing of `lists` that shows `hidden` objects or lacks `shown` ones. */
function visibility(t: ConformanceContext, lists: Listing[], shown: Created[], hidden: Created[], why: string): Finding[] {
  const findings: Finding[] = [];
  for (const list of lists) {
    const names = list.items.map((i) => i.name);
    for (const obj of hidden.filter((o) => o.kind === list.kind && names.includes(o.name))) {
      findings.push(finding(t.requirement, 'model', `${list.what} lists ${obj.kind} "${obj.name}", which is ${why}`, list.exchange));
    }
    for (const obj of shown.filter((o) => o.kind === list.kind && !names.includes(o.name))) {
      findings.push(
        finding(t.requirement, 'model', `${list.what} does not list ${obj.kind} "${obj.name}"; listed: ${brief(names)}`, list.exchange),
      );
    }
  }
  return findings;
}

conformance('MCH-06', 'excluded and disinherited folders and files are not listed in the channel but stay in the master', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const made = await restricted(t, top, channel);
  const all = [...made.excluded, ...made.disinherited, ...made.plain];
  t.judged('folder.disinherit.set', 'exclude', 'disinherit');
  if (made.excluded.length > 1) t.judged('file.disinherit.set', 'id', 'exclude', 'disinherit');
  // MCH-06: "an object excluded or disinherited for a channel is not visible in that channel's listings."
  t.record([
    ...visibility(
      t,
      await listings(t, top, channel),
      made.plain,
      [...made.excluded, ...made.disinherited],
      `excluded or disinherited for channel ${channel}`,
    ),
    ...visibility(t, await listings(t, top), all, [], ''),
  ]);
  // The folder holding them is no less visible: it still loads in the channel (its first sub-folder is one hidden there).
  await t.call('folder.load', { path: { id: top }, query: { nodeId: channel } });
  await unrestrict(t, made, channel);
});

conformance('MCH-06', 'reinherited and no longer excluded objects are listed in the channel again', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const made = await restricted(t, top, channel);
  for (const [role, body] of [
    ['excluded', { exclude: false }],
    ['disinherited', { reinherit: [channel] }],
  ] as const) {
    for (const obj of made[role]) {
      if (obj.kind === 'folder') await t.must('folder.disinherit.set', { path: { id: obj.id }, json: body });
      else await t.must('file.disinherit.set', { query: { id: [String(obj.id)] }, json: body });
    }
  }
  t.judged('folder.disinherit.set', 'exclude', 'reinherit');
  if (made.excluded.length > 1) t.judged('file.disinherit.set', 'id', 'exclude', 'reinherit');
  t.record(visibility(t, await listings(t, top, channel), [...made.excluded, ...made.disinherited, ...made.plain], [], ''));
});

// ---- MCH-07 ----------------------------------------------------------------------------------

/** How a push names the file: by the channel's copy (its own id), or by the master's id with the channel in channelId. */
const PUSHES = [
  { address: 'copy', title: "push2master copies the channel's saved version of a localized file into the master" },
  {
    address: 'master',
    title: "push2master addressed by the master file's id copies the version of the channel channelId names into the master",
  },
] as const;

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

/** One generated layout: master folders and files (each localized or not; files placed in top or a folder) and channel-local objects. */
const layoutArb = fc.record({
  folders: fc.array(fc.record({ name: uniqueFolderName(), localized: fc.boolean() }), { maxLength: 3 }),
  files: fc.array(fc.record({ name: uniqueFileName(), localized: fc.boolean(), parent: fc.nat(3) }), { maxLength: 3 }),
  localFolders: fc.array(uniqueFolderName(), { maxLength: 2 }),
  localFiles: fc.array(uniqueFileName(), { maxLength: 2 }),
});
type Layout = typeof layoutArb extends fc.Arbitrary<infer L> ? L : never;

type Counts = Record<'inherited' | 'localized' | 'local', number>;
const KINDS = ['folder', 'file', 'page', 'image'] as const;

/** Predicted counters per kind of one node, with or without the folder asked about counted among them. */
function predict(layout: Layout, inChannel: boolean, withSelf: boolean): Record<(typeof KINDS)[number], Counts> {
  const zero = (): Counts => ({ inherited: 0, localized: 0, local: 0 });
  const out = { folder: zero(), file: zero(), page: zero(), image: zero() };
  const count = (kind: 'folder' | 'file', localized: boolean) => {
    if (!inChannel) out[kind].local++;
    else out[kind][localized ? 'localized' : 'inherited']++;
  };
  if (withSelf) count('folder', false);
  for (const f of layout.folders) count('folder', f.localized);
  for (const f of layout.files) count('file', f.localized);
  if (inChannel) {
    out.folder.local += layout.localFolders.length;
    out.file.local += layout.localFiles.length;
  }
  return out;
}

/** Differences between an entry's counters and a prediction (totals without templates, which the folder may have linked). */
function differences(entry: NonNullable<ReturnType<typeof entryOf>>, want: ReturnType<typeof predict>): string[] {
  const diffs: string[] = [];
  for (const counter of ['inherited', 'localized', 'local'] as const) {
    for (const kind of KINDS) {
      const got = (entry[kind] as LocalizationCounters | undefined)?.[counter] ?? 0;
      if (got !== want[kind][counter]) diffs.push(`${kind}.${counter} ${got}, expected ${want[kind][counter]}`);
    }
    const total = (entry[counter] ?? 0) - ((entry.template as LocalizationCounters | undefined)?.[counter] ?? 0);
    const expected = KINDS.reduce((n, k) => n + want[k][counter], 0);
    if (total !== expected) diffs.push(`${counter} ${total} (without templates), expected ${expected}`);
  }
  return diffs;
}

conformance('MCH-08', 'localizationinfo counts inherited, localized and local objects per node and kind as created', async (t) => {
  const channel = channelOf(t);
  const master = t.fixture.masterNodeId;
  const [folderNames, fileNames] = [namesFor(t, 'folder', 3), namesFor(t, 'file', 3)];
  await t.property(
    layoutArb,
    async (drawn) => {
      const top = await t.folder();
      const folders = [];
      for (const f of drawn.folders) folders.push(await create(t, 'folder', top, f.name));
      const files = [];
      const parents: number[] = [];
      for (const f of drawn.files) {
        parents.push(folders[(f.parent % (folders.length + 1)) - 1]?.id ?? top);
        files.push(await create(t, 'file', parents.at(-1)!, f.name));
      }
      // The channel's own objects, where the target lets the channel make them in the folder it inherits.
      const layout: Layout = { ...drawn, localFolders: [], localFiles: [] };
      for (const [kind, names, made] of [
        ['folder', drawn.localFolders, layout.localFolders],
        ['file', drawn.localFiles, layout.localFiles],
      ] as const) {
        for (const name of names) {
          if (await tryCreateInChannelStep(t, kind, top, name, channel)) made.push(name);
          else nothingToJudgeOnce(t, NO_CHANNEL_CREATE);
        }
      }
      const localized: Localized = [];
      for (const [i, f] of layout.folders.entries())
        if (f.localized) {
          await localizeStep(t, folders[i]!.kind, folders[i]!.id, channel);
          localized.push({ obj: folders[i]!, parent: top, channel });
        }
      for (const [i, f] of layout.files.entries())
        if (f.localized) {
          await localizeStep(t, files[i]!.kind, files[i]!.id, channel);
          localized.push({ obj: files[i]!, parent: parents[i]!, channel });
        }
      const res = await t.call('folder.localizationinfo', { path: { id: top }, query: { nodeId: channel, recursive: true } });
      await undoLocalized(t, localized);
      if (!res.body) return [];
      // Files of sub-folders and the channel's own objects are among the predicted counts.
      t.judged('folder.localizationinfo', 'recursive');
      t.judged('folder.create', 'nodeId');
      const found: Finding[] = [];
      // Contract 4.2: localization info "for a folder and all sub-items, for a channel and its master channels".
      // Whether the folder itself is among its sub-items is not said: either reading is accepted, the same for both nodes.
      const readings = [false, true].map((withSelf) =>
        [channel, master].flatMap((node) => {
          const entry = entryOf(res.body!, node);
          if (!entry) return [`no entry for node ${node}`];
          return differences(entry, predict(layout, node === channel, withSelf)).map((d) => `node ${node}: ${d}`);
        }),
      );
      const best = readings.reduce((a, b) => (b.length < a.length ? b : a));
      if (best.length)
        found.push(
          finding(
            t.requirement,
            'model',
            `the localization info of folder ${top} does not match what the test created ` +
              `(${layout.folders.length} folders, ${layout.files.length} files in the master, ` +
              `${layout.folders.filter((f) => f.localized).length + layout.files.filter((f) => f.localized).length} of them localized, ` +
              `${layout.localFolders.length + layout.localFiles.length} local to channel ${channel}): ${best.join('; ')}`,
            res.exchange,
          ),
        );
      return found;
    },
    {
      runs: Math.ceil(t.config.runs / 2),
      // In every run: a localized and an inherited folder and file, and a folder and a file local to the channel.
      cover: [
        {
          folders: [
            { name: folderNames[0]!, localized: true },
            { name: folderNames[1]!, localized: false },
          ],
          files: [
            { name: fileNames[0]!, localized: true, parent: 1 },
            { name: fileNames[1]!, localized: false, parent: 0 },
          ],
          localFolders: [folderNames[2]!],
          localFiles: [fileNames[2]!],
        },
      ],
    },
  );
});

conformance('MCH-08', "localizationinfo of a folder the channel made counts it and its content as the channel's own", async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const [folderName, fileName] = [namesFor(t, 'folder', 1, 7)[0]!, namesFor(t, 'file', 1, 7)[0]!];
  // Made in the channel: the master has neither, so its entry, if any, finds no folder to count from.
  const local = await tryCreateInChannelStep(t, 'folder', top, folderName, channel);
  if (!local) return t.nothingToJudge(NO_CHANNEL_CREATE);
  await create(t, 'file', local.id, fileName, channel);
  const res = await t.call('folder.localizationinfo', { path: { id: local.id }, query: { nodeId: channel, recursive: true } });
  if (!res.body) return;
  const entry = entryOf(res.body, channel);
  // Contract 4.2: localization info "for a folder and all sub-items, for a channel and its master channels"; 2.4 its counters
  // `inherited`, `localized`, `local`. Whether the folder counts among its own sub-items is open: either reading is accepted.
  const layout: Layout = { folders: [], files: [], localFolders: [], localFiles: [fileName] };
  const readings = entry ? [false, true].map((withSelf) => differences(entry, predictLocal(layout, withSelf))) : [['no entry']];
  const best = readings.reduce((a, b) => (b.length < a.length ? b : a));
  if (best.length)
    t.record([
      finding(
        t.requirement,
        'model',
        `the localization info of folder ${local.id}, made in channel ${channel} with one file in it, for channel ${channel}: ${best.join('; ')}`,
        res.exchange,
      ),
    ]);
});

/** Predicted counters of a folder made in the channel: its files are local, and so is the folder itself when it counts. */
function predictLocal(layout: Layout, withSelf: boolean): ReturnType<typeof predict> {
  const out = predict(layout, true, false);
  if (withSelf) out.folder.local++;
  return out;
}

conformance('MCH-08', "localizationinfo started at the master node counts the master's own objects in the master's entry", async (t) => {
  const channel = channelOf(t);
  const master = t.fixture.masterNodeId;
  const top = await t.folder();
  const inside = await create(t, 'folder', top, namesFor(t, 'folder', 1, 8)[0]!);
  // The channel has an object of its own here: counted in the master's entry, it would be counted in the wrong node.
  await localizeStep(t, inside.kind, inside.id, channel);
  const res = await t.call('folder.localizationinfo', { path: { id: top }, query: { nodeId: master, recursive: true } });
  await undoLocalized(t, [{ obj: inside, parent: top, channel }]);
  if (!res.body) return;
  // Contract 4.2: localization info "for a channel and its master channels", `nodeId` the "node to start with": started at the
  // master, the answer has the master's entry, counting the master's own objects as local. Whether the channels below the
  // node to start with have entries too is open (open choice localizationinfo-start), and so is whether the folder counts
  // among its own sub-items (open choice localizationinfo-folder-itself).
  const entry = entryOf(res.body, master);
  const layout: Layout = { folders: [{ name: inside.name, localized: false }], files: [], localFolders: [], localFiles: [] };
  const readings = entry ? [false, true].map((withSelf) => differences(entry, predict(layout, false, withSelf))) : [['no entry']];
  const best = readings.reduce((a, b) => (b.length < a.length ? b : a));
  if (best.length)
    t.record([
      finding(
        t.requirement,
        'model',
        `the localization info of folder ${top} started at the master node (nodeId=${master}), for node ${master}: ${best.join('; ')}`,
        res.exchange,
      ),
    ]);
});
