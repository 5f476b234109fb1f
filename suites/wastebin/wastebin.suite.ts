/**
 * Wastebin (WST): the `wastebin` parameter (exclude, include, only) of every listing that takes it, the
 * DeleteInfo of deleted items, and folder counts. Deleted items are made by deleting a sandbox folder
 * (the contract has no other delete); the model predicts every listing of the sandbox. The fixture is
 * judged by metamorphic relations only.
 */
import fc from 'fast-check';
import type { CallSpec, OperationId } from '../../harness/api.ts';
import { checkHandled, finding, isRefusal, type Finding } from '../../harness/checks.ts';
import { brief, idsOf, sameMultiset, setDifference } from '../../harness/oracles.ts';
import { listOf } from '../../harness/records.ts';
import { createFolderStep, deleteFolderStep, uploadFileStep } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { FolderObjectCountResponse, Item } from '../../schemas/types.ts';
import {
  deleteInfoProblems,
  deletionMarks,
  expectedIds,
  isMarkedDeleted,
  marksDeletion,
  type ListingModel,
  type WastebinMode,
} from '../../harness/deletion.ts';

/** One listing operation that takes `wastebin`, listing the folders or the files of a folder. */
interface Probe {
  op: OperationId;
  kind: 'folders' | 'files';
  /** The response member holding the list. */
  member: 'folders' | 'files' | 'items';
  spec(folder: number, recursive: boolean, wastebin: string | undefined): CallSpec;
}

const PROBES: Probe[] = [
  {
    op: 'folder.getFolders',
    kind: 'folders',
    member: 'folders',
    spec: (id, recursive, wastebin) => ({ path: { id }, query: { recursive, wastebin } }),
  },
  {
    op: 'folder.getFolders.post',
    kind: 'folders',
    member: 'folders',
    spec: (id, recursive, wastebin) => ({ json: { id: String(id), recursive, ...(wastebin === undefined ? {} : { wastebin }) } }),
  },
  {
    op: 'folder.list',
    kind: 'folders',
    member: 'items',
    spec: (id, recursive, wastebin) => ({ query: { folderId: String(id), recursive, wastebin } }),
  },
  {
    op: 'folder.getFiles',
    kind: 'files',
    member: 'files',
    spec: (folderId, recursive, wastebin) => ({ path: { folderId }, query: { recursive, wastebin } }),
  },
  {
    op: 'file.list',
    kind: 'files',
    member: 'items',
    spec: (id, recursive, wastebin) => ({ query: { folderId: String(id), recursive, wastebin } }),
  },
];

/** The list a probe's answer holds; an absent list reads as empty (contract 2.1: a server may leave an empty array out). */
function itemsOf(probe: Probe, body: unknown): Item[] {
  return listOf<Item>(body, probe.member);
}

/** Lists a folder with a probe, relying on the call to succeed. */
async function list(
  t: ConformanceContext,
  probe: Probe,
  folder: number,
  recursive: boolean,
  wastebin: string | undefined,
): Promise<{ exchange: Exchange; items: Item[] | undefined }> {
  const r = await t.call(probe.op, probe.spec(folder, recursive, wastebin));
  return { exchange: r.exchange, items: r.body && itemsOf(probe, r.body) };
}

/** The sandbox of one test after deleting a folder, and what each listing of it must hold. */
interface DeletedWorld {
  top: number;
  /** The folder the test deleted. */
  deleted: number;
  /** Objects inside the deleted folder (a folder and two files). */
  inside: number[];
  names: Map<number, string>;
  model: Record<'folders' | 'files', Record<'flat' | 'recursive', ListingModel>>;
}

/**
 * Builds top/{Live/live.txt, Deleted/{deleted.txt, Inner/inner.txt}, top.txt} and deletes `Deleted`;
 * what lies inside it is deleted too ("deleted (a deleted, masterDeleted or folderDeleted DeleteInfo is present)").
 */
async function deletedWorld(t: ConformanceContext): Promise<DeletedWorld> {
  const top = await t.folder();
  const [live, gone] = await Promise.all([createFolderStep(t, top, 'Live'), createFolderStep(t, top, 'Deleted')]);
  const inner = await createFolderStep(t, gone.id!, 'Inner');
  const [topFile, liveFile, goneFile, innerFile] = await Promise.all([
    uploadFileStep(t, top, 'wst-top.txt', 'top\n', 'text/plain'),
    uploadFileStep(t, live.id!, 'wst-live.txt', 'live\n', 'text/plain'),
    uploadFileStep(t, gone.id!, 'wst-deleted.txt', 'deleted\n', 'text/plain'),
    uploadFileStep(t, inner.id!, 'wst-inner.txt', 'inner\n', 'text/plain'),
  ]);
  await deleteFolderStep(t, gone.id!);
  const names = new Map<number, string>([live, gone, inner, topFile, liveFile, goneFile, innerFile].map((o) => [o.id!, o.name ?? '']));
  return {
    top,
    deleted: gone.id!,
    inside: [inner.id!, goneFile.id!, innerFile.id!],
    names,
    model: {
      folders: { flat: { live: [live.id!], deleted: [gone.id!] }, recursive: { live: [live.id!], deleted: [gone.id!, inner.id!] } },
      files: {
        flat: { live: [topFile.id!], deleted: [] },
        recursive: { live: [topFile.id!, liveFile.id!], deleted: [goneFile.id!, innerFile.id!] },
      },
    },
  };
}

function describeQuery(op: string, recursive: boolean, wastebin: string | undefined): string {
  return `${op} recursive=${recursive}${wastebin === undefined ? ' (wastebin absent)' : ` wastebin=${JSON.stringify(wastebin)}`}`;
}

/** A finding when a listing does not hold exactly the expected ids (names added for the reader). */
function compareIds(
  requirement: string,
  what: string,
  got: number[],
  expected: number[],
  names: Map<number, string>,
  exchange: Exchange,
): Finding[] {
  if (sameMultiset(got, expected)) return [];
  const { missing, extra } = setDifference(expected, got);
  const named = (ids: number[]) => brief(ids.map((id) => (names.has(id) ? `${id} ${names.get(id)}` : id)));
  return [
    finding(
      requirement,
      'model',
      `${what}: expected ${named(expected)}, got ${named(got)} (missing ${named(missing)}, unexpected ${named(extra)})`,
      exchange,
    ),
  ];
}

/** Lists every probe in both depths under one wastebin value and compares with the model's prediction for `mode`. */
async function checkListings(
  t: ConformanceContext,
  world: DeletedWorld,
  wastebin: string | undefined,
  mode: WastebinMode,
): Promise<{ items: Item[]; probe: Probe; exchange: Exchange }[]> {
  const answers: { items: Item[]; probe: Probe; exchange: Exchange }[] = [];
  for (const probe of PROBES) {
    for (const recursive of [false, true]) {
      const { exchange, items } = await list(t, probe, world.top, recursive, wastebin);
      if (!items) continue;
      const expected = expectedIds(world.model[probe.kind][recursive ? 'recursive' : 'flat'], mode);
      // The model's sets differ flat and recursive, and hold only the test folder's content: they show recursive and the folder asked for.
      t.judged(probe.op, 'recursive', ...(probe.op === 'folder.getFolders.post' ? ['id'] : probe.op.endsWith('.list') ? ['folderId'] : []));
      t.record(compareIds(t.requirement, describeQuery(probe.op, recursive, wastebin), idsOf(items), expected, world.names, exchange));
      answers.push({ items, probe, exchange });
    }
  }
  return answers;
}

conformance('WST-01', 'a deleted folder and its content are absent from every listing without wastebin and with exclude', async (t) => {
  const world = await deletedWorld(t);
  // "a deleted item is absent from every listing with `wastebin` absent or `exclude`."
  for (const wastebin of [undefined, 'exclude']) await checkListings(t, world, wastebin, 'exclude');
  // findFiles takes no wastebin: its listing is a default one ("recursive (boolean, true)").
  const found = await t.call('folder.findFiles', { query: { folderId: world.top, query: 'wst-', maxItems: -1 } });
  if (found.body)
    t.record(
      compareIds(
        t.requirement,
        'findFiles query=wst- from the test folder',
        idsOf(found.body.files),
        world.model.files.recursive.live,
        world.names,
        found.exchange,
      ),
    );
  // The fixture's own deleted pages: no default listing may show a record marked deleted. One answer shows it:
  // the registry's WST-01 rule judges every listing this test receives, these among them.
  if (t.config.target.features.includes('pages') && t.fixture.pagesFolderId !== undefined) {
    for (const recursive of [false, true]) await t.call('folder.getPages', { path: { id: t.fixture.pagesFolderId }, query: { recursive } });
  }
  // The channel's view of its whole tree: a data set may hold a deleted master whose localized copy carries no mark of its
  // own (deleted through masterDeleted, contract 3), which no listing of the master meets. Tried; the registry's rule judges it.
  const { channelNodeId, channelRootFolderId } = t.fixture;
  if (t.config.target.features.includes('multichannelling') && channelNodeId !== undefined && channelRootFolderId !== undefined)
    await t.try('folder.getFiles', {
      path: { folderId: channelRootFolderId },
      query: { recursive: true, maxItems: -1, nodeId: channelNodeId },
    });
  // The whole tree searched ("`folderId` (int, 0; 0 searches all folders)", "-1 returns all"): a data set may hold a deleted
  // folder whose content carries no mark of its own, which no listing of the test's folder meets.
  // findFiles and findPages take no wastebin, so the registry's rule leaves them be: their listings are default ones.
  for (const [op, member] of [
    ['folder.findFiles', 'files'],
    ...(t.config.target.features.includes('pages') ? [['folder.findPages', 'pages'] as const] : []),
  ] as const) {
    // Tried, not relied on: `query` is given no default, and a server may want one.
    const { body, exchange } = await t.try(op, { query: { folderId: 0, maxItems: -1 } });
    const marked = listOf<Item>(body, member).filter(isMarkedDeleted);
    if (marked.length)
      t.record([
        finding(
          'WST-01',
          'wastebin',
          `${op} folderId=0 (every folder, no wastebin: a default listing) lists ${brief(marked.map((i) => `${i.id} (${deletionMarks(i).join('/')})`))}, which carry deletion marks`,
          exchange,
        ),
      ]);
  }
  t.expectRuled('WST-01');
});

conformance('WST-02', 'wastebin=include lists live and deleted items, deleted ones carrying deleted with at and by', async (t) => {
  const world = await deletedWorld(t);
  // "`wastebin=include` lists deleted and live items"
  const answers = await checkListings(t, world, 'include', 'include');
  for (const { items, probe, exchange } of answers) {
    for (const item of items) {
      const id = item.id ?? -1;
      const what = `${probe.op} wastebin=include: ${probe.kind === 'folders' ? 'folder' : 'file'} ${id} "${item.name ?? ''}"`;
      const problems: string[] = [];
      if (id === world.deleted) {
        // "deleted ones carry `deleted` with `at` and `by`": the folder the test deleted itself.
        problems.push(
          ...(item.deleted === undefined ? ['carries no deleted member'] : deleteInfoProblems(item.deleted).map((p) => `deleted ${p}`)),
        );
      } else if (world.inside.includes(id)) {
        // Contract 3: inside a deleted folder an item is deleted by a deleted or folderDeleted DeleteInfo.
        if (!isMarkedDeleted(item)) problems.push('lies in the deleted folder but carries no deletion information');
        if (marksDeletion(item.deleted)) problems.push(...deleteInfoProblems(item.deleted).map((p) => `deleted ${p}`));
      } else if (isMarkedDeleted(item)) {
        problems.push(`is live but carries ${deletionMarks(item).join(', ')}`);
      }
      if (problems.length) t.record([finding('WST-02', 'deleteInfo', `${what} ${problems.join('; ')}`, exchange)]);
    }
  }
});

conformance('WST-03', 'wastebin=only lists exactly the deleted folders and files', async (t) => {
  const world = await deletedWorld(t);
  // "`wastebin=only` lists exactly the deleted items."
  await checkListings(t, world, 'only', 'only');
  // The fixture's own deleted content, whatever marks its data gives it: every item of the whole tree listed under
  // wastebin=only must carry one (contract 3: deleted is "a deleted, masterDeleted or folderDeleted DeleteInfo is
  // present"); the registry's WST-03 rule judges these answers.
  for (const probe of PROBES.filter((p) => p.op === 'folder.list' || p.op === 'file.list'))
    await list(t, probe, t.fixture.masterRootFolderId, true, 'only');
  t.expectRuled('WST-03');
});

conformance('WST-03', 'wastebin=only of a sub-folder inside a deleted folder, named by id, lists its files', async (t) => {
  const world = await deletedWorld(t);
  const [inner, , innerFile] = world.inside as [number, number, number];
  // Contract 3: inside a deleted folder an item is deleted (a folderDeleted DeleteInfo marks it): "`wastebin=only` lists exactly
  // the deleted items", in a listing of the inner folder named by id as in one of the test folder. Whether a deleted folder can be
  // named to list its content is open (open choice deleted-folder-by-id): a refusal says nothing to judge.
  for (const probe of PROBES.filter((p) => p.kind === 'files')) {
    const { exchange, body } = await t.try(probe.op, probe.spec(inner, false, 'only'));
    const items = body && itemsOf(probe, body);
    if (!items) {
      if (isRefusal(exchange) && (exchange.response?.status ?? 500) < 500)
        t.nothingToJudge(
          `${probe.op} of folder ${inner}, inside the deleted one, was refused (open choice deleted-folder-by-id)`,
          exchange,
        );
      continue;
    }
    t.record(
      compareIds(
        'WST-03',
        describeQuery(probe.op, false, 'only') + ` of folder ${inner}`,
        idsOf(items),
        [innerFile],
        world.names,
        exchange,
      ),
    );
  }
});

/** The item ids of a listing the fixture answers, under a wastebin mode. */
type FixtureListing = (
  t: ConformanceContext,
  recursive: boolean,
  wastebin: WastebinMode,
) => Promise<{ exchange: Exchange; items: Item[] | undefined }>;

conformance('WST-03', 'wastebin=only and exclude partition the include listing of the fixture', async (t) => {
  const f = t.fixture;
  const features = t.config.target.features;
  // The fixture root's direct children only: the run's sandbox (below the sandbox parent) changes meanwhile.
  const listings: [string, FixtureListing, boolean[]][] = [
    [
      'getFolders of the master root',
      async (t, _r, wastebin) => {
        const r = await t.call('folder.getFolders', { path: { id: f.masterRootFolderId }, query: { wastebin } });
        return { exchange: r.exchange, items: r.body?.folders };
      },
      [false],
    ],
    [
      'getFiles of the master root',
      async (t, _r, wastebin) => {
        const r = await t.call('folder.getFiles', { path: { folderId: f.masterRootFolderId }, query: { wastebin } });
        return { exchange: r.exchange, items: r.body?.files };
      },
      [false],
    ],
  ];
  if (features.includes('pages') && f.pagesFolderId !== undefined) {
    const id = f.pagesFolderId;
    listings.push([
      'getPages of the pages folder',
      async (t, recursive, wastebin) => {
        const r = await t.call('folder.getPages', { path: { id }, query: { recursive, wastebin } });
        return { exchange: r.exchange, items: r.body?.pages };
      },
      [false, true],
    ]);
  }
  if (features.includes('templates') && f.templatesFolderId !== undefined) {
    const id = f.templatesFolderId;
    listings.push([
      'getTemplates of the templates folder',
      async (t, recursive, wastebin) => {
        const r = await t.call('folder.getTemplates', { path: { folderId: id }, query: { recursive, wastebin } });
        return { exchange: r.exchange, items: r.body?.templates as Item[] | undefined };
      },
      [false, true],
    ]);
  }
  for (const [what, listing, depths] of listings) {
    for (const recursive of depths) {
      const [include, exclude, only] = await Promise.all([
        listing(t, recursive, 'include'),
        listing(t, recursive, 'exclude'),
        listing(t, recursive, 'only'),
      ]);
      if (!include.items || !exclude.items || !only.items) continue;
      const label = `${what}${depths.length > 1 ? ` recursive=${recursive}` : ''}`;
      // Template records carry no deletion marks, so only this partition shows what wastebin does to them.
      t.judged('folder.getTemplates', 'wastebin');
      // "lists exactly the deleted items": that every record of `only` is marked deleted, one answer shows (the
      // registry's WST-03 rule); that include (deleted and live) is exactly exclude (live) plus only (deleted), three.
      const union = [...idsOf(exclude.items), ...idsOf(only.items)];
      if (!sameMultiset(idsOf(include.items), union)) {
        const { missing, extra } = setDifference(union, idsOf(include.items));
        t.record([
          finding(
            'WST-03',
            'partition',
            `${label}: wastebin=include (${include.items.length} items) ${brief(idsOf(include.items))} ` +
              `is not exclude ${brief(idsOf(exclude.items))} plus only ${brief(idsOf(only.items))} ` +
              `(${exclude.items.length + only.items.length} items; missing from include ${brief(missing)}, ` +
              `not in exclude or only ${brief(extra)})`,
            include.exchange,
          ),
        ]);
      }
    }
  }
  t.expectRuled('WST-03');
});

/** The counters the model predicts for the test folder; pages and images: the test creates none. */
function predictedCounts(
  world: DeletedWorld,
  recursive: boolean,
  mode: WastebinMode,
): Record<'folders' | 'files' | 'pages' | 'images', number> {
  const depth = recursive ? 'recursive' : 'flat';
  return {
    folders: expectedIds(world.model.folders[depth], mode).length,
    files: expectedIds(world.model.files[depth], mode).length,
    pages: 0,
    images: 0,
  };
}

/** Counts the test folder under a wastebin value and compares with the model's counters for `mode`. */
async function checkCounts(t: ConformanceContext, world: DeletedWorld, wastebin: string | undefined, mode: WastebinMode): Promise<void> {
  for (const recursive of [false, true]) {
    const r = await t.call('folder.count', { path: { id: world.top }, query: { recursive, wastebin } });
    if (!r.body) continue;
    t.judged('folder.count', 'recursive', 'wastebin');
    const expected = predictedCounts(world, recursive, mode);
    const wrong = (Object.keys(expected) as (keyof typeof expected)[]).filter(
      (k) => r.body![k as keyof FolderObjectCountResponse] !== expected[k],
    );
    if (wrong.length) {
      const shown = wrong
        .map((k) => `${k} ${JSON.stringify(r.body![k as keyof FolderObjectCountResponse])} (expected ${expected[k]})`)
        .join(', ');
      t.record([
        finding(
          t.requirement,
          'model',
          `${describeQuery('count', recursive, wastebin)} after deleting one sub-folder: ${shown}`,
          r.exchange,
        ),
      ]);
    }
  }
}

conformance('WST-04', 'folder count leaves deleted folders and files out without wastebin and with exclude', async (t) => {
  const world = await deletedWorld(t);
  // "folder count with `wastebin` absent or `exclude` leaves deleted items out of every counter."
  for (const wastebin of [undefined, 'exclude']) await checkCounts(t, world, wastebin, 'exclude');
});

conformance('WST-04a', 'folder count with include counts live and deleted items and with only exactly the deleted ones', async (t) => {
  const world = await deletedWorld(t);
  // "folder count with `wastebin=include` counts deleted and live items, with `wastebin=only` exactly the deleted ones."
  for (const mode of ['include', 'only'] as const) await checkCounts(t, world, mode, mode);
});

conformance('WST-05', 'items inside a deleted folder listed with include carry folderDeleted', async (t) => {
  const world = await deletedWorld(t);
  let carried = 0;
  for (const probe of PROBES) {
    const { exchange, items } = await list(t, probe, world.top, true, 'include');
    for (const item of items ?? []) {
      const id = item.id ?? -1;
      const what =
        `${probe.op} recursive=true wastebin=include: ` + `${probe.kind === 'folders' ? 'folder' : 'file'} ${id} "${item.name ?? ''}"`;
      // "items inside a deleted folder, listed with include, carry `folderDeleted`" ("Deletion information about the containing
      // folder"). Contract 3: deleted is "a deleted, masterDeleted or folderDeleted DeleteInfo is present", and the delete puts
      // what is inside the folder in the wastebin too (reference notes): an item there may carry its own deleted mark alone
      // (open choice content-deletion-mark). folderDeleted is judged where it is carried.
      if (world.inside.includes(id)) {
        const at = item.folderDeleted?.at;
        if (item.folderDeleted !== undefined) carried++;
        if (!isMarkedDeleted(item))
          t.record([
            finding(
              'WST-05',
              'folderDeleted',
              `${what} lies in the deleted folder but carries no deletion mark: folderDeleted ${JSON.stringify(item.folderDeleted)}, ` +
                `deleted ${JSON.stringify(item.deleted)}`,
              exchange,
            ),
          ]);
        else if (item.folderDeleted === undefined) continue;
        else if (!marksDeletion(item.folderDeleted))
          t.record([
            finding(
              'WST-05',
              'folderDeleted',
              `${what} lies in the deleted folder but carries folderDeleted ${JSON.stringify(item.folderDeleted)}, which marks no deletion`,
              exchange,
            ),
          ]);
        else if (typeof at !== 'number' || !Number.isInteger(at))
          t.record([
            finding(
              'WST-05',
              'folderDeleted',
              `${what} carries folderDeleted without an integer at: ${JSON.stringify(item.folderDeleted)}`,
              exchange,
            ),
          ]);
      } else if (marksDeletion(item.folderDeleted)) {
        t.record([
          finding(
            'WST-05',
            'folderDeleted',
            `${what} does not lie in a deleted folder but carries folderDeleted ${JSON.stringify(item.folderDeleted)}`,
            exchange,
          ),
        ]);
      }
    }
    if (items && !idsOf(items).some((id) => world.inside.includes(id))) {
      t.record([
        finding(
          'WST-05',
          'model',
          `${probe.op} recursive=true wastebin=include lists none of the ${probe.kind} inside the deleted folder`,
          exchange,
        ),
      ]);
    }
  }
  if (!carried)
    t.nothingToJudge('no item inside the deleted folder carries folderDeleted: what it says of the containing folder is not judged');
});

/** Strings that are not one of the three wastebin values in any spelling. */
function unknownWastebin(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom('all', 'none', 'true', 'false', '1', '0', 'deleted', 'wastebin', 'excluded', 'onlyDeleted', '*', '%', 'include,only'),
      fc.string({ maxLength: 12 }),
    )
    .filter((v) => !['exclude', 'include', 'only'].includes(v.trim().toLowerCase()));
}

conformance('WST-06', 'an unknown wastebin value is refused or answered as exclude, never a 5xx', async (t) => {
  const world = await deletedWorld(t);
  await t.property(
    unknownWastebin(),
    async (value) => {
      const findings: Finding[] = [];
      for (const probe of PROBES) {
        // Tried, not relied on: a refusal is an answer the requirement allows, not a failed step.
        const { exchange } = await t.try(probe.op, probe.spec(world.top, true, value));
        // "an unknown `wastebin` value is refused or treated as `exclude`; never a 5xx."
        const handled = checkHandled(exchange, 'WST-06');
        if (handled.length || isRefusal(exchange)) {
          findings.push(...handled);
          continue;
        }
        const items = itemsOf(probe, exchange.response!.json);
        const expected = expectedIds(world.model[probe.kind].recursive, 'exclude');
        findings.push(
          ...compareIds(
            'WST-06',
            `${describeQuery(probe.op, true, value)} was served, so it must answer as exclude`,
            idsOf(items),
            expected,
            world.names,
            exchange,
          ),
        );
      }
      const { exchange: counted } = await t.try('folder.count', { path: { id: world.top }, query: { recursive: true, wastebin: value } });
      const handled = checkHandled(counted, 'WST-06');
      findings.push(...handled);
      if (!handled.length && !isRefusal(counted)) {
        const body = counted.response!.json as FolderObjectCountResponse;
        const expected = predictedCounts(world, true, 'exclude');
        if (body.folders !== expected.folders || body.files !== expected.files) {
          findings.push(
            finding(
              'WST-06',
              'model',
              `${describeQuery('count', true, value)} was served, so it must count as exclude: ` +
                `folders ${body.folders} (expected ${expected.folders}), files ${body.files} (expected ${expected.files})`,
              counted,
            ),
          );
        }
      }
      return findings;
      // Half the runs: every probe meets each value, and a value's class (a word, a list, a case variant, a random string)
      // recurs within ten.
    },
    { runs: Math.ceil(t.config.runs / 2) },
  );
});
