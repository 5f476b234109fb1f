/**
 * Replacing the content of a file (UPL-05 overwrite on createSimple, UPL-06 multipart save): the model
 * oracle follows one file by id through both uploads and predicts its size and the folder's listing.
 */
import fc from 'fast-check';
import { finding, type Finding } from '../../harness/checks.ts';
import { SetupError } from '../../harness/api.ts';
import { attempt, copyIn, fileSummary, filesOf, type Attempt } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { File } from '../../schemas/types.ts';
import { checkCreated, uploadSpec, uploadWith, type UploadForm } from '../../harness/uploads.ts';

/** The createSimple forms, the ones with an `overwrite` parameter. */
const SIMPLE_FORMS: readonly UploadForm[] = ['file.createSimple.raw', 'file.createSimple.multipart'];

/**
 * Two contents of different sizes, so a replaced content shows in fileSize (small: UPL-07 covers the kinds of bytes); never
 * empty, since whether an empty file is taken is the open choice empty-upload, which UPL-07 asks on purpose.
 */
const twoSizes = fc
  .tuple(fc.uint8Array({ minLength: 1, maxLength: 4096 }), fc.uint8Array({ minLength: 1, maxLength: 4096 }))
  .map(([a, b]): [Uint8Array, Uint8Array] => [a, b.byteLength === a.byteLength ? Buffer.concat([b, Uint8Array.of(0x2a)]) : b]);

/** The files of a listing named `name` (exactly). */
const named = (files: readonly File[], name: string): File[] => files.filter((f) => f.name === name);

conformance('UPL-05', 'overwrite=true replaces the file of the same name: same id, new size', async (t) => {
  const folderId = await t.folder();
  let run = 0;
  await t.property(
    fc.tuple(fc.constantFrom(...SIMPLE_FORMS), twoSizes),
    async ([form, [first, second]]) => {
      const name = `upl05-true-${++run}.bin`;
      const original = await uploadWith(t, form, folderId, name, first);
      const id = original.body?.file?.id;
      if (id === undefined)
        return original.findings.length
          ? original.findings
          : [finding('UPL-05', 'model', 'the first upload answered no file id', original.exchange)];
      // "overwrite (boolean, false; overwrite a file of the same name)"
      const replaced = await uploadWith(t, form, folderId, name, second, { overwrite: true });
      if (!replaced.body) return replaced.findings;
      t.judged(form, 'overwrite');
      const findings: Finding[] = [];
      const answered = replaced.body.file;
      if (answered && (answered.id !== id || answered.fileSize !== second.byteLength)) {
        findings.push(
          finding(
            'UPL-05',
            'model',
            `overwrite=true answered ${fileSummary(answered)}; expected file ${id} with fileSize ${second.byteLength}`,
            replaced.exchange,
          ),
        );
      }
      const listed = await filesOf(t, folderId);
      if (!listed.body) return [...findings, ...listed.findings];
      const same = named(listed.body, name);
      if (same.length !== 1 || same[0]!.id !== id || same[0]!.fileSize !== second.byteLength) {
        findings.push(
          finding(
            'UPL-05',
            'model',
            `after overwrite=true the folder lists ${same.length ? same.map(fileSummary).join(', ') : 'no file'} ` +
              `named ${JSON.stringify(name)}; expected only file ${id} with fileSize ${second.byteLength}`,
            listed.exchange,
          ),
        );
      }
      return findings;
    },
    { runs: Math.min(t.config.runs, 10) },
  );
});

/** A file made by a raw createSimple of `name` with `description` in `folderId`: its id, or undefined with the create's findings recorded. */
async function describedFile(t: ConformanceContext, folderId: number, name: string, description: string): Promise<number | undefined> {
  const original = await uploadWith(t, 'file.createSimple.raw', folderId, name, new TextEncoder().encode('the first content\n'), {
    description,
  });
  const id = original.body?.file?.id;
  if (id === undefined) t.record(original.findings);
  return id;
}

/** Searches over a folder that a term matches and one that matches nothing: each must answer (a 5xx fails the test through the judge). */
async function searchesAnswer(t: ConformanceContext, folderId: number, term: string): Promise<void> {
  for (const search of ['zzq', term])
    await attempt(t, 'folder.getFiles', { path: { folderId }, query: { search } }).then((r) => t.record(r.findings));
  await attempt(t, 'file.list', { query: { folderId: String(folderId), q: 'zzq' } }).then((r) => t.record(r.findings));
}

conformance('UPL-05', 'a file replaced by overwrite=true without a description is still found by a search', async (t) => {
  const folderId = await t.folder();
  const name = 'upl05-described.txt';
  if ((await describedFile(t, folderId, name, 'first')) === undefined) return;
  // "overwrite (boolean, false; overwrite a file of the same name)", the second upload naming no description ("description
  // (string)"): whatever description the file keeps, the folder's listings and a search over it answer, never with a 5xx (the
  // judge fails this test on one).
  const replaced = await uploadWith(t, 'file.createSimple.raw', folderId, name, new TextEncoder().encode('the second, longer content\n'), {
    overwrite: true,
  });
  if (!replaced.body) return void t.record(replaced.findings);
  await searchesAnswer(t, folderId, 'upl05');
});

conformance('UPL-05', 'a file replaced by overwrite=true with a description takes that description', async (t) => {
  const folderId = await t.folder();
  const name = 'upl05-redescribed.txt';
  const id = await describedFile(t, folderId, name, 'the first description');
  if (id === undefined) return;
  // createSimple "description (string)", read as the description of the file the upload makes (UPL-03, UPL-04); an overwrite
  // makes the replaced file, so the description it sends is that file's.
  const replaced = await uploadWith(t, 'file.createSimple.raw', folderId, name, new TextEncoder().encode('second\n'), {
    overwrite: true,
    description: 'the second description',
  });
  if (!replaced.body) return void t.record(replaced.findings);
  const loaded = await attempt(t, 'file.load', { path: { id } });
  if (!loaded.body) return void t.record(loaded.findings);
  const got = loaded.body.file?.description;
  if (got !== 'the second description')
    t.record([
      finding(
        'UPL-05',
        'model',
        `file ${id} was replaced by overwrite=true with description "the second description", yet load gives description ${JSON.stringify(got)}`,
        loaded.exchange,
      ),
    ]);
});

conformance('UPL-05', 'overwrite=false or absent never replaces the file of the same name', async (t) => {
  const folderId = await t.folder();
  const absent: Record<string, boolean> = {};
  const coverSizes: [Uint8Array, Uint8Array] = [Uint8Array.of(1, 2, 3), Uint8Array.of(4, 5, 6, 7, 8)];
  let run = 0;
  await t.property(
    fc.tuple(fc.constantFrom(...SIMPLE_FORMS), fc.constantFrom<Record<string, boolean>>({ overwrite: false }, {}), twoSizes),
    async ([form, overwrite, [first, second]]) => {
      // Every other name has no extension, which a server may add (UPL-01): the name the first upload stored is the one compared.
      const name = ++run % 2 ? `upl05-false-${run}.bin` : `upl05-false-${run}`;
      const original = await uploadWith(t, form, folderId, name, first);
      const id = original.body?.file?.id;
      const stored = original.body?.file?.name ?? name;
      if (id === undefined)
        return original.findings.length
          ? original.findings
          : [finding('UPL-05', 'model', 'the first upload answered no file id', original.exchange)];
      // "overwrite=false never replaces it": refusing the second upload or creating another file are both fine.
      const again = await uploadWith(t, form, folderId, name, second, overwrite);
      const findings: Finding[] = [];
      const other = again.body?.file;
      if (other && other.id === id)
        findings.push(
          finding(
            'UPL-05',
            'model',
            `a second upload of ${JSON.stringify(name)} with ${JSON.stringify(overwrite)} answered the first file's id ${id}`,
            again.exchange,
          ),
        );
      // Nor does it make a second file of the very same name (open choice upload-name-collision: renamed, or refused).
      const base = name.replace(/(.)\.[^.]*$/, '$1');
      if (other && other.id !== id && other.name === stored)
        findings.push(
          finding(
            'UPL-05',
            'model',
            `a second upload of ${JSON.stringify(name)} with ${JSON.stringify(overwrite)} made file ${other.id} named ${JSON.stringify(stored)} like file ${id} beside it`,
            again.exchange,
          ),
        );
      // Renamed, it keeps what it was given: "`file` with the given name" (UPL-01) allows another name only where that one is
      // taken, and however a server makes it unique (base_1.ext, "base (1).ext"), a name without the given one's base is not it.
      else if (other && other.id !== id && typeof other.name === 'string' && !other.name.toLowerCase().includes(base.toLowerCase()))
        findings.push(
          finding(
            'UPL-05',
            'model',
            `a second upload of ${JSON.stringify(name)} with ${JSON.stringify(overwrite)} made file ${other.id} named ` +
              `${JSON.stringify(other.name)}, which keeps nothing of the name given (${JSON.stringify(base)})`,
            again.exchange,
          ),
        );
      const loaded = await attempt(t, 'file.load', { path: { id } });
      const kept = loaded.body?.file;
      if (loaded.body && (kept?.fileSize !== first.byteLength || kept.name !== stored)) {
        findings.push(
          finding(
            'UPL-05',
            'model',
            `after a second upload with ${JSON.stringify(overwrite)} the first file is ${fileSummary(kept)}; ` +
              `expected it unchanged: name ${JSON.stringify(stored)}, fileSize ${first.byteLength}`,
            loaded.exchange,
          ),
        );
      }
      return [...findings, ...loaded.findings];
    },
    {
      runs: Math.min(t.config.runs, 10),
      // overwrite absent and false on each form, in every run.
      cover: SIMPLE_FORMS.flatMap((form) => [absent, { overwrite: false }].map((overwrite) => [form, overwrite, coverSizes] as const)),
    },
  );
});

/** A multipart create of `name` in `folderId` from `data`, with the text part `overwrite` when given. */
function createWithPart(t: ConformanceContext, folderId: number, name: string, data: Uint8Array, overwrite?: 'true' | 'false') {
  return attempt(t, 'file.create.multipart', {
    multipart: {
      fields: { folderId: String(folderId), fileName: name, ...(overwrite ? { overwrite } : {}) },
      files: [{ name: 'fileBinaryData', filename: name, contentType: 'application/octet-stream', data }],
    },
  });
}

conformance('UPL-05', 'a multipart create with the overwrite part replaces the file of the same name only when it is true', async (t) => {
  const folderId = await t.folder();
  const name = 'upl05-part.bin';
  const original = await createWithPart(t, folderId, name, Uint8Array.of(1, 2, 3));
  const id = original.body?.file?.id;
  if (id === undefined)
    return void t.record(
      original.findings.length
        ? original.findings
        : [finding('UPL-05', 'model', 'the first upload answered no file id', original.exchange)],
    );
  // The multipart create's metadata travels in text parts (4.3 "data and metadata are separate body parts"); their names
  // follow the reference notes, as folderId and fileName do in every upload of the suites: "overwrite ("true"/"false")".
  // UPL-05: "`overwrite=true` replaces a file of the same name in the folder (same id, new size); `overwrite=false` never
  // replaces it." False first: refusing that upload or creating another file are both fine.
  const kept = await createWithPart(t, folderId, name, new Uint8Array(5), 'false');
  // A refusal of the "false" upload is one of its allowed answers (open choice upload-name-collision); a 5xx is no refusal.
  const findings: Finding[] = (kept.exchange.response?.status ?? 500) >= 500 ? [...kept.findings] : [];
  if (kept.body?.file?.id === id)
    findings.push(
      finding(
        'UPL-05',
        'model',
        `a multipart create of ${JSON.stringify(name)} with overwrite "false" answered the first file's id ${id}`,
        kept.exchange,
      ),
    );
  const unchanged = await attempt(t, 'file.load', { path: { id } });
  findings.push(...unchanged.findings);
  if (unchanged.body && (unchanged.body.file?.fileSize !== 3 || unchanged.body.file.name !== name))
    findings.push(
      finding(
        'UPL-05',
        'model',
        `after a multipart create with overwrite "false" the first file is ${fileSummary(unchanged.body.file)}; expected it unchanged: ` +
          `name ${JSON.stringify(name)}, fileSize 3`,
        unchanged.exchange,
      ),
    );
  const replaced = await createWithPart(t, folderId, name, new Uint8Array(7), 'true');
  // The contract names no overwrite for the multipart create (4.3 names `overwrite` for createSimple, `overwriteExisting` for
  // the JSON create): a server may leave the part unread (open choice create-overwrite-part). Only a replacement has a size
  // and a listing to judge; overwrite=true itself is judged through createSimple's query parameter.
  const answered = replaced.body?.file;
  const listed = await filesOf(t, folderId);
  const same = listed.body && named(listed.body, name);
  const tookPart = answered?.id === id || same?.some((f) => f.id === id && f.fileSize !== 3);
  if (!replaced.body || !tookPart) {
    t.nothingToJudge(
      `a multipart create with overwrite "true" did not replace file ${id}: the contract names no overwrite part for this form ` +
        '(open choice create-overwrite-part)',
      replaced.exchange,
    );
    return void t.record([...findings, ...listed.findings]);
  }
  if (answered && (answered.id !== id || answered.fileSize !== 7))
    findings.push(
      finding(
        'UPL-05',
        'model',
        `a multipart create with overwrite "true" answered ${fileSummary(answered)}; expected file ${id}, the file named ` +
          `${JSON.stringify(name)}, with fileSize 7`,
        replaced.exchange,
      ),
    );
  findings.push(...listed.findings);
  if (same && (same.length !== 1 || same[0]!.id !== id || same[0]!.fileSize !== 7))
    findings.push(
      finding(
        'UPL-05',
        'model',
        `after a multipart create with overwrite "true" the folder lists ${same.length ? same.map(fileSummary).join(', ') : 'no file'} ` +
          `named ${JSON.stringify(name)}; expected only file ${id} with fileSize 7`,
        listed.exchange,
      ),
    );
  t.record(findings);
});

conformance('UPL-05', 'overwrite=true creates the file when none has its name, and never replaces a sub-folder of that name', async (t) => {
  const folderId = await t.folder();
  // "overwrite (boolean, false; overwrite a file of the same name)": with no file of that name, in a folder that never held
  // anything, the create is a create (UPL-03: "creates a file named by qqfile in folderId").
  const data = Uint8Array.of(9, 8, 7);
  const first = await uploadWith(t, 'file.createSimple.raw', folderId, 'upl05-first.bin', data, { overwrite: true });
  if (!t.record(await checkCreated(t, 'UPL-05', first, { name: 'upl05-first.bin', folderId, size: data.byteLength }))) return;
  for (const form of SIMPLE_FORMS) {
    const name = `upl05-folder-${form.split('.').pop()}.bin`;
    const made = await t.must('folder.create', { json: { motherId: String(folderId), name } });
    const sub = made.folder?.id;
    if (sub === undefined) throw new SetupError('folder.create answered no folder id');
    // UPL-05: "`overwrite=true` replaces a file of the same name in the folder"; a folder is no file (2.2 `type`), so the
    // upload creates a file or is refused, and the sub-folder stays as it was.
    const upload = await uploadWith(t, form, folderId, name, Uint8Array.of(1, 2, 3, 4), { overwrite: true });
    t.judged(form, 'overwrite');
    const findings: Finding[] = [];
    const answered = upload.body?.file;
    if (answered?.id === sub)
      findings.push(
        finding(
          'UPL-05',
          'model',
          `overwrite=true with the name of sub-folder ${sub} answered ${fileSummary(answered)}: the folder, not a file`,
          upload.exchange,
        ),
      );
    const folders = await attempt(t, 'folder.getFolders', { path: { id: folderId } });
    findings.push(...folders.findings);
    const still = folders.body?.folders?.find((f) => f.id === sub);
    if (folders.body && still?.name !== name)
      findings.push(
        finding(
          'UPL-05',
          'model',
          `after overwrite=true with the name of sub-folder ${sub}, getFolders lists it as ${JSON.stringify(still?.name)}; expected ` +
            `it unchanged, named ${JSON.stringify(name)}`,
          folders.exchange,
        ),
      );
    if (!t.record(findings)) return;
  }
});

/** The file named `name` that a folder's getFiles lists in a view (the master's without nodeId), as an attempt. */
async function namedIn(t: ConformanceContext, folderId: number, name: string, nodeId?: number): Promise<Attempt<File[]>> {
  const listed = await attempt(t, 'folder.getFiles', { path: { folderId }, query: { maxItems: -1, ...(nodeId ? { nodeId } : {}) } });
  return { ...listed, body: listed.body ? named(listed.body.files ?? [], name) : undefined };
}

conformance(
  'UPL-05',
  'overwrite=true in one node replaces only the file of the same name in that node',
  async (t) => {
    const channel = t.fixture.channelNodeId;
    if (channel === undefined) throw new SetupError('the target declares multichannelling but its fixture names no channelNodeId');
    const folderId = await t.folder();
    const where = (nodeId: number | undefined) => (nodeId ? `channel ${nodeId}` : 'the master');
    for (const form of SIMPLE_FORMS) {
      const name = `upl05-views-${form.split('.').pop()}.bin`;
      const made = await t.must(form, uploadSpec(form, folderId, name, Uint8Array.of(1, 2, 3)));
      const master = made.file?.id;
      if (master === undefined) throw new SetupError(`${form} answered no file id`);
      // The same name in both views, as two files: the master's and its localized copy in the channel (MCH-02).
      await t.must('file.localize', { path: { id: master }, json: { channelId: channel } });
      const copies = await namedIn(t, folderId, name, channel);
      // The copy is told by its id: what it says in `inherited` is open (open choice localized-copy-inherited).
      const copy = copyIn(copies.body ?? [], { id: master, name });
      if (copy === undefined || copy === master)
        throw new SetupError(`after localizing file ${master}, channel ${channel} lists no copy of ${JSON.stringify(name)} of its own`);
      const size = { [master]: 3, [copy]: 3 };
      // The channel first, then the master: a server that matches across views replaces the wrong file in one of them.
      for (const [nodeId, own, other, bytes] of [
        [channel, copy, master, 5],
        [undefined, master, copy, 7],
      ] as const) {
        // createSimple: "folderId (folder to save in), nodeId, overwrite (boolean, false; overwrite a file of the same name)"; nodeId
        // is the "node (channel) ID when multichannelling is used" (4.1), and in that node the folder's file of that name is `own`.
        const replaced = await attempt(
          t,
          form,
          uploadSpec(form, folderId, name, new Uint8Array(bytes), { overwrite: true, ...(nodeId ? { nodeId: String(nodeId) } : {}) }),
        );
        if (!replaced.body) return void t.record(replaced.findings);
        t.judged(form, 'overwrite', 'nodeId');
        size[own] = bytes;
        const answered = replaced.body.file;
        const findings: Finding[] = [];
        if (answered && (answered.id !== own || answered.fileSize !== bytes))
          findings.push(
            finding(
              'UPL-05',
              'model',
              `overwrite=true in ${where(nodeId)} answered ${fileSummary(answered)}; expected file ${own}, the file named ` +
                `${JSON.stringify(name)} there, with fileSize ${bytes}`,
              replaced.exchange,
            ),
          );
        // "overwrite=true replaces a file of the same name in the folder (same id, new size)" in the view uploaded to; the other
        // view's file is another node's version, which only push2master ("copies the channel's version of a file into the master") moves.
        for (const [view, id] of [
          [nodeId, own],
          [nodeId ? undefined : channel, other],
        ] as const) {
          const listed = await namedIn(t, folderId, name, view);
          if (!listed.body) {
            findings.push(...listed.findings);
            continue;
          }
          const shown = listed.body.filter((f) => f.id === id);
          if (listed.body.length !== 1 || shown.length !== 1 || shown[0]!.fileSize !== size[id])
            findings.push(
              finding(
                'UPL-05',
                'model',
                `after overwrite=true in ${where(nodeId)}, ${where(view)} lists ${listed.body.map(fileSummary).join(', ') || 'no file'} ` +
                  `named ${JSON.stringify(name)}; expected only file ${id} with fileSize ${size[id]}` +
                  (id === own ? '' : `: the upload went to ${where(nodeId)}, whose file of that name is ${own}`),
                listed.exchange,
              ),
            );
        }
        if (!t.record(findings)) return;
      }
    }
  },
  { feature: 'multichannelling' },
);

conformance('UPL-06', 'a file saved by multipart without a description part is still found by a search', async (t) => {
  const folderId = await t.folder();
  const name = 'upl06-described.txt';
  const id = await describedFile(t, folderId, name, 'described');
  if (id === undefined) return;
  // "POST /file/save/{id} (multipart): save the posted content into the file": a body of content alone. Whatever description the
  // file then keeps, the folder's listings and a search over it answer, never with a 5xx (the judge fails this test on one).
  const saved = await attempt(t, 'file.save.multipart', {
    path: { id },
    multipart: {
      files: [{ name: 'fileBinaryData', filename: name, contentType: 'text/plain', data: new TextEncoder().encode('second\n') }],
    },
  });
  if (!saved.body) return void t.record(saved.findings);
  await searchesAnswer(t, folderId, 'upl06');
});

conformance('UPL-06', 'a multipart save replaces the content: same id, new size', async (t) => {
  const folderId = await t.folder();
  let run = 0;
  await t.property(
    twoSizes,
    async ([first, second]) => {
      const name = `upl06-${++run}.bin`;
      const original = await uploadWith(t, 'file.create.multipart', folderId, name, first);
      const id = original.body?.file?.id;
      if (id === undefined)
        return original.findings.length
          ? original.findings
          : [finding('UPL-06', 'model', 'the upload answered no file id', original.exchange)];
      // "POST /file/save/{id} (multipart): save the posted content into the file."
      const saved = await attempt(t, 'file.save.multipart', {
        path: { id },
        multipart: { files: [{ name: 'fileBinaryData', filename: name, contentType: 'application/octet-stream', data: second }] },
      });
      if (!saved.body) return saved.findings;
      const loaded = await attempt(t, 'file.load', { path: { id } });
      const findings: Finding[] = [...loaded.findings];
      if (loaded.body && loaded.body.file?.fileSize !== second.byteLength) {
        findings.push(
          finding(
            'UPL-06',
            'model',
            `after saving ${second.byteLength} bytes into file ${id} (${first.byteLength} bytes before), ` +
              `load reports ${fileSummary(loaded.body.file)}`,
            loaded.exchange,
          ),
        );
      }
      const listed = await filesOf(t, folderId);
      const same = listed.body && named(listed.body, name);
      if (same && (same.length !== 1 || same[0]!.id !== id)) {
        findings.push(
          finding(
            'UPL-06',
            'model',
            `after the save the folder lists ${same.length ? same.map(fileSummary).join(', ') : 'no file'} ` +
              `named ${JSON.stringify(name)}; expected only file ${id}: a save must not add a file`,
            listed.exchange,
          ),
        );
      }
      return [...findings, ...listed.findings];
    },
    { runs: Math.min(t.config.runs, 10) },
  );
});
