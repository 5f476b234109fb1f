/**
 * `npm run bench:server`: throughput and latency of the reference server over loopback (undici,
 * keep-alive), paging a 10,000-file folder in every sort order, creating 10,000 files in one folder,
 * and its memory for 100,000 small files. Each figure with a target is printed beside it (issue 15);
 * numbers are reported, never asserted.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FormData, Pool } from 'undici';
import { defaultDataset } from '../server/default-dataset.ts';
import { handlers } from '../server/handlers/index.ts';
import { startReferenceServer } from '../server/index.ts';
import { legacySortKeys } from '../server/handlers/listing.ts';
import { createState, fixtureIds, viewOf, type State } from '../server/state.ts';
import type { OpRequest } from '../server/types.ts';

const SECONDS_PER_SCENARIO = Number(process.env.BENCH_SECONDS ?? 3);
/** Each sort order gets a shorter run: there are twenty-odd of them. */
const SECONDS_PER_SORT = Math.max(0.5, SECONDS_PER_SCENARIO / 2);
/**
 * A sort order's time is spent in rounds, each over every order in turn, and its figure is the median
 * round: with one window per order, a pause of this shared 2-core machine went into whichever order it
 * fell on, and the slowest order's figure swung widely between runs of unchanged code.
 */
const SORT_ROUNDS = 3;
/** An untimed round over every sort order before the first is measured. */
const WARM_UP_SECONDS_PER_SORT = 0.1;
const CONCURRENCY = 8;
const FILES = 10_000;
/** Issue 15: a 100-item page of a 10,000-file folder, any sort order. */
const TARGET_PAGE_PER_SECOND = 2000;
/** Issue 15: creating 10,000 files in one folder. */
const TARGET_CREATE_SECONDS = 1;

interface Row {
  scenario: string;
  /** Requests per second the scenario should reach, if it has a target. */
  target?: number;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  failed: number;
  /** Every latency measured, ascending. */
  samples: number[];
  /** Requests per second of each round, when the figure is their median. */
  rounds?: number[];
}

/** One request of a scenario: method, path (with query) and optional body. */
interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: () => string | Buffer | FormData;
  /** A request sent before each measured one, untimed (a change of the store the measured request then meets). */
  before?: Omit<Call, 'before'>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

/** Runs one call in a loop from CONCURRENCY workers for SECONDS_PER_SCENARIO seconds. */
async function measure(pool: Pool, scenario: string, call: Call, seconds = SECONDS_PER_SCENARIO, target?: number): Promise<Row> {
  const latencies: number[] = [];
  let failed = 0;
  // Untimed requests first, for a tenth of the scenario: the first page of a sort order builds the
  // folder's sorted view (the row "after a change of the store" shows what building costs), and the
  // server's code for the new path is compiled.
  const warm = performance.now() + seconds * 100;
  while (performance.now() < warm) {
    await (await pool.request({ method: call.method, path: call.path, headers: call.headers, body: call.body?.() })).body.dump();
  }
  const start = performance.now();
  const end = start + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      if (call.before) {
        const b = call.before;
        const res = await pool.request({ method: b.method, path: b.path, headers: b.headers, body: b.body?.() });
        await res.body.dump();
        if (res.statusCode >= 300) failed++;
      }
      const t0 = performance.now();
      const res = await pool.request({ method: call.method, path: call.path, headers: call.headers, body: call.body?.() });
      await res.body.dump();
      latencies.push(performance.now() - t0);
      if (res.statusCode >= 300) failed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    scenario,
    ...(target === undefined ? {} : { target }),
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed,
    samples: latencies,
  };
}

/** One row from the rounds of one scenario: the median round's requests per second, the latencies and counts of all. */
function mergeRounds(rounds: Row[]): Row {
  const samples = rounds.flatMap((r) => r.samples).sort((a, b) => a - b);
  const rates = rounds.map((r) => r.perSecond);
  return {
    ...rounds[0]!,
    requests: rounds.reduce((a, r) => a + r.requests, 0),
    perSecond: [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)]!,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    failed: rounds.reduce((a, r) => a + r.failed, 0),
    samples,
    rounds: rates,
  };
}

/** Creates a file through the createSimple raw handler, in-process (the seam's OpRequest, defaults applied). */
async function createFile(state: State, folderId: number, name: string, data: Buffer): Promise<void> {
  const req: OpRequest = {
    operationId: 'file.createSimple.raw',
    path: {},
    query: { folderId, qqfile: name, nodeId: 0, overwrite: false },
    rawQuery: {},
    raw: { contentType: 'text/plain', data },
  };
  await handlers['file.createSimple.raw']!(state, req, { faults: new Set() });
}

/** Creates a folder through the folder.create handler, in-process; returns its id. */
async function createFolder(state: State, motherId: number, name: string): Promise<number> {
  const req: OpRequest = { operationId: 'folder.create', path: {}, query: {}, rawQuery: {}, body: { motherId: String(motherId), name } };
  const res = (await handlers['folder.create']!(state, req, { faults: new Set() })) as { folder: { id: number } };
  return res.folder.id;
}

/** A garbage collector, exposed at run time since `npm run` passes no node flags. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Heap growth of a fresh state holding 100,000 files of 100 bytes, spread over 200 folders of 500. */
async function memoryFor100kFiles(): Promise<string> {
  const gc = collector();
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const state = createState(defaultDataset());
  const parent = fixtureIds(state).sandboxParentFolderId;
  gc();
  const before = used();
  const t0 = performance.now();
  let folderId = parent;
  for (let f = 0; f < 200; f++) {
    folderId = await createFolder(state, parent, `memory-${f}`);
    for (let i = 0; i < 500; i++) await createFile(state, folderId, `file-${i}.txt`, Buffer.alloc(100, i % 256));
  }
  const seconds = (performance.now() - t0) / 1000;
  gc();
  const bytes = used() - before;
  // Reading the state after the measurement keeps it reachable through the last gc() and checks the files exist.
  const req: OpRequest = { operationId: 'folder.getFiles', path: { folderId: String(folderId) }, query: { maxItems: 0 }, rawQuery: {} };
  const { numItems } = (await handlers['folder.getFiles']!(state, req, { faults: new Set() })) as { numItems: number };
  if (numItems !== 500) throw new Error(`expected 500 files in the last folder, found ${numItems}`);
  return `memory for 100,000 files of 100 bytes: ${(bytes / 2 ** 20).toFixed(1)} MiB (${Math.round(bytes / 100_000)} bytes per file), created in ${seconds.toFixed(1)} s`;
}

/** The figure beside its target, e.g. "2,430 req/s (target 2,000)". */
function againstTarget(value: string, target: string, met: boolean): string {
  return `${value} (target ${target}${met ? '' : ', MISSED'})`;
}

const thousands = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * Names, sizes and types of the seeded files, varied so that every sort order really sorts: the names
 * are a permutation of the creation order (7919 is prime, so i * 7919 mod 10,000 visits every number).
 */
function seededFile(i: number): { name: string; data: Buffer } {
  const ext = ['.txt', '.html', '.css', '.json', '.csv'][i % 5]!;
  return { name: `file-${String((i * 7919) % FILES).padStart(5, '0')}${ext}`, data: Buffer.alloc(i % 997, 'x') };
}

/**
 * Seconds to create the seeded files one after another, in-process through the createSimple raw handler;
 * with `oneName`, every upload asks for the same name (the unique-name rule makes it `same_9999.txt`).
 */
async function createInProcess(state: State, folderId: number, oneName = false): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < FILES; i++) {
    const { name, data } = seededFile(i);
    await createFile(state, folderId, oneName ? 'same.txt' : name, data);
  }
  return (performance.now() - start) / 1000;
}

/** Seconds to create the seeded files over HTTP (raw createSimple), CONCURRENCY in flight. */
async function createOverHttp(pool: Pool, base: string, folderId: number): Promise<number> {
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    for (let i = next++; i < FILES; i = next++) {
      const { name, data } = seededFile(i);
      const res = await pool.request({
        method: 'POST',
        path: `${base}/file/createSimple?folderId=${folderId}&qqfile=${encodeURIComponent(name)}`,
        headers: { 'content-type': 'application/octet-stream' },
        body: data,
      });
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`createSimple answered ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return (performance.now() - start) / 1000;
}

/** The Group L sort orders of getFiles (every `sortby` key, one descending) and the Group P ones of GET /file. */
function pageScenarios(state: State, base: string, folderId: number): { scenario: string; path: string }[] {
  const legacy = Object.keys(legacySortKeys(state, viewOf(state, fixtureIds(state).masterNodeId)));
  const attributes = ['id', 'name', 'niceUrl', 'alternateUrls', 'fileSize', 'fileType', 'cdate', 'edate', '-name', 'fileType,-fileSize'];
  return [
    ...[...legacy.map((k) => `sortby=${k}`), 'sortby=name&sortorder=desc'].map((q) => ({
      scenario: `getFiles ${q}`,
      path: `${base}/folder/getFiles/${folderId}?maxItems=100&skipCount=5000&${q}`,
    })),
    ...attributes.map((k) => ({
      scenario: `GET /file sort=${k}`,
      path: `${base}/file?folderId=${folderId}&page=50&pageSize=100&sort=${encodeURIComponent(k)}`,
    })),
  ];
}

/** What the server process reports once it listens. */
interface Served {
  baseUrl: string;
  fixture: { masterRootFolderId: number; sandboxParentFolderId: number };
}

/** `--serve`: this script as the server process; it prints one JSON line (Served) and runs until its stdin closes. */
async function serve(): Promise<void> {
  const server = await startReferenceServer();
  const served: Served = { baseUrl: server.baseUrl, fixture: server.target.fixture };
  process.stdout.write(`${JSON.stringify(served)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
}

/**
 * The reference server in a process of its own, as a client team runs it, so that the client's work
 * (undici, in this process) does not share the server's thread: on two cores each gets one.
 */
async function serverProcess(): Promise<Served & { close: () => Promise<void> }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    void exited.then(() => reject(new Error(`the server process exited before listening:\n${out}`)));
  });
  return {
    ...(JSON.parse(line) as Served),
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/** Creates a folder over HTTP; returns its id. */
async function createFolderOverHttp(pool: Pool, base: string, motherId: number, name: string): Promise<number> {
  const res = await pool.request({
    method: 'POST',
    path: `${base}/folder/create`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ motherId: String(motherId), name }),
  });
  const body = (await res.body.json()) as { folder?: { id: number } };
  if (!body.folder) throw new Error(`folder/create answered ${res.statusCode}: ${JSON.stringify(body)}`);
  return body.folder.id;
}

/** The id of a folder's first file (by name). */
async function firstFileIn(pool: Pool, base: string, folderId: number): Promise<number> {
  const res = await pool.request({ method: 'GET', path: `${base}/folder/getFiles/${folderId}?maxItems=1` });
  return ((await res.body.json()) as { files: { id: number }[] }).files[0]!.id;
}

/** Seconds to create the seeded files in one folder of a fresh in-process store: with distinct names, and all of one name. */
async function inProcessCreation(): Promise<{ seedSeconds: number; oneNameSeconds: number }> {
  const local = createState(defaultDataset());
  const parent = fixtureIds(local).sandboxParentFolderId;
  const seedSeconds = await createInProcess(local, await createFolder(local, parent, 'bench-10k'));
  const oneNameSeconds = await createInProcess(local, await createFolder(local, parent, 'bench-same'), true);
  return { seedSeconds, oneNameSeconds };
}

async function main(): Promise<void> {
  const { seedSeconds, oneNameSeconds } = await inProcessCreation();
  // The 20,000 files just made are garbage: collected now, not by the client in the middle of a measure.
  collector()();

  const server = await serverProcess();
  const fixture = server.fixture;
  const url = new URL(server.baseUrl);
  const pool = new Pool(url.origin, { connections: CONCURRENCY, keepAliveTimeout: 30_000 });
  const bigFolder = await createFolderOverHttp(pool, url.pathname, fixture.sandboxParentFolderId, 'bench-10k');
  const uploadFolder = await createFolderOverHttp(pool, url.pathname, fixture.sandboxParentFolderId, 'bench-uploads');
  const httpSeconds = await createOverHttp(pool, url.pathname, bigFolder);
  const upload = Buffer.alloc(10 * 1024, 'u');
  let uploads = 0;
  const rows = [await measure(pool, 'folder load', { method: 'GET', path: `${url.pathname}/folder/load/${fixture.masterRootFolderId}` })];
  const pages = pageScenarios(createState(defaultDataset()), url.pathname, bigFolder);
  // Untimed: the first page of each order builds its sorted view and compiles the paging path of both
  // processes; without this, the first order measured paid for what every later one found done.
  for (const { path } of pages) await measure(pool, 'warm-up', { method: 'GET', path }, WARM_UP_SECONDS_PER_SORT);
  const rounds: Row[][] = pages.map(() => []);
  for (let round = 0; round < SORT_ROUNDS; round++) {
    for (const [i, { scenario, path }] of pages.entries()) {
      const row = await measure(
        pool,
        `page 51 of 100: ${scenario}`,
        { method: 'GET', path },
        SECONDS_PER_SORT / SORT_ROUNDS,
        TARGET_PAGE_PER_SECOND,
      );
      rounds[i]!.push(row);
    }
  }
  rows.push(...rounds.map(mergeRounds));
  // The kept sorted views and records last until the store changes: a page right after a change pays for both again.
  const changed = await firstFileIn(pool, url.pathname, bigFolder);
  rows.push(
    await measure(pool, 'page 51 of 100 after a change of the store (a file saved before each page; pages/s)', {
      method: 'GET',
      path: `${url.pathname}/folder/getFiles/${bigFolder}?maxItems=100&skipCount=5000&sortby=name`,
      before: {
        method: 'POST',
        path: `${url.pathname}/file/save/${changed}`,
        headers: { 'content-type': 'application/json' },
        body: () => JSON.stringify({ file: { description: `changed ${performance.now()}` } }),
      },
    }),
  );
  rows.push(
    await measure(pool, '10 KB multipart upload', {
      method: 'POST',
      path: `${url.pathname}/file/create`,
      body: () => {
        const form = new FormData();
        form.append('folderId', String(uploadFolder));
        form.append('fileBinaryData', new Blob([upload], { type: 'application/octet-stream' }), `upload-${uploads++}.bin`);
        return form;
      },
    }),
  );
  await pool.close();
  await server.close();

  const table = [
    ['scenario', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx'],
    ...rows.map((r) => [
      r.scenario,
      String(r.requests),
      (r.target === undefined
        ? thousands(r.perSecond)
        : againstTarget(`${thousands(r.perSecond)} req/s`, thousands(r.target), r.perSecond >= r.target)) +
        (r.rounds ? ` [rounds ${r.rounds.map(thousands).join(', ')}]` : ''),
      r.p50.toFixed(2),
      r.p99.toFixed(2),
      String(r.failed),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  console.log(
    `reference server in its own process, over loopback from undici in this one, ${CONCURRENCY} keep-alive connections in flight, ` +
      `${SECONDS_PER_SCENARIO} s per scenario ` +
      `(${SECONDS_PER_SORT} s per sort order, in ${SORT_ROUNDS} rounds over all orders: its figure is the median round); ` +
      `pages are 100 items at skipCount 5,000 / page 50 of a ${thousands(FILES)}-file folder\n`,
  );
  for (const row of table) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  const paging = rows.filter((r) => r.target !== undefined);
  const slowest = paging.reduce((a, r) => (r.perSecond < a.perSecond ? r : a));
  const worstRound = Math.min(...paging.flatMap((r) => r.rounds ?? [r.perSecond]));
  console.log(
    `\nslowest sort order: ${againstTarget(`${thousands(slowest.perSecond)} req/s`, thousands(TARGET_PAGE_PER_SECOND), slowest.perSecond >= TARGET_PAGE_PER_SECOND)} (${slowest.scenario}; ` +
      `the slowest single round of any order: ${thousands(worstRound)} req/s)`,
  );
  console.log(
    `creating ${thousands(FILES)} files in one folder, in-process through the createSimple raw handler: ` +
      againstTarget(`${seedSeconds.toFixed(2)} s`, `${TARGET_CREATE_SECONDS} s`, seedSeconds < TARGET_CREATE_SECONDS),
  );
  console.log(
    `creating ${thousands(FILES)} files of one name in one folder (same.txt, same_1.txt, ...), in-process: ` +
      againstTarget(`${oneNameSeconds.toFixed(2)} s`, `${TARGET_CREATE_SECONDS} s`, oneNameSeconds < TARGET_CREATE_SECONDS),
  );
  console.log(
    `creating ${thousands(FILES)} files in one folder over HTTP (raw createSimple, ${CONCURRENCY} in flight; the folder paged above): ` +
      `${httpSeconds.toFixed(2)} s ` +
      `(${thousands(FILES / httpSeconds)} req/s; no target: the HTTP layer's cost, not the store's)`,
  );
  console.log(await memoryFor100kFiles());
}

if (process.argv.includes('--serve')) await serve();
else await main();
