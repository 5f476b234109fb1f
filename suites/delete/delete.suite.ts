/**
 * Delete (DEL): the delete rule of contract 3 and 4.2 ("an inherited or localized folder cannot be
 * deleted in a channel. An inherited folder can be deleted in the master, and a localized folder can be
 * unlocalized"), on the test's own sandbox folders seen from the fixture's channel; local deletes; and
 * that a refused delete changes nothing.
 */
import { SetupError, stepFinding, type CallSpec } from '../../harness/api.ts';
import { checkRefused, finding, isRefusal, type Finding } from '../../harness/checks.ts';
import { brief, idsOf } from '../../harness/oracles.ts';
import { flag } from '../../harness/records.ts';
import {
  channelOf,
  copyIdStep,
  createFolderStep,
  localizeStep,
  tryCreateInChannelStep,
  undoLocalizeStep,
  unlocalizeStep,
  uploadFileStep,
} from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { Folder } from '../../schemas/types.ts';

const where = (nodeId: number | undefined) => (nodeId === undefined ? 'the master' : `channel ${nodeId}`);

/** The sub-folders of `top` in a node's view (the master's without nodeId). */
async function foldersIn(t: ConformanceContext, top: number, nodeId?: number): Promise<{ folders: Folder[]; exchange: Exchange }> {
  const r = await t.call('folder.getFolders', { path: { id: top }, query: { nodeId } });
  if (!r.body) throw new SetupError(`getFolders of ${top} in ${where(nodeId)}: ${r.problem}`);
  return { folders: r.body.folders ?? [], exchange: r.exchange };
}

/** Records a finding unless `folder` is listed under `top` in the node's view (by getFolders and getFiles of the folder). */
async function expectListed(
  t: ConformanceContext,
  top: number,
  folder: number,
  file: number,
  nodeId: number | undefined,
  after: string,
): Promise<void> {
  const { folders, exchange } = await foldersIn(t, top, nodeId);
  if (!idsOf(folders).includes(folder))
    t.record([
      finding(
        t.requirement,
        'listing',
        `${after}, getFolders of the test folder in ${where(nodeId)} no longer lists folder ${folder}: ${brief(idsOf(folders))}`,
        exchange,
      ),
    ]);
  const files = await t.call('folder.getFiles', { path: { folderId: folder }, query: { nodeId } });
  if (files.body && !idsOf(files.body.files).includes(file))
    t.record([
      finding(
        t.requirement,
        'listing',
        `${after}, getFiles of folder ${folder} in ${where(nodeId)} no longer lists its file ${file}`,
        files.exchange,
      ),
    ]);
}

/** A sandbox folder with one file, checked to be inherited into the channel (else the test cannot judge). */
async function inheritedFolder(
  t: ConformanceContext,
  channel: number,
  name: string,
): Promise<{ top: number; folder: Folder & { id: number }; file: number }> {
  const top = await t.folder();
  const folder = await createFolderStep(t, top, name);
  const file = await uploadFileStep(t, folder.id!, `${name.toLowerCase()}.txt`, `${name}\n`, 'text/plain');
  const { folders, exchange } = await foldersIn(t, top, channel);
  if (!idsOf(folders).includes(folder.id!)) {
    throw new SetupError(
      stepFinding(
        t.requirement,
        'folder.getFolders',
        exchange,
        `the sandbox folder ${folder.id} is not inherited into channel ${channel}, so the channel side cannot be judged`,
      ).message,
      exchange,
    );
  }
  return { top, folder, file: file.id! };
}

/**
 * Localizes a folder into the channel and returns its localized copy's id as the channel lists it: told by its id of its own
 * (or the master's id no longer inherited), not by what it says in `inherited` (open choice localized-copy-inherited).
 */
async function localizedCopy(t: ConformanceContext, top: number, folder: Folder & { id: number }, channel: number): Promise<number> {
  await localizeStep(t, 'folder', folder.id, channel);
  return copyIdStep(t, 'folder', top, { id: folder.id, name: folder.name ?? '' }, channel);
}

/** Takes back a test's localization at its end, so that the suite files that list after it find nothing localized. */
async function undoLocalized(t: ConformanceContext, top: number, folder: Folder & { id: number }, channel: number): Promise<void> {
  await undoLocalizeStep(t, 'folder', top, { id: folder.id, name: folder.name ?? '' }, channel);
}

conformance(
  'DEL-01',
  'deleting an inherited folder in a channel is refused and the folder stays listed in channel and master',
  async (t) => {
    const channel = channelOf(t);
    const { top, folder, file } = await inheritedFolder(t, channel, 'Inherited');
    const { exchange: refused } = await t.try('folder.delete', { path: { id: folder.id! }, query: { nodeId: channel } });
    // The same delete in the master succeeds (DEL-03): the refusal shows nodeId.
    t.judged('folder.delete', 'nodeId');
    // "an inherited or localized folder cannot be deleted in a channel"
    t.record(
      checkRefused(refused, 'DEL-01', `folder ${folder.id} is inherited into channel ${channel} and "cannot be deleted in a channel"`),
    );
    for (const nodeId of [channel, undefined]) await expectListed(t, top, folder.id!, file, nodeId, 'after the delete in the channel');
  },
  { operation: 'folder.delete' },
);

conformance(
  'DEL-02',
  'deleting a localized folder in a channel is refused and the localized copy stays',
  async (t) => {
    const channel = channelOf(t);
    const { top, folder, file } = await inheritedFolder(t, channel, 'Localized');
    const copy = await localizedCopy(t, top, folder, channel);
    // "an inherited or localized folder cannot be deleted in a channel ... a localized folder can be unlocalized"
    for (const id of new Set([copy, folder.id])) {
      const { exchange: refused } = await t.try('folder.delete', { path: { id }, query: { nodeId: channel } });
      t.judged('folder.delete', 'nodeId');
      t.record(
        checkRefused(
          refused,
          'DEL-02',
          `folder ${id} is localized in channel ${channel} (copy ${copy}) and "cannot be deleted in a channel"`,
        ),
      );
    }
    // "... and the localized copy is still there": the channel lists it, the master's id not in its place.
    const { folders, exchange } = await foldersIn(t, top, channel);
    const named = folders.filter((f) => f.name === folder.name || f.id === copy || f.id === folder.id);
    if (!named.some((f) => f.id === copy) || (copy !== folder.id && named.some((f) => f.id === folder.id)))
      t.record([
        finding(
          'DEL-02',
          'listing',
          `after the refused deletes, channel ${channel} lists ${JSON.stringify(named.map((f) => ({ id: f.id, inherited: f.inherited })))} ` +
            `instead of the localized copy ${copy}`,
          exchange,
        ),
      ]);
    await expectListed(t, top, folder.id, file, undefined, 'after the deletes in the channel');
    await undoLocalized(t, top, folder, channel);
  },
  { operation: 'folder.delete' },
);

/** Every channel listing that could still show a folder: getFolders GET and POST, GET /folder, and recursive getFiles for its file. */
async function channelListings(
  t: ConformanceContext,
  top: number,
  channel: number,
): Promise<{ what: string; ids: number[]; exchange: Exchange }[]> {
  const out: { what: string; ids: number[]; exchange: Exchange }[] = [];
  const add = async (
    what: string,
    op: Parameters<ConformanceContext['call']>[0],
    spec: CallSpec,
    member: 'folders' | 'items' | 'files',
  ) => {
    const r = await t.call(op, spec);
    if (r.body)
      out.push({ what, ids: idsOf((r.body as Record<string, unknown>)[member] as { id?: unknown }[] | undefined), exchange: r.exchange });
  };
  await add('getFolders', 'folder.getFolders', { path: { id: top }, query: { nodeId: channel } }, 'folders');
  await add('POST getFolders', 'folder.getFolders.post', { json: { id: String(top), nodeId: channel } }, 'folders');
  await add('GET /folder', 'folder.list', { query: { folderId: String(top), nodeId: channel } }, 'items');
  await add('getFiles recursive', 'folder.getFiles', { path: { folderId: top }, query: { nodeId: channel, recursive: true } }, 'files');
  return out;
}

conformance(
  'DEL-03',
  'deleting an inherited folder in its master removes it from the channel listings too',
  async (t) => {
    const channel = channelOf(t);
    const { top, folder, file } = await inheritedFolder(t, channel, 'Master');
    const { exchange: deleted, problem } = await t.try('folder.delete', {
      path: { id: folder.id! },
      query: { nodeId: t.fixture.masterNodeId },
    });
    // "An inherited folder can be deleted in the master" ... "the deletion is reflected in the channels"
    if (problem) {
      t.record([
        finding(
          'DEL-03',
          'delete',
          `deleting folder ${folder.id} in its master node ${t.fixture.masterNodeId} must succeed: ${problem}`,
          deleted,
        ),
      ]);
      return;
    }
    for (const { what, ids, exchange } of await channelListings(t, top, channel)) {
      const gone = what.startsWith('getFiles') ? file : folder.id!;
      if (ids.includes(gone))
        t.record([
          finding(
            'DEL-03',
            'listing',
            `after deleting folder ${folder.id} in the master, ${what} of the test folder in channel ${channel} ` +
              `still lists ${gone === file ? `its file ${file}` : 'it'}`,
            exchange,
          ),
        ]);
    }
  },
  { operation: 'folder.delete' },
);

conformance(
  'DEL-03',
  'deleting in its master a folder a channel has localized removes the localized copy and its content from the channel listings',
  async (t) => {
    const channel = channelOf(t);
    const { top, folder } = await inheritedFolder(t, channel, 'Localized master');
    const copy = await localizedCopy(t, top, folder, channel);
    // Contract 3: an inherited folder "performed in the master" is deleted, and "the deletion is reflected in the channels".
    // Whether a master with localized copies may be deleted before they are unlocalized is open (open choice
    // delete-master-with-copies): a refusal judges nothing.
    const { exchange: deleted, problem } = await t.try('folder.delete', {
      path: { id: folder.id },
      query: { nodeId: t.fixture.masterNodeId },
    });
    if (problem) {
      await undoLocalized(t, top, folder, channel);
      return t.nothingToJudge(
        `the target refuses to delete folder ${folder.id} in the master while channel ${channel} has it localized ` +
          '(open choice delete-master-with-copies)',
        deleted,
      );
    }
    // The test folder held only the deleted folder, so every default (wastebin exclude) listing of it in the channel is
    // empty: neither the localized copy nor anything in it remains.
    for (const { what, ids, exchange } of await channelListings(t, top, channel)) {
      if (ids.length)
        t.record([
          finding(
            'DEL-03',
            'listing',
            `after deleting folder ${folder.id} in the master, ${what} of the test folder in channel ${channel} still lists ` +
              `${brief(ids)} (the channel's localized copy was ${copy}); "the deletion is reflected in the channels"`,
            exchange,
          ),
        ]);
    }
  },
  { operation: 'folder.delete' },
);

conformance(
  'DEL-04',
  'after unlocalizing, the channel shows the inherited master folder again',
  async (t) => {
    const channel = channelOf(t);
    const { top, folder } = await inheritedFolder(t, channel, 'Unlocalized');
    const copy = await localizedCopy(t, top, folder, channel);
    // "localized object | POST /file/unlocalize/{id} | channel given in the body"; the only unlocalize the contract has. By the
    // copy's id first, else the master's (open choice unlocalize-id); refused by both, the folder stays localized (open choice
    // unlocalize-folders), which judges nothing.
    const unlocalized = await unlocalizeStep(t, 'folder', { master: folder.id, copy }, channel, {
      recursive: true,
      types: ['folder', 'file'],
      first: 'copy',
    });
    if (!unlocalized) return;
    // "a localized folder is made non-localized by unlocalizing it": the channel sees the master, inherited.
    const { folders, exchange } = await foldersIn(t, top, channel);
    const shown = folders.filter((f) => f.name === folder.name || f.id === folder.id || f.id === copy);
    const master = shown.find((f) => f.id === folder.id && flag(f, 'inherited'));
    if (shown.length !== 1 || !master) {
      const listed = shown.map((f) => ({ id: f.id, name: f.name, inherited: f.inherited }));
      t.record([
        finding(
          'DEL-04',
          'listing',
          `after unlocalizing, channel ${channel} lists ${JSON.stringify(listed)} ` +
            `where only the inherited master ${folder.id} belongs (the localized copy was ${copy})`,
          exchange,
        ),
      ]);
    }
  },
  { operation: 'file.unlocalize' },
);

/**
 * A folder local to a node (created there), with a file: its id, its file's id and the listing folder it lives in. The
 * channel's folder is made in the test folder, which the channel inherits: where the target does not let a channel create
 * there (open choice channel-create-in-inherited-folder), the channel's part is not judged, and the test says so.
 */
async function localFolders(t: ConformanceContext): Promise<{ top: number; local: { folder: number; file: number; nodeId?: number }[] }> {
  const top = await t.folder();
  const folder = await createFolderStep(t, top, 'Local in master');
  const file = await uploadFileStep(t, folder.id, 'local.txt', 'local\n', 'text/plain');
  const local: { folder: number; file: number; nodeId?: number }[] = [{ folder: folder.id, file: file.id! }];
  const channel = t.fixture.channelNodeId;
  if (t.config.target.features.includes('multichannelling') && channel !== undefined) {
    const own = await tryCreateInChannelStep(t, 'folder', top, 'Local in channel', channel);
    if (!own)
      t.nothingToJudge(
        `the target creates no folder of channel ${channel} in the test folder the channel inherits ` +
          '(open choice channel-create-in-inherited-folder): a folder local to the channel is not judged',
      );
    else {
      const inside = await uploadFileStep(t, own.id, 'local.txt', 'local\n', 'text/plain', { nodeId: String(channel) });
      local.push({ folder: own.id, file: inside.id!, nodeId: channel });
    }
  }
  return { top, local };
}

/** Deletes each local folder in its own node; a refusal is a finding of the requirement itself. */
async function deleteLocal(t: ConformanceContext, local: { folder: number; nodeId?: number }[]): Promise<void> {
  for (const { folder, nodeId } of local) {
    const { exchange: deleted, problem } = await t.try('folder.delete', { path: { id: folder }, query: { nodeId } });
    // "deleting a local folder succeeds"
    if (problem) {
      t.record([
        finding(t.requirement, 'delete', `deleting folder ${folder}, local to ${where(nodeId)}, must succeed: ${problem}`, deleted),
      ]);
      throw new SetupError('delete refused');
    }
  }
}

conformance(
  'DEL-05',
  'deleting a local folder succeeds and it leaves the default listings',
  async (t) => {
    const { top, local } = await localFolders(t);
    await deleteLocal(t, local);
    for (const { folder, file, nodeId } of local) {
      const listings = [
        ['getFolders', await t.call('folder.getFolders', { path: { id: top }, query: { nodeId } }), 'folders'],
        ['getFolders recursive', await t.call('folder.getFolders', { path: { id: top }, query: { nodeId, recursive: true } }), 'folders'],
        [
          'POST getFolders',
          await t.call('folder.getFolders.post', { json: { id: String(top), ...(nodeId === undefined ? {} : { nodeId }) } }),
          'folders',
        ],
        ['GET /folder', await t.call('folder.list', { query: { folderId: String(top), nodeId } }), 'items'],
        ['getFiles recursive', await t.call('folder.getFiles', { path: { folderId: top }, query: { nodeId, recursive: true } }), 'files'],
      ] as const;
      for (const [what, r, member] of listings) {
        if (!r.body) continue;
        const ids = idsOf((r.body as Record<string, unknown>)[member] as { id?: unknown }[] | undefined);
        const gone = member === 'files' ? file : folder;
        // "it leaves default listings"
        if (ids.includes(gone))
          t.record([
            finding(
              'DEL-05',
              'listing',
              `after deleting folder ${folder} in ${where(nodeId)}, ${what} of the test folder ` +
                `still lists ${member === 'files' ? `its file ${file}` : 'it'}`,
              r.exchange,
            ),
          ]);
      }
    }
  },
  { operation: 'folder.delete' },
);

conformance(
  'DEL-05a',
  'a deleted local folder appears under wastebin=only',
  async (t) => {
    const { top, local } = await localFolders(t);
    await deleteLocal(t, local);
    for (const { folder, nodeId } of local) {
      const listings = [
        ['getFolders', await t.call('folder.getFolders', { path: { id: top }, query: { nodeId, wastebin: 'only' } }), 'folders'],
        [
          'POST getFolders',
          await t.call('folder.getFolders.post', {
            json: { id: String(top), wastebin: 'only', ...(nodeId === undefined ? {} : { nodeId }) },
          }),
          'folders',
        ],
        ['GET /folder', await t.call('folder.list', { query: { folderId: String(top), nodeId, wastebin: 'only' } }), 'items'],
      ] as const;
      for (const [what, r, member] of listings) {
        if (!r.body) continue;
        const ids = idsOf((r.body as Record<string, unknown>)[member] as { id?: unknown }[] | undefined);
        // "with the wastebin feature it appears under `wastebin=only`"
        if (!ids.includes(folder))
          t.record([
            finding(
              'DEL-05a',
              'listing',
              `after deleting folder ${folder} in ${where(nodeId)}, ${what} of the test folder ` +
                `with wastebin=only does not list it: ${brief(ids)}`,
              r.exchange,
            ),
          ]);
      }
    }
  },
  { operation: 'folder.delete' },
);

/** What a refused delete must leave unchanged, per listing: a canonical text and the exchange that showed it. */
type Snapshot = Map<string, { value: string; exchange: Exchange }>;

/** Folders, files and counts below the test folder, in every node's view given (and the wastebin when declared). */
async function snapshot(t: ConformanceContext, top: number, nodes: (number | undefined)[]): Promise<Snapshot> {
  const snap: Snapshot = new Map();
  const wastebin = t.config.target.features.includes('wastebin') ? [undefined, 'only'] : [undefined];
  const rows = (list: { id?: unknown; name?: unknown }[] | undefined) =>
    JSON.stringify((list ?? []).map((o) => `${String(o.id)} ${String(o.name)}`).sort());
  for (const nodeId of nodes) {
    for (const mode of wastebin) {
      const label = `in ${where(nodeId)}${mode ? ` with wastebin=${mode}` : ''}`;
      const folders = await t.call('folder.getFolders', { path: { id: top }, query: { nodeId, recursive: true, wastebin: mode } });
      if (folders.body) snap.set(`getFolders recursive ${label}`, { value: rows(folders.body.folders), exchange: folders.exchange });
      const files = await t.call('folder.getFiles', { path: { folderId: top }, query: { nodeId, recursive: true, wastebin: mode } });
      if (files.body) snap.set(`getFiles recursive ${label}`, { value: rows(files.body.files), exchange: files.exchange });
    }
    const count = await t.call('folder.count', { path: { id: top }, query: { nodeId, recursive: true } });
    if (count.body) {
      const { folders, files, pages, images, templates } = count.body;
      snap.set(`count recursive in ${where(nodeId)}`, {
        value: JSON.stringify({ folders, files, pages, images, templates }),
        exchange: count.exchange,
      });
    }
  }
  return snap;
}

function changes(before: Snapshot, after: Snapshot, attempt: string): Finding[] {
  const out: Finding[] = [];
  for (const [key, was] of before) {
    const now = after.get(key);
    if (now && now.value !== was.value)
      out.push(
        finding('DEL-06', 'unchanged', `after the refused ${attempt}, ${key} changed from ${was.value} to ${now.value}`, now.exchange),
      );
  }
  return out;
}

/** An id no folder of the target has (folder.load refuses it), to delete as a folder: undefined when none of a few is free. */
async function unknownFolderId(t: ConformanceContext): Promise<number | undefined> {
  // Ids of different kinds may coincide on a server that numbers each kind apart: only an id no folder loads is safe to send.
  for (const id of [2147483000, 2147480000, 2147400000]) {
    const { exchange } = await t.try('folder.load', { path: { id } });
    if (isRefusal(exchange)) return id;
  }
  return undefined;
}

conformance(
  'DEL-06',
  'a refused delete changes no folder, file or count',
  async (t) => {
    const multichannel = t.config.target.features.includes('multichannelling') && t.fixture.channelNodeId !== undefined;
    const channel = t.fixture.channelNodeId;
    const top = await t.folder();
    const inherited = await createFolderStep(t, top, 'Inherited');
    const inner = await createFolderStep(t, inherited.id, 'Inner');
    await Promise.all([
      uploadFileStep(t, inherited.id, 'first.txt', 'first\n', 'text/plain'),
      uploadFileStep(t, inherited.id, 'second.txt', 'second\n', 'text/plain'),
      uploadFileStep(t, inner.id, 'inner.txt', 'inner\n', 'text/plain'),
    ]);
    const attempts: [string, number, number | undefined][] = [];
    const unknown = await unknownFolderId(t);
    if (unknown !== undefined) attempts.push([`delete of folder ${unknown}, which no folder has as its id`, unknown, undefined]);
    const nodes: (number | undefined)[] = [undefined];
    let localized: (typeof inherited & { copy: number }) | undefined;
    if (multichannel && channel !== undefined) {
      const folder = await createFolderStep(t, top, 'Localized');
      await uploadFileStep(t, folder.id, 'localized.txt', 'localized\n', 'text/plain');
      localized = { ...folder, copy: await localizedCopy(t, top, folder, channel) };
      nodes.push(channel);
      attempts.unshift(
        [`delete of inherited folder ${inherited.id} in channel ${channel}`, inherited.id, channel],
        [`delete of localized folder ${localized.copy} in channel ${channel}`, localized.copy, channel],
      );
    }
    let current = await snapshot(t, top, nodes);
    let judged = 0;
    for (const [attempt, id, nodeId] of attempts) {
      const { exchange } = await t.try('folder.delete', { path: { id }, query: { nodeId } });
      const after = await snapshot(t, top, nodes);
      // "a refused delete changes nothing: same folders, files and counts before and after." A delete that was served may change things.
      if (isRefusal(exchange)) {
        judged++;
        t.record(changes(current, after, attempt));
      }
      current = after;
    }
    if (localized && channel !== undefined) await undoLocalized(t, top, localized, channel);
    if (!judged)
      t.record([
        finding(
          'DEL-06',
          'precondition',
          `none of the deletes was refused (${attempts.map((a) => a[0]).join('; ')}), so nothing could be judged`,
          undefined,
          'warning',
        ),
      ]);
  },
  { operation: 'folder.delete' },
);
