/**
 * Multichannelling members of the target's own records read against what the contract says they hold
 * (contract 2.3, 2.4, 2.5, 2.6): the fixture's folders, files and pages in the master's view and the
 * channel's. The fixture is only read; the sandboxes, where other tests change objects, are left out.
 */
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureTree } from '../../harness/fixture.ts';
import { brief } from '../../harness/oracles.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import { isRecord } from '../../harness/rules/answer.ts';

/** A listed record as it came: only the members read here are looked at, each by its JSON type. */
type Rec = Record<string, unknown>;

/** One listing of the fixture: what was asked, the exchange and the records of the fixture's own folders. */
interface Listing {
  what: string;
  exchange: Exchange;
  records: Rec[];
}

/**
 * Lists one kind recursively below a root in a view, keeping the records of the fixture's folders (by
 * `folderId`, for folders their own id): getFolders, getFiles and getPages with `recursive` (FLT-06).
 */
async function listBelow(
  t: ConformanceContext,
  kind: 'folders' | 'files' | 'pages',
  root: number,
  nodeId?: number,
): Promise<Listing | undefined> {
  const ids = (await fixtureTree(t, root, nodeId)).ids;
  const query = { recursive: true, maxItems: -1, ...(nodeId === undefined ? {} : { nodeId }) };
  const view = nodeId === undefined ? 'the master' : `node ${nodeId}`;
  const r =
    kind === 'folders'
      ? await t.call('folder.getFolders', { path: { id: root }, query })
      : kind === 'files'
        ? await t.call('folder.getFiles', { path: { folderId: root }, query })
        : await t.call('folder.getPages', { path: { id: root }, query });
  if (!r.body) return undefined;
  const list = ((r.body as Rec)[kind] ?? []) as unknown[];
  const records = list.filter(isRecord).filter((x) => {
    const folder = kind === 'folders' ? x.id : x.folderId;
    return typeof folder === 'number' && ids.has(folder);
  });
  return { what: `${kind} below folder ${root} in ${view}`, exchange: r.exchange, records };
}

/** A record for messages: its id and name. */
const label = (r: Rec): string => `${JSON.stringify(r.id)} "${String(r.name)}"`;

/**
 * What the disinherit members of one record state against each other. Contract 2.6: "disinherited: disinherited
 * in some channels", "disinheritedChannels: array of Node" (the same members in 2.3 and 2.4). Which ItemType a
 * channel's own record carries, and whether it names its master, the contract does not say (2.2: values "seen"),
 * so the entries are only required to be records.
 */
function disinheritProblems(r: Rec): string[] {
  const channels = Array.isArray(r.disinheritedChannels) ? r.disinheritedChannels : [];
  const problems: string[] = [];
  if (typeof r.disinherited === 'boolean' && r.disinherited !== channels.length > 0)
    problems.push(`disinherited ${r.disinherited} with ${channels.length} disinheritedChannels`);
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
  const channel = t.fixture.channelNodeId!;
  const master = [
    await listBelow(t, 'folders', t.fixture.masterRootFolderId),
    await listBelow(t, 'files', t.fixture.masterRootFolderId),
  ].filter((l) => l !== undefined);
  const inChannel = [
    await listBelow(t, 'folders', t.fixture.channelRootFolderId!, channel),
    await listBelow(t, 'files', t.fixture.channelRootFolderId!, channel),
  ].filter((l) => l !== undefined);
  const findings = [...master, ...inChannel].flatMap((l) => listingFindings(t, l, disinheritProblems));
  // MCH-06: "an object excluded or disinherited for a channel is not visible in that channel's listings": the
  // channel a master record names among its disinheritedChannels does not list it.
  const listedInChannel = new Set(inChannel.flatMap((l) => l.records.map((r) => r.id)));
  let disinherited = 0;
  for (const listing of master) {
    for (const r of listing.records) {
      const channels = Array.isArray(r.disinheritedChannels) ? r.disinheritedChannels : [];
      if (r.disinherited === true || channels.length) disinherited++;
      if (channels.some((c) => isRecord(c) && c.id === channel) && listedInChannel.has(r.id))
        findings.push(
          finding(
            t.requirement,
            'model',
            `${listing.what}: ${label(r)} names channel ${channel} among its disinheritedChannels, which lists it`,
            listing.exchange,
          ),
        );
    }
  }
  if (!disinherited) t.nothingToJudge('no folder or file of the fixture is disinherited in a channel');
  t.record(findings);
});

conformance('MCH-01', 'pages of the master are master pages in the master and in the channel, and localized copies are not', async (t) => {
  const channel = t.fixture.channelNodeId!;
  const findings: Finding[] = [];
  // Contract 2.6: "master: whether this is a master page"; "masterNode: name of the node the master object belongs to".
  // A node that is no channel holds master pages only; in a channel, an object of the master (MCH-01: "inherited true")
  // is the master page itself, and a page not inherited whose master belongs to another node is a localized copy.
  const masterPages = await listBelow(t, 'pages', t.fixture.masterRootFolderId);
  if (masterPages)
    findings.push(...listingFindings(t, masterPages, (p) => (p.master === false ? ['master false in the master node'] : [])));
  const channelPages = await listBelow(t, 'pages', t.fixture.channelRootFolderId!, channel);
  let copies = 0;
  if (channelPages) {
    findings.push(
      ...listingFindings(t, channelPages, (p) => {
        const fromMaster = p.inherited === true && typeof p.inheritedFromId === 'number' && p.inheritedFromId === p.masterNodeId;
        const copy = p.inherited === false && typeof p.masterNodeId === 'number' && p.masterNodeId !== channel;
        if (copy) copies++;
        if (fromMaster && p.master === false) return [`inherited from node ${p.inheritedFromId}, its master's node, with master false`];
        if (copy && p.master === true) return [`a localized copy (not inherited, its master in node ${p.masterNodeId}) with master true`];
        // A page of the channel itself (not inherited, its master in this node) is its own master.
        if (p.inherited === false && p.masterNodeId === channel && p.master === false)
          return [`not inherited and its master in this channel (a local page), with master false`];
        return [];
      }),
    );
  }
  if (!masterPages?.records.length) t.nothingToJudge('the master holds no page in its fixture folders');
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
    // the `exclude` and `disinheritDefault` that GET /folder/disinherit/{id} reads (DisinheritResponse, 2.9).
    const folders = await listBelow(t, 'folders', t.fixture.masterRootFolderId);
    if (!folders) return;
    const findings: Finding[] = [];
    let marked = 0;
    // A bounded look: a vendor's fixture may hold thousands of folders.
    for (const r of folders.records.slice(0, 60)) {
      if (typeof r.id !== 'number') continue;
      const status = await t.call('folder.disinherit.get', { path: { id: r.id } });
      if (!status.body) continue;
      const pairs = [
        ['excluded', r.excluded, 'exclude', status.body.exclude],
        ['disinheritDefault', r.disinheritDefault, 'disinheritDefault', status.body.disinheritDefault],
      ] as const;
      for (const [member, value, statusMember, read] of pairs) {
        if (read === true) marked++;
        if (typeof value !== 'boolean' || typeof read !== 'boolean' || value === read) continue;
        findings.push(
          finding(
            t.requirement,
            'record',
            `${folders.what}: ${label(r)} carries ${member} ${value}, but its disinherit status reads ${statusMember} ${read}`,
            status.exchange,
          ),
        );
      }
    }
    if (!marked) t.nothingToJudge('no fixture folder is excluded or disinherited by default');
    t.record(findings);
  },
  { operation: 'folder.disinherit.get' },
);
