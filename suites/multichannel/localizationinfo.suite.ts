/**
 * Multichannelling (MCH-08): localizationinfo counts inherited, localized and local objects per node and kind, on
 * generated layouts the test creates.
 */
import fc from 'fast-check';
import { uniqueFileName, uniqueFolderName } from '../../generators/requests.ts';
import { finding, type Finding } from '../../harness/checks.ts';
import { channelOf, localizeStep, nothingToJudgeOnce, tryCreateInChannelStep, NO_CHANNEL_CREATE } from '../../harness/steps.ts';
import { hasFeature } from '../../harness/fixture.ts';
import { conformance } from '../../harness/suite.ts';
import type { LocalizationCounters } from '../../schemas/types.ts';
import { namesFor, create, type Localized, undoLocalized, entryOf } from './channel.ts';

/** One generated layout: master folders and files (each localized or not; files placed in top or a folder) and channel-local objects. */
const layoutArb = fc.record({
  folders: fc.array(fc.record({ name: uniqueFolderName(), localized: fc.boolean() }), { maxLength: 3 }),
  files: fc.array(fc.record({ name: uniqueFileName(), localized: fc.boolean(), parent: fc.nat(3) }), { maxLength: 3 }),
  localFolders: fc.array(uniqueFolderName(), { maxLength: 2 }),
  localFiles: fc.array(uniqueFileName(), { maxLength: 2 }),
});
type Layout = typeof layoutArb extends fc.Arbitrary<infer L> ? L : never;

type Counts = Record<'inherited' | 'localized' | 'local', number>;
const KINDS = ['folder', 'file', 'page', 'image'] as const;

/** Predicted counters per kind of one node, with or without the folder asked about counted among them. */
function predict(layout: Layout, inChannel: boolean, withSelf: boolean): Record<(typeof KINDS)[number], Counts> {
  const zero = (): Counts => ({ inherited: 0, localized: 0, local: 0 });
  const out = { folder: zero(), file: zero(), page: zero(), image: zero() };
  const count = (kind: 'folder' | 'file', localized: boolean) => {
    if (!inChannel) out[kind].local++;
    else out[kind][localized ? 'localized' : 'inherited']++;
  };
  if (withSelf) count('folder', false);
  for (const f of layout.folders) count('folder', f.localized);
  for (const f of layout.files) count('file', f.localized);
  if (inChannel) {
    out.folder.local += layout.localFolders.length;
    out.file.local += layout.localFiles.length;
  }
  return out;
}

/** Differences between an entry's counters and a prediction (totals without templates, which the folder may have linked). */
function differences(entry: NonNullable<ReturnType<typeof entryOf>>, want: ReturnType<typeof predict>): string[] {
  const diffs: string[] = [];
  for (const counter of ['inherited', 'localized', 'local'] as const) {
    for (const kind of KINDS) {
      const got = (entry[kind] as LocalizationCounters | undefined)?.[counter] ?? 0;
      if (got !== want[kind][counter]) diffs.push(`${kind}.${counter} ${got}, expected ${want[kind][counter]}`);
    }
    const total = (entry[counter] ?? 0) - ((entry.template as LocalizationCounters | undefined)?.[counter] ?? 0);
    const expected = KINDS.reduce((n, k) => n + want[k][counter], 0);
    if (total !== expected) diffs.push(`${counter} ${total} (without templates), expected ${expected}`);
  }
  return diffs;
}

conformance('MCH-08', 'localizationinfo counts inherited, localized and local objects per node and kind as created', async (t) => {
  const channel = channelOf(t);
  const master = t.fixture.masterNodeId;
  const [folderNames, fileNames] = [namesFor(t, 'folder', 3), namesFor(t, 'file', 3)];
  await t.property(
    layoutArb,
    async (drawn) => {
      const top = await t.folder();
      const folders = [];
      for (const f of drawn.folders) folders.push(await create(t, 'folder', top, f.name));
      const files = [];
      const parents: number[] = [];
      for (const f of drawn.files) {
        parents.push(folders[(f.parent % (folders.length + 1)) - 1]?.id ?? top);
        files.push(await create(t, 'file', parents.at(-1)!, f.name));
      }
      // The channel's own objects, where the target lets the channel make them in the folder it inherits.
      const layout: Layout = { ...drawn, localFolders: [], localFiles: [] };
      for (const [kind, names, made] of [
        ['folder', drawn.localFolders, layout.localFolders],
        ['file', drawn.localFiles, layout.localFiles],
      ] as const) {
        for (const name of names) {
          if (await tryCreateInChannelStep(t, kind, top, name, channel)) made.push(name);
          else nothingToJudgeOnce(t, NO_CHANNEL_CREATE);
        }
      }
      const localized: Localized = [];
      for (const [i, f] of layout.folders.entries())
        if (f.localized) {
          await localizeStep(t, folders[i]!.kind, folders[i]!.id, channel);
          localized.push({ obj: folders[i]!, parent: top, channel });
        }
      for (const [i, f] of layout.files.entries())
        if (f.localized) {
          await localizeStep(t, files[i]!.kind, files[i]!.id, channel);
          localized.push({ obj: files[i]!, parent: parents[i]!, channel });
        }
      const res = await t.call('folder.localizationinfo', { path: { id: top }, query: { nodeId: channel, recursive: true } });
      await undoLocalized(t, localized);
      if (!res.body) return [];
      // Files of sub-folders and the channel's own objects are among the predicted counts.
      t.judged('folder.localizationinfo', 'recursive');
      t.judged('folder.create', 'nodeId');
      const found: Finding[] = [];
      // Contract 4.2: localization info "for a folder and all sub-items, for a channel and its master channels".
      // Whether the folder itself is among its sub-items is not said: either reading is accepted, the same for both nodes.
      const readings = [false, true].map((withSelf) =>
        [channel, master].flatMap((node) => {
          const entry = entryOf(res.body!, node);
          if (!entry) return [`no entry for node ${node}`];
          return differences(entry, predict(layout, node === channel, withSelf)).map((d) => `node ${node}: ${d}`);
        }),
      );
      const best = readings.reduce((a, b) => (b.length < a.length ? b : a));
      if (best.length)
        found.push(
          finding(
            t.requirement,
            'model',
            `the localization info of folder ${top} does not match what the test created ` +
              `(${layout.folders.length} folders, ${layout.files.length} files in the master, ` +
              `${layout.folders.filter((f) => f.localized).length + layout.files.filter((f) => f.localized).length} of them localized, ` +
              `${layout.localFolders.length + layout.localFiles.length} local to channel ${channel}): ${best.join('; ')}`,
            res.exchange,
          ),
        );
      return found;
    },
    {
      runs: Math.ceil(t.config.runs / 2),
      // In every run: a localized and an inherited folder and file, and a folder and a file local to the channel.
      cover: [
        {
          folders: [
            { name: folderNames[0]!, localized: true },
            { name: folderNames[1]!, localized: false },
          ],
          files: [
            { name: fileNames[0]!, localized: true, parent: 1 },
            { name: fileNames[1]!, localized: false, parent: 0 },
          ],
          localFolders: [folderNames[2]!],
          localFiles: [fileNames[2]!],
        },
      ],
    },
  );
});

conformance('MCH-08', "localizationinfo of a folder the channel made counts it and its content as the channel's own", async (t) => {
  const channel = channelOf(t);
  const top = await t.folder();
  const [folderName, fileName] = [namesFor(t, 'folder', 1, 7)[0]!, namesFor(t, 'file', 1, 7)[0]!];
  // Made in the channel: the master has neither, so its entry, if any, finds no folder to count from.
  const local = await tryCreateInChannelStep(t, 'folder', top, folderName, channel);
  if (!local) return t.nothingToJudge(NO_CHANNEL_CREATE);
  await create(t, 'file', local.id, fileName, channel);
  const res = await t.call('folder.localizationinfo', { path: { id: local.id }, query: { nodeId: channel, recursive: true } });
  if (!res.body) return;
  const entry = entryOf(res.body, channel);
  // Contract 4.2: localization info "for a folder and all sub-items, for a channel and its master channels"; 2.4 its counters
  // `inherited`, `localized`, `local`. Whether the folder counts among its own sub-items is open: either reading is accepted.
  const layout: Layout = { folders: [], files: [], localFolders: [], localFiles: [fileName] };
  const readings = entry ? [false, true].map((withSelf) => differences(entry, predictLocal(layout, withSelf))) : [['no entry']];
  const best = readings.reduce((a, b) => (b.length < a.length ? b : a));
  if (best.length)
    t.record([
      finding(
        t.requirement,
        'model',
        `the localization info of folder ${local.id}, made in channel ${channel} with one file in it, for channel ${channel}: ${best.join('; ')}`,
        res.exchange,
      ),
    ]);
});

/** Predicted counters of a folder made in the channel: its files are local, and so is the folder itself when it counts. */
function predictLocal(layout: Layout, withSelf: boolean): ReturnType<typeof predict> {
  const out = predict(layout, true, false);
  if (withSelf) out.folder.local++;
  return out;
}

conformance('MCH-08', "localizationinfo started at the master node counts the master's own objects in the master's entry", async (t) => {
  const channel = channelOf(t);
  const master = t.fixture.masterNodeId;
  const top = await t.folder();
  const inside = await create(t, 'folder', top, namesFor(t, 'folder', 1, 8)[0]!);
  // The channel has an object of its own here: counted in the master's entry, it would be counted in the wrong node.
  await localizeStep(t, inside.kind, inside.id, channel);
  const res = await t.call('folder.localizationinfo', { path: { id: top }, query: { nodeId: master, recursive: true } });
  await undoLocalized(t, [{ obj: inside, parent: top, channel }]);
  if (!res.body) return;
  // Contract 4.2: localization info "for a channel and its master channels", `nodeId` the "node to start with": started at the
  // master, the answer has the master's entry, counting the master's own objects as local. Whether the channels below the
  // node to start with have entries too is open (open choice localizationinfo-start), and so is whether the folder counts
  // among its own sub-items (open choice localizationinfo-folder-itself).
  const entry = entryOf(res.body, master);
  const layout: Layout = { folders: [{ name: inside.name, localized: false }], files: [], localFolders: [], localFiles: [] };
  const readings = entry ? [false, true].map((withSelf) => differences(entry, predict(layout, false, withSelf))) : [['no entry']];
  const best = readings.reduce((a, b) => (b.length < a.length ? b : a));
  if (best.length)
    t.record([
      finding(
        t.requirement,
        'model',
        `the localization info of folder ${top} started at the master node (nodeId=${master}), for node ${master}: ${best.join('; ')}`,
        res.exchange,
      ),
    ]);
});

conformance('MCH-08', 'localizationinfo of a folder that holds and links templates counts them in its template counters', async (t) => {
  const folderId = t.fixture.templatesFolderId;
  const master = t.fixture.masterNodeId;
  if (!hasFeature(t, 'templates') || folderId === undefined)
    return t.nothingToJudge('the target declares no templates, or names no folder with templates linked into it');
  const listed = await t.must('folder.getTemplates', { path: { folderId } });
  // Templates this folder both links and holds (their record's folderId): sub-items of the folder under any reading of which
  // templates a folder's localization info counts, those linked into it or those kept in it.
  const own = (listed.templates ?? []).filter((tpl) => tpl.folderId === folderId).length;
  if (!own) return t.nothingToJudge(`folder ${folderId} links no template whose record names it as its folder`);
  const res = await t.call('folder.localizationinfo', { path: { id: folderId }, query: { nodeId: master } });
  if (!res.body) return;
  // Contract 3: templates are "inherited, localized, local (counted per channel by the localization info)"; 2.9 gives the
  // LocalizationInfo a `template` counter per kind.
  const counters = entryOf(res.body, master)?.template as LocalizationCounters | undefined;
  const counted = (counters?.inherited ?? 0) + (counters?.localized ?? 0) + (counters?.local ?? 0);
  if (counted < own)
    t.record([
      finding(
        'MCH-08',
        'model',
        `the localization info of folder ${folderId} for node ${master} counts ${counted} templates; the folder holds and links ${own}`,
        res.exchange,
      ),
    ]);
});
