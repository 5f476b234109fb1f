/**
 * The run's sandbox: every object the suite mutates lives in a folder it created itself under the
 * target's sandbox parent, recognisable by its name prefix, removed at the end of the run.
 */
import type { Folder, FolderLoadResponse } from '../schemas/types.ts';
import { SetupError, idOf, problemOf, requestOf } from './api.ts';
import type { Exchange, RequestSpec, Transport } from './transport.ts';

/** Every sandbox folder name starts with this; `cms-conformance clean` looks for it. */
export const SANDBOX_PREFIX = 'cmsconf-';

/** A sandbox folder name: the prefix, a UTC timestamp (so leftovers can be dated) and a random tag. */
export function sandboxName(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${SANDBOX_PREFIX}${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Sends one request: a test's judged `send` or, before any test runs, the session's transport. */
export type Sender = (spec: RequestSpec) => Promise<Exchange>;

/**
 * Creates a folder under `motherId` (in the master view unless `extra.nodeId` says otherwise) and
 * returns its record with the id as a number: the one way the suite creates folders, for the run's
 * sandbox and for every test. A refusal throws a SetupError carrying the exchange.
 */
export async function createFolder(
  send: Sender,
  motherId: number,
  name: string,
  extra: { nodeId?: number; description?: string; failOnDuplicate?: boolean; startpage?: boolean; templateId?: number } = {},
): Promise<Folder & { id: number }> {
  const exchange = await send({ ...requestOf('folder.create', { json: { motherId: String(motherId), name, ...extra } }) });
  const folder = (exchange.response?.json as FolderLoadResponse | undefined)?.folder;
  const id = idOf(folder?.id);
  // A created folder is enough to go on, whatever else is wrong with the answer (a lower-case "ok", a
  // 200): the judge has reported that, and the requirement it breaks must get to judge it.
  if (!exchange.response || exchange.response.status >= 400 || !folder || id === undefined) {
    throw new SetupError(
      `folder.create (a step this test relies on) failed: ${problemOf(exchange) ?? 'the answer has no folder id'} ` +
        `(folder "${name}" under ${motherId})`,
      exchange,
    );
  }
  return { ...folder, id };
}

/** Deletes a folder the suite created; returns false (never throws) when the target refuses. */
export async function removeFolder(transport: Transport, id: number): Promise<boolean> {
  const exchange = await transport.send({ method: 'POST', path: `/folder/delete/${id}` });
  const status = exchange.response?.status ?? 0;
  const code = (exchange.response?.json as { responseInfo?: { responseCode?: unknown } } | undefined)?.responseInfo?.responseCode;
  return status > 0 && status < 400 && (code === undefined || code === 'OK');
}
