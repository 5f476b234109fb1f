/**
 * Creating files (UPL-01..04, UPL-07): every create form of contract 4.3, judged by the model oracle on
 * the suite's own sandbox folders: the file has the name, folder and size that were sent, and load
 * reports the size the server stored (the contract has no download, so fileSize is the byte oracle).
 */
import fc from 'fast-check';
import { bytesClasses, fileContent, fileName, partClasses, textClasses } from '../../generators/faker.ts';
import { checkRefused, finding, isRefusal, type Finding } from '../../harness/checks.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileHostAddress, startFileHost } from '../../harness/filehost.ts';
import { attempt, fileSummary, filesOf, type Attempt } from '../../harness/steps.ts';
import { conformance, novelClasses, type ConformanceContext } from '../../harness/suite.ts';
import { text, listOf } from '../../harness/records.ts';
import { checkCreated, createdId, refusedAsAllowed, refusedLeftNothing, uploadWith, UPLOAD_FORMS } from '../../harness/uploads.ts';
import { boundaryFor, multipartBody, multipartType } from '../../harness/multipart.ts';
import { boundaryLookalike } from './lookalikes.ts';

const encoder = new TextEncoder();

/**
 * A name no other file has, in this run or an earlier one against the same server: tests that look a
 * file up by name across folders need one (a faulty server may have left an earlier run's file outside
 * the sandbox). Derived from the test and the run's sandbox folder, not drawn at random: a run sends what
 * its seed and its target say.
 */
const uniqueName = (t: ConformanceContext, stem: string, ext = 'bin'): string => `${t.uniqueName(stem)}-${t.config.sandboxFolderId}.${ext}`;

/** Deterministic bytes of a given size (a linear congruential sequence), for contents too large to generate byte by byte. */
function bulkBytes(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed >>> 0;
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

conformance('UPL-01', 'multipart create answers success with the file of the given name, folder and size', async (t) => {
  const folderId = await t.folder();
  let run = 0;
  await t.property(
    fc.tuple(fileName(), fileContent()),
    async ([name, data]) => {
      // A run number keeps names unique in the folder when fast-check repeats a value while shrinking.
      const unique = `${++run}-${name}`;
      const created = await uploadWith(t, 'file.create.multipart', folderId, unique, data);
      // "POST /file/create (multipart) ... Response 201 FileUploadResponse": a success (checkCreated); the
      // exact status, 201 and not 200, is the convention ENV-03, which its own tests and OP-file.create.multipart judge.
      return checkCreated(t, 'UPL-01', created, { name: unique, folderId, size: data.byteLength });
    },
    { novel: novelClasses(([name, data]) => partClasses({ name: textClasses(name), data: bytesClasses(data) })) },
  );
});

/**
 * Extensions that name a media type other than application/octet-stream in the common tables (mime-db,
 * Apache httpd's mime.types): none of them is derived from arbitrary bytes.
 */
const OTHER_TYPES_EXTENSIONS = new Set(
  'txt text html htm css csv md xml js mjs json pdf zip gz tar png jpg jpeg gif svg webp bmp ico tif tiff mp3 mp4 wav ogg doc docx xls xlsx ppt pptx rtf odt'.split(
    ' ',
  ),
);

conformance(
  'UPL-01',
  "multipart create of a name without an extension answers that name, or it with an extension of the data part's media type",
  async (t) => {
    const folderId = await t.folder();
    const data = bulkBytes(64, 3);
    for (const name of ['README', 'upl01 no extension']) {
      // UPL-01: "`file` with the given name (where that name has no extension, a server may add one derived from the data part's
      // media type: reference notes)"; the open choice extension-from-media-type. Arbitrary bytes (application/octet-stream) may
      // gain ".bin" or keep the name; never an extension that names another type, as ".txt" does.
      const acceptsName = (got: string | undefined) =>
        got === name ||
        (got?.startsWith(`${name}.`) === true &&
          /^[a-z0-9]{1,8}$/i.test(got.slice(name.length + 1)) &&
          !OTHER_TYPES_EXTENSIONS.has(got.slice(name.length + 1).toLowerCase()));
      const created = await uploadWith(t, 'file.create.multipart', folderId, name, data);
      if (!t.record(await checkCreated(t, 'UPL-01', created, { name, folderId, size: data.byteLength, acceptsName }))) return;
    }
  },
);

/** The extensions the common tables (mime-db, Apache httpd's mime.types) give text/plain. */
const TEXT_PLAIN_EXTENSIONS = new Set(['txt', 'text', 'conf', 'def', 'list', 'log', 'in', 'ini']);

/**
 * A createSimple of a text/plain name without an extension: the file keeps the name, or gains one text/plain extension
 * (open choice extension-from-media-type, as UPL-01 restates it in the catalogue's corrections).
 */
async function createSimpleExtensionless(
  t: ConformanceContext,
  form: 'file.createSimple.multipart' | 'file.createSimple.raw',
): Promise<void> {
  const folderId = await t.folder();
  const data = encoder.encode('no extension\n');
  for (const name of ['README', 'no extension']) {
    const acceptsName = (got: string | undefined) =>
      got === name || (got?.startsWith(`${name}.`) === true && TEXT_PLAIN_EXTENSIONS.has(got.slice(name.length + 1).toLowerCase()));
    const created = await uploadWith(t, form, folderId, name, data, {}, 'text/plain');
    if (!t.record(await checkCreated(t, t.requirement, created, { name, folderId, size: data.byteLength, acceptsName }))) return;
  }
}

conformance('UPL-04', 'a multipart createSimple of a text/plain qqfile without an extension creates the file of that name', async (t) => {
  // UPL-04: createSimple multipart "honours ... `qqfile`" ("`qqfile` (string; metadata filename)", "Response 201
  // `FileUploadResponse`"); a name without an extension is a name like any other.
  await createSimpleExtensionless(t, 'file.createSimple.multipart');
});

conformance('UPL-03', 'a raw createSimple of a text/plain qqfile without an extension creates the file of that name', async (t) => {
  // UPL-03: "POST /file/createSimple raw body creates a file named by `qqfile` in `folderId`"; a name without an extension
  // is a name like any other.
  await createSimpleExtensionless(t, 'file.createSimple.raw');
});

conformance('UPL-02', 'a multipart create takes the data part as the content even when it reads like a JSON create', async (t) => {
  const folderId = await t.folder();
  const host = t.config.target.features.includes('sourceUrl') ? await startFileHost() : undefined;
  try {
    const decoy = host?.serve('decoy.bin', bulkBytes(4096, 7)) ?? 'http://127.0.0.1:9/decoy.bin';
    const name = uniqueName(t, 'upl02', 'json');
    // "The two forms share one path and are chosen by the request Content-Type": multipart means the data part is the file.
    const json = encoder.encode(JSON.stringify({ folderId, name: 'from-url.bin', sourceURL: decoy, overwriteExisting: false }));
    const created = await uploadWith(t, 'file.create.multipart', folderId, name, json);
    const findings = await checkCreated(t, 'UPL-02', created, { name, folderId, size: json.byteLength });
    if (host && host.downloads(decoy) > 0) {
      findings.push(
        finding(
          'UPL-02',
          'model',
          `a multipart create downloaded the sourceURL written in its data part (${host.downloads(decoy)} downloads): ` +
            'the form is chosen by Content-Type',
          created.exchange,
        ),
      );
    }
    t.record(findings);
  } finally {
    await host?.close();
  }
});

conformance('UPL-02a', 'a JSON create downloads the file from sourceURL into the folder', async (t) => {
  const folderId = await t.folder();
  const host = await startFileHost();
  try {
    let run = 0;
    await t.property(
      fileContent().filter((data) => data.byteLength > 0),
      async (data) => {
        const name = `${++run}-${uniqueName(t, 'upl02a')}`;
        const sourceURL = host.serve(`source-${run}.bin`, data);
        // "POST /file/create (JSON): create a file with binary data loaded from a URL."
        const created = await attempt(t, 'file.create.json', { json: { folderId, name, sourceURL } });
        t.judged('file.create.json', 'folderId', 'name', 'sourceURL');
        const findings = await checkCreated(t, 'UPL-02a', created, { name, folderId, size: data.byteLength });
        if (created.body && host.downloads(sourceURL) === 0)
          findings.push(finding('UPL-02a', 'model', `the file was created but ${sourceURL} was never downloaded`, created.exchange));
        return findings;
      },
      { runs: Math.min(t.config.runs, 8) },
    );
  } finally {
    await host.close();
  }
});

conformance('UPL-02a', 'a JSON create whose sourceURL has no file to load is refused and creates nothing', async (t) => {
  const folderId = await t.folder();
  const host = await startFileHost();
  // A port of the file host's address that nothing listens on: a download that cannot even connect.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, fileHostAddress(), resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  try {
    const unreachable = new URL(host.url);
    unreachable.port = String(port);
    const sources = [
      { what: 'answers 404', url: `${host.url}/missing-${uniqueName(t, 'upl02a')}` },
      { what: 'cannot be reached', url: `${unreachable.origin}/gone.bin` },
    ];
    for (const { what, url } of sources) {
      const name = uniqueName(t, 'unloaded');
      const created = await attempt(t, 'file.create.json', { json: { folderId, name, sourceURL: url } });
      // UPL-02a: "POST /file/create with a JSON body (FileCreateRequest) creates the file from `sourceURL`": where sourceURL
      // gives no file, there is nothing to create it from. ENV-08, a 5xx, the judge fails on its own.
      const findings = checkRefused(created.exchange, 'UPL-02a', `sourceURL ${what}, so there is no file to create from it`);
      const listed = ((await filesOf(t, folderId)).body ?? []).filter((f) => f.name === name);
      if (listed.length)
        findings.push(
          finding('UPL-02a', 'model', `sourceURL ${what}, yet folder ${folderId} lists ${fileSummary(listed[0]!)}`, created.exchange),
        );
      if (!t.record(findings)) return;
    }
  } finally {
    await host.close();
  }
});

conformance(
  'UPL-02a',
  'a JSON create whose sourceURL answers 204 No Content creates an empty file, or is refused and creates nothing',
  async (t) => {
    const folderId = await t.folder();
    const host = await startFileHost();
    try {
      const name = uniqueName(t, 'nocontent');
      const sourceURL = host.serve('no-content.bin', new Uint8Array(0), 'application/octet-stream', 204);
      const created = await attempt(t, 'file.create.json', { json: { folderId, name, sourceURL } });
      // UPL-02a: "POST /file/create (JSON): create a file with binary data loaded from a URL"; an answer 204 carries no data,
      // so a file made from it holds none. The contract does not say that a source without content makes a file: a
      // refusal is allowed, and then nothing is created (ENV-08, a 5xx, the judge fails on its own).
      if (created.body) {
        t.record(await checkCreated(t, 'UPL-02a', created, { name, folderId, size: 0 }));
        return;
      }
      const listed = ((await filesOf(t, folderId)).body ?? []).filter((f) => f.name === name);
      if (listed.length)
        t.record([
          finding(
            'UPL-02a',
            'model',
            `the create from ${sourceURL} (204) was refused, yet folder ${folderId} lists ${fileSummary(listed[0]!)}`,
            created.exchange,
          ),
        ]);
    } finally {
      await host.close();
    }
  },
);

conformance('UPL-03', 'a raw createSimple creates the file named by qqfile in folderId', async (t) => {
  const folderId = await t.folder();
  let run = 0;
  await t.property(
    fc.tuple(fileName(), fileContent()),
    async ([name, data]) => {
      const qqfile = `${++run}-${name}`;
      // "POST /file/createSimple (raw body) ... folderId (required int) ... qqfile (string; file name)."
      const created = await uploadWith(t, 'file.createSimple.raw', folderId, qqfile, data);
      t.judged('file.createSimple.raw', 'folderId', 'qqfile');
      return checkCreated(t, 'UPL-03', created, { name: qqfile, folderId, size: data.byteLength });
    },
    { runs: Math.min(t.config.runs, 10) },
  );
});

conformance('UPL-03', 'a raw createSimple without folderId is refused and creates nothing', async (t) => {
  const folderId = await t.folder();
  const qqfile = uniqueName(t, 'upl03-nofolder', 'txt');
  const before = await filesOf(t, folderId);
  // "folderId (required int)": without it there is no folder to create the file in.
  const { exchange: sent } = await t.try('file.createSimple.raw', {
    query: { qqfile },
    raw: { contentType: 'application/octet-stream', data: encoder.encode('no folder\n') },
  });
  const findings = checkRefused(sent, 'UPL-03', 'a raw createSimple without folderId must be refused');
  // After a refusal nothing may exist under that name anywhere (findFiles folderId=0 searches all folders).
  const found = await t.call('folder.findFiles', { query: { folderId: 0, query: qqfile, maxItems: -1 } });
  const leaked = (found.body?.files ?? []).filter((f) => f.name === qqfile);
  if (leaked.length)
    findings.push(
      finding('UPL-03', 'model', `the upload without folderId still created ${leaked.map(fileSummary).join(', ')}`, found.exchange),
    );
  const after = await filesOf(t, folderId);
  if (before.body && after.body && after.body.length !== before.body.length)
    findings.push(
      finding(
        'UPL-03',
        'model',
        `the sandbox folder held ${before.body.length} files before the refused upload and ${after.body.length} after`,
        after.exchange,
      ),
    );
  t.record([...findings, ...before.findings, ...after.findings]);
});

conformance('UPL-04', 'a multipart createSimple takes its data from the part named by databodypart', async (t) => {
  const folderId = await t.folder();
  const data = bulkBytes(777, 4);
  const qqfile = uniqueName(t, 'upl04-databodypart');
  // "databodypart (string; custom name of the file data part)": a name none of the usual data part names match.
  const created = await attempt(t, 'file.createSimple.multipart', {
    query: { folderId, qqfile, databodypart: 'attachmentPayload' },
    multipart: { files: [{ name: 'attachmentPayload', filename: qqfile, contentType: 'application/octet-stream', data }] },
  });
  t.judged('file.createSimple.multipart', 'databodypart', 'folderId');
  t.record(await checkCreated(t, 'UPL-04', created, { name: qqfile, folderId, size: data.byteLength }));
});

conformance('UPL-04', 'a multipart createSimple names the file by qqfile, not by the part filename', async (t) => {
  const folderId = await t.folder();
  const data = encoder.encode('named by qqfile\r\n');
  const qqfile = uniqueName(t, 'upl04-qqfile', 'txt');
  // "qqfile (string; metadata filename)": with a data part that has no filename of its own (RFC 7578 4.2: it is optional),
  // qqfile is the only name the request gives, whichever a server reads first (open choice createsimple-filename).
  const parts = [{ name: 'fileBinaryData', contentType: 'text/plain', data }];
  const boundary = boundaryFor(parts);
  const created = await attempt(t, 'file.createSimple.multipart', {
    query: { folderId, qqfile },
    raw: { contentType: multipartType(boundary), data: multipartBody(parts, boundary) },
  });
  t.judged('file.createSimple.multipart', 'qqfile', 'folderId');
  if (!t.record(await checkCreated(t, 'UPL-04', created, { name: qqfile, folderId, size: data.byteLength }))) return;
  // With a part filename that differs from qqfile, a server may name the file by either (open choice createsimple-filename),
  // never by a third name.
  const other = uniqueName(t, 'upl04-qqfile', 'txt');
  const both = await attempt(t, 'file.createSimple.multipart', {
    query: { folderId, qqfile: other },
    multipart: { files: [{ name: 'fileBinaryData', filename: `part-${other}`, contentType: 'text/plain', data }] },
  });
  const acceptsName = (got: string | undefined) => got === other || got === `part-${other}`;
  t.record(await checkCreated(t, 'UPL-04', both, { name: other, folderId, size: data.byteLength, acceptsName }));
});

conformance('UPL-01', "a multipart create that names the file only in the data part's filename creates it by that name", async (t) => {
  const folderId = await t.folder();
  const data = encoder.encode('named by the data part\n');
  const name = uniqueName(t, 'upl01-part-filename', 'txt');
  // "Multipart upload parts ...: the part names are not shown", "Which of them are mandatory: not shown": a server may want a
  // text part naming the file and refuse without one; where it creates the file, the data part's filename (RFC 7578 4.2) is
  // the one name the request gives, and UPL-01 asks for "`file` with the given name".
  const created = await attempt(t, 'file.create.multipart', {
    multipart: {
      fields: { folderId: String(folderId) },
      files: [{ name: 'fileBinaryData', filename: name, contentType: 'text/plain', data }],
    },
  });
  if (!created.body && isRefusal(created.exchange) && (created.exchange.response?.status ?? 500) < 500) {
    t.nothingToJudge(
      'the target refuses a multipart create without a text part naming the file (its mandatory parts: not shown)',
      created.exchange,
    );
    return void t.record(await refusedLeftNothing(t, 'UPL-01', folderId, name));
  }
  t.record(await checkCreated(t, 'UPL-01', created, { name, folderId, size: data.byteLength }));
});

conformance(
  'UPL-03',
  'a raw createSimple of a qqfile ending in a member every JavaScript object inherits creates the file of that name',
  async (t) => {
    const folderId = await t.folder();
    const data = encoder.encode('an inherited member is no extension\n');
    // "qqfile (string; file name)": `.__proto__` and `.constructor` are extensions like any other; a server that looks them up in
    // a plain object of media types finds the object's own machinery there (its answer then carries no fileType string).
    for (const ext of ['__proto__', 'constructor']) {
      const name = uniqueName(t, 'upl03-inherited', ext);
      const created = await uploadWith(t, 'file.createSimple.raw', folderId, name, data, {}, 'text/plain');
      if (!t.record(await checkCreated(t, 'UPL-03', created, { name, folderId, size: data.byteLength }))) return;
    }
  },
);

/** Contents every byte-exact store must keep: the edges of UPL-07. */
const EDGE_CONTENTS: [string, Uint8Array][] = [
  ['empty', new Uint8Array(0)],
  ['NUL bytes', Uint8Array.from([0, 0, 65, 0, 66, 0])],
  ['invalid UTF-8', Uint8Array.from([0x80, 0xc3, 0x28, 0xe2, 0x82, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff, 0xfe])],
  ['CRLF, bare CR and LF', encoder.encode('line 1\r\nline 2\rline 3\nline 4\r\n\r\n')],
  ['trailing CRLF', encoder.encode('\r\n')],
  ['UTF-8 BOM and text', Uint8Array.from([0xef, 0xbb, 0xbf, 0x68, 0x69])],
];

conformance('UPL-07', 'empty, NUL, invalid UTF-8 and CRLF contents keep their exact size in every create form', async (t) => {
  const folderId = await t.folder();
  const findings: Finding[] = [];
  for (const form of UPLOAD_FORMS) {
    for (const [label, data] of EDGE_CONTENTS) {
      const name = uniqueName(t, `upl07-${label.replace(/\W+/g, '-').toLowerCase()}`);
      // "binary content is kept byte for byte": the stored size is the size sent.
      const created = await uploadWith(t, form, folderId, name, data);
      // Whether an empty file is created is the open choice empty-upload: a refusal leaves its size nothing to judge.
      if (data.byteLength === 0 && refusedAsAllowed(t, created, `${form}: an empty upload`, 'empty-upload')) {
        findings.push(...(await refusedLeftNothing(t, 'UPL-07', folderId, name)));
        continue;
      }
      findings.push(
        ...(await checkCreated(t, 'UPL-07', created, { name, folderId, size: data.byteLength })).map((f) => ({
          ...f,
          message: `${form}, ${label}: ${f.message}`,
        })),
      );
    }
  }
  t.record(findings);
});

conformance('UPL-07', 'generated contents keep their exact size in every create form', async (t) => {
  const folderId = await t.folder();
  let run = 0;
  await t.property(
    fc.tuple(fc.constantFrom(...UPLOAD_FORMS), fileContent()),
    async ([form, data]) => {
      const name = `${++run}-${uniqueName(t, 'upl07')}`;
      return checkCreated(t, 'UPL-07', await uploadWith(t, form, folderId, name, data), { name, folderId, size: data.byteLength });
    },
    // Every form and every class of content; the pairs that break a form's encoding (empty, NUL, CRLF, invalid UTF-8, a boundary
    // look-alike) are the cases of the tests beside this one, in every form.
    { novel: novelClasses(([form, data]) => partClasses({ form: [form], data: bytesClasses(data) })) },
  );
});

conformance('UPL-07', 'content that imitates the multipart boundary keeps its exact size', async (t) => {
  const folderId = await t.folder();
  const name = uniqueName(t, 'upl07-boundary', 'txt');
  const fields = [
    { name: 'folderId', data: String(folderId) },
    { name: 'fileName', data: name },
  ];
  // The content is made from the boundary, so the boundary comes from the other parts.
  const boundary = boundaryFor(fields);
  const data = boundaryLookalike(boundary);
  const body = multipartBody([...fields, { name: 'fileBinaryData', filename: name, contentType: 'text/plain', data }], boundary);
  // Only CRLF "--" boundary ends a part (RFC 2046); lookalikes are content.
  const created = await attempt(t, 'file.create.multipart', { raw: { contentType: multipartType(boundary), data: body } });
  t.record(await checkCreated(t, 'UPL-07', created, { name, folderId, size: data.byteLength }));
});

conformance('UPL-07', 'a file of a few megabytes keeps its exact size', async (t) => {
  // A folder of its own, deleted at once: a file this large must not weigh on the listings of other tests.
  const folderId = await t.folder();
  try {
    // 3 MiB and a few bytes: not a multiple of any buffer size a server might copy in.
    const data = bulkBytes(3 * 1024 * 1024 + 7, 1);
    const name = uniqueName(t, 'upl07-large');
    const created = await uploadWith(t, 'file.create.multipart', folderId, name, data);
    // Contract 8: "Rate limits, upload size limits and maximum page sizes: not shown" (open choice upload-size-limit).
    if (refusedAsAllowed(t, created, `an upload of ${data.byteLength} bytes`, 'upload-size-limit'))
      return void t.record(await refusedLeftNothing(t, 'UPL-07', folderId, name));
    t.record(await checkCreated(t, 'UPL-07', created, { name, folderId, size: data.byteLength }));
  } finally {
    await t.try('folder.delete', { path: { id: folderId } });
  }
});

conformance('UPL-02a', 'a JSON create gives the file the description, nice URL and alternate URLs sent', async (t) => {
  const folderId = await t.folder();
  const host = await startFileHost();
  try {
    const name = uniqueName(t, 'upl02a-described', 'txt');
    const sent = {
      description: 'Described on creation',
      niceURL: `/upl02a/${folderId}/nice`,
      alternateURLs: [`/upl02a/${folderId}/b`, `/upl02a/${folderId}/a`],
    };
    const sourceURL = host.serve('described.txt', encoder.encode('described\n'));
    const created = await attempt(t, 'file.create.json', { json: { folderId, name, sourceURL, ...sent } });
    const { id, findings } = await createdId(t, 'UPL-02a', created, folderId, name);
    if (id === undefined) return void t.record(findings);
    const loaded = await attempt(t, 'file.load', { path: { id } });
    const file = loaded.body?.file;
    if (!file) return void t.record(loaded.findings);
    // niceURL and alternateURLs are judged by the record where it carries them, else by the filters that read them.
    t.judged('file.create.json', 'description');
    // FileCreateRequest "description (string), ... niceURL (string), alternateURLs (array of string)" name the File record's
    // description, niceUrl and alternateUrls (contract 2.4): the file created carries what was sent (alternate URLs in any order).
    // An absent description reads as empty (harness/records.ts).
    const wrong: string[] = [];
    if (text(file, 'description') !== sent.description)
      wrong.push(`description ${JSON.stringify(file.description)} (sent ${JSON.stringify(sent.description)})`);
    // Contract 2.1: whether a record shows niceUrl or alternateUrls is not shown; where it does not, the filters still read them.
    // FLT-08: "`niceurl` is a regular expression matched against the nice URL"; FLT-02: GET /file "filters by id, name,
    // description, niceUrl, alternateUrls".
    const unshown = async (member: string, what: string, listed: Promise<{ r: Attempt<unknown>; ids?: (number | undefined)[] }>) => {
      const { r, ids } = await listed;
      t.record(r.findings);
      if (ids && !ids.includes(id))
        t.record([
          finding('UPL-02a', 'model', `file ${id}, created with ${member}, loads without it, and ${what} does not list it`, r.exchange),
        ]);
    };
    if (file.niceUrl === undefined)
      await unshown(
        'niceURL',
        `getFiles niceurl=^${sent.niceURL}$`,
        attempt(t, 'folder.getFiles', { path: { folderId }, query: { niceurl: `^${sent.niceURL}$` } }).then((r) => ({
          r,
          ids: r.body?.files?.map((f) => f.id),
        })),
      );
    else if (file.niceUrl !== sent.niceURL)
      wrong.push(`niceUrl ${JSON.stringify(file.niceUrl)} (sent niceURL ${JSON.stringify(sent.niceURL)})`);
    if (file.alternateUrls === undefined)
      await unshown(
        'alternateURLs',
        `GET /file q=${sent.alternateURLs[1]}`,
        attempt(t, 'file.list', { query: { folderId: String(folderId), q: sent.alternateURLs[1]! } }).then((r) => ({
          r,
          ids: r.body?.items?.map((f) => f.id),
        })),
      );
    else if (JSON.stringify([...listOf<string>(file, 'alternateUrls')].sort()) !== JSON.stringify([...sent.alternateURLs].sort()))
      wrong.push(`alternateUrls ${JSON.stringify(file.alternateUrls)} (sent alternateURLs ${JSON.stringify(sent.alternateURLs)})`);
    if (wrong.length)
      t.record([finding('UPL-02a', 'model', `file ${id}, created with them, loads with ${wrong.join(', ')}`, loaded.exchange)]);
  } finally {
    await host.close();
  }
});

conformance(
  'UPL-05',
  'a JSON create of a name the folder holds with overwriteExisting false leaves that file as it was',
  async (t) => {
    const folderId = await t.folder();
    const host = await startFileHost();
    try {
      const name = uniqueName(t, 'upl05-kept', 'txt');
      const first = await attempt(t, 'file.create.json', {
        json: { folderId, name, sourceURL: host.serve('kept.txt', encoder.encode('the first content\n')) },
      });
      const { id: original, findings: unmade } = await createdId(t, 'UPL-05', first, folderId, name);
      if (original === undefined) return void t.record(unmade);
      const before = (await t.must('file.load', { path: { id: original } })).file;
      // FileCreateRequest "overwriteExisting (boolean)" read as UPL-05 reads createSimple's overwrite: "`overwrite=false` never
      // replaces it". What an absent overwriteExisting does is not stated, so it is sent. The second create is refused or makes
      // another file (open choice upload-name-collision); the first keeps its content either way.
      await t.try('file.create.json', {
        json: {
          folderId,
          name,
          sourceURL: host.serve('second.txt', encoder.encode('a second, longer content that must not replace it\n')),
          overwriteExisting: false,
        },
      });
      const after = await attempt(t, 'file.load', { path: { id: original } });
      if (!after.body) return void t.record(after.findings);
      if (before?.fileSize !== undefined && after.body.file?.fileSize !== before.fileSize)
        t.record([
          finding(
            'UPL-05',
            'model',
            `a second JSON create of ${JSON.stringify(name)} with overwriteExisting false changed file ${original}: fileSize ` +
              `${before.fileSize} before, ${after.body.file?.fileSize} after`,
            after.exchange,
          ),
        ]);
    } finally {
      await host.close();
    }
  },
  { feature: 'sourceUrl', operation: 'file.create.json' },
);

conformance(
  'UPL-05',
  'a JSON create with overwriteExisting replaces the file of the same name in the folder',
  async (t) => {
    const folderId = await t.folder();
    const host = await startFileHost();
    try {
      const name = uniqueName(t, 'upl05-url', 'txt');
      const first = await attempt(t, 'file.create.json', {
        json: { folderId, name, sourceURL: host.serve('first.txt', encoder.encode('first\n')) },
      });
      const { id: original, findings: unmade } = await createdId(t, 'UPL-05', first, folderId, name);
      if (original === undefined) return void t.record(unmade);
      const data = encoder.encode('the replacing content\n');
      const second = await attempt(t, 'file.create.json', {
        json: { folderId, name, sourceURL: host.serve('second.txt', data), overwriteExisting: true },
      });
      if (!second.body) return void t.record(second.findings);
      t.judged('file.create.json', 'overwriteExisting');
      // FileCreateRequest "overwriteExisting (boolean)", as createSimple's overwrite: "overwrite=true replaces a file of the same
      // name in the folder (same id, new size)".
      const listed = await filesOf(t, folderId);
      const named = (listed.body ?? []).filter((f) => f.name === name);
      const replaced = named.length === 1 && named[0]!.id === original && named[0]!.fileSize === data.byteLength;
      if (!replaced)
        t.record([
          finding(
            'UPL-05',
            'model',
            `after a JSON create of ${name} with overwriteExisting over file ${original}, the folder holds ` +
              `${(listed.body ?? []).map(fileSummary).join(', ')}; expected file ${original} alone under that name, ${data.byteLength} bytes`,
            listed.exchange,
          ),
        ]);
    } finally {
      await host.close();
    }
  },
  { feature: 'sourceUrl', operation: 'file.create.json' },
);

for (const [requirement, form] of [
  ['UPL-03', 'file.createSimple.raw'],
  ['UPL-04', 'file.createSimple.multipart'],
] as const) {
  conformance(
    requirement,
    `a ${form === 'file.createSimple.raw' ? 'raw' : 'multipart'} createSimple gives the file the description sent`,
    async (t) => {
      const folderId = await t.folder();
      const name = uniqueName(t, `${requirement.toLowerCase()}-described`, 'txt');
      const description = 'Described by createSimple';
      const created = await uploadWith(t, form, folderId, name, encoder.encode('described\n'), { description });
      const { id, findings } = await createdId(t, requirement, created, folderId, name);
      if (id === undefined) return void t.record(findings);
      const loaded = await attempt(t, 'file.load', { path: { id } });
      if (!loaded.body) return void t.record(loaded.findings);
      t.judged(form, 'description');
      // createSimple "Query: ... description (string)": the File record's description (contract 2.4) is what was sent (an
      // absent description reads as empty, harness/records.ts, and so differs from it).
      const got = text(loaded.body.file, 'description');
      if (got !== description)
        t.record([
          finding(
            requirement,
            'model',
            `file ${id}, created with description ${JSON.stringify(description)}, loads with ${JSON.stringify(got)}`,
            loaded.exchange,
          ),
        ]);
    },
  );
}

conformance(
  'UPL-01',
  'a multipart create of more than a hundred parts, its name sent last, names the file as sent or is refused',
  async (t) => {
    const folderId = await t.folder();
    const name = 'upl01-many-parts.txt';
    const data = 'sent among many parts\n';
    // The data part before a hundred other fields and the name after them: a server that stops reading at a part limit of its
    // own and goes on with what it read would name the file after the data part ("d.bin").
    const parts = [
      { name: 'folderId', data: String(folderId) },
      { name: 'fileBinaryData', filename: 'd.bin', contentType: 'text/plain', data },
      ...Array.from({ length: 100 }, (_, i) => ({ name: `note${i}`, data: 'x' })),
      { name: 'fileName', data: name },
    ];
    const boundary = boundaryFor(parts);
    const exchange = await t.send(
      {
        method: 'POST',
        path: '/file/create',
        query: {},
        raw: { contentType: multipartType(boundary), data: multipartBody(parts, boundary) },
      },
      'file.create.multipart',
    );
    // Contract 8: "Rate limits, upload size limits and maximum page sizes: not shown" (open choice upload-size-limit): a refusal
    // is the server's to give. UPL-01: a create that is taken makes "`file` with the given name".
    // Refused, as a server may: then it created nothing.
    if ((exchange.response?.status ?? 500) < 500 && isRefusal(exchange))
      return void t.record(await refusedLeftNothing(t, 'UPL-01', folderId, name));
    const listed = await filesOf(t, folderId);
    if (!listed.body) return void t.record(listed.findings);
    if (!listed.body.some((f) => f.name === name))
      t.record([
        finding(
          'UPL-01',
          'name',
          `a multipart create of 103 parts whose fileName part (${JSON.stringify(name)}) came last was answered ` +
            `${exchange.response?.status}, and folder ${folderId} lists ${listed.body.map(fileSummary).join(', ') || 'nothing'}`,
          listed.exchange,
        ),
      ]);
  },
);
