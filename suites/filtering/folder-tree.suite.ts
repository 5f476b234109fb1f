/**
 * Filtering (FLT), in a folder tree: the `search` of a getFolders tree answer, GET and POST (FLT-01), on a tree the test
 * creates.
 */
import { finding } from '../../harness/checks.ts';
import { brief, idsOf, setDifference } from '../../harness/oracles.ts';
import { listOf } from '../../harness/records.ts';
import { createFolderStep, createTreeStep } from '../../harness/steps.ts';
import { conformance } from '../../harness/suite.ts';
import type { Folder } from '../../schemas/types.ts';

conformance(
  'FLT-01',
  'a tree answer of getFolders, GET and POST, applies search to its top level',
  async (t) => {
    const top = await t.folder();
    // Kept matches the term by its name and Noted by its description; Dropped does not. Below Kept, one child matches and one does
    // not, and the grandchild below the match does not either.
    const { model, ids } = await createTreeStep(t, top, [
      ['Kept', null],
      ['Dropped', null],
      ['Kept inner', 'Kept'],
      ['Other inner', 'Kept'],
      ['Deepest', 'Kept inner'],
    ]);
    const noted = await createFolderStep(t, top, 'Noted', { description: 'Kept for its description' });
    const names = new Map([...ids, ['Noted', noted.id] as const].map(([n, id]) => [id, n]));
    const matching = [ids.get('Kept')!, noted.id];
    // GET /folder has no `search`, and what its `q` matches in a folder is not said: getFolders alone.
    for (const viaBody of [false, true]) {
      const query = { recursive: true, tree: true, search: 'Kept' };
      const r = viaBody
        ? await t.call('folder.getFolders.post', { json: { id: String(top), ...query } })
        : await t.call('folder.getFolders', { path: { id: top }, query });
      if (!r.body) continue;
      const folders = r.body.folders ?? [];
      const label = `${viaBody ? 'POST getFolders' : 'getFolders'} search=Kept recursive=true tree=true`;
      // Group L "`search` (string; matches ID, or partial name or description)": the top level of the tree holds the folders the term
      // matches, and no other. Whether the sub-folders attached to a match are filtered too is an open choice (tree-search): each
      // must be a sub-folder of the folder it is attached to, filtered or not.
      const { missing, extra } = setDifference(matching, idsOf(folders));
      const misplaced: string[] = [];
      const walk = (parent: number, subs: Folder[]) => {
        for (const f of subs) {
          if (typeof f.id !== 'number' || !(model.get(parent) ?? []).includes(f.id))
            misplaced.push(`${f.id} ${f.name} below ${names.get(parent)}`);
          else walk(f.id, listOf<Folder>(f, 'subfolders'));
        }
      };
      for (const f of folders) if (typeof f.id === 'number' && matching.includes(f.id)) walk(f.id, listOf<Folder>(f, 'subfolders'));
      if (missing.length || extra.length || misplaced.length)
        t.record([
          finding(
            'FLT-01',
            'tree',
            `${label} leaves out ${brief(missing.map((id) => names.get(id)))} and lists ${brief(extra.map((id) => names.get(id) ?? id))} ` +
              `at the top level (the term matches Kept by its name and Noted by its description)` +
              `${misplaced.length ? `; it attaches ${brief(misplaced)}, which are not sub-folders there` : ''}`,
            r.exchange,
          ),
        ]);
    }
  },
  { operation: 'folder.getFolders' },
);
