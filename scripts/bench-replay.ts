/**
 * Undici alone sending a recorded default run's requests again (`npm run bench`, issue 34's ratio): in the
 * bench's own thread, whose code the recording and the earlier replays have already made hot, and in a
 * worker thread of its own, a fresh V8 isolate that starts as cold as a default run's threads do. A run
 * of the suite is a process that starts cold and ends after seconds, so its code, and the reference
 * server's, runs interpreted or half-optimized for a good part of it (V8's helper thread, compiling and
 * collecting, takes a large share of a default run's CPU time: BENCHMARKS.md); a replay in a hot thread has none of that
 * cost, which is no more the suite's than the server's. And a run's layout: a run serves on its main thread
 * and sends from its suite files' threads, so every request and answer goes between threads, which both
 * replays above are spared (client and server in one thread). All three are reported: the hot one is the
 * bare client's best, the cold one the same work started as a run starts, the layout one the same work
 * started and laid out as a run is.
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
  // Each replay answers the server's fetches from its own copy of the recording.
  const fetched: Fetched = new Map([...run.fetched].map(([url, list]) => [url, [...list]]));
  const server = await startReferenceServer({ port: 0, authToken: run.authToken });
  try {
    return await withFetch(fetched, 'replay', () => sendAll(run, server.baseUrl));
  } finally {
    await server.close();
  }
}

/** Sends a recorded run's requests to the server at `baseUrl` as `replay` says; the clock runs from the first request to the last answer. */
async function sendAll({ recorded, answered }: Pick<Recording, 'recorded' | 'answered'>, baseUrl: string): Promise<Replayed> {
  const pool = new Pool(new URL(baseUrl).origin, { connections: 8 });
  const done = new Uint8Array(recorded.length);
  // How many of the recorded answers, in the recorded order, have come in this replay.
  let prefix = 0;
  let waiting: (() => void)[] = [];
  let next = 0;
  let same = 0;
  try {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < recorded.length) {
          const index = next++;
          const r = recorded[index]!;
          while (prefix < r.after) await new Promise<void>((resolve) => waiting.push(resolve));
          // The server may answer a large body before it has read all of it and close the connection: with the
          // server on another thread the client can still be writing it (EPIPE), where in one thread the write
          // ended first. It counts as an answer without its recorded status.
          try {
            const answer = await pool.request({ method: r.method, path: r.path, headers: r.headers, body: r.body.length ? r.body : null });
            await answer.body.dump();
            if (answer.statusCode === r.status) same++;
          } catch {}
          done[index] = 1;
          while (prefix < answered.length && done[answered[prefix]!]) prefix++;
          const woken = waiting;
          waiting = [];
          woken.forEach((wake) => wake());
        }
      }),
    );
    return { rate: (recorded.length * 1000) / (performance.now() - started), sameStatus: same / Math.max(recorded.length, 1) };
  } finally {
    await pool.close();
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

/** A fresh worker thread running this module (TypeScript, through tsx's API: a worker gets none of its parent's module hooks). */
function freshThread(data: Record<string, unknown>): Worker {
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const self = JSON.stringify(import.meta.url);
  return new Worker(`import(${api}).then(({ tsImport }) => tsImport(${self}, ${self}))`, { eval: true, workerData: data });
}

/** A thread's first message; its error, or its end without one, fails it. */
function firstMessage<T>(worker: Worker, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`${what} ended (exit ${code}) without a result`)));
  });
}

/**
 * The replay in a worker thread of its own: a fresh isolate, with the reference server and undici loaded
 * anew and every function starting in the interpreter, as in a default run. The recording is copied to it
 * before the clock starts.
 */
export function coldReplay(run: Recording): Promise<Replayed> {
  return firstMessage<Replayed>(freshThread({ [COLD]: run }), "the cold replay's worker");
}

const LAYOUT_SERVER = 'cms-bench-layout-server';
const LAYOUT_CLIENT = 'cms-bench-layout-client';

/**
 * The same requests in a run's layout: from a cold start, the server in a fresh thread of its own (as a run's
 * main thread) and the requests sent from another fresh thread (as a suite file's), so that every request and
 * every answer goes from one thread to another, as in a run; each thread on its own core while the other
 * works. A default run has two sending threads, but the recorded order makes every request wait for the
 * answers before it, which two threads would have to pass to each other, a cost no run pays. The suite over
 * this replay is its own cost over a bare client's in the same layout; what separates this replay from the
 * cold one is the layout's.
 */
export async function layoutReplay(run: Recording): Promise<Replayed> {
  const server = freshThread({ [LAYOUT_SERVER]: { fetched: run.fetched, authToken: run.authToken } });
  try {
    const { baseUrl } = await firstMessage<{ baseUrl: string }>(server, "the layout replay's server thread");
    const client = freshThread({ [LAYOUT_CLIENT]: { recorded: run.recorded, answered: run.answered, baseUrl } });
    return await firstMessage<Replayed>(client, "the layout replay's client thread");
  } finally {
    await server.terminate();
  }
}

const data = (isMainThread ? undefined : workerData) as Record<string, unknown> | undefined;
if (data?.[COLD]) parentPort!.postMessage(await replay(data[COLD] as Recording));
if (data?.[LAYOUT_SERVER]) {
  const { fetched, authToken } = data[LAYOUT_SERVER] as Pick<Recording, 'fetched' | 'authToken'>;
  const server = await startReferenceServer({ port: 0, authToken });
  // The server's fetches are answered from the recording for as long as the thread lives: it is ended, never closed.
  void withFetch(fetched, 'replay', () => new Promise(() => {}));
  parentPort!.postMessage({ baseUrl: server.baseUrl });
}
if (data?.[LAYOUT_CLIENT]) {
  const { baseUrl, ...run } = data[LAYOUT_CLIENT] as Pick<Recording, 'recorded' | 'answered'> & { baseUrl: string };
  parentPort!.postMessage(await sendAll(run, baseUrl));
}
