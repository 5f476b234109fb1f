/**
 * Multichannelling (MCH-01..08): objects of the master node seen through a channel. Every test builds
 * what it changes in its own sandbox folder, created in the master and so inherited into
 * fixture.channelNodeId, predicts how master and channel must see it (model oracle) and compares. The
 * channel's root folder, which the suite did not create, is judged by relations between answers.
 */
import fc from 'fast-check';
import { uniqueFileName, uniqueFolderName } from '../../generators/requests.ts';
import { finding, type Finding } from '../../harness/checks.ts';
import { brief } from '../../harness/oracles.ts';
import { createFolderStep, uploadFileStep } from '../../harness/steps.ts';
import { SetupError } from '../../harness/api.ts';
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

/** The fixture's channel (a target file declaring multichannelling must name it: harness/target.ts checks). */
function channelOf(t: ConformanceContext): number {
  return t.fixture.channelNodeId!;
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

async function localize(t: ConformanceContext, obj: Created, channel: number): Promise<void> {
  await t.must(obj.kind === 'folder' ? 'folder.localize' : 'file.localize', { path: { id: obj.id }, json: { channelId: channel } });
}

/** The id under which the channel lists its localized copy of an object (getFolders/getFiles, not inherited). */
async function copyIdOf(t: ConformanceContext, parent: number, obj: Created, channel: number): Promise<number> {
  const lists = (await listings(t, parent, channel)).filter((l) => l.kind === obj.kind && l.what.includes('/get'));
  const record = lists.flatMap((l) => l.items).find((i) => i.name === obj.name && i.inherited !== true);
  if (typeof record?.id !== 'number')
    throw new SetupError(
      `after localizing ${obj.kind} "${obj.name}", channel ${channel} lists no copy of it that is not inherited`,
      lists[0]?.exchange,
    );
  return record.id;
}

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
      recordsOf(master, obj).map((r) => r.masterNode),
      recordsOf(master, obj).map((r) => r.inheritedFrom),
      recordsOf(inChannel, obj).map((r) => r.masterNode),
    ]);
    for (const { list, record } of listedIn(t, inChannel, obj, findings)) {
      // Contract 2.3/2.4: "inherited (boolean)"; requirements MCH-01: "inherited true".
      if (record.inherited !== true)
        findings.push(
          finding(
            t.requirement,
            'model',
            `${obj.kind} "${obj.name}" of the master is listed in ${list.what} ` +
              `with inherited ${JSON.stringify(record.inherited)}, expected true`,
            list.exchange,
          ),
        );
      // Contract 2.3: "inheritedFrom: string (name of the node it is inherited from)".
      const ok = names.length
        ? names.includes(record.inheritedFrom ?? '')
        : typeof record.inheritedFrom === 'string' && record.inheritedFrom !== '';
      if (!ok)
        findings.push(
          finding(
            t.requirement,
            'model',
            `${obj.kind} "${obj.name}" is listed in ${list.what} with inheritedFrom ${JSON.stringify(record.inheritedFrom)}, ` +
              `expected the master node ${names.length ? brief(names) : '(a node name)'}`,
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
  for (const list of lists) {
    for (const record of list.items.filter((i) => i.inherited === true && typeof i.id === 'number').slice(0, 12)) {
      // The same object in its own node's view (no nodeId) names that node as its master or origin.
      const { exchange, problem } = await t.try(list.kind === 'folder' ? 'folder.load' : 'file.load', { path: { id: record.id! } });
      if (problem) continue;
      const own = (exchange.response!.json as { folder?: Item; file?: Item })[list.kind];
      const names = nodeNames([[own?.masterNode, own?.inheritedFrom], [record.masterNode]]);
      // Contract 2.3: "inheritedFrom: string (name of the node it is inherited from)".
      if (!names.includes(record.inheritedFrom ?? '')) {
        findings.push(
          finding(
            t.requirement,
            'metamorphic',
            `${list.kind} "${record.name}" is inherited in ${list.what} with inheritedFrom ${JSON.stringify(record.inheritedFrom)}, ` +
              `but the object itself names its node ${brief(names)}`,
            list.exchange,
          ),
        );
      }
    }
  }
  t.record(findings);
});

// ---- MCH-02 ----------------------------------------------------------------------------------

conformance('MCH-02', 'a localized folder and file are listed in the channel as not inherited, and the master keeps its own', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const objs = [await create(t, 'folder', top, namesFor(t, 'folder', 1)[0]!), await create(t, 'file', top, namesFor(t, 'file', 1)[0]!)];
  for (const obj of objs) await localize(t, obj, channel);
  t.judged('folder.localize', 'channelId');
  t.judged('file.localize', 'channelId');
  const inChannel = await listings(t, top, channel);
  const master = await listings(t, top);
  const findings: Finding[] = [];
  for (const obj of objs) {
    for (const { list, record } of listedIn(t, inChannel, obj, findings)) {
      // Contract 3: "inherited or local object -> localized in that channel"; MCH-02: "the channel's view shows it as not inherited".
      if (record.inherited !== false)
        findings.push(
          finding(
            t.requirement,
            'model',
            `${obj.kind} "${obj.name}" localized in channel ${channel} is listed in ${list.what} ` +
              `with inherited ${JSON.stringify(record.inherited)}, expected false`,
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
  await localize(t, folder, channel);
  await localize(t, file, channel);
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
});

// ---- MCH-03 ----------------------------------------------------------------------------------

/**
 * A channel of the master other than the fixture's, into which `obj` is inherited (DisinheritResponse
 * `inheritable`, read through the GET form of its kind); undefined when the target names none.
 */
async function otherChannel(t: ConformanceContext, obj: Created, channel: number): Promise<number | undefined> {
  const res =
    obj.kind === 'folder'
      ? await t.call('folder.disinherit.get', { path: { id: obj.id } })
      : await t.call('file.disinherit.get', { query: { id: [String(obj.id)] } });
  return (res.body?.inheritable ?? []).find((c) => typeof c === 'number' && c !== channel && c !== t.fixture.masterNodeId);
}

/** Unlocalizes `obj` in `channel`, addressed as localize addresses it: the object's id, the channel in the body. */
async function unlocalize(t: ConformanceContext, obj: Created, channel: number): Promise<void> {
  // Contract 3: "localized object | POST /file/unlocalize/{id} | channel given in the body | not localized in that channel".
  // The channel is named in the body, as for localize ("target channel given in the body"): the id is the object's, the one
  // the master knows (a copy's own id would name the channel by itself, leaving channelId nothing to say).
  await t.must('file.unlocalize', {
    path: { id: obj.id },
    json: { channelId: channel, ...(obj.kind === 'folder' ? { recursive: true } : {}) },
  });
  t.judged('file.unlocalize', 'channelId');
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
      if (other !== undefined) await localize(t, obj, other);
      await localize(t, obj, channel);
      const copyId = await copyIdOf(t, top, obj, channel);
      await unlocalize(t, obj, channel);
      const findings: Finding[] = [];
      for (const { list, record } of listedIn(t, await listings(t, top, channel), obj, findings)) {
        if (record.inherited !== true || record.id === copyId) {
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
      if (other !== undefined) {
        // "not localized in that channel": the channel given, no other; the other channel's copy is still its own.
        for (const { list, record } of listedIn(t, await listings(t, top, other), obj, findings)) {
          if (record.inherited !== false)
            findings.push(
              finding(
                t.requirement,
                'model',
                `after unlocalizing ${kind} "${obj.name}" in channel ${channel}, ${list.what} lists it with inherited ` +
                  `${JSON.stringify(record.inherited)}: channel ${other}'s own copy went too`,
                list.exchange,
              ),
            );
        }
      }
      t.record(findings);
    },
  );
}

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
    await localize(t, obj, channel);
    const copyId = await copyIdOf(t, top, obj, channel);
    await checkLocalizations({ [String(copyId)]: channel }, `after localizing it in channel ${channel}`);
    await unlocalize(t, obj, channel);
    await checkLocalizations({}, 'after unlocalizing it');
    t.record(findings);
  });
}

// ---- MCH-05 ----------------------------------------------------------------------------------

/** What a DisinheritRequest sets: exclude, disinheritDefault, and the channels disinherited. */
interface Status {
  exclude: boolean | undefined;
  disinheritDefault: boolean | undefined;
  disinherit: number[];
}

/** A DisinheritRequest as the suite sends it: the channel disinherited, reinherited or neither. */
interface Change {
  exclude?: boolean;
  disinheritDefault?: boolean;
  recursive?: boolean;
  channel: 'disinherit' | 'reinherit' | 'neither';
}

const changeArb: fc.Arbitrary<Change> = fc.record(
  { exclude: fc.boolean(), disinheritDefault: fc.boolean(), channel: fc.constantFrom('disinherit', 'reinherit', 'neither') },
  { requiredKeys: ['channel'] },
);

function bodyOf(change: Change, channel: number, recursive?: boolean) {
  return {
    ...(change.exclude === undefined ? {} : { exclude: change.exclude }),
    ...(change.disinheritDefault === undefined ? {} : { disinheritDefault: change.disinheritDefault }),
    ...(change.channel === 'disinherit' ? { disinherit: [channel] } : change.channel === 'reinherit' ? { reinherit: [channel] } : {}),
    ...(recursive === undefined ? {} : { recursive }),
  };
}

/** The model: a change applies what it names and leaves the rest (MCH-05 "sets exclude, disinherit, reinherit, ... disinheritDefault"). */
function apply(status: Status, change: Change, channel: number): Status {
  const others = status.disinherit.filter((c) => c !== channel);
  return {
    exclude: change.exclude ?? status.exclude,
    disinheritDefault: change.disinheritDefault ?? status.disinheritDefault,
    disinherit: change.channel === 'disinherit' ? [...others, channel] : change.channel === 'reinherit' ? others : status.disinherit,
  };
}

const sameSet = (a: readonly number[], b: readonly number[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/**
 * Compares a read-back status with the model. Whether an excluded object still reports its channels
 * is not said, so the list is judged only while the object is not excluded.
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
  if (want.exclude !== undefined && got.exclude !== want.exclude)
    out.push(
      finding(
        t.requirement,
        'model',
        `${after}, ${what} reads back exclude ${JSON.stringify(got.exclude)}, expected ${want.exclude}`,
        exchange,
      ),
    );
  // Only the one-object form (DisinheritResponse) carries disinheritDefault.
  if (want.disinheritDefault !== undefined && got.disinheritDefault !== want.disinheritDefault) {
    out.push(
      finding(
        t.requirement,
        'model',
        `${after}, ${what} reads back disinheritDefault ${JSON.stringify(got.disinheritDefault)}, expected ${want.disinheritDefault}`,
        exchange,
      ),
    );
  }
  if (want.exclude !== true && !sameSet(got.disinherit ?? [], want.disinherit))
    out.push(
      finding(
        t.requirement,
        'model',
        `${after}, ${what} reads back disinherit ${JSON.stringify(got.disinherit)}, expected ${JSON.stringify(want.disinherit)}`,
        exchange,
      ),
    );
  if ((got.partialDisinherit ?? []).length > 0) {
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
    // One set of objects for every run: each run starts from what the target reads back for them.
    const objs = await Promise.all(namesFor(t, form.kind, form.many ? 2 : 1).map((name) => create(t, form.kind, top, name)));
    const ids = objs.map((o) => o.id);
    const what = `${form.kind}${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`;
    const read = async (ids: number[]) =>
      form.many
        ? t.call(form.kind === 'folder' ? 'folder.disinherit.getMany' : 'file.disinherit.get', { query: { id: ids.map(String) } })
        : t.call('folder.disinherit.get', { path: { id: ids[0]! } });
    // MultiDisinheritResponse has no disinheritDefault: the list forms' is read per object, from the one-folder form or the
    // file record (contract 2.4: "excluded, disinheritDefault, disinherited | boolean").
    const defaults = async () => {
      const out: { id: number; value: unknown; exchange: Exchange }[] = [];
      for (const id of ids) {
        const res =
          form.kind === 'folder' ? await t.call('folder.disinherit.get', { path: { id } }) : await t.call('file.load', { path: { id } });
        if (!res.body) continue;
        const body = res.body as { disinheritDefault?: unknown; file?: File };
        out.push({ id, value: form.kind === 'folder' ? body.disinheritDefault : body.file?.disinheritDefault, exchange: res.exchange });
      }
      return out;
    };
    // What the last run read back after its last change, and the first object's disinheritDefault when it was read too: the
    // next run starts from there without reading it again (nothing else changes these objects).
    let left: { body: DisinheritResponse & MultiDisinheritResponse; disinheritDefault?: { value: unknown } } | undefined;
    await t.property(
      fc.array(changeArb, { minLength: 1, maxLength: 4 }),
      async (changes) => {
        const carried = left;
        left = undefined;
        const firstBody = carried?.body ?? (await read(ids)).body;
        if (!firstBody) return [];
        // The starting point is what the target reads back (a new object's default at first); every change is predicted from it.
        const firstDefault = form.many
          ? (carried?.disinheritDefault ?? { value: (await defaults())[0]?.value }).value
          : firstBody.disinheritDefault;
        let want: Status = {
          exclude: firstBody.exclude,
          disinheritDefault: typeof firstDefault === 'boolean' ? firstDefault : undefined,
          disinherit: firstBody.disinherit ?? [],
        };
        const found: Finding[] = [];
        for (const [i, change] of changes.entries()) {
          const body = bodyOf(change, channel);
          left = undefined;
          const set = form.many
            ? await t.call(form.kind === 'folder' ? 'folder.disinherit.setMany' : 'file.disinherit.set', {
                query: { id: ids.map(String) },
                json: body,
              })
            : await t.call('folder.disinherit.set', { path: { id: ids[0]! }, json: body });
          if (!set.body) return found;
          want = apply(want, change, channel);
          t.judged(
            form.many ? (form.kind === 'folder' ? 'folder.disinherit.setMany' : 'file.disinherit.set') : 'folder.disinherit.set',
            ...['exclude', 'disinherit', 'reinherit', 'disinheritDefault', ...(form.many ? ['id'] : [])],
          );
          if (form.many) t.judged(form.kind === 'folder' ? 'folder.disinherit.getMany' : 'file.disinherit.get', 'id');
          const got = await read(ids);
          if (!got.body) return found;
          const after = `after change ${i + 1} ${JSON.stringify(body)}`;
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
          left = { body: got.body };
          if (form.many && want.disinheritDefault !== undefined) {
            // DisinheritRequest "disinheritDefault (boolean)" set on every object the list names.
            const each = await defaults();
            if (each.length === ids.length) left.disinheritDefault = { value: each[0]!.value };
            for (const d of each)
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
      },
      {
        // Half the runs: the changes are of six kinds (exclude on or off, disinherit, reinherit, disinheritDefault on or
        // off), up to four in a run, each from the state the previous run left: ten runs try every kind after every other.
        runs: Math.ceil(t.config.runs / 2),
        // A disinherit that is read back (not hidden by exclude), and undone, first in every run, with disinheritDefault set and
        // cleared: the objects carry each run's last change into the next, and a run after exclude=true judges no disinherit list.
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
    // Without recursive the folder alone changes; with it, everything below the folder follows; reinherit undoes it alike.
    const steps = [
      { channel: 'disinherit', recursive: false, content: [] },
      { channel: 'disinherit', recursive: true, content: [channel] },
      { channel: 'reinherit', recursive: true, content: [] },
    ] as const;
    for (const step of steps) {
      const body = bodyOf({ channel: step.channel }, channel, step.recursive);
      if (op === 'folder.disinherit.set') await t.must(op, { path: { id: parent.id }, json: body });
      else await t.must(op, { query: { id: [String(parent.id)] }, json: body });
      const a = await t.call('folder.disinherit.get', { path: { id: sub.id } });
      const b = await t.call('file.disinherit.get', { query: { id: [String(file.id)] } });
      t.judged(op, 'recursive');
      for (const [res, what] of [
        [a, `sub-folder ${sub.id}`],
        [b, `file ${file.id}`],
      ] as const) {
        // DisinheritRequest "recursive (boolean)": with it the setting reaches everything below the folder, without it the
        // folder alone (MCH-05: the GET forms "read back what was set", and nothing was set on the content).
        if (res.body && !sameSet(res.body.disinherit ?? [], step.content)) {
          findings.push(
            finding(
              t.requirement,
              'model',
              `after ${form} ${JSON.stringify(body)} on folder ${parent.id}, ${what} inside it ` +
                `reads back disinherit ${JSON.stringify(res.body.disinherit)}, expected ${JSON.stringify(step.content)}`,
              res.exchange,
            ),
          );
        }
      }
      if (findings.length) break;
    }
    t.record(findings);
  });
}

// ---- MCH-06 ----------------------------------------------------------------------------------

/** Creates an excluded, a disinherited and a plain folder and file in `top`; returns them by role. */
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
    await t.must('file.disinherit.set', { query: { id: [String(file.id)] }, json: body });
  }
  return made;
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
  t.judged('file.disinherit.set', 'id', 'exclude', 'disinherit');
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
});

conformance('MCH-06', 'reinherited and no longer excluded objects are listed in the channel again', async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const made = await restricted(t, top, channel);
  for (const [role, body] of [
    ['excluded', { exclude: false }],
    ['disinherited', { reinherit: [channel] }],
  ] as const) {
    const [folder, file] = made[role] as [Created, Created];
    await t.must('folder.disinherit.set', { path: { id: folder.id }, json: body });
    await t.must('file.disinherit.set', { query: { id: [String(file.id)] }, json: body });
  }
  t.judged('folder.disinherit.set', 'exclude', 'reinherit');
  t.judged('file.disinherit.set', 'id', 'exclude', 'reinherit');
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
    const master = t.fixture.masterNodeId;
    const top = await t.folder();
    const file = await create(t, 'file', top, namesFor(t, 'file', 1)[0]!, undefined, 'master version\n');
    await localize(t, file, channel);
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
    const want = {
      name: saved.file?.name ?? newName,
      fileSize: saved.file?.fileSize ?? content.byteLength,
      description: saved.file?.description ?? description,
    };
    // Contract 4.3: "POST /file/push2master/{id}: push a file from a channel into its master", the body naming the channel
    // (`channelId`): addressed by the master's id, only channelId says which channel's version goes.
    await t.must('file.push2master', {
      path: { id: address === 'copy' ? copyId : file.id },
      json: { channelId: channel, masterId: master },
    });
    if (address === 'master') t.judged('file.push2master', 'channelId');
    const after = await t.call('file.load', { path: { id: file.id } });
    if (!after.body) return;
    const got: File = after.body.file ?? ({} as File);
    const findings: Finding[] = [];
    for (const key of ['name', 'fileSize', 'description'] as const) {
      if (got[key] !== want[key])
        findings.push(
          finding(
            t.requirement,
            'model',
            `after push2master of ${address === 'copy' ? `copy ${copyId}` : `file ${file.id} from channel ${channel}`}, ` +
              `the master file ${file.id} has ${key} ${JSON.stringify(got[key])}, expected the channel's ${JSON.stringify(want[key])}`,
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
      if (!list.items.some((i) => i.id === file.id && i.inherited !== true))
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
  });
}

conformance('MCH-07', 'push2master of a file local to the channel puts the file into the master', async (t) => {
  const channel = channelOf(t);
  const master = t.fixture.masterNodeId;
  const top = await t.folder();
  const local = await create(t, 'file', top, namesFor(t, 'file', 1, 9)[0]!, channel, 'made in the channel\n');
  // Contract 4.3: "push a file from a channel into its master"; MCH-07: "copies the channel's version of a file into the
  // master". A file the channel made itself has only the channel's version: afterwards the master has the file.
  await t.must('file.push2master', { path: { id: local.id }, json: { channelId: channel, masterId: master } });
  const findings: Finding[] = [];
  listedIn(t, await listings(t, top), local, findings);
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
    async (layout) => {
      const top = await t.folder();
      const folders = [];
      for (const f of layout.folders) folders.push(await create(t, 'folder', top, f.name));
      const files = [];
      for (const f of layout.files) files.push(await create(t, 'file', folders[(f.parent % (folders.length + 1)) - 1]?.id ?? top, f.name));
      for (const name of layout.localFolders) await create(t, 'folder', top, name, channel);
      for (const name of layout.localFiles) await create(t, 'file', top, name, channel);
      for (const [i, f] of layout.folders.entries()) if (f.localized) await localize(t, folders[i]!, channel);
      for (const [i, f] of layout.files.entries()) if (f.localized) await localize(t, files[i]!, channel);
      const res = await t.call('folder.localizationinfo', { path: { id: top }, query: { nodeId: channel, recursive: true } });
      if (!res.body) return [];
      // Files of sub-folders and the channel's own objects are among the predicted counts.
      t.judged('folder.localizationinfo', 'recursive');
      t.judged('folder.create', 'nodeId');
      t.judged('folder.localize', 'channelId');
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
  const local = await create(t, 'folder', top, folderName, channel);
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

conformance('MCH-08', 'localizationinfo started at the master node holds the master and no channel of it', async (t) => {
  const channel = channelOf(t);
  const master = t.fixture.masterNodeId;
  const top = await t.folder();
  const inside = await create(t, 'folder', top, namesFor(t, 'folder', 1, 8)[0]!);
  // The channel has an object of its own here: a server that reports every node has counters to show for it.
  await localize(t, inside, channel);
  const res = await t.call('folder.localizationinfo', { path: { id: top }, query: { nodeId: master, recursive: true } });
  if (!res.body) return;
  t.judged('folder.localizationinfo', 'nodeId');
  const findings: Finding[] = [];
  // Contract 4.2: localization info "for a channel and its master channels", `nodeId` the "node to start with": started at
  // the master, the answer covers the master (and masters of it), never a channel that inherits from it.
  if (entryOf(res.body, channel))
    findings.push(
      finding(
        t.requirement,
        'model',
        `the localization info of folder ${top} started at the master node (nodeId=${master}) has an entry for channel ${channel}, ` +
          'which inherits from it: neither the node to start with nor one of its masters',
        res.exchange,
      ),
    );
  if (!entryOf(res.body, master))
    findings.push(
      finding(
        t.requirement,
        'model',
        `the localization info of folder ${top} started at node ${master} has no entry for that node`,
        res.exchange,
      ),
    );
  t.record(findings);
});
