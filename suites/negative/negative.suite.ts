/**
 * Bad input (NEG-01..06, SHOULD: findings are warnings): malformed JSON, query values and body members
 * of the wrong type, unknown ids, oversized input and missing credentials, sent to every operation that
 * takes them. Each request is a valid one on the test's own sandbox objects with one thing broken, so
 * a server that wrongly serves it changes nothing but the sandbox; after a refusal, the test checks that
 * nothing changed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { BAD_QUERY_VALUES, invalidBodies, malformedJson } from '../../generators/invalid.ts';
import { uniqueFileName, uniqueFolderName } from '../../generators/requests.ts';
import { problemOf, requestOf, type CallSpec, type OperationId } from '../../harness/api.ts';
import { checkHandled, checkNo5xx, checkRefused, isRefusal, responseCode, type Finding } from '../../harness/checks.ts';
import { createFolderStep, uploadFileStep } from '../../harness/steps.ts';
import { StepFailed, conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange, RequestSpec } from '../../harness/transport.ts';
import { operations } from '../../schemas/operations.ts';

/** What the tests' requests act on: a sandbox folder with a sub-folder and a file, a localized file, and fresh folders to delete. */
class Bench {
  private made?: Promise<{ top: number; sub: number; file: number }>;
  private localized?: Promise<{ master: number; copy: number }>;
  private host?: Promise<{ url: string; close: () => Promise<void> }>;
  private n = 0;

  constructor(readonly t: ConformanceContext) {}

  /** The fixture's channel; without multichannelling only NEG-06 names one, in requests about ids that do not exist. */
  get channel(): number {
    return this.t.fixture.channelNodeId ?? this.t.fixture.masterNodeId;
  }

  /** A fresh realistic folder name from the test's seed. */
  folderName(): string {
    return fc.sample(uniqueFolderName(), { seed: this.t.seed + this.n++, numRuns: 1 })[0]!;
  }

  /** A fresh realistic file name from the test's seed. */
  fileName(): string {
    return fc.sample(uniqueFileName(), { seed: this.t.seed + this.n++, numRuns: 1 })[0]!;
  }

  /** The test's folder (in the run's sandbox), a sub-folder and a file in it, created on first use. */
  objects(): Promise<{ top: number; sub: number; file: number }> {
    this.made ??= (async () => {
      const top = await this.t.folder();
      const sub = (await createFolderStep(this.t, top, this.folderName())).id!;
      const file = (await uploadFileStep(this.t, top, this.fileName(), 'negative input\n', 'text/plain')).id!;
      return { top, sub, file };
    })();
    return this.made;
  }

  /** A new folder in the test's folder, for an operation that uses its folder up (delete). */
  async freshFolder(): Promise<number> {
    return (await createFolderStep(this.t, (await this.objects()).top, this.folderName())).id!;
  }

  /** The bench's file localized in the channel: its master id and the id the channel lists its copy under. */
  localizedFile(): Promise<{ master: number; copy: number }> {
    this.localized ??= (async () => {
      const { top } = await this.objects();
      const made = await uploadFileStep(this.t, top, this.fileName(), 'localized\n', 'text/plain');
      const [master, name] = [made.id!, made.name];
      await this.t.must('file.localize', { path: { id: master }, json: { channelId: this.channel } });
      const listed = await this.t.must('folder.getFiles', { path: { folderId: top }, query: { nodeId: this.channel } });
      const copy = listed.files?.find((f) => f.name === name && f.inherited !== true)?.id;
      if (copy === undefined) {
        const message = `after localizing file ${master}, channel ${this.channel} lists no copy of it that is not inherited`;
        this.t.record([finding(this.t, 'step', message)]);
        throw new StepFailed(message);
      }
      return { master, copy };
    })();
    return this.localized;
  }

  /** A URL the target can download a small file from (file.create.json); the host runs until close. */
  async sourceUrl(name: string): Promise<string> {
    this.host ??= new Promise((resolve) => {
      const server = createServer((_req, res) => res.end('downloaded content\n'));
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        resolve({ url: `http://127.0.0.1:${port}/files`, close: () => new Promise<void>((done) => server.close(() => done())) });
      });
    });
    return `${(await this.host).url}/${encodeURIComponent(name)}`;
  }

  /** Stops the file host, if one was started. */
  async close(): Promise<void> {
    await (await this.host)?.close();
  }
}

/** Runs a test body with a bench and closes the bench afterwards. */
function withBench(body: (t: ConformanceContext, b: Bench) => Promise<void>): (t: ConformanceContext) => Promise<void> {
  return async (t) => {
    const b = new Bench(t);
    try {
      await body(t, b);
    } finally {
      await b.close();
    }
  };
}

/**
 * Where a request names its subject (the object it is about): in the path, as a string (query or body
 * member, where a global id also fits), as an integer, or nowhere.
 */
type Subject = 'path' | 'string' | 'integer' | 'none';

/** A valid request of an operation on the bench's objects; `id` replaces its subject's id. */
interface Base {
  subject: Subject;
  spec: (b: Bench, id?: string | number) => Promise<CallSpec>;
}

const data = (text: string) => new TextEncoder().encode(text);
const upload = (name: string) => ({ name: 'fileBinaryData', filename: name, contentType: 'text/plain', data: data(`${name}\n`) });

const BASES: Record<OperationId, Base> = {
  'folder.list': { subject: 'string', spec: async (b, id) => ({ query: { folderId: String(id ?? (await b.objects()).top) } }) },
  'folder.create': { subject: 'string', spec: async (b, id) => ({ json: { motherId: String(id ?? (await b.objects()).top), name: b.folderName() } }) },
  'folder.disinherit.getMany': { subject: 'string', spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).sub)] } }) },
  'folder.disinherit.setMany': { subject: 'string', spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).sub)] }, json: {} }) },
  'folder.disinherit.get': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub } }) },
  'folder.disinherit.set': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub }, json: {} }) },
  'folder.findFiles': { subject: 'integer', spec: async (b, id) => ({ query: { folderId: id ?? (await b.objects()).top } }) },
  'folder.findPages': { subject: 'integer', spec: async (b, id) => ({ query: { folderId: id ?? (await b.objects()).top } }) },
  'folder.getFolders.post': { subject: 'string', spec: async (b, id) => ({ json: { id: String(id ?? (await b.objects()).top) } }) },
  'folder.getFolders': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top } }) },
  'folder.breadcrumb': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub } }) },
  'folder.count': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top } }) },
  'folder.delete': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.freshFolder()) } }) },
  'folder.getExternalLinks': { subject: 'path', spec: async (b, id) => ({ path: { folderId: id ?? (await b.objects()).top } }) },
  'folder.getFiles': { subject: 'path', spec: async (b, id) => ({ path: { folderId: id ?? (await b.objects()).top } }) },
  'folder.getItems': { subject: 'path', spec: async (b, id) => ({ path: { folderId: id ?? (await b.objects()).top } }) },
  'folder.getPages': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top } }) },
  'folder.getTemplates': { subject: 'path', spec: async (b, id) => ({ path: { folderId: id ?? (await b.objects()).top } }) },
  'folder.load': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top } }) },
  'folder.localizationinfo': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top }, query: { recursive: true } }) },
  'folder.localizations': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub } }) },
  'folder.localize': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub }, json: { channelId: b.channel } }) },
  'file.list': { subject: 'string', spec: async (b, id) => ({ query: { folderId: String(id ?? (await b.objects()).top) } }) },
  'file.copy': { subject: 'integer', spec: async (b, id) => ({ json: { file: { id: id ?? (await b.objects()).file }, targetFolder: { id: (await b.objects()).top } } }) },
  'file.create.multipart': {
    subject: 'string',
    spec: async (b, id) => {
      const name = b.fileName();
      return { multipart: { fields: { folderId: String(id ?? (await b.objects()).top), fileName: name }, files: [upload(name)] } };
    },
  },
  'file.create.json': {
    subject: 'integer',
    spec: async (b, id) => {
      const name = b.fileName();
      return { json: { folderId: id ?? (await b.objects()).top, name, sourceURL: await b.sourceUrl(name) } };
    },
  },
  'file.createSimple.multipart': {
    subject: 'string',
    spec: async (b, id) => {
      const name = b.fileName();
      return { query: { folderId: String(id ?? (await b.objects()).top), qqfile: name }, multipart: { files: [upload(name)] } };
    },
  },
  'file.createSimple.raw': {
    subject: 'integer',
    spec: async (b, id) => {
      const name = b.fileName();
      return { query: { folderId: id ?? (await b.objects()).top, qqfile: name }, raw: { contentType: 'text/plain', data: data(`${name}\n`) } };
    },
  },
  'file.disinherit.get': { subject: 'string', spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).file)] } }) },
  'file.disinherit.set': { subject: 'string', spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).file)] }, json: {} }) },
  'file.load': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file } }) },
  'file.localizationinfo': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file } }) },
  'file.localizations': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file } }) },
  'file.localize': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, json: { channelId: b.channel } }) },
  'file.move': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, json: { folderId: (await b.objects()).sub } }) },
  'file.push2master': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.localizedFile()).copy }, json: { channelId: b.channel, masterId: b.t.fixture.masterNodeId } }),
  },
  'file.save.json': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, json: { file: { description: 'saved by the negative suite' } } }) },
  'file.save.multipart': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, multipart: { files: [upload(b.fileName())] } }) },
  'file.unlocalize': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.localizedFile()).copy }, json: { channelId: b.channel } }) },
  'file.usage.file': { subject: 'integer', spec: async (b, id) => ({ query: { id: [id ?? (await b.objects()).file] } }) },
  'file.usage.folder': { subject: 'integer', spec: async (b, id) => ({ query: { id: [id ?? (await b.objects()).file] } }) },
  'file.usage.page': { subject: 'none', spec: async () => ({}) },
  'file.usage.syncableObjects': {
    subject: 'integer',
    spec: async (b, id) => ({ query: { ids: [id ?? (await b.objects()).file], srcNodeId: b.channel, dstNodeId: b.t.fixture.masterNodeId } }),
  },
};

function finding(t: ConformanceContext, check: string, message: string, exchange?: Exchange): Finding {
  return { requirement: t.requirement, check, severity: 'error', message, exchange };
}

// ---- NEG-02: query values of the wrong type ----------------------------------------------------

for (const op of operations) {
  const params = op.parameters.filter((p) => p.in === 'query' && BAD_QUERY_VALUES[p.type].length > 0);
  if (params.length === 0) continue;
  conformance(
    'NEG-02',
    `${op.id}: query values of the wrong type are refused or ignored, never a server error`,
    withBench(async (t, b) => {
      const base = BASES[op.id as OperationId];
      const findings: Finding[] = [];
      // Every parameter gets one bad value of its type; the values rotate over the parameters, so each is sent.
      for (const [i, p] of params.entries()) {
        const values = BAD_QUERY_VALUES[p.type];
        const bad = values[(i + Math.abs(t.seed)) % values.length]!;
        const spec = await base.spec(b);
        const exchange = await t.send(requestOf(op.id as OperationId, { ...spec, query: { ...spec.query, [p.name]: p.multivalued ? [bad] : bad } }));
        // NEG-02: "a query value of the wrong type ... is refused or ignored, never a 5xx."
        findings.push(...checkHandled(exchange, t.requirement));
      }
      t.record(findings);
    }),
    { operation: op.id },
  );
}

// ---- NEG-03: unknown ids -----------------------------------------------------------------------

/** An id far beyond what a test target holds, a well-formed global id naming nothing, and a malformed one. */
const UNKNOWN_IDS = { number: 2_000_000_017, global: 'A547.00000000-0000-4000-8000-00000000dead', malformed: 'XXXX.not-a-global-id' };

for (const op of operations) {
  const base = BASES[op.id as OperationId];
  if (base.subject === 'none') continue;
  conformance(
    'NEG-03',
    `${op.id}: an unknown or malformed id is refused, never a server error`,
    withBench(async (t, b) => {
      const ids: (string | number)[] = base.subject === 'integer' ? [UNKNOWN_IDS.number] : [UNKNOWN_IDS.number, UNKNOWN_IDS.global, UNKNOWN_IDS.malformed];
      const findings: Finding[] = [];
      for (const id of ids) {
        const exchange = await t.send(requestOf(op.id as OperationId, await base.spec(b, id)));
        // NEG-03: "an unknown id is refused (not found), never a 5xx."
        findings.push(...checkRefused(exchange, t.requirement, `the request names ${JSON.stringify(id)}, which does not exist`));
      }
      t.record(findings);
    }),
    { operation: op.id },
  );
}

// ---- NEG-06: no credentials --------------------------------------------------------------------

for (const op of operations) {
  conformance(
    'NEG-06',
    `${op.id}: a request without credentials is refused as unauthenticated`,
    withBench(async (t, b) => {
      // An operation of a feature the target lacks is asked about an id that does not exist: auth still comes first.
      const lacking = op.feature !== null && !t.config.target.features.includes(op.feature);
      const spec = await BASES[op.id as OperationId].spec(b, lacking ? UNKNOWN_IDS.number : undefined);
      const exchange = await t.send({ ...requestOf(op.id as OperationId, spec), withoutCredentials: true });
      const findings = checkNo5xx(exchange, t.requirement);
      const status = exchange.response?.status;
      const code = responseCode(exchange);
      // NEG-06: "refused with 401/403 or AUTHREQUIRED/PERMISSION."
      if (!findings.length && status !== 401 && status !== 403 && code !== 'AUTHREQUIRED' && code !== 'PERMISSION') {
        findings.push(finding(t, 'auth', `without credentials the request got status ${status}, responseCode ${JSON.stringify(code)}; expected 401/403 or AUTHREQUIRED/PERMISSION`, exchange));
      }
      t.record(findings);
    }),
    { operation: op.id, timeout: 60_000 },
  );
}

// ---- NEG-01 and NEG-04: bodies that are not JSON or not of the request schema -------------------

/**
 * A fingerprint of what an operation with a JSON body may change on the bench, read through the
 * contract's own operations; undefined for operations that change nothing (getFolders by body).
 */
const OBSERVE: Partial<Record<OperationId, (t: ConformanceContext, b: Bench) => Promise<unknown>>> = {
  'folder.create': async (t, b) => (await t.must('folder.getFolders', { path: { id: (await b.objects()).top } })).folders?.map((f) => [f.id, f.name]),
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
  const res = kind === 'folder' ? await t.must('folder.disinherit.get', { path: { id } }) : await t.must('file.disinherit.get', { query: { id: [String(id)] } });
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
  return a === b ? [] : [finding(t, 'unchanged', `a refused request changed the target: before ${a.slice(0, 300)}, after ${b.slice(0, 300)}`, exchange)];
}

const JSON_OPERATIONS = operations.filter((op) => op.requestBody?.contentTypes.includes('application/json') && op.requestBody.schema);

for (const op of JSON_OPERATIONS) {
  const id = op.id as OperationId;
  const schema = op.requestBody!.schema!;
  const observe = OBSERVE[id];

  conformance(
    'NEG-01',
    `${id}: a malformed JSON body is refused and changes nothing`,
    withBench(async (t, b) => {
      const { path, query } = await BASES[id].spec(b);
      await t.property(malformedJson(schema), async (text) => {
        const before = await observe?.(t, b);
        const exchange = await t.send({ ...requestOf(id, { path, query }), raw: { contentType: 'application/json', data: text } });
        // NEG-01: "malformed JSON body is refused, not a 5xx, and changes nothing."
        const found = checkRefused(exchange, t.requirement, 'the body is not JSON');
        if (observe && isRefusal(exchange)) found.push(...unchanged(t, before, await observe(t, b), exchange));
        return found;
      }, { runs: Math.ceil(t.config.runs / 4) });
    }),
    { operation: id },
  );

  conformance(
    'NEG-04',
    `${id}: a body member of the wrong type is refused and changes nothing`,
    withBench(async (t, b) => {
      const spec = await BASES[id].spec(b);
      const findings: Finding[] = [];
      let before = await observe?.(t, b);
      for (const c of invalidBodies(schema, spec.json as Record<string, unknown>)) {
        const exchange = await t.send(requestOf(id, { ...spec, json: c.body }));
        // NEG-04: "a body field of the wrong type (folderId: "x", name: 5) is refused and changes nothing."
        findings.push(...checkRefused(exchange, t.requirement, `${c.pointer} is ${JSON.stringify(c.value)}, not of the type the request schema gives`));
        if (observe) {
          const after = await observe(t, b);
          if (isRefusal(exchange)) findings.push(...unchanged(t, before, after, exchange));
          before = after;
        }
      }
      t.record(findings);
    }),
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
  const exchange = await t.send(requestOf('folder.load', { path: { id: (await b.objects()).top } }));
  const problem = problemOf(exchange);
  return problem ? [finding(t, 'alive', `after ${after}, loading the test's own folder failed: ${problem}`, exchange)] : [];
}

/** A server may answer an oversized body before reading it and close the connection, which the client sees as a broken write. */
const CLOSED_EARLY = new Set(['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET']);

/**
 * Sends each request, judges it, and checks after each that the server still answers. A connection the
 * server closed while the body was still being written hides its answer: the request is sent again a
 * few times to see it, and a server that always closes early has refused the body.
 */
async function oversized(t: ConformanceContext, b: Bench, requests: [string, RequestSpec][]): Promise<void> {
  const findings: Finding[] = [];
  for (const [what, spec] of requests) {
    let exchange = await t.send(spec);
    for (let retry = 0; retry < 4 && CLOSED_EARLY.has(exchange.error?.code ?? ''); retry++) exchange = await t.send(spec);
    if (!CLOSED_EARLY.has(exchange.error?.code ?? '')) findings.push(...handledLarge(t, exchange));
    findings.push(...(await stillAnswers(t, b, what)));
  }
  t.record(findings);
}

const LONG_NAME = 'n'.repeat(10_000);

conformance(
  'NEG-05',
  'names and query values of 10,000 characters are refused or handled, and the server keeps answering',
  withBench(async (t, b) => {
    const { top, file } = await b.objects();
    await oversized(t, b, [
      ['a folder name of 10,000 characters', requestOf('folder.create', { json: { motherId: String(top), name: LONG_NAME } })],
      ['a file name of 10,000 characters', requestOf('file.create.multipart', { multipart: { fields: { folderId: String(top), fileName: `${LONG_NAME}.txt` }, files: [upload('long.txt')] } })],
      ['a saved file name of 10,000 characters', requestOf('file.save.json', { path: { id: file }, json: { file: { name: `${LONG_NAME}.txt` } } })],
      ['a qqfile of 10,000 characters', requestOf('file.createSimple.raw', { query: { folderId: top, qqfile: `${LONG_NAME}.txt` }, raw: { contentType: 'text/plain', data: data('long name\n') } })],
      ['a search of 10,000 characters', requestOf('folder.getFiles', { path: { folderId: top }, query: { search: LONG_NAME } })],
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
      ['a file record nested 100,000 levels deep', { ...requestOf('file.save.json', { path: { id: file } }), raw: json(`{"file":{"description":"deep","x":${nested(depth, '{"a":', '}', '1')}}}`) }],
      ['a channel list nested 100,000 levels deep', { ...requestOf('folder.disinherit.set', { path: { id: sub } }), raw: json(`{"disinherit":${nested(depth, '[', ']', '1')}}`) }],
      ['a body that is only nesting', { ...requestOf('folder.create'), raw: json(nested(depth, '[', ']', `"${top}"`)) }],
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
    const big = new Uint8Array(LARGE).fill(0x61);
    // JSON with one 32 MB member; sent as bytes, so the recorded exchange keeps only its size and digest.
    const json = new Uint8Array(LARGE + 64);
    const head = data(`{"motherId":"${top}","name":"${b.folderName().replace(/["\\]/g, '')}","description":"`);
    json.set(head);
    json.fill(0x61, head.length, LARGE);
    json.set(data('"}'), LARGE);
    await oversized(t, b, [
      ['a 32 MB JSON body', { ...requestOf('folder.create'), raw: { contentType: 'application/json', data: json.subarray(0, LARGE + 2) } }],
      ['a 32 MB multipart upload', requestOf('file.create.multipart', { multipart: { fields: { folderId: String(top), fileName: name }, files: [{ ...upload(name), data: big }] } })],
      ['a 32 MB raw upload', requestOf('file.createSimple.raw', { query: { folderId: top, qqfile: name }, raw: { contentType: 'application/octet-stream', data: big } })],
    ]);
  }),
  { timeout: 120_000 },
);
