/**
 * Envelope and conventions (ENV): the response envelope, responseCode, success statuses and content type
 * over a sample of every operation; global ids where the contract says "local or global"; multivalued
 * parameters; integer ids and timestamps. The sample acts on the test's own sandbox and reads the fixture.
 */
import { SetupError, problemOf, requestOf, type CallSpec, type OperationId } from '../../harness/api.ts';
import { finding, isRefusal, responseCode, type Finding } from '../../harness/checks.ts';
import { brief, idsOf, sameMultiset, setDifference } from '../../harness/oracles.ts';
import { listOf, withNested } from '../../harness/records.ts';
import { createFolderStep } from '../../harness/steps.ts';
import { PerRun, conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import { getOperation } from '../../schemas/operations.ts';
import type { Item } from '../../schemas/types.ts';
import { conventionBreaks, envelopeProblems, isJsonContentType } from './conventions.ts';

/**
 * One exchange of the sample: a valid request (expected to succeed), one that must be refused, or one a server may
 * refuse under an open choice (schemas/open-choices.json), judged as a success where it succeeded.
 */
interface Sampled {
  op: OperationId;
  expect: 'success' | 'refusal' | { choice: string };
  exchange: Exchange;
}

/** The id of a created object in an answer, read leniently: the sample judges the answer, it must not trip over it. */
function createdId(exchange: Exchange, member: 'folder' | 'file'): number {
  const value = (exchange.response?.json as Record<string, { id?: unknown } | undefined> | undefined)?.[member]?.id;
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number')
    throw new SetupError(
      `${exchange.request.method} ${exchange.request.url} answered no ${member} id: status ${exchange.response?.status} ` +
        `${exchange.response?.text.slice(0, 200) ?? exchange.error?.message}`,
    );
  return id;
}

const text = (s: string) => new TextEncoder().encode(s);

const sample = new PerRun<Promise<Sampled[]>>();

/**
 * Sends one request of (almost) every operation, once per suite file and run: valid requests on a sandbox folder of
 * its own and on the fixture, and two requests naming unknown ids. Operations of undeclared features are
 * left out, and so is the sourceURL create (it needs a file host; the operation sweep covers it).
 */
function sampleOf(t: ConformanceContext): Promise<Sampled[]> {
  return sample
    .get(async () => {
      const f = t.fixture;
      const has = (feature: string) => t.config.target.features.includes(feature as never);
      const out: Sampled[] = [];
      const add = async (op: OperationId, spec: CallSpec, expect: Sampled['expect'] = 'success') => {
        const feature = getOperation(op).feature;
        if (feature && !has(feature)) return undefined;
        const { exchange } = await t.try(op, spec);
        out.push({ op, expect, exchange });
        return exchange;
      };
      // Created leniently (not with t.folder): a step refused here would end this test only and leave the others judging nothing.
      const top = createdId(
        (await add('folder.create', {
          json: { motherId: String(await t.sandbox()), name: t.uniqueName('env') },
        }))!,
        'folder',
      );
      const sub = createdId((await add('folder.create', { json: { motherId: String(top), name: 'Sub' } }))!, 'folder');
      const doomed = createdId((await add('folder.create', { json: { motherId: String(top), name: 'Doomed' } }))!, 'folder');
      const fileA = createdId(
        (await add('file.create.multipart', {
          multipart: {
            fields: { folderId: String(top), fileName: 'env-a.txt' },
            files: [{ name: 'fileBinaryData', filename: 'env-a.txt', contentType: 'text/plain', data: text('a\n') }],
          },
        }))!,
        'file',
      );
      const fileB = createdId(
        (await add('file.createSimple.raw', {
          query: { folderId: sub, qqfile: 'env-b.txt' },
          raw: { contentType: 'text/plain', data: 'b\n' },
        }))!,
        'file',
      );
      const fileC = createdId(
        (await add('file.createSimple.multipart', {
          query: { folderId: top, qqfile: 'env-c.txt', databodypart: 'fileBinaryData' },
          multipart: { files: [{ name: 'fileBinaryData', filename: 'env-c.txt', contentType: 'text/plain', data: text('c\n') }] },
        }))!,
        'file',
      );
      const pages = has('pages') && f.pagesFolderId !== undefined ? f.pagesFolderId : top;
      const templates = has('templates') && f.templatesFolderId !== undefined ? f.templatesFolderId : top;
      await add('folder.list', { query: { folderId: String(top), recursive: true } });
      await add('folder.getFolders', { path: { id: top }, query: { recursive: true, tree: true } });
      await add('folder.getFolders.post', { json: { id: String(top), recursive: true } });
      await add('folder.breadcrumb', { path: { id: sub } });
      await add('folder.count', { path: { id: top }, query: { recursive: true } });
      await add('folder.getFiles', { path: { folderId: top }, query: { recursive: true, folder: true } });
      await add('folder.getItems', { path: { folderId: top } });
      await add('folder.load', { path: { id: top }, query: { privileges: true } });
      await add('folder.findFiles', { query: { folderId: top, query: 'env-' } });
      await add('folder.findPages', { query: { folderId: pages, query: 'e' } });
      await add('folder.getPages', {
        path: { id: pages },
        query: {
          recursive: true,
          folder: true,
          template: true,
          langvars: true,
          translationstatus: true,
          contenttags: true,
          objecttags: true,
        },
      });
      await add('folder.getExternalLinks', { path: { folderId: pages }, query: { recursive: true } });
      await add('folder.getTemplates', { path: { folderId: templates }, query: { recursive: true } });
      await add('file.list', { query: { folderId: String(top), recursive: true } });
      await add('file.load', { path: { id: fileA } });
      for (const op of ['file.usage.file', 'file.usage.folder'] as const) await add(op, { query: { id: fileA } });
      // "Parameters: not shown": that `id` names the files is the siblings' form, not the contract's word.
      await add('file.usage.page', { query: { id: fileA } }, { choice: 'usage-page-parameters' });
      await add('file.copy', { json: { file: { id: fileA }, targetFolder: { id: sub }, newFilename: 'env-copy.txt' } });
      await add('file.move', { path: { id: fileB }, json: { folderId: top } });
      // Which members a save needs is not said (open choice save-partial-record): the name goes along.
      await add('file.save.json', {
        path: { id: fileA },
        json: { file: { id: fileA, name: 'env-a.txt', description: 'saved by the envelope sample' } },
      });
      await add('file.save.multipart', {
        path: { id: fileA },
        multipart: { files: [{ name: 'fileBinaryData', filename: 'env-a.txt', contentType: 'text/plain', data: text('a, saved\n') }] },
      });
      await add('folder.delete', { path: { id: doomed } });
      const channel = f.channelNodeId;
      if (has('multichannelling') && channel !== undefined) {
        const disinherited = createdId((await add('folder.create', { json: { motherId: String(top), name: 'Disinherited' } }))!, 'folder');
        const localized = createdId((await add('folder.create', { json: { motherId: String(top), name: 'Localized' } }))!, 'folder');
        await add('folder.disinherit.get', { path: { id: sub } });
        await add('folder.disinherit.getMany', { query: { id: [sub, top] } });
        await add('folder.disinherit.set', { path: { id: disinherited }, json: { disinherit: [channel] } });
        await add('folder.disinherit.setMany', { query: { id: [disinherited] }, json: { reinherit: [channel] } });
        // "(described as page IDs)": a server may take page ids only.
        await add('file.disinherit.get', { query: { id: [fileA] } }, { choice: 'file-disinherit-ids' });
        await add('file.disinherit.set', { query: { id: [fileB] }, json: { disinherit: [channel] } }, { choice: 'file-disinherit-ids' });
        // The folder form's fields are "not shown": the file form's channelId is a guess.
        await add('folder.localize', { path: { id: localized }, json: { channelId: channel } }, { choice: 'folder-localize-body' });
        await add('folder.localizations', { path: { id: localized } });
        await add('folder.localizationinfo', { path: { id: top }, query: { recursive: true, nodeId: channel } });
        await add('folder.getFolders', { path: { id: top }, query: { nodeId: channel } });
        await add('file.localize', { path: { id: fileA }, json: { channelId: channel } });
        // A file of its own to unlocalize: whether push2master leaves fileA's copy in the channel is not said.
        await add('file.localize', { path: { id: fileC }, json: { channelId: channel } });
        await add('file.localizations', { path: { id: fileA } });
        await add('file.localizationinfo', { path: { id: fileA }, query: { nodeId: channel } });
        // "dstNodeId (int; target channel)": the master the objects go to, or a channel (open choice syncable-dst-node).
        await add(
          'file.usage.syncableObjects',
          { query: { ids: [fileA], srcNodeId: channel, dstNodeId: f.masterNodeId } },
          { choice: 'syncable-dst-node' },
        );
        // Which variant's id push2master and unlocalize take is not said: the master's, else the localized copy's.
        const listed = await t.try('folder.getFiles', { path: { folderId: top }, query: { nodeId: channel } });
        const copyOf = (name: string, master: number) =>
          ((listed.exchange.response?.json as { files?: { id?: unknown; name?: unknown }[] } | undefined)?.files ?? []).find(
            (x) => x.name === name && x.id !== master,
          )?.id;
        const either = async (op: OperationId, master: number, name: string, json: unknown) => {
          const first = await t.try(op, { path: { id: master }, json });
          const copy = copyOf(name, master);
          const { exchange } = first.problem && typeof copy === 'number' ? await t.try(op, { path: { id: copy }, json }) : first;
          out.push({ op, expect: 'success', exchange });
        };
        await either('file.push2master', fileA, 'env-a.txt', { channelId: channel });
        await either('file.unlocalize', fileC, 'env-c.txt', { channelId: channel });
      }
      await add('folder.load', { path: { id: 2_147_483_000 } }, 'refusal');
      await add('file.load', { path: { id: 2_147_483_001 } }, 'refusal');
      return out;
    })
    .catch((err: Error) => {
      // Every test sharing the sample fails with the reason, never passes on an empty sample.
      throw err instanceof SetupError ? err : new SetupError(`the envelope sample could not be built: ${err.message}`);
    });
}

const line = (s: Sampled) => `${s.op} (${s.exchange.request.method} ${new URL(s.exchange.request.url).pathname})`;

conformance('ENV-01', 'every JSON answer of a sample of every operation carries messages and responseInfo', async (t) => {
  for (const s of await sampleOf(t)) {
    if (!s.exchange.response || s.exchange.response.jsonError !== undefined) continue;
    // "Every JSON response body shown carries these two members (the response envelope): messages ... responseInfo"
    const problems = envelopeProblems(s.exchange.response.json);
    if (problems.length) t.record([finding('ENV-01', 'envelope', `${line(s)}: ${problems.join('; ')}`, s.exchange)]);
  }
});

/**
 * The exchanges of the sample that must have succeeded: the valid requests, and those of an open choice that did
 * succeed (a refused one is noted: the contract allows it).
 */
async function succeeded(t: ConformanceContext): Promise<Sampled[]> {
  const out: Sampled[] = [];
  for (const s of await sampleOf(t)) {
    // An answer over the run's size cap was cut, not judged: the judge said so with a warning.
    if (s.expect === 'refusal' || s.exchange.response?.truncated) continue;
    if (s.expect !== 'success' && isRefusal(s.exchange) && (s.exchange.response?.status ?? 0) < 500) {
      t.openChoice(s.expect.choice, `${line(s)} was refused`, s.exchange);
      continue;
    }
    out.push(s);
  }
  return out;
}

conformance('ENV-02', 'every successful answer of a sample of every operation carries responseCode OK', async (t) => {
  for (const s of await succeeded(t)) {
    const code = responseCode(s.exchange);
    // An answer without responseInfo at all breaks the envelope (ENV-01), which its own test reports.
    const info = (s.exchange.response?.json as { responseInfo?: unknown } | undefined)?.responseInfo;
    if (s.exchange.response && s.exchange.response.jsonError === undefined && (typeof info !== 'object' || info === null)) continue;
    // "a successful request answers `responseInfo.responseCode` = `OK`" ("the only value shown is OK").
    if (code !== 'OK')
      t.record([
        finding(
          'ENV-02',
          'responseCode',
          `${line(s)}, a valid request, answered status ${s.exchange.response?.status ?? s.exchange.error?.code} ` +
            `with responseCode ${JSON.stringify(code ?? null)}`,
          s.exchange,
        ),
      ]);
  }
});

conformance('ENV-03', 'every successful answer of a sample of every operation has status 200 for GET and 201 for POST', async (t) => {
  for (const s of await succeeded(t)) {
    // "All success statuses: 200 for GET, 201 for POST."
    const expected = s.exchange.request.method === 'GET' ? 200 : 201;
    const status = s.exchange.response?.status;
    if (status !== expected)
      t.record([
        finding(
          'ENV-03',
          'status',
          `${line(s)}, a valid request, answered status ${status ?? s.exchange.error?.code}, expected ${expected}`,
          s.exchange,
        ),
      ]);
  }
});

conformance('ENV-02', 'a JSON body labelled application/json with a charset parameter is read as JSON', async (t) => {
  const top = await t.folder();
  // "Request bodies, where present, are JSON with `Content-Type: application/json`": a media type with a parameter is
  // still that media type (RFC 9110 8.3.1), and browsers and Java clients label their JSON `application/json;
  // charset=utf-8` (RFC 8259 11: the parameter "really has no effect on compliant recipients").
  const sent = [
    { label: 'application/json; charset=utf-8', op: 'folder.create' as const, json: { motherId: String(top), name: 'Café Zürich' } },
    { label: 'application/json;charset=UTF-8', op: 'folder.create' as const, json: { motherId: String(top), name: 'Straße Ærø' } },
    { label: 'application/json ; charset=utf-8', op: 'folder.create' as const, json: { motherId: String(top), name: 'Øresund' } },
    { label: 'application/json; charset="utf-8"', op: 'folder.getFolders.post' as const, json: { id: String(top) } },
    // US-ASCII is UTF-8's subset: a body of ASCII bytes is the same text read either way.
    { label: 'application/json; charset=us-ascii', op: 'folder.getFolders.post' as const, json: { id: String(top) } },
  ];
  for (const { label, op, json } of sent) {
    const exchange = await t.send({ ...requestOf(op, { json }), headers: { 'content-type': label } }, op);
    const problem = problemOf(exchange);
    if (problem) {
      t.record([finding('ENV-02', 'charset', `${op} with Content-Type: ${label}, a valid request, failed: ${problem}`, exchange)]);
      continue;
    }
    // Read as UTF-8: the name comes back as sent.
    const name = (exchange.response?.json as { folder?: { name?: unknown } } | undefined)?.folder?.name;
    if ('name' in json && typeof name === 'string' && name !== json.name)
      t.record([
        finding(
          'ENV-02',
          'charset',
          `${op} with Content-Type: ${label} named the folder ${JSON.stringify(name)}, sent ${JSON.stringify(json.name)}`,
          exchange,
        ),
      ]);
  }
});

conformance('ENV-04', 'every answer of a sample of every operation is labelled Content-Type application/json', async (t) => {
  for (const s of await sampleOf(t)) {
    if (!s.exchange.response) continue;
    // "Every request asks for Accept: application/json": the answers are JSON and say so.
    const type = s.exchange.response.headers['content-type'];
    if (!isJsonContentType(type))
      t.record([
        finding(
          'ENV-04',
          'contentType',
          `${line(s)} answered status ${s.exchange.response.status} with Content-Type ${JSON.stringify(type ?? null)}`,
          s.exchange,
        ),
      ]);
  }
});

conformance('ENV-07', 'ids are integers, globalIds strings and timestamps integers in a sample of every operation', async (t) => {
  for (const s of await sampleOf(t)) {
    if (!s.exchange.response || s.exchange.response.jsonError !== undefined) continue;
    // "Identifiers (id, folderId, nodeId, ...) are integers unless a field says otherwise. globalId is a string. Timestamps are
    // numbers (integers)."
    const breaks = conventionBreaks(s.exchange.response.json);
    if (breaks.length)
      t.record([
        finding(
          'ENV-07',
          'types',
          `${line(s)}: ${breaks
            .slice(0, 6)
            .map((b) => `${b.path} = ${JSON.stringify(b.value)} (${b.rule})`)
            .join('; ')}${breaks.length > 6 ? `; … ${breaks.length - 6} more` : ''}`,
          s.exchange,
        ),
      ]);
  }
});

/** The global id of a folder, from its load. */
async function globalIdOf(t: ConformanceContext, id: number, known?: string): Promise<string | undefined> {
  if (typeof known === 'string') return known;
  const body = await t.must('folder.load', { path: { id } });
  return body.folder?.globalId;
}

/** A list answer in the order given, with its count, to compare two answers of one server. */
function listAnswer(body: unknown, member: string): string {
  const b = body as Record<string, unknown>;
  return JSON.stringify({ ids: idsOf(b[member] as Item[] | undefined), numItems: b.numItems });
}

conformance('ENV-05', 'a folder globalId gives the same folder wherever the path id is local or global', async (t) => {
  const top = await t.folder();
  const child = await createFolderStep(t, top, 'Child');
  const doomed = await createFolderStep(t, top, 'Deleted by global id');
  const f = t.fixture;
  const has = (feature: string) => t.config.target.features.includes(feature as never);
  const ids = [
    top,
    child.id!,
    doomed.id!,
    ...(has('pages') && f.pagesFolderId !== undefined ? [f.pagesFolderId] : []),
    ...(has('templates') && f.templatesFolderId !== undefined ? [f.templatesFolderId] : []),
  ];
  // The globalId of each folder as any answer about it carries it: the create answer, its load, its mother's listing. Whether a
  // folder record carries one is not shown (2.1): a server whose records carry none has no global id to judge here.
  const created = new Map([child, doomed].map((f) => [f.id, f.globalId]));
  const listed = (await t.must('folder.getFolders', { path: { id: top } })).folders ?? [];
  for (const f of listed)
    if (typeof f.id === 'number' && typeof f.globalId === 'string' && !created.get(f.id)) created.set(f.id, f.globalId);
  const global = new Map<number, string>();
  for (const id of new Set(ids)) {
    const g = await globalIdOf(t, id, created.get(id));
    if (typeof g === 'string') global.set(id, g);
  }
  if (!global.has(child.id!))
    return t.nothingToJudge(
      `folder ${child.id} carries no globalId in its create answer, its load or its mother's listing (open choice navigation-members)`,
    );
  /** Sends the request by local and by global id; the global one must answer as the local one. */
  const same = async (op: OperationId, id: number, param: string, spec: CallSpec, member: string) => {
    const g = global.get(id);
    if (g === undefined) return;
    const [{ exchange: local, problem: localProblem }, { exchange: byGlobal, problem }] = [
      await t.try(op, { ...spec, path: { [param]: id } }),
      await t.try(op, { ...spec, path: { [param]: g } }),
    ];
    // An answer over the run's size cap is the cap's, not the server's: that pair judged nothing, the others judge on.
    const cut = [local, byGlobal].find((e) => e.response?.truncated);
    if (cut) return t.notJudged(`${op} of folder ${id}`, "the answer is larger than the run's answer size cap (--max-body)", cut);
    // "Where a path parameter id is described as local or global id, either form is accepted."
    if (problem) t.record([finding('ENV-05', 'globalId', `${op} with the globalId ${g} of folder ${id}: ${problem}`, byGlobal)]);
    else if (!localProblem && listAnswer(local.response!.json, member) !== listAnswer(byGlobal.response!.json, member)) {
      t.record([
        finding(
          'ENV-05',
          'globalId',
          `${op} by globalId ${g} answers ${listAnswer(byGlobal.response!.json, member)}, ` +
            `by id ${id} ${listAnswer(local.response!.json, member)}`,
          byGlobal,
        ),
      ]);
    }
  };
  const { exchange: loaded, problem: loadProblem } = await t.try('folder.load', { path: { id: global.get(child.id!)! } });
  const loadedId = (loaded.response?.json as { folder?: { id?: unknown } } | undefined)?.folder?.id;
  if (loadProblem || loadedId !== child.id)
    t.record([
      finding(
        'ENV-05',
        'globalId',
        `folder.load by globalId ${global.get(child.id!)} ${loadProblem ?? `answers folder ${JSON.stringify(loadedId)}`}, ` +
          `expected folder ${child.id}`,
        loaded,
      ),
    ]);
  await same('folder.getFolders', top, 'id', { query: { recursive: true } }, 'folders');
  if (has('pages') && f.pagesFolderId !== undefined)
    await same('folder.getPages', f.pagesFolderId, 'id', { query: { recursive: true } }, 'pages');
  if (has('templates') && f.templatesFolderId !== undefined)
    await same('folder.getTemplates', f.templatesFolderId, 'folderId', { query: { recursive: true } }, 'templates');
  const doomedGlobal = global.get(doomed.id!);
  if (doomedGlobal !== undefined) {
    const { exchange: deleted, problem } = await t.try('folder.delete', { path: { id: doomedGlobal } });
    if (problem)
      t.record([finding('ENV-05', 'globalId', `folder.delete by globalId ${doomedGlobal} of folder ${doomed.id}: ${problem}`, deleted)]);
    else {
      const after = await t.must('folder.getFolders', { path: { id: top } });
      const left = idsOf(after.folders);
      if (left.includes(doomed.id!) || !left.includes(child.id!))
        t.record([
          finding(
            'ENV-05',
            'globalId',
            `after folder.delete by globalId ${doomedGlobal} of folder ${doomed.id}, the mother lists ${brief(left)}`,
            deleted,
          ),
        ]);
    }
  }
});

/**
 * Records a finding unless the answer for several values equals the union of the answers for each value. `after`, the
 * answers for each value asked again after the one for several: an id in one of the two unions and not the other is an
 * object another test made or removed meanwhile (the fixture's files are shared: tests copy its users into their
 * sandboxes), so neither its presence nor its absence is judged.
 */
function unionFinding(what: string, multi: { ids: number[]; exchange: Exchange }, singles: number[][], after?: number[][]): Finding[] {
  const before = new Set(singles.flat());
  const later = new Set(after ? after.flat() : before);
  const moving = new Set([...before, ...later].filter((id) => before.has(id) !== later.has(id)));
  const union = [...before].filter((id) => !moving.has(id));
  const got = [...new Set(multi.ids)].filter((id) => !moving.has(id));
  if (sameMultiset(got, union)) return [];
  const { missing, extra } = setDifference(union, got);
  return [
    finding(
      'ENV-06',
      'multivalued',
      `${what}: the values together give ${brief(multi.ids)}, one by one ${brief(union)} ` +
        `(missing ${brief(missing)}, unexpected ${brief(extra)})`,
      multi.exchange,
    ),
  ];
}

/** recursiveIds (GET /folder, getFolders): the children of every named folder are fetched. Returns the test folder. */
async function multivaluedRecursiveIds(t: ConformanceContext): Promise<number> {
  const top = await t.folder();
  const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((n) => createFolderStep(t, top, n)));
  const [a1, b1] = await Promise.all([
    createFolderStep(t, a!.id!, 'A1'),
    createFolderStep(t, b!.id!, 'B1'),
    createFolderStep(t, c!.id!, 'C1'),
  ]);
  const expected = [a!.id!, b!.id!, c!.id!, a1!.id!, b1!.id!];
  for (const [op, spec, member] of [
    ['folder.list', { query: { folderId: String(top), recursive: true, recursiveIds: [top, a!.id!, b!.id!] } }, 'items'],
    ['folder.getFolders', { path: { id: top }, query: { recursive: true, recursiveIds: [top, a!.id!, b!.id!] } }, 'folders'],
  ] as const) {
    const r = await t.call(op, spec);
    if (!r.body) continue;
    // C's child is left out only where recursiveIds limits the folders fetched. A flat answer may still nest them.
    t.judged(op, 'recursiveIds');
    const got = [...new Set(idsOf(withNested(listOf<Item>(r.body, member), 'subfolders')))];
    if (!sameMultiset(got, expected))
      t.record([
        finding(
          'ENV-06',
          'multivalued',
          `${op} recursive with recursiveIds given three times (the test folder, A, B) lists ${brief(got)}; ` +
            `expected A, B, C and the children of A and B ${brief(expected)}`,
          r.exchange,
        ),
      ]);
  }
  return top;
}

/** template_id and publisherId (getPages): the pages of all the templates, or publishers, given. */
async function multivaluedPageFilters(t: ConformanceContext, pagesFolderId: number): Promise<void> {
  const all = await t.must('folder.getPages', { path: { id: pagesFolderId } });
  const templates = [...new Set((all.pages ?? []).map((p) => p.templateId).filter((id): id is number => typeof id === 'number'))].slice(
    0,
    3,
  );
  if (templates.length < 2) t.notJudged('template_id given several times', 'the pages folder holds pages of fewer than two templates');
  else {
    const pagesOf = async (ids: number[]) => {
      const r = await t.call('folder.getPages', { path: { id: pagesFolderId }, query: { template_id: ids } });
      return { ids: idsOf(r.body?.pages), exchange: r.exchange };
    };
    const singles = await Promise.all(templates.map((id) => pagesOf([id])));
    for (const order of [templates, [...templates].reverse()])
      t.record(
        unionFinding(
          `getPages template_id=${order.join(',')}`,
          await pagesOf(order),
          singles.map((s) => s.ids),
        ),
      );
  }
  // publisherId (getPages): the pages of all the publishers given.
  const publishers = [...new Set((all.pages ?? []).map((p) => p.publisher?.id).filter((id): id is number => typeof id === 'number'))].slice(
    0,
    3,
  );
  if (publishers.length < 2) t.notJudged('publisherId given several times', 'the pages folder holds pages of fewer than two publishers');
  else {
    const byPublisher = async (ids: number[]) => {
      const r = await t.call('folder.getPages', { path: { id: pagesFolderId }, query: { publisherId: ids } });
      return { ids: idsOf(r.body?.pages), exchange: r.exchange };
    };
    const singles = await Promise.all(publishers.map((id) => byPublisher([id])));
    t.record(
      unionFinding(
        `getPages publisherId=${publishers.join(',')}`,
        await byPublisher(publishers),
        singles.map((s) => s.ids),
      ),
    );
  }
}

/** id (disinherit): setting for two folders sets both; reading two folders reports what either has. */
async function multivaluedDisinherit(t: ConformanceContext, top: number, channel: number): Promise<void> {
  const [x, y, z] = await Promise.all(['X', 'Y', 'Z'].map((n) => createFolderStep(t, top, n)));
  await t.must('folder.disinherit.setMany', { query: { id: [x!.id!, y!.id!] }, json: { disinherit: [channel] } });
  t.judged('folder.disinherit.setMany', 'id', 'disinherit');
  t.judged('folder.disinherit.getMany', 'id');
  for (const folder of [x!, y!]) {
    const r = await t.call('folder.disinherit.get', { path: { id: folder.id! } });
    if (r.body && !(r.body.disinherit ?? []).includes(channel))
      t.record([
        finding(
          'ENV-06',
          'multivalued',
          `after POST /folder/disinherit with id ${x!.id} and id ${y!.id} disinheriting channel ${channel}, ` +
            `folder ${folder.id} reports disinherit ${brief(r.body.disinherit ?? [])}`,
          r.exchange,
        ),
      ]);
  }
  const many = await t.call('folder.disinherit.getMany', { query: { id: [z!.id!, x!.id!] } });
  if (many.body && ![...(many.body.disinherit ?? []), ...(many.body.partialDisinherit ?? [])].includes(channel)) {
    t.record([
      finding(
        'ENV-06',
        'multivalued',
        `GET /folder/disinherit with id ${z!.id} (inherited) and id ${x!.id} (disinherited for channel ${channel}) ` +
          'reports neither disinherit nor partialDisinherit of that channel: ' +
          `${JSON.stringify({ disinherit: many.body.disinherit, partialDisinherit: many.body.partialDisinherit })}`,
        many.exchange,
      ),
    ]);
  }
}

/** usedIn (getFiles used=true) and id (the usage lists): every channel, or file, given counts, as the union of each alone. */
async function multivaluedUsage(t: ConformanceContext, channel: number): Promise<void> {
  const f = t.fixture;
  // usedIn (getFiles used=true): usages in every channel given count, as the union of each channel alone.
  const roots = await t.must('folder.getFolders', { path: { id: f.masterRootFolderId } });
  const folders = idsOf(roots.folders)
    .filter((id) => id !== f.sandboxParentFolderId)
    .slice(0, 8);
  const usedFiles: number[] = [];
  for (const folder of folders) {
    const used = async (nodes: number[]) => {
      const r = await t.call('folder.getFiles', { path: { folderId: folder }, query: { used: true, usedIn: nodes } });
      return { ids: idsOf(r.body?.files), exchange: r.exchange };
    };
    const singles = [await used([f.masterNodeId]), await used([channel])];
    usedFiles.push(...singles[0]!.ids);
    t.record(
      unionFinding(
        `getFiles of folder ${folder} used=true usedIn=${f.masterNodeId},${channel}`,
        await used([f.masterNodeId, channel]),
        singles.map((s) => s.ids),
      ),
    );
  }
  // id (usage): the users of all the files given.
  const pair = [...new Set(usedFiles)].slice(0, 2);
  if (pair.length < 2) {
    t.notJudged('the usage lists with id given several times', 'the fixture folders hold fewer than two used files');
    return;
  }
  for (const [op, member] of [
    ['file.usage.file', 'files'],
    ['file.usage.folder', 'folders'],
    ['file.usage.page', 'pages'],
  ] as const) {
    // usage/page's "Parameters: not shown": a refusal of `id` is an answer the contract allows.
    const open = op === 'file.usage.page';
    const users = async (ids: number[]) => {
      const r = open ? await t.try(op, { query: { id: ids } }) : await t.call(op, { query: { id: ids } });
      return { ids: idsOf(listOf<Item>(r.body, member)), exchange: r.exchange, refused: r.problem !== undefined };
    };
    const singles = [await users([pair[0]!]), await users([pair[1]!])];
    if (open && singles.some((x) => x.refused)) {
      t.openChoice('usage-page-parameters', `${op} refused id`, singles.find((x) => x.refused)!.exchange);
      continue;
    }
    const together = await users(pair);
    const again = [await users([pair[0]!]), await users([pair[1]!])];
    t.record(
      unionFinding(
        `${op} id=${pair.join(',')}`,
        together,
        singles.map((s) => s.ids),
        again.map((s) => s.ids),
      ),
    );
  }
}

conformance('ENV-06', 'a multivalued query parameter given several times applies every value', async (t) => {
  const f = t.fixture;
  const has = (feature: string) => t.config.target.features.includes(feature as never);
  const top = await multivaluedRecursiveIds(t);
  if (has('pages') && f.pagesFolderId !== undefined) await multivaluedPageFilters(t, f.pagesFolderId);
  const channel = f.channelNodeId;
  if (!has('multichannelling') || channel === undefined) return;
  await multivaluedDisinherit(t, top, channel);
  await multivaluedUsage(t, channel);
});
