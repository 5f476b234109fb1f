/**
 * Response bodies as JSON, without null members (the deployed implementation leaves them out,
 * reference notes), and records whose JSON is kept beside them. A large page spends more time in
 * JSON.stringify than anywhere else, so records a listing answers again and again (handlers/render.ts
 * keptFileRecord) are written once, as UTF-8 bytes, and a body holding them is put together from
 * those bytes: no page-sized string is built and encoded again for every answer.
 */

/** Drops members whose value is null. */
function withoutNulls(_key: string, value: unknown): unknown {
  return value === null ? undefined : value;
}

/**
 * A value as JSON without null members. A replacer makes JSON.stringify about twice as slow, so the
 * plain form is written first and the replacer runs only when a member is null (`:null` outside a
 * string; inside one it merely costs the second pass). Undefined for what JSON leaves out.
 */
function json(value: unknown): string | undefined {
  const text = JSON.stringify(value) as string | undefined;
  return text !== undefined && text.includes(':null') ? (JSON.stringify(value, withoutNulls) as string | undefined) : text;
}

/** Records frozen with their JSON as UTF-8 bytes. */
const texts = new WeakMap<object, Buffer>();

/** Freezes an object and everything in it. */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}

/**
 * Freezes a record (deeply) and keeps its JSON text, for a record answered unchanged by many requests:
 * frozen, because the text must stay what the record says.
 */
export function keepJson<T extends object>(record: T): T {
  deepFreeze(record);
  texts.set(record, Buffer.from(json(record)!));
  return record;
}

/** Whether a member is a non-empty array of records with kept texts. */
function keptArray(value: unknown): value is object[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && texts.has(v));
}

/**
 * Large bodies are written into buffers used again once their answer is sent. A new buffer of 100 KB
 * is new memory from the C allocator, which hands freed memory of that size back to the system: every
 * page of it faults again on first write. Measured on a 100-item page of a 10,000-file folder, that
 * was 120 µs of the copy (25 µs with the allocator told to keep its memory) and a quarter of the
 * server's time per page.
 */
const POOLED_MIN = 64 * 1024;
const POOLED_MAX = 8 * 1024 * 1024;
/** Free buffers kept per size: a few answers in flight at once, and at most 16 MB of one size. */
const keptPerSize = (size: number): number => Math.min(8, Math.floor((16 * 1024 * 1024) / size));
/** Free buffers by size (powers of two). */
const freeBodies = new Map<number, Buffer[]>();
/** Each pooled body handed out, with the whole buffer it is a view of. */
const pooled = new WeakMap<Buffer, Buffer>();

/** A buffer for a body of `size` bytes: a view of a pooled one when the size is worth it. */
function bodyBuffer(size: number): Buffer {
  if (size < POOLED_MIN || size > POOLED_MAX) return Buffer.allocUnsafe(size);
  const capacity = 2 ** Math.ceil(Math.log2(size));
  const whole = freeBodies.get(capacity)?.pop() ?? Buffer.allocUnsafeSlow(capacity);
  const body = whole.subarray(0, size);
  pooled.set(body, whole);
  return body;
}

/**
 * Takes back a body bodyJson wrote, for another answer: call it only once the answer holding it has
 * been written in full (the response's 'finish'). Anything else is ignored, and so is a second call.
 */
export function releaseBody(body: string | Buffer): void {
  if (typeof body === 'string') return;
  const whole = pooled.get(body);
  if (!whole) return;
  pooled.delete(body);
  let free = freeBodies.get(whole.length);
  if (!free) freeBodies.set(whole.length, (free = []));
  if (free.length < keptPerSize(whole.length)) free.push(whole);
}

const COMMA = Buffer.from(',');
const CLOSE_ARRAY = Buffer.from(']');
const CLOSE_OBJECT = Buffer.from('}');

/**
 * A response body as JSON without null members: exactly JSON.stringify(body, withoutNulls), as text,
 * or as its UTF-8 bytes when a member is an array of kept records (written from their kept bytes;
 * give them back with releaseBody once sent).
 */
export function bodyJson(body: Record<string, unknown>): string | Buffer {
  const members = Object.keys(body);
  if (!members.some((k) => keptArray(body[k]))) return json(body)!;
  const parts: Buffer[] = [];
  let head = '{';
  for (const k of members) {
    const value = body[k];
    if (keptArray(value)) {
      parts.push(Buffer.from(`${head}${JSON.stringify(k)}:[`));
      value.forEach((v, i) => {
        if (i) parts.push(COMMA);
        parts.push(texts.get(v)!);
      });
      parts.push(CLOSE_ARRAY);
      head = ',';
      continue;
    }
    const text = value === null ? undefined : json(value);
    if (text === undefined) continue;
    parts.push(Buffer.from(`${head}${JSON.stringify(k)}:${text}`));
    head = ',';
  }
  parts.push(CLOSE_OBJECT);
  let size = 0;
  for (const part of parts) size += part.length;
  const out = bodyBuffer(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
