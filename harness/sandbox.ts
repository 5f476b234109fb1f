/**
 * The run's sandbox: every object the suite mutates lives in a folder it created itself under the
 * target's sandbox parent, recognisable by its name prefix, removed at the end of the run.
 */
import { idOf } from './api.ts';
import type { Transport } from './transport.ts';

/** Every sandbox folder name starts with this; `cms-conformance clean` looks for it. */
export const SANDBOX_PREFIX = 'cmsconf-';

/** A sandbox folder name: the prefix, a UTC timestamp (so leftovers can be dated) and a random tag. */
export function sandboxName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${SANDBOX_PREFIX}${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A setup step against the target failed: the test cannot judge anything, and says why. */
export class SetupError extends Error {
  override name = 'SetupError';
}

/** Creates a folder under `motherId` (in the master view unless nodeId is given) and returns its id. */
export async function createFolder(transport: Transport, motherId: number, name: string, nodeId?: number): Promise<number> {
  const exchange = await transport.send({ method: 'POST', path: '/folder/create', json: { motherId: String(motherId), name, ...(nodeId ? { nodeId } : {}) } });
  const id = idOf((exchange.response?.json as { folder?: { id?: unknown } } | undefined)?.folder?.id);
  if (id === undefined) {
    const why = exchange.error ? exchange.error.message : `status ${exchange.response?.status}: ${exchange.response?.text.slice(0, 200)}`;
    throw new SetupError(`could not create folder "${name}" under ${motherId}: ${why}`);
  }
  return id;
}

/** Deletes a folder the suite created; returns false (never throws) when the target refuses. */
export async function removeFolder(transport: Transport, id: number): Promise<boolean> {
  const exchange = await transport.send({ method: 'POST', path: `/folder/delete/${id}` });
  const status = exchange.response?.status ?? 0;
  const code = (exchange.response?.json as { responseInfo?: { responseCode?: unknown } } | undefined)?.responseInfo?.responseCode;
  return status > 0 && status < 400 && (code === undefined || code === 'OK');
}
