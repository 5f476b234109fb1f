/**
 * The `used` filter (USE-05) on the target's own fixture: getFiles and GET /file `used=true` and `used=false` partition the
 * files and agree with the usage lists, in the current channel alone without usedIn, and count the master's templates as
 * users. Metamorphic, as the usage lists' tests (usage.suite.ts), whose reading of the fixture they share (usage-lists.ts).
 */
import { finding, type Finding } from '../../harness/checks.ts';
import { fixtureTree } from '../../harness/fixture.ts';
import { brief, idsOf, setDifference } from '../../harness/oracles.ts';
import { conformance } from '../../harness/suite.ts';
import type { RequestSpec } from '../../harness/transport.ts';
import { chunks } from './relations.ts';
import { KIND_NAMES, usage, mustUsage, treeFiles, inFixture, templateReferences } from './usage-lists.ts';
conformance('USE-05', 'used=true and used=false partition the files, and unused files have no users', async (t) => {
  const views: [string, number, number][] = [['master', t.fixture.masterRootFolderId, t.fixture.masterNodeId]];
  if (t.config.target.features.includes('multichannelling') && t.fixture.channelNodeId && t.fixture.channelRootFolderId)
    views.push(['channel', t.fixture.channelRootFolderId, t.fixture.channelNodeId]);
  const findings: Finding[] = [];
  let files = 0;
  for (const [label, root, nodeId] of views) {
    const scope = (await fixtureTree(t, root, nodeId)).ids;
    const listed = async (query: RequestSpec['query']) => {
      const got = await treeFiles(t, root, { nodeId, ...query });
      return { ...got, files: got.files.filter((f) => inFixture(scope, 'file', f)) };
    };
    const [all, yes, no] = [await listed({}), await listed({ used: true }), await listed({ used: false })];
    t.judged('folder.getFiles', 'used');
    files += all.files.length + yes.files.length + no.files.length;
    // "used (boolean; true only used files, false only unused)": the two filters split the unfiltered list.
    const both = idsOf(yes.files).filter((id) => idsOf(no.files).includes(id));
    if (both.length)
      findings.push(
        finding('USE-05', 'relation', `in the ${label} view, files ${brief(both)} are listed by used=true and by used=false`, no.exchange),
      );
    const { missing, extra } = setDifference(idsOf(all.files), [...idsOf(yes.files), ...idsOf(no.files)]);
    if (missing.length)
      findings.push(
        finding(
          'USE-05',
          'relation',
          `in the ${label} view, files ${brief(missing)} are listed without the filter but by neither used=true nor used=false`,
          no.exchange,
        ),
      );
    if (extra.length)
      findings.push(
        finding(
          'USE-05',
          'relation',
          `in the ${label} view, used=true or used=false list files ${brief(extra)} that the unfiltered listing does not hold`,
          yes.exchange,
        ),
      );
    // An unused file has no users: no usage list names a user of any of them.
    for (const ids of chunks(idsOf(no.files), 50)) {
      for (const kind of KIND_NAMES) {
        const got = await usage(t, kind, ids, nodeId, { maxItems: -1 });
        findings.push(...got.findings);
        const users = (got.answer?.list ?? []).filter((u) => inFixture(scope, kind, u, t));
        if (users.length)
          findings.push(
            finding(
              'USE-05',
              'relation',
              `in the ${label} view, usage/${kind} names users ${brief(idsOf(users))} of files that used=false lists as unused`,
              got.answer!.exchange,
            ),
          );
      }
    }
  }
  if (!files) t.nothingToJudge('the master tree holds no files');
  t.record(findings);
});

conformance('USE-05', 'without usedIn only users in the current channel make a file used', async (t) => {
  const channel = t.fixture.channelNodeId;
  const master = t.fixture.masterNodeId;
  const root = t.fixture.masterRootFolderId;
  if (!t.config.target.features.includes('multichannelling') || channel === undefined) {
    return t.nothingToJudge('the target declares no channel, so the channel scope of used cannot be told');
  }
  const findings: Finding[] = [];
  const scope = (await fixtureTree(t, root, master)).ids;
  const listed = async (query: RequestSpec['query']) => {
    const got = await treeFiles(t, root, query);
    return { ...got, files: got.files.filter((f) => inFixture(scope, 'file', f)) };
  };
  const inMaster = new Set(idsOf((await listed({ nodeId: master })).files));
  const usedHere = await listed({ nodeId: master, used: true });
  const usedWithChannel = await listed({ nodeId: master, used: true, usedIn: [channel] });
  t.judged('folder.getFiles', 'usedIn');
  const channelScope = (await fixtureTree(t, t.fixture.channelRootFolderId ?? root, channel)).ids;
  const usedInChannel = (await treeFiles(t, t.fixture.channelRootFolderId ?? root, { nodeId: channel, used: true })).files.filter((f) =>
    inFixture(channelScope, 'file', f),
  );
  if (!usedHere.files.length && !usedInChannel.length) return t.nothingToJudge('no file of the master or of the channel is used');
  // "usedIn (int, multivalued; channel IDs extending used)": a file used in the channel is used once the channel is added.
  const extended = new Set(idsOf(usedWithChannel.files));
  const notExtended = idsOf(usedInChannel).filter((id) => inMaster.has(id) && !extended.has(id));
  if (notExtended.length)
    findings.push(
      finding(
        'USE-05',
        'relation',
        `files ${brief(notExtended)} are used in channel ${channel} but used=true&usedIn=${channel} in the master leaves them out`,
        usedWithChannel.exchange,
      ),
    );
  // GET /file: "used (boolean), usedIn (int, multivalued) with the same meanings as for /folder/getFiles/{folderId}".
  const viaList = await t.call('file.list', {
    query: { folderId: String(root), recursive: true, nodeId: master, used: true, usedIn: [channel] },
  });
  if (viaList.body) {
    t.judged('file.list', 'usedIn');
    const listed = new Set(idsOf(viaList.body.items));
    const left = idsOf(usedInChannel).filter((id) => inMaster.has(id) && !listed.has(id));
    if (left.length)
      findings.push(
        finding(
          'USE-05',
          'relation',
          `files ${brief(left)} are used in channel ${channel} but GET /file used=true&usedIn=${channel} in the master leaves them out`,
          viaList.exchange,
        ),
      );
  }
  // "without usedIn only the current channel is checked": a file used in the master has a user there.
  let templates: Set<number> | undefined;
  for (const id of idsOf(usedHere.files)) {
    const counts = await Promise.all(KIND_NAMES.map(async (kind) => (await mustUsage(t, kind, [id], master)).list?.length ?? 0));
    if (counts.some((n) => n > 0)) continue;
    const elsewhere = await Promise.all(
      KIND_NAMES.map(async (kind) => ({ kind, users: (await mustUsage(t, kind, [id], channel)).list ?? [] })),
    );
    const channelUsers = elsewhere.filter((e) => e.users.length);
    if (!channelUsers.length) continue;
    // Templates also use files (no usage list shows them): a file a master template refers to is used in the master.
    templates ??= await templateReferences(t, root);
    if (!templates) return void t.record(findings);
    if (templates.has(id)) continue;
    const shown = channelUsers.map((e) => `usage/${e.kind} ${brief(idsOf(e.users))}`).join(', ');
    findings.push(
      finding(
        'USE-05',
        'relation',
        `file ${id} is listed by used=true in the master, but no object of the master uses it ` +
          `(no usage list names a user with nodeId=${master}, no template refers to it); only channel ${channel} does (${shown})`,
        usedHere.exchange,
      ),
    );
  }
  t.record(findings);
});

conformance(
  'USE-05',
  "a file a master template's object tag refers to is listed by used=true and left out by used=false",
  async (t) => {
    const refs = await templateReferences(t, t.fixture.masterRootFolderId);
    if (!refs) return;
    for (const id of [...refs].slice(0, 6)) {
      const file = (await t.call('file.load', { path: { id } })).body?.file;
      const folderId = file?.folderId;
      if (typeof folderId !== 'number') continue;
      // "used (boolean; true only used files, false only unused ...)": a file is used when an object tag of another object refers
      // to it (reference notes; open choice used-definition, both of whose answers count a template's object tag).
      const listed = async (used: boolean) =>
        idsOf((await t.must('folder.getFiles', { path: { folderId }, query: { used, maxItems: -1 } })).files ?? []);
      const [yes, no] = [await listed(true), await listed(false)];
      t.judged('folder.getFiles', 'used');
      if (!yes.includes(id) || no.includes(id))
        t.record([
          finding(
            'USE-05',
            'relation',
            `file ${id}, which an object tag of a master template refers to, is ${yes.includes(id) ? '' : 'not '}listed by ` +
              `getFiles used=true and is ${no.includes(id) ? '' : 'not '}listed by used=false in folder ${folderId}`,
          ),
        ]);
      return;
    }
    t.nothingToJudge('no object tag of a master template refers to a file the target loads');
  },
  { feature: 'templates', operation: 'folder.getFiles' },
);
