/**
 * How far away and how big the reference server seems: a delay before every answer (a server on
 * another network, or one with a database behind it) and a number of requests it serves at once, the
 * rest waiting in line (a small worker pool) or turned away with 429 (a server that sheds load). Neither
 * changes what an answer says: a target with them is as conforming as one without. The bench measures
 * time to verdict against them, and the tests of `--concurrency auto` give it a target to size up.
 */
import type { FastifyInstance } from 'fastify';

/** The pace of a reference server; every member is optional and off by default. */
export interface Pace {
  /** Milliseconds each request waits before it is handled. */
  latencyMs?: number;
  /** Requests served at once; further requests wait for a slot (or are refused, with `shed`). */
  capacity?: number;
  /** Turn away a request that finds every slot taken with 429 and Retry-After: 1, instead of letting it wait. */
  shed?: boolean;
}

/** Adds the pace's hooks to an app not yet listening; a pace with nothing set adds none. */
export function applyPace(app: FastifyInstance, pace: Pace): void {
  const latency = pace.latencyMs ?? 0;
  const capacity = pace.capacity ?? Infinity;
  if (latency <= 0 && capacity === Infinity) return;
  let busy = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy--;
  };
  app.addHook('onRequest', async (_request, reply) => {
    if (busy >= capacity) {
      if (pace.shed) {
        // 429: the server did not act, so a client may send any request again (a 503 says that of none).
        await reply.code(429).header('retry-after', '1').send({ error: 'busy: every slot is taken' });
        return reply;
      }
      // The slot passes from the request that frees it to the one that waited longest; a client gone while it
      // waited leaves the line, or its slot would never come back.
      const gone = await new Promise<boolean>((resolve) => {
        const take = () => {
          reply.raw.off('close', leave);
          resolve(false);
        };
        const leave = () => {
          waiting.splice(waiting.indexOf(take), 1);
          resolve(true);
        };
        waiting.push(take);
        reply.raw.once('close', leave);
      });
      if (gone) return;
    } else busy++;
    // Released once, however the exchange ends: answered, failed, or the client gone.
    let held = true;
    reply.raw.once('close', () => {
      if (held) release();
      held = false;
    });
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
  });
}
