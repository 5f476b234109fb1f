/**
 * Folders (FLD), create: a folder made under its mother, listed by it and loadable (FLD-01), with the members sent,
 * and failOnDuplicate refusing a sibling's name (FLD-02).
 */
import { folderName, textClasses } from '../../generators/faker.ts';
import { checkRefused, finding, type Finding } from '../../harness/checks.ts';
import { brief, idsOf, sameMultiset, setDifference } from '../../harness/oracles.ts';
import { isRecord } from '../../harness/rules/answer.ts';
import { idOf } from '../../harness/api.ts';
import { attempt, createFolderStep, deleteFolderStep } from '../../harness/steps.ts';
import { conformance, novelClasses } from '../../harness/suite.ts';

conformance('FLD-01', 'create makes a folder under the mother, listed by it and loadable by id and by globalId', async (t) => {
  t.judged('folder.create', 'name', 'motherId');
  let withoutGlobalId: number | undefined;
  await t.property(
    folderName(),
    async (name) => {
      // A mother of its own per case: no name an earlier case created can meet this one (renamed, or refused as a duplicate).
      const top = await t.folder();
      const created = await attempt(t, 'folder.create', { json: { motherId: String(top), name } });
      const folder = created.body?.folder;
      if (!folder)
        return created.findings.length
          ? created.findings
          : [finding('FLD-01', 'create', 'the FolderLoadResponse carries no folder', created.exchange)];
      const out: Finding[] = [];
      // "create makes a folder under `motherId`, returned in FolderLoadResponse": the members the record carries say so (2.1: which
      // it carries is not shown, but id is what the folder is known by).
      if (
        typeof folder.id !== 'number' ||
        (folder.name !== undefined && folder.name !== name) ||
        (folder.motherId !== undefined && folder.motherId !== top)
      ) {
        out.push(
          finding(
            'FLD-01',
            'create',
            `created ${JSON.stringify({ name })} under ${top}, ` +
              `answered folder ${JSON.stringify({ id: folder.id, name: folder.name, motherId: folder.motherId })}`,
            created.exchange,
          ),
        );
        return out;
      }
      // "listed by the mother"
      const listed = await attempt(t, 'folder.getFolders', { path: { id: top } });
      out.push(...listed.findings);
      const entry = listed.body?.folders?.find((f) => f.id === folder.id);
      if (listed.body && (!entry || (entry.name !== undefined && entry.name !== name)))
        out.push(
          finding(
            'FLD-01',
            'listing',
            `getFolders of the mother ${top} lists ${JSON.stringify(entry ?? null)} for the new folder ${folder.id} "${name}"`,
            listed.exchange,
          ),
        );
      // "loadable by id and globalId"
      const byId = await attempt(t, 'folder.load', { path: { id: folder.id } });
      out.push(...byId.findings);
      const loaded = byId.body?.folder;
      if (byId.body && (loaded?.id !== folder.id || (loaded.name !== undefined && loaded.name !== name)))
        out.push(
          finding(
            'FLD-01',
            'load',
            `load of ${folder.id} answers folder ${JSON.stringify({ id: loaded?.id, name: loaded?.name })}`,
            byId.exchange,
          ),
        );
      const globalId = [folder.globalId, entry?.globalId, loaded?.globalId].find((g) => typeof g === 'string');
      // Whether a folder record carries globalId is not shown (2.1): without one there is no global id to load it by.
      if (globalId === undefined) {
        withoutGlobalId = folder.id;
        return out;
      }
      const byGlobal = await attempt(t, 'folder.load', { path: { id: globalId } });
      out.push(...byGlobal.findings);
      if (byGlobal.body && byGlobal.body.folder?.id !== folder.id)
        out.push(
          finding(
            'FLD-01',
            'load',
            `load by globalId ${globalId} answers folder ${byGlobal.body.folder?.id}, not ${folder.id}`,
            byGlobal.exchange,
          ),
        );
      return out;
    },
    // A name of the same character classes as an earlier one meets the same code: each class once.
    { novel: novelClasses(textClasses) },
  );
  if (withoutGlobalId !== undefined)
    t.nothingToJudge(`folder ${withoutGlobalId}, created, listed and loaded, carries no globalId to load it by`);
});

conformance('FLD-01', 'the created folder, loaded back, has the description, publish directory and translations sent', async (t) => {
  const top = await t.folder();
  // Values the server would not choose itself: a publish directory unlike the one derived from the mother and the name.
  // Sent as the deployed server normalises it (reference notes: it starts and ends with /).
  const sent = {
    description: 'Described by the conformance suite',
    publishDir: `/fld01-${top}/elsewhere/`,
    nameI18n: { en: 'Described', de: 'Beschrieben' },
    descriptionI18n: { en: 'Described in English', de: 'Auf Deutsch beschrieben' },
    publishDirI18n: { en: `/fld01-${top}/en/`, de: `/fld01-${top}/de/` },
  };
  const created = await t.must('folder.create', { json: { motherId: String(top), name: 'Described', ...sent } });
  const id = created.folder?.id;
  if (id === undefined) return void t.record([finding('FLD-01', 'create', 'the FolderLoadResponse carries no folder id')]);
  const loaded = await t.call('folder.load', { path: { id } });
  const folder = loaded.body?.folder;
  if (!folder) return;
  // The I18n maps are not claimed: a folder record may leave them out (2.1), and a member that is not there tells nothing of what
  // was sent (schemas/parameter-effects.json).
  t.judged('folder.create', 'description', 'publishDir');
  // FolderCreateRequest "publishDir (string), description (string), ... nameI18n, descriptionI18n, publishDirI18n (map string to
  // string)" are the Folder record's fields of the same names (contract 2.3): the folder created carries what was sent. Which of
  // them a record carries is not shown (2.1): each one it carries is judged. A publish directory compares by its segments, as
  // servers normalise its slashes (reference notes: "`publishDir` is normalised to start and end with `/`").
  const dir = (value: unknown) => (typeof value === 'string' ? value.split('/').filter(Boolean).join('/') : value);
  const equal = (a: unknown, b: unknown) => a === b;
  const sameDir = (a: unknown, b: unknown) => dir(a) === dir(b);
  const sameMap = (same: (a: unknown, b: unknown) => boolean) => (got: unknown, want: unknown) =>
    isRecord(got) && Object.entries(want as Record<string, string>).every(([language, value]) => same(got[language], value));
  const members: [key: string, got: unknown, want: unknown, same: (a: unknown, b: unknown) => boolean][] = [
    ['description', folder.description, sent.description, equal],
    ['publishDir', folder.publishDir, sent.publishDir, sameDir],
    ['nameI18n', folder.nameI18n, sent.nameI18n, sameMap(equal)],
    ['descriptionI18n', folder.descriptionI18n, sent.descriptionI18n, sameMap(equal)],
    ['publishDirI18n', folder.publishDirI18n, sent.publishDirI18n, sameMap(sameDir)],
  ];
  const carried = members.filter(([, got]) => got !== undefined);
  if (!carried.length)
    return t.nothingToJudge(`folder ${id}, loaded, carries none of description, publishDir and the I18n maps`, loaded.exchange);
  const wrong = carried
    .filter(([, got, want, same]) => !same(got, want))
    .map(([key, got, want]) => `${key} ${JSON.stringify(got)} (sent ${JSON.stringify(want)})`);
  if (wrong.length)
    t.record([finding('FLD-01', 'create', `folder ${id}, created with them, loads with ${wrong.join(', ')}`, loaded.exchange)]);
});

conformance('FLD-02', 'create with failOnDuplicate refuses a name a sibling has and creates nothing', async (t) => {
  await t.property(
    folderName(),
    async (name) => {
      // A mother of its own per case: the first create meets no name of an earlier case.
      const top = await t.folder();
      const first = await attempt(t, 'folder.create', { json: { motherId: String(top), name } });
      if (!first.body?.folder)
        return first.findings.length
          ? first.findings
          : [finding('FLD-02', 'step', 'the FolderLoadResponse carries no folder', first.exchange)];
      // The name the folder got, where the answer says it (2.1: which members a record carries is not shown), else the name sent.
      const taken = typeof first.body.folder.name === 'string' ? first.body.folder.name : name;
      const before = await attempt(t, 'folder.getFolders', { path: { id: top } });
      if (!before.body) return before.findings;
      const { exchange: duplicate } = await t.try('folder.create', { json: { motherId: String(top), name: taken, failOnDuplicate: true } });
      t.judged('folder.create', 'failOnDuplicate');
      // "`failOnDuplicate=true` refuses a name already used by a sibling"
      const out = checkRefused(duplicate, 'FLD-02', `a sibling named ${JSON.stringify(taken)} exists and failOnDuplicate is true`);
      // "... and creates nothing"
      const after = await attempt(t, 'folder.getFolders', { path: { id: top } });
      out.push(...after.findings);
      if (after.body && !sameMultiset(idsOf(before.body.folders), idsOf(after.body.folders))) {
        const { extra } = setDifference(idsOf(before.body.folders), idsOf(after.body.folders));
        out.push(
          finding(
            'FLD-02',
            'unchanged',
            `after the refused duplicate ${JSON.stringify(taken)}, the mother lists new folders ${brief(extra)}`,
            after.exchange,
          ),
        );
      }
      return out;
    },
    { runs: Math.min(t.config.runs, 10), novel: novelClasses(textClasses) },
  );
});

conformance(
  'FLD-01',
  'a folder created under a deleted folder is refused, or listed there by default',
  async (t) => {
    const top = await t.folder();
    const doomed = (await createFolderStep(t, top, 'fld01-deleted-mother')).id;
    await deleteFolderStep(t, doomed);
    const findings: Finding[] = [];
    // FLD-01: "create makes a folder under `motherId`, returned in FolderLoadResponse, listed by the mother"; a folder made
    // inside a deleted one would be a deleted item, which leaves every default listing (WST-01): a server refuses, or makes
    // the folder where its mother lists it. The contract does not say which refusal (7).
    const created = await t.try('folder.create', { json: { motherId: String(doomed), name: 'fld01-under-deleted' } });
    const made = idOf(created.body?.folder?.id);
    if (made !== undefined) {
      const listed = await t.try('folder.getFolders', { path: { id: doomed } });
      if (!idsOf(listed.body?.folders).includes(made))
        findings.push(
          finding(
            'FLD-01',
            'model',
            `POST /folder/create under folder ${doomed}, which was deleted, made folder ${made}, yet GET /folder/getFolders/${doomed} ` +
              `(wastebin absent) ${listed.body ? `lists ${brief(idsOf(listed.body.folders))}` : 'is refused'}: refuse it, or list it there`,
            listed.exchange,
          ),
        );
    }
    t.record(findings);
  },
  { feature: 'wastebin', operation: 'folder.create' },
);
