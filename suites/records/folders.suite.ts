/**
 * The folder record's links to the folders above it (contract 2.3 `motherId`, `breadcrumbs`), read on the target's own
 * folders: each fixture folder's sub-folders as getFolders lists them without `recursive`. The fixture is only read.
 *
 * Where tests go (test/suites.test.ts): suites/records is grouped by how its tests judge, not by family: the target's own
 * records read against what contract 2 says they hold, whatever the requirement.
 */
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureFolders } from '../../harness/fixture.ts';
import { brief } from '../../harness/oracles.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { Folder } from '../../schemas/types.ts';

/** The sub-folders getFolders lists in one fixture folder (FLT-06: without recursive, "only the folder itself"). */
interface Children {
  parent: number;
  exchange: Exchange;
  folders: Folder[];
}

/** Lists the sub-folders of the root and of the fixture's folders (a bounded look: a vendor's fixture may hold thousands). */
async function childrenOfFixture(t: ConformanceContext): Promise<Children[]> {
  const parents = [t.fixture.masterRootFolderId, ...(await fixtureFolders(t)).map((f) => f.id!)].slice(0, 40);
  const out: Children[] = [];
  for (const parent of parents) {
    const r = await t.call('folder.getFolders', { path: { id: parent }, query: { maxItems: -1 } });
    if (r.body)
      out.push({ parent, exchange: r.exchange, folders: (r.body.folders ?? []).filter((f) => f.id !== t.config.sandboxFolderId) });
  }
  return out;
}

/** One finding per listing whose folders have problems, naming them. */
function childFindings(t: ConformanceContext, lists: Children[], problemsOf: (f: Folder, parent: number) => string[]): Finding[] {
  return lists.flatMap(({ parent, exchange, folders }) => {
    const bad = folders.map((f) => ({ f, problems: problemsOf(f, parent) })).filter((x) => x.problems.length > 0);
    if (!bad.length) return [];
    const lines = bad.map(({ f, problems }) => `folder ${JSON.stringify(f.id)} "${String(f.name)}": ${problems.join(', ')}`);
    return [
      finding(
        t.requirement,
        'record',
        `getFolders of folder ${parent}: ${bad.length} of ${folders.length} folders: ${brief(lines, 5)}`,
        exchange,
      ),
    ];
  });
}

conformance(
  'FLD-03',
  'every folder getFolders lists in a fixture folder that names its motherId names that folder',
  async (t) => {
    const lists = await childrenOfFixture(t);
    // Contract 2.3: "motherId: number (parent folder)": a folder listed as a sub-folder of another has that one as its parent.
    // Whether a record carries motherId is not shown (2.1: "required/optional flags for all records other than the page
    // record: not shown"), so only a motherId that is there is judged.
    const findings = childFindings(t, lists, (f, parent) =>
      f.motherId === undefined || f.motherId === parent
        ? []
        : [`motherId ${JSON.stringify(f.motherId)}, but it is listed as a sub-folder of folder ${parent}`],
    );
    if (!lists.some((l) => l.folders.length)) t.nothingToJudge('no fixture folder has sub-folders');
    else if (!lists.some((l) => l.folders.some((f) => f.motherId !== undefined)))
      t.nothingToJudge('no sub-folder of a fixture folder carries its motherId');
    t.record(findings);
  },
  { operation: 'folder.getFolders' },
);
