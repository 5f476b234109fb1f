/**
 * Multichannelling members of the target's own records read against what the contract says they hold
 * (contract 2.3, 2.4, 2.5, 2.6): the fixture's folders, files and pages in the master's view and the
 * channel's. The fixture is only read; the sandboxes, where other tests change objects, are left out.
 *
 * Where tests go (test/suites.test.ts): suites/records is grouped by how its tests judge, not by family: the target's own
 * records read against what contract 2 says they hold, whatever the requirement.
 */
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureTree } from '../../harness/fixture.ts';
import { brief } from '../../harness/oracles.ts';
import { flag, listOf } from '../../harness/records.ts';
import { channelOf } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import { isRecord } from '../../harness/rules/answer.ts';

/** A listed record as it came: only the members read here are looked at, each by its JSON type. */
type Rec = Record<string, unknown>;

/** One listing of the fixture: what was asked, the exchange and the records it lists. */
interface Listing {
  what: string;
  exchange: Exchange;
  records: Rec[];
}

/** How many fixture folders are listed at most: a vendor's fixture may hold thousands. */
const LISTED_FOLDERS = 40;

/**
 * Lists one kind in each of the fixture's folders below a root in a view (the root included, the sandboxes not): getFolders,
 * getFiles and getPages without `recursive`, so each record is known to lie in the folder listed whatever members it carries
 * (2.1: a record may leave `folderId` out), and no listing reaches the sandboxes, where other tests change objects.
 */
async function listFixture(t: ConformanceContext, kind: 'folders' | 'files' | 'pages', root: number, nodeId?: number): Promise<Listing[]> {
  const tree = await fixtureTree(t, root, nodeId);
  const query = { maxItems: -1, ...(nodeId === undefined ? {} : { nodeId }) };
  const view = nodeId === undefined ? 'the master' : `node ${nodeId}`;
  const out: Listing[] = [];
  for (const folder of [root, ...tree.folders.map((f) => f.id!)].slice(0, LISTED_FOLDERS)) {
    const r =
      kind === 'folders'
        ? await t.call('folder.getFolders', { path: { id: folder }, query })
        : kind === 'files'
          ? await t.call('folder.getFiles', { path: { folderId: folder }, query })
          : await t.call('folder.getPages', { path: { id: folder }, query });
    if (!r.body) continue;
    const records = listOf<unknown>(r.body, kind)
      .filter(isRecord)
      .filter((x) => kind !== 'folders' || (typeof x.id === 'number' && tree.ids.has(x.id)));
    out.push({ what: `${kind} of folder ${folder} in ${view}`, exchange: r.exchange, records });
  }
  return out;
}

/** A record for messages: its id and name. */
const label = (r: Rec): string => `${JSON.stringify(r.id)} "${String(r.name)}"`;

/**
 * What the disinherit members of one record state against each other. Contract 2.6: "disinherited: disinherited
 * in some channels", "disinheritedChannels: array of Node" (the same members in 2.3 and 2.4): a record naming
 * channels is disinherited. Whether one that is disinherited names them is open (disinherited-channels-carried),
 * and what else `disinherited` may cover (an exclusion, a folder's setting) is not said: the converse is not judged.
 * Which ItemType a channel's own record carries, and whether it names its master, the contract does not say (2.2:
 * values "seen"), so the entries are only required to be records.
 */
function disinheritProblems(r: Rec): string[] {
  const channels = listOf(r, 'disinheritedChannels');
  const problems: string[] = [];
  if (channels.length > 0 && !flag(r, 'disinherited')) problems.push(`disinherited false with ${channels.length} disinheritedChannels`);
  for (const c of channels) if (!isRecord(c)) problems.push(`disinheritedChannels holds ${JSON.stringify(c)}, not a Node record`);
  return problems;
}

/** One finding per listing, naming its records at fault. */
function listingFindings(t: ConformanceContext, listing: Listing, problemsOf: (r: Rec) => string[]): Finding[] {
  const bad = listing.records.map((r) => ({ r, problems: problemsOf(r) })).filter((x) => x.problems.length > 0);
  if (!bad.length) return [];
  const lines = bad.map(({ r, problems }) => `${label(r)}: ${problems.join(', ')}`);
  return [
    finding(
      t.requirement,
      'record',
      `${listing.what}: ${bad.length} of ${listing.records.length} records: ${brief(lines, 5)}`,
      listing.exchange,
    ),
  ];
}

conformance('MCH-06', 'disinherited records name the channels they are disinherited in, and those channels do not list them', async (t) => {
  const channel = channelOf(t);
  const master = [
    ...(await listFixture(t, 'folders', t.fixture.masterRootFolderId)),
    ...(await listFixture(t, 'files', t.fixture.masterRootFolderId)),
  ];
  const inChannel = [
    ...(await listFixture(t, 'folders', t.fixture.channelRootFolderId!, channel)),
    ...(await listFixture(t, 'files', t.fixture.channelRootFolderId!, channel)),
  ];
  const findings = [...master, ...inChannel].flatMap((l) => listingFindings(t, l, disinheritProblems));
  // MCH-06: "an object excluded or disinherited for a channel is not visible in that channel's listings": the channel a master
  // record names among its disinheritedChannels does not list it, and no channel lists a record excluded from multichannelling
  // (2.6: "excluded: excluded from multichannelling").
  const listedInChannel = new Set(inChannel.flatMap((l) => l.records.map((r) => r.id)));
  let disinherited = 0;
  let judged = 0;
  for (const listing of master) {
    for (const r of listing.records) {
      const channels = listOf(r, 'disinheritedChannels');
      const named = channels.some((c) => isRecord(c) && c.id === channel);
      if (flag(r, 'disinherited') || channels.length) disinherited++;
      if (named || flag(r, 'excluded')) judged++;
      if ((named || flag(r, 'excluded')) && listedInChannel.has(r.id))
        findings.push(
          finding(
            t.requirement,
            'model',
            `${listing.what}: ${label(r)} ${named ? `names channel ${channel} among its disinheritedChannels` : 'is excluded'}, ` +
              `yet channel ${channel} lists it`,
            listing.exchange,
          ),
        );
    }
  }
  if (!disinherited) t.nothingToJudge('no folder or file of the fixture is disinherited in a channel');
  else if (!judged) t.nothingToJudge(`no fixture record names channel ${channel} among its disinheritedChannels, nor is excluded`);
  t.record(findings);
});

conformance('MCH-01', 'pages of the master are master pages in the master and in the channel, and localized copies are not', async (t) => {
  const channel = channelOf(t);
  const findings: Finding[] = [];
  // Contract 2.6: "master: whether this is a master page"; "masterNode: name of the node the master object belongs to".
  // A node that is no channel holds master pages only; in a channel, an object of the master (MCH-01: it "appears in the
  // channel's listings") is the master page itself, and a page the master does not list whose master belongs to another node is
  // a localized copy. What a copy says in `inherited` is an open choice: copies are told by their ids, not by it.
  const masterPages = await listFixture(t, 'pages', t.fixture.masterRootFolderId);
  for (const listing of masterPages)
    findings.push(...listingFindings(t, listing, (p) => (p.master === false ? ['master false in the master node'] : [])));
  const masterIds = new Set(masterPages.flatMap((l) => l.records.map((p) => p.id)));
  let copies = 0;
  for (const listing of await listFixture(t, 'pages', t.fixture.channelRootFolderId!, channel)) {
    findings.push(
      ...listingFindings(t, listing, (p) => {
        const fromMaster = masterIds.has(p.id);
        const masterNode = typeof p.masterNodeId === 'number' ? p.masterNodeId : undefined;
        const copy = !fromMaster && masterNode !== undefined && masterNode !== channel;
        if (copy) copies++;
        if (fromMaster && p.master === false) return ['a page of the master, listed by the master too, with master false'];
        if (copy && p.master === true)
          return [`a localized copy (the master does not list it; its master in node ${masterNode}) with master true`];
        // A page of the channel itself (its master in this node) is its own master.
        if (!fromMaster && masterNode === channel && p.master === false)
          return ['a page of this channel (its master in it), with master false'];
        return [];
      }),
    );
  }
  if (!masterIds.size) t.nothingToJudge('the master holds no page in its fixture folders');
  else if (!copies) t.nothingToJudge(`no page of the fixture is localized in channel ${channel}`);
  t.record(findings);
});

conformance(
  'MCH-05',
  'the fixture folders carry the exclusion and disinherit-by-default status that the disinherit status of each reads',
  async (t) => {
    // Contract 3: the multichannelling state of a folder is `excluded`, `disinherited`, `disinheritDefault`; section 1: the
    // disinherit operations "read and set the exclusion and disinherit status of folders and files". The folder record's
    // `excluded` and `disinheritDefault` (2.3: "disinheritDefault: disinherited by default in new channels") are therefore
    // the `exclude` and `disinheritDefault` that GET /folder/disinherit/{id} reads (DisinheritResponse, 2.9). An absent boolean
    // is false (2.1: a server may leave false members out).
    const tree = await fixtureTree(t, t.fixture.masterRootFolderId);
    const byId = new Map(tree.folders.map((f) => [f.id!, f as Rec]));
    // Below a folder that is excluded or disinherited by default, whether a record reads its own setting or the one in effect is
    // not said: only folders with no such folder above them are judged.
    const marked = (r: Rec | undefined) => flag(r, 'excluded') || flag(r, 'disinheritDefault');
    const underMarked = (id: number) => {
      for (let m = tree.parentOf.get(id); m !== undefined; m = tree.parentOf.get(m)) if (marked(byId.get(m))) return true;
      return false;
    };
    const findings: Finding[] = [];
    let reads = 0;
    // A bounded look: a vendor's fixture may hold thousands of folders.
    for (const r of tree.folders.slice(0, 60)) {
      if (typeof r.id !== 'number' || underMarked(r.id)) continue;
      const status = await t.call('folder.disinherit.get', { path: { id: r.id } });
      if (!status.body) continue;
      const pairs = [
        ['excluded', 'exclude'],
        ['disinheritDefault', 'disinheritDefault'],
      ] as const;
      for (const [member, statusMember] of pairs) {
        const [value, read] = [flag(r, member), flag(status.body, statusMember)];
        if (read) reads++;
        if (value === read) continue;
        findings.push(
          finding(
            t.requirement,
            'record',
            `folder ${label(r as Rec)} carries ${member} ${value}, but its disinherit status reads ${statusMember} ${read}`,
            status.exchange,
          ),
        );
      }
    }
    if (!reads) t.nothingToJudge('no fixture folder is excluded or disinherited by default');
    t.record(findings);
  },
  { operation: 'folder.disinherit.get' },
);
