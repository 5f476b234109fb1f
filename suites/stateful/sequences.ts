/**
 * The commands of the model-based tests (the *.suite.ts files beside this one): fast-check generates
 * sequences of them (create, upload, copy, move, save, delete, localize, unlocalize, disinherit, list,
 * count), runs them against the target from a fresh sandbox folder (holding D1 "Start", f1 and f2, see
 * `start`), and checks every answer against harness/model.ts. A failing sequence shrinks to the
 * shortest one; its commands print as the list of requests they sent (model labels and ids). The tests
 * are three files, so that a run against a live target with `--concurrency auto` runs them side by side. This file holds
 * the arbitraries and the runner; the commands are in commands.ts, channel-commands.ts and listing-commands.ts, their
 * machinery in runner.ts.
 */
import fc from 'fast-check';
import { fileName, folderName } from '../../generators/faker.ts';
import { eitherIdStep } from '../../harness/steps.ts';
import { createModel, liveFiles, liveFolders, type Model, type ObjectKind, type ViewName, type WastebinMode } from '../../harness/model.ts';
import type { ConformanceContext } from '../../harness/suite.ts';
import { type Real, Diverged, type ListStyle, Step } from './runner.ts';
import { CreateFolder, Upload, Copy, Move, Save, SaveContent, Delete, DeleteInChannel } from './commands.ts';
import { Localize, Unlocalize, type DisinheritMode, Disinherit } from './channel-commands.ts';
import { type ListParams, List, Count } from './listing-commands.ts';

// The command classes the suite files build their fixed sequences from.
export { CreateFolder, DuplicateInChannel, OverwriteCopy, Save, Upload } from './commands.ts';
export { Disinherit, DisinheritOther, DisinheritRecursive, Localize, Unlocalize } from './channel-commands.ts';
export { Count, List } from './listing-commands.ts';

/** Sequences stay short: each command sends a few requests, and a shrunk failure should read at a glance. */
const MAX_COMMANDS = 12;

// ---------------------------------------------------------------------------------------------
// Generators and the tests

const index = fc.nat({ max: 15 });
const fileNames = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('report.txt', 'Report.txt', 'notes.md', 'data.bin', 'Übersicht 2024.pdf') },
  { weight: 1, arbitrary: fileName() },
);
const folderNames = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('Alpha', 'alpha', 'Beta', 'Café') },
  { weight: 1, arbitrary: folderName() },
);
// Never empty: whether a server stores a file of no bytes, and how a record shows a size of 0, is not the point of these sequences.
const contents = fc.uint8Array({ minLength: 1, maxLength: 64 });
const kinds = fc.constantFrom<ObjectKind>('folder', 'file');

/** The commands, each over the model's objects by index (a pure precondition skips what cannot run). */
export const createFolder = fc.record({ parent: index, name: folderNames, failOnDuplicate: fc.boolean() }).map((p) => new CreateFolder(p));
const payload = fc.record({ name: fileNames, content: contents });
export const upload = fc.record({ folder: index, files: fc.tuple(payload), raw: fc.boolean() }).map((p) => new Upload(p));
/** A few files at once, to give listings something to page (at most ~150 files per test with the default runs). */
export const uploadBatch = fc
  .record({ folder: index, files: fc.array(payload, { minLength: 2, maxLength: 4 }), raw: fc.boolean() })
  .map((p) => new Upload(p));
export const copy = fc.record({ file: index, folder: index, newName: fc.option(fileNames, { nil: undefined }) }).map((p) => new Copy(p));
export const move = fc.record({ file: index, folder: index }).map((p) => new Move(p));
export const save = fc
  .record({
    file: index,
    name: fc.option(fc.oneof(fileNames, index), { nil: undefined }),
    // Words without blanks around them: whether a server keeps an empty or padded description as sent is not the point here.
    description: fc.option(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,-]{0,28}[A-Za-z0-9.]$/), { nil: undefined }),
    failOnDuplicate: fc.boolean(),
  })
  .map((p) => new Save(p));
export const saveContent = fc.record({ file: index, content: contents }).map((p) => new SaveContent(p));
export const remove = fc.record({ folder: index }).map((p) => new Delete(p));
export const removeInChannel = fc.record({ folder: index }).map((p) => new DeleteInChannel(p));
export const localizeCmd = fc.record({ index, kind: kinds }).map((p) => new Localize(p));
export const unlocalizeCmd = fc.record({ index }).map((p) => new Unlocalize(p));
export const disinherit = fc
  .record({ index, kind: kinds, mode: fc.constantFrom<DisinheritMode>('exclude', 'include', 'disinherit', 'reinherit') })
  .map((p) => new Disinherit(p));

/** What listings and counts may vary: views, wastebin modes, styles, paging. */
interface ListVariety {
  views: ViewName[];
  wastebins: WastebinMode[];
  styles?: ListStyle[];
  paging?: boolean;
  recursive?: boolean;
}

/** The list commands of a variety of views, wastebin modes, styles and windows. */
export function list(v: ListVariety): fc.Arbitrary<List> {
  const window = v.paging
    ? fc.oneof(
        { weight: 1, arbitrary: fc.constant({ first: 0, size: -1 }) },
        { weight: 5, arbitrary: fc.record({ first: fc.nat({ max: 3 }), size: fc.integer({ min: -1, max: 3 }) }) },
      )
    : fc.constant({ first: 0, size: -1 });
  return fc
    .record({
      folder: index,
      kind: kinds,
      style: fc.constantFrom(...(v.styles ?? ['legacy'])),
      view: fc.constantFrom(...v.views),
      wastebin: fc.constantFrom(...v.wastebins),
      recursive: v.recursive ? fc.boolean() : fc.constant(false),
      window,
    })
    .map(({ window: w, ...p }) => new List({ ...p, ...w, wastebin: p.view === 'channel' ? 'exclude' : p.wastebin }));
}

/** The count commands of a variety of views and wastebin modes. */
export function count(v: ListVariety): fc.Arbitrary<Count> {
  return fc
    .record({ folder: index, view: fc.constantFrom(...v.views), wastebin: fc.constantFrom(...v.wastebins), recursive: fc.boolean() })
    .map((p) => new Count({ ...p, wastebin: p.view === 'channel' ? 'exclude' : p.wastebin }));
}

/** The views and wastebin modes the target offers: the channel with multichannelling, include/only with the wastebin feature. */
export function variety(t: ConformanceContext, extra: Partial<ListVariety> = {}): ListVariety {
  const features = t.config.target.features;
  return {
    views: features.includes('multichannelling') && t.fixture.channelNodeId !== undefined ? ['master', 'channel'] : ['master'],
    wastebins: features.includes('wastebin') ? ['exclude', 'include', 'only'] : ['exclude'],
    ...extra,
  };
}

/**
 * The world every sequence starts from, so that most generated commands find something to act on: D0
 * (a fresh sandbox folder) holding folder D1 "Start" and file f1 "start.txt", and f2 "Start 2.bin" in D1.
 */
function start(): Step<unknown, unknown>[] {
  return [
    new CreateFolder({ parent: 0, name: 'Start', failOnDuplicate: false }),
    new Upload({ folder: 0, files: [{ name: 'start.txt', content: new TextEncoder().encode('start\n') }], raw: false }),
    new Upload({ folder: 1, files: [{ name: 'Start 2.bin', content: Uint8Array.of(0, 1, 2, 255) }], raw: true }),
  ] as Step<unknown, unknown>[];
}

/** A cover listing: a legacy listing of the test folder without the wastebin, whole unless `first`/`size` say otherwise. */
export function coverList(p: Pick<ListParams, 'kind' | 'view' | 'recursive'> & Partial<Pick<ListParams, 'first' | 'size'>>): List {
  return new List({ folder: 0, style: 'legacy', wastebin: 'exclude', first: 0, size: -1, ...p });
}

/**
 * Runs generated command sequences, each from a fresh start world in the sandbox, and records the findings of the shrunk failure;
 * the `cover` sequences run first in every run (t.property's cover).
 */
export async function sequences(
  t: ConformanceContext,
  commands: fc.Arbitrary<fc.AsyncCommand<Model, Real>>[],
  cover: fc.AsyncCommand<Model, Real>[][] = [],
): Promise<void> {
  const channel = t.config.target.features.includes('multichannelling') ? t.fixture.channelNodeId : undefined;
  // The start world is made alike in every run, in a fresh folder: after the first run its read-backs would repeat
  // the first run's, and prove nothing more. Its answers are still judged, and the sequence reads everything back.
  let made = 0;
  await t.property(
    fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'max' }),
    async (cmds) => {
      const real: Real = { t, channel, findings: [], quiet: made++ > 0 };
      const model = createModel(await t.folder());
      try {
        for (const step of start()) await step.run(model, real);
        real.quiet = false;
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } catch (err) {
        if (!(err instanceof Diverged)) throw err;
      } finally {
        await undoChannelState(real, model);
      }
      return real.findings;
    },
    // Half the runs: each run is a sequence of up to MAX_COMMANDS commands over every kind of change, so ten sequences
    // try each command in the outcomes the model tells apart (created, renamed, refused, hidden), and the cover
    // sequences make the rare ones certain; every planted fault is found as with twenty (BENCHMARKS 2026-11-27).
    { cover, runs: Math.ceil(t.config.runs / 2) },
  );
}

/**
 * Takes back what a run localized, excluded or disinherited for the channel, so that the suite files that list after it
 * find nothing of it hidden or localized (and a target that deletes no master with copies can remove the sandbox). Best
 * effort: refusals are no findings here.
 */
async function undoChannelState(r: Real, m: Model): Promise<void> {
  if (r.channel === undefined) return;
  const live = [...liveFiles(m), ...liveFolders(m)];
  for (const o of live.filter((x) => x.localized))
    await eitherIdStep(r.t, 'file.unlocalize', [o.id, o.localized!.id], {
      channelId: r.channel,
      ...(o.kind === 'folder' ? { recursive: true } : {}),
    });
  for (const o of live.filter((x) => x.excluded || x.disinherited)) {
    const json = { ...(o.excluded ? { exclude: false } : {}), ...(o.disinherited ? { reinherit: [r.channel] } : {}) };
    if (o.kind === 'folder') await r.t.try('folder.disinherit.set', { path: { id: o.id }, json });
    else await r.t.try('file.disinherit.set', { query: { id: [o.id] }, json });
  }
}

/**
 * A sequence that gives one name to several objects of a folder (file f1, a deleted folder and a live
 * one), then renames f1: the duplicate rules must still see every live holder of each name. FIL-03
 * "`failOnDuplicate` refuses a name already used in the folder" and FLD-02 "`failOnDuplicate=true`
 * refuses a name already used by a sibling" hold whatever else shares the name, after a rename for
 * the new name, and never count the file being renamed; UPL-05 "`overwrite=true` replaces a file of
 * the same name in the folder" finds the file among the others of its name, and in an empty folder
 * just creates it.
 */
export function sharedNames(): Step<unknown, unknown>[] {
  // Model order of the changeable files: f1 "start.txt" (D0), f2 (D1), f3 "other.txt" (D0); f3's only sibling is f1.
  const [f1, f3, siblingF1] = [0, 2, 0];
  // Live folders once D2 is deleted: D0, D1 "Start", D3.
  const [d0, d3] = [0, 2];
  const text = (name: string) => ({ name, content: new TextEncoder().encode(`${name}\n`) });
  return [
    new Save({ file: f1, name: 'Start.txt', description: undefined, failOnDuplicate: true }),
    new CreateFolder({ parent: d0, name: 'start.txt', failOnDuplicate: false }),
    new Delete({ folder: 1 }),
    new CreateFolder({ parent: d0, name: 'start.txt', failOnDuplicate: false }),
    new Upload({ folder: d0, files: [text('Start.txt')], raw: true, overwrite: true }),
    new Upload({ folder: d0, files: [text('other.txt')], raw: false }),
    new Save({ file: f3, name: siblingF1, description: undefined, failOnDuplicate: true }),
    new Upload({ folder: d3, files: [text('inner.txt')], raw: true, overwrite: true }),
    new Save({ file: f1, name: 'renamed.txt', description: undefined, failOnDuplicate: false }),
    new CreateFolder({ parent: d0, name: 'start.txt', failOnDuplicate: true }),
    new Save({ file: f3, name: siblingF1, description: undefined, failOnDuplicate: true }),
  ] as Step<unknown, unknown>[];
}
