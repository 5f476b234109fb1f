/**
 * Bad input in the query, the path and the credentials (NEG-02, NEG-03, NEG-06, SHOULD: findings are
 * warnings; ENV-08, a MUST): query values of the wrong type, unknown ids and missing credentials, sent to
 * every operation that takes them, and every operation's inputs that most often escape a handler.
 *
 * Where tests go (test/suites.test.ts): a test sits in its requirement family's folder. ENV-08 (no server error) is the
 * exception: its tests sit with the requests they probe, here every operation's bad and valid queries.
 */
import { isDeepStrictEqual } from 'node:util';
import { BAD_QUERY_VALUES } from '../../generators/invalid.ts';
import { requestOf, type CallSpec, type OperationId } from '../../harness/api.ts';
import {
  checkHandled,
  checkNo5xx,
  checkRefused,
  finding,
  isRefusal,
  refusesAccess,
  responseCode,
  type Finding,
} from '../../harness/checks.ts';
import type { Exchange } from '../../harness/transport.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import { isRecord } from '../../harness/rules/answer.ts';
import { onlyReads, operations } from '../../schemas/operations.ts';
import { BASES, withBench } from './bench.ts';

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
    withBench(
      async (t, b) => {
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
          // every such value (as the reference server does) is never asked twice. Not for a parameter the valid request
          // sets itself (the folder it names): without it the read reaches the whole tree, where tests running beside
          // this one change things between the two reads.
          if (body !== undefined && op.method === 'GET' && !(p.name in (spec.query ?? {}))) {
            const { [p.name]: _, ...without } = spec.query ?? {};
            const plain = await t.try(op.id as OperationId, { ...spec, query: without });
            // JAX-RS reads any boolean text but "true" as false (the deployed server's parser, reference notes): that is
            // a reading of the value, as good as ignoring it.
            const asFalse =
              p.type === 'boolean' && plain.body !== undefined && !sameContent(body, plain.body)
                ? await t.try(op.id as OperationId, { ...spec, query: { ...spec.query, [p.name]: false } })
                : undefined;
            if (plain.body !== undefined && !sameContent(body, plain.body) && !(asFalse?.body && sameContent(body, asFalse.body)))
              findings.push(
                finding(
                  t.requirement,
                  'ignored',
                  `${p.name}=${JSON.stringify(bad)} (not ${p.type === 'integer' ? 'an integer' : p.type === 'number' ? 'a number' : 'true or false'}) ` +
                    'was taken, and the answer differs from the answer without it: the value was neither refused nor ignored' +
                    (p.type === 'boolean' ? ' nor read as false' : ''),
                  exchange,
                ),
              );
          }
        }
        t.record(findings);
      },
      { shared: onlyReads(op) },
    ),
    { operation: op.id },
  );
}

// ---- NEG-03: unknown ids -----------------------------------------------------------------------

/**
 * Whether a served answer lists nothing: every list of the answer empty (or left out) and no count above 0. An
 * unknown id that only filters a listing (the folder a listing is asked about in the query, the files whose users
 * are listed) may select nothing instead of being refused: either says the id names nothing.
 */
function listsNothing(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const values = Object.entries(body).filter(([k]) => k !== 'messages' && k !== 'responseInfo');
  return (
    values.some(([, v]) => Array.isArray(v)) &&
    values.every(([k, v]) => (Array.isArray(v) ? v.length === 0 : typeof v !== 'number' || v === 0 || !/^(numItems|total)$/.test(k)))
  );
}

/** An id far beyond what a test target holds, a well-formed global id naming nothing, and a malformed one. */
const UNKNOWN_IDS = { number: 2_000_000_017, global: 'A547.00000000-0000-4000-8000-00000000dead', malformed: 'XXXX.not-a-global-id' };

for (const op of operations) {
  const base = BASES[op.id as OperationId];
  // The node a request is seen from is named by an id too.
  const nodeParam = op.parameters.some((p) => p.in === 'query' && p.name === 'nodeId');
  if (base.subject === 'none' && !nodeParam) continue;
  conformance(
    'NEG-03',
    `${op.id}: an unknown or malformed id is refused, never a server error`,
    withBench(
      async (t, b) => {
        const ids: (string | number)[] =
          base.subject === 'none'
            ? []
            : base.subject === 'integer'
              ? [UNKNOWN_IDS.number]
              : [UNKNOWN_IDS.number, UNKNOWN_IDS.global, UNKNOWN_IDS.malformed];
        const findings: Finding[] = [];
        // A GET whose subject is a query value filters: answering an empty list is as good as refusing.
        const filters = op.method === 'GET' && base.subject !== 'path';
        const refusedOrEmpty = (exchange: Exchange, what: string, filtering: boolean) =>
          filtering && !isRefusal(exchange) && listsNothing(exchange.response?.json)
            ? checkHandled(exchange, t.requirement)
            : checkRefused(exchange, t.requirement, what);
        for (const id of ids) {
          const { exchange } = await t.try(op.id as OperationId, await base.spec(b, id));
          // NEG-03: "an unknown id is refused (not found), never a 5xx."
          findings.push(...refusedOrEmpty(exchange, `the request names ${JSON.stringify(id)}, which does not exist`, filters));
        }
        if (nodeParam) {
          const spec = await base.spec(b);
          const { exchange } = await t.try(op.id as OperationId, { ...spec, query: { ...spec.query, nodeId: UNKNOWN_IDS.number } });
          findings.push(...refusedOrEmpty(exchange, `nodeId ${UNKNOWN_IDS.number} names no node`, op.method === 'GET'));
        }
        t.record(findings);
      },
      { shared: onlyReads(op) },
    ),
    { operation: op.id },
  );
}

// ---- NEG-06: no credentials --------------------------------------------------------------------

for (const op of operations) {
  conformance(
    'NEG-06',
    `${op.id}: a request without credentials is refused as unauthenticated`,
    withBench(
      async (t, b) => {
        // An operation of a feature the target lacks is asked about an id that does not exist: auth still comes first.
        const lacking = op.feature !== null && !t.config.target.features.includes(op.feature);
        const spec = await BASES[op.id as OperationId].spec(b, lacking ? UNKNOWN_IDS.number : undefined);
        const exchange = await t.send({ ...requestOf(op.id as OperationId, spec), withoutCredentials: true }, op.id as OperationId);
        const findings = checkNo5xx(exchange, t.requirement);
        // NEG-06: "refused with 401/403 or AUTHREQUIRED/PERMISSION."
        if (!findings.length && !refusesAccess(exchange)) {
          findings.push(
            finding(
              t.requirement,
              'auth',
              `without credentials the request got status ${exchange.response?.status}, responseCode ${JSON.stringify(responseCode(exchange))}; ` +
                'expected 401/403 or AUTHREQUIRED/PERMISSION',
              exchange,
            ),
          );
        }
        t.record(findings);
      },
      { shared: onlyReads(op) },
    ),
    { operation: op.id, timeout: 60_000 },
  );
}

// ---- ENV-08: never a 5xx -------------------------------------------------------------------------

conformance(
  'ENV-08',
  'no request of any operation, valid or not, is answered with a server error',
  withBench(async (t, b) => {
    // The judge fails this test (and any other) on a 5xx. Every operation's valid request (OP-*), an unknown id
    // (NEG-03), a query value of the wrong type (NEG-02) and malformed JSON (NEG-01) are sent by their own tests,
    // whose 5xx fails them alike: here every operation meets the rest of what most often escapes a handler. No query
    // parameter at all (the contract marks none required: a usage query without ids); JSON that is no object
    // (`null`, which a reader may take for an object that has no members, and a string), an object with no members (the contract
    // shows no member mandatory: "which of them are mandatory: not shown") and the valid body with a member the
    // contract does not name (refused or ignored, but read past), which are no form of the operation's request:
    // sent as bytes, judged as the operation's answer. Also filters naming ids that do not exist, a `usedIn` naming no channel ("usedIn (int, multivalued;
    // channel IDs extending `used`)": a filter, which NEG-03's refusal does not bind), and a record member that names
    // its object by `globalId` alone (the File record's "globalId | string"; FileCopyRequest "`file` (File)").
    for (const op of operations) {
      if (op.feature !== null && !t.config.target.features.includes(op.feature)) continue;
      const id = op.id as OperationId;
      const spec = await BASES[id].spec(b);
      if (Object.keys(spec.query ?? {}).length) await t.try(id, { ...spec, query: {} });
      if (op.parameters.some((p) => p.in === 'query' && p.name === 'usedIn'))
        await t.try(id, { ...spec, query: { ...spec.query, used: true, usedIn: [UNKNOWN_IDS.number] } });
      // Filters by the id of a user, template or markup language (creatorId, template_id, includeMlId, ...) that names
      // nothing: what they then list is theirs to say, a server error never.
      const filters = op.parameters.filter((p) => p.in === 'query' && p.type === 'integer' && p.multivalued && /(Id|_id)$/.test(p.name));
      if (filters.length)
        await t.try(id, { ...spec, query: { ...spec.query, ...Object.fromEntries(filters.map((p) => [p.name, [UNKNOWN_IDS.number]])) } });
      // A recursive listing whose recursiveIds (or recId) names a folder that does not exist: "recursiveIds limits which
      // folders' children are fetched" (4.2), so the unknown id limits to nothing there; a refusal is the server's to
      // choose, a server error never. The query form and the body form (FolderListRequest) alike.
      const limits = op.parameters.filter((p) => p.in === 'query' && (p.name === 'recursiveIds' || p.name === 'recId'));
      for (const p of limits)
        await t.try(id, { ...spec, query: { ...spec.query, recursive: true, [p.name]: [String(UNKNOWN_IDS.number)] } });
      // A folder with a start page under the bench's folder, where no template is linked into it (a server may link its
      // sandbox parent's templates into new folders: then this finds one; the varied data set links none there):
      // FolderCreateRequest's "startpage (boolean)" has no template to fall back on, so the server creates the folder
      // without a start page or refuses it, never with a server error.
      if (id === 'folder.create' && isRecord(spec.json))
        await t.try(id, { ...spec, json: { ...spec.json, name: b.folderName(), startpage: true } });
      if (op.requestBody?.schema === 'requests/FolderListRequest.json' && isRecord(spec.json))
        await t.try(id, { ...spec, json: { ...spec.json, recursive: true, recursiveIds: [String(UNKNOWN_IDS.number)] } });
      // A request of an operation that takes a body, sent without one and so without a Content-Type ("Request bodies,
      // where present, are JSON with `Content-Type: application/json`": here none is present).
      if (op.requestBody) await t.send(requestOf(id, { path: spec.path, query: spec.query }), id);
      if (op.requestBody?.contentTypes.includes('application/json')) {
        for (const data of ['null', '"x"', '{}', JSON.stringify({ ...(isRecord(spec.json) ? spec.json : {}), notInTheContract: 1 })])
          await t.send({ ...requestOf(id, { path: spec.path, query: spec.query }), raw: { contentType: 'application/json', data } }, id);
        for (const json of await byGlobalId(t, spec.json)) await t.try(id, { ...spec, json });
      }
    }
  }),
);

/** The record members of a body that name a file or folder by `id` (file.copy's `file` and `targetFolder`). */
const NAMED_BY_ID: Record<string, 'file.load' | 'folder.load'> = { file: 'file.load', targetFolder: 'folder.load' };

/** The body once per member of NAMED_BY_ID it has, with that member naming its object by the object's `globalId` alone. */
async function byGlobalId(t: ConformanceContext, json: unknown): Promise<Record<string, unknown>[]> {
  if (!isRecord(json)) return [];
  const out: Record<string, unknown>[] = [];
  for (const [member, load] of Object.entries(NAMED_BY_ID)) {
    const named = json[member];
    if (!isRecord(named) || typeof named.id !== 'number') continue;
    const answer = (await t.call(load, { path: { id: named.id } })).body as
      { file?: { globalId?: string }; folder?: { globalId?: string } } | undefined;
    const globalId = answer?.file?.globalId ?? answer?.folder?.globalId;
    if (globalId) out.push({ ...json, [member]: { globalId } });
  }
  return out;
}

conformance(
  'ENV-08',
  'getItems, getPages and getTemplates given q, which the contract lists for GET /file and GET /folder only, are answered',
  async (t) => {
    const pages = t.fixture.pagesFolderId;
    const templates = t.fixture.templatesFolderId;
    if (pages === undefined && templates === undefined) return t.nothingToJudge('the target names no folder of pages or templates');
    // Group P's `q` ("q (string; filter)") on listings of Group L, over pages and templates, with a term nothing there holds:
    // ignored or refused, a server error never (the judge fails this test on one).
    const q = 'zzq-matches-nothing';
    if (pages !== undefined) {
      await t.try('folder.getItems', { path: { folderId: pages }, query: { q } });
      await t.try('folder.getPages', { path: { id: pages }, query: { q } });
    }
    if (templates !== undefined) await t.try('folder.getTemplates', { path: { folderId: templates }, query: { q } });
  },
  { feature: 'pages', operation: 'folder.getPages' },
);
