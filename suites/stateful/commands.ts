/**
 * The commands of the model-based tests that change folders and files (sequences.ts): create, upload, copy, move, save,
 * delete, in the master and in the channel, each checked against harness/model.ts.
 */
import { nothingToJudgeOnce } from '../../harness/steps.ts';
import { checkNo5xx, finding, isRefusal } from '../../harness/checks.ts';
import {
  addFile,
  addFolder,
  channelIdOf,
  childrenOf,
  deleteFolder,
  hasLocalizedWithin,
  isDeleted,
  liveFiles,
  liveFolders,
  moveFile,
  nameTaken,
  objectById,
  parentOf,
  renameFile,
  replaceContent,
  visibleInChannel,
  type ListedRecord,
  type ListingQuery,
  type Model,
  type ModelFile,
  type ModelFolder,
} from '../../harness/model.ts';
import {
  type Real,
  Unpredictable,
  divergeOn,
  stop,
  success,
  refused,
  sha256,
  quote,
  label,
  verify,
  Step,
  pick,
  nonRoot,
} from './runner.ts';

/** Creates a folder in a model folder, with or without failOnDuplicate, and reads back the listing. */
export class CreateFolder extends Step<{ parent: number; name: string; failOnDuplicate: boolean }, ModelFolder> {
  protected targets(m: Model) {
    return pick(liveFolders(m), this.p.parent);
  }

  protected async act(m: Model, r: Real, mother: ModelFolder) {
    const { name, failOnDuplicate } = this.p;
    this.did = `createFolder ${quote(name)} in ${label(mother)}${failOnDuplicate ? ' failOnDuplicate' : ''}`;
    const { exchange } = await r.t.try('folder.create', {
      json: { motherId: String(mother.id), name, ...(failOnDuplicate ? { failOnDuplicate } : {}) },
    });
    const siblings: ListingQuery = { folder: mother.key, kind: 'folder', view: 'master', wastebin: 'exclude' };
    const loose = nameTaken(m, mother.key, 'folder', name);
    if (failOnDuplicate && (nameTaken(m, mother.key, 'folder', name, { exact: true }) || (loose && isRefusal(exchange)))) {
      // "failOnDuplicate=true refuses a name already used by a sibling and creates nothing"
      refused(r, exchange, 'FLD-02', `a sibling is named ${quote(name)} and failOnDuplicate is true`);
      this.did += ' → refused';
      await verify(r, m, siblings, 'FLD-02', `after the refused ${this.did}`);
      return;
    }
    // A sibling's name without failOnDuplicate: the notes append a number ("News1"), a server may refuse it or keep the
    // name as sent (open choice folder-name-collision). Refused, nothing changed.
    if (loose && isRefusal(exchange) && (exchange.response?.status ?? 0) < 500) {
      this.did += ' → refused, the name is taken';
      await verify(r, m, siblings, 'FLD-01', `after the refused ${this.did}`);
      return;
    }
    const body = success<'folder.create'>(r, exchange, 'FLD-01', this.did);
    const id = body.folder?.id;
    // "create makes a folder under motherId, returned in FolderLoadResponse"
    if (typeof id !== 'number' || objectById(m, id))
      stop(r, 'FLD-01', `${this.did}: expected the new folder with a new id, got id ${JSON.stringify(id)}`, exchange);
    const got = typeof body.folder?.name === 'string' ? body.folder.name : name;
    if (!loose && got !== name) stop(r, 'FLD-01', `${this.did}: no sibling has this name, yet the folder is named ${quote(got)}`, exchange);
    const folder = addFolder(m, mother.key, id, got);
    this.did += ` → ${label(folder)}${got === name ? '' : ` named ${quote(got)}`}`;
    // "... listed by the mother"
    await verify(r, m, siblings, 'FLD-01', `after ${this.did}`);
  }
}

/** One file an upload command sends. */
export interface Payload {
  name: string;
  content: Uint8Array;
}

/**
 * An upload; `overwrite` (raw createSimple only, whose `overwrite` query the contract names) asks to replace the
 * file of the same name: UPL-05 "`overwrite=true` replaces a file of the same name in the folder (same id, new size)".
 */
export class Upload extends Step<{ folder: number; files: Payload[]; raw: boolean; overwrite?: boolean }, ModelFolder> {
  protected targets(m: Model) {
    return pick(liveFolders(m), this.p.folder);
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const { files, raw } = this.p;
    const overwrite = raw && this.p.overwrite === true;
    const requirement = overwrite ? 'UPL-05' : raw ? 'UPL-03' : 'UPL-01';
    const op = raw ? 'file.createSimple.raw' : 'file.create.multipart';
    this.did = `${raw ? 'createSimple' : 'upload'}${overwrite ? ' overwrite' : ''} into ${label(folder)}:`;
    for (const { name, content } of files) {
      // Only a live file of exactly this name must be replaced; one differing in case or deleted may be, or not.
      const same = overwrite
        ? (childrenOf(m, folder.key, 'file') as ModelFile[]).find((o) => o.name === name && !isDeleted(m, o))
        : undefined;
      const exchange = raw
        ? (
            await r.t.try(op, {
              query: { folderId: folder.id, qqfile: name, ...(overwrite ? { overwrite } : {}) },
              raw: { contentType: 'application/octet-stream', data: content },
            })
          ).exchange
        : (
            await r.t.try(op, {
              multipart: {
                fields: { folderId: String(folder.id), fileName: name },
                files: [{ name: 'fileBinaryData', filename: name, contentType: 'application/octet-stream', data: content }],
              },
            })
          ).exchange;
      const what = `${this.did} ${quote(name)} (${content.length} B)`;
      // A name the folder holds, without overwrite: the notes rename ("base_1.ext"), a server may refuse (open choice
      // upload-name-collision). Refused, nothing changed.
      if (!same && !overwrite && nameTaken(m, folder.key, 'file', name) && isRefusal(exchange) && (exchange.response?.status ?? 0) < 500) {
        this.did += ` ${quote(name)} (${content.length} B) → refused, the name is taken;`;
        continue;
      }
      const body = success<typeof op>(r, exchange, requirement, what);
      const file = body.file;
      if (same) {
        if (body.success !== true || file?.id !== same.id || file.fileSize !== content.length)
          stop(
            r,
            'UPL-05',
            `${what}: expected ${label(same)} replaced (success true, id ${same.id}, fileSize ${content.length}), ` +
              `got success ${JSON.stringify(body.success)}, id ${JSON.stringify(file?.id)}, fileSize ${JSON.stringify(file?.fileSize)}`,
            exchange,
          );
        // Without overwrite the same upload makes a new file (the model's plain uploads): here the id must stay.
        r.t.judged(op, 'overwrite');
        replaceContent(same, content.length, sha256(content));
        this.did += ` ${quote(name)} (${content.length} B) → replaced ${label(same)};`;
        continue;
      }
      // A file named alike (case, deleted) may have been replaced: the contract does not say which names are the same.
      const alike = overwrite && typeof file?.id === 'number' ? objectById(m, file.id) : undefined;
      if (alike?.kind === 'file' && alike.folder === folder.key && nameTaken(m, folder.key, 'file', name)) {
        replaceContent(alike, content.length, sha256(content));
        this.did += ` ${quote(name)} (${content.length} B) → replaced ${label(alike)};`;
        continue;
      }
      // UPL-01: "201, success true, file with the given name, folderId, and fileSize equal to the bytes sent"
      if (body.success !== true || typeof file?.id !== 'number' || objectById(m, file.id)) {
        stop(
          r,
          requirement,
          `${what}: expected success true and a file with a new id, ` +
            `got success ${JSON.stringify(body.success)}, id ${JSON.stringify(file?.id)}`,
          exchange,
        );
      }
      const got = typeof file.name === 'string' ? file.name : name;
      const problems: string[] = [];
      if (!nameTaken(m, folder.key, 'file', name) && got !== name)
        problems.push(`no file of the folder has this name, yet the file is named ${quote(got)}`);
      if (file.fileSize !== content.length)
        problems.push(`fileSize ${JSON.stringify(file.fileSize)}, expected the ${content.length} bytes sent`);
      if (file.folderId !== undefined && file.folderId !== folder.id) problems.push(`folderId ${file.folderId}, expected ${folder.id}`);
      divergeOn(
        r,
        problems.map((p) => finding(requirement, 'model', `${what}: ${p}`, exchange)),
      );
      const added = addFile(m, folder.key, { id: file.id, name: got, size: content.length, sha256: sha256(content) });
      this.did += ` ${quote(name)} (${content.length} B) → ${label(added)}${got === name ? '' : ` named ${quote(got)}`};`;
    }
    await verify(r, m, { folder: folder.key, kind: 'file', view: 'master', wastebin: 'exclude' }, requirement, `after ${this.did}`);
  }
}

export class Copy extends Step<{ file: number; folder: number; newName: string | undefined }, [ModelFile, ModelFolder]> {
  protected targets(m: Model): [ModelFile, ModelFolder] | undefined {
    const file = pick(liveFiles(m), this.p.file);
    const folder = pick(liveFolders(m), this.p.folder);
    return file && folder ? [file, folder] : undefined;
  }

  protected async act(m: Model, r: Real, [source, target]: [ModelFile, ModelFolder]) {
    const { newName } = this.p;
    this.did = `copy ${label(source)} to ${label(target)}${newName === undefined ? '' : ` as ${quote(newName)}`}`;
    const { exchange } = await r.t.try('file.copy', {
      json: { file: { id: source.id }, targetFolder: { id: target.id }, ...(newName === undefined ? {} : { newFilename: newName }) },
    });
    const wanted = newName ?? source.name;
    // Onto a name the target folder holds, a copy may be renamed or refused (open choice copy-name-collision).
    if (nameTaken(m, target.key, 'file', wanted) && isRefusal(exchange) && (exchange.response?.status ?? 0) < 500) {
      this.did += ' → refused, the name is taken';
      return;
    }
    const body = success<'file.copy'>(r, exchange, 'FIL-01', this.did);
    const file = body.file;
    // "copy creates a new file (new id) in the target folder, named newFilename when given; the source is unchanged"
    if (typeof file?.id !== 'number' || objectById(m, file.id))
      stop(r, 'FIL-01', `${this.did}: expected a file with a new id, got id ${JSON.stringify(file?.id)}`, exchange);
    const got = typeof file.name === 'string' ? file.name : wanted;
    const problems: string[] = [];
    if (!nameTaken(m, target.key, 'file', wanted) && got !== wanted)
      problems.push(`the target folder has no file named ${quote(wanted)}, yet the copy is named ${quote(got)}`);
    if (file.fileSize !== undefined && file.fileSize !== source.size)
      problems.push(`the copy has fileSize ${file.fileSize}, the source ${source.size}`);
    if (file.folderId !== undefined && file.folderId !== target.id)
      problems.push(`the copy is in folder ${file.folderId}, expected ${target.id}`);
    divergeOn(
      r,
      problems.map((p) => finding('FIL-01', 'model', `${this.did}: ${p}`, exchange)),
    );
    const copy = addFile(m, target.key, { id: file.id, name: got, size: source.size, sha256: source.sha256 });
    this.did += ` → ${label(copy)}${got === wanted ? '' : ` named ${quote(got)}`}`;
    await verify(r, m, { folder: target.key, kind: 'file', view: 'master', wastebin: 'exclude' }, 'FIL-01', `after ${this.did}`);
    if (source.folder !== target.key)
      await verify(
        r,
        m,
        { folder: source.folder, kind: 'file', view: 'master', wastebin: 'exclude' },
        'FIL-01',
        `after ${this.did}, in the source folder`,
      );
  }
}

/** Files the commands may change: live, and without a localized copy (what a change of the master does to a copy is not shown). */
export const changeable = (m: Model) => liveFiles(m).filter((f) => !f.localized);

export class Move extends Step<{ file: number; folder: number }, [ModelFile, ModelFolder]> {
  protected targets(m: Model): [ModelFile, ModelFolder] | undefined {
    const file = pick(changeable(m), this.p.file);
    // A same-name file in the target folder: the contract does not say whether the move is refused or renames.
    const folder =
      file &&
      pick(
        liveFolders(m).filter((d) => d.key !== file.folder && !nameTaken(m, d.key, 'file', file.name)),
        this.p.folder,
      );
    return file && folder ? [file, folder] : undefined;
  }

  protected async act(m: Model, r: Real, [file, target]: [ModelFile, ModelFolder]) {
    const from = file.folder;
    this.did = `move ${label(file)} from ${from} to ${label(target)}`;
    const { exchange } = await r.t.try('file.move', { path: { id: file.id }, json: { folderId: target.id } });
    success(r, exchange, 'FIL-02', this.did);
    moveFile(file, target.key);
    // "move changes the file's folder: it leaves the old folder's listing and appears in the new one, same id"
    await verify(
      r,
      m,
      { folder: from, kind: 'file', view: 'master', wastebin: 'exclude' },
      'FIL-02',
      `after ${this.did}, in the old folder`,
    );
    await verify(
      r,
      m,
      { folder: target.key, kind: 'file', view: 'master', wastebin: 'exclude' },
      'FIL-02',
      `after ${this.did}, in the new folder`,
    );
  }
}

/** Loads a file and returns its record; a refusal is a finding of `requirement`. */
export async function loadFile(r: Real, file: ModelFile, requirement: string, context: string) {
  const { exchange } = await r.t.try('file.load', { path: { id: file.id } });
  const body = success<'file.load'>(r, exchange, requirement, `${context}: loading ${label(file)}`);
  if (!body.file || body.file.id !== file.id)
    stop(r, requirement, `${context}: loading ${label(file)} answered file id ${JSON.stringify(body.file?.id)}`, exchange);
  return { exchange, file: body.file };
}

/** A new name, or (a number) the name of the n-th other file of the folder, to meet the duplicate rules often. */
export type Rename = string | number | undefined;

/** Saves a file's name or description, with or without failOnDuplicate, and reads back the file and listing. */
export class Save extends Step<{ file: number; name: Rename; description: string | undefined; failOnDuplicate: boolean }, ModelFile> {
  protected targets(m: Model) {
    return pick(changeable(m), this.p.file);
  }

  protected async act(m: Model, r: Real, file: ModelFile) {
    const { description, failOnDuplicate } = this.p;
    const siblings = childrenOf(m, file.folder, 'file').filter((o) => o.key !== file.key);
    const name = typeof this.p.name === 'number' ? (pick(siblings, this.p.name)?.name ?? file.name) : this.p.name;
    // The name always goes: which members a save needs is not said (open choice save-partial-record).
    const fields = { name: name ?? file.name, ...(description === undefined ? {} : { description }) };
    this.did = `save ${label(file)} ${JSON.stringify(fields)}${failOnDuplicate ? ' failOnDuplicate' : ''}`;
    const { exchange } = await r.t.try('file.save.json', {
      path: { id: file.id },
      json: { file: fields, ...(failOnDuplicate ? { failOnDuplicate } : {}) },
    });
    const loose = name !== undefined && nameTaken(m, file.folder, 'file', name, { except: file.key });
    if (
      failOnDuplicate &&
      name !== undefined &&
      (nameTaken(m, file.folder, 'file', name, { exact: true, except: file.key }) || (loose && isRefusal(exchange)))
    ) {
      // "failOnDuplicate refuses a name already used in the folder"; a refusal changes nothing
      refused(r, exchange, 'FIL-03', `another file of the folder is named ${quote(name)} and failOnDuplicate is true`);
      this.did += ' → refused';
      const { exchange: load, file: record } = await loadFile(r, file, 'FIL-03', this.did);
      if (record.name !== file.name)
        stop(r, 'FIL-03', `${this.did}: the refused save still renamed the file to ${JSON.stringify(record.name)}`, load);
      return;
    }
    success(r, exchange, 'FIL-03', this.did);
    // "save (JSON) updates the given fields (name, description), visible on load"
    const { exchange: load, file: record } = await loadFile(r, file, 'FIL-03', this.did);
    const wanted = name ?? file.name;
    const got = typeof record.name === 'string' ? record.name : '';
    const problems: string[] = [];
    if (!loose && got !== wanted) problems.push(`load answers name ${JSON.stringify(record.name)}, expected ${quote(wanted)}`);
    if (description !== undefined && record.description !== description)
      problems.push(`load answers description ${JSON.stringify(record.description)}, expected ${JSON.stringify(description)}`);
    divergeOn(
      r,
      problems.map((p) => finding('FIL-03', 'model', `${this.did}: ${p}`, load)),
    );
    renameFile(file, got);
    if (got !== wanted) this.did += ` → named ${quote(got)}`;
    await verify(r, m, { folder: file.folder, kind: 'file', view: 'master', wastebin: 'exclude' }, 'FIL-03', `after ${this.did}`);
  }
}

export class SaveContent extends Step<{ file: number; content: Uint8Array }, ModelFile> {
  protected targets(m: Model) {
    return pick(changeable(m), this.p.file);
  }

  protected async act(m: Model, r: Real, file: ModelFile) {
    const { content } = this.p;
    this.did = `saveContent ${label(file)} (${content.length} B)`;
    const { exchange } = await r.t.try('file.save.multipart', {
      path: { id: file.id },
      multipart: { files: [{ name: 'fileBinaryData', filename: file.name, contentType: 'application/octet-stream', data: content }] },
    });
    success(r, exchange, 'UPL-06', this.did);
    // "POST /file/save/{id} multipart replaces the content (new fileSize), keeping the id"
    const { exchange: load, file: record } = await loadFile(r, file, 'UPL-06', this.did);
    if (record.fileSize !== content.length)
      stop(
        r,
        'UPL-06',
        `${this.did}: load answers fileSize ${JSON.stringify(record.fileSize)}, expected the ${content.length} bytes saved`,
        load,
      );
    replaceContent(file, content.length, sha256(content));
  }
}

export class Delete extends Step<{ folder: number }, ModelFolder> {
  protected targets(m: Model) {
    return pick(nonRoot(m), this.p.folder);
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    this.did = `delete ${label(folder)}`;
    const inChannel = r.channel !== undefined && visibleInChannel(m, folder);
    const { exchange } = await r.t.try('folder.delete', { path: { id: folder.id } });
    // Whether a master folder with localized copies in it may be deleted before they are unlocalized is open (open choice
    // delete-master-with-copies): refused, it changes nothing.
    if (isRefusal(exchange) && hasLocalizedWithin(m, folder)) {
      divergeOn(r, checkNo5xx(exchange, 'DEL-05'));
      this.did += ' → refused (localized in the channel)';
      nothingToJudgeOnce(
        r.t,
        'the target refuses to delete a master folder that has localized copies (open choice delete-master-with-copies)',
      );
      return;
    }
    success(r, exchange, 'DEL-05', this.did);
    deleteFolder(folder);
    const mother = parentOf(m, folder)!;
    // "deleting a local folder succeeds; it leaves default listings"
    await verify(r, m, { folder: mother.key, kind: 'folder', view: 'master', wastebin: 'exclude' }, 'DEL-05', `after ${this.did}`);
    // "deleting an inherited folder in its master succeeds, and the folder is gone from the channel's listings too"
    if (inChannel)
      await verify(
        r,
        m,
        { folder: mother.key, kind: 'folder', view: 'channel', wastebin: 'exclude' },
        'DEL-03',
        `after ${this.did}, in the channel`,
      );
  }
}

export class DeleteInChannel extends Step<{ folder: number }, ModelFolder> {
  protected targets(m: Model) {
    return pick(
      nonRoot(m).filter((f) => visibleInChannel(m, f)),
      this.p.folder,
    );
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const requirement = folder.localized ? 'DEL-02' : 'DEL-01';
    this.did = `delete ${label(folder, channelIdOf(folder))} in channel ${r.channel} (${folder.localized ? 'localized' : 'inherited'})`;
    const { exchange } = await r.t.try('folder.delete', { path: { id: channelIdOf(folder) }, query: { nodeId: r.channel } });
    // "an inherited or localized folder cannot be deleted in a channel"
    refused(r, exchange, requirement, `the folder is ${folder.localized ? 'localized' : 'inherited'} in the channel`);
    this.did += ' → refused';
    // "a refused delete changes nothing: same folders, files and counts before and after"
    const mother = parentOf(m, folder)!;
    await verify(
      r,
      m,
      { folder: mother.key, kind: 'folder', view: 'channel', wastebin: 'exclude' },
      'DEL-06',
      `after the refused ${this.did}, in the channel`,
    );
    await verify(
      r,
      m,
      { folder: mother.key, kind: 'folder', view: 'master', wastebin: 'exclude' },
      'DEL-06',
      `after the refused ${this.did}, in the master`,
    );
    await verify(
      r,
      m,
      { folder: folder.key, kind: 'file', view: 'master', wastebin: 'exclude' },
      'DEL-06',
      `after the refused ${this.did}, its files`,
    );
  }
}

/**
 * In the channel, a folder named as a sibling the channel sees (inherited from the master or localized) with
 * failOnDuplicate: FLD-02 "`failOnDuplicate=true` refuses a name already used by a sibling and creates nothing".
 */
export class DuplicateInChannel extends Step<{ parent: number }, [ModelFolder, ModelFolder]> {
  protected targets(m: Model): [ModelFolder, ModelFolder] | undefined {
    const seen = (f: ModelFolder) => !isDeleted(m, f) && visibleInChannel(m, f);
    const mother = pick(
      m.folders.filter((f) => seen(f) && childrenOf(m, f.key, 'folder').some((c) => seen(c as ModelFolder))),
      this.p.parent,
    );
    const sibling = mother && (childrenOf(m, mother.key, 'folder') as ModelFolder[]).find(seen);
    return mother && sibling ? [mother, sibling] : undefined;
  }

  protected async act(m: Model, r: Real, [mother, sibling]: [ModelFolder, ModelFolder]) {
    const name = sibling.localized?.name ?? sibling.name;
    this.did = `createFolder ${quote(name)} in ${label(mother, channelIdOf(mother))} in channel ${r.channel} failOnDuplicate`;
    const { exchange } = await r.t.try('folder.create', {
      json: { motherId: String(channelIdOf(mother)), name, failOnDuplicate: true, nodeId: r.channel },
    });
    const made = (exchange.response?.json as { folder?: { id?: unknown; name?: unknown } } | undefined)?.folder;
    if (!isRefusal(exchange) && !exchange.error && made?.name === name) {
      // Whether a channel's failOnDuplicate counts the names it inherits is open (open choice duplicate-names-in-channel): a
      // folder of the channel's own, named as asked, is the other answer. The model holds no such folder: the sequence ends.
      divergeOn(r, checkNo5xx(exchange, 'FLD-02'));
      this.did += ` → created #${String(made.id)} of the channel's own`;
      nothingToJudgeOnce(r.t, "the channel's failOnDuplicate counts only its own folders (open choice duplicate-names-in-channel)");
      throw new Unpredictable(this.did);
    }
    refused(r, exchange, 'FLD-02', `the channel sees ${label(sibling, channelIdOf(sibling))} named ${quote(name)} in the folder`);
    this.did += ' → refused';
    await verify(
      r,
      m,
      { folder: mother.key, kind: 'folder', view: 'channel', wastebin: 'exclude' },
      'FLD-02',
      `after the refused ${this.did}`,
    );
  }
}

/**
 * A localized file's master renamed, then the copy's name (as the channel lists it) uploaded into the channel
 * with overwrite: UPL-05 "`overwrite=true` replaces a file of the same name in the folder (same id, new size)"
 * holds in the channel's view, where that file is the copy. What the rename does to the copy is not shown, so the
 * channel's listing says which name to send; the model cannot follow afterwards, so this step ends a sequence.
 */
export class OverwriteCopy extends Step<{ index: number }, ModelFile> {
  protected targets(m: Model) {
    return pick(
      liveFiles(m).filter((f) => f.localized && visibleInChannel(m, parentOf(m, f)!)),
      this.p.index,
    );
  }

  protected async act(m: Model, r: Real, file: ModelFile) {
    const copyId = file.localized!.id;
    const folder = parentOf(m, file)!;
    this.did = `save ${label(file)} {"name":"renamed master.txt"}`;
    const { exchange: saved } = await r.t.try('file.save.json', { path: { id: file.id }, json: { file: { name: 'renamed master.txt' } } });
    success(r, saved, 'FIL-03', this.did);
    const listed = await r.t.try('folder.getFiles', { path: { folderId: channelIdOf(folder) }, query: { nodeId: r.channel } });
    const copy = ((listed.exchange.response?.json as { files?: ListedRecord[] } | undefined)?.files ?? []).find((x) => x.id === copyId);
    if (typeof copy?.name !== 'string') stop(r, 'MCH-02', `${this.did}: the channel no longer lists the copy #${copyId}`, listed.exchange);
    const data = new TextEncoder().encode('replaced in the channel\n');
    this.did += `, then createSimple overwrite ${quote(copy.name)} into ${label(folder, channelIdOf(folder))} in channel ${r.channel}`;
    const { exchange } = await r.t.try('file.createSimple.raw', {
      query: { folderId: channelIdOf(folder), nodeId: r.channel, qqfile: copy.name, overwrite: true },
      raw: { contentType: 'application/octet-stream', data },
    });
    const body = success<'file.createSimple.raw'>(r, exchange, 'UPL-05', this.did);
    if (body.file?.id !== copyId || body.file.fileSize !== data.length)
      stop(
        r,
        'UPL-05',
        `${this.did}: the channel's file of that name is the copy #${copyId}, expected it replaced (id ${copyId}, fileSize ${data.length}), ` +
          `got id ${JSON.stringify(body.file?.id)}, fileSize ${JSON.stringify(body.file?.fileSize)}`,
        exchange,
      );
    this.did += ` → replaced #${copyId}`;
    throw new Unpredictable(`${this.did}: what the rename did to the copy is not shown`);
  }
}
