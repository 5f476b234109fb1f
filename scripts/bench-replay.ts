/**
 * Undici alone sending a recorded default run's requests again (`npm run bench`, issue 34's ratio): in the
 * bench's own thread, whose code the recording and the earlier replays have already made hot, and in a
 * worker thread of its own, a fresh V8 isolate that starts as cold as a default run's threads do. A run
 * of the suite is a process that starts cold and ends after seconds, so its code, and the reference
 * server's, runs interpreted or half-optimized for a good part of it (V8's helper thread, compiling and
 * collecting, takes over a quarter of a default run's CPU time); a replay in a hot thread has none of that
 * cost, which is no more the suite's than the server's. Both are reported: the hot one is the bare client's
 * best, the cold one the same work started as a run starts.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Pool, type Dispatcher } from 'undici';
import { startReferenceServer } from '../server/index.ts';

/** One request of a run as the server received it, with the status it was answered with. */
export interface Recorded {
  method: Dispatcher.HttpMethod;
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
  status: number;
  /** How many answers had been sent when it arrived: the requests it may depend on. */
  after: number;
}

/** What the reference server fetched for a sourceURL while the run was recorded, by URL, in order. */
export type Fetched = Map<string, ({ status: number; headers: [string, string][]; body: Buffer } | { error: string; ms: number })[]>;

/** The URL a fetch was asked for. */
const fetchedUrl = (input: Parameters<typeof fetch>[0]): string => (input instanceof Request ? input.url : String(input));

/**
 * Runs `body` with this process's fetch (the reference server's, for sourceURL) recording each answer,
 * or answering from a recording: the suite's file server is gone once its run ends.
 */
export async function withFetch<T>(fetched: Fetched, mode: 'record' | 'replay', body: () => Promise<T>): Promise<T> {
  const real = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = fetchedUrl(input);
    if (mode === 'replay') {
      const kept = fetched.get(url)?.shift();
      if (!kept || 'error' in kept) {
        await new Promise((resolve) => setTimeout(resolve, kept?.ms ?? 0));
        throw new TypeError(kept?.error ?? 'fetch failed');
      }
      return new Response(kept.body.length ? kept.body : null, { status: kept.status, headers: kept.headers });
    }
    const list = fetched.get(url) ?? fetched.set(url, []).get(url)!;
    const started = performance.now();
    try {
      const res = await real(input, init);
      const body = Buffer.from(await res.arrayBuffer());
      list.push({ status: res.status, headers: [...res.headers], body });
      return new Response(body.length ? body : null, { status: res.status, headers: res.headers });
    } catch (err) {
      list.push({ error: (err as Error).message, ms: performance.now() - started });
      throw err;
    }
  };
  try {
    return await body();
  } finally {
    globalThis.fetch = real;
  }
}

/**
 * Undici alone sending a recorded run's requests to a fresh reference server in this process, in the
 * recorded order, up to 8 in flight, each only once every answer it may depend on has come (every answer
 * the recorded server had sent when it arrived): the ceiling of the suite's own requests, with the
 * parallelism they allow. The server's ids are counters, so the objects the run made get the same ids
 * again; the share of answers with the recorded status shows how faithful the replay was.
 */
export async function replay(run: Recording): Promise<Replayed> {
  const { recorded, answered } = run;
  // Each replay answers the server's fetches from its own copy of the recording.
  const fetched: Fetched = new Map([...run.fetched].map(([url, list]) => [url, [...list]]));
  const server = await startReferenceServer({ port: 0, authToken: run.authToken });
  const url = new URL(server.baseUrl);
  const pool = new Pool(url.origin, { connections: 8 });
  const done = new Uint8Array(recorded.length);
  // How many of the recorded answers, in the recorded order, have come in this replay.
  let prefix = 0;
  let waiting: (() => void)[] = [];
  let next = 0;
  let same = 0;
  try {
    const started = performance.now();
    await withFetch(fetched, 'replay', () =>
      Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < recorded.length) {
            const index = next++;
            const r = recorded[index]!;
            while (prefix < r.after) await new Promise<void>((resolve) => waiting.push(resolve));
            const answer = await pool.request({ method: r.method, path: r.path, headers: r.headers, body: r.body.length ? r.body : null });
            await answer.body.dump();
            if (answer.statusCode === r.status) same++;
            done[index] = 1;
            while (prefix < answered.length && done[answered[prefix]!]) prefix++;
            const woken = waiting;
            waiting = [];
            woken.forEach((wake) => wake());
          }
        }),
      ),
    );
    return { rate: (recorded.length * 1000) / (performance.now() - started), sameStatus: same / Math.max(recorded.length, 1) };
  } finally {
    await pool.close();
    await server.close();
  }
}

/** A recorded run: its requests, the order their answers went back in, the server's fetches and its token. */
export interface Recording {
  recorded: Recorded[];
  /** Indexes into `recorded`, in the order their answers were sent. */
  answered: number[];
  fetched: Fetched;
  authToken: string;
}

/** One replay's requests per second and the share of answers with their recorded status. */
export interface Replayed {
  rate: number;
  sameStatus: number;
}

const COLD = 'cms-bench-cold-replay';

/**
 * The replay in a worker thread of its own: a fresh isolate, with the reference server and undici loaded
 * anew and every function starting in the interpreter, as in a default run. The recording is copied to it
 * before the clock starts.
 */
export function coldReplay(run: Recording): Promise<Replayed> {
  return new Promise((resolve, reject) => {
    // A worker gets none of its parent's module hooks: it loads this module, TypeScript, through tsx's API itself.
    const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const self = JSON.stringify(import.meta.url);
    const worker = new Worker(`import(${api}).then(({ tsImport }) => tsImport(${self}, ${self}))`, {
      eval: true,
      workerData: { [COLD]: run },
    });
    worker.once('message', (m: Replayed) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the cold replay's worker ended (exit ${code}) without a result`)));
  });
}

if (!isMainThread && (workerData as Record<string, unknown> | undefined)?.[COLD]) {
  parentPort!.postMessage(await replay((workerData as Record<string, Recording>)[COLD]!));
}
