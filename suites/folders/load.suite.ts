/**
 * Folders (FLD), one folder read: its breadcrumb (FLD-05) and load's options, privileges, package, construct and update
 * (FLD-11).
 */
import { finding } from '../../harness/checks.ts';
import { brief, idsOf } from '../../harness/oracles.ts';
import { flag } from '../../harness/records.ts';
import { createTreeStep } from '../../harness/steps.ts';
import { conformance } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { Folder } from '../../schemas/types.ts';
import { carriesPrivileges, privilegesOf } from './privileges.ts';

/**
 * The ancestors a breadcrumb names, root side first: its ids read in whichever direction makes `fits` true (open choice
 * breadcrumb-order), the folder itself left out where it ends them. Undefined when neither direction fits.
 */
function ancestorsIn(ids: readonly number[], folder: number, fits: (above: number[]) => boolean): number[] | undefined {
  for (const chain of [[...ids], [...ids].reverse()]) {
    const above = chain.at(-1) === folder ? chain.slice(0, -1) : chain;
    if (!above.includes(folder) && new Set(above).size === above.length && fits(above)) return above;
  }
  return undefined;
}

conformance('FLD-05', "breadcrumb lists the chain of the folder's ancestors, the root's end first or the folder's", async (t) => {
  const top = await t.folder();
  const { ids } = await createTreeStep(t, top, [
    ['Level one', null],
    ['Level two', 'Level one'],
    ['Level three', 'Level two'],
  ]);
  // The chain the test knows, from the sandbox parent (the target's folder) down to the deepest folder: each the mother of the next.
  const path = [
    t.fixture.sandboxParentFolderId,
    t.config.sandboxFolderId,
    await t.sandbox(),
    top,
    ...['Level one', 'Level two', 'Level three'].map((n) => ids.get(n)!),
  ];
  const crumbs = new Map<number, { ids: number[]; folders: Folder[]; hasMoreItems: unknown; exchange: Exchange }>();
  for (const id of path.slice(-2)) {
    const r = await t.call('folder.breadcrumb', { path: { id } });
    if (r.body)
      crumbs.set(id, {
        ids: idsOf(r.body.folders),
        folders: r.body.folders ?? [],
        hasMoreItems: r.body.hasMoreItems,
        exchange: r.exchange,
      });
  }
  const deepest = crumbs.get(path.at(-1)!);
  if (!deepest) return;
  // The breadcrumb has "the `LegacyFolderListResponse` shape", whose `hasMoreItems` is true exactly when items exist beyond the
  // returned slice (PAG-05); it lists the whole chain, so none follow.
  if (deepest.hasMoreItems === true)
    t.record([
      finding(
        'FLD-05',
        'complete',
        `breadcrumb of folder ${path.at(-1)} lists ${deepest.ids.length} folders and says hasMoreItems true`,
        deepest.exchange,
      ),
    ]);
  // "breadcrumb lists the folders from the root down to the folder" (FLD-05): the chain of the folder's ancestors, unbroken. Its
  // parameters and order are not shown (open choice breadcrumb-order): read either way, with or without the root and the folder.
  const root = t.fixture.masterRootFolderId;
  // Ancestors that end with the known ones; where the sandbox parent is the root, the root may be left out.
  const endsWith = (known: number[]) => (above: number[]) =>
    JSON.stringify(above.slice(-known.length)) === JSON.stringify(known) ||
    (known[0] === root && JSON.stringify(above) === JSON.stringify(known.slice(1)));
  const known = path.slice(0, -1);
  const above = ancestorsIn(deepest.ids, path.at(-1)!, endsWith(known));
  if (!above) {
    t.record([
      finding(
        'FLD-05',
        'chain',
        `breadcrumb of folder ${path.at(-1)} is ${brief(deepest.ids, 12)}; its ancestors, read from either end, end ${brief(known, 12)}`,
        deepest.exchange,
      ),
    ]);
    return;
  }
  // Above the sandbox parent the test knows no mothers but those the records name.
  const byId = new Map(deepest.folders.map((f) => [f.id, f]));
  const broken = above
    .slice(1)
    .map((id, i) => ({ f: byId.get(id), mother: above[i]! }))
    .filter(({ f }) => f?.motherId !== undefined)
    .filter(({ f, mother }) => f!.motherId !== mother);
  if (broken.length)
    t.record([
      finding(
        'FLD-05',
        'chain',
        `breadcrumb of folder ${path.at(-1)}: ${brief(broken.map(({ f, mother }) => `${f!.id} has motherId ${f!.motherId}, not ${mother}`))}`,
        deepest.exchange,
      ),
    ]);
  // The mother's ancestors are the folder's without the mother.
  const mother = crumbs.get(path.at(-2)!);
  const motherAbove = mother && ancestorsIn(mother.ids, path.at(-2)!, endsWith(path.slice(0, -2)));
  if (mother && JSON.stringify(motherAbove) !== JSON.stringify(above.slice(0, -1))) {
    t.record([
      finding(
        'FLD-05',
        'chain',
        `breadcrumb of folder ${path.at(-2)} is ${brief(mother.ids, 12)}, ` +
          `but that of its sub-folder ${path.at(-1)} is ${brief(deepest.ids, 12)}`,
        mother.exchange,
      ),
    ]);
  }
});

conformance('FLD-11', 'load with privileges=true adds the privileges', async (t) => {
  const top = await t.folder();
  for (const id of [top, t.fixture.sandboxParentFolderId]) {
    const r = await t.call('folder.load', { path: { id }, query: { privileges: true } });
    t.judged('folder.load', 'privileges');
    const folder = r.body?.folder;
    // "load with `privileges=true` adds `privileges`": load's "`privileges` (boolean, false)" has no stated meaning, so the folder
    // record's privileges in any of its members for them (open choice privileges-members), whichever privileges they are.
    if (r.body && (!folder || !carriesPrivileges(folder))) {
      t.record([
        finding(
          'FLD-11',
          'privileges',
          `load of folder ${id} with privileges=true answers ${JSON.stringify(folder && privilegesOf(folder))}: ` +
            'no privileges, privilegeBits or privilegeMap',
          r.exchange,
        ),
      ]);
    }
  }
});

conformance('FLD-11', 'load with package answers the status in that staging package', async (t) => {
  const pkg = t.fixture.stagingPackage;
  if (!pkg) return t.nothingToJudge('the target file declares no staging package (/fixture/stagingPackage)');
  // The declared folders are in the package; a folder this run made cannot be.
  const cases = [...pkg.folderIds.slice(0, 2).map((id) => ({ id, included: true })), { id: await t.folder(), included: false }];
  // A package the target does not declare: whether it is refused or answered is not shown (a refusal is no step that failed),
  // but never with a server error (the judge's ENV-08).
  await t.try('folder.load', { path: { id: pkg.folderIds[0]! }, query: { package: `${pkg.name} (not declared)` } });
  for (const { id, included } of cases) {
    const r = await t.call('folder.load', { path: { id }, query: { package: pkg.name } });
    if (!r.body) continue;
    t.judged('folder.load', 'package');
    const status = r.body.stagingStatus;
    // Whether a load answer carries stagingStatus is not shown (2.1; FIL-04 as restated).
    if (status === undefined) {
      t.nothingToJudge(`load of folder ${id} with package=${pkg.name} answers no stagingStatus`, r.exchange);
      continue;
    }
    // folder load: "package (string; staging package to check the status in)"; stagingStatus: "{packageName (string), included
    // (boolean)}": the status of the folder in that package, so a package named is that one. An absent included is false (2.1).
    if (flag(status, 'included') !== included || (status.packageName !== undefined && status.packageName !== pkg.name))
      t.record([
        finding(
          'FLD-11',
          'package',
          `load of folder ${id} with package=${pkg.name} answers stagingStatus ${JSON.stringify(status ?? null)}; ` +
            `expected included ${included} in package ${pkg.name} (${included ? 'declared in it by the target file' : 'a folder this run made'})`,
          r.exchange,
        ),
      ]);
  }
});

conformance('FLD-11', 'load with construct=true adds the construct to every tag of the folder', async (t) => {
  const folders = [t.fixture.sandboxParentFolderId, t.fixture.pagesFolderId, t.fixture.templatesFolderId].filter(
    (id): id is number => id !== undefined,
  );
  let tags = 0;
  for (const id of [...new Set(folders)]) {
    const r = await t.call('folder.load', { path: { id }, query: { construct: true } });
    const found = Object.entries(r.body?.folder?.tags ?? {});
    tags += found.length;
    // folder load: "construct (boolean, false; add construct info to tags)"; a tag's construct is the one its constructId names.
    const bare = found.filter(
      ([, tag]) =>
        typeof tag.construct !== 'object' ||
        (tag.constructId !== undefined && tag.construct.id !== undefined && tag.construct.id !== tag.constructId),
    );
    if (bare.length)
      t.record([
        finding(
          'FLD-11',
          'construct',
          `load of folder ${id} with construct=true answers the tags ${brief(bare.map(([name]) => name))} without their construct`,
          r.exchange,
        ),
      ]);
  }
  if (!tags) return t.nothingToJudge('no folder of the fixture that the suite knows carries a tag');
  t.judged('folder.load', 'construct');
});

conformance('FLD-11', 'load with update=true does not lock the folder', async (t) => {
  const top = await t.folder();
  // "`update` ... set true when the folder is fetched for modification; folders are not locked."
  for (let i = 1; i <= 2; i++) {
    const { exchange: r, problem } = await t.try('folder.load', { path: { id: top }, query: { update: true } });
    if (problem) t.record([finding('FLD-11', 'lock', `load number ${i} of folder ${top} with update=true: ${problem}`, r)]);
  }
  const { exchange: created, problem } = await t.try('folder.create', { json: { motherId: String(top), name: 'After update load' } });
  if (problem)
    t.record([finding('FLD-11', 'lock', `creating a sub-folder in folder ${top} after loading it with update=true: ${problem}`, created)]);
});
