/**
 * `cms-conformance init`: a target file from what a live server answers. Only reading operations are
 * sent (GET), so pointing it at a production server changes nothing there.
 */
import { writeFileSync } from 'node:fs';
import { parseTarget } from '../harness/target.ts';
import { Transport } from '../harness/transport.ts';
import type { Exchange } from '../schemas/results.ts';
import type { Feature, Target, TargetFixture } from '../schemas/target.ts';
import { UsageError, intOption, outFileOption, parseOptions, type Command, type OptionTable } from './args.ts';

const OPTIONS = {
  'base-url': {
    type: 'string',
    value: 'URL',
    required: true,
    description: "the contract's {base_url}, an http(s) URL",
    example: '--base-url https://cms.example.com/rest --out target.json',
  },
  query: {
    type: 'string',
    multiple: true,
    value: 'NAME=VALUE',
    byDefault: 'none',
    description: 'a credential sent as a query parameter on every request',
    example: '--base-url https://cms.example.com/rest --query sid=12345 --out target.json',
  },
  header: {
    type: 'string',
    multiple: true,
    value: '"NAME: VALUE"',
    byDefault: 'none',
    description: 'a credential sent as a header on every request',
    example: "--base-url https://cms.example.com/rest --header 'Authorization: Bearer abc' --out target.json",
  },
  out: {
    type: 'string',
    value: 'FILE',
    required: true,
    description: 'where the target file goes',
    example: '--base-url https://cms.example.com/rest --out target.json',
  },
  timeout: {
    type: 'string',
    value: 'MS',
    byDefault: '30000',
    description: 'milliseconds to wait for each answer',
    example: '--base-url https://cms.example.com/rest --out target.json --timeout 60000',
  },
} as const satisfies OptionTable;

/** A server that cannot be described: exit 3 with this one line. */
class NotTheContract extends Error {}

/** What one answer says, as init reads it. */
interface Answer {
  ok: boolean;
  status: number;
  body: Record<string, unknown>;
}

type Folder = { id: number; nodeId?: number; motherId?: number; name?: string; type?: string };

/** A folder record's id and the members init reads, or undefined when the value is no folder record. */
function folderOf(v: unknown): Folder | undefined {
  if (typeof v !== 'object' || v === null || typeof (v as Folder).id !== 'number') return undefined;
  return v as Folder;
}

/** The credentials of --query and --header as a target's auth. */
function authOf(query: string[], headers: string[]): Target['auth'] {
  const auth: Target['auth'] = { query: {}, headers: {} };
  for (const q of query) {
    const at = q.indexOf('=');
    if (at < 1) throw new UsageError(`--query must be NAME=VALUE, got "${q}"`);
    auth.query[q.slice(0, at)] = q.slice(at + 1);
  }
  for (const h of headers) {
    const at = h.indexOf(':');
    if (at < 1) throw new UsageError(`--header must be "NAME: VALUE", got "${h}"`);
    auth.headers[h.slice(0, at).trim()] = h.slice(at + 1).trim();
  }
  return auth;
}

/** Reads a server through GETs; the first answer decides whether it speaks the contract at all. */
class Reader {
  constructor(private readonly transport: Transport) {}

  /** One GET, read as the contract's envelope; an answer that is no envelope ends init (exit 3). */
  async get(path: string, query: Record<string, string | number | boolean> = {}): Promise<Answer> {
    const ex: Exchange = await this.transport.send({ method: 'GET', path, query });
    const where = `GET ${this.transport.target.baseUrl}${path}`;
    if (ex.error) throw new NotTheContract(`${where} got no answer (${ex.error.code}: ${ex.error.message})`);
    const res = ex.response!;
    const body = res.json;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new NotTheContract(`${where} answered ${res.status} without a JSON object: the server does not answer like the contract`);
    const info = (body as { responseInfo?: { responseCode?: unknown } }).responseInfo;
    const code = info?.responseCode;
    return {
      ok: res.status >= 200 && res.status < 300 && (code === undefined || code === 'OK'),
      status: res.status,
      body: body as Record<string, unknown>,
    };
  }
}

/** What init found, and what it could not decide. */
interface Discovery {
  features: Feature[];
  fixture: Partial<TargetFixture>;
  found: string[];
  undecided: string[];
}

/** The master root: up the mother chain from the folders `GET /folder` lists. */
async function masterRoot(r: Reader, d: Discovery): Promise<Folder> {
  const listed = await r.get('/folder');
  if (listed.status === 401 || (listed.body.responseInfo as { responseCode?: string } | undefined)?.responseCode === 'AUTHREQUIRED')
    throw new NotTheContract('the server asks for credentials: give them with --query NAME=VALUE or --header "NAME: VALUE"');
  const items = Array.isArray(listed.body.items) ? listed.body.items.map(folderOf).filter((f) => f !== undefined) : [];
  if (!listed.ok || !items.length)
    throw new NotTheContract(`GET /folder answered ${listed.status} with ${items.length} folder records: no folder to start from`);
  let folder = items[0]!;
  for (let hops = 0; folder.motherId && hops < 32; hops++) {
    const up = await r.get(`/folder/load/${folder.motherId}`);
    const mother = folderOf(up.body.folder);
    if (!up.ok || !mother) break;
    folder = mother;
  }
  d.fixture.masterRootFolderId = folder.id;
  d.fixture.masterNodeId = folder.nodeId ?? 0;
  d.found.push(`master node ${folder.nodeId}, root folder ${folder.id} "${folder.name ?? ''}" (the top of GET /folder's folders)`);
  return folder;
}

/** A channel of the master and its root folder, through the master root's disinherit settings. */
async function channel(r: Reader, root: Folder, d: Discovery): Promise<void> {
  const settings = await r.get(`/folder/disinherit/${root.id}`);
  const ids = Array.isArray(settings.body.inheritable) ? settings.body.inheritable.filter((n): n is number => typeof n === 'number') : [];
  if (!settings.ok) {
    d.undecided.push(`multichannelling: GET /folder/disinherit/${root.id} answered ${settings.status}; not declared`);
    return;
  }
  for (const nodeId of ids.filter((n) => n !== root.nodeId)) {
    const view = await r.get(`/folder/load/${root.id}`, { nodeId });
    const folder = folderOf(view.body.folder);
    if (!view.ok || !folder || folder.nodeId !== nodeId) continue;
    d.fixture.channelNodeId = nodeId;
    d.fixture.channelRootFolderId = folder.id;
    d.features.push('multichannelling');
    d.found.push(`multichannelling: channel node ${nodeId} (of ${ids.length} inheriting), its root folder ${folder.id}`);
    return;
  }
  d.undecided.push(`multichannelling: no channel of node ${root.nodeId} shows its root folder; not declared`);
}

/** The folder holding the most of a list's records (by their folderId), or undefined for an empty list. */
function busiestFolder(records: unknown): { id: number; count: number; total: number } | undefined {
  const counts = new Map<number, number>();
  for (const rec of Array.isArray(records) ? records : []) {
    const id = (rec as { folderId?: unknown }).folderId;
    if (typeof id === 'number') counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  return best && { id: best[0], count: best[1], total: [...counts.values()].reduce((a, b) => a + b, 0) };
}

/** Pages and templates: each declared when its list answers, with the folder holding the most of them. */
async function pagesAndTemplates(r: Reader, root: Folder, d: Discovery): Promise<void> {
  const kinds: [Feature, string, 'pages' | 'templates', 'pagesFolderId' | 'templatesFolderId'][] = [
    ['pages', 'getPages', 'pages', 'pagesFolderId'],
    ['templates', 'getTemplates', 'templates', 'templatesFolderId'],
  ];
  for (const [feature, op, member, key] of kinds) {
    const list = await r.get(`/folder/${op}/${root.id}`, { recursive: true, maxItems: -1 });
    const best = list.ok ? busiestFolder(list.body[member]) : undefined;
    if (!list.ok) d.undecided.push(`${feature}: GET /folder/${op}/${root.id} answered ${list.status}; not declared`);
    else if (!best) d.undecided.push(`${feature}: the list answers, but holds no ${member} with a folderId under the root; not declared`);
    else {
      d.fixture[key] = best.id;
      d.features.push(feature);
      d.found.push(`${feature}: folder ${best.id} holds ${best.count} of the ${best.total} ${member} under the root`);
    }
  }
}

/** A file of the master some object uses (getFiles `used=true`): the usage tests then fail where its users are not listed. */
async function usedFile(r: Reader, root: Folder, d: Discovery): Promise<void> {
  const list = await r.get(`/folder/getFiles/${root.id}`, { recursive: true, used: true, maxItems: -1 });
  const file = (Array.isArray(list.body.files) ? list.body.files : []).find((f) => typeof (f as { id?: unknown }).id === 'number') as
    { id: number; name?: string } | undefined;
  if (file) {
    d.fixture.usedFileId = file.id;
    d.found.push(`used file: ${file.id} ${JSON.stringify(file.name ?? '')} (getFiles used=true); the usage tests must find its users`);
  } else d.undecided.push('used file: getFiles used=true lists no file under the root; the usage tests will have nothing to judge');
}

/** The wastebin, and the sandbox parent: a folder under the root named for tests, else the root itself. */
async function wastebinAndSandbox(r: Reader, root: Folder, d: Discovery): Promise<void> {
  const bin = await r.get('/folder', { folderId: root.id, wastebin: 'only' });
  if (bin.ok) {
    d.features.push('wastebin');
    d.found.push('wastebin: GET /folder with wastebin=only answers');
  } else d.undecided.push(`wastebin: GET /folder with wastebin=only answered ${bin.status}; not declared`);
  const children = await r.get('/folder', { folderId: root.id });
  const named = (Array.isArray(children.body.items) ? children.body.items.map(folderOf) : []).find((f) =>
    /sandbox|conformance|test/i.test(f?.name ?? ''),
  );
  d.fixture.sandboxParentFolderId = named?.id ?? root.id;
  d.undecided.push(
    named
      ? `sandbox parent: folder ${named.id} "${named.name}" (by its name); the suite creates and removes its sandbox there`
      : `sandbox parent: the master root ${root.id} (no folder under it is named for tests); better a folder of its own`,
  );
}

/** Auth: declared when the server refuses the same read without the credentials given. */
async function authFeature(target: Target, timeoutMs: number, d: Discovery): Promise<void> {
  if (!Object.keys(target.auth.query).length && !Object.keys(target.auth.headers).length) return;
  const bare = new Transport({ ...target, auth: { query: {}, headers: {} } }, { timeoutMs, concurrency: 1 });
  try {
    const answer = await new Reader(bare).get('/folder');
    if (!answer.ok) {
      d.features.push('auth');
      d.found.push(`auth: without the credentials given, GET /folder answers ${answer.status}`);
    } else d.undecided.push('auth: the server answers without the credentials given too; not declared');
  } finally {
    await bare.close();
  }
}

/** Everything init can learn with GETs. */
async function discover(target: Target, timeoutMs: number): Promise<Discovery> {
  const d: Discovery = { features: [], fixture: {}, found: [], undecided: [] };
  const transport = new Transport(target, { timeoutMs, concurrency: 1 });
  try {
    const r = new Reader(transport);
    const root = await masterRoot(r, d);
    await channel(r, root, d);
    await pagesAndTemplates(r, root, d);
    await usedFile(r, root, d);
    // The contract has no operation that lists staging packages or what they hold: only the vendor can name one.
    d.undecided.push(
      'staging package: not discoverable; declare /fixture/stagingPackage (name, folderIds) to have folder load judge package',
    );
    await wastebinAndSandbox(r, root, d);
    await authFeature(target, timeoutMs, d);
  } finally {
    await transport.close();
  }
  d.undecided.push(
    'sourceUrl: an upload from a URL is a write, which init never sends; declare it by hand if the server fetches sourceURL',
    'disposable: only you know whether the server is a throwaway instance; declare it so, and the tests that change fixture objects run too',
  );
  return d;
}

export const command: Command = {
  summary: 'write a target file from what a live server answers (reading operations only)',
  options: OPTIONS,
  about: [
    'Asks a live server what it has, with reading operations only (GET), and writes a target file for `run --target`: the master node and its root folder, a channel and its root folder, folders holding pages and templates, a proposed sandbox parent, and the features that answer (wastebin, multichannelling, pages, templates, auth). It prints what it found and what it could not decide; check both before the first run.',
  ],
  exit: '0 written; 2 usage error; 3 the server is unreachable or does not answer like the contract.',
  parse(args) {
    parse(args);
  },
  async run(args) {
    const values = parse(args);
    const baseUrl = values['base-url'].replace(/\/+$/, '');
    const timeoutMs = intOption('timeout', values.timeout, 30_000, 1);
    const auth = authOf(values.query ?? [], values.header ?? []);
    const probe: Target = { baseUrl, auth, features: [], fixture: { masterNodeId: 0, masterRootFolderId: 0, sandboxParentFolderId: 0 } };
    let d: Discovery;
    try {
      d = await discover(probe, timeoutMs);
    } catch (err) {
      if (!(err instanceof NotTheContract)) throw err;
      console.error(`cms-conformance: init: ${err.message}`);
      return 3;
    }
    const features = [...new Set(d.features)];
    const file = { baseUrl, auth, features, fixture: d.fixture };
    // Checked as `run --target` will read it: a file init writes always loads.
    parseTarget(file, values.out);
    writeFileSync(values.out, `${JSON.stringify(file, null, 2)}\n`);
    console.log(
      [
        `cms-conformance: init: wrote ${values.out} (features: ${features.join(', ') || 'none'})`,
        'found:',
        ...d.found.map((f) => `  ${f}`),
        'to check (not decided by reading):',
        ...d.undecided.map((u) => `  ${u}`),
      ].join('\n'),
    );
    return 0;
  },
};

function parse(args: string[]) {
  const { values } = parseOptions(args, OPTIONS);
  if (!values['base-url'] || !/^https?:\/\/[^/]/.test(values['base-url']))
    throw new UsageError('init needs --base-url URL (an http(s) URL)');
  if (!values.out) throw new UsageError('init needs --out FILE (where the target file goes)');
  outFileOption('out', values.out);
  return { ...values, 'base-url': values['base-url'], out: values.out };
}
