/**
 * What the HTTP layer's planted faults (faults-http.ts) do to a request or an answer: server/app.ts calls
 * these where such a fault is on. Apart from the catalogue, which types.ts reaches through faults.ts,
 * so that the catalogue imports neither the seam (types.ts) nor the body reader (coerce.ts).
 */
import type { Operation } from '../schemas/operations.ts';
import { readRequestBody } from './coerce.ts';
import type { FaultSet, Handler, OpRequest } from './types.ts';

/**
 * The shape fault: every member beyond the envelope goes out with the wrong JSON type, except records
 * with an id (so a client can still follow them); an answer with nothing else gets a text responseInfo.
 * It lives here, beside the faults, so that mutation runs over the server's logic never count it.
 */
export function misshape(body: Record<string, unknown>): void {
  let changed = false;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'messages' || key === 'responseInfo' || value === null || value === undefined) continue;
    if (typeof value === 'object' && !Array.isArray(value) && 'id' in value) continue;
    body[key] = typeof value === 'string' ? value.length : JSON.stringify(value);
    changed = true;
  }
  if (!changed) body.responseInfo = 'OK';
}

/** How deep arrays and objects nest in a JSON text (brackets inside strings are not counted): the `deep-json-500` fault's measure. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The operations whose successful answers the deployed implementation sends without responseInfo: the `success-without-responseinfo` fault's. */
export const WITHOUT_RESPONSEINFO: ReadonlySet<string> = new Set(['folder.findFiles', 'folder.findPages', 'folder.getExternalLinks']);

/**
 * Planted fault refused-create-applied: a folder.create body refused for one member, without that member, given to
 * the handler as if it had been accepted; what the handler answers or refuses is dropped, the answer stays the
 * refusal. Here, beside the faults, so that mutation runs over the server's logic never count it.
 */
export async function createAnyway<S>(
  state: S,
  op: Operation,
  raw: unknown,
  property: string | undefined,
  handler: Handler<S> | undefined,
  faults: FaultSet,
): Promise<void> {
  if (op.id !== 'folder.create' || !property || !handler || !Buffer.isBuffer(raw)) return;
  try {
    const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    delete body[property.replace(/^\//, '').split(/[/.[]/)[0]!];
    const req: OpRequest = { operationId: op.id, path: {}, query: {}, rawQuery: {}, body: readRequestBody(op.requestBody!.schema!, body) };
    await handler(state, req, { faults });
  } catch {
    // Whatever the handler makes of it, the answer stays the refusal.
  }
}
