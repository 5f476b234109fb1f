/**
 * The multichannelling commands of the model-based tests (sequences.ts): localize, unlocalize and the disinherit forms,
 * each checked against the channel's view the model predicts.
 */
import { listOf } from '../../harness/records.ts';
import { NO_FOLDER_UNLOCALIZE, copyIn, eitherIdStep, nothingToJudgeOnce, refusedBody, tryFolderLocalize } from '../../harness/steps.ts';
import { checkNo5xx, isRefusal } from '../../harness/checks.ts';
import {
  channelIdOf,
  childrenOf,
  diffListing,
  hasLocalizedWithin,
  isDeleted,
  listing,
  liveFiles,
  localize,
  objectById,
  parentOf,
  unlocalize,
  visibleInChannel,
  type ListedRecord,
  type ListingQuery,
  type Model,
  type ModelFile,
  type ModelFolder,
  type ModelObject,
  type ObjectKind,
} from '../../harness/model.ts';
import { type Real, divergeOn, stop, problemFindings, success, quote, label, fetchListing, verify, Step, pick, nonRoot } from './runner.ts';

/** Objects of a kind that could be localized, unlocalized or hidden: live, and never the test's own folder. */
export function candidates(m: Model, kind: ObjectKind): ModelObject[] {
  return kind === 'folder' ? nonRoot(m) : liveFiles(m);
}

/** Localizes a file or folder in the test's channel and reads back the channel's view. */
export class Localize extends Step<{ index: number; kind: ObjectKind }, ModelObject> {
  protected targets(m: Model) {
    return pick(
      candidates(m, this.p.kind).filter((o) => !o.localized && visibleInChannel(m, o)),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, obj: ModelObject) {
    this.did = `localize ${obj.kind} ${label(obj)} in channel ${r.channel}`;
    const { exchange } =
      obj.kind === 'folder'
        ? await tryFolderLocalize(r.t, obj.id, r.channel)
        : await r.t.try('file.localize', { path: { id: obj.id }, json: { channelId: r.channel } });
    // The folder form's fields are "not shown" (4.2): a refusal of both bodies tried changes nothing.
    if (obj.kind === 'folder' && refusedBody(exchange)) {
      nothingToJudgeOnce(r.t, 'folder.localize refused the bodies {channelId} and {nodeId} (open choice folder-localize-body)', exchange);
      this.did += ' → refused';
      return;
    }
    success(r, exchange, 'MCH-02', this.did);
    const q: ListingQuery = { folder: parentOf(m, obj)!.key, kind: obj.kind, view: 'channel', wastebin: 'exclude' };
    const listed = (await fetchListing(r, m, q, 'MCH-02'))!;
    // The copy's id is the target's choice: a new id listed under the object's name, or the master's id no longer inherited.
    const fresh = listed.records.filter(
      (x) => typeof x.id === 'number' && !objectById(m, x.id) && !m.retired.has(x.id) && x.name === obj.name,
    );
    const copyId = fresh.length === 1 ? (fresh[0]!.id as number) : copyIn(listed.records, obj) === obj.id ? obj.id : undefined;
    if (copyId === undefined) {
      // "localize (folder, file) makes a localized copy in the target channel; the channel's view shows it as not inherited"
      stop(
        r,
        'MCH-02',
        `${this.did}: the channel's listing of ${q.folder} shows no localized copy (no new id named ${quote(obj.name)}, ` +
          `and id ${obj.id} ${listed.records.some((x) => x.id === obj.id) ? 'is still inherited' : 'is gone'})`,
        listed.exchange,
      );
    }
    localize(obj, copyId);
    this.did += ` → copy #${copyId}`;
    divergeOn(
      r,
      problemFindings(diffListing(m, q, listing(m, q), listed.records), 'MCH-02', `after ${this.did}, in the channel`, listed.exchange),
    );
  }
}

/** Unlocalizes a localized copy and reads back the channel's view. */
export class Unlocalize extends Step<{ index: number }, ModelObject> {
  protected targets(m: Model) {
    return pick(
      [...nonRoot(m), ...liveFiles(m)].filter((o) => o.localized),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, obj: ModelObject) {
    this.did = `unlocalize ${obj.kind} ${label(obj)} (copy #${obj.localized!.id}) in channel ${r.channel}`;
    // By the master's id, else by the copy's (open choice unlocalize-id).
    const done = await eitherIdStep(r.t, 'file.unlocalize', [obj.id, obj.localized!.id], { channelId: r.channel });
    if (done.id === undefined) {
      divergeOn(r, checkNo5xx(done.exchange, 'MCH-03'));
      // Whether /file/unlocalize takes folders is open (open choice unlocalize-folders): refused, the folder stays localized.
      if (obj.kind === 'folder') {
        this.did += ' → refused';
        return nothingToJudgeOnce(r.t, NO_FOLDER_UNLOCALIZE);
      }
      stop(r, 'MCH-03', `${this.did}: expected success by the master's id or the copy's, got ${done.problem}`, done.exchange);
    }
    if (done.id !== obj.id) this.did += ` by #${done.id}`;
    unlocalize(m, obj);
    // "unlocalize removes the localized copy; the channel sees the inherited master again"
    await verify(
      r,
      m,
      { folder: parentOf(m, obj)!.key, kind: obj.kind, view: 'channel', wastebin: 'exclude' },
      'MCH-03',
      `after ${this.did}, in the channel`,
    );
    if (obj.kind === 'folder') await learnCopiesBelow(r, m, obj, this.did);
  }
}

/**
 * After a folder was unlocalized without `recursive`: whether the localized copies below it stay is open (open choice
 * unlocalize-folder-content). The channel's listings say, top down; the model takes what they show (a copy listed, or
 * the master again), and anything else is a finding.
 */
export async function learnCopiesBelow(r: Real, m: Model, folder: ModelFolder, did: string): Promise<void> {
  const queue = [...childrenOf(m, folder.key, 'folder'), ...childrenOf(m, folder.key, 'file')];
  while (queue.length) {
    const o = queue.shift()!;
    if (o.kind === 'folder') queue.push(...childrenOf(m, o.key, 'folder'), ...childrenOf(m, o.key, 'file'));
    if (!o.localized || isDeleted(m, o) || !visibleInChannel(m, o)) continue;
    const parent = parentOf(m, o)!;
    const op = o.kind === 'folder' ? 'folder.getFolders' : 'folder.getFiles';
    const { exchange } = await r.t.try(op, {
      path: o.kind === 'folder' ? { id: channelIdOf(parent) } : { folderId: channelIdOf(parent) },
      query: { nodeId: r.channel },
    });
    const body = success(r, exchange, 'MCH-03', `${did}, then listing ${label(parent, channelIdOf(parent))} in the channel`);
    const ids = listOf<ListedRecord>(body, o.kind === 'folder' ? 'folders' : 'files').map((x) => x.id);
    if (ids.includes(o.localized.id)) continue;
    if (ids.includes(o.id)) unlocalize(m, o);
    else
      stop(
        r,
        'MCH-03',
        `${did}: the channel lists neither the localized copy #${o.localized.id} of ${label(o)} below it nor its master`,
        exchange,
      );
  }
}

export type DisinheritMode = 'exclude' | 'include' | 'disinherit' | 'reinherit';

/** Excludes, includes, disinherits or reinherits an object for the test's channel and reads back what the channel sees. */
export class Disinherit extends Step<{ index: number; kind: ObjectKind; mode: DisinheritMode }, ModelObject> {
  protected targets(m: Model) {
    // With a localized copy in the channel the target may refuse ("unlocalize first"): the contract does not say. Whether
    // exclusion keeps the channels an object is disinherited for is open (open choice exclude-keeps-disinherit): a
    // disinherited object is not excluded, so that the model knows what the channel sees once it is included again.
    return pick(
      candidates(m, this.p.kind).filter(
        (o) => !o.localized && !(o.kind === 'folder' && hasLocalizedWithin(m, o)) && !(this.p.mode === 'exclude' && o.disinherited),
      ),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, obj: ModelObject) {
    const { mode } = this.p;
    const channel = r.channel!;
    const body = mode === 'exclude' || mode === 'include' ? { exclude: mode === 'exclude' } : { [mode]: [channel] };
    this.did = `${obj.kind === 'folder' ? 'folder' : 'file'} disinherit ${label(obj)} ${JSON.stringify(body)}`;
    const op = obj.kind === 'folder' ? 'folder.disinherit.set' : 'file.disinherit.set';
    const exchange =
      obj.kind === 'folder'
        ? (await r.t.try(op, { path: { id: obj.id }, json: body })).exchange
        : (await r.t.try(op, { query: { id: [obj.id] }, json: body })).exchange;
    const unchanged =
      mode === 'exclude' ? obj.excluded : mode === 'include' ? !obj.excluded : mode === 'disinherit' ? obj.disinherited : !obj.disinherited;
    if (isRefusal(exchange) && (unchanged || obj.kind === 'file')) {
      // A request that changes nothing may be refused (open choice disinherit-nothing-to-change), and /file/disinherit may take
      // no file ids (open choice file-disinherit-ids): either way nothing changed.
      divergeOn(r, checkNo5xx(exchange, 'MCH-05'));
      this.did += ' → refused';
      return nothingToJudgeOnce(
        r.t,
        unchanged
          ? 'a disinherit request that changed nothing was refused (open choice disinherit-nothing-to-change)'
          : '/file/disinherit takes no file ids here ("described as page IDs": open choice file-disinherit-ids)',
      );
    }
    success(r, exchange, 'MCH-05', this.did);
    if (mode === 'exclude' || mode === 'include') obj.excluded = mode === 'exclude';
    else obj.disinherited = mode === 'disinherit';
    // "an object excluded or disinherited for a channel is not visible in that channel's listings"
    const parent = parentOf(m, obj)!;
    if (visibleInChannel(m, parent))
      await verify(
        r,
        m,
        { folder: parent.key, kind: obj.kind, view: 'channel', wastebin: 'exclude' },
        'MCH-06',
        `after ${this.did}, in the channel`,
      );
  }
}

/**
 * A folder disinherited for the channel with `recursive`, then the status of everything below it read back, at
 * every depth: MCH-05 "disinherit POST (single and list) sets `exclude`, `disinherit`, `reinherit`, `recursive`,
 * `disinheritDefault`; the GET forms read back what was set".
 */
export class DisinheritRecursive extends Step<{ index: number }, ModelFolder> {
  protected targets(m: Model) {
    return pick(
      nonRoot(m).filter((f) => !hasLocalizedWithin(m, f) && childrenOf(m, f.key, 'folder').length > 0),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const channel = r.channel!;
    this.did = `folder disinherit ${label(folder)} {"disinherit":[${channel}],"recursive":true}`;
    const { exchange } = await r.t.try('folder.disinherit.set', {
      path: { id: folder.id },
      json: { disinherit: [channel], recursive: true },
    });
    const below: ModelObject[] = [];
    const walk = (f: ModelFolder): void => {
      for (const o of [...childrenOf(m, f.key, 'folder'), ...childrenOf(m, f.key, 'file')]) {
        below.push(o);
        if (o.kind === 'folder') walk(o);
      }
    };
    walk(folder);
    if (isRefusal(exchange) && [folder, ...below].every((o) => o.disinherited)) {
      // Everything was disinherited already: a request that changes nothing may be refused (open choice disinherit-nothing-to-change).
      divergeOn(r, checkNo5xx(exchange, 'MCH-05'));
      this.did += ' → refused';
      return nothingToJudgeOnce(r.t, 'a disinherit request that changed nothing was refused (open choice disinherit-nothing-to-change)');
    }
    success(r, exchange, 'MCH-05', this.did);
    for (const o of [folder, ...below]) o.disinherited = true;
    // Without recursive only the folder itself takes the setting: the content read back below shows the difference.
    if (below.length) r.t.judged('folder.disinherit.set', 'recursive');
    for (const o of below) {
      // What an excluded object reports in `disinherit` is open (open choice disinherit-while-excluded).
      if (o.excluded) continue;
      const { exchange: read } =
        o.kind === 'folder'
          ? await r.t.try('folder.disinherit.get', { path: { id: o.id } })
          : await r.t.try('file.disinherit.get', { query: { id: [o.id] } });
      if (o.kind === 'file' && isRefusal(read)) {
        divergeOn(r, checkNo5xx(read, 'MCH-05'));
        nothingToJudgeOnce(r.t, '/file/disinherit takes no file ids here ("described as page IDs": open choice file-disinherit-ids)', read);
        continue;
      }
      const status = success<'folder.disinherit.get'>(r, read, 'MCH-05', `${this.did}, then reading ${label(o)}`);
      if (!listOf(status, 'disinherit').includes(channel))
        stop(
          r,
          'MCH-05',
          `${this.did}: ${label(o)} lies below it, yet its status reads disinherit ${JSON.stringify(status.disinherit)}`,
          read,
        );
    }
  }
}

/**
 * A file disinherited for another channel than the test's, one the target names among the file's `inheritable`
 * channels: MCH-06 hides it only in "that channel's listings", so the test's channel lists it as before (MCH-01
 * "an object of the master appears in the channel's listings"). Without a second channel there is nothing to do.
 */
export class DisinheritOther extends Step<{ index: number }, ModelFile> {
  protected targets(m: Model) {
    return pick(
      liveFiles(m).filter((f) => !f.localized && visibleInChannel(m, f)),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, file: ModelFile) {
    const { exchange: read, body } = await r.t.try('file.disinherit.get', { query: { id: [file.id] } });
    const other = listOf(body, 'inheritable').find((c) => typeof c === 'number' && c !== r.channel);
    this.did = `file disinherit ${label(file)} for channel ${JSON.stringify(other)}`;
    if (typeof other !== 'number')
      return nothingToJudgeOnce(
        r.t,
        `the target names no second channel that a file is inherited into (${body ? 'inheritable' : 'GET /file/disinherit refused'}): ` +
          "another channel's disinheritance is not judged",
        read,
      );
    const { exchange } = await r.t.try('file.disinherit.set', { query: { id: [file.id] }, json: { disinherit: [other] } });
    // A channel the target offered may still be refused; then there is nothing to judge.
    if (isRefusal(exchange)) {
      divergeOn(r, checkNo5xx(exchange, 'MCH-06'));
      this.did += ' → refused';
      return nothingToJudgeOnce(
        r.t,
        `the target refused to disinherit a file for channel ${other}, which it names in inheritable`,
        exchange,
      );
    }
    await verify(
      r,
      m,
      { folder: file.folder, kind: 'file', view: 'channel', wastebin: 'exclude' },
      'MCH-06',
      `after ${this.did}, in channel ${r.channel}`,
    );
    // The model knows only the test's channel: the other one's setting is taken back at once.
    await r.t.try('file.disinherit.set', { query: { id: [file.id] }, json: { reinherit: [other] } });
  }
}
