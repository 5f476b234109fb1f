/**
 * Bad request bodies (NEG-01, NEG-04, NEG-05, SHOULD: findings are warnings): malformed JSON, body
 * members of the wrong type and oversized input, sent to every operation that takes them; after a
 * refusal, the test checks that nothing changed.
 */
import { invalidBodies, malformedJson, type InvalidBody } from '../../generators/invalid.ts';
import { idOf, requestOf, type CallSpec, type OperationId } from '../../harness/api.ts';
import { checkHandled, checkNo5xx, checkRefused, finding, isRefusal, type Finding } from '../../harness/checks.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import { isRecord } from '../../harness/rules/answer.ts';
import type { Exchange, RequestSpec } from '../../harness/transport.ts';
import { onlyReads, operations } from '../../schemas/operations.ts';
import { BASES, data, upload, withBench, type Bench } from './bench.ts';

// ---- NEG-01 and NEG-04: bodies that are not JSON or not of the request schema -------------------

/**
 * A fingerprint of what an operation with a JSON body may change on the bench, read through the
 * contract's own operations; undefined for operations that change nothing (getFolders by body).
 */
const OBSERVE: Partial<Record<OperationId, (t: ConformanceContext, b: Bench) => Promise<unknown>>> = {
  'folder.create': async (t, b) =>
    (await t.must('folder.getFolders', { path: { id: (await b.objects()).top } })).folders?.map((f) => [f.id, f.name]),
  'folder.disinherit.set': async (t, b) => disinheritOf(t, 'folder', (await b.objects()).sub),
  'folder.disinherit.setMany': async (t, b) => disinheritOf(t, 'folder', (await b.objects()).sub),
  'file.disinherit.set': async (t, b) => disinheritOf(t, 'file', (await b.objects()).file),
  'folder.localize': async (t, b) => localizationsOf(t, 'folder', (await b.objects()).sub),
  'file.localize': async (t, b) => localizationsOf(t, 'file', (await b.objects()).file),
  'file.unlocalize': async (t, b) => localizationsOf(t, 'file', (await b.localizedFile()).master),
  'file.copy': async (t, b) => filesBelow(t, (await b.objects()).top),
  'file.create.json': async (t, b) => filesBelow(t, (await b.objects()).top),
  'file.move': async (t, b) => filesBelow(t, (await b.objects()).top),
  'file.save.json': async (t, b) => fileState(t, (await b.objects()).file),
  'file.push2master': async (t, b) => fileState(t, (await b.localizedFile()).master),
};

async function disinheritOf(t: ConformanceContext, kind: 'folder' | 'file', id: number): Promise<unknown> {
  const res =
    kind === 'folder'
      ? await t.must('folder.disinherit.get', { path: { id } })
      : await t.must('file.disinherit.get', { query: { id: [String(id)] } });
  return [res.exclude, res.disinherit, res.disinheritDefault];
}

async function localizationsOf(t: ConformanceContext, kind: 'folder' | 'file', id: number): Promise<unknown> {
  const res = await t.must(kind === 'folder' ? 'folder.localizations' : 'file.localizations', { path: { id } });
  return [res.total, res.nodeIds];
}

async function filesBelow(t: ConformanceContext, folderId: number): Promise<unknown> {
  const res = await t.must('folder.getFiles', { path: { folderId }, query: { recursive: true } });
  return (res.files ?? []).map((f) => [f.id, f.name, f.folderId, f.fileSize]);
}

async function fileState(t: ConformanceContext, id: number): Promise<unknown> {
  const { file } = await t.must('file.load', { path: { id } });
  return [file?.name, file?.fileSize, file?.description];
}

/** Compares what an operation may change before and after a refused request. */
function unchanged(t: ConformanceContext, before: unknown, after: unknown, exchange: Exchange): Finding[] {
  const [a, b] = [JSON.stringify(before), JSON.stringify(after)];
  if (a === b) return [];
  // Lists (folders, files) name what came and what went, which a cut-off before and after would hide.
  const change =
    Array.isArray(before) && Array.isArray(after)
      ? (() => {
          const [was, is] = [new Set(before.map((x) => JSON.stringify(x))), new Set(after.map((x) => JSON.stringify(x)))];
          const added = [...is].filter((x) => !was.has(x));
          const removed = [...was].filter((x) => !is.has(x));
          return `added [${added.join(', ').slice(0, 300)}], removed [${removed.join(', ').slice(0, 300)}]`;
        })()
      : `before ${a.slice(0, 300)}, after ${b.slice(0, 300)}`;
  return [finding(t.requirement, 'unchanged', `a refused request changed the target: ${change}`, exchange)];
}

/** A member as the target stored it; a file name may carry what the server adds to it. */
interface Stored {
  value: unknown;
  fileName?: true;
}

/**
 * The members of the object an accepted request created, by the pointer that sets them, as the
 * target stored them (loaded by the id its answer gives); only names and descriptions, which a server
 * keeps as sent. Undefined when the answer names no object.
 */
const STORED: Partial<Record<OperationId, (t: ConformanceContext, answer: unknown) => Promise<Record<string, Stored> | undefined>>> = {
  'folder.create': async (t, answer) => {
    const folder = await loaded(t, 'folder', (answer as { folder?: { id?: unknown } }).folder?.id);
    return folder && { '/name': { value: folder.name }, '/description': { value: folder.description } };
  },
  'file.create.json': async (t, answer) => {
    const file = await loaded(t, 'file', (answer as { file?: { id?: unknown } }).file?.id);
    return file && { '/name': { value: file.name, fileName: true }, '/description': { value: file.description } };
  },
  'file.copy': async (t, answer) => {
    const file = await loaded(t, 'file', (answer as { file?: { id?: unknown } }).file?.id);
    return file && { '/newFilename': { value: file.name, fileName: true } };
  },
};

/** The folder or file an answer names, as load returns it; undefined when there is no id or the load is refused (a step finding). */
async function loaded(
  t: ConformanceContext,
  kind: 'folder' | 'file',
  id: unknown,
): Promise<{ name?: string; description?: string } | undefined> {
  const n = idOf(id);
  if (n === undefined) return undefined;
  return kind === 'folder'
    ? (await t.call('folder.load', { path: { id: n } })).body?.folder
    : (await t.call('file.load', { path: { id: n } })).body?.file;
}

/**
 * Whether a stored member is the value sent. A file name may come back with what reference notes say
 * the server adds: "an extension is added from the part's media type when the name has none", and
 * "names colliding in a folder are made unique as `base_1.ext`".
 */
function storedAs(stored: Stored, sent: string | number | boolean): boolean {
  if (stored.value === sent) return true;
  if (!stored.fileName || typeof stored.value !== 'string' || typeof sent !== 'string') return false;
  const [, base = sent, ext] = /^(.*?)(\.[^.]*)?$/.exec(sent) ?? [];
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escape(base)}(_\\d+)?${ext ? escape(ext) : '(\\.[A-Za-z][A-Za-z0-9]*)?'}$`).test(stored.value);
}

/** NEG-04: a converted member that was accepted is stored as the converted value, where the test can read it back. */
async function storedConverted(
  t: ConformanceContext,
  op: OperationId,
  c: InvalidBody,
  answer: unknown,
  exchange: Exchange,
): Promise<Finding[]> {
  const stored = (await STORED[op]?.(t, answer))?.[c.pointer];
  if (!stored || c.converted === undefined || storedAs(stored, c.converted)) return [];
  return [
    finding(
      t.requirement,
      'converted',
      `${c.pointer} was sent as ${JSON.stringify(c.value)} and accepted, so it must be stored as ${JSON.stringify(c.converted)}; ` +
        `the target stored ${JSON.stringify(stored.value)}`,
      exchange,
    ),
  ];
}

const JSON_OPERATIONS = operations.filter((op) => op.requestBody?.contentTypes.includes('application/json') && op.requestBody.schema);

/**
 * Members of the File record a save sends inside `file`, each with a value its type in contract 2.4 cannot take
 * ("name | string", "description | string", "alternateUrls | array of string", "forceOnline | boolean"). The request
 * schema leaves `file` open (2.1: which members are required is not shown), so invalidBodies finds none of them.
 */
function recordMembers(id: OperationId, json: unknown): InvalidBody[] {
  if (id !== 'file.save.json' || !isRecord(json) || !isRecord(json.file)) return [];
  const file = json.file;
  const wrong: [string, unknown][] = [
    ['name', { wrong: 'type' }],
    ['description', { wrong: 'type' }],
    ['niceUrl', { wrong: 'type' }],
    ['fileType', { wrong: 'type' }],
    ['alternateUrls', 'x'],
    ['alternateUrls', [{ wrong: 'type' }]],
    ['forceOnline', 'maybe'],
  ];
  return wrong.map(([member, value]) => ({ pointer: `/file/${member}`, value, body: { ...json, file: { ...file, [member]: value } } }));
}

for (const op of JSON_OPERATIONS) {
  const id = op.id as OperationId;
  const schema = op.requestBody!.schema!;
  const observe = OBSERVE[id];

  conformance(
    'NEG-01',
    `${id}: a malformed JSON body is refused and changes nothing`,
    withBench(
      async (t, b) => {
        const { path, query } = await BASES[id].spec(b);
        // What the previous case left, read after it: nothing else changes the test's objects, so the next case starts
        // from it and need not read it again.
        let left: unknown;
        await t.property(
          malformedJson(schema),
          async (text) => {
            const before = left ?? (await observe?.(t, b));
            left = undefined;
            const exchange = await t.send({ ...requestOf(id, { path, query }), raw: { contentType: 'application/json', data: text } }, id);
            // NEG-01: "malformed JSON body is refused, not a 5xx, and changes nothing."
            const found = checkRefused(exchange, t.requirement, 'the body is not JSON');
            if (observe && isRefusal(exchange)) {
              const after = await observe(t, b);
              found.push(...unchanged(t, before, after, exchange));
              left = after;
            }
            return found;
          },
          { runs: Math.ceil(t.config.runs / 4) },
        );
      },
      { shared: onlyReads(op) },
    ),
    { operation: id },
  );

  conformance(
    'NEG-04',
    `${id}: a body member that does not convert to its type is refused and changes nothing, ` +
      'one that converts is refused or stored converted',
    withBench(
      async (t, b) => {
        const spec = await BASES[id].spec(b);
        const findings: Finding[] = [];
        const cases = [...invalidBodies(schema, spec.json as Record<string, unknown>), ...recordMembers(id, spec.json)];
        // The refused requests since `before` was read, and whether an accepted one came among them. Refusals change
        // nothing, so a run of them is read back once, not after each.
        let pending: { exchange: Exchange; request: CallSpec }[] = [];
        let accepted = false;
        let before = await observe?.(t, b);
        // An accepted request may have changed what `before` holds: it is read again before the next request.
        let stale = false;
        const settle = async (): Promise<void> => {
          if (!observe || !pending.length) return;
          let after = await observe(t, b);
          if (JSON.stringify(after) !== JSON.stringify(before)) {
            // Something changed: each refused request is sent again between two reads, to name the one that did it.
            let named = false;
            for (const p of pending) {
              const start = await observe(t, b);
              const again = await t.try(id, p.request);
              const end = await observe(t, b);
              if (!isRefusal(again.exchange)) continue;
              const changed = unchanged(t, start, end, again.exchange);
              named ||= changed.length > 0;
              findings.push(...changed);
            }
            // No accepted request came among them, so one of the refusals made the change, though not again when repeated.
            if (!named && !accepted) findings.push(...unchanged(t, before, after, pending[0]!.exchange));
            after = await observe(t, b);
          }
          [pending, accepted, stale, before] = [[], false, false, after];
        };
        // Those that must be refused first, read back once; then those that may be accepted, each of which may change what
        // is read (a converted name creates a folder), so a refusal before one is read back before it is sent.
        for (const c of [...cases.filter((c) => c.converted === undefined), ...cases.filter((c) => c.converted !== undefined)]) {
          if (c.converted !== undefined) await settle();
          if (stale && observe) [before, stale] = [await observe(t, b), false];
          const request: CallSpec = { ...spec, json: c.body };
          const { exchange, body } = await t.try(id, request);
          // NEG-04: "a body field whose value cannot be converted to the field's type (folderId: "x", name: {}) is refused and
          // changes nothing. A scalar that converts without loss (5 for a string member, "7" for an integer member, "true" for
          // a boolean) may be accepted as the converted value."
          if (c.converted === undefined)
            findings.push(
              ...checkRefused(
                exchange,
                t.requirement,
                `${c.pointer} is ${JSON.stringify(c.value)}, which does not convert to the type the request schema gives`,
              ),
            );
          else findings.push(...checkHandled(exchange, t.requirement));
          if (body !== undefined && c.converted !== undefined) findings.push(...(await storedConverted(t, id, c, body, exchange)));
          if (isRefusal(exchange)) pending.push({ exchange, request });
          else if (pending.length) accepted = true;
          else stale = true;
        }
        await settle();
        t.record(findings);
      },
      { shared: onlyReads(op) },
    ),
    { operation: id },
  );
}

// ---- NEG-05: oversized input -------------------------------------------------------------------

/** Oversized input is "refused or handled, never a 5xx": a served answer too big to keep whole counts as handled. */
function handledLarge(t: ConformanceContext, exchange: Exchange): Finding[] {
  if (exchange.response?.truncated) return checkNo5xx(exchange, t.requirement);
  return checkHandled(exchange, t.requirement);
}

/** NEG-05: "the server keeps answering": a harmless load of the bench's folder still succeeds. */
async function stillAnswers(t: ConformanceContext, b: Bench, after: string): Promise<Finding[]> {
  const { exchange, problem } = await t.try('folder.load', { path: { id: (await b.objects()).top } });
  return problem ? [finding(t.requirement, 'alive', `after ${after}, loading the test's own folder failed: ${problem}`, exchange)] : [];
}

/** A server may answer an oversized body before reading it and close the connection, which the client sees as a broken write. */
const CLOSED_EARLY = new Set(['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET']);

/**
 * Sends each request, judges it, and checks after each that the server still answers. A connection the
 * server closed while the body was still being written hides its answer: the request is sent again a
 * few times to see it, and a server that always closes early has refused the body.
 */
async function oversized(t: ConformanceContext, b: Bench, requests: [string, OperationId, RequestSpec][]): Promise<void> {
  const findings: Finding[] = [];
  for (const [what, op, spec] of requests) {
    let exchange = await t.send(spec, op);
    for (let retry = 0; retry < 4 && CLOSED_EARLY.has(exchange.error?.code ?? ''); retry++) exchange = await t.send(spec, op);
    if (!CLOSED_EARLY.has(exchange.error?.code ?? '')) findings.push(...handledLarge(t, exchange));
    findings.push(...(await stillAnswers(t, b, what)));
  }
  t.record(findings);
  // What a server that handled the input made of it (a 32 MB description, names of 10,000 characters) lies in the
  // test's own folder and goes with it at once: left there, it would swell every later listing of the sandbox, or of
  // a folder above it, past the run's answer size cap, and those listings would judge nothing.
  await t.try('folder.delete', { path: { id: (await b.objects()).top } });
}

const LONG_NAME = 'n'.repeat(10_000);

conformance(
  'NEG-05',
  'names and query values of 10,000 characters are refused or handled, and the server keeps answering',
  withBench(async (t, b) => {
    const { top, file } = await b.objects();
    await oversized(t, b, [
      [
        'a folder name of 10,000 characters',
        'folder.create',
        requestOf('folder.create', { json: { motherId: String(top), name: LONG_NAME } }),
      ],
      [
        'a file name of 10,000 characters',
        'file.create.multipart',
        requestOf('file.create.multipart', {
          multipart: { fields: { folderId: String(top), fileName: `${LONG_NAME}.txt` }, files: [upload('long.txt')] },
        }),
      ],
      [
        'a saved file name of 10,000 characters',
        'file.save.json',
        requestOf('file.save.json', { path: { id: file }, json: { file: { name: `${LONG_NAME}.txt` } } }),
      ],
      [
        'a qqfile of 10,000 characters',
        'file.createSimple.raw',
        requestOf('file.createSimple.raw', {
          query: { folderId: top, qqfile: `${LONG_NAME}.txt` },
          raw: { contentType: 'text/plain', data: data('long name\n') },
        }),
      ],
      [
        'a search of 10,000 characters',
        'folder.getFiles',
        requestOf('folder.getFiles', { path: { folderId: top }, query: { search: LONG_NAME } }),
      ],
    ]);
  }),
);

/** `depth` levels of `open` ... `close` around `inner`. */
const nested = (depth: number, open: string, close: string, inner: string): string => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

conformance(
  'NEG-05',
  'JSON bodies nested 100,000 levels deep are refused or handled, and the server keeps answering',
  withBench(async (t, b) => {
    const { top, file, sub } = await b.objects();
    const depth = 100_000;
    // Sent as bytes, so the recorded exchange keeps only their size and digest.
    const json = (text: string) => ({ contentType: 'application/json', data: data(text) });
    await oversized(t, b, [
      [
        'a file record nested 100,000 levels deep',
        'file.save.json',
        {
          ...requestOf('file.save.json', { path: { id: file } }),
          raw: json(`{"file":{"description":"deep","x":${nested(depth, '{"a":', '}', '1')}}}`),
        },
      ],
      [
        'a channel list nested 100,000 levels deep',
        'folder.disinherit.set',
        { ...requestOf('folder.disinherit.set', { path: { id: sub } }), raw: json(`{"disinherit":${nested(depth, '[', ']', '1')}}`) },
      ],
      ['a body that is only nesting', 'folder.create', { ...requestOf('folder.create'), raw: json(nested(depth, '[', ']', `"${top}"`)) }],
    ]);
  }),
);

const LARGE = 32 * 1024 * 1024;

conformance(
  'NEG-05',
  'request bodies of 32 MB are refused or handled, and the server keeps answering',
  withBench(async (t, b) => {
    const { top } = await b.objects();
    const name = b.fileName();
    // JSON with one 32 MB member; sent as bytes, so the recorded exchange keeps only its size and digest.
    // The uploads send that member's 32 MB themselves: one buffer serves all three bodies, not two.
    const head = data(`{"motherId":"${top}","name":"${b.folderName().replace(/["\\]/g, '')}","description":"`);
    const json = new Uint8Array(head.length + LARGE + 2);
    json.set(head);
    json.fill(0x61, head.length, head.length + LARGE);
    json.set(data('"}'), head.length + LARGE);
    const big = json.subarray(head.length, head.length + LARGE);
    await oversized(t, b, [
      ['a 32 MB JSON body', 'folder.create', { ...requestOf('folder.create'), raw: { contentType: 'application/json', data: json } }],
      [
        'a 32 MB multipart upload',
        'file.create.multipart',
        requestOf('file.create.multipart', {
          multipart: { fields: { folderId: String(top), fileName: name }, files: [{ ...upload(name), data: big }] },
        }),
      ],
      [
        'a 32 MB raw upload',
        'file.createSimple.raw',
        requestOf('file.createSimple.raw', {
          query: { folderId: top, qqfile: name },
          raw: { contentType: 'application/octet-stream', data: big },
        }),
      ],
    ]);
  }),
  { timeout: 120_000 },
);

conformance(
  'ENV-08',
  'a JSON body holding a number beyond a double beside null and string members is answered',
  withBench(async (t, b) => {
    const { top } = await b.objects();
    // 1e400 is beyond a double, beside a null member and a string (a reader that walks the members meets them in either order,
    // the number first too). Refused or handled, a server error never, and an answer: the judge fails this test on either.
    for (const body of [
      `{"motherId":"${top}","name":1e400,"description":null}`,
      `{"motherId":"${top}","description":null,"name":1e400}`,
      `{"name":1e400,"motherId":"${top}"}`,
    ])
      await t.send({ ...requestOf('folder.create'), raw: { contentType: 'application/json', data: data(body) } }, 'folder.create');
  }),
);

conformance(
  'NEG-01',
  'a JSON body under a Content-Type that is no media type is refused, never with a server error',
  withBench(async (t, b) => {
    const { top } = await b.objects();
    // "Request bodies, where present, are JSON with `Content-Type: application/json`": `json` and `text` are no media type of that
    // form, which a parser refuses before any handler. A refusal is the answer; the judge fails this test on a 5xx (ENV-08).
    for (const contentType of ['json', 'text']) {
      const exchange = await t.send(
        { ...requestOf('folder.create'), raw: { contentType, data: data(`{"motherId":"${top}","name":"${b.folderName()}"}`) } },
        'folder.create',
      );
      t.record(checkRefused(exchange, 'NEG-01', `a JSON body labelled Content-Type: ${contentType}, no media type, must be refused`));
    }
  }),
);
