/**
 * `npm run bench:server`: throughput and latency of the reference server over loopback (undici,
 * keep-alive), and its memory for 100,000 small files. Numbers are reported, never asserted.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FormData, Pool } from 'undici';
import { defaultDataset } from '../server/dataset.ts';
import { handlers } from '../server/handlers/index.ts';
import { startReferenceServer } from '../server/index.ts';
import { createState, fixtureIds, type State } from '../server/state.ts';
import type { OpRequest } from '../server/types.ts';

const SECONDS_PER_SCENARIO = 3;
const CONCURRENCY = 8;

interface Row {
  scenario: string;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  failed: number;
}

/** One request of a scenario: method, path (with query) and optional body. */
interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: () => string | Buffer | FormData;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

/** Runs one call in a loop from CONCURRENCY workers for SECONDS_PER_SCENARIO seconds. */
async function measure(pool: Pool, scenario: string, call: Call): Promise<Row> {
  const latencies: number[] = [];
  let failed = 0;
  const start = performance.now();
  const end = start + SECONDS_PER_SCENARIO * 1000;
  const worker = async () => {
    while (performance.now() < end) {
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
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed,
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

async function main(): Promise<void> {
  const server = await startReferenceServer();
  const fixture = server.target.fixture;
  const bigFolder = await createFolder(server.state, fixture.sandboxParentFolderId, 'bench-10k');
  const uploadFolder = await createFolder(server.state, fixture.sandboxParentFolderId, 'bench-uploads');
  const seedStart = performance.now();
  for (let i = 0; i < 10_000; i++)
    await createFile(server.state, bigFolder, `file-${String(i).padStart(5, '0')}.txt`, Buffer.from(`content ${i}`));
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const url = new URL(server.baseUrl);
  const pool = new Pool(url.origin, { connections: CONCURRENCY, keepAliveTimeout: 30_000 });
  const upload = Buffer.alloc(10 * 1024, 'u');
  let uploads = 0;
  const rows = [
    await measure(pool, 'folder load', { method: 'GET', path: `${url.pathname}/folder/load/${fixture.masterRootFolderId}` }),
    await measure(pool, '100-item page of a 10,000-file folder', {
      method: 'GET',
      path: `${url.pathname}/folder/getFiles/${bigFolder}?skipCount=5000&maxItems=100`,
    }),
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
  ];
  await pool.close();
  await server.close();

  const table = [
    ['scenario', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx'],
    ...rows.map((r) => [r.scenario, String(r.requests), r.perSecond.toFixed(0), r.p50.toFixed(2), r.p99.toFixed(2), String(r.failed)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  console.log(`reference server over loopback, ${CONCURRENCY} keep-alive connections, ${SECONDS_PER_SCENARIO} s per scenario\n`);
  for (const row of table) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  console.log(`\ncreating the 10,000 files of one folder (in-process, createSimple raw handler): ${seedSeconds.toFixed(1)} s`);
  console.log(await memoryFor100kFiles());
}

await main();
