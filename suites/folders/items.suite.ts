/**
 * Folders (FLD), a folder's content other than its sub-folders and pages: getItems (FLD-07) and getTemplates with
 * recursive and reduce (FLD-08), on the test's folders and the fixture's templates.
 */
import { SetupError } from '../../harness/api.ts';
import { finding } from '../../harness/checks.ts';
import { descendantsOf, fixtureTree, hasFeature } from '../../harness/fixture.ts';
import { brief, duplicates, idsOf, setDifference } from '../../harness/oracles.ts';
import { listOf } from '../../harness/records.ts';
import { createFolderStep, uploadFileStep } from '../../harness/steps.ts';
import { conformance } from '../../harness/suite.ts';
import type { Item, Page } from '../../schemas/types.ts';

conformance(
  'FLD-08',
  "getTemplates with recursive lists the templates linked into the folder's sub-folders too",
  async (t) => {
    // The sub-folders of each fixture folder as the listings show them (a record's motherId may be left out: 2.1), without the
    // folders holding the sandbox, whose sub-folders other tests create while this one reads.
    const tree = await fixtureTree(t, t.fixture.masterRootFolderId);
    // A bounded look, as in fixtureFileFolders: the first folders, judged only where every sub-folder is among them.
    const looked = tree.folders.slice(0, 40).filter((f) => !tree.holdingSandbox.has(f.id!));
    const own = new Map<number, number[]>();
    for (const f of looked) own.set(f.id!, idsOf((await t.must('folder.getTemplates', { path: { folderId: f.id! } })).templates));
    let telling = 0;
    for (const f of looked) {
      const below = descendantsOf(tree, f.id!);
      if (!below.length || below.some((d) => !own.has(d)) || [f.id!, ...below].some((d) => tree.unread.has(d))) continue;
      const union = [...new Set([...own.get(f.id!)!, ...below.flatMap((d) => own.get(d)!)])];
      if (union.length === own.get(f.id!)!.length) continue;
      telling++;
      const r = await t.call('folder.getTemplates', { path: { folderId: f.id! }, query: { recursive: true } });
      if (!r.body) continue;
      // Group F "recursive (boolean, false): fetch recursively": the templates linked into the folder or any folder below it.
      const { missing, extra } = setDifference(union, [...new Set(idsOf(r.body.templates))]);
      if (missing.length || extra.length)
        t.record([
          finding(
            'FLD-08',
            'recursive',
            `getTemplates of folder ${f.id} with recursive leaves out ${brief(missing)} and adds ${brief(extra)}; the folder and its ` +
              `${below.length} sub-folders have ${brief(union, 20)} linked`,
            r.exchange,
          ),
        ]);
    }
    if (!telling) return t.nothingToJudge('no fixture folder has a template linked into a sub-folder that is not linked into the folder');
    t.judged('folder.getTemplates', 'recursive');
  },
  { operation: 'folder.getTemplates' },
);

/** What is wrong with the common item fields of a getItems record: id, cdate and edate required (2.2), the others typed where carried. */
function itemProblems(item: Item): string[] {
  return [
    ...(typeof item.id === 'number' && Number.isInteger(item.id) ? [] : ['id']),
    ...(Number.isInteger(item.cdate) ? [] : ['cdate']),
    ...(Number.isInteger(item.edate) ? [] : ['edate']),
    ...(['name', 'type', 'globalId'] as const).filter((m) => item[m] !== undefined && typeof item[m] !== 'string'),
  ];
}

conformance('FLD-07', 'getItems returns the common item fields for the content of a folder', async (t) => {
  const top = await t.folder();
  const sub = await createFolderStep(t, top, 'Sub');
  const files = await Promise.all(['items-a.txt', 'items-b.txt'].map((n) => uploadFileStep(t, top, n, `${n}\n`, 'text/plain')));
  // Content of the sub-folder, not of the folder.
  const inner = await uploadFileStep(t, sub.id, 'items-inner.txt', 'inner\n', 'text/plain');
  const r = await t.call('folder.getItems', { path: { folderId: top } });
  if (!r.body) return;
  const items = listOf<Item>(r.body, 'items');
  // "records with the common item fields": the required cdate and edate (2.2) and the id an item is known by; the other fields where
  // carried (2.1: which a record carries is not shown).
  for (const item of items) {
    const wrong = itemProblems(item);
    const fields = { id: item.id, name: item.name, type: item.type, cdate: item.cdate, edate: item.edate, globalId: item.globalId };
    if (wrong.length)
      t.record([finding('FLD-07', 'fields', `getItems item ${JSON.stringify(fields)} lacks or mistypes ${wrong.join(', ')}`, r.exchange)]);
  }
  // "... for the folder's content": nothing from elsewhere, the sub-folder's file included.
  const foreign = idsOf(items).filter((id) => id !== sub.id && !files.some((f) => f.id === id));
  if (foreign.length)
    t.record([
      finding(
        'FLD-07',
        'content',
        `getItems of folder ${top} lists items ${brief(foreign)} that are not in it${foreign.includes(inner.id!) ? ` (${inner.id} is in its sub-folder ${sub.id})` : ''}`,
        r.exchange,
      ),
    ]);
  // Which kinds getItems lists when asked for none is not shown (open choice getitems-kinds): the test's files, where it lists files,
  // named and typed as files where it says so.
  if (!items.some((i) => i.type === 'file' || files.some((f) => f.id === i.id)))
    t.nothingToJudge(`getItems of folder ${top} lists none of its files (open choice getitems-kinds)`, r.exchange);
  else
    for (const file of files) {
      const item = items.find((i) => i.id === file.id);
      if (!item || (item.name !== undefined && item.name !== file.name) || (item.type !== undefined && item.type !== 'file'))
        t.record([
          finding(
            'FLD-07',
            'content',
            `getItems of folder ${top} lists ${JSON.stringify(item ? { id: item.id, name: item.name, type: item.type } : null)} ` +
              `for its file ${file.id} "${file.name}"`,
            r.exchange,
          ),
        ]);
    }
  if (hasFeature(t, 'pages') && t.fixture.pagesFolderId !== undefined) {
    const pages = await t.call('folder.getPages', { path: { id: t.fixture.pagesFolderId } });
    const fixtureItems = await t.call('folder.getItems', { path: { folderId: t.fixture.pagesFolderId } });
    if (pages.body && fixtureItems.body) {
      const listed = listOf<Item>(fixtureItems.body, 'items');
      const pageIds = idsOf(pages.body.pages);
      if (!listed.some((i) => i.type === 'page' || pageIds.includes(i.id!))) {
        // FLD-07 "getItems returns records ... for the folder's content": whichever kinds it lists when asked for none, every
        // reading lists something of a folder holding a sub-folder and files, or of one holding pages (open choice getitems-kinds).
        if (!items.length && !listed.length && pageIds.length)
          t.record([
            finding(
              'FLD-07',
              'content',
              `getItems lists no item of folder ${top} (a sub-folder and two files) nor of the pages folder ${t.fixture.pagesFolderId} ` +
                `(${pageIds.length} pages in getPages): of every kind it could list when asked for none, it lists none`,
              fixtureItems.exchange,
            ),
          ]);
        else
          t.nothingToJudge(`getItems of the pages folder ${t.fixture.pagesFolderId} lists none of its pages (open choice getitems-kinds)`);
      } else {
        const missing = listOf<Page>(pages.body, 'pages').filter(
          (p) => !listed.some((i) => i.id === p.id && (i.type === undefined || i.type === 'page')),
        );
        if (missing.length)
          t.record([
            finding(
              'FLD-07',
              'content',
              `getItems of the pages folder ${t.fixture.pagesFolderId} lacks pages (type page) that getPages lists: ` +
                `${brief(missing.map((p) => `${p.id} ${p.name}`))}`,
              fixtureItems.exchange,
            ),
          ]);
      }
    }
  }
});

conformance('FLD-08', "getTemplates of the fixture's templates folder lists templates linked into it", async (t) => {
  const folderId = t.fixture.templatesFolderId;
  if (folderId === undefined) {
    t.record([finding('FLD-08', 'step', 'the target declares templates but its fixture names no templatesFolderId')]);
    throw new SetupError('no templates folder in the fixture');
  }
  // The target names "a folder with templates linked into it" (feature templates: "the target's fixture provides them"),
  // and getTemplates "lists the templates linked into the folder": an empty answer denies either.
  const r = await t.call('folder.getTemplates', { path: { folderId } });
  if (r.body && !(r.body.templates ?? []).length)
    t.record([
      finding(
        'FLD-08',
        'linked',
        `getTemplates of folder ${folderId}, which the target names as its folder with templates linked into it, lists no template`,
        r.exchange,
      ),
    ]);
});

conformance('FLD-08', 'getTemplates with reduce and recursive lists each template of the recursive listing once', async (t) => {
  const top = await t.folder();
  const sub = await createFolderStep(t, top, 'Sub');
  await createFolderStep(t, sub.id!, 'Sub sub');
  // A fixture folder holding the sandbox has sub-folders other tests create while the three listings are read: left out.
  const { holdingSandbox } = await fixtureTree(t, t.fixture.masterRootFolderId);
  const folders = [t.fixture.templatesFolderId, hasFeature(t, 'pages') ? t.fixture.pagesFolderId : undefined, top].filter(
    (id): id is number => id !== undefined && !holdingSandbox.has(id) && id !== t.fixture.sandboxParentFolderId,
  );
  for (const folderId of new Set(folders)) {
    const [flat, recursive, reduced] = await Promise.all([
      t.call('folder.getTemplates', { path: { folderId } }),
      t.call('folder.getTemplates', { path: { folderId }, query: { recursive: true } }),
      t.call('folder.getTemplates', { path: { folderId }, query: { recursive: true, reduce: true } }),
    ]);
    if (!flat.body || !recursive.body || !reduced.body) continue;
    const [n, r, u] = [idsOf(flat.body.templates), idsOf(recursive.body.templates), idsOf(reduced.body.templates)];
    t.judged('folder.getTemplates', 'reduce');
    // "`reduce=true` with `recursive` lists each template once."
    if (duplicates(u).length)
      t.record([
        finding(
          'FLD-08',
          'reduce',
          `getTemplates of folder ${folderId} recursive with reduce lists templates ${brief(duplicates(u))} ` +
            `more than once: ${brief(u, 20)}`,
          reduced.exchange,
        ),
      ]);
    const { missing, extra } = setDifference([...new Set(r)], [...new Set(u)]);
    if (missing.length || extra.length)
      t.record([
        finding(
          'FLD-08',
          'reduce',
          `getTemplates of folder ${folderId}: reduce leaves out ${brief(missing)} and adds ${brief(extra)} ` +
            `compared with the recursive listing ${brief([...new Set(r)], 20)}`,
          reduced.exchange,
        ),
      ]);
    // "lists the templates linked into the folder": the folder's own templates are among the recursive ones.
    const lost = n.filter((id) => !r.includes(id));
    if (lost.length)
      t.record([
        finding(
          'FLD-08',
          'recursive',
          `getTemplates of folder ${folderId} recursive lacks templates ${brief(lost)} linked into the folder itself`,
          recursive.exchange,
        ),
      ]);
  }
});
