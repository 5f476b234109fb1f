/**
 * Bad input (NEG-01..06, SHOULD: findings are warnings): malformed JSON, query values and body members
 * of the wrong type, unknown ids, oversized input and missing credentials, sent to every operation that
 * takes them. Each request is a valid one on the test's own sandbox objects with one thing broken, so
 * a server that wrongly serves it changes nothing but the sandbox; after a refusal, the test checks that
 * nothing changed.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { BAD_QUERY_VALUES, invalidBodies, malformedJson, type InvalidBody } from '../../generators/invalid.ts';
import { uniqueFileName, uniqueFolderName } from '../../generators/requests.ts';
import { SetupError, idOf, requestOf, type CallSpec, type OperationId } from '../../harness/api.ts';
import { checkHandled, checkNo5xx, checkRefused, finding, isRefusal, responseCode, type Finding } from '../../harness/checks.ts';
import { startFileHost, type FileHost } from '../../harness/filehost.ts';
import { createFolderStep, uploadFileStep } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import { isRecord } from '../../harness/rules/answer.ts';
import type { Exchange, RequestSpec } from '../../harness/transport.ts';
import { operations } from '../../schemas/operations.ts';

/** What the tests' requests act on: a sandbox folder with a sub-folder and a file, a localized file, and fresh folders to delete. */
class Bench {
  private made?: Promise<{ top: number; sub: number; file: number }>;
  private localized?: Promise<{ master: number; copy: number }>;
  private host?: Promise<FileHost>;
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
      if (copy === undefined)
        throw new SetupError(`after localizing file ${master}, channel ${this.channel} lists no copy of it that is not inherited`);
      return { master, copy };
    })();
    return this.localized;
  }

  /** A URL the target can download a small file from (file.create.json): the configured file host, running until close. */
  async sourceUrl(name: string): Promise<string> {
    this.host ??= startFileHost({
      fallback: () => ({ data: new TextEncoder().encode('downloaded content\n'), contentType: 'text/plain' }),
    });
    return `${(await this.host).url}/files/${encodeURIComponent(name)}`;
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
  'folder.create': {
    subject: 'string',
    spec: async (b, id) => ({ json: { motherId: String(id ?? (await b.objects()).top), name: b.folderName() } }),
  },
  'folder.disinherit.getMany': { subject: 'string', spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).sub)] } }) },
  'folder.disinherit.setMany': {
    subject: 'string',
    spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).sub)] }, json: {} }),
  },
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
  'folder.localizationinfo': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top }, query: { recursive: true } }),
  },
  'folder.localizations': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub } }) },
  'folder.localize': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub }, json: { channelId: b.channel } }),
  },
  'file.list': { subject: 'string', spec: async (b, id) => ({ query: { folderId: String(id ?? (await b.objects()).top) } }) },
  'file.copy': {
    subject: 'integer',
    spec: async (b, id) => ({ json: { file: { id: id ?? (await b.objects()).file }, targetFolder: { id: (await b.objects()).top } } }),
  },
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
      return {
        query: { folderId: id ?? (await b.objects()).top, qqfile: name },
        raw: { contentType: 'text/plain', data: data(`${name}\n`) },
      };
    },
  },
  'file.disinherit.get': { subject: 'string', spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).file)] } }) },
  'file.disinherit.set': {
    subject: 'string',
    spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).file)] }, json: {} }),
  },
  'file.load': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file } }) },
  'file.localizationinfo': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file } }) },
  'file.localizations': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file } }) },
  'file.localize': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, json: { channelId: b.channel } }),
  },
  'file.move': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, json: { folderId: (await b.objects()).sub } }),
  },
  'file.push2master': {
    subject: 'path',
    spec: async (b, id) => ({
      path: { id: id ?? (await b.localizedFile()).copy },
      json: { channelId: b.channel, masterId: b.t.fixture.masterNodeId },
    }),
  },
  'file.save.json': {
    subject: 'path',
    spec: async (b, id) => ({
      path: { id: id ?? (await b.objects()).file },
      json: { file: { description: 'saved by the negative suite' } },
    }),
  },
  'file.save.multipart': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, multipart: { files: [upload(b.fileName())] } }),
  },
  'file.unlocalize': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.localizedFile()).copy }, json: { channelId: b.channel } }),
  },
  'file.usage.file': { subject: 'integer', spec: async (b, id) => ({ query: { id: [id ?? (await b.objects()).file] } }) },
  'file.usage.folder': { subject: 'integer', spec: async (b, id) => ({ query: { id: [id ?? (await b.objects()).file] } }) },
  'file.usage.page': { subject: 'none', spec: async () => ({}) },
  'file.usage.syncableObjects': {
    subject: 'integer',
    spec: async (b, id) => ({
      query: { ids: [id ?? (await b.objects()).file], srcNodeId: b.channel, dstNodeId: b.t.fixture.masterNodeId },
    }),
  },
};

// ---- NEG-02: query values of the wrong type ----------------------------------------------------

/** Whether two answers say the same, their envelopes (messages with their timestamps, responseInfo) aside. */
function sameContent(a: object, b: object): boolean {
  const content = (x: object) => Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'messages' && k !== 'responseInfo'));
  return isDeepStrictEqual(content(a), content(b));
}

for (const op of operations) {
  const params = op.parameters.filter((p) => p.in === 'query' && BAD_QUERY_VALUES[p.type].length > 0);
  if (params.length === 0) continue;
  conformance(
    'NEG-02',
    `${op.id}: query values of the wrong type are refused or ignored, never a server error`,
    withBench(async (t, b) => {
      const base = BASES[op.id as OperationId];
      const findings: Finding[] = [];
      // Every parameter gets one bad value of its type; the values rotate over the parameters, so each is sent. A
      // boolean whose default is true gets all of them: a bad value taken as false shows there, and only there.
      const sends = params.flatMap((p, i) => {
        const values = BAD_QUERY_VALUES[p.type];
        if (p.type === 'boolean' && p.default === true) return values.map((bad) => ({ p, bad }));
        return [{ p, bad: values[(i + Math.abs(t.seed)) % values.length]! }];
      });
      for (const { p, bad } of sends) {
        const spec = await base.spec(b);
        const { exchange, body } = await t.try(op.id as OperationId, {
          ...spec,
          query: { ...spec.query, [p.name]: p.multivalued ? [bad] : bad },
        });
        // NEG-02: "a query value of the wrong type ... is refused or ignored, never a 5xx."
        findings.push(...checkHandled(exchange, t.requirement));
        // Taken, it must have been ignored: a read answers as it does without the parameter. A server that refuses
        // every such value (as the reference server does) is never asked twice.
        if (body !== undefined && op.method === 'GET') {
          const { [p.name]: _, ...without } = spec.query ?? {};
          const plain = await t.try(op.id as OperationId, { ...spec, query: without });
          if (plain.body !== undefined && !sameContent(body, plain.body))
            findings.push(
              finding(
                t.requirement,
                'ignored',
                `${p.name}=${JSON.stringify(bad)} (not ${p.type === 'integer' ? 'an integer' : p.type === 'number' ? 'a number' : 'true or false'}) ` +
                  'was taken, and the answer differs from the answer without it: the value was neither refused nor ignored',
                exchange,
              ),
            );
        }
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
      const ids: (string | number)[] =
        base.subject === 'integer' ? [UNKNOWN_IDS.number] : [UNKNOWN_IDS.number, UNKNOWN_IDS.global, UNKNOWN_IDS.malformed];
      const findings: Finding[] = [];
      for (const id of ids) {
        const { exchange } = await t.try(op.id as OperationId, await base.spec(b, id));
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
      const exchange = await t.send({ ...requestOf(op.id as OperationId, spec), withoutCredentials: true }, op.id as OperationId);
      const findings = checkNo5xx(exchange, t.requirement);
      const status = exchange.response?.status;
      const code = responseCode(exchange);
      // NEG-06: "refused with 401/403 or AUTHREQUIRED/PERMISSION."
      if (!findings.length && status !== 401 && status !== 403 && code !== 'AUTHREQUIRED' && code !== 'PERMISSION') {
        findings.push(
          finding(
            t.requirement,
            'auth',
            `without credentials the request got status ${status}, responseCode ${JSON.stringify(code)}; ` +
              'expected 401/403 or AUTHREQUIRED/PERMISSION',
            exchange,
          ),
        );
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
  return a === b
    ? []
    : [
        finding(
          t.requirement,
          'unchanged',
          `a refused request changed the target: before ${a.slice(0, 300)}, after ${b.slice(0, 300)}`,
          exchange,
        ),
      ];
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

for (const op of JSON_OPERATIONS) {
  const id = op.id as OperationId;
  const schema = op.requestBody!.schema!;
  const observe = OBSERVE[id];

  conformance(
    'NEG-01',
    `${id}: a malformed JSON body is refused and changes nothing`,
    withBench(async (t, b) => {
      const { path, query } = await BASES[id].spec(b);
      await t.property(
        malformedJson(schema),
        async (text) => {
          const before = await observe?.(t, b);
          const exchange = await t.send({ ...requestOf(id, { path, query }), raw: { contentType: 'application/json', data: text } }, id);
          // NEG-01: "malformed JSON body is refused, not a 5xx, and changes nothing."
          const found = checkRefused(exchange, t.requirement, 'the body is not JSON');
          if (observe && isRefusal(exchange)) found.push(...unchanged(t, before, await observe(t, b), exchange));
          return found;
        },
        { runs: Math.ceil(t.config.runs / 4) },
      );
    }),
    { operation: id },
  );

  conformance(
    'NEG-04',
    `${id}: a body member that does not convert to its type is refused and changes nothing, ` +
      'one that converts is refused or stored converted',
    withBench(async (t, b) => {
      const spec = await BASES[id].spec(b);
      const findings: Finding[] = [];
      let before = await observe?.(t, b);
      for (const c of invalidBodies(schema, spec.json as Record<string, unknown>)) {
        const { exchange, body } = await t.try(id, { ...spec, json: c.body });
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

// ---- ENV-08: never a 5xx -------------------------------------------------------------------------

conformance(
  'ENV-08',
  'no request of any operation, valid or not, is answered with a server error',
  withBench(async (t, b) => {
    // The judge fails this test (and any other) on a 5xx; here every operation meets the input that most
    // often escapes a handler: its valid request, an unknown id, a query value of the wrong type, no query
    // parameter at all (the contract marks none required: a usage query without ids), malformed JSON.
    for (const op of operations) {
      if (op.feature !== null && !t.config.target.features.includes(op.feature)) continue;
      const id = op.id as OperationId;
      const base = BASES[id];
      const spec = await base.spec(b);
      const probes: CallSpec[] = [spec];
      if (base.subject !== 'none') probes.push(await base.spec(b, UNKNOWN_IDS.number));
      const param = op.parameters.find((p) => p.in === 'query' && BAD_QUERY_VALUES[p.type].length > 0);
      if (param) probes.push({ ...spec, query: { ...spec.query, [param.name]: BAD_QUERY_VALUES[param.type][0]! } });
      if (Object.keys(spec.query ?? {}).length) probes.push({ ...spec, query: {} });
      for (const probe of probes) await t.try(id, probe);
      // Malformed JSON, JSON that is no object (`null`, which a reader may take for an object that has no members),
      // and the valid body with a member the contract does not name (refused or ignored, but read past) are no form
      // of the operation's request: sent as bytes, judged as the operation's answer.
      if (op.requestBody?.contentTypes.includes('application/json'))
        for (const data of [
          '{"unterminated": ',
          'null',
          JSON.stringify({ ...(isRecord(spec.json) ? spec.json : {}), notInTheContract: 1 }),
        ])
          await t.send({ ...requestOf(id, { path: spec.path, query: spec.query }), raw: { contentType: 'application/json', data } }, id);
    }
  }),
);

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
