/**
 * Reading a data set file (`serve --fixture FILE`) and checking a data set given as a value, in the format
 * of dataset-format.ts. A data set file is user input, so every mistake gets a message naming where it is.
 * The shape is schemas/inputs/fixture.json; what a schema cannot say (unique ids, references) is checked here.
 */
import { readFileSync } from 'node:fs';
import { fileProblem } from '../schemas/files.ts';
import { FOLDER_PRIVILEGES, type Dataset } from './dataset-format.ts';

type Json = Record<string, unknown>;

class DatasetError extends Error {
  override name = 'DatasetError';
}

/** `files[0].folderId` as the JSON pointer `/files/0/folderId`, the way schema problems name members. */
function pointer(where: string): string {
  return `/${where
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .join('/')}`;
}

function check(ok: boolean, where: string, what: string): void {
  if (!ok) throw new DatasetError(`${pointer(where)}: ${what}`);
}

const isInt = (v: unknown): v is number => Number.isSafeInteger(v);

function checkTags(tags: unknown, where: string, constructs: Set<number>): void {
  ((tags as Json[] | undefined) ?? []).forEach((tag, i) => {
    check(constructs.has(tag.constructId as number), `${where}[${i}].constructId`, `${String(tag.constructId)} does not name a construct`);
  });
}

/** Checks a dataset's shape (against its schema) and references; throws an Error naming the first defect (`source: /path: problem`). */
export function validateDataset(value: unknown, source = 'dataset'): asserts value is Dataset {
  const problem = fileProblem('fixture', value);
  if (problem) throw new Error(`${source}: ${problem}`);
  try {
    const ds = value as Json;
    const list = (name: string) => ds[name] as Json[];
    const ids = new Map<string, Set<number>>();
    for (const name of ['users', 'groups', 'languages', 'markupLanguages', 'constructs', 'nodes']) {
      const seen = new Set<number>();
      list(name).forEach((item, i) => {
        check(!seen.has(item.id as number), `${name}[${i}].id`, `duplicate id ${String(item.id)}`);
        seen.add(item.id as number);
      });
      ids.set(name, seen);
    }
    const users = ids.get('users')!;
    check(users.has(ds.requesterId as number), 'requesterId', `${String(ds.requesterId)} does not name a user`);
    const objectIds = new Map<number, string>();
    // Nodes and constructs name their creator and editor as objects do: a node or construct record renders them as users.
    for (const kind of ['nodes', 'constructs'] as const)
      list(kind).forEach((o, i) =>
        check(
          users.has(o.creatorId as number) && users.has(o.editorId as number),
          `${kind}[${i}]`,
          'creatorId and editorId must name users',
        ),
      );
    const kinds = ['folders', 'files', 'images', 'pages', 'templates'] as const;
    for (const kind of kinds) {
      list(kind).forEach((o, i) => {
        const w = `${kind}[${i}]`;
        check(
          !objectIds.has(o.id as number),
          `${w}.id`,
          `duplicate object id ${String(o.id)} (ids are unique across folders, files, images, pages and templates)`,
        );
        objectIds.set(o.id as number, kind);
        check(ids.get('nodes')!.has(o.nodeId as number), `${w}.nodeId`, `${String(o.nodeId)} does not name a node`);
        check(users.has(o.creatorId as number) && users.has(o.editorId as number), w, 'creatorId and editorId must name users');
        // A reference to nothing is refused here, so that no answer renders one (the server would have nothing to name).
        const deleted = o.deleted as Json | undefined;
        if (deleted) check(users.has(deleted.by as number), `${w}.deleted.by`, `${String(deleted.by)} does not name a user`);
        ((o.disinherit as unknown[] | undefined) ?? []).forEach((n, j) =>
          check(ids.get('nodes')!.has(n as number), `${w}.disinherit[${j}]`, `${String(n)} does not name a node`),
        );
        checkTags(o.tags, `${w}.tags`, ids.get('constructs')!);
      });
    }
    // Variants of one object share a channel set: same kind, distinct nodes, masters inside the set.
    const sets = new Map<number, { kind: string; nodes: Set<number> }>();
    const setOf = new Map<number, number>();
    for (const kind of kinds) {
      list(kind).forEach((o, i) => {
        const w = `${kind}[${i}]`;
        // 0 keys the children of the root level: a set of that id would be taken for the top of every tree.
        check((o.channelSetId as number) > 0, `${w}.channelSetId`, `${String(o.channelSetId)} is no positive id`);
        const set = sets.get(o.channelSetId as number) ?? { kind, nodes: new Set<number>() };
        const fileLike = (k: string) => k === 'files' || k === 'images';
        check(
          set.kind === kind || (fileLike(set.kind) && fileLike(kind)),
          `${w}.channelSetId`,
          `${String(o.channelSetId)} is shared with objects of another kind`,
        );
        check(
          !set.nodes.has(o.nodeId as number),
          `${w}.channelSetId`,
          `two variants of channel set ${String(o.channelSetId)} live in node ${String(o.nodeId)}`,
        );
        set.nodes.add(o.nodeId as number);
        sets.set(o.channelSetId as number, set);
        setOf.set(o.id as number, o.channelSetId as number);
      });
    }
    for (const kind of kinds) {
      list(kind).forEach((o, i) => {
        if (o.masterId !== undefined)
          check(
            setOf.get(o.masterId as number) === o.channelSetId,
            `${kind}[${i}].masterId`,
            'must name a variant of the same channel set',
          );
      });
    }
    const ref = (w: string, id: unknown, kind: string | string[]) => {
      const want = Array.isArray(kind) ? kind : [kind];
      check(isInt(id) && want.includes(objectIds.get(id) ?? ''), w, `${JSON.stringify(id)} does not name an object of ${want.join('/')}`);
    };
    list('folders').forEach((f, i) => {
      if (f.motherId !== null) ref(`folders[${i}].motherId`, f.motherId, 'folders');
      for (const t of (f.templateIds as unknown[] | undefined) ?? []) ref(`folders[${i}].templateIds`, t, 'templates');
      ((f.withheldPrivileges as unknown[] | undefined) ?? []).forEach((p, j) =>
        check(
          FOLDER_PRIVILEGES.includes(p as string),
          `folders[${i}].withheldPrivileges[${j}]`,
          `${JSON.stringify(p)} is no folder privilege name`,
        ),
      );
    });
    for (const kind of ['files', 'images'] as const) {
      list(kind).forEach((f, i) => {
        ref(`${kind}[${i}].folderId`, f.folderId, 'folders');
      });
    }
    const packages = (ds.stagingPackages as Json[] | undefined) ?? [];
    packages.forEach((p, i) => {
      check(
        packages.findIndex((q) => q.name === p.name) === i,
        `stagingPackages[${i}].name`,
        `${JSON.stringify(p.name)} names two packages`,
      );
      (p.objectIds as unknown[]).forEach((id, j) => ref(`stagingPackages[${i}].objectIds[${j}]`, id, [...kinds]));
    });
    const role = (ds.roles as Json | undefined)?.stagingPackage as Json | undefined;
    if (role !== undefined) {
      const named = packages.find((p) => p.name === role.name);
      check(named !== undefined, 'roles.stagingPackage.name', `${JSON.stringify(role.name)} names no package of stagingPackages`);
      (role.folderIds as unknown[]).forEach((id, i) =>
        check(
          (named!.objectIds as unknown[]).includes(id) && objectIds.get(id as number) === 'folders',
          `roles.stagingPackage.folderIds[${i}]`,
          `${JSON.stringify(id)} is no folder the package includes`,
        ),
      );
    }
    const groups = ids.get('groups')!;
    list('users').forEach((u, i) =>
      ((u.groupIds as unknown[] | undefined) ?? []).forEach((g, j) =>
        check(groups.has(g as number), `users[${i}].groupIds[${j}]`, `${String(g)} does not name a group`),
      ),
    );
    list('pages').forEach((p, i) => {
      ref(`pages[${i}].folderId`, p.folderId, 'folders');
      ref(`pages[${i}].templateId`, p.templateId, 'templates');
      const w = `pages[${i}]`;
      const tm = p.timeManagement as Json | undefined;
      const workflow = p.workflow as Json | undefined;
      for (const [where, id] of [
        ['publisherId', p.publisherId],
        ['lockedBy', p.lockedBy],
        ['workflow.userId', workflow?.userId],
        ['timeManagement.queuedPublish.userId', (tm?.queuedPublish as Json | undefined)?.userId],
        ['timeManagement.queuedOffline.userId', (tm?.queuedOffline as Json | undefined)?.userId],
      ] as const)
        if (id !== undefined) check(users.has(id as number), `${w}.${where}`, `${String(id)} does not name a user`);
      ((workflow?.groupIds as unknown[] | undefined) ?? []).forEach((g, j) =>
        check(groups.has(g as number), `${w}.workflow.groupIds[${j}]`, `${String(g)} does not name a group`),
      );
      // The page record's lockedSince is required: a locked page says since when.
      if (p.lockedBy !== undefined) check(isInt(p.lockedSince), `${w}.lockedSince`, 'a locked page (lockedBy) needs lockedSince');
      if (p.translation) ref(`pages[${i}].translation.masterPageId`, (p.translation as Json).masterPageId, 'pages');
    });
    list('templates').forEach((t, i) => {
      ref(`templates[${i}].folderId`, t.folderId, 'folders');
      check(
        ids.get('markupLanguages')!.has(t.markupLanguageId as number),
        `templates[${i}].markupLanguageId`,
        'does not name a markup language',
      );
      checkTags(t.templateTags, `templates[${i}].templateTags`, ids.get('constructs')!);
    });
    list('nodes').forEach((n, i) => {
      ref(`nodes[${i}].rootFolderId`, n.rootFolderId, 'folders');
      if (n.masterId !== undefined)
        check(ids.get('nodes')!.has(n.masterId as number) && n.masterId !== n.id, `nodes[${i}].masterId`, 'must name another node');
    });
  } catch (err) {
    if (err instanceof DatasetError) throw new Error(`${source}: ${err.message}`);
    throw err;
  }
}

/** Reads and validates a dataset file; errors name the file and the defect. */
export function loadDataset(path: string): Dataset {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read fixture ${path}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`fixture ${path} is not valid JSON: ${(err as Error).message}`);
  }
  validateDataset(value, `fixture ${path}`);
  return value;
}
