/**
 * Multichannelling (MCH-05, MCH-06): the disinherit operations (one folder, several folders, several files) set what
 * the model predicts, and what a channel is excluded or disinherited from it does not list, until reinherited.
 */
import fc from 'fast-check';
import { stepFinding } from '../../harness/api.ts';
import { finding, isRefusal, type Finding } from '../../harness/checks.ts';
import { hasFeature } from '../../harness/fixture.ts';
import { brief } from '../../harness/oracles.ts';
import { flag, listOf } from '../../harness/records.ts';
import { attempt, channelOf, localizeStep, nothingToJudgeOnce, tryCreateInChannelStep, NO_CHANNEL_CREATE } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { DisinheritResponse, File, Folder, MultiDisinheritResponse } from '../../schemas/types.ts';
import { type Listing, type Created, namesFor, create, listings, undoLocalized } from './channel.ts';

/** Why a test cannot judge the file forms of the disinherit operations: /file/disinherit refuses file ids. */
const NO_FILE_DISINHERIT = '/file/disinherit takes no file ids here ("described as page IDs": open choice file-disinherit-ids)';

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

conformance(
  'MCH-05',
  'POST /folder/disinherit/{id} in a channel that localized the folder sets what GET /folder/disinherit/{id} in that channel reads back',
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const folder = await create(t, 'folder', top, namesFor(t, 'folder', 1, 3)[0]!);
    await localizeStep(t, 'folder', folder.id, channel);
    // Contract 4.2: "**POST /folder/disinherit/{id}**: set status for one folder" and "**GET /folder/disinherit/{id}**: status for
    // one folder", both with "query `nodeId` (int)". Named by the same id in the same node, both name the same folder, whichever
    // variant (master or localized copy) a server keeps the status on: what the one sets, the other reads back (MCH-05).
    // disinheritDefault hides nothing from the channel holding the copy, so nothing stands in the way of setting it.
    const findings: Finding[] = [];
    for (const value of [true, false]) {
      const body = { disinheritDefault: value };
      const res = await t.try('folder.disinherit.set', { path: { id: folder.id }, query: { nodeId: channel }, json: body });
      if (res.problem) {
        // Whether a channel's view may set a status at all the contract does not say (`nodeId` is listed only): a refusal
        // is nothing to judge, a server error is a finding.
        if (isRefusal(res.exchange) && (res.exchange.response?.status ?? 500) < 500)
          nothingToJudgeOnce(t, `POST /folder/disinherit/{id} with nodeId ${channel} is refused on a folder localized there`, res.exchange);
        else
          findings.push(
            stepFinding('MCH-05', 'folder.disinherit.set', res.exchange, `${JSON.stringify(body)} in channel ${channel}: ${res.problem}`),
          );
        break;
      }
      const got = await t.call('folder.disinherit.get', { path: { id: folder.id }, query: { nodeId: channel } });
      if (!got.body) break;
      // No claim on `nodeId`: the contract gives it no effect here (schemas/parameter-effects.json); the test asks only
      // that one id in one node names one folder, for the setting and the reading alike.
      t.judged('folder.disinherit.set', 'disinheritDefault');
      if (flag(got.body, 'disinheritDefault') !== value) {
        findings.push(
          finding(
            'MCH-05',
            'model',
            `after POST /folder/disinherit/${folder.id}?nodeId=${channel} ${JSON.stringify(body)}, GET /folder/disinherit/${folder.id}` +
              `?nodeId=${channel} reads back disinheritDefault ${JSON.stringify(got.body.disinheritDefault)}, expected ${value}`,
            got.exchange,
          ),
        );
        break;
      }
    }
    t.record(findings);
    await undoLocalized(t, [{ obj: folder, parent: top, channel }]);
  },
);

conformance(
  'MCH-05',
  'a folder reinherited in the one channel it was disinherited for is no longer disinherited in its record',
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const folder = await create(t, 'folder', top, namesFor(t, 'folder', 1, 5)[0]!);
    // A fresh folder, never excluded, with no default and nothing disinherited above it: after the reinherit it is disinherited in
    // no channel. Contract 2.6: "| disinherited | boolean | disinherited in some channels |", the same member of the folder record
    // (2.3); what else it may cover (an exclusion, a folder's setting) none of this folder has.
    await t.must('folder.disinherit.set', { path: { id: folder.id }, json: { disinherit: [channel] } });
    await t.must('folder.disinherit.set', { path: { id: folder.id }, json: { reinherit: [channel] } });
    t.judged('folder.disinherit.set', 'disinherit', 'reinherit');
    const loaded = await t.call('folder.load', { path: { id: folder.id } });
    const record = loaded.body?.folder;
    if (!record) return;
    // An absent boolean reads false (contract 2.1).
    if (flag(record, 'disinherited'))
      t.record([
        finding(
          'MCH-05',
          'model',
          `after POST /folder/disinherit/${folder.id} {"disinherit": [${channel}]} and then {"reinherit": [${channel}]}, folder ${folder.id} ` +
            `is disinherited in no channel, yet its record says disinherited true (disinheritedChannels ${JSON.stringify(record.disinheritedChannels ?? [])})`,
          loaded.exchange,
        ),
      ]);
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

conformance(
  'MCH-06',
  'a start page excluded from multichannelling is not listed in the channel, whose listing of its folder still answers',
  async (t) => {
    if (!hasFeature(t, 'pages')) return t.nothingToJudge('the target declares no pages');
    const channel = channelOf(t);
    const top = await t.folder();
    // The only page a client can make: the start page of a folder created with startpage (FolderCreateRequest "startpage
    // (boolean)"), where the server makes one; /file/disinherit takes "a list of ids (described as page IDs)".
    const created = await t.try('folder.create', { json: { motherId: String(top), name: 'mch06-start', startpage: true } });
    const folderId = created.body?.folder?.id;
    if (typeof folderId !== 'number') return t.nothingToJudge('a folder created with startpage was refused', created.exchange);
    const pages = listOf<{ id?: number }>(await t.must('folder.getPages', { path: { id: folderId } }), 'pages');
    const page = pages[0]?.id;
    if (typeof page !== 'number') return t.nothingToJudge(`folder ${folderId}, created with startpage, holds no page`);
    const excluded = await t.try('file.disinherit.set', { query: { id: [String(page)] }, json: { exclude: true } });
    if (excluded.problem) return t.nothingToJudge(`POST /file/disinherit refused page ${page}: ${excluded.problem}`, excluded.exchange);
    // MCH-06: "an object excluded or disinherited for a channel is not visible in that channel's listings"; the folder is not
    // excluded, so its listing in the channel answers (a 5xx fails this test through the judge) without the page.
    const inChannel = await attempt(t, 'folder.getPages', { path: { id: folderId }, query: { nodeId: channel } });
    if (!inChannel.body) return void t.record(inChannel.findings);
    const listed = listOf<{ id?: number }>(inChannel.body, 'pages').map((p) => p.id);
    if (listed.includes(page))
      t.record([
        finding(
          'MCH-06',
          'visibility',
          `page ${page}, excluded from multichannelling, is listed by GET /folder/getPages/${folderId}?nodeId=${channel}`,
          inChannel.exchange,
        ),
      ]);
  },
  { operation: 'file.disinherit.set' },
);

/**
 * MCH-06: "an object excluded or disinherited for a channel is not visible in that channel's listings": the records named
 * `name` a channel lists that say they are excluded, or disinherited for that channel (2.6 disinheritedChannels), each a finding.
 */
function saidHidden(lists: Listing[], name: string, channel: number, after: string): Finding[] {
  const out: Finding[] = [];
  for (const list of lists)
    for (const r of list.items.filter((i) => i.name === name)) {
      const record = r as Folder;
      const names = (record.disinheritedChannels ?? []).some((n) => n?.id === channel);
      if (flag(record, 'excluded') || names)
        out.push(
          finding(
            'MCH-06',
            'visibility',
            `${after}; ${list.what} lists ${r.id} "${r.name}" saying ` +
              (names
                ? `disinheritedChannels naming nodes ${brief((record.disinheritedChannels ?? []).map((n) => n?.id))}`
                : 'excluded true'),
            list.exchange,
          ),
        );
    }
  return out;
}

conformance(
  'MCH-06',
  'hiding a folder from a channel that has localized it is refused, or no record the channel lists says it is hidden there',
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    for (const [what, body, undo] of [
      ['disinherited', { disinherit: [channel] }, { reinherit: [channel] }],
      ['excluded', { exclude: true }, { exclude: false }],
    ] as const) {
      const obj = await create(t, 'folder', top, `mch06-localized-${what}`);
      await localizeStep(t, 'folder', obj.id, channel);
      // Whether an object may be hidden from a channel holding its localized copy is not said: a refusal ("unlocalize first")
      // keeps MCH-06, and so does a channel that no longer lists the copy, or lists its own copy as not hidden.
      const hidden = await t.try('folder.disinherit.set', { path: { id: obj.id }, json: body });
      if (hidden.problem) continue;
      // MCH-06: "an object excluded or disinherited for a channel is not visible in that channel's listings"; a record the channel
      // lists that says it is excluded, or disinherited for this channel (2.6 disinheritedChannels), says it is listed where hidden.
      t.record(
        saidHidden(
          await listings(t, top, channel),
          obj.name,
          channel,
          `POST /folder/disinherit/${obj.id} ${JSON.stringify(body)}, channel ${channel} holding its localized copy, was answered OK`,
        ),
      );
      await t.try('folder.disinherit.set', { path: { id: obj.id }, json: undo });
    }
  },
  { operation: 'folder.disinherit.set' },
);

conformance(
  'MCH-06',
  "a disinherit list naming the object's own node is refused, or no listing of that node says the object is disinherited there",
  async (t) => {
    const node = t.fixture.masterNodeId;
    const top = await t.folder();
    const obj = await create(t, 'folder', top, 'mch06-own-node');
    // DisinheritRequest "`disinherit` (array of number)": the channels to hide the object from. The object's own node is no channel
    // of it; a server may refuse the list, or take it and hide nothing, or hide the object there too: any of these keeps MCH-06.
    const set = await t.try('folder.disinherit.set', { path: { id: obj.id }, json: { disinherit: [node] } });
    if (set.problem) return;
    // MCH-06: "an object excluded or disinherited for a channel is not visible in that channel's listings": the node listing the
    // folder with a record naming that node in disinheritedChannels says it is listed where disinherited.
    t.record(
      saidHidden(
        await listings(t, top),
        obj.name,
        node,
        `POST /folder/disinherit/${obj.id} {"disinherit": [${node}]}, node ${node} being the folder's own, was answered OK`,
      ),
    );
    await t.try('folder.disinherit.set', { path: { id: obj.id }, json: { reinherit: [node] } });
  },
  { operation: 'folder.disinherit.set' },
);

conformance(
  'MCH-06',
  'a folder disinherited recursively and reinherited leaves no file the channel made inside it said disinherited there',
  async (t) => {
    const channel = channelOf(t);
    const top = await t.folder();
    const folder = await create(t, 'folder', top, 'mch06-recursive');
    const own = await tryCreateInChannelStep(t, 'file', folder.id, 'mch06-channel-own.txt', channel);
    if (!own) return t.nothingToJudge(NO_CHANNEL_CREATE);
    // The channel's own file lives in the channel: no setting of the master's folder hides it from there. A server may refuse the
    // recursive setting over it, or take it; reinherited without recursive, the folder is listed in the channel again.
    const set = await t.try('folder.disinherit.set', { path: { id: folder.id }, json: { disinherit: [channel], recursive: true } });
    if (set.problem)
      return t.nothingToJudge(`a recursive disinherit of folder ${folder.id} over a file of the channel's own was refused`, set.exchange);
    await t.must('folder.disinherit.set', { path: { id: folder.id }, json: { reinherit: [channel] } });
    t.record(
      saidHidden(
        await listings(t, folder.id, channel),
        own.name,
        channel,
        `after POST /folder/disinherit/${folder.id} {"disinherit": [${channel}], "recursive": true} and {"reinherit": [${channel}]}`,
      ),
    );
  },
  { operation: 'folder.disinherit.set' },
);

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
